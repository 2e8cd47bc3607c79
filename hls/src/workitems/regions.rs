//! Cutting the kernel body at barriers into group-level control and work-item segments.
//! A segment is a run of barrier-free nodes that becomes one loop nest over the
//! work-items; an `if` or loop holding a barrier becomes group-level control whose
//! condition is computed by every work-item in the segment before it and stored in a
//! condition variable (so the last work-item's value is the one used: OpenCL requires it
//! to be the same for all).

use std::collections::HashSet;

use crate::diag::{Diagnostic, Span};
use crate::ir::{BlockId, Kernel, LoopId, LoopKind, Node, OpKind, Region, Ty, VarId};

use super::uniform::Varying;

/// Barrier-free nodes run once per work-item.
pub struct Seg {
    pub nodes: Vec<Node>,
    /// Inside a group-level loop (so it may run several times per work-item).
    pub in_loop: bool,
    /// No barrier can follow it: a `return` there ends just its work-item.
    pub tail: bool,
    /// Run only by the work-items whose local id in dimension `.0` is `.1` (`guards.rs`),
    /// the statement at `.2`.
    pub fixed: Option<(usize, u64, Span)>,
}

/// Where a region being cut sits.
#[derive(Clone, Copy)]
struct Place {
    in_loop: bool,
    /// Nothing runs after the region.
    tail: bool,
}

#[derive(Clone)]
pub enum GNode {
    Seg(usize),
    If {
        cvar: VarId,
        then: Vec<GNode>,
        els: Vec<GNode>,
        span: Span,
    },
    /// Loop `id` of the kernel, its body and latch replaced; `cvar` holds its condition.
    Loop {
        id: LoopId,
        cvar: Option<VarId>,
        body: Vec<GNode>,
        latch: Vec<GNode>,
    },
    Break(LoopId),
    Continue(LoopId),
}

pub struct Tree {
    pub top: Vec<GNode>,
    pub segs: Vec<Seg>,
}

impl Tree {
    /// Replaces every `GNode::Seg(i)` with a key in `with` by its nodes (later passes
    /// split a segment into several, or put group-level control around one).
    pub fn splice(&mut self, with: &std::collections::BTreeMap<usize, Vec<GNode>>) {
        fn go(
            nodes: Vec<GNode>,
            with: &std::collections::BTreeMap<usize, Vec<GNode>>,
        ) -> Vec<GNode> {
            let mut out = Vec::new();
            for n in nodes {
                match n {
                    GNode::Seg(i) if with.contains_key(&i) => out.extend(with[&i].iter().cloned()),
                    GNode::If {
                        cvar,
                        then,
                        els,
                        span,
                    } => out.push(GNode::If {
                        cvar,
                        then: go(then, with),
                        els: go(els, with),
                        span,
                    }),
                    GNode::Loop {
                        id,
                        cvar,
                        body,
                        latch,
                    } => out.push(GNode::Loop {
                        id,
                        cvar,
                        body: go(body, with),
                        latch: go(latch, with),
                    }),
                    other => out.push(other),
                }
            }
            out
        }
        self.top = go(std::mem::take(&mut self.top), with);
    }
}

/// Builds the tree; `barriers` are the barrier-only blocks left by splitting.
pub fn build(k: &mut Kernel, barriers: &HashSet<BlockId>) -> Result<Tree, Diagnostic> {
    let varying = Varying::of(k);
    let mut b = Builder {
        barriers,
        varying,
        segs: Vec::new(),
        conds: 0,
        group_loops: Vec::new(),
    };
    let body = k.body.0.clone();
    let top = b.region(
        k,
        &body,
        Place {
            in_loop: false,
            tail: true,
        },
    )?;
    Ok(Tree { top, segs: b.segs })
}

struct Builder<'a> {
    barriers: &'a HashSet<BlockId>,
    varying: Varying,
    segs: Vec<Seg>,
    conds: usize,
    /// The group-level loops around the region being cut.
    group_loops: Vec<LoopId>,
}

impl Builder<'_> {
    /// A `break` or `continue` of a group-level loop inside work-item code leaves the
    /// segment early and the loop after it; the conditions around it must then be
    /// uniform too. `varying` is the span of a work-item dependent `if` around `n`.
    fn check_escapes(
        &self,
        k: &Kernel,
        n: &Node,
        varying: Option<Span>,
        tail: bool,
    ) -> Result<(), Diagnostic> {
        let leaves = |n: &Node| match n {
            Node::Break(l) | Node::Continue(l) => self.group_loops.contains(l),
            Node::Return => !tail,
            _ => false,
        };
        match n {
            n if leaves(n) => match varying {
                Some(span) => Err(Diagnostic::error(
                    span,
                    "leaving a loop or the kernel before a barrier under a condition that \
                     depends on the work-item id (divergent barrier)",
                )),
                None => Ok(()),
            },
            Node::If {
                cond,
                then,
                els,
                span,
            } => {
                let inner = varying.or(self.varying.op(k, cond.0, cond.1).then_some(*span));
                for x in then.0.iter().chain(&els.0) {
                    self.check_escapes(k, x, inner, tail)?;
                }
                Ok(())
            }
            Node::Loop(id) => {
                let l = k.lp(*id);
                for x in l.body.0.iter().chain(&l.latch.0) {
                    self.check_escapes(k, x, varying, tail)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn has_barrier(&self, k: &Kernel, n: &Node) -> bool {
        match n {
            Node::Block(b) => self.barriers.contains(b),
            Node::If { then, els, .. } => self.any_barrier(k, then) || self.any_barrier(k, els),
            Node::Loop(id) => {
                let l = k.lp(*id);
                self.any_barrier(k, &l.body) || self.any_barrier(k, &l.latch)
            }
            Node::Break(_) | Node::Continue(_) | Node::Return => false,
        }
    }

    fn any_barrier(&self, k: &Kernel, r: &Region) -> bool {
        r.0.iter().any(|n| self.has_barrier(k, n))
    }

    fn flush(&mut self, cur: &mut Vec<Node>, out: &mut Vec<GNode>, in_loop: bool, tail: bool) {
        if !cur.is_empty() {
            self.segs.push(Seg {
                nodes: std::mem::take(cur),
                in_loop,
                tail,
                fixed: None,
            });
            out.push(GNode::Seg(self.segs.len() - 1));
        }
    }

    /// A new condition variable, written at the end of block `b` from its op `op`; errors
    /// when the condition visibly depends on the work-item.
    fn cond_var(
        &mut self,
        k: &mut Kernel,
        (b, op): (BlockId, crate::ir::OpId),
        span: Span,
    ) -> Result<VarId, Diagnostic> {
        if self.varying.op(k, b, op) {
            return Err(Diagnostic::error(
                span,
                "barrier under control that depends on the work-item id: every work-item of \
                 a group must reach the same barriers (divergent barrier)",
            ));
        }
        let v = k.new_var(&format!("__group_cond{}", self.conds), Ty::I(1), span);
        self.conds += 1;
        let op_span = k.block(b).op(op).span;
        k.block_mut(b)
            .add(OpKind::WriteVar(v), None, op_span, &[op]);
        Ok(v)
    }

    fn region(
        &mut self,
        k: &mut Kernel,
        nodes: &[Node],
        at: Place,
    ) -> Result<Vec<GNode>, Diagnostic> {
        let in_loop = at.in_loop;
        let last_barrier = nodes.iter().rposition(|n| self.has_barrier(k, n));
        let mut out = Vec::new();
        let mut cur = Vec::new();
        for (i, n) in nodes.iter().enumerate() {
            if !self.has_barrier(k, n) {
                match n {
                    Node::Break(l) | Node::Continue(l) if in_loop => {
                        self.flush(&mut cur, &mut out, in_loop, false);
                        out.push(match n {
                            Node::Break(_) => GNode::Break(*l),
                            _ => GNode::Continue(*l),
                        });
                    }
                    other => {
                        let tail = at.tail && last_barrier.is_none_or(|b| i > b);
                        self.check_escapes(k, other, None, tail)?;
                        cur.push(other.clone());
                    }
                }
                continue;
            }
            let inner = Place {
                in_loop,
                tail: at.tail && i + 1 == nodes.len(),
            };
            match n {
                Node::Block(_) => self.flush(&mut cur, &mut out, in_loop, false),
                Node::If {
                    cond,
                    then,
                    els,
                    span,
                } => {
                    let cvar = self.cond_var(k, *cond, *span)?;
                    cur.push(Node::Block(cond.0));
                    self.flush(&mut cur, &mut out, in_loop, false);
                    let then = self.region(k, &then.0, inner)?;
                    let els = self.region(k, &els.0, inner)?;
                    out.push(GNode::If {
                        cvar,
                        then,
                        els,
                        span: *span,
                    });
                }
                Node::Loop(id) => self.group_loop(k, *id, &mut cur, &mut out, inner)?,
                Node::Break(_) | Node::Continue(_) | Node::Return => {}
            }
        }
        self.flush(&mut cur, &mut out, in_loop, at.tail);
        Ok(out)
    }

    /// Turns loop `id` (holding a barrier) into group-level control. A `while` loop's
    /// condition is computed at the end of the segment before it (`cur`) and again after
    /// the latch; a `do-while`'s after the latch only. The latch joins the body's last
    /// segment unless a group-level `continue` needs it separate.
    fn group_loop(
        &mut self,
        k: &mut Kernel,
        id: LoopId,
        cur: &mut Vec<Node>,
        out: &mut Vec<GNode>,
        at: Place,
    ) -> Result<(), Diagnostic> {
        let l = k.lp(id).clone();
        // Only a run-once loop (`switch`) lets a barrier-free end reach the kernel's end.
        let inner = Place {
            in_loop: true,
            tail: at.tail && l.kind == LoopKind::Once,
        };
        let cvar = match l.cond {
            Some(c) => Some(self.cond_var(k, c, l.span)?),
            None => None,
        };
        let mut tail: Vec<Node> = l.latch.0.clone();
        if let Some((cb, _)) = l.cond {
            match l.kind {
                LoopKind::While => {
                    cur.push(Node::Block(cb));
                    let again = k.new_block();
                    let copy = k.block(cb).clone();
                    *k.block_mut(again) = copy;
                    tail.push(Node::Block(again));
                }
                _ => tail.push(Node::Block(cb)),
            }
        }
        self.flush(cur, out, at.in_loop, false);
        self.group_loops.push(id);
        let (body, latch) = if has_continue(k, &l.body, id) {
            (
                self.region(k, &l.body.0, inner)?,
                self.region(k, &tail, inner)?,
            )
        } else {
            let mut all = l.body.0.clone();
            all.extend(tail);
            (self.region(k, &all, inner)?, Vec::new())
        };
        self.group_loops.pop();
        out.push(GNode::Loop {
            id,
            cvar,
            body,
            latch,
        });
        Ok(())
    }
}

/// Whether `r` continues loop `id` anywhere (a `switch` inside may hold the `continue`).
fn has_continue(k: &Kernel, r: &Region, id: LoopId) -> bool {
    r.0.iter().any(|n| match n {
        Node::Continue(l) => *l == id,
        Node::If { then, els, .. } => has_continue(k, then, id) || has_continue(k, els, id),
        Node::Loop(l) => {
            let l = k.lp(*l);
            has_continue(k, &l.body, id) || has_continue(k, &l.latch, id)
        }
        _ => false,
    })
}
