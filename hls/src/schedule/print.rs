//! The schedule side table as text, one line per op in block order (`%B.I` names the op
//! as the printed IR does), for golden files and review.

use std::fmt::Write as _;

use super::{classify, KernelSchedule};
use crate::ir::Kernel;

/// Every block of `k` with its length and each op's start cycle and operator class.
pub fn print(k: &Kernel, s: &KernelSchedule) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "kernel {} on {}", k.name, s.library);
    for (bi, blk) in k.blocks.iter().enumerate() {
        let Some(sched) = s.schedules.get(bi) else {
            let _ = writeln!(out, "b{bi}: no schedule");
            continue;
        };
        let _ = writeln!(out, "b{bi}: {} cycles", sched.length);
        for (i, o) in blk.order.iter().enumerate() {
            let c = sched
                .cycle
                .get(o)
                .map_or("-".to_string(), |c| c.to_string());
            let _ = writeln!(out, "  %{bi}.{i:<4} cycle {c:>4}  {}", classify(*o, blk));
        }
    }
    out
}
