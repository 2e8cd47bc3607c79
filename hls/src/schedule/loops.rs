//! Per pipelinable loop of the group form (innermost loops and work-item loops, the
//! `switch` pseudo-loops left out) a modulo schedule with its II, checked by the
//! independent modulo checker: the side table the pipelined controller will emit.
//! Until it does, the reports show each loop's scheduled II next to today's FSM.

use std::collections::BTreeMap;

use crate::analysis::loops::shapes;
use crate::analysis::mii::{Iteration, MemDeps};
use crate::board::OpLibrary;
use crate::diag::SourceMap;
use crate::ir::{BlockId, Kernel, LoopId, LoopKind, OpId};

use super::modulo::{modulo_schedule, ModuloSchedule};
use super::modulo_check::check_modulo;

/// The modulo schedule of every loop that has one, and why the others have none.
#[derive(Clone, Debug, Default)]
pub struct LoopSchedules {
    pub loops: BTreeMap<LoopId, ModuloSchedule<(BlockId, OpId)>>,
    /// Loops not modulo-scheduled, with the reason (inner loops, a `switch`).
    pub not_pipelined: BTreeMap<LoopId, String>,
}

impl LoopSchedules {
    pub fn ii(&self, l: LoopId) -> Option<u32> {
        self.loops.get(&l).map(|s| s.ii)
    }
}

/// Modulo-schedules every innermost loop of group-form kernel `k` on `lib`; a schedule
/// the checker rejects is an error (a scheduler bug), so callers never see one.
pub fn schedule_loops(
    k: &Kernel,
    sm: &SourceMap,
    lib: &OpLibrary,
) -> Result<LoopSchedules, String> {
    let mut out = LoopSchedules::default();
    for s in shapes(k) {
        if k.lp(s.id).kind == LoopKind::Once {
            out.not_pipelined
                .insert(s.id, "runs once (a switch)".into());
            continue;
        }
        if !s.inner.is_empty() {
            out.not_pipelined.insert(
                s.id,
                "holds a loop: its iterations run one after another".into(),
            );
            continue;
        }
        let it = Iteration::new(k, sm, &s, lib, &lib.limits);
        let g = it.graph(&MemDeps::of_loop(k, &s));
        let sched = modulo_schedule(&g, lib.period_ns, &lib.limits)
            .map_err(|e| format!("kernel `{}` loop L{}: {}", k.name, s.id.0, e.message))?;
        if let Some(v) = check_modulo(&g, lib.period_ns, &lib.limits, &sched).first() {
            return Err(format!(
                "kernel `{}` loop L{}: the modulo schedule breaks a rule: {v}",
                k.name, s.id.0
            ));
        }
        out.loops.insert(s.id, sched);
    }
    Ok(out)
}

/// The loop schedules as text for golden files: per loop its II, depth and stages, then
/// each op's cycle (`%B.I` as the printed IR names ops).
pub fn print(k: &Kernel, s: &LoopSchedules) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for (l, why) in &s.not_pipelined {
        let _ = writeln!(out, "L{}: not pipelined: {why}", l.0);
    }
    for (l, m) in &s.loops {
        let _ = writeln!(
            out,
            "L{}: II {} (minimum {}), depth {}, {} stages",
            l.0, m.ii, m.mii, m.depth, m.stages
        );
        let mut ops: Vec<(u32, usize, u32)> = m
            .cycle
            .iter()
            .map(|((b, o), c)| {
                let i = k.block(*b).order.iter().position(|x| x == o).unwrap_or(0);
                (b.0, i, *c)
            })
            .collect();
        ops.sort();
        for (b, i, c) in ops {
            let _ = writeln!(out, "  %{b}.{i:<4} cycle {c:>4}");
        }
    }
    out
}
