//! The build report: `report.json` (see [`json`]) and the short summary `ocl-hls build`
//! prints from it.

pub mod html;
pub mod json;
pub mod svg;

use std::fmt::Write as _;

pub use json::{BoardReport, BuildReport, Bus, KernelReport, Tool};

/// A few lines per kernel for a person: where the core is, its interface size, and how
/// big the schedule came out when the generator reports it.
pub fn summary(r: &BuildReport, out: &std::path::Path) -> String {
    let mut s = String::new();
    let n = r.kernels.len();
    let _ = writeln!(
        s,
        "built {n} kernel{} from {} for {} ({} MHz kernel clock, {}-bit data bus)",
        if n == 1 { "" } else { "s" },
        r.source,
        r.board.name,
        r.board.kernel_clock_mhz,
        r.bus.data_width
    );
    for k in &r.kernels {
        let masters = k
            .register_map
            .args
            .iter()
            .filter(|a| matches!(a.kind, crate::rtl::regmap::RegArgKind::Buffer { .. }))
            .count();
        let _ = writeln!(
            s,
            "  {} ({}): top {}, {} argument words, {} AXI master{}, {} template{}{}",
            k.name,
            k.location,
            k.top,
            k.register_map.arg_words(),
            masters,
            if masters == 1 { "" } else { "s" },
            k.templates.len(),
            if k.templates.len() == 1 { "" } else { "s" },
            schedule_note(&k.schedule)
        );
        if let Some(l) = &k.lanes {
            let _ = writeln!(
                s,
                "    lanes: {} work-item{} per cycle, {}",
                l.n,
                if l.n == 1 { "" } else { "s" },
                l.why
            );
        }
        if let Some(t) = &k.loop_transforms {
            s.push_str(&transforms(t));
        }
        if !k.reassociated.is_empty() {
            let sums: Vec<String> = k
                .reassociated
                .iter()
                .map(|r| {
                    let at = r.location.rsplit('/').next().unwrap_or(&r.location);
                    format!("`{}` at {at} into {} partial sums", r.var, r.partials)
                })
                .collect();
            let _ = writeln!(
                s,
                "    float sums reassociated (the build options allow it): {}",
                sums.join(", ")
            );
        }
        if !k.contracted.is_empty() {
            let at: Vec<&str> = k
                .contracted
                .iter()
                .map(|l| l.rsplit('/').next().unwrap_or(l))
                .collect();
            let _ = writeln!(
                s,
                "    multiply-adds on loop recurrences fused into fma (the build options allow \
                 it): at {}",
                at.join(", ")
            );
        }
        for l in &k.loop_analysis {
            let _ = writeln!(s, "    {}", loop_line(l));
        }
        for m in &k.memories {
            let _ = writeln!(s, "    {}", memory_line(m));
        }
        if let Some(line) = units_line(&k.units) {
            let _ = writeln!(s, "    {line}");
        }
    }
    s.push_str(&crate::estimate::summary::text(&r.estimates));
    let _ = writeln!(s, "wrote {}", out.display());
    s
}

/// The `loops` stage's decisions: one line per unrolled (or not unrolled) source loop,
/// one for the arrays now in registers, the tables folded and the loads split.
fn transforms(t: &crate::loops::LoopsReport) -> String {
    let mut s = String::new();
    for d in &t.unrolled {
        let file = d.location.rsplit('/').next().unwrap_or(&d.location);
        let _ = writeln!(
            s,
            "    unroll at {file}: asked {}, applied {} ({}){}",
            d.asked,
            d.applied,
            d.how,
            d.reason
                .as_ref()
                .map(|r| format!(": {r}"))
                .unwrap_or_default()
        );
    }
    if !t.registers.is_empty() {
        let names: Vec<String> = t
            .registers
            .iter()
            .map(|r| format!("{} ({} x {})", r.name, r.registers, r.types))
            .collect();
        let _ = writeln!(s, "    in registers: {}", names.join(", "));
    }
    if !t.folded_tables.is_empty() {
        let names: Vec<String> = t
            .folded_tables
            .iter()
            .map(|r| format!("{} ({} loads)", r.name, r.loads_folded))
            .collect();
        let _ = writeln!(s, "    constant tables folded: {}", names.join(", "));
    }
    if t.split_loads > 0 {
        let _ = writeln!(
            s,
            "    under-aligned loads split into aligned pieces: {} (each narrower than its \
             buffer's memory unit, which answers whole aligned elements)",
            t.split_loads
        );
    }
    s
}

/// One loop: pipelined at which II (and the minimum), or why it keeps the FSM.
fn loop_line(l: &crate::analysis::LoopReport) -> String {
    let head = match l.unroll_applied {
        Some(a) if a > 1 => format!("L{} {} at {} (unrolled x{a})", l.id, l.name, l.location),
        _ => format!("L{} {} at {}", l.id, l.name, l.location),
    };
    match (l.pipelined, l.scheduled_ii) {
        (true, Some(ii)) => format!(
            "{head}: pipelined, II {ii} (minimum {}{}), depth {}{}{}{}{}{}",
            l.min_ii.map(|x| x.to_string()).unwrap_or("?".into()),
            l.ii_raised
                .as_deref()
                .and_then(|r| r.split_once(": "))
                .map(|(_, why)| format!("; {why}"))
                .unwrap_or_default(),
            l.pipeline_depth.map_or(l.depth, u64::from),
            if l.cross_group {
                ", across work-groups"
            } else {
                ""
            },
            if l.overlap_checks.is_empty() {
                String::new()
            } else {
                format!(
                    "; runs in order when {} overlap (checked at entry)",
                    l.overlap_checks.join(", ")
                )
            },
            if l.wide_accesses.is_empty() {
                String::new()
            } else {
                format!("; wide: {}", l.wide_accesses.join("; "))
            },
            global_accesses(&l.memory_accesses),
            l.lanes_fit
                .as_deref()
                .map(|x| format!("; bandwidth to spare: {x}"))
                .unwrap_or_default()
        ),
        _ => format!(
            "{head}: not pipelined: {}",
            l.not_pipelined.as_deref().unwrap_or("no modulo schedule")
        ),
    }
}

/// How the loop's buffer accesses are served: "; global: 2 streaming loads, 1 scattered
/// store, 1 ordered load" (nothing without buffer accesses; an ordered load waits for the
/// stores of earlier iterations it may read).
fn global_accesses(a: &[crate::analysis::accesses::AccessReport]) -> String {
    let mut kinds: Vec<(&str, &str, usize)> = Vec::new();
    for x in a
        .iter()
        .filter(|x| x.unit == "load unit" || x.unit == "store unit")
    {
        let how = match (x.streams, x.how.starts_with("ordered:")) {
            (_, true) => "ordered",
            (true, false) => "streaming",
            (false, false) => "scattered",
        };
        match kinds.iter_mut().find(|k| k.0 == how && k.1 == x.op) {
            Some(k) => k.2 += 1,
            None => kinds.push((how, x.op, 1)),
        }
    }
    if kinds.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = kinds
        .iter()
        .map(|(how, op, n)| format!("{n} {how} {op}{}", if *n == 1 { "" } else { "s" }))
        .collect();
    format!("; global: {}", parts.join(", "))
}

/// The multi-cycle units by class and how many ops share them: "units: 4 fp_add,
/// 2 fp_mul for 9 ops".
fn units_line(units: &[crate::bind::UnitReport]) -> Option<String> {
    if units.is_empty() {
        return None;
    }
    let mut by: std::collections::BTreeMap<&str, usize> = Default::default();
    for u in units {
        *by.entry(u.class.name()).or_default() += 1;
    }
    let ops: usize = units.iter().map(|u| u.ops.len()).sum();
    let parts: Vec<String> = by.iter().map(|(c, n)| format!("{n} {c}")).collect();
    let sharing = if ops == units.len() {
        ", one per op".to_string()
    } else {
        format!(" for {ops} ops")
    };
    Some(format!(
        "units: {}{sharing} (report.json `units` lists each with its ops)",
        parts.join(", "),
    ))
}

/// One on-chip memory: its RAM, M10K estimate, and the loops its ports slow down.
fn memory_line(m: &crate::analysis::MemoryReport) -> String {
    let plural = |n: u64, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    let at = m
        .location
        .as_ref()
        .map(|l| format!(" at {l}"))
        .unwrap_or_default();
    let conflicts = if m.conflicts.is_empty() {
        "no port conflict".to_string()
    } else {
        let each: Vec<String> = m
            .conflicts
            .iter()
            .map(|c| {
                let what = if c.port == "read" { "load" } else { "store" };
                format!(
                    "conflict in L{} {} at {}: {} at {} on {}: II {} ({} without)",
                    c.loop_id,
                    c.loop_name,
                    c.loop_location,
                    plural(c.count as u64, what),
                    c.accesses.join(", "),
                    plural(c.ports as u64, &format!("{} port", c.port)),
                    c.ii,
                    c.ii_without
                )
            })
            .collect();
        each.join("; ")
    };
    let asked = m
        .bankwidth_not_built
        .map(|w| format!(" (bankwidth({w}) asked; an access narrower than that splits it)"))
        .unwrap_or_default();
    format!(
        "memory {} ({}{at}): {} x {}-byte words{asked}, {} ({} read + {} write port{}), {} \
         bits, {} M10K ({}); {conflicts}",
        m.name,
        m.space,
        m.depth,
        m.word_bytes,
        if m.banks > 1 {
            format!("{} {} banks", m.banks, m.mapping)
        } else {
            plural(m.replicas as u64, "replica")
        },
        m.read_ports,
        m.write_ports,
        if m.write_ports == 1 { "" } else { "s" },
        m.bits * m.replicas as u64,
        m.m10k.total,
        m.m10k.shape
    )
}

/// ", N FSM states" when the generator's report says so; nothing otherwise (its shape
/// belongs to the generator, so only well-known keys are read).
fn schedule_note(v: &serde_json::Value) -> String {
    for key in ["fsm_states", "states"] {
        if let Some(n) = v.get(key).and_then(serde_json::Value::as_u64) {
            return format!(", {n} FSM states");
        }
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_note_reads_only_known_keys() {
        assert_eq!(
            schedule_note(&serde_json::json!({"states": 40})),
            ", 40 FSM states"
        );
        assert_eq!(schedule_note(&serde_json::json!({"datapath": "stub"})), "");
        assert_eq!(schedule_note(&serde_json::json!({"states": "many"})), "");
    }
}
