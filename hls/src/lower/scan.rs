//! Facts read off the syntax tree before lowering a function: which variables have their
//! address taken or are assigned, whether it returns early, and which expressions are
//! free of effects and memory reads (those may be evaluated unconditionally).

use std::collections::HashSet;

use crate::frontend::ast::{Expr, ExprKind, Initializer, Stmt, StmtKind, UnaryOp};
use crate::frontend::builtins::Family;
use crate::frontend::sema::{Callee, Program, SymbolId};
use crate::frontend::types::Type;

use super::{Lowerer, Storage};

#[derive(Clone, Debug, Default)]
pub struct FnFacts {
    /// Variables whose address is taken: they must live in memory.
    pub addr_taken: HashSet<SymbolId>,
    /// Variables assigned or incremented somewhere in the body.
    pub assigned: HashSet<SymbolId>,
    /// A `return` other than the final statement of the body.
    pub early_return: bool,
}

/// Scans a function body.
pub fn scan_body(p: &Program, body: &Stmt) -> FnFacts {
    let mut f = FnFacts::default();
    let mut returns = 0usize;
    walk_stmt(
        body,
        &mut |s| {
            if matches!(s.kind, StmtKind::Return(_)) {
                returns += 1;
            }
        },
        &mut |e| match &e.kind {
            ExprKind::Unary(UnaryOp::AddrOf, x) => {
                if let Some(s) = root(p, x) {
                    f.addr_taken.insert(s);
                }
            }
            ExprKind::Unary(
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec,
                x,
            )
            | ExprKind::Assign(_, x, _) => {
                if let Some(s) = root(p, x) {
                    f.assigned.insert(s);
                }
            }
            _ => {}
        },
    );
    let final_return = match &body.kind {
        StmtKind::Compound(items) => {
            matches!(items.last().map(|s| &s.kind), Some(StmtKind::Return(_)))
        }
        StmtKind::Return(_) => true,
        _ => false,
    };
    f.early_return = returns > usize::from(final_return);
    f
}

/// The variable an lvalue designates part of (through `.member` and vector lanes).
fn root(p: &Program, e: &Expr) -> Option<SymbolId> {
    match &e.kind {
        ExprKind::Ident(_) => p.expr(e.id).symbol,
        ExprKind::Member {
            base, arrow: false, ..
        } => root(p, base),
        ExprKind::Index(a, _) if matches!(p.expr(a.id).ty, Some(Type::Vector(..))) => root(p, a),
        _ => None,
    }
}

/// Visits every statement and expression under `s` (initializers included).
pub fn walk_stmt<'e>(s: &'e Stmt, fs: &mut dyn FnMut(&'e Stmt), fe: &mut dyn FnMut(&'e Expr)) {
    fs(s);
    match &s.kind {
        StmtKind::Expr(Some(e)) | StmtKind::Return(Some(e)) => walk_expr(e, fe),
        StmtKind::Expr(None)
        | StmtKind::Return(None)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Goto(_) => {}
        StmtKind::Decl(d) => {
            for id in &d.declarators {
                if let Some(i) = &id.init {
                    walk_init(i, fe);
                }
            }
        }
        StmtKind::Compound(items) => {
            for i in items {
                walk_stmt(i, fs, fe);
            }
        }
        StmtKind::If(c, t, f) => {
            walk_expr(c, fe);
            walk_stmt(t, fs, fe);
            if let Some(f) = f {
                walk_stmt(f, fs, fe);
            }
        }
        StmtKind::While(c, b)
        | StmtKind::DoWhile(b, c)
        | StmtKind::Switch(c, b)
        | StmtKind::Case(c, b) => {
            walk_expr(c, fe);
            walk_stmt(b, fs, fe);
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            if let Some(i) = init {
                walk_stmt(i, fs, fe);
            }
            for e in [cond, step].into_iter().flatten() {
                walk_expr(e, fe);
            }
            walk_stmt(body, fs, fe);
        }
        StmtKind::Default(b) | StmtKind::Labeled(_, b) => walk_stmt(b, fs, fe),
    }
}

pub fn walk_init<'e>(i: &'e Initializer, fe: &mut dyn FnMut(&'e Expr)) {
    match i {
        Initializer::Expr(e) => walk_expr(e, fe),
        Initializer::List(items, _) => {
            for (_, sub) in items {
                walk_init(sub, fe);
            }
        }
    }
}

/// Visits `e` and its subexpressions (not the unevaluated operands of `sizeof` & co.).
pub fn walk_expr<'e>(e: &'e Expr, fe: &mut dyn FnMut(&'e Expr)) {
    fe(e);
    match &e.kind {
        ExprKind::Unary(_, x) | ExprKind::Cast(_, x) | ExprKind::Member { base: x, .. } => {
            walk_expr(x, fe)
        }
        ExprKind::Binary(_, a, b)
        | ExprKind::Assign(_, a, b)
        | ExprKind::Index(a, b)
        | ExprKind::Comma(a, b) => {
            walk_expr(a, fe);
            walk_expr(b, fe);
        }
        ExprKind::Cond(c, a, b) => {
            walk_expr(c, fe);
            walk_expr(a, fe);
            walk_expr(b, fe);
        }
        ExprKind::VectorLit(_, xs) => xs.iter().for_each(|x| walk_expr(x, fe)),
        ExprKind::Call(c, xs) => {
            walk_expr(c, fe);
            xs.iter().for_each(|x| walk_expr(x, fe));
        }
        _ => {}
    }
}

impl Lowerer<'_> {
    /// Whether evaluating `e` has no effect and reads no memory, so it may be evaluated
    /// even where C would skip it (the right side of `&&`, an arm of `?:`).
    pub fn is_pure(&self, e: &Expr) -> bool {
        let info = self.p.expr(e.id);
        if info.value.is_some() {
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
            ExprKind::Ident(_) => match info.symbol.and_then(|s| self.lookup(s)) {
                Some(Storage::Var(_) | Storage::Param(_)) => true,
                // Arrays decay to their address without reading memory.
                Some(Storage::Object(..)) => matches!(info.ty, Some(Type::Array(..))),
                None => false,
            },
            ExprKind::Unary(op, x) => match op {
                UnaryOp::Neg | UnaryOp::Plus | UnaryOp::Not | UnaryOp::BitNot => self.is_pure(x),
                // The address of a place: pure when computing the place reads nothing.
                UnaryOp::AddrOf => self.is_pure_place(x),
                _ => false,
            },
            ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) => self.is_pure(a) && self.is_pure(b),
            ExprKind::Cond(c, a, b) => self.is_pure(c) && self.is_pure(a) && self.is_pure(b),
            ExprKind::Cast(_, x) => self.is_pure(x),
            ExprKind::VectorLit(_, xs) => xs.iter().all(|x| self.is_pure(x)),
            ExprKind::Member {
                base, arrow: false, ..
            } if info.swizzle.is_some() => self.is_pure(base),
            ExprKind::Index(a, i) if matches!(self.p.expr(a.id).ty, Some(Type::Vector(..))) => {
                self.is_pure(a) && self.is_pure(i)
            }
            ExprKind::Index(a, i) if matches!(info.ty, Some(Type::Array(..))) => {
                self.is_pure(a) && self.is_pure(i)
            }
            ExprKind::Call(_, args) => match &info.callee {
                Some(Callee::Builtin(sig)) => {
                    let effects = matches!(
                        sig.family,
                        Family::Atomic | Family::Sync | Family::VectorLoadStore
                    ) || sig.params.iter().any(|t| t.is_pointer());
                    !effects && args.iter().all(|x| self.is_pure(x))
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether the address of the place `e` can be computed without effects or loads.
    fn is_pure_place(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Ident(_) => true,
            ExprKind::Member { base, arrow, .. } => {
                if *arrow {
                    self.is_pure(base)
                } else {
                    self.is_pure_place(base)
                }
            }
            ExprKind::Index(a, i) => self.is_pure(a) && self.is_pure(i),
            ExprKind::Unary(UnaryOp::Deref, x) => self.is_pure(x),
            _ => false,
        }
    }
}

/// Every expression of the program by id (initializer entries name their expression by id).
pub fn index_exprs<'p>(p: &'p Program) -> Vec<Option<&'p Expr>> {
    use crate::frontend::ast::Item;
    let mut out: Vec<Option<&Expr>> = vec![None; p.ast.expr_count as usize];
    let mut put = |e: &'p Expr| {
        if let Some(slot) = out.get_mut(e.id.0 as usize) {
            *slot = Some(e);
        }
    };
    for item in &p.ast.items {
        match item {
            Item::Function(f) => walk_stmt(&f.body, &mut |_| {}, &mut put),
            Item::Decl(d) => {
                for id in &d.declarators {
                    if let Some(i) = &id.init {
                        walk_init(i, &mut put);
                    }
                }
            }
            Item::Pragma(_) => {}
        }
    }
    out
}
