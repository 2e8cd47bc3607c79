//! Performance counters of the pipelined loops, read from the control block after DONE:
//! per loop the cycles its controller ran, the cycles it was taking new iterations, the
//! cycles it stood stalled (of them, those while taking iterations), the iterations it
//! took and those that passed the exit test.
//! They turn "the report says II 1" into a measurement: `run --engine sim` and the cycles
//! benchmark divide them into the achieved II and the cycles per iteration.

use crate::rtl::expr::{BinOp, Const, Expr};
use crate::rtl::netlist::{Module, NetId};
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

/// Adds a 32-bit counter per probe condition (cleared by `start`, wrapping), and the
/// `counters` output port that carries them to the control block. Loops past the
/// control block's counter space get none (the register map lists what is counted).
pub(crate) fn add(
    m: &mut Module,
    clk: NetId,
    rst: NetId,
    start: NetId,
    probes: Vec<LoopProbe>,
) -> Vec<RegCounter> {
    let per_loop = CounterKind::ALL.len();
    let loops = probes.len().min(MAX_COUNTERS as usize / per_loop);
    if loops == 0 {
        return Vec::new();
    }
    let p = m.process(clk, Some(rst));
    let mut regs = Vec::new();
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
            let name = format!("perf_l{}_{}", probe.lp, kind.name());
            let r = m.reg(&name, 32);
            m.reset_value(p, r, Const::zero(32));
            let next = Expr::mux(
                Expr::Net(start),
                Expr::lit(32, 0),
                Expr::bin(BinOp::Add, Expr::Net(r), Expr::lit(32, 1)),
            );
            m.update(p, r, next, Some(Expr::lor(Expr::Net(start), cond)));
            map.push(RegCounter {
                name: format!("L{}_{}", probe.lp, kind.name()),
                lp: probe.lp,
                kind,
                offset: COUNTERS_BASE + 4 * regs.len() as u32,
            });
            regs.push(r);
        }
    }
    let out = m.output("counters", 32 * regs.len() as u32);
    // The first counter in the low word.
    m.assign(
        out,
        Expr::Concat(regs.iter().rev().map(|r| Expr::Net(*r)).collect()),
    );
    map
}
