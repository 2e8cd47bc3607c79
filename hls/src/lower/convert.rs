//! C conversions between frontend types as IR ops: integer widths and signedness, int and
//! float, to `bool` (compare with zero), scalar to vector (convert, then replicate),
//! array decay, pointers between address spaces, the null pointer constant.

use crate::diag::Span;
use crate::frontend::types::{Scalar, Type};
use crate::ir::{CmpOp, Conv, OpKind, Round, Ty};

use super::types::{elem, scalar_ty};
use super::{Lowerer, Val, R};

impl Lowerer<'_> {
    /// Converts `v` of type `from` to type `to` as an implicit conversion or C cast does.
    pub fn convert(&mut self, v: Val, from: &Type, to: &Type, span: Span) -> R<Val> {
        if from == to {
            return Ok(v);
        }
        match (from, to) {
            (_, Type::Void)
            | (Type::Record(_), Type::Record(_))
            | (Type::Array(..), Type::Pointer(_)) => Ok(v),
            (Type::Pointer(a), Type::Pointer(b)) => {
                if a.space == b.space {
                    Ok(v)
                } else {
                    Ok(self.op(OpKind::Bitcast, Ty::Ptr(b.space), span, &[&v]))
                }
            }
            (Type::Pointer(_), Type::Scalar(Scalar::Bool)) => {
                let null = self.konst(v.ty.clone(), 0, span);
                Ok(self.op(OpKind::Cmp(CmpOp::Ne), Ty::I(1), span, &[&v, &null]))
            }
            (Type::Scalar(_) | Type::Enum(_), Type::Pointer(p)) => {
                let is_zero = matches!(&self.k.block(v.block).op(v.op).kind, OpKind::Const(l) if l.iter().all(|x| *x == 0));
                if is_zero {
                    Ok(self.konst(Ty::Ptr(p.space), 0, span))
                } else {
                    self.fail(
                        span,
                        "converting an integer to a pointer is not supported in hardware kernels",
                    )
                }
            }
            (Type::Pointer(_), _) => self.fail(
                span,
                "converting a pointer to an integer is not supported in hardware kernels",
            ),
            (Type::Scalar(_) | Type::Enum(_), Type::Vector(s, n)) => {
                let (Some(fe), lanes) = (elem(from), *n) else {
                    return self.fail(span, "invalid conversion");
                };
                let x = self.convert_elems(v, fe, *s, span);
                Ok(self.op(OpKind::Splat, Ty::vec(scalar_ty(*s), lanes), span, &[&x]))
            }
            _ => match (elem(from), elem(to)) {
                (Some(a), Some(b)) if from.lanes() == to.lanes() => {
                    Ok(self.convert_elems(v, a, b, span))
                }
                _ => self.fail(
                    span,
                    format!("cannot convert '{from}' to '{to}' in hardware"),
                ),
            },
        }
    }

    /// Converts each lane of `v` from scalar type `from` to `to` with C's rules (float to
    /// integer truncates toward zero, integer to float rounds to nearest even).
    pub fn convert_elems(&mut self, v: Val, from: Scalar, to: Scalar, span: Span) -> Val {
        if from == to {
            return v;
        }
        let lanes = v.ty.lanes();
        let target = Ty::vec(scalar_ty(to), lanes);
        if to == Scalar::Bool {
            if let Some(c) = self.truth_source(&v) {
                // `(a < b)` used as a condition: the comparison's own bit.
                return c;
            }
            let zero = self.konst(v.ty.clone(), 0, span);
            let op = if from.is_float() {
                CmpOp::FNe
            } else {
                CmpOp::Ne
            };
            let zero = if from == Scalar::Half {
                self.widen_half(&zero, span)
            } else {
                zero
            };
            let x = if from == Scalar::Half {
                self.widen_half(&v, span)
            } else {
                v
            };
            return self.op(
                OpKind::Cmp(op),
                Ty::vec(Ty::I(1), lanes),
                span,
                &[&x, &zero],
            );
        }
        // Half is a storage format: computations go through float.
        if from == Scalar::Half {
            let f = self.widen_half(&v, span);
            return self.convert_elems(f, Scalar::Float, to, span);
        }
        if to == Scalar::Half && from != Scalar::Float {
            let f = self.convert_elems(v, from, Scalar::Float, span);
            return self.convert_elems(f, Scalar::Float, to, span);
        }
        let conv = match (from.is_float(), to.is_float()) {
            (false, false) => {
                if scalar_ty(from) == scalar_ty(to) {
                    return v;
                }
                Conv::Int {
                    from_signed: from.is_signed() && from != Scalar::Bool,
                    to_signed: to.is_signed(),
                    sat: false,
                }
            }
            (true, false) => Conv::FloatToInt {
                to_signed: to.is_signed(),
                round: Round::Rtz,
                sat: false,
            },
            (false, true) => Conv::IntToFloat {
                from_signed: from.is_signed() && from != Scalar::Bool,
                round: Round::Rte,
            },
            (true, true) => Conv::Float { round: Round::Rte },
        };
        self.op(OpKind::Conv(conv), target, span, &[&v])
    }

    /// The `i1` a scalar C truth value (`int` 0/1) was made from in the same block.
    fn truth_source(&self, v: &Val) -> Option<Val> {
        let b = self.k.block(v.block);
        let zext = Conv::Int {
            from_signed: false,
            to_signed: true,
            sat: false,
        };
        if v.ty.lanes() != 1 || b.op(v.op).kind != OpKind::Conv(zext) {
            return None;
        }
        let src = *b.operands(v.op).first()?;
        (b.op(src).ty == Some(Ty::I(1))).then_some(Val {
            block: v.block,
            op: src,
            ty: Ty::I(1),
        })
    }

    /// A half value (or vector) widened exactly to float.
    pub fn widen_half(&mut self, v: &Val, span: Span) -> Val {
        let ty = Ty::vec(Ty::F32, v.ty.lanes());
        self.op(
            OpKind::Conv(Conv::Float { round: Round::Rte }),
            ty,
            span,
            &[v],
        )
    }

    /// A float value (or vector) rounded to half, to nearest even.
    pub fn narrow_half(&mut self, v: &Val, span: Span) -> Val {
        let ty = Ty::vec(Ty::F16, v.ty.lanes());
        self.op(
            OpKind::Conv(Conv::Float { round: Round::Rte }),
            ty,
            span,
            &[v],
        )
    }

    /// `i1` lanes to C's truth values: `int` 0/1 for a scalar, lanes of -1/0 of the signed
    /// integer type as wide as the operands' lanes (`width` bits) for vectors.
    pub fn truth(&mut self, c: &Val, width: u32, span: Span) -> Val {
        let lanes = c.ty.lanes();
        if lanes == 1 {
            let conv = Conv::Int {
                from_signed: false,
                to_signed: true,
                sat: false,
            };
            return self.op(OpKind::Conv(conv), Ty::I(32), span, &[c]);
        }
        let conv = Conv::Int {
            from_signed: true,
            to_signed: true,
            sat: false,
        };
        self.op(
            OpKind::Conv(conv),
            Ty::vec(Ty::I(width as u8), lanes),
            span,
            &[c],
        )
    }
}
