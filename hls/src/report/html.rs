//! `report.html`: the build report as one self-contained page (inline CSS and SVG, no
//! script, no links out, no timestamps, so equal builds give equal bytes): the board and
//! command, then per kernel its register map, loops, memories, resources and dataflow
//! graph.

use std::fmt::Write as _;

use super::json::{BuildReport, KernelReport};
use super::svg;
use crate::compile::Compiled;
use crate::diag::SourceMap;
use crate::ir::Kernel;
use crate::rtl::regmap::{RegArgKind, RegisterMap};

mod loops;
mod memory;
mod opt;
mod regmap;
mod resources;

/// Text made safe for HTML and XML element content and quoted attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML; a source path could hold one.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The page's whole look: inline, so the file opens the same anywhere, offline.
const STYLE: &str = "\
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 78em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; margin-top: 2em; }
h3 { font-size: 1.05em; margin: 1.4em 0 0.4em; }
code { font-family: ui-monospace, monospace; font-size: 0.92em; }
code.src { color: #555; white-space: pre-wrap; }
table { border-collapse: collapse; margin: 0.3em 0 0.8em; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
table.kv th { width: 9em; }
.sub, .note { color: #555; } .note { font-style: italic; }
.bar { width: 22em; height: 0.9em; background: #eee; border: 1px solid #ccc; display: inline-block; vertical-align: middle; }
.bar > span { display: block; height: 100%; background: #4a90d9; } .bar > span.over { background: #d9534f; }
.graph { overflow: auto; border: 1px solid #ddd; background: #fcfcfc; max-height: 90vh; }
svg.dfg text { font: 11px ui-monospace, monospace; text-anchor: middle; }
svg.dfg text.cap, svg.dfg text.bcap { text-anchor: start; fill: #555; }
svg.dfg .op rect { stroke: #666; stroke-width: 1; }
svg.dfg .op.k rect { fill: #eeeeee; } svg.dfg .op.a rect { fill: #e3d7f5; }
svg.dfg .op.v rect { fill: #d8f0d8; } svg.dfg .op.m rect { fill: #fbd9b0; }
svg.dfg .op.s rect { fill: #f5b7b7; } svg.dfg .op.f rect { fill: #cfe3f7; }
svg.dfg .op.x rect { fill: #ffffff; }
svg.dfg .floop > rect { fill: #f4f8ff; stroke: #7a9cc6; }
svg.dfg .fif > rect { fill: #fffaf0; stroke: #c6a67a; }
svg.dfg .arm > rect { fill: none; stroke: #bbb; stroke-dasharray: 3 2; }
svg.dfg .ctl rect, svg.dfg .blk rect { fill: #fff; stroke: #888; }
svg.dfg polyline { fill: none; stroke: #777; stroke-width: 1; }
svg.dfg polyline.eo { stroke: #c77; stroke-dasharray: 4 3; }
svg.dfg .ah { fill: #777; }
.legend span { border: 1px solid #666; border-radius: 3px; padding: 0 5px; font-size: 0.85em; }
.legend .k { background: #eeeeee; } .legend .a { background: #e3d7f5; } .legend .v { background: #d8f0d8; }
.legend .m { background: #fbd9b0; } .legend .s { background: #f5b7b7; } .legend .f { background: #cfe3f7; }
.legend .x { background: #ffffff; }
footer { margin-top: 3em; color: #888; font-size: 0.85em; }
";

/// The page for `r`; `kernels` are the lowered kernels the report's kernels were built
/// from with what the pipeline made of them (matched by name; a kernel without one gets
/// no graph or memory table).
pub fn render(r: &BuildReport, kernels: &[(&Kernel, &Compiled)], sm: &SourceMap) -> String {
    let mut p = String::new();
    let title = format!("ocl-hls report: {}", r.source);
    let _ = write!(
        p,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n",
        escape(&title)
    );
    let _ = writeln!(p, "<h1>{}</h1>", escape(&title));
    overview(&mut p, r);
    for (i, kr) in r.kernels.iter().enumerate() {
        let ir = kernels.iter().copied().find(|k| k.0.name == kr.name);
        kernel(&mut p, r, kr, ir, sm, i);
    }
    let _ = writeln!(
        p,
        "<footer>{} {} · report format {}</footer>\n</body>\n</html>",
        escape(&r.tool.name),
        escape(&r.tool.version),
        r.format
    );
    p
}

fn overview(p: &mut String, r: &BuildReport) {
    let b = &r.board;
    let device = b
        .device
        .as_ref()
        .map(|d| format!("{} {} {} ({})", d.vendor, d.family, d.part, d.package))
        .unwrap_or_else(|| "simulation only".into());
    let rows = [
        ("Source", r.source.clone()),
        ("Board", format!("{} — {}", b.name, b.description)),
        ("Device", device),
        ("Kernel clock", format!("{} MHz", b.kernel_clock_mhz)),
        (
            "Memory",
            format!(
                "{} ({}-bit port, {}-beat bursts, {} cycles latency)",
                b.memory.description,
                b.memory.data_width,
                b.memory.burst_beats,
                b.memory.latency_cycles
            ),
        ),
        (
            "Core bus",
            format!(
                "AXI4 {}-bit data, {}-bit address, bursts up to {}, {} outstanding",
                r.bus.data_width, r.bus.addr_width, r.bus.max_burst, r.bus.max_outstanding
            ),
        ),
        (
            "Command",
            r.command
                .iter()
                .map(|a| shell_word(a))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        ("Tool", format!("{} {}", r.tool.name, r.tool.version)),
    ];
    p.push_str("<section>\n<table class=\"kv\">\n");
    for (k, v) in rows {
        let _ = writeln!(p, "<tr><th>{k}</th><td>{}</td></tr>", escape(&v));
    }
    p.push_str("</table>\n");
    p.push_str("<h2>Kernels</h2>\n<table>\n<tr><th>Kernel</th><th>Defined at</th><th>Top module</th><th>Argument words</th><th>AXI masters</th><th>FSM states</th></tr>\n");
    for k in &r.kernels {
        let _ = writeln!(
            p,
            "<tr><td><a href=\"#k-{0}\">{0}</a></td><td>{1}</td><td><code>{2}</code></td>\
             <td class=\"n\">{3}</td><td class=\"n\">{4}</td><td class=\"n\">{5}</td></tr>",
            escape(&k.name),
            escape(&k.location),
            escape(&k.top),
            k.register_map.arg_words(),
            masters(&k.register_map),
            k.schedule
                .get("states")
                .and_then(serde_json::Value::as_u64)
                .map(|n| n.to_string())
                .unwrap_or_else(|| "—".into())
        );
    }
    p.push_str("</table>\n");
    resources::overview(p, r);
    p.push_str("</section>\n");
}

/// `a` as a POSIX shell would need it typed, so the command line can be pasted back.
fn shell_word(a: &str) -> String {
    let plain = !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./=:,+-@%".contains(c));
    if plain {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

fn masters(m: &RegisterMap) -> usize {
    m.args
        .iter()
        .filter(|a| matches!(a.kind, RegArgKind::Buffer { .. }))
        .count()
}

fn kernel(
    p: &mut String,
    r: &BuildReport,
    kr: &KernelReport,
    built: Option<(&Kernel, &Compiled)>,
    sm: &SourceMap,
    index: usize,
) {
    let ir = built.map(|b| b.0);
    let _ = writeln!(
        p,
        "<section class=\"kernel\" id=\"k-{0}\">\n<h2>Kernel <code>{0}</code></h2>\n\
         <p class=\"sub\">{1} · top module <code>{2}</code> · files {3}</p>",
        escape(&kr.name),
        escape(&kr.location),
        escape(&kr.top),
        escape(&kr.files.join(", "))
    );
    attributes(p, kr);
    regmap::table(p, kr);
    let analysis = loops::section(p, kr, ir, sm);
    if let Some((_, c)) = built {
        memory::table(p, kr, &c.group.kernel);
        opt::section(p, &c.opt, sm);
    }
    schedule(p, kr);
    resources::kernel(p, r, &kr.name);
    if let Some(k) = ir {
        graph(p, k, sm, index, &loops::graph_notes(&analysis));
    }
    p.push_str("</section>\n");
}

fn attributes(p: &mut String, kr: &KernelReport) {
    let a = &kr.attributes;
    let dims = |d: &[u64; 3]| format!("{} × {} × {}", d[0], d[1], d[2]);
    let mut items = Vec::new();
    if let Some(d) = &a.reqd_work_group_size {
        items.push(format!("reqd_work_group_size {}", dims(d)));
    }
    if let Some(d) = &a.work_group_size_hint {
        items.push(format!("work_group_size_hint {}", dims(d)));
    }
    if let Some(d) = &a.max_work_group_size {
        items.push(format!("max_work_group_size {}", dims(d)));
    }
    if a.vec_type_hint_explicit {
        items.push(format!("vec_type_hint({})", a.vec_type_hint));
    }
    if let Some(n) = a.num_simd_work_items {
        items.push(format!("num_simd_work_items {n}"));
    }
    if a.xcl_pipeline_workitems {
        items.push("xcl_pipeline_workitems".into());
    }
    for u in &a.unknown {
        items.push(format!("{u} (not understood, ignored)"));
    }
    if !items.is_empty() {
        let _ = writeln!(p, "<p>Attributes: {}</p>", escape(&items.join("; ")));
    }
}

fn schedule(p: &mut String, kr: &KernelReport) {
    let Some(obj) = kr.schedule.as_object() else {
        return;
    };
    let facts: Vec<String> = obj
        .iter()
        .filter_map(|(k, v)| match v {
            serde_json::Value::String(s) => Some(format!("{k}: {s}")),
            serde_json::Value::Number(n) => Some(format!("{k}: {n}")),
            serde_json::Value::Bool(b) => Some(format!("{k}: {b}")),
            _ => None,
        })
        .collect();
    if !facts.is_empty() {
        let _ = writeln!(
            p,
            "<h3>Schedule</h3>\n<p>Datapath generator (on the kernel after the work-item loop \
             transformation): {}</p>",
            escape(&facts.join(" · "))
        );
    }
}

/// The op colours of [`svg`]'s classes.
const LEGEND: &str = "<p class=\"legend\"><span class=\"k\">constant</span> \
<span class=\"a\">argument / work-item id</span> <span class=\"v\">variable</span> \
<span class=\"x\">operation</span> <span class=\"f\">built-in</span> \
<span class=\"m\">memory access</span> <span class=\"s\">barrier / fence</span></p>";

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn graph(
    p: &mut String,
    k: &Kernel,
    sm: &SourceMap,
    index: usize,
    notes: &std::collections::BTreeMap<u32, String>,
) {
    let ops: usize = k.blocks.iter().map(|b| b.len()).sum();
    let _ = writeln!(
        p,
        "<h3>Dataflow graph</h3>\n<p class=\"sub\">{ops} operation{} in {} block{}{}. \
         Solid arrows carry values, dashed ones order memory accesses; hover an operation \
         for its source line.</p>\n{LEGEND}\n<div class=\"graph\">",
        plural(ops),
        k.blocks.len(),
        plural(k.blocks.len()),
        if svg::collapsed(k) {
            format!(
                "; more than {} operations, so each block is one box with its op counts",
                svg::MAX_DRAWN_OPS
            )
        } else {
            String::new()
        }
    );
    p.push_str(&svg::kernel_svg(k, sm, index, notes));
    p.push_str("</div>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_quoted_for_pasting() {
        assert_eq!(shell_word("--board"), "--board");
        assert_eq!(shell_word("a/b_c.cl"), "a/b_c.cl");
        assert_eq!(shell_word("R&D dir/k.cl"), "'R&D dir/k.cl'");
        assert_eq!(shell_word("k's"), "'k'\\''s'");
        assert_eq!(shell_word(""), "''");
    }
}
