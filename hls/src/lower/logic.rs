//! `&&`, `||` and `?:`: a select when the skipped operand is pure, control flow with a
//! temporary variable when C's short-circuit evaluation is observable; vector forms are
//! lane-wise and evaluate both sides, as OpenCL C specifies.

use crate::frontend::ast::{BinaryOp, Expr};
use crate::frontend::types::{Scalar, Type};
use crate::ir::{BinOp, CmpOp, Node, OpKind, Region, Ty};

use super::types::elem;
use super::{Lowerer, Val, R};

impl Lowerer<'_> {
    pub fn logical(&mut self, e: &Expr, op: BinaryOp, l: &Expr, r: &Expr) -> R<Val> {
        let span = e.span;
        let lt = self.value_type(l);
        if lt.is_vector() || self.value_type(r).is_vector() {
            let a = self.rvalue(l)?;
            let b = self.rvalue(r)?;
            let s = elem(&lt).unwrap_or(Scalar::Int);
            let bs = elem(&self.value_type(r)).unwrap_or(Scalar::Int);
            let za = self.konst(a.ty.clone(), 0, span);
            let zb = self.konst(b.ty.clone(), 0, span);
            let ca = self.compare(BinaryOp::Ne, &a, &za, s, span);
            let cb = self.compare(BinaryOp::Ne, &b, &zb, bs, span);
            let k = if op == BinaryOp::LogAnd {
                BinOp::And
            } else {
                BinOp::Or
            };
            let c = self.op(OpKind::Binary(k), ca.ty.clone(), span, &[&ca, &cb]);
            let width = elem(&self.raw_type(e)).map_or(32, |x| x.bits());
            return Ok(self.truth(&c, width, span));
        }
        // Both operands were converted to `bool` (i1) by the checker.
        let a = self.rvalue(l)?;
        let and = op == BinaryOp::LogAnd;
        let k = if and { BinOp::And } else { BinOp::Or };
        if self.is_pure(r) {
            let b = self.rvalue(r)?;
            let c = self.op(OpKind::Binary(k), Ty::I(1), span, &[&a, &b]);
            return Ok(self.truth(&c, 32, span));
        }
        let t = self
            .k
            .new_var(if and { "and" } else { "or" }, Ty::I(1), span);
        self.write_var(t, &a, span);
        let cond = self.cond_of(&a);
        self.open_region();
        let b = self.rvalue(r)?;
        self.write_var(t, &b, span);
        let rhs = self.close_region();
        let (then, els) = if and {
            (rhs, Region::default())
        } else {
            (Region::default(), rhs)
        };
        self.push_node(Node::If {
            cond,
            then,
            els,
            span,
        });
        let c = self.read_var(t, span);
        Ok(self.truth(&c, 32, span))
    }

    pub fn conditional(&mut self, e: &Expr, c: &Expr, a: &Expr, b: &Expr) -> R<Option<Val>> {
        let span = e.span;
        let ty = self.raw_type(e);
        if self.value_type(c).is_vector() {
            // Lane-wise: each lane of the condition picks by its most significant bit.
            let cv = self.rvalue(c)?;
            let va = self.rvalue(a)?;
            let vb = self.rvalue(b)?;
            let zero = self.konst(cv.ty.clone(), 0, span);
            let m = self.op(
                OpKind::Cmp(CmpOp::SLt),
                Ty::vec(Ty::I(1), cv.ty.lanes()),
                span,
                &[&cv, &zero],
            );
            return Ok(Some(self.op(
                OpKind::Select,
                va.ty.clone(),
                span,
                &[&m, &va, &vb],
            )));
        }
        let cv = self.rvalue(c)?;
        if ty != Type::Void && self.is_pure(a) && self.is_pure(b) {
            let va = self.rvalue(a)?;
            let vb = self.rvalue(b)?;
            return Ok(Some(self.op(
                OpKind::Select,
                va.ty.clone(),
                span,
                &[&cv, &va, &vb],
            )));
        }
        let t = match &ty {
            Type::Void => None,
            Type::Record(_) | Type::Array(..) => {
                // The arms give addresses; the result is whichever was picked.
                let space = match self.value_type(a).pointer() {
                    Some(p) => p.space,
                    None => self
                        .p
                        .expr(a.id)
                        .space
                        .unwrap_or(crate::frontend::types::AddrSpace::Private),
                };
                Some(self.k.new_var("cond", Ty::Ptr(space), span))
            }
            other => {
                let t = self.ir_type(other, span)?;
                Some(self.k.new_var("cond", t, span))
            }
        };
        let cond = self.cond_of(&cv);
        let arm = |l: &mut Self, x: &Expr| -> R<Region> {
            l.open_region();
            match t {
                Some(var) => {
                    let v = l.rvalue(x)?;
                    l.write_var(var, &v, span);
                }
                None => l.effect_expr(x)?,
            }
            Ok(l.close_region())
        };
        let then = arm(self, a)?;
        let els = arm(self, b)?;
        self.push_node(Node::If {
            cond,
            then,
            els,
            span,
        });
        Ok(t.map(|var| self.read_var(var, span)))
    }
}
