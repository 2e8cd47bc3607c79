//! Segments every work-item would run alike run once per group, and variables every
//! work-item holds alike live in one register. A barrier loop's latch (`stride >>= 1`
//! and its test) otherwise costs a whole work-item loop per round, and its counter a
//! private array indexed by the local id.
//!
//! A *group scalar* is a variable every work-item provably holds the same value in:
//! each write is either in a run-once segment, or at the top level of a work-item
//! segment (not under any `if` or loop of it) that does not read the variable before,
//! with a value computed from constants, parameters, non-varying work-item functions
//! and group scalars only. A segment runs once when it touches no memory, reads no local
//! id, cannot leave the group's control, and reads and writes group scalars only: its
//! control then takes the same path in every work-item, so one run computes what each
//! would have.

use std::collections::HashSet;

use crate::ir::{BlockId, Kernel, Node, OpId, OpKind, Region, VarId, WorkItemFn};

use super::regions::Tree;

pub struct Once {
    /// Per segment: run once per group, outside any work-item loop.
    pub segs: Vec<bool>,
    /// Variables kept in one register for the whole group.
    pub scalars: HashSet<VarId>,
}

fn varies(kind: &OpKind) -> bool {
    use WorkItemFn::*;
    matches!(
        kind,
        OpKind::WorkItem(GlobalId | LocalId | GlobalLinearId | LocalLinearId)
    )
}

/// A write of a variable in a segment.
struct Write {
    var: VarId,
    /// In a block at the segment's top level, not read in the segment before it.
    unconditional: bool,
    /// The variables its value is computed from, or `None` when it reads a local id.
    from: Option<HashSet<VarId>>,
}

#[derive(Default)]
struct SegFacts {
    /// No memory access, local id or way out of the segment.
    pure: bool,
    reads: HashSet<VarId>,
    writes: Vec<Write>,
}

/// For every op of block `b` with a result: the variables it is computed from, `None`
/// when a local id or memory feeds it (what a load or atomic returns may change between
/// work-items).
fn sources(k: &Kernel, b: BlockId) -> std::collections::HashMap<OpId, Option<HashSet<VarId>>> {
    let blk = k.block(b);
    let mut out: std::collections::HashMap<OpId, Option<HashSet<VarId>>> = Default::default();
    for &o in &blk.order {
        let kind = &blk.op(o).kind;
        let mut s = if varies(kind) || kind.is_memory() {
            None
        } else {
            Some(HashSet::new())
        };
        if let (OpKind::ReadVar(v), Some(set)) = (kind, &mut s) {
            set.insert(*v);
        }
        for a in blk.operands(o) {
            s = match (s, out.get(&a)) {
                (Some(mut x), Some(Some(y))) => {
                    x.extend(y);
                    Some(x)
                }
                (Some(x), None) => Some(x),
                _ => None,
            };
        }
        out.insert(o, s);
    }
    out
}

impl SegFacts {
    fn of(k: &Kernel, nodes: &[Node]) -> SegFacts {
        let mut f = SegFacts {
            pure: true,
            ..Default::default()
        };
        for n in nodes {
            f.node(k, n, true, &mut Vec::new());
        }
        f
    }

    fn block(&mut self, k: &Kernel, b: BlockId, top: bool) {
        let blk = k.block(b);
        let src = sources(k, b);
        for &o in &blk.order {
            let kind = &blk.op(o).kind;
            let used = blk.graph.neighbors(o.0).next().is_some();
            if kind.is_memory() || varies(kind) || (matches!(kind, OpKind::ObjectAddr(_)) && used) {
                self.pure = false;
            }
            match kind {
                OpKind::ReadVar(v) => {
                    self.reads.insert(*v);
                }
                OpKind::WriteVar(v) => {
                    let arg = blk.operands(o)[0];
                    self.writes.push(Write {
                        var: *v,
                        unconditional: top && !self.reads.contains(v),
                        from: src.get(&arg).cloned().flatten(),
                    });
                }
                _ => {}
            }
        }
    }

    /// `own` are the loops of the segment (a `break` of another leaves the segment).
    fn node(&mut self, k: &Kernel, n: &Node, top: bool, own: &mut Vec<crate::ir::LoopId>) {
        match n {
            Node::Block(b) => self.block(k, *b, top),
            Node::If {
                cond, then, els, ..
            } => {
                self.block(k, cond.0, top);
                self.region(k, then, own);
                self.region(k, els, own);
            }
            Node::Loop(id) => {
                let l = k.lp(*id);
                if let Some((c, _)) = l.cond {
                    self.block(k, c, false);
                }
                own.push(*id);
                self.region(k, &l.body, own);
                self.region(k, &l.latch, own);
                own.pop();
            }
            Node::Break(l) | Node::Continue(l) => self.pure &= own.contains(l),
            Node::Return => self.pure = false,
        }
    }

    fn region(&mut self, k: &Kernel, r: &Region, own: &mut Vec<crate::ir::LoopId>) {
        for n in &r.0 {
            self.node(k, n, false, own);
        }
    }
}

pub fn find(k: &Kernel, tree: &Tree) -> Once {
    let facts: Vec<SegFacts> = tree
        .segs
        .iter()
        .map(|s| SegFacts::of(k, &s.nodes))
        .collect();
    let mut once: Vec<bool> = facts.iter().map(|f| f.pure).collect();
    loop {
        let mut scalars: HashSet<VarId> = (0..k.vars.len() as u32).map(VarId).collect();
        loop {
            let before = scalars.len();
            for (f, &run_once) in facts.iter().zip(&once) {
                for w in &f.writes {
                    let alike = run_once
                        || (w.unconditional
                            && w.from.as_ref().is_some_and(|s| s.is_subset(&scalars)));
                    if !alike {
                        scalars.remove(&w.var);
                    }
                }
            }
            if scalars.len() == before {
                break;
            }
        }
        let next: Vec<bool> = facts
            .iter()
            .zip(&once)
            .map(|(f, &o)| {
                o && f.reads.is_subset(&scalars)
                    && f.writes.iter().all(|w| scalars.contains(&w.var))
            })
            .collect();
        if next == once {
            return Once {
                segs: once,
                scalars,
            };
        }
        once = next;
    }
}
