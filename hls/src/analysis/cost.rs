//! Cycle costs of straight-line code: each block's schedule length on the board's
//! library (the pipeline depth of what a loop iteration runs), and what today's
//! scheduled generator spends on it (its controller states per block, each memory access
//! waiting for its handshake and each schedule cycle for its slowest unit; see
//! `datapath::sched`), both read from the stages that decided them.

use std::collections::HashMap;

use crate::board::OpLibrary;
use crate::ir::{BlockId, Kernel, Node, OpKind, Region};
use crate::datapath::Facts;
use crate::schedule::KernelSchedule;
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
    /// Each block's cost from its schedule (the `schedule` stage's side table) and the
    /// states the generated controller runs through for it (`datapath` stage facts).
    pub fn new(
        k: &Kernel,
        lib: &OpLibrary,
        schedule: &KernelSchedule,
        states: &Facts,
    ) -> Result<BlockCosts, String> {
        let mut m = HashMap::new();
        for (i, block) in k.blocks.iter().enumerate() {
            let s = schedule
                .schedules
                .get(i)
                .ok_or_else(|| format!("kernel `{}` block b{i} has no schedule", k.name))?;
            // The scheduled generator (`datapath::sched`): a memory access keeps a state
            // of its own and waits for its handshake (one access at a time); the other
            // ops of a schedule cycle share a state that waits for the longest unit it
            // starts. Wires (constants, parameters, work-item ids) need no state.
            let mut mem_cycles = 0u64;
            let mut mem_ops = 0u64;
            let mut unit_wait: HashMap<u32, u64> = HashMap::new();
            for &id in &block.order {
                let wire = matches!(
                    block.op(id).kind,
                    OpKind::Const(_)
                        | OpKind::Param(_)
                        | OpKind::ObjectAddr(_)
                        | OpKind::WorkItem(_)
                        | OpKind::Barrier { .. }
                        | OpKind::MemFence { .. }
                );
                if wire {
                    continue;
                }
                let t = op_timing(id, block, lib, &lib.limits);
                if t.mem.is_some() {
                    mem_ops += 1;
                    // A store's state ends once the write is accepted (the response is
                    // awaited only by a later read: not modelled); a load or atomic waits
                    // for its data.
                    let wait = if t.pure_write {
                        t.demands.iter().map(|d| d.cycles).max().unwrap_or(1)
                    } else {
                        t.latency
                    };
                    mem_cycles += wait.max(1) as u64;
                } else {
                    let c = s.cycle.get(&id).copied().unwrap_or(0);
                    let w = unit_wait.entry(c).or_insert(1);
                    *w = (*w).max(t.latency.max(1) as u64);
                }
            }
            let scheduled_main = unit_wait.len() as u64;
            let states_here = states
                .states_of(BlockId(i as u32))
                .unwrap_or(mem_ops + scheduled_main);
            // States the generator adds beyond the schedule's cycles (results used one
            // state later) each take at least a cycle.
            let extra = states_here.saturating_sub(mem_ops + scheduled_main);
            let c = Cost {
                depth: s.length as u64,
                states: states_here,
                fsm_cycles: mem_cycles + unit_wait.values().sum::<u64>() + extra,
            };
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
