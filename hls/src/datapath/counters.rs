//! Probes for the performance counters of the pipelined loops, which the control block
//! counts and the host reads after DONE: per loop the cycles its controller ran, the
//! cycles it was taking new iterations, the cycles it stood stalled (of them, those while
//! taking iterations), the iterations it took and those that passed the exit test. The
//! datapath only says when; the counters live in the core beside the registers that read
//! them, so the datapath module is the computation alone.
//! They turn "the report says II 1" into a measurement: `run --engine sim` and the cycles
//! benchmark divide them into the achieved II and the cycles per iteration.

use crate::rtl::expr::Expr;
use crate::rtl::netlist::Module;
use crate::rtl::regmap::{CounterKind, RegCounter, COUNTERS_BASE, MAX_COUNTERS};

/// What one pipelined loop's counters count, as conditions on its controller.
pub(crate) struct LoopProbe {
    pub lp: u32,
    /// The loop's controller state is active.
    pub run: Expr,
    /// ... and stage 0 is taking an iteration (stalled or not).
    pub issue: Expr,
    /// ... and the pipeline is stalled.
    pub stall: Expr,
    /// ... stalled while taking an iteration in.
    pub issue_stall: Expr,
    /// An iteration leaves stage 0.
    pub admitted: Expr,
    /// An iteration leaves stage 0 having passed the exit test.
    pub passed: Expr,
}

/// Adds the `probes` output port: one bit per probe condition of each loop, high in the
/// cycles the condition holds. The core's control block counts them
/// (`rtl::shell::loop_counters`). Loops past the control block's counter space get none
/// (the register map lists what is counted).
pub(crate) fn add(m: &mut Module, probes: Vec<LoopProbe>) -> Vec<RegCounter> {
    let per_loop = CounterKind::ALL.len();
    let loops = probes.len().min(MAX_COUNTERS as usize / per_loop);
    if loops == 0 {
        return Vec::new();
    }
    let mut bits = Vec::new();
    let mut map = Vec::new();
    for probe in probes.into_iter().take(loops) {
        let conds = [
            probe.run,
            probe.issue,
            probe.stall,
            probe.issue_stall,
            probe.admitted,
            probe.passed,
        ];
        for (kind, cond) in CounterKind::ALL.into_iter().zip(conds) {
            map.push(RegCounter {
                name: format!("L{}_{}", probe.lp, kind.name()),
                lp: probe.lp,
                kind,
                offset: COUNTERS_BASE + 4 * bits.len() as u32,
            });
            bits.push(cond);
        }
    }
    let out = m.output("probes", bits.len() as u32);
    // The first counter's bit lowest.
    bits.reverse();
    m.assign(out, Expr::Concat(bits));
    map
}
