//! Cycle costs of straight-line code: each block's schedule length on the board's
//! library (the pipeline depth of what a loop iteration runs), and what today's
//! generator spends on it (one controller state per computing op, each waiting for its
//! unit or memory access; see `datapath`).

use std::collections::HashMap;

use crate::board::OpLibrary;
use crate::ir::{BlockId, Kernel, Node, OpKind, Region};
use crate::schedule::schedule_block;
use crate::schedule::timing::op_timing;

/// What running a piece of straight-line code costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Cycles of the list schedule (ifs: the longer arm, as an if-converted datapath).
    pub depth: u64,
    /// Controller states of today's generator.
    pub states: u64,
    /// Cycles today's generator spends (ifs: the longer arm).
    pub fsm_cycles: u64,
}

impl std::ops::Add for Cost {
    type Output = Cost;
    fn add(self, o: Cost) -> Cost {
        Cost {
            depth: self.depth + o.depth,
            states: self.states + o.states,
            fsm_cycles: self.fsm_cycles + o.fsm_cycles,
        }
    }
}

/// Per block of a kernel, its cost.
pub struct BlockCosts(HashMap<BlockId, Cost>);

impl BlockCosts {
    pub fn new(k: &Kernel, lib: &OpLibrary) -> Result<BlockCosts, String> {
        let mut m = HashMap::new();
        for (i, block) in k.blocks.iter().enumerate() {
            let s = schedule_block(block, lib, &lib.limits)
                .map_err(|e| format!("kernel `{}` block b{i}: {e}", k.name))?;
            let mut c = Cost {
                depth: s.length as u64,
                ..Cost::default()
            };
            for &id in &block.order {
                // The generator's rule (`datapath::ops`): these are wires, no state.
                let wire = matches!(
                    block.op(id).kind,
                    OpKind::Const(_)
                        | OpKind::Param(_)
                        | OpKind::ObjectAddr(_)
                        | OpKind::WorkItem(_)
                        | OpKind::Barrier { .. }
                        | OpKind::MemFence { .. }
                );
                if !wire {
                    let lat = op_timing(id, block, lib, &lib.limits).latency.max(1);
                    c.states += 1;
                    c.fsm_cycles += lat as u64;
                }
            }
            m.insert(BlockId(i as u32), c);
        }
        Ok(BlockCosts(m))
    }

    pub fn block(&self, b: BlockId) -> Cost {
        self.0.get(&b).copied().unwrap_or_default()
    }

    /// A region's straight-line cost; nested loops are left out (counted on their own).
    pub fn region(&self, r: &Region) -> Cost {
        let mut c = Cost::default();
        for n in &r.0 {
            match n {
                Node::Block(b) => c = c + self.block(*b),
                Node::If {
                    cond, then, els, ..
                } => {
                    let (t, e) = (self.region(then), self.region(els));
                    let branch = Cost {
                        depth: 0,
                        states: 1,
                        fsm_cycles: 1,
                    };
                    c = c
                        + self.block(cond.0)
                        + branch
                        + Cost {
                            depth: t.depth.max(e.depth),
                            states: t.states + e.states,
                            fsm_cycles: t.fsm_cycles.max(e.fsm_cycles),
                        };
                }
                _ => {}
            }
        }
        c
    }

    /// One iteration of a loop outside its nested loops: condition, body, latch, and the
    /// generator's head and branch states.
    pub fn iteration(&self, k: &Kernel, id: crate::ir::LoopId) -> Cost {
        let l = k.lp(id);
        let cond = l.cond.map(|(b, _)| self.block(b)).unwrap_or_default();
        let control = Cost {
            depth: 0,
            states: 2,
            fsm_cycles: 2,
        };
        cond + self.region(&l.body) + self.region(&l.latch) + control
    }
}
