//! Calls: user functions (argument count and conversions, the call graph) and built-ins
//! (overload resolution in `builtins.rs`), and the recursion check over the call graph.

use crate::frontend::ast::{Expr, ExprKind};
use crate::frontend::builtins::{self, BuiltinError};
use crate::frontend::types::Type;

use super::{Callee, Checker, FuncId, SymbolKind};

impl Checker<'_> {
    pub(super) fn call(&mut self, e: &Expr, callee: &Expr, args: &[Expr]) -> Option<Type> {
        let ExprKind::Ident(name) = &callee.kind else {
            for a in args {
                self.rvalue(a);
            }
            self.error(
                callee.span,
                "only named functions can be called in OpenCL C (no function pointers)",
            );
            return None;
        };
        let arg_tys: Vec<Option<Type>> = args.iter().map(|a| self.rvalue(a)).collect();
        if let Some(sid) = self.scopes.lookup(&name.name) {
            if self.poisoned.contains(&sid) {
                return None;
            }
            self.info(callee).symbol = Some(sid);
            return match self.sym(sid).kind {
                SymbolKind::Function(fid) => {
                    self.info(callee).ty = Some(self.sym(sid).ty.clone());
                    self.user_call(e, fid, args, &arg_tys)
                }
                _ => {
                    let t = self.sym(sid).ty.clone();
                    self.error(
                        callee.span,
                        format!(
                            "called object type '{}' is not a function",
                            self.type_name(&t)
                        ),
                    );
                    None
                }
            };
        }
        if !builtins::is_builtin(&name.name) {
            self.error(
                name.span,
                format!(
                    "implicit declaration of function '{}' is not allowed in OpenCL C",
                    name.name
                ),
            );
            return None;
        }
        let tys: Option<Vec<Type>> = arg_tys.iter().cloned().collect();
        let tys = tys?;
        match builtins::resolve(&name.name, &tys) {
            Ok(sig) => {
                for (i, a) in args.iter().enumerate() {
                    if let Some(p) = sig.params.get(i) {
                        let no_event =
                            matches!(tys[i], Type::Scalar(_)) && self.value_of(a) == Some(0);
                        if *p == Type::Opaque("event_t") && !no_event && tys[i] != *p {
                            self.error(
                                a.span,
                                "an event argument must be an event_t or the constant 0",
                            );
                        }
                        self.convert(a, &tys[i], p);
                    }
                    if tys[i].is_pointer() {
                        if let Some(root) = self.pointer_root(a) {
                            self.builtin_pointer_access(&name.name, root);
                        }
                    }
                }
                let ret = sig.ret.clone();
                self.info(e).callee = Some(Callee::Builtin(sig));
                Some(ret)
            }
            Err(BuiltinError::Unknown) => {
                self.error(
                    name.span,
                    format!(
                        "implicit declaration of function '{}' is not allowed in OpenCL C",
                        name.name
                    ),
                );
                None
            }
            Err(BuiltinError::NoMatch(m)) | Err(BuiltinError::Ambiguous(m)) => {
                self.error(e.span, m);
                None
            }
        }
    }

    fn user_call(
        &mut self,
        e: &Expr,
        fid: FuncId,
        args: &[Expr],
        arg_tys: &[Option<Type>],
    ) -> Option<Type> {
        let ft = self.functions[fid.0 as usize].ty.clone();
        let fname = self.functions[fid.0 as usize].name.clone();
        if let Some(cur) = self.func.as_ref().map(|f| f.id) {
            self.functions[cur.0 as usize].calls.insert(fid);
            self.call_sites.push((cur, fid, e.span));
        }
        self.info(e).callee = Some(Callee::User(fid));
        if args.len() != ft.params.len() && !(ft.variadic && args.len() > ft.params.len()) {
            let which = if args.len() < ft.params.len() {
                "few"
            } else {
                "many"
            };
            self.error(
                e.span,
                format!(
                    "too {which} arguments to function call to '{fname}', expected {}, have {}",
                    ft.params.len(),
                    args.len()
                ),
            );
            return Some(ft.ret);
        }
        for (i, (a, t)) in args.iter().zip(arg_tys).enumerate() {
            let (Some(t), Some(p)) = (t, ft.params.get(i)) else {
                continue;
            };
            self.check_assign(p, a, t, a.span);
            if t.is_pointer() {
                if let Some(root) = self.pointer_root(a) {
                    self.access.passes.push((root, fid, i));
                }
            }
        }
        Some(ft.ret)
    }

    /// How a built-in uses memory through a pointer argument, for the access summary.
    fn builtin_pointer_access(&mut self, name: &str, root: super::SymbolId) {
        if name.starts_with("vload") {
            self.access.reads.insert(root);
        } else if name.starts_with("vstore") {
            self.access.writes.insert(root);
        } else if name.starts_with("atom")
            || name.contains("work_group_copy")
            || name.starts_with("prefetch")
        {
            self.access.reads.insert(root);
            self.access.writes.insert(root);
        } else {
            // fract, modf, sincos, frexp, remquo, lgamma_r store a second result.
            self.access.writes.insert(root);
        }
    }

    /// Recursion (direct or through other functions) cannot become hardware: an error at
    /// each call that closes a cycle.
    pub(super) fn check_recursion(&mut self) {
        let n = self.functions.len();
        let sites = self.call_sites.clone();
        for (_, callee, span) in &sites {
            let f = &self.functions[callee.0 as usize];
            if f.def_item.is_none() {
                let msg = format!(
                    "function '{}' is called but never defined in this program",
                    f.name
                );
                self.error(*span, msg);
            }
        }
        for (caller, callee, span) in sites {
            if self.reaches(callee, caller, n) {
                let name = self.functions[callee.0 as usize].name.clone();
                self.error(
                    span,
                    format!("recursive call to '{name}': recursion is not allowed in OpenCL C"),
                );
            }
        }
    }

    /// Whether `to` is reachable from `from` along call edges.
    fn reaches(&self, from: FuncId, to: FuncId, n: usize) -> bool {
        let mut seen = vec![false; n];
        let mut stack = vec![from];
        while let Some(f) = stack.pop() {
            if f == to {
                return true;
            }
            let i = f.0 as usize;
            if i >= n || seen[i] {
                continue;
            }
            seen[i] = true;
            stack.extend(self.functions[i].calls.iter().copied());
        }
        false
    }
}
