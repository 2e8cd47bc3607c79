//! Assignments: plain (struct assignment is a byte copy), compound (the operation in the
//! common type, converted back to the target's type), and `++`/`--` on every kind of place.

use crate::frontend::ast::{BinaryOp, Expr, UnaryOp};
use crate::frontend::types::{Scalar, Type};
use crate::ir::{BinOp, OpKind, Ty};

use super::types::{elem, layout};
use super::{Lowerer, Val, R};

impl Lowerer<'_> {
    pub fn assign(&mut self, e: &Expr, op: Option<BinaryOp>, l: &Expr, r: &Expr) -> R<Option<Val>> {
        let span = e.span;
        let lt = self.raw_type(l);
        let place = self.place(l)?;
        let Some(bop) = op else {
            let v = self.rvalue(r)?;
            self.store(&place, &v, span)?;
            return Ok(Some(v));
        };
        let old = self.load(&place, span)?;
        let ct = self.value_type(l);
        let old = self.convert(old, &lt, &ct, span)?;
        let b = self.rvalue(r)?;
        let rt = self.value_type(r);
        let (res, res_t) = self.binary_vals(bop, old, &ct, b, &rt, span)?;
        let new = self.convert(res, &res_t, &lt, span)?;
        self.store(&place, &new, span)?;
        Ok(Some(new))
    }

    pub fn inc_dec(&mut self, e: &Expr, op: UnaryOp, x: &Expr) -> R<Val> {
        let span = e.span;
        let t = self.raw_type(x);
        let place = self.place(x)?;
        let old = self.load(&place, span)?;
        let up = matches!(op, UnaryOp::PreInc | UnaryOp::PostInc);
        let new = match &t {
            Type::Pointer(p) => {
                let size = layout(self.p, &p.pointee).map_or(1, |l| l.size) as i64;
                self.ptr_add_const(&old, if up { size } else { -size }, span)
            }
            Type::Scalar(Scalar::Bool) => {
                // `b++` makes it true; `b--` flips it (C's rules for _Bool).
                if up {
                    self.konst(Ty::I(1), 1, span)
                } else {
                    let one = self.konst(Ty::I(1), 1, span);
                    self.op(OpKind::Binary(BinOp::Xor), Ty::I(1), span, &[&old, &one])
                }
            }
            _ => {
                let Some(s) = elem(&t) else {
                    return self.fail(span, "increment of a value that is not a number or pointer");
                };
                let one_t = if t.is_vector() {
                    t.clone()
                } else {
                    Type::Scalar(s)
                };
                let one = self.one(&one_t, span)?;
                let k = if up { BinaryOp::Add } else { BinaryOp::Sub };
                self.binary_vals(k, old.clone(), &t, one, &one_t, span)?.0
            }
        };
        self.store(&place, &new, span)?;
        Ok(if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
            new
        } else {
            old
        })
    }

    /// The constant 1 of an arithmetic type.
    fn one(&mut self, t: &Type, span: crate::diag::Span) -> R<Val> {
        let ty = self.ir_type(t, span)?;
        let bits = match elem(t) {
            Some(Scalar::Half) => 0x3c00,
            Some(Scalar::Float) => 1f32.to_bits() as u64,
            Some(Scalar::Double) => 1f64.to_bits(),
            _ => 1,
        };
        Ok(self.konst(ty, bits, span))
    }
}
