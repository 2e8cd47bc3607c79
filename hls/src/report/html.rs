//! `report.html`: the build report as one self-contained page (inline CSS and SVG, no
//! script, no links out, no timestamps, so equal builds give equal bytes): the board and
//! command, then per kernel its register map, loops, memories, resources and dataflow
//! graph.

use std::fmt::Write as _;

use super::json::{BuildReport, KernelReport};
use super::svg;
use crate::analysis::LoopReport;
use crate::diag::SourceMap;
use crate::estimate::fit::Usage;
use crate::estimate::Status;
use crate::ir::{Kernel, Object, ParamKind};
use crate::rtl::regmap::{RegArg, RegArgKind, RegisterMap};

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
/// from (matched by name; a kernel without one gets no graph or memory table).
pub fn render(r: &BuildReport, kernels: &[&Kernel], sm: &SourceMap) -> String {
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
        let ir = kernels.iter().copied().find(|k| k.name == kr.name);
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
        ("Command", r.command.join(" ")),
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
    estimates_overview(p, r);
    p.push_str("</section>\n");
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
    ir: Option<&Kernel>,
    sm: &SourceMap,
    index: usize,
) {
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
    register_map(p, kr);
    match ir.and_then(|k| analysed_loops(r, k, sm)) {
        Some(l) => loop_analysis(p, &l, ir, sm),
        None => loops(p, kr, ir, sm),
    }
    if let Some(k) = ir {
        memories(p, k, r, sm);
    }
    schedule(p, kr);
    resources(p, r, &kr.name);
    if let Some(k) = ir {
        graph(p, k, sm, index);
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

fn register_map(p: &mut String, kr: &KernelReport) {
    let m = &kr.register_map;
    p.push_str(
        "<h3>Register map</h3>\n<p class=\"sub\">AXI4-Lite control slave; 32-bit registers; \
         arguments low word first.</p>\n<table>\n<tr><th>Offset</th><th>Name</th><th>Access</th><th>Meaning</th></tr>\n",
    );
    let fixed = [
        (
            m.control,
            "CONTROL",
            "RW",
            "bit 0 START (self-clearing)".to_string(),
        ),
        (
            m.status,
            "STATUS",
            "R",
            "bit 0 DONE, bit 1 BUSY, bits 15:8 error code".into(),
        ),
        (
            m.irq_enable,
            "IRQ_ENABLE",
            "RW",
            "bit 0 done interrupt, bit 1 error interrupt".into(),
        ),
        (
            m.irq_status,
            "IRQ_STATUS",
            "RW1C",
            "bit 0 done event, bit 1 error event (write 1 to clear)".into(),
        ),
    ];
    for (off, name, acc, what) in fixed {
        reg_row(p, off, 1, name, acc, &what);
    }
    for (d, axis) in ["X", "Y", "Z"].iter().enumerate() {
        let what = format!("global work size, dimension {d}");
        reg_row(
            p,
            m.global_size[d],
            1,
            &format!("GLOBAL_SIZE_{axis}"),
            "RW",
            &what,
        );
    }
    for (d, axis) in ["X", "Y", "Z"].iter().enumerate() {
        let what = format!("local work size, dimension {d}");
        reg_row(
            p,
            m.local_size[d],
            1,
            &format!("LOCAL_SIZE_{axis}"),
            "RW",
            &what,
        );
    }
    reg_row(
        p,
        m.nargs,
        1,
        "NARGS",
        "R",
        &format!("{} argument words", m.arg_words()),
    );
    reg_row(p, m.magic, 1, "MAGIC", "R", "0x4F484C53 (\"OHLS\")");
    for a in &m.args {
        let param = kr.params.iter().find(|x| x.name == a.name);
        let ty = param
            .map(|x| format!("{} {} — ", x.ty, x.access))
            .unwrap_or_default();
        let what = format!("{ty}{}", arg_meaning(a));
        reg_row(
            p,
            a.offset,
            a.words,
            &format!("arg {}", a.name),
            "RW",
            &what,
        );
    }
    p.push_str("</table>\n");
}

fn reg_row(p: &mut String, off: u32, words: u32, name: &str, access: &str, what: &str) {
    let at = if words > 1 {
        format!("0x{off:02X}–0x{:02X}", off + 4 * (words - 1))
    } else {
        format!("0x{off:02X}")
    };
    let _ = writeln!(
        p,
        "<tr><td class=\"n\"><code>{at}</code></td><td><code>{}</code></td><td>{access}</td><td>{}</td></tr>",
        escape(name),
        escape(what)
    );
}

fn arg_meaning(a: &RegArg) -> String {
    match &a.kind {
        RegArgKind::Buffer { master, constant } => format!(
            "64-bit base address of a {} buffer, accessed through AXI master {master} (m_{}_*)",
            if *constant { "__constant" } else { "__global" },
            a.name
        ),
        RegArgKind::Scalar { bytes } => format!("{bytes}-byte value"),
        RegArgKind::Struct { bytes } => format!("{bytes}-byte struct, host layout"),
        RegArgKind::Local { max_bytes } => {
            format!("__local buffer size in bytes (at most {max_bytes})")
        }
    }
}

fn loops(p: &mut String, kr: &KernelReport, ir: Option<&Kernel>, sm: &SourceMap) {
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
        "<p class=\"note\">Every loop is built as a state machine (one state per operation); \
         initiation intervals are not analysed in this build.</p>\n",
    );
}

/// The loop analysis of `k` on the report's board; `None` (the hint table is shown
/// instead) when the board or the analysis is not available.
fn analysed_loops(r: &BuildReport, k: &Kernel, sm: &SourceMap) -> Option<Vec<LoopReport>> {
    let boards = crate::board::BoardSet::builtin().ok()?;
    let board = boards.get(&r.board.name)?;
    crate::analysis::analyze(k, sm, board).ok()
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
         <th>Min II</th><th>Why</th><th>Depth</th><th>Today</th></tr>\n",
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
             <td class=\"n\">{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            0.5 + f64::from(l.level),
            escape(&l.name),
            escape(&l.location),
            escape(&source_line(sm, ir, &l.location, l.line)),
            l.trip_count
                .map(|t| t.to_string())
                .unwrap_or_else(|| "?".into()),
            escape(&opt(&l.unroll)),
            escape(&opt(&l.ivdep)),
            escape(&ii),
            escape(&l.ii_reason),
            l.depth,
            escape(&format!(
                "{} cycles/iteration ({} states)",
                l.fsm_cycles_per_iteration, l.fsm_states
            ))
        );
    }
    p.push_str("</table>\n");
    p.push_str(
        "<p class=\"note\">Min II is what a pipelined implementation could reach (the larger \
         of the resource and recurrence bounds); today's generator runs each loop as a state \
         machine, one state per operation, so its II is the cycles per iteration in the last \
         column. Unroll hints are shown but not applied yet.</p>\n",
    );
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

fn memories(p: &mut String, k: &Kernel, r: &BuildReport, sm: &SourceMap) {
    p.push_str("<h3>Memories</h3>\n");
    // The hardware holds the group form's objects: arrays live across a barrier are
    // replicated per work-item, and values live across one get their own `__wi_*` array.
    let gf = crate::workitems::to_group_form(k).ok();
    let objects: &[Object] = gf.as_ref().map_or(&k.objects, |g| &g.kernel.objects);
    let locals: Vec<&crate::ir::Param> = k
        .params
        .iter()
        .filter(|x| x.kind == ParamKind::LocalBuffer)
        .collect();
    if objects.is_empty() && locals.is_empty() {
        p.push_str(
            "<p>No private arrays, <code>__local</code> or <code>__constant</code> objects.</p>\n",
        );
    } else {
        p.push_str(
            "<table>\n<tr><th>Object</th><th>Space</th><th>Source size</th><th>Hardware size</th>\
             <th>Implementation</th><th>Banks</th><th>Declared at</th></tr>\n",
        );
        for (i, o) in objects.iter().enumerate() {
            let source_size = k
                .objects
                .get(i)
                .map(|x| format!("{} B", x.size))
                .unwrap_or_else(|| "— (added)".into());
            let mut how = String::from("byte-wide RAM (ohls_ram_1r1w, 1 read + 1 write port)");
            if o.init.is_some() {
                how.push_str(", loaded with its initial bytes at each work-group's start");
            }
            if i >= k.objects.len() {
                how.push_str("; holds a value per work-item across a barrier");
            }
            mem_row(
                p,
                &o.name,
                o.space.name(),
                &source_size,
                o.size,
                &how,
                &location(sm, o.span),
            );
        }
        for x in &locals {
            mem_row(
                p,
                &x.name,
                "__local (argument)",
                "set by the host",
                r.bus.local_max_bytes,
                "byte-wide RAM (ohls_ram_1r1w, 1 read + 1 write port), sized for the largest launch",
                "",
            );
        }
        p.push_str("</table>\n");
        p.push_str(
            "<p class=\"note\">One bank per object: banking (e.g. from reqd_work_group_size) \
             is not done by the generator yet.</p>\n",
        );
    }
    if !k.vars.is_empty() {
        let names: Vec<String> = k
            .vars
            .iter()
            .map(|v| format!("{} ({})", v.name, v.ty))
            .collect();
        let _ = writeln!(
            p,
            "<p>{} variable{} in registers, one register each: {}.</p>",
            k.vars.len(),
            if k.vars.len() == 1 { "" } else { "s" },
            escape(&names.join(", "))
        );
    }
}

/// `file:line:col` of a span, or nothing for a span no compiled file holds.
fn location(sm: &SourceMap, span: crate::diag::Span) -> String {
    if (span.file.0 as usize) < sm.files().count() {
        sm.location(span)
    } else {
        String::new()
    }
}

fn mem_row(
    p: &mut String,
    name: &str,
    space: &str,
    source_size: &str,
    bytes: u64,
    how: &str,
    at: &str,
) {
    let _ = writeln!(
        p,
        "<tr><td><code>{}</code></td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{bytes} B</td>\
         <td>{}</td><td class=\"n\">1</td><td>{}</td></tr>",
        escape(name),
        escape(space),
        escape(source_size),
        escape(how),
        escape(at)
    );
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

/// The build's estimate summary under the kernel list: the total against the device and
/// whether it fits, or why there are no estimates and how to get them.
fn estimates_overview(p: &mut String, r: &BuildReport) {
    let e = &r.estimates;
    p.push_str("<h2>Resources</h2>\n");
    if e.status != Status::Done {
        missing_estimates(p, r);
        return;
    }
    let tool = e
        .tool
        .as_ref()
        .map(|t| t.version.clone())
        .unwrap_or_default();
    let _ = writeln!(
        p,
        "<p class=\"sub\">Estimated by {} with <code>{}</code>, each core synthesised \
         alone.</p>",
        escape(&tool),
        escape(e.synthesis.as_deref().unwrap_or(""))
    );
    if let Some(t) = &e.total {
        let verdict = match e.fits {
            Some(true) => "All cores together fit the device.",
            Some(false) => "All cores together do NOT fit the device.",
            None => "",
        };
        let _ = writeln!(p, "<p>{verdict}</p>");
        usage_table(p, t);
    }
}

fn missing_estimates(p: &mut String, r: &BuildReport) {
    let e = &r.estimates;
    let note = e.note.as_deref().unwrap_or("");
    let cmd = r.board.flow.estimate.as_deref().unwrap_or("");
    let text = match e.status {
        Status::Skipped => format!(
            "Resource estimates were skipped ({note}); build without --no-estimate to run \
             Yosys (`{cmd}`)."
        ),
        Status::NotRun => format!("Resource estimates were not run: {note}."),
        Status::NoDevice => format!(
            "No resource estimates: board {} is for simulation only.",
            r.board.name
        ),
        Status::Failed => format!("Resource estimates failed: {note}"),
        Status::Done => String::new(),
    };
    let _ = writeln!(p, "<p class=\"note\">{}</p>", escape(&text));
    if let Some(res) = &r.board.resources {
        let _ = writeln!(
            p,
            "<p>Board capacity: {} {}s, {} registers, {} DSP blocks, {} {} blocks.</p>",
            res.logic.count,
            match res.logic.unit {
                crate::board::types::LogicUnit::Alm => "ALM",
                crate::board::types::LogicUnit::Lut4 => "LUT4",
            },
            res.registers,
            res.dsps.count,
            res.block_ram.count,
            escape(&res.block_ram.name)
        );
    }
}

/// One kernel's estimate: its resources as bars against the device, and nextpnr's fmax
/// where the board's flow places and routes.
fn resources(p: &mut String, r: &BuildReport, kernel: &str) {
    p.push_str("<h3>Resources</h3>\n");
    let Some(k) = r.estimates.kernels.iter().find(|k| k.kernel == kernel) else {
        p.push_str("<p class=\"note\">No estimate for this kernel (see Resources above).</p>\n");
        return;
    };
    usage_table(p, &k.usage);
    let Some(t) = &k.timing else {
        return;
    };
    let text = match t.fmax_mhz {
        Some(f) => format!(
            "nextpnr (out of context): fmax {f:.1} MHz on {} against the {:.1} MHz target{}.",
            t.clock.as_deref().unwrap_or("the core clock"),
            t.target_mhz,
            if f >= t.target_mhz {
                ""
            } else {
                " (below target)"
            }
        ),
        None => format!(
            "nextpnr timing {}: {}",
            t.status,
            t.note.as_deref().unwrap_or("")
        ),
    };
    let _ = writeln!(p, "<p>{}</p>", escape(&text));
}

fn usage_table(p: &mut String, u: &Usage) {
    p.push_str("<table class=\"use\">\n");
    for a in u.amounts() {
        let (width, class, pct) = if a.percent.is_finite() {
            (
                a.percent.clamp(0.0, 100.0),
                if a.percent > 100.0 {
                    " class=\"over\""
                } else {
                    ""
                },
                format!("{:.1}%", a.percent),
            )
        } else {
            (100.0, " class=\"over\"", "—".to_string())
        };
        let _ = writeln!(
            p,
            "<tr><th>{}</th><td class=\"n\">{} / {}</td><td><span class=\"bar\">\
             <span{class} style=\"width:{width:.1}%\"></span></span> {pct}</td></tr>",
            escape(&a.name),
            a.used,
            a.available
        );
    }
    p.push_str("</table>\n");
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

fn graph(p: &mut String, k: &Kernel, sm: &SourceMap, index: usize) {
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
    p.push_str(&svg::kernel_svg(k, sm, index));
    p.push_str("</div>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSet;
    use crate::estimate::fit::Amount;
    use crate::estimate::nextpnr::Timing;
    use crate::estimate::{Estimates, KernelEstimate};
    use crate::report::json::{BoardReport, Bus, Tool};

    fn report(board: &str, estimates: Estimates) -> BuildReport {
        let sets = BoardSet::builtin().expect("built-in boards");
        let b = sets.get(board).expect("board");
        BuildReport {
            format: 1,
            tool: Tool::this(),
            command: vec!["ocl-hls".into(), "build".into(), "a&b.cl".into()],
            source: "a&b.cl".into(),
            board: BoardReport::of(b),
            bus: Bus::of(&crate::project::shell_config_for(b)),
            kernels: Vec::new(),
            estimates,
        }
    }

    fn usage(alms: u64, dsps: u64) -> Usage {
        Usage {
            logic: Amount::new("ALMs", alms, 41910),
            registers: Amount::new("registers", 10, 167640),
            dsps: Amount::new("DSPs", dsps, 112),
            block_ram: Amount::new("M10K", 0, 0),
            large_ram: None,
        }
    }

    fn done(u: Usage, timing: Option<Timing>) -> Estimates {
        Estimates {
            status: Status::Done,
            note: None,
            tool: None,
            synthesis: Some("synth_intel_alm -family cyclonev".into()),
            kernels: vec![KernelEstimate {
                kernel: "k".into(),
                top: "k_core".into(),
                command: "yosys ...".into(),
                seconds: 12.5,
                usage: u.clone(),
                cells: Default::default(),
                timing,
            }],
            total: Some(u),
            fits: Some(true),
            seconds: 12.5,
        }
    }

    #[test]
    fn escape_covers_markup_quotes_and_controls() {
        assert_eq!(
            escape("a<b>&\"c'\u{1}"),
            "a&lt;b&gt;&amp;&quot;c&#39;\u{FFFD}"
        );
    }

    #[test]
    fn estimates_become_bars_without_timings() {
        let r = report("de10", done(usage(20955, 150), None));
        let mut p = String::new();
        estimates_overview(&mut p, &r);
        resources(&mut p, &r, "k");
        assert!(
            p.contains("<th>ALMs</th><td class=\"n\">20955 / 41910</td>"),
            "{p}"
        );
        assert!(p.contains("style=\"width:50.0%\""), "{p}");
        // 150 of 112 DSPs: a full, red bar and the real percentage.
        assert!(p.contains("class=\"over\" style=\"width:100.0%\"></span></span> 133.9%"));
        assert!(p.contains("fit the device"));
        // Wall-clock seconds would make equal builds differ.
        assert!(!p.contains("12.5"), "{p}");
    }

    #[test]
    fn fmax_is_shown_against_the_target() {
        let timing = Timing {
            fmax_mhz: Some(87.25),
            clock: Some("clk".into()),
            ..Timing::not_run(
                BoardSet::builtin().unwrap().get("ulx3s").unwrap(),
                String::new(),
            )
        };
        let r = report("ulx3s", done(usage(1, 0), Some(timing)));
        let mut p = String::new();
        resources(&mut p, &r, "k");
        assert!(p.contains("fmax 87.2 MHz on clk"), "{p}");
    }

    #[test]
    fn missing_estimates_say_why() {
        let mut r = report("de10", Estimates::skipped());
        let mut p = String::new();
        estimates_overview(&mut p, &r);
        assert!(p.contains("skipped"), "{p}");
        assert!(p.contains("Board capacity: 41910 ALMs"), "{p}");
        r.estimates.status = Status::NotRun;
        r.estimates.note = Some("no yosys on PATH; install it with apt-get install yosys".into());
        p.clear();
        estimates_overview(&mut p, &r);
        assert!(p.contains("apt-get install yosys"), "{p}");
    }
}
