//! The opt stage's section: what the e-graph rewrites bought in the board's prices, with
//! which weight of latency, and the largest rewrites at their source lines.

use std::fmt::Write as _;

use super::escape;
use crate::diag::SourceMap;
use crate::opt::OptReport;

/// Rewrites listed in the page; `--explain-rewrites` prints them all.
const SHOWN: usize = 12;

/// Characters of an expression shown in the table.
const CLIP: usize = 160;

fn clip(e: &str) -> String {
    match e.char_indices().nth(CLIP) {
        Some((i, _)) => format!("{} …", &e[..i]),
        None => e.to_string(),
    }
}

pub(super) fn section(p: &mut String, r: &OptReport, sm: &SourceMap) {
    p.push_str("<h3>Datapath rewrites</h3>\n");
    if r.disabled {
        p.push_str("<p>The opt stage was turned off (<code>--no-opt</code>).</p>\n");
        return;
    }
    let _ = writeln!(
        p,
        "<p>{} of {} blocks rewritten by equality saturation; priced by the board's operator \
         library: logic {} → {}, registers {} → {}, DSP blocks {} → {}. A \
         cycle on a block's critical path was priced as {} logic units \
         (<code>--latency-weight</code>). Before the e-graphs, {} value{} forwarded and {} \
         dead op{} removed{}{}.</p>",
        r.replaced,
        r.regions,
        r.before.logic,
        r.after.logic,
        r.before.registers,
        r.after.registers,
        r.before.dsps,
        r.after.dsps,
        r.latency_weight,
        r.forwarded,
        if r.forwarded == 1 { " was" } else { "s were" },
        r.removed,
        if r.removed == 1 { "" } else { "s" },
        if r.reciprocals > 0 {
            format!(
                "; {} division{} by a constant made multiplies by the reciprocal",
                r.reciprocals,
                if r.reciprocals == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        },
        if r.readdressed > 0 {
            format!(
                "; {} access{} waiting for a load's data given {} own copy of a shared \
                 address, so that fewer bits ride the pipeline",
                r.readdressed,
                if r.readdressed == 1 { "" } else { "es" },
                if r.readdressed == 1 { "its" } else { "their" }
            )
        } else {
            String::new()
        }
    );
    if r.rewrites.is_empty() {
        return;
    }
    let mut shown: Vec<&crate::opt::explain::Rewrite> = r.rewrites.iter().collect();
    // The largest savings first; equal ones in source order, so the page is stable.
    shown.sort_by(|a, b| {
        let (sa, sb) = (a.cost_before - a.cost_after, b.cost_before - b.cost_after);
        sb.total_cmp(&sa)
            .then((a.span.file, a.span.lo).cmp(&(b.span.file, b.span.lo)))
    });
    let _ = writeln!(
        p,
        "<table>\n<tr><th>At</th><th>Before</th><th>After</th><th>Saves (est.)</th></tr>"
    );
    for w in shown.iter().take(SHOWN) {
        let at = crate::rtl::netlist::SrcLoc::of_span(sm, w.span);
        let _ = writeln!(
            p,
            "<tr><td><code>{}</code></td><td><code>{}</code></td><td><code>{}</code></td>\
             <td class=\"n\">{:.0}</td></tr>",
            escape(&at.to_string()),
            escape(&clip(&w.before)),
            escape(&clip(&w.after)),
            w.cost_before - w.cost_after
        );
    }
    p.push_str("</table>\n");
    if r.rewrites.len() > SHOWN {
        let _ = writeln!(
            p,
            "<p class=\"sub\">{} more; <code>ocl-hls build --explain-rewrites</code> lists \
             every one.</p>",
            r.rewrites.len() - SHOWN
        );
    }
}
