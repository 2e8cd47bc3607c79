//! The async copy built-ins (OpenCL C 6.12.10) as plain IR: `async_work_group_copy` and
//! `async_work_group_strided_copy` become a loop in which each work-item of the group
//! copies every `local size`-th element from its linear local id on; `wait_group_events`
//! is the barrier that makes the copy complete and visible to the group; `prefetch` is a
//! hint with no effect. The hardware then needs nothing beyond loads, stores and barriers.

use crate::diag::Span;
use crate::frontend::ast::Expr;
use crate::frontend::builtins::BuiltinSig;
use crate::frontend::sema::LoopHints;
use crate::frontend::types::{AddrSpace, Type};
use crate::ir::{BinOp, CmpOp, LoopKind, Node, OpKind, Ty, WorkItemFn};

use super::types::{ir_ty, layout};
use super::{Lowerer, Val, R};

/// `barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)`: both sides of a copy settle.
const BOTH_FENCES: u32 = 3;

/// Whether `name` is one of the built-ins this file lowers.
pub fn is_async_builtin(name: &str) -> bool {
    matches!(
        name,
        "async_work_group_copy"
            | "async_work_group_strided_copy"
            | "wait_group_events"
            | "prefetch"
    )
}

impl Lowerer<'_> {
    pub fn async_builtin(&mut self, e: &Expr, sig: &BuiltinSig, args: &[Expr]) -> R<Option<Val>> {
        let span = e.span;
        match sig.name.as_str() {
            "wait_group_events" => {
                for a in args {
                    self.effect_expr(a)?;
                }
                self.emit(OpKind::Barrier { flags: BOTH_FENCES }, None, span, &[]);
                Ok(None)
            }
            "prefetch" => {
                for a in args {
                    self.effect_expr(a)?;
                }
                Ok(None)
            }
            name => {
                let strided = name == "async_work_group_strided_copy";
                let pointee = sig
                    .params
                    .first()
                    .and_then(|t| t.pointer())
                    .map(|p| p.pointee.clone())
                    .unwrap_or(Type::Void);
                let (Some(ty), Some(l)) = (ir_ty(&pointee), layout(self.p, &pointee)) else {
                    return self.fail(
                        span,
                        format!("'{name}' needs a pointer to a scalar or vector"),
                    );
                };
                let dst = self.rvalue(&args[0])?;
                let src = self.rvalue(&args[1])?;
                let num = self.rvalue(&args[2])?;
                let stride = if strided {
                    Some(self.rvalue(&args[3])?)
                } else {
                    None
                };
                self.effect_expr(&args[args.len() - 1])?;
                let (Ty::Ptr(dspace), Ty::Ptr(sspace)) = (dst.ty.clone(), src.ty.clone()) else {
                    return self.fail(span, format!("'{name}' needs two pointers"));
                };
                // The stride steps through the global side of the copy.
                let (dst_stride, src_stride) = match (&stride, dspace) {
                    (Some(s), AddrSpace::Global) => (Some(s.clone()), None),
                    (Some(s), _) => (None, Some(s.clone())),
                    (None, _) => (None, None),
                };
                let first = self.op(
                    OpKind::WorkItem(WorkItemFn::LocalLinearId),
                    Ty::I(64),
                    span,
                    &[],
                );
                let mut step = None;
                for d in 0..3 {
                    let dim = self.konst(Ty::I(32), d, span);
                    let n = self.op(
                        OpKind::WorkItem(WorkItemFn::LocalSize),
                        Ty::I(64),
                        span,
                        &[&dim],
                    );
                    step = Some(match step {
                        None => n,
                        Some(s) => self.op(OpKind::Binary(BinOp::Mul), Ty::I(64), span, &[&s, &n]),
                    });
                }
                let step = step.expect("three dimensions");
                let align = l.align.min(1 << 16) as u32;
                self.strided_loop(&first, &num, &step, span, &mut |lw, i| {
                    let at = |lw: &mut Lowerer, p: &Val, s: &Option<Val>| {
                        let idx = match s {
                            Some(s) => lw.op(OpKind::Binary(BinOp::Mul), Ty::I(64), span, &[i, s]),
                            None => i.clone(),
                        };
                        let size = lw.konst(Ty::I(64), l.size, span);
                        let off =
                            lw.op(OpKind::Binary(BinOp::Mul), Ty::I(64), span, &[&idx, &size]);
                        lw.op(OpKind::PtrAdd, p.ty.clone(), span, &[p, &off])
                    };
                    let from = at(lw, &src, &src_stride);
                    let to = at(lw, &dst, &dst_stride);
                    let load = OpKind::Load {
                        space: sspace,
                        base: None,
                        align,
                    };
                    let v = lw.op(load, ty.clone(), span, &[&from]);
                    let store = OpKind::Store {
                        space: dspace,
                        base: None,
                        align,
                    };
                    lw.effect(store, span, &[&to, &v]);
                    Ok(())
                })?;
                // The event: copies complete at wait_group_events, whichever it names.
                Ok(Some(self.konst(Ty::I(64), 0, span)))
            }
        }
    }

    /// `for (i = first; i < limit; i += step) body(i)`, all i64.
    fn strided_loop(
        &mut self,
        first: &Val,
        limit: &Val,
        step: &Val,
        span: Span,
        body: &mut dyn FnMut(&mut Self, &Val) -> R<()>,
    ) -> R<()> {
        let i = self.k.new_var("copy_i", Ty::I(64), span);
        self.write_var(i, first, span);
        let lid = self.new_loop(LoopKind::While, LoopHints::default(), span);
        let cb = self.start_detached();
        let iv = self.read_var(i, span);
        let c = self.op(OpKind::Cmp(CmpOp::ULt), Ty::I(1), span, &[&iv, limit]);
        self.end_detached();
        self.open_region();
        let cur = self.read_var(i, span);
        body(self, &cur)?;
        let b = self.close_region();
        self.open_region();
        let iv = self.read_var(i, span);
        let next = self.op(OpKind::Binary(BinOp::Add), Ty::I(64), span, &[&iv, step]);
        self.write_var(i, &next, span);
        let latch = self.close_region();
        let l = self.loop_mut(lid);
        l.cond = Some((cb, c.op));
        l.body = b;
        l.latch = latch;
        self.push_node(Node::Loop(lid));
        Ok(())
    }
}
