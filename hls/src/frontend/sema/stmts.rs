//! Statements: blocks and scopes, conditions, loops, switch/case/default, break and
//! continue placement, returns, labels and goto.

use std::collections::HashMap;

use crate::diag::Span;
use crate::frontend::ast::{Expr, Stmt, StmtKind};
use crate::frontend::types::{Scalar, Type};

use super::conv::promote;
use super::Checker;

/// The switch being checked: its controlling type and the case values seen.
pub(super) struct SwitchCtx {
    ty: Type,
    values: HashMap<i128, Span>,
    default: Option<Span>,
}

impl Checker<'_> {
    pub(super) fn stmt(&mut self, s: &Stmt) {
        self.stmt_prefix(s);
        match &s.kind {
            StmtKind::Expr(Some(e)) => {
                self.expr(e);
            }
            StmtKind::Expr(None) | StmtKind::Break | StmtKind::Continue => {}
            StmtKind::Decl(d) => self.declaration(d),
            StmtKind::Compound(items) => {
                self.scopes.push();
                for i in items {
                    self.stmt(i);
                }
                self.scopes.pop();
            }
            StmtKind::If(c, t, f) => {
                self.condition(c);
                self.sub_stmt(t);
                if let Some(f) = f {
                    self.sub_stmt(f);
                }
            }
            StmtKind::While(c, body) => {
                self.condition(c);
                self.loop_body(body);
            }
            StmtKind::DoWhile(body, c) => {
                self.loop_body(body);
                self.condition(c);
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.scopes.push();
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = cond {
                    self.condition(c);
                }
                if let Some(st) = step {
                    self.expr(st);
                }
                self.loop_body(body);
                self.scopes.pop();
            }
            StmtKind::Switch(c, body) => self.switch(c, body),
            StmtKind::Case(v, body) => {
                self.case(s.span, v);
                self.stmt(body);
            }
            StmtKind::Default(body) => {
                match self.func.as_mut().and_then(|f| f.switches.last_mut()) {
                    None => self.error(s.span, "'default' statement not in switch statement"),
                    Some(sw) if sw.default.is_some() => {
                        self.error(s.span, "multiple default labels in one switch")
                    }
                    Some(sw) => sw.default = Some(s.span),
                }
                self.stmt(body);
            }
            StmtKind::Return(v) => self.return_stmt(s.span, v.as_ref()),
            StmtKind::Goto(l) => {
                if let Some(f) = self.func.as_mut() {
                    f.gotos.push(l.clone());
                }
            }
            StmtKind::Labeled(l, body) => {
                let dup = self
                    .func
                    .as_mut()
                    .and_then(|f| f.labels.insert(l.name.clone(), l.span));
                if dup.is_some() {
                    self.error(l.span, format!("redefinition of label '{}'", l.name));
                }
                self.stmt(body);
            }
        }
        self.check_jump_placement(s);
    }

    /// A statement in its own scope (the branch of an `if`, a loop body).
    fn sub_stmt(&mut self, s: &Stmt) {
        self.scopes.push();
        self.stmt(s);
        self.scopes.pop();
    }

    fn loop_body(&mut self, body: &Stmt) {
        if let Some(f) = self.func.as_mut() {
            f.loops += 1;
        }
        self.sub_stmt(body);
        if let Some(f) = self.func.as_mut() {
            f.loops -= 1;
        }
    }

    fn check_jump_placement(&mut self, s: &Stmt) {
        let (loops, switches) = self
            .func
            .as_ref()
            .map_or((0, 0), |f| (f.loops, f.switches.len()));
        match s.kind {
            StmtKind::Break if loops == 0 && switches == 0 => {
                self.error(s.span, "'break' statement not in loop or switch statement")
            }
            StmtKind::Continue if loops == 0 => {
                self.error(s.span, "'continue' statement not in loop statement")
            }
            _ => {}
        }
    }

    /// A controlling expression: must be a scalar; its value is compared against zero.
    pub(super) fn condition(&mut self, c: &Expr) {
        let Some(t) = self.rvalue(c) else { return };
        match t {
            Type::Scalar(_) | Type::Enum(_) | Type::Pointer(_) => {
                self.convert(c, &t, &Type::Scalar(Scalar::Bool))
            }
            other => {
                let msg = format!(
                    "statement requires expression of scalar type ('{}' invalid)",
                    self.type_name(&other)
                );
                self.error(c.span, msg);
            }
        }
    }

    fn switch(&mut self, c: &Expr, body: &Stmt) {
        let ty = match self.rvalue(c) {
            Some(t @ Type::Scalar(s)) if s.is_integer() => {
                let p = Type::Scalar(promote(s));
                self.convert(c, &t, &p);
                p
            }
            Some(Type::Enum(_)) => Type::int(),
            Some(t) => {
                let msg = format!(
                    "statement requires expression of integer type ('{}' invalid)",
                    self.type_name(&t)
                );
                self.error(c.span, msg);
                Type::int()
            }
            None => Type::int(),
        };
        if let Some(f) = self.func.as_mut() {
            f.switches.push(SwitchCtx {
                ty,
                values: HashMap::new(),
                default: None,
            });
        }
        self.sub_stmt(body);
        if let Some(f) = self.func.as_mut() {
            f.switches.pop();
        }
    }

    fn case(&mut self, span: Span, v: &Expr) {
        let t = self.rvalue(v);
        let Some(sw_ty) = self
            .func
            .as_ref()
            .and_then(|f| f.switches.last())
            .map(|s| s.ty.clone())
        else {
            self.error(span, "'case' statement not in switch statement");
            return;
        };
        let Some(t) = t else { return };
        let Some(val) = self.value_of(v) else {
            self.error(v.span, "case value is not an integer constant expression");
            return;
        };
        self.convert(v, &t, &sw_ty);
        let val = match sw_ty {
            Type::Scalar(s) => super::consteval::wrap(val, s),
            _ => val,
        };
        let prev = self
            .func
            .as_mut()
            .and_then(|f| f.switches.last_mut())
            .and_then(|sw| sw.values.insert(val, v.span));
        if prev.is_some() {
            self.error(v.span, format!("duplicate case value '{val}'"));
        }
    }

    fn return_stmt(&mut self, span: Span, v: Option<&Expr>) {
        let Some(ret) = self.func.as_ref().map(|f| f.ret.clone()) else {
            return;
        };
        let name = self
            .func
            .as_ref()
            .map(|f| f.name.clone())
            .unwrap_or_default();
        match (v, &ret) {
            (Some(e), Type::Void) => {
                self.rvalue(e);
                self.error(
                    e.span,
                    format!("void function '{name}' should not return a value"),
                );
            }
            (Some(e), _) => {
                if let Some(t) = self.rvalue(e) {
                    self.check_assign(&ret, e, &t, e.span);
                }
            }
            (None, Type::Void) => {}
            (None, _) => self.error(
                span,
                format!("non-void function '{name}' should return a value"),
            ),
        }
    }

    /// After a body: every `goto` must name a label of the function.
    pub(super) fn finish_labels(&mut self) {
        let Some(f) = self.func.as_mut() else { return };
        let missing: Vec<_> = f
            .gotos
            .iter()
            .filter(|g| !f.labels.contains_key(&g.name))
            .cloned()
            .collect();
        for g in missing {
            self.error(g.span, format!("use of undeclared label '{}'", g.name));
        }
    }
}
