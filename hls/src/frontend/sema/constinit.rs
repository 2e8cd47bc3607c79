//! Initializers of `__constant` and program-scope variables must be compile-time
//! constants: literals, enum constants, `sizeof`, and operators, casts and vector
//! literals over those (the built-in infinity and NaN constants included).

use crate::frontend::ast::{DeclaratorId, Expr, ExprKind, Initializer, UnaryOp};

use super::Checker;

/// Built-ins that the preprocessor uses to spell `INFINITY`, `NAN` and `HUGE_VAL`.
const CONSTANT_BUILTINS: &[&str] = &[
    "__builtin_inff",
    "__builtin_huge_valf",
    "__builtin_huge_val",
    "__builtin_nanf",
    "__builtin_nan",
];

/// Every value expression of an initializer, nested lists included.
pub(super) fn init_exprs(init: &Initializer) -> Vec<&Expr> {
    let mut out = Vec::new();
    let mut stack = vec![init];
    while let Some(i) = stack.pop() {
        match i {
            Initializer::Expr(e) => out.push(e),
            Initializer::List(items, _) => stack.extend(items.iter().map(|(_, x)| x)),
        }
    }
    out
}

impl Checker<'_> {
    fn is_constant_expr(&self, e: &Expr) -> bool {
        if self.value_of(e).is_some() {
            return true;
        }
        match &e.kind {
            ExprKind::IntLit { .. }
            | ExprKind::FloatLit { .. }
            | ExprKind::CharLit(_)
            | ExprKind::BoolLit(_)
            | ExprKind::StrLit(_) => true,
            ExprKind::SizeofExpr(_)
            | ExprKind::SizeofType(_)
            | ExprKind::AlignofExpr(_)
            | ExprKind::AlignofType(_)
            | ExprKind::VecStepExpr(_)
            | ExprKind::VecStepType(_) => true,
            ExprKind::Unary(UnaryOp::Neg | UnaryOp::Plus | UnaryOp::Not | UnaryOp::BitNot, x) => {
                self.is_constant_expr(x)
            }
            ExprKind::Binary(_, a, b) => self.is_constant_expr(a) && self.is_constant_expr(b),
            ExprKind::Cond(c, a, b) => {
                self.is_constant_expr(c) && self.is_constant_expr(a) && self.is_constant_expr(b)
            }
            ExprKind::Cast(_, x) => self.is_constant_expr(x),
            ExprKind::VectorLit(_, cs) => cs.iter().all(|c| self.is_constant_expr(c)),
            ExprKind::Call(f, args) => {
                matches!(&f.kind, ExprKind::Ident(i) if CONSTANT_BUILTINS.contains(&i.name.as_str()))
                    && args.iter().all(|a| self.is_constant_expr(a))
            }
            _ => false,
        }
    }

    /// Reports each stored initializer value of `d` that is not a compile-time constant.
    pub(super) fn require_constant_init(&mut self, d: DeclaratorId, exprs: &[&Expr]) {
        let Some(entries) = self.inits.get(&d) else {
            return;
        };
        let ids: Vec<_> = entries.iter().map(|e| e.expr).collect();
        for e in exprs {
            if ids.contains(&e.id) && !self.is_constant_expr(e) {
                self.error(e.span, "initializer element is not a compile-time constant");
            }
        }
    }
}
