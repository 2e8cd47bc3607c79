//! Calls of user functions, inlined: fresh storage for the parameters of each call, the
//! result in a variable (or an object for structs), and early `return`s as breaks out
//! of a run-once loop around the body.

use crate::frontend::ast::{Expr, Item};
use crate::frontend::sema::FuncId;
use crate::frontend::types::{AddrSpace, Type};
use crate::ir::{LoopKind, Node, OpKind, Ty};

use super::types::ir_ty;
use super::{Frame, Jump, Lowerer, RetSlot, Val, R};

/// Inlining deeper than this is refused (sema rejects recursion; this guards the stack).
const MAX_INLINE_DEPTH: usize = 64;

impl Lowerer<'_> {
    pub fn call_user(&mut self, e: &Expr, fid: FuncId, args: &[Expr]) -> R<Option<Val>> {
        let span = e.span;
        let f = self.p.function(fid);
        let Some(Item::Function(def)) = f.def_item.and_then(|i| self.p.ast.items.get(i)) else {
            return self.fail(
                span,
                format!("function '{}' is declared but never defined", f.name),
            );
        };
        if self.frames.len() >= MAX_INLINE_DEPTH {
            return self.fail(span, "functions nest too deeply to inline");
        }
        let facts = self.facts_of(fid, &def.body);
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.rvalue(a)?);
        }
        let ret = match &f.ty.ret {
            Type::Void => None,
            t @ (Type::Record(_) | Type::Array(..)) => {
                let align = super::types::layout(self.p, t).map_or(1, |l| l.align);
                Some(RetSlot::Object(self.new_object(
                    &format!("{}.ret", f.name),
                    t,
                    AddrSpace::Private,
                    align,
                    span,
                )?))
            }
            t => match ir_ty(t) {
                Some(ty) => Some(RetSlot::Var(self.k.new_var(
                    &format!("{}.ret", f.name),
                    ty,
                    span,
                ))),
                None => {
                    return self.fail(
                        span,
                        format!("'{}' returns a type hardware cannot compute with", f.name),
                    )
                }
            },
        };
        let mut frame = Frame {
            func: fid,
            syms: Default::default(),
            ret,
            once: None,
            top: false,
        };
        for (sid, v) in f.params.iter().zip(&vals) {
            let st = self.bind_value(*sid, v)?;
            frame.syms.insert(*sid, st);
        }
        let once = facts
            .early_return
            .then(|| self.new_loop(LoopKind::Once, Default::default(), span));
        frame.once = once;
        self.frames.push(frame);
        self.jumps.push(Jump::Function);
        if once.is_some() {
            self.open_region();
        }
        let r = self.stmt(&def.body);
        if let Some(l) = once {
            let body = self.close_region();
            self.loop_mut(l).body = body;
            self.push_node(Node::Loop(l));
        }
        self.jumps.pop();
        self.frames.pop();
        r?;
        Ok(match ret {
            None => None,
            Some(RetSlot::Var(v)) => Some(self.read_var(v, span)),
            Some(RetSlot::Object(o)) => Some(self.op(
                OpKind::ObjectAddr(o),
                Ty::Ptr(AddrSpace::Private),
                span,
                &[],
            )),
        })
    }
}
