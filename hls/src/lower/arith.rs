//! C and OpenCL operator semantics on IR values: arithmetic by signedness and float-ness,
//! shift counts reduced modulo the width, comparisons as 0/1 or -1/0 lanes, pointer
//! arithmetic scaled by the pointee size.

use crate::diag::Span;
use crate::frontend::ast::{BinaryOp, Expr, UnaryOp};
use crate::frontend::sema::conv::relational_result;
use crate::frontend::types::{Scalar, Type};
use crate::ir::{BinOp, CmpOp, OpKind, Ty, UnOp};

use super::types::{elem, is_float, layout};
use super::{Lowerer, Val, R};

impl Lowerer<'_> {
    pub fn binary(&mut self, e: &Expr, op: BinaryOp, l: &Expr, r: &Expr) -> R<Val> {
        let a = self.rvalue(l)?;
        let b = self.rvalue(r)?;
        let (lt, rt) = (self.value_type(l), self.value_type(r));
        Ok(self.binary_vals(op, a, &lt, b, &rt, e.span)?.0)
    }

    /// `a op b` on values of types `at` and `bt` (already converted as C requires);
    /// returns the result and its type.
    pub fn binary_vals(
        &mut self,
        op: BinaryOp,
        a: Val,
        at: &Type,
        b: Val,
        bt: &Type,
        span: Span,
    ) -> R<(Val, Type)> {
        use BinaryOp::*;
        if at.is_pointer() || bt.is_pointer() {
            return self.pointer_binary(op, a, at, b, bt, span);
        }
        let Some(s) = elem(at) else {
            return self.fail(span, format!("operator '{}' on '{at}'", op.as_str()));
        };
        if op.is_comparison() {
            let c = self.compare(op, &a, &b, s, span);
            let t = relational_result(at);
            let width = elem(&t).map_or(32, |x| x.bits());
            return Ok((self.truth(&c, width, span), t));
        }
        if s == Scalar::Half {
            // Half arithmetic is float arithmetic rounded back to half (exact for + - * /).
            let (x, y) = (self.widen_half(&a, span), self.widen_half(&b, span));
            let float_t = Type::Vector(Scalar::Float, at.lanes());
            let ft = if at.lanes() == 1 {
                Type::Scalar(Scalar::Float)
            } else {
                float_t
            };
            let (r, _) = self.binary_vals(op, x, &ft, y, &ft, span)?;
            return Ok((self.narrow_half(&r, span), at.clone()));
        }
        let float = s.is_float();
        let signed = s.is_signed();
        let bop = match op {
            Add if float => BinOp::FAdd,
            Sub if float => BinOp::FSub,
            Mul if float => BinOp::FMul,
            Div if float => BinOp::FDiv,
            Add => BinOp::Add,
            Sub => BinOp::Sub,
            Mul => BinOp::Mul,
            Div if signed => BinOp::SDiv,
            Div => BinOp::UDiv,
            Rem if signed => BinOp::SRem,
            Rem => BinOp::URem,
            BitAnd => BinOp::And,
            BitOr => BinOp::Or,
            BitXor => BinOp::Xor,
            Shl | Shr => {
                let count = self.shift_count(&b, bt, &a.ty, span);
                let k = match op {
                    Shl => BinOp::Shl,
                    _ if signed => BinOp::AShr,
                    _ => BinOp::LShr,
                };
                return Ok((
                    self.op(OpKind::Binary(k), a.ty.clone(), span, &[&a, &count]),
                    at.clone(),
                ));
            }
            _ => return self.fail(span, format!("operator '{}' on '{at}'", op.as_str())),
        };
        if float && matches!(op, Rem) {
            return self.fail(span, "'%' on floating-point operands");
        }
        Ok((
            self.op(OpKind::Binary(bop), a.ty.clone(), span, &[&a, &b]),
            at.clone(),
        ))
    }

    /// A shift count of type `bt` as a value of the shifted type `ty`, reduced modulo the
    /// lane width (OpenCL C: only the low log2(width) bits of the count are used).
    fn shift_count(&mut self, b: &Val, bt: &Type, ty: &Ty, span: Span) -> Val {
        let width = ty.elem().bits();
        let c = match (b.ty.elem().clone(), ty.elem()) {
            (x, y) if x == *y => b.clone(),
            _ => {
                let from = elem(bt).unwrap_or(Scalar::UInt);
                let to = match width {
                    8 => Scalar::UChar,
                    16 => Scalar::UShort,
                    32 => Scalar::UInt,
                    _ => Scalar::ULong,
                };
                // Only the low bits survive the mask, so zero- or sign-extension agree.
                let from = if from == Scalar::Bool {
                    Scalar::UChar
                } else {
                    from.to_unsigned()
                };
                let c = self.convert_elems(b.clone(), from, to, span);
                if ty.lanes() > 1 && c.ty.lanes() == 1 {
                    self.op(OpKind::Splat, ty.clone(), span, &[&c])
                } else {
                    c
                }
            }
        };
        let m = self.konst(ty.clone(), (width - 1) as u64, span);
        self.op(OpKind::Binary(BinOp::And), ty.clone(), span, &[&c, &m])
    }

    /// A comparison of two values of element type `s`, as `i1` lanes.
    pub fn compare(&mut self, op: BinaryOp, a: &Val, b: &Val, s: Scalar, span: Span) -> Val {
        use BinaryOp::*;
        let (a, b) = if s == Scalar::Half {
            (self.widen_half(a, span), self.widen_half(b, span))
        } else {
            (a.clone(), b.clone())
        };
        let (f, sg) = (s.is_float(), s.is_signed());
        let c = match op {
            Eq if f => CmpOp::FEq,
            Ne if f => CmpOp::FNe,
            Lt if f => CmpOp::FLt,
            Le if f => CmpOp::FLe,
            Gt if f => CmpOp::FGt,
            Ge if f => CmpOp::FGe,
            Eq => CmpOp::Eq,
            Ne => CmpOp::Ne,
            Lt if sg => CmpOp::SLt,
            Le if sg => CmpOp::SLe,
            Gt if sg => CmpOp::SGt,
            Ge if sg => CmpOp::SGe,
            Lt => CmpOp::ULt,
            Le => CmpOp::ULe,
            Gt => CmpOp::UGt,
            _ => CmpOp::UGe,
        };
        self.op(
            OpKind::Cmp(c),
            Ty::vec(Ty::I(1), a.ty.lanes()),
            span,
            &[&a, &b],
        )
    }

    fn pointer_binary(
        &mut self,
        op: BinaryOp,
        a: Val,
        at: &Type,
        b: Val,
        bt: &Type,
        span: Span,
    ) -> R<(Val, Type)> {
        use BinaryOp::*;
        match (op, at.pointer(), bt.pointer()) {
            (Add | Sub, Some(p), None) | (Add, None, Some(p)) => {
                let (ptr, idx, it) = if at.is_pointer() {
                    (a, b, bt)
                } else {
                    (b, a, at)
                };
                let size = layout(self.p, &p.pointee).map_or(1, |l| l.size);
                let mut off = self.scaled_offset(&idx, it, size, span);
                if op == Sub {
                    off = self.op(OpKind::Unary(UnOp::Neg), Ty::I(64), span, &[&off]);
                }
                let pt = if at.is_pointer() { at } else { bt };
                Ok((
                    self.op(OpKind::PtrAdd, ptr.ty.clone(), span, &[&ptr, &off]),
                    pt.clone(),
                ))
            }
            (Sub, Some(p), Some(_)) => {
                let size = layout(self.p, &p.pointee).map_or(1, |l| l.size).max(1);
                let d = self.op(OpKind::PtrDiff, Ty::I(64), span, &[&a, &b]);
                let long = Type::Scalar(Scalar::Long);
                if size == 1 {
                    return Ok((d, long));
                }
                let s = self.konst(Ty::I(64), size, span);
                Ok((
                    self.op(OpKind::Binary(BinOp::SDiv), Ty::I(64), span, &[&d, &s]),
                    long,
                ))
            }
            _ if op.is_comparison() => {
                // A null pointer constant compared with a pointer becomes a null pointer.
                let a = if at.is_pointer() {
                    a
                } else {
                    self.konst(b.ty.clone(), 0, span)
                };
                let b = if bt.is_pointer() {
                    b
                } else {
                    self.konst(a.ty.clone(), 0, span)
                };
                let b = if b.ty != a.ty {
                    self.op(OpKind::Bitcast, a.ty.clone(), span, &[&b])
                } else {
                    b
                };
                let c = self.compare(op, &a, &b, Scalar::ULong, span);
                Ok((self.truth(&c, 32, span), Type::int()))
            }
            _ => self.fail(span, format!("operator '{}' on pointers", op.as_str())),
        }
    }

    pub fn unary_arith(&mut self, e: &Expr, op: UnaryOp, x: &Expr) -> R<Val> {
        let v = self.rvalue(x)?;
        let t = self.value_type(x);
        let span = e.span;
        match op {
            UnaryOp::Plus => Ok(v),
            UnaryOp::Neg if elem(&t) == Some(Scalar::Half) => {
                let f = self.widen_half(&v, span);
                let n = self.op(OpKind::Unary(UnOp::FNeg), f.ty.clone(), span, &[&f]);
                Ok(self.narrow_half(&n, span))
            }
            UnaryOp::Neg if is_float(&t) => {
                Ok(self.op(OpKind::Unary(UnOp::FNeg), v.ty.clone(), span, &[&v]))
            }
            UnaryOp::Neg => Ok(self.op(OpKind::Unary(UnOp::Neg), v.ty.clone(), span, &[&v])),
            UnaryOp::BitNot => Ok(self.op(OpKind::Unary(UnOp::Not), v.ty.clone(), span, &[&v])),
            _ => {
                if t.is_vector() {
                    // `!v` on a vector: lanes equal to zero become -1.
                    let s = elem(&t).unwrap_or(Scalar::Int);
                    let zero = self.konst(v.ty.clone(), 0, span);
                    let c = self.compare(BinaryOp::Eq, &v, &zero, s, span);
                    return Ok(self.truth(&c, s.bits(), span));
                }
                // The operand was converted to `bool` (an i1) by the checker.
                let one = self.konst(v.ty.clone(), 1, span);
                let n = self.op(OpKind::Binary(BinOp::Xor), v.ty.clone(), span, &[&v, &one]);
                Ok(self.truth(&n, 32, span))
            }
        }
    }
}
