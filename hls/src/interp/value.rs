//! Lane values: how the interpreter keeps IR values in its slot frames (one `u64` word per
//! lane, pointers as an offset word plus a base word) and the bit helpers every op uses.

use crate::ir::{Base, ObjectId, Ty};

/// The most lanes an IR vector has.
pub const MAX_LANES: usize = 16;

/// A scalar element kind, resolved once from an IR type so evaluation does not walk `Ty`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ek {
    /// An integer of this many bits (1..=64).
    I(u8),
    F16,
    F32,
    F64,
    Ptr,
}

impl Ek {
    pub fn of(ty: &Ty) -> Ek {
        match ty.elem() {
            Ty::I(n) => Ek::I(*n),
            Ty::F16 => Ek::F16,
            Ty::F32 => Ek::F32,
            Ty::F64 => Ek::F64,
            Ty::Ptr(_) => Ek::Ptr,
            Ty::Vec(..) => Ek::I(64),
        }
    }

    pub fn bits(self) -> u32 {
        match self {
            Ek::I(n) => n as u32,
            Ek::F16 => 16,
            Ek::F32 => 32,
            Ek::F64 | Ek::Ptr => 64,
        }
    }

    /// Bytes one lane takes in memory.
    pub fn store_size(self) -> usize {
        match self {
            Ek::I(n) => (n as usize).div_ceil(8).max(1),
            Ek::F16 => 2,
            Ek::F32 => 4,
            Ek::F64 | Ek::Ptr => 8,
        }
    }
}

/// The shape of a value: element kind and lane count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub ek: Ek,
    pub lanes: u8,
}

impl Shape {
    pub fn of(ty: &Ty) -> Shape {
        Shape {
            ek: Ek::of(ty),
            lanes: ty.lanes(),
        }
    }

    /// Frame words the value occupies (a pointer takes two: offset and base).
    pub fn words(self) -> usize {
        if self.ek == Ek::Ptr {
            2
        } else {
            self.lanes as usize
        }
    }
}

/// The low `bits` bits set.
#[inline]
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extends the low `bits` bits of `v` to an i64.
#[inline]
pub fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let s = 64 - bits;
        ((v << s) as i64) >> s
    }
}

#[inline]
pub fn f32_of(v: u64) -> f32 {
    f32::from_bits(v as u32)
}

#[inline]
pub fn f64_of(v: u64) -> f64 {
    f64::from_bits(v)
}

#[inline]
pub fn of_f32(f: f32) -> u64 {
    f.to_bits() as u64
}

#[inline]
pub fn of_f64(f: f64) -> u64 {
    f.to_bits()
}

/// A lane read as a float widened to f64 (exact for f32 and f16).
#[inline]
pub fn float_of(ek: Ek, v: u64) -> f64 {
    match ek {
        Ek::F32 => f32_of(v) as f64,
        Ek::F16 => super::convert::f16_to_f32(v as u16) as f64,
        _ => f64_of(v),
    }
}

/// Pointer base words: 0 is the null pointer, then buffer parameters, then objects.
pub const NULL_BASE: u64 = 0;
const OBJECT_TAG: u64 = 1 << 32;

pub fn base_word(b: Base) -> u64 {
    match b {
        Base::Param(i) => 1 + i as u64,
        Base::Object(o) => OBJECT_TAG | o.0 as u64,
    }
}

pub fn base_of_word(w: u64) -> Option<Base> {
    if w == NULL_BASE {
        None
    } else if w & OBJECT_TAG != 0 {
        Some(Base::Object(ObjectId((w & 0xFFFF_FFFF) as u32)))
    } else {
        Some(Base::Param((w - 1) as u32))
    }
}

/// Pointers stored in memory are 8 bytes: the base word in the high 16 bits and a 48-bit
/// offset, so a pointer written into a private array reads back as the same pointer.
pub fn pack_ptr(offset: u64, base: u64) -> u64 {
    let b = match base_of_word(base) {
        None => 0,
        Some(Base::Param(i)) => 1 + i as u64,
        Some(Base::Object(o)) => 0x8000 | o.0 as u64,
    };
    (b << 48) | (offset & mask(48))
}

pub fn unpack_ptr(v: u64) -> (u64, u64) {
    let b = v >> 48;
    let off = sext(v & mask(48), 48) as u64;
    let base = if b == 0 {
        NULL_BASE
    } else if b & 0x8000 != 0 {
        OBJECT_TAG | (b & 0x7FFF)
    } else {
        b
    };
    (off, base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_extension_and_masks() {
        assert_eq!(sext(0xFF, 8), -1);
        assert_eq!(sext(0x7F, 8), 127);
        assert_eq!(sext(1, 1), -1);
        assert_eq!(mask(64), u64::MAX);
        assert_eq!(mask(12), 0xFFF);
    }

    #[test]
    fn pointers_survive_memory() {
        for b in [Base::Param(0), Base::Param(7), Base::Object(ObjectId(3))] {
            let w = base_word(b);
            for off in [0u64, 12, (-8i64) as u64] {
                assert_eq!(unpack_ptr(pack_ptr(off, w)), (off, w));
            }
        }
        assert_eq!(unpack_ptr(pack_ptr(0, NULL_BASE)), (0, NULL_BASE));
    }
}
