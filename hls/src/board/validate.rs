//! Checks on a parsed board that serde cannot express: names, a device with its
//! resources, sane clocks and memory, and operator tiers the scheduler can rely on
//! (every class covers every width; combinational units fit in the clock period).

use super::load::{locate, BoardError};
use super::opclass::OpClass;
use super::oplib::Tier;
use super::types::Board;

/// Every problem found, in file order where possible; empty when the board is usable.
pub fn validate(b: &Board, text: &str) -> Vec<BoardError> {
    let mut errs = Vec::new();
    let mut err = |key: &str, msg: String| {
        errs.push(BoardError::new(&b.path, locate(text, key), msg));
    };
    let stem = b.path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if !stem.is_empty() && stem != b.name {
        err(
            "name",
            format!(
                "board `{}` must be in a file named `{}.yaml`",
                b.name, b.name
            ),
        );
    }
    for n in std::iter::once(&b.name).chain(&b.aliases) {
        if !valid_name(n) {
            err(
                "name",
                format!("`{n}` is not a board name (lowercase letters, digits, `-`)"),
            );
        }
    }
    match (&b.device, &b.resources) {
        (Some(_), None) => err("device", "a board with a device needs `resources`".into()),
        (None, Some(_)) => err("resources", "`resources` without a `device`".into()),
        _ => {}
    }
    if !(b.kernel_clock_mhz.is_finite() && b.kernel_clock_mhz > 0.0) {
        err(
            "kernel_clock_mhz",
            "`kernel_clock_mhz` must be a positive number".into(),
        );
    }
    for c in &b.clocks {
        if !(c.mhz.is_finite() && c.mhz > 0.0) {
            err("mhz", format!("clock `{}`: `mhz` must be positive", c.name));
        }
    }
    let m = &b.memory;
    if !(m.data_width.is_power_of_two() && (32..=256).contains(&m.data_width)) {
        err(
            "data_width",
            "`data_width` must be a power of two from 32 to 256 (the AXI units' range)".into(),
        );
    }
    if !(1..=256).contains(&m.burst_beats) {
        err(
            "burst_beats",
            "`burst_beats` must be 1 to 256 (AXI4 INCR bursts)".into(),
        );
    }
    let ops = &b.operators;
    if ops.limits.read_ports == 0 || ops.limits.write_ports == 0 {
        err(
            "limits",
            "`read_ports` and `write_ports` must be at least 1".into(),
        );
    }
    for (c, n) in &ops.limits.units {
        if *n == 0 || !OpClass::LIBRARY.contains(c) {
            err(
                "units",
                format!("`units: {c}` must name a library class and be at least 1"),
            );
        }
    }
    let period = b.period_ns();
    for c in OpClass::LIBRARY {
        for msg in check_tiers(ops.tiers(c), period) {
            err(c.name(), format!("operator `{c}`: {msg}"));
        }
    }
    for c in [OpClass::GlobalLoad, OpClass::GlobalAtomic] {
        if let Some(t) = ops.tiers(c).iter().find(|t| t.latency < m.latency_cycles) {
            err(
                c.name(),
                format!(
                    "operator `{c}`: latency {} is below the memory's latency_cycles {}",
                    t.latency, m.latency_cycles
                ),
            );
        }
    }
    errs
}

fn valid_name(n: &str) -> bool {
    !n.is_empty()
        && n.bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
}

/// Problems with one class's tiers.
fn check_tiers(tiers: &[Tier], period_ns: f64) -> Vec<String> {
    let mut out = Vec::new();
    let Some(last) = tiers.last() else {
        return vec!["needs at least one tier".into()];
    };
    if last.max_width.is_some() {
        out.push("the last tier must have no `max_width` (it covers every wider op)".into());
    }
    let widths: Vec<u32> = tiers.iter().filter_map(|t| t.max_width).collect();
    if widths.len() + 1 < tiers.len() {
        out.push("only the last tier may omit `max_width`".into());
    }
    if widths.windows(2).any(|w| w[0] >= w[1]) {
        out.push("`max_width` must increase from tier to tier".into());
    }
    for t in tiers {
        if t.ii == 0 {
            out.push("`ii` must be at least 1".into());
        }
        if !(t.delay_ns.is_finite() && t.delay_ns >= 0.0) {
            out.push("`delay_ns` must be a non-negative number".into());
        } else if t.delay_ns > period_ns {
            out.push(format!(
                "`delay_ns` {} exceeds the kernel clock period {:.2} ns",
                t.delay_ns, period_ns
            ));
        }
    }
    out
}
