//! The loop table: the loop analysis (trip count, hints, minimum II and why, depth, what
//! today's state machine spends) or, without it, the source's loop hints.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::escape;
use crate::analysis::LoopReport;
use crate::diag::SourceMap;
use crate::ir::Kernel;
use crate::report::json::KernelReport;

/// The loop table of one kernel: the build's loop analysis when it ran, else the
/// source's hints. Returns the analysis (empty without one) for the graph's labels.
pub(super) fn section(
    p: &mut String,
    kr: &KernelReport,
    ir: Option<&Kernel>,
    sm: &SourceMap,
) -> Vec<LoopReport> {
    if let Some(l) = &kr.lanes {
        let _ = writeln!(
            p,
            "<p>Lanes: {} work-item{} per cycle, {}.</p>",
            l.n,
            if l.n == 1 { "" } else { "s" },
            escape(&l.why)
        );
    }
    if let Some(t) = &kr.loop_transforms {
        transforms(p, t);
    }
    for r in &kr.reassociated {
        let _ = writeln!(
            p,
            "<p>Float sum <code>{}</code> ({}) is split into {} partial sums added up after \
             its loop (the build options allow reassociation).</p>",
            escape(&r.var),
            escape(&r.location),
            r.partials
        );
    }
    for at in &kr.contracted {
        let _ = writeln!(
            p,
            "<p>The multiply-add at {} is on its loop's recurrence and fused into an fma \
             (the build options allow it).</p>",
            escape(at)
        );
    }
    if kr.loop_analysis.is_empty() {
        hints(p, kr, ir, sm);
        Vec::new()
    } else {
        loop_analysis(p, &kr.loop_analysis, ir, sm);
        kr.loop_analysis.clone()
    }
}

/// What the `loops` stage did: per source loop the unroll factor asked for and applied,
/// and the private arrays now in registers (or kept in memory, with why).
fn transforms(p: &mut String, t: &crate::loops::LoopsReport) {
    if !t.unrolled.is_empty() {
        p.push_str(
            "<h3>Unrolling</h3>\n<table>\n<tr><th>Loop</th><th>Asked</th><th>Applied</th>\
             <th>How</th><th>Why</th><th>Ops before / after</th></tr>\n",
        );
        for d in &t.unrolled {
            let _ = writeln!(
                p,
                "<tr><td><code>{}</code></td><td>{}</td><td class=\"n\">{}</td><td>{}</td>\
                 <td>{}</td><td class=\"n\">{} / {}</td></tr>",
                escape(&d.location),
                escape(&d.asked),
                d.applied,
                escape(&d.how),
                escape(d.reason.as_deref().unwrap_or("—")),
                d.ops_before,
                d.ops_after
            );
        }
        p.push_str("</table>\n");
    }
    for r in &t.registers {
        let _ = writeln!(
            p,
            "<p>Private array <code>{}</code> ({}, {} bytes) is in registers: {} of {}.</p>",
            escape(&r.name),
            escape(&r.location),
            r.bytes,
            r.registers,
            escape(&r.types)
        );
    }
    for r in &t.kept_in_memory {
        let _ = writeln!(
            p,
            "<p>Private array <code>{}</code> ({}) stays in memory: {}.</p>",
            escape(&r.name),
            escape(&r.location),
            escape(&r.reason)
        );
    }
}

/// Per source line of a loop, the minimum II to print on the loop's frame in the graph
/// (work-item loops have no line of their own).
pub(super) fn graph_notes(loops: &[LoopReport]) -> BTreeMap<u32, String> {
    let mut notes = BTreeMap::new();
    for l in loops.iter().filter(|l| l.work_item_dim.is_none()) {
        if let Some(ii) = l.min_ii {
            notes
                .entry(l.line)
                .or_insert_with(|| format!("min II {ii}"));
        }
    }
    notes
}

/// The source's loops with their hints (unroll, ivdep, pipeline).
fn hints(p: &mut String, kr: &KernelReport, ir: Option<&Kernel>, sm: &SourceMap) {
    p.push_str("<h3>Loops</h3>\n");
    if kr.loops.is_empty() {
        p.push_str("<p>No loops in the source.</p>\n");
        return;
    }
    p.push_str(
        "<table>\n<tr><th>#</th><th>Loop</th><th>Source</th><th>Unroll</th><th>ivdep</th><th>Pipeline hint</th></tr>\n",
    );
    for (i, l) in kr.loops.iter().enumerate() {
        let unroll = match &l.unroll {
            None => "—".to_string(),
            Some(u) => match u.factor {
                Some(n) => format!("{n}"),
                None => "full".into(),
            },
        };
        let ivdep = match &l.ivdep {
            None => "—".to_string(),
            Some(d) => match d.safelen {
                Some(n) => format!("safelen {n}"),
                None => "yes".into(),
            },
        };
        let _ = writeln!(
            p,
            "<tr><td class=\"n\">{i}</td><td>{}</td><td><code>{}</code><br/><code class=\"src\">{}</code></td>\
             <td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&l.kind),
            escape(&l.location),
            escape(&source_line(sm, ir, &l.location, l.line)),
            escape(&unroll),
            escape(&ivdep),
            if l.pipeline { "yes" } else { "—" }
        );
    }
    p.push_str("</table>\n");
    p.push_str(
        "<p class=\"note\">Every loop is built as a state machine (no overlapping iterations); \
         initiation intervals are not analysed in this build.</p>\n",
    );
}

/// The loop analysis: per loop (work-item loops of the group form included) its source
/// line, trip count, hints, the minimum II a pipelined build could reach and why, its
/// depth, and what today's state machine spends per iteration.
fn loop_analysis(p: &mut String, loops: &[LoopReport], ir: Option<&Kernel>, sm: &SourceMap) {
    p.push_str("<h3>Loops</h3>\n");
    if loops.is_empty() {
        p.push_str("<p>No loops.</p>\n");
        return;
    }
    p.push_str(
        "<table>\n<tr><th>Loop</th><th>Source</th><th>Trips</th><th>Unroll</th><th>ivdep</th>\
         <th>Min II</th><th>Why</th><th>Depth</th><th>Built</th><th>Memory accesses</th></tr>\n",
    );
    for l in loops {
        let ii = match (l.min_ii, l.res_mii, l.rec_mii) {
            (Some(ii), Some(res), Some(rec)) => format!("{ii} (res {res}, rec {rec})"),
            (Some(ii), _, _) => ii.to_string(),
            (None, _, _) => "—".into(),
        };
        let opt = |v: &Option<String>| v.clone().unwrap_or_else(|| "—".into());
        let _ = writeln!(
            p,
            "<tr><td style=\"padding-left:{}em\">{}</td><td><code>{}</code><br/>\
             <code class=\"src\">{}</code></td><td class=\"n\">{}</td><td>{}</td><td>{}</td>\
             <td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>",
            0.5 + f64::from(l.level),
            escape(&l.name),
            escape(&l.location),
            escape(&source_line(sm, ir, &l.location, l.line)),
            l.trip_count
                .map(|t| t.to_string())
                .unwrap_or_else(|| "?".into()),
            escape(&match (&l.unroll, l.unroll_applied) {
                (Some(u), Some(a)) => format!("{u} (applied {a})"),
                (u, _) => opt(u),
            }),
            escape(&opt(&l.ivdep)),
            escape(&ii),
            escape(&match &l.ii_raised {
                Some(r) => format!("{}; runs at {r}", l.ii_reason),
                None => l.ii_reason.clone(),
            }),
            l.depth,
            escape(&built(l)),
            l.memory_accesses
                .iter()
                .map(|a| escape(&a.to_string()))
                .collect::<Vec<_>>()
                .join("<br/>")
        );
    }
    p.push_str("</table>\n");
    p.push_str(
        "<p class=\"note\">Min II is what a pipelined implementation could reach (the larger \
         of the resource and recurrence bounds); Built is what the core does: a pipeline at its \
         II and depth, or a state machine without overlapping iterations (its cycles per \
         iteration and why it is not pipelined). Memory accesses lists, for a pipelined loop, \
         the unit serving each access and whether it streams; `run --engine sim` measures each \
         pipeline's II with the core's counters (run.json). Unroll shows the hint and the copies of the body each iteration of the loop runs \
         (the loops stage's main and remainder loops share the source line; fully unrolled \
         loops are gone).</p>\n",
    );
}

/// What the core runs the loop as.
fn built(l: &LoopReport) -> String {
    match (l.pipelined, l.scheduled_ii) {
        (true, Some(ii)) => format!(
            "pipelined, II {ii}, depth {}{}{}",
            l.pipeline_depth.map_or(l.depth, u64::from),
            if l.cross_group {
                ", across work-groups"
            } else {
                ""
            },
            l.register_bits
                .map(|b| format!(", {} register bits", b.placed))
                .unwrap_or_default()
        ),
        _ => format!(
            "state machine, {} cycles/iteration ({} states): {}",
            l.fsm_cycles_per_iteration,
            l.fsm_states,
            l.not_pipelined.as_deref().unwrap_or("no modulo schedule")
        ),
    }
}

/// The text of line `line` of the file `location` (`file:line:col`) names, looked up
/// among the compiled files; empty when it is not one of them.
fn source_line(sm: &SourceMap, ir: Option<&Kernel>, location: &str, line: u32) -> String {
    let file = location
        .rsplitn(3, ':')
        .nth(2)
        .unwrap_or(location)
        .to_string();
    let by_name = sm.files().find(|(_, f)| f.name == file);
    let by_kernel = ir.and_then(|k| sm.files().find(|(id, _)| *id == sm.use_site(k.span).file));
    match by_name.or(by_kernel) {
        Some((_, f)) => f.line_text(line).trim().to_string(),
        None => String::new(),
    }
}
