//! Places: what an lvalue designates (a variable, bytes of memory, lanes of a vector),
//! with the addresses of objects, array elements and struct members and their alignment.

use crate::diag::Span;
use crate::frontend::ast::{Expr, ExprKind, UnaryOp};
use crate::frontend::types::{AddrSpace, Type};
use crate::ir::{Conv, OpKind, Ty, VarId};

use super::types::{align_after, elem, ir_ty, is_aggregate, is_signed, layout};
use super::{Lowerer, Storage, Val, R};

/// What an lvalue designates.
#[derive(Clone, Debug)]
pub enum Place {
    Var(VarId, Type),
    /// A kernel parameter never assigned (read-only).
    Param(u32, Type),
    /// Memory at `ptr` holding a `ty`; aggregates are used through their address.
    Mem {
        ptr: Val,
        space: AddrSpace,
        ty: Type,
        align: u64,
    },
    /// Lanes of a vector held in a variable (swizzles, constant subscripts).
    Lanes {
        inner: Box<Place>,
        lanes: Vec<u8>,
        ty: Type,
    },
    /// A bit-field: `width` bits from bit `bit` (LSB first) of the bytes at `ptr`.
    BitField {
        ptr: Val,
        space: AddrSpace,
        ty: Type,
        bit: u32,
        width: u32,
    },
    /// A lane picked at run time from a vector held in a variable.
    DynLane {
        inner: Box<Place>,
        index: Val,
        ty: Type,
    },
}

impl Place {
    pub fn ty(&self) -> &Type {
        match self {
            Place::Var(_, t) | Place::Param(_, t) => t,
            Place::Mem { ty, .. }
            | Place::Lanes { ty, .. }
            | Place::DynLane { ty, .. }
            | Place::BitField { ty, .. } => ty,
        }
    }
}

impl Lowerer<'_> {
    /// The place an lvalue expression designates.
    pub fn place(&mut self, e: &Expr) -> R<Place> {
        let info = self.p.expr(e.id);
        let Some(ty) = info.ty.clone() else {
            return self.fail(e.span, "expression without a type");
        };
        match &e.kind {
            ExprKind::Ident(id) => {
                let Some(sid) = info.symbol else {
                    return self.fail(id.span, format!("'{}' does not name a variable", id.name));
                };
                let align = self.p.symbol(sid).align;
                match self.storage(sid, e.span)? {
                    Storage::Var(v) => Ok(Place::Var(v, ty)),
                    Storage::Param(i) => Ok(Place::Param(i, ty)),
                    Storage::Object(o, space) => {
                        let ptr = self.op(OpKind::ObjectAddr(o), Ty::Ptr(space), e.span, &[]);
                        Ok(Place::Mem {
                            ptr,
                            space,
                            ty,
                            align,
                        })
                    }
                }
            }
            ExprKind::Unary(UnaryOp::Deref, x) => self.pointee_place(x, ty),
            ExprKind::StrLit(bytes) => {
                let o = self.string_object(bytes, e.span);
                let ptr = self.op(
                    OpKind::ObjectAddr(o),
                    Ty::Ptr(AddrSpace::Constant),
                    e.span,
                    &[],
                );
                Ok(Place::Mem {
                    ptr,
                    space: AddrSpace::Constant,
                    ty,
                    align: 1,
                })
            }
            ExprKind::Index(a, i) => self.index_place(e, a, i, ty),
            ExprKind::Member {
                base,
                arrow,
                member,
            } => {
                if let Some(lanes) = info.swizzle.clone() {
                    let inner = self.place(base)?;
                    return self.lanes_place(inner, lanes, ty, e.span);
                }
                let inner = if *arrow {
                    self.pointee_place(base, self.pointee_of(base))?
                } else {
                    self.struct_place(base)?
                };
                let Place::Mem {
                    ptr,
                    space,
                    ty: rty,
                    align,
                } = inner
                else {
                    return self.fail(e.span, "member access on something that is not in memory");
                };
                let Type::Record(rid) = rty else {
                    return self.fail(e.span, "member access on a non-record");
                };
                let field = self
                    .p
                    .record(rid)
                    .and_then(|r| {
                        r.fields
                            .iter()
                            .find(|f| f.name.as_deref() == Some(member.name.as_str()))
                    })
                    .cloned();
                let Some(f) = field else {
                    return self.fail(member.span, format!("no member named '{}'", member.name));
                };
                let ptr = self.ptr_add_const(&ptr, f.offset as i64, e.span);
                if let (Some(bit), Some(width)) = (f.bit_offset, f.bit_width) {
                    if bit + width > 64 {
                        return self.fail(
                            member.span,
                            "a bit-field spanning more than 8 bytes is not supported",
                        );
                    }
                    return Ok(Place::BitField {
                        ptr,
                        space,
                        ty,
                        bit,
                        width,
                    });
                }
                let align = align_after(align, f.offset).min(f.align.max(1));
                Ok(Place::Mem {
                    ptr,
                    space,
                    ty,
                    align,
                })
            }
            _ if is_aggregate(&ty) => self.struct_place(e),
            _ => self.fail(
                e.span,
                "expression is not an lvalue the lowering understands",
            ),
        }
    }

    /// The place of an aggregate expression: an lvalue, or the temporary an rvalue
    /// struct (a call result, `c ? s : t`, an assignment) lives in.
    pub fn struct_place(&mut self, e: &Expr) -> R<Place> {
        let info = self.p.expr(e.id);
        let ty = info.ty.clone().unwrap_or(Type::Void);
        if info.lvalue || matches!(e.kind, ExprKind::StrLit(_)) {
            return self.place(e);
        }
        let ptr = self.value_raw(e)?;
        let Ty::Ptr(space) = ptr.ty else {
            return self.fail(e.span, "aggregate value without an address");
        };
        let align = layout(self.p, &ty).map_or(1, |l| l.align);
        Ok(Place::Mem {
            ptr,
            space,
            ty,
            align,
        })
    }

    fn pointee_of(&self, e: &Expr) -> Type {
        let info = self.p.expr(e.id);
        match info.conv.as_ref().or(info.ty.as_ref()) {
            Some(Type::Pointer(p)) => p.pointee.clone(),
            _ => Type::Void,
        }
    }

    /// `*x`: memory at the pointer value of `x`.
    fn pointee_place(&mut self, x: &Expr, ty: Type) -> R<Place> {
        let ptr = self.rvalue(x)?;
        let Ty::Ptr(space) = ptr.ty else {
            return self.fail(x.span, "dereference of a non-pointer");
        };
        let align = layout(self.p, &ty).map_or(1, |l| l.align);
        Ok(Place::Mem {
            ptr,
            space,
            ty,
            align,
        })
    }

    fn index_place(&mut self, e: &Expr, a: &Expr, i: &Expr, ty: Type) -> R<Place> {
        if let Some(Type::Vector(..)) = self.p.expr(a.id).ty {
            let inner = self.place_or_temp(a)?;
            if let Some(v) = self.p.expr(i.id).value {
                return self.lanes_place(inner, vec![v as u8], ty, e.span);
            }
            let index = self.rvalue(i)?;
            let idx_ty = self.value_type(i);
            if let Place::Mem {
                ptr, space, align, ..
            } = inner
            {
                let size = elem(&ty).map_or(1, |s| s.size() as u64);
                let off = self.scaled_offset(&index, &idx_ty, size, e.span);
                let ptr = self.op(OpKind::PtrAdd, ptr.ty.clone(), e.span, &[&ptr, &off]);
                return Ok(Place::Mem {
                    ptr,
                    space,
                    ty,
                    align: align.min(size),
                });
            }
            return Ok(Place::DynLane {
                inner: Box::new(inner),
                index,
                ty,
            });
        }
        // Either operand may be the pointer (`a[i]` is `i[a]`).
        let (pe, ie) = if self.value_type(a).is_pointer() {
            (a, i)
        } else {
            (i, a)
        };
        // An array element is no better aligned than the array (a packed member's array).
        let (ptr, base_align) = match self.raw_type(pe) {
            Type::Array(..) => match self.place(pe)? {
                Place::Mem { ptr, align, .. } => (ptr, Some(align)),
                _ => return self.fail(e.span, "internal error: an array outside memory"),
            },
            _ => (self.rvalue(pe)?, None),
        };
        let Ty::Ptr(space) = ptr.ty else {
            return self.fail(e.span, "subscript of a non-pointer");
        };
        let l = layout(self.p, &ty);
        let size = l.map_or(1, |l| l.size);
        let mut natural = l.map_or(1, |l| l.align);
        let ptr = match self.p.expr(ie.id).value {
            Some(v) => {
                let off = (v as i64).wrapping_mul(size as i64);
                if let Some(a) = base_align {
                    natural = natural.min(align_after(a, off.unsigned_abs()));
                }
                self.ptr_add_const(&ptr, off, e.span)
            }
            None => {
                if let Some(a) = base_align {
                    natural = natural.min(align_after(a, size));
                }
                let idx = self.rvalue(ie)?;
                let idx_ty = self.value_type(ie);
                let off = self.scaled_offset(&idx, &idx_ty, size, e.span);
                self.op(OpKind::PtrAdd, ptr.ty.clone(), e.span, &[&ptr, &off])
            }
        };
        Ok(Place::Mem {
            ptr,
            space,
            ty,
            align: natural,
        })
    }

    /// A vector expression as a place: its lvalue, or a temporary variable holding it.
    fn place_or_temp(&mut self, e: &Expr) -> R<Place> {
        if self.p.expr(e.id).lvalue {
            return self.place(e);
        }
        let v = self.rvalue(e)?;
        let var = self.k.new_var("vec", v.ty.clone(), e.span);
        self.write_var(var, &v, e.span);
        Ok(Place::Var(var, self.value_type(e)))
    }

    /// Lanes of a vector place; a single lane of a vector in memory is narrowed to that
    /// element's own bytes so neighbouring lanes are never rewritten.
    fn lanes_place(&mut self, inner: Place, lanes: Vec<u8>, ty: Type, span: Span) -> R<Place> {
        match inner {
            Place::Lanes {
                inner,
                lanes: outer,
                ..
            } => {
                let composed = lanes
                    .iter()
                    .map(|l| outer.get(*l as usize).copied().unwrap_or(*l))
                    .collect();
                self.lanes_place(*inner, composed, ty, span)
            }
            Place::Mem {
                ptr,
                space,
                align,
                ty: vty,
            } if lanes.len() == 1 => {
                let size = elem(&vty).map_or(1, |s| s.size() as u64);
                let off = lanes[0] as u64 * size;
                let ptr = self.ptr_add_const(&ptr, off as i64, span);
                Ok(Place::Mem {
                    ptr,
                    space,
                    ty,
                    align: align_after(align, off),
                })
            }
            inner => Ok(Place::Lanes {
                inner: Box::new(inner),
                lanes,
                ty,
            }),
        }
    }

    pub fn ir_type(&mut self, t: &Type, span: Span) -> R<Ty> {
        match ir_ty(t) {
            Some(ty) => Ok(ty),
            None => self.fail(
                span,
                format!("a value of type '{t}' cannot be computed with"),
            ),
        }
    }

    pub fn ptr_add_const(&mut self, ptr: &Val, off: i64, span: Span) -> Val {
        if off == 0 {
            return ptr.clone();
        }
        let c = self.konst(Ty::I(64), off as u64, span);
        self.op(OpKind::PtrAdd, ptr.ty.clone(), span, &[ptr, &c])
    }

    /// `index * size` as a signed 64-bit byte offset (the index sign- or zero-extended
    /// by its type).
    pub fn scaled_offset(&mut self, idx: &Val, idx_ty: &Type, size: u64, span: Span) -> Val {
        let wide = self.to_i64(idx, is_signed(idx_ty), span);
        if size == 1 {
            return wide;
        }
        let s = self.konst(Ty::I(64), size, span);
        self.op(
            OpKind::Binary(crate::ir::BinOp::Mul),
            Ty::I(64),
            span,
            &[&wide, &s],
        )
    }

    pub fn to_i64(&mut self, v: &Val, signed: bool, span: Span) -> Val {
        if v.ty == Ty::I(64) {
            return v.clone();
        }
        let conv = Conv::Int {
            from_signed: signed,
            to_signed: true,
            sat: false,
        };
        self.op(OpKind::Conv(conv), Ty::I(64), span, &[v])
    }

    /// The constant object holding a string literal's bytes and its NUL.
    pub fn string_object(&mut self, bytes: &[u8], span: Span) -> crate::ir::ObjectId {
        if let Some(o) = self.strings.get(bytes) {
            return *o;
        }
        let mut init = bytes.to_vec();
        init.push(0);
        let o = self.k.new_object(crate::ir::Object {
            name: "string".into(),
            space: AddrSpace::Constant,
            size: init.len() as u64,
            align: 1,
            init: Some(init),
            span,
            hints: Default::default(),
        });
        self.strings.insert(bytes.to_vec(), o);
        o
    }
}
