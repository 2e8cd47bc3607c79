//! The pipelined loops as Verilator measured them: the core's performance counters (read
//! after DONE) next to what the build reported for each loop, for `run.json` and the
//! cycles benchmark.

use serde::Serialize;

use crate::analysis::LoopReport;
use crate::rtl::regmap::{CounterKind, RegCounter};

/// One pipelined loop over a whole run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeasuredLoop {
    #[serde(rename = "loop")]
    pub lp: u32,
    pub name: String,
    pub location: String,
    /// The II the loop was built at.
    pub ii: u32,
    /// Copies of the source body per iteration, when the loop is an unrolling's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unroll: Option<u64>,
    /// Cycles its first stage spent per iteration it took in, stalls excluded: the II
    /// the controller ran at (must equal `ii`).
    pub unstalled_ii: f64,
    /// The same with stalls included: the II the hardware achieved (equal to `ii` when
    /// memory kept up).
    pub achieved_ii: f64,
    /// Cycles its controller ran (every entry: fill, drain and stalls included).
    pub cycles: u64,
    /// Of those, the cycles it stood stalled.
    pub stall_cycles: u64,
    /// Iterations that passed the exit test (summed over entries and work-groups).
    pub iterations: u64,
    /// Iterations taken in, the exit test's last one of each entry or group included.
    pub admitted: u64,
    /// `cycles / iterations`.
    pub cycles_per_iteration: f64,
}

/// Pairs the counter values (by register name, as the harness read them) with the loops
/// they count.
pub fn measure(
    counters: &[(String, u32)],
    map: &[RegCounter],
    loops: &[LoopReport],
) -> Vec<MeasuredLoop> {
    let value = |lp: u32, kind: CounterKind| -> u64 {
        map.iter()
            .find(|c| c.lp == lp && c.kind == kind)
            .and_then(|c| counters.iter().find(|(n, _)| *n == c.name))
            .map_or(0, |(_, v)| u64::from(*v))
    };
    let mut ids: Vec<u32> = map.iter().map(|c| c.lp).collect();
    ids.dedup();
    ids.into_iter()
        .map(|lp| {
            let report = loops.iter().find(|l| l.id == lp);
            let iterations = value(lp, CounterKind::Iterations);
            let admitted = value(lp, CounterKind::Admitted);
            let cycles = value(lp, CounterKind::Cycles);
            let issue = value(lp, CounterKind::Issue);
            let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
            MeasuredLoop {
                lp,
                name: report.map_or_else(|| format!("L{lp}"), |l| l.name.clone()),
                location: report.map_or_else(String::new, |l| l.location.clone()),
                ii: report.and_then(|l| l.scheduled_ii).unwrap_or(0),
                unroll: report.and_then(|l| l.unroll_applied),
                unstalled_ii: ratio(
                    issue.saturating_sub(value(lp, CounterKind::IssueStall)),
                    admitted,
                ),
                achieved_ii: ratio(issue, admitted),
                cycles,
                stall_cycles: value(lp, CounterKind::Stall),
                iterations,
                admitted,
                cycles_per_iteration: ratio(cycles, iterations),
            }
        })
        .collect()
}
