//! Size, alignment and field offsets of OpenCL C types and of struct/union definitions,
//! following the x86-64/SPIR64 ABI that clang and POCL use (pure functions).

use crate::frontend::types::{RecordId, Scalar, Type};

/// Size and alignment of a type, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub size: u64,
    pub align: u64,
}

/// The largest alignment of the device: what `aligned` without a factor means.
pub const MAX_ALIGN: u64 = 128;

/// Pointers are 64 bits wide in the language (spir64), like `size_t`.
pub const POINTER_LAYOUT: Layout = Layout { size: 8, align: 8 };

pub fn scalar_layout(s: Scalar) -> Layout {
    let n = s.size() as u64;
    Layout { size: n, align: n }
}

/// Vectors are aligned to their size; 3-lane vectors take the room of 4 lanes.
pub fn vector_layout(s: Scalar, lanes: u8) -> Layout {
    let stored = if lanes == 3 { 4 } else { lanes as u64 };
    let n = s.size() as u64 * stored;
    Layout { size: n, align: n }
}

/// Layout of any complete type; `records` gives the layout of struct/union definitions.
/// `None` for incomplete types (void, unsized arrays, undefined records, functions).
pub fn type_layout(ty: &Type, records: &dyn Fn(RecordId) -> Option<Layout>) -> Option<Layout> {
    match ty {
        Type::Scalar(s) => Some(scalar_layout(*s)),
        Type::Vector(s, n) => Some(vector_layout(*s, *n)),
        Type::Pointer(_) => Some(POINTER_LAYOUT),
        Type::Array(elem, Some(n)) => {
            let e = type_layout(elem, records)?;
            Some(Layout {
                size: e.size.checked_mul(*n)?,
                align: e.align,
            })
        }
        Type::Record(r) => records(*r),
        // Enumerations are int-sized in clang unless a value needs more; we keep int.
        Type::Enum(_) => Some(scalar_layout(Scalar::Int)),
        // Events and samplers are handles, pointer-sized in POCL.
        Type::Opaque(_) => Some(POINTER_LAYOUT),
        Type::Void | Type::Array(_, None) | Type::Function(_) => None,
    }
}

/// What the layout algorithm needs to know about one member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldSpec {
    /// The member's type layout; for a typedef with `aligned`, the typedef's alignment.
    pub layout: Layout,
    /// `packed` written on the member.
    pub packed: bool,
    /// `aligned(n)` written on the member (it only raises the alignment).
    pub aligned: Option<u64>,
    /// Bit-field width, if the member is a bit-field (its type's size is `layout.size`).
    pub bit_width: Option<u32>,
    /// Unnamed bit-fields do not take part in the record's alignment (SysV ABI).
    pub named: bool,
}

/// Where one member was placed. For bit-fields `offset` is the byte holding the field's
/// first bit and `bit_offset` (0..8) the bit inside that byte, counting from the least
/// significant bit as on a little-endian target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldPlacement {
    pub offset: u64,
    pub align: u64,
    pub bit_offset: Option<u32>,
    pub bit_width: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordLayout {
    pub size: u64,
    pub align: u64,
    pub fields: Vec<FieldPlacement>,
}

/// Attributes that qualify a record type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordAttrs {
    pub packed: bool,
    pub aligned: Option<u64>,
}

fn round_up(x: u64, a: u64) -> u64 {
    if a <= 1 {
        x
    } else {
        x.div_ceil(a).saturating_mul(a)
    }
}

/// The alignment a member gets inside its record: 1 when packed (on the member or the
/// record), the type's otherwise; `aligned(n)` on the member raises it either way.
fn member_align(f: &FieldSpec, rec: RecordAttrs) -> u64 {
    let base = if f.packed || rec.packed {
        1
    } else {
        f.layout.align
    };
    base.max(f.aligned.unwrap_or(1))
}

/// Lays out a struct: members in order, each at the next offset aligned for it.
pub fn layout_struct(fields: &[FieldSpec], rec: RecordAttrs) -> RecordLayout {
    let mut bits: u64 = 0;
    let mut align: u64 = 1;
    let mut out = Vec::with_capacity(fields.len());
    for f in fields {
        let a = member_align(f, rec);
        match f.bit_width {
            None => {
                let off = round_up(bits.div_ceil(8), a);
                out.push(FieldPlacement {
                    offset: off,
                    align: a,
                    bit_offset: None,
                    bit_width: None,
                });
                bits = off.saturating_add(f.layout.size).saturating_mul(8);
                align = align.max(a);
            }
            Some(w) => {
                let unit = f.layout.size.max(1) * 8;
                let packed = f.packed || rec.packed;
                if w == 0 {
                    // A zero-width bit-field closes the current unit of its type.
                    bits = round_up(bits, unit);
                } else if !packed && bits / unit != bits.saturating_add(w as u64 - 1) / unit {
                    bits = round_up(bits, unit);
                }
                if let Some(n) = f.aligned {
                    bits = round_up(bits, n * 8);
                }
                out.push(FieldPlacement {
                    offset: bits / 8,
                    align: a,
                    bit_offset: Some((bits % 8) as u32),
                    bit_width: Some(w),
                });
                bits = bits.saturating_add(w as u64);
                if f.named && w > 0 {
                    align = align.max(a);
                }
            }
        }
    }
    finish(bits.div_ceil(8), align, rec, out)
}

/// Lays out a union: every member at offset 0, size the largest member.
pub fn layout_union(fields: &[FieldSpec], rec: RecordAttrs) -> RecordLayout {
    let mut size = 0;
    let mut align = 1;
    let mut out = Vec::with_capacity(fields.len());
    for f in fields {
        let a = member_align(f, rec);
        let sz = match f.bit_width {
            Some(w) => (w as u64).div_ceil(8),
            None => f.layout.size,
        };
        size = size.max(sz);
        if f.named || f.bit_width.is_none() {
            align = align.max(a);
        }
        out.push(FieldPlacement {
            offset: 0,
            align: a,
            bit_offset: f.bit_width.map(|_| 0),
            bit_width: f.bit_width,
        });
    }
    finish(size, align, rec, out)
}

fn finish(size: u64, align: u64, rec: RecordAttrs, fields: Vec<FieldPlacement>) -> RecordLayout {
    let align = align.max(rec.aligned.unwrap_or(1));
    RecordLayout {
        size: round_up(size, align),
        align,
        fields,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: Scalar) -> FieldSpec {
        FieldSpec {
            layout: scalar_layout(s),
            packed: false,
            aligned: None,
            bit_width: None,
            named: true,
        }
    }

    fn offsets(r: &RecordLayout) -> Vec<u64> {
        r.fields.iter().map(|p| p.offset).collect()
    }

    #[test]
    fn vectors_of_three_take_four_lanes() {
        assert_eq!(
            vector_layout(Scalar::Float, 3),
            Layout {
                size: 16,
                align: 16
            }
        );
        assert_eq!(
            vector_layout(Scalar::UChar, 3),
            Layout { size: 4, align: 4 }
        );
        assert_eq!(
            vector_layout(Scalar::Long, 16),
            Layout {
                size: 128,
                align: 128
            }
        );
    }

    #[test]
    fn natural_struct_pads_members_and_tail() {
        let r = layout_struct(
            &[f(Scalar::Char), f(Scalar::Int), f(Scalar::Char)],
            RecordAttrs::default(),
        );
        assert_eq!(offsets(&r), vec![0, 4, 8]);
        assert_eq!((r.size, r.align), (12, 4));
    }

    #[test]
    fn packed_member_follows_previous_byte() {
        // struct foo { char a; int x[2] __attribute__((packed)); } from the spec: size 9.
        let arr = FieldSpec {
            layout: Layout { size: 8, align: 4 },
            packed: true,
            ..f(Scalar::Int)
        };
        let r = layout_struct(&[f(Scalar::Char), arr], RecordAttrs::default());
        assert_eq!(offsets(&r), vec![0, 1]);
        assert_eq!((r.size, r.align), (9, 1));
    }

    #[test]
    fn aligned_member_and_struct() {
        let v = FieldSpec {
            aligned: Some(8),
            ..f(Scalar::Int)
        };
        let r = layout_struct(&[f(Scalar::Char), v], RecordAttrs::default());
        assert_eq!(offsets(&r), vec![0, 8]);
        assert_eq!((r.size, r.align), (16, 8));
        let s = FieldSpec {
            layout: Layout { size: 6, align: 2 },
            ..f(Scalar::Short)
        };
        let r = layout_struct(
            &[s],
            RecordAttrs {
                packed: false,
                aligned: Some(8),
            },
        );
        assert_eq!((r.size, r.align), (8, 8));
    }

    #[test]
    fn packed_struct_keeps_member_aligned() {
        let rec = RecordAttrs {
            packed: true,
            aligned: None,
        };
        let r = layout_struct(&[f(Scalar::UChar), f(Scalar::UShort), f(Scalar::UInt)], rec);
        assert_eq!(offsets(&r), vec![0, 1, 3]);
        assert_eq!((r.size, r.align), (7, 1));
        let al = FieldSpec {
            aligned: Some(4),
            ..f(Scalar::UInt)
        };
        let r = layout_struct(&[f(Scalar::UChar), al], rec);
        assert_eq!(offsets(&r), vec![0, 4]);
        assert_eq!((r.size, r.align), (8, 4));
    }

    #[test]
    fn union_is_largest_member_rounded() {
        let arr = FieldSpec {
            layout: Layout { size: 5, align: 1 },
            ..f(Scalar::Char)
        };
        let r = layout_union(&[arr, f(Scalar::Int)], RecordAttrs::default());
        assert_eq!(offsets(&r), vec![0, 0]);
        assert_eq!((r.size, r.align), (8, 4));
    }

    #[test]
    fn bit_fields_follow_sysv() {
        let bf = |s: Scalar, w: u32| FieldSpec {
            bit_width: Some(w),
            ..f(s)
        };
        // struct { char a; int b:3; int c:30; short d:5; } is 12 bytes with clang on x86-64.
        let r = layout_struct(
            &[
                f(Scalar::Char),
                bf(Scalar::Int, 3),
                bf(Scalar::Int, 30),
                bf(Scalar::Short, 5),
            ],
            RecordAttrs::default(),
        );
        assert_eq!(r.fields[1].offset, 1);
        assert_eq!(r.fields[1].bit_offset, Some(0));
        assert_eq!(r.fields[2].offset, 4);
        assert_eq!(r.fields[3].offset, 8);
        assert_eq!((r.size, r.align), (12, 4));
        // An unnamed zero-width field only moves to the next unit; alignment stays 1.
        let zero = FieldSpec {
            named: false,
            ..bf(Scalar::Int, 0)
        };
        let r = layout_struct(
            &[f(Scalar::Char), zero, f(Scalar::Char)],
            RecordAttrs::default(),
        );
        assert_eq!(offsets(&r), vec![0, 4, 4]);
        assert_eq!((r.size, r.align), (5, 1));
    }

    #[test]
    fn type_layout_of_arrays_and_pointers() {
        let none = |_| None;
        let t = Type::Array(Box::new(Type::Vector(Scalar::Float, 3)), Some(2));
        assert_eq!(
            type_layout(&t, &none),
            Some(Layout {
                size: 32,
                align: 16
            })
        );
        assert_eq!(type_layout(&Type::Void, &none), None);
        let huge = Type::Array(Box::new(Type::Scalar(Scalar::Long)), Some(u64::MAX));
        assert_eq!(type_layout(&huge, &none), None);
    }
}
