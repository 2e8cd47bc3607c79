//! Which values may differ between the work-items of a group: a conservative dataflow
//! check (ids, atomics' results, and everything computed from them through ops and
//! variables; control dependence is not followed). Barriers under a condition it flags are
//! rejected as divergent; other conditions are taken on the programmer's word, as OpenCL
//! requires them to be the same for every work-item of the group.

use std::collections::HashSet;

use crate::ir::{BlockId, Kernel, OpId, OpKind, VarId, WorkItemFn};

pub struct Varying {
    vars: HashSet<VarId>,
}

fn is_source(kind: &OpKind) -> bool {
    use WorkItemFn::*;
    match kind {
        OpKind::WorkItem(f) => matches!(f, GlobalId | LocalId | GlobalLinearId | LocalLinearId),
        // Each work-item gets a different old value back.
        OpKind::Atomic { .. } => true,
        _ => false,
    }
}

impl Varying {
    /// Runs the check over every block of `k` until the set of varying variables is stable.
    pub fn of(k: &Kernel) -> Varying {
        let mut v = Varying {
            vars: HashSet::new(),
        };
        loop {
            let before = v.vars.len();
            for i in 0..k.blocks.len() {
                let b = BlockId(i as u32);
                let ops = v.block(k, b);
                for &o in &k.block(b).order {
                    if let OpKind::WriteVar(var) = k.block(b).op(o).kind {
                        if k.block(b).operands(o).iter().any(|a| ops.contains(a)) {
                            v.vars.insert(var);
                        }
                    }
                }
            }
            if v.vars.len() == before {
                return v;
            }
        }
    }

    /// The varying ops of block `b`.
    fn block(&self, k: &Kernel, b: BlockId) -> HashSet<OpId> {
        let blk = k.block(b);
        let mut out = HashSet::new();
        for &o in &blk.order {
            let kind = &blk.op(o).kind;
            let from_var = matches!(kind, OpKind::ReadVar(v) if self.vars.contains(v));
            if is_source(kind) || from_var || blk.operands(o).iter().any(|a| out.contains(a)) {
                out.insert(o);
            }
        }
        out
    }

    /// Whether variable `v` may differ between work-items.
    pub fn var(&self, v: VarId) -> bool {
        self.vars.contains(&v)
    }

    /// Whether op `o` of block `b` may differ between work-items.
    pub fn op(&self, k: &Kernel, b: BlockId, o: OpId) -> bool {
        self.block(k, b).contains(&o)
    }
}
