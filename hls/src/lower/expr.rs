//! Expressions: the dispatcher, constants, names, casts, vector literals, member and
//! subscript reads, comma; every value gets the implicit conversion the checker recorded.

use crate::frontend::ast::{Expr, ExprKind, UnaryOp};
use crate::frontend::sema::{Callee, SymbolKind};
use crate::frontend::types::Type;
use crate::ir::OpKind;

use super::memory::Place;
use super::types::{ir_ty, is_aggregate};
use super::{Lowerer, Val, R};

impl Lowerer<'_> {
    /// The type of `e`'s value where it is used (after its implicit conversion).
    pub fn value_type(&self, e: &Expr) -> Type {
        let info = self.p.expr(e.id);
        info.conv.clone().or(info.ty.clone()).unwrap_or(Type::Void)
    }

    /// The type of `e` before its implicit conversion.
    pub fn raw_type(&self, e: &Expr) -> Type {
        self.p.expr(e.id).ty.clone().unwrap_or(Type::Void)
    }

    /// The value of `e` converted as the checker recorded (aggregates: their address).
    pub fn rvalue(&mut self, e: &Expr) -> R<Val> {
        if let Some(v) = self.try_const(e) {
            return Ok(v);
        }
        let raw = self.value_raw(e)?;
        let info = self.p.expr(e.id);
        match (&info.conv, &info.ty) {
            (Some(to), Some(from)) if to != from => {
                let (to, from) = (to.clone(), from.clone());
                self.convert(raw, &from, &to, e.span)
            }
            _ => Ok(raw),
        }
    }

    fn try_const(&mut self, e: &Expr) -> Option<Val> {
        let c = self.const_value(e)?;
        let ty = ir_ty(&c.ty)?;
        Some(self.const_val(ty, c.lanes, e.span))
    }

    /// The value of `e` before its conversion; an error for `void` expressions.
    pub fn value_raw(&mut self, e: &Expr) -> R<Val> {
        match self.eval(e)? {
            Some(v) => Ok(v),
            None => self.fail(e.span, "a void expression used as a value"),
        }
    }

    /// Evaluates `e` for its effects only.
    pub fn effect_expr(&mut self, e: &Expr) -> R<()> {
        self.eval(e).map(|_| ())
    }

    /// Lowers `e` without its conversion; `None` for `void`.
    pub fn eval(&mut self, e: &Expr) -> R<Option<Val>> {
        let info = self.p.expr(e.id);
        let ty = info.ty.clone().unwrap_or(Type::Void);
        if let Some(c) = self.const_raw(e, None) {
            if let Some(t) = ir_ty(&c.ty) {
                return Ok(Some(self.const_val(t, c.lanes, e.span)));
            }
        }
        let v = match &e.kind {
            ExprKind::IntLit { .. }
            | ExprKind::CharLit(_)
            | ExprKind::BoolLit(_)
            | ExprKind::FloatLit { .. } => {
                return self.fail(e.span, "internal error: literal without a value");
            }
            ExprKind::SizeofExpr(_)
            | ExprKind::SizeofType(_)
            | ExprKind::AlignofExpr(_)
            | ExprKind::AlignofType(_)
            | ExprKind::VecStepExpr(_)
            | ExprKind::VecStepType(_) => {
                return self.fail(e.span, "internal error: size query without a value")
            }
            ExprKind::Ident(id) => {
                let sym = info.symbol.map(|s| self.p.symbol(s));
                if let Some(SymbolKind::Function(_)) = sym.map(|s| &s.kind) {
                    return self.fail(id.span, "functions cannot be used as values in OpenCL C");
                }
                let place = self.place(e)?;
                self.load(&place, e.span)?
            }
            ExprKind::StrLit(_) | ExprKind::Index(..) => {
                let place = self.place(e)?;
                self.load(&place, e.span)?
            }
            ExprKind::Member { base, .. } => {
                if let Some(lanes) = info.swizzle.clone() {
                    if !self.p.expr(base.id).lvalue {
                        let v = self.rvalue(base)?;
                        let t = self.ir_type(&ty, e.span)?;
                        return Ok(Some(self.pick_lanes(&v, &lanes, t, e.span)));
                    }
                }
                let place = self.place(e)?;
                self.load(&place, e.span)?
            }
            ExprKind::Unary(op, x) => return self.unary(e, *op, x),
            ExprKind::Binary(op, l, r) => {
                if op.is_logical() {
                    self.logical(e, *op, l, r)?
                } else {
                    self.binary(e, *op, l, r)?
                }
            }
            ExprKind::Assign(op, l, r) => return self.assign(e, *op, l, r),
            ExprKind::Cond(c, a, b) => return self.conditional(e, c, a, b),
            ExprKind::Cast(_, x) => {
                if ty == Type::Void {
                    self.effect_expr(x)?;
                    return Ok(None);
                }
                let v = self.rvalue(x)?;
                let from = self.value_type(x);
                self.convert(v, &from, &ty, e.span)?
            }
            ExprKind::VectorLit(_, comps) => self.vector_literal(e, &ty, comps)?,
            ExprKind::Call(_, args) => {
                return match info.callee.clone() {
                    Some(Callee::User(f)) => self.call_user(e, f, args),
                    Some(Callee::Builtin(sig)) => self.call_builtin(e, &sig, args),
                    None => self.fail(e.span, "call of something that is not a function"),
                }
            }
            ExprKind::Comma(a, b) => {
                self.effect_expr(a)?;
                return self.eval_converted(b);
            }
        };
        Ok(Some(v))
    }

    /// `eval` of an operand whose own conversion applies (the right of a comma).
    fn eval_converted(&mut self, e: &Expr) -> R<Option<Val>> {
        if self.raw_type(e) == Type::Void {
            return self.eval(e);
        }
        self.rvalue(e).map(Some)
    }

    fn unary(&mut self, e: &Expr, op: UnaryOp, x: &Expr) -> R<Option<Val>> {
        let v = match op {
            UnaryOp::Deref => {
                let place = self.place(e)?;
                self.load(&place, e.span)?
            }
            UnaryOp::AddrOf => self.address_of(x)?,
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                self.inc_dec(e, op, x)?
            }
            UnaryOp::Neg | UnaryOp::Plus | UnaryOp::BitNot | UnaryOp::Not => {
                self.unary_arith(e, op, x)?
            }
        };
        Ok(Some(v))
    }

    /// `&x`: the address of a place in memory.
    pub fn address_of(&mut self, x: &Expr) -> R<Val> {
        let place = if is_aggregate(&self.raw_type(x)) {
            self.struct_place(x)?
        } else {
            self.place(x)?
        };
        match place {
            Place::Mem { ptr, .. } => Ok(ptr),
            _ => self.fail(
                x.span,
                "internal error: the address of a variable kept in a register",
            ),
        }
    }

    fn vector_literal(&mut self, e: &Expr, ty: &Type, comps: &[Expr]) -> R<Val> {
        let vty = self.ir_type(ty, e.span)?;
        let et = vty.elem().clone();
        let mut lanes = Vec::new();
        for c in comps {
            let v = self.rvalue(c)?;
            if v.ty.lanes() == 1 {
                lanes.push(v);
            } else {
                for i in 0..v.ty.lanes() {
                    lanes.push(self.op(OpKind::Extract(i), et.clone(), c.span, &[&v]));
                }
            }
        }
        if lanes.len() == 1 {
            return Ok(self.op(OpKind::Splat, vty, e.span, &[&lanes[0]]));
        }
        let refs: Vec<&Val> = lanes.iter().collect();
        Ok(self.op(OpKind::Build, vty, e.span, &refs))
    }
}
