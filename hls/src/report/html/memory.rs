//! The memory table: each object the hardware holds (the group form's, so arrays kept
//! per work-item show their real size), how it is built, and the variables in registers.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::escape;
use crate::diag::SourceMap;
use crate::ir::{Kernel, Object, OpKind, ParamKind};
use crate::report::json::BuildReport;

/// The objects of `k` as the hardware holds them (`group`, its group form), and its
/// variables.
pub(super) fn table(p: &mut String, k: &Kernel, group: &Kernel, r: &BuildReport, sm: &SourceMap) {
    p.push_str("<h3>Memories</h3>\n");
    // The hardware holds the group form's objects: arrays live across a barrier are
    // replicated per work-item, and values live across one get their own `__wi_*` array.
    let objects: &[Object] = &group.objects;
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
    // Variables promoted to `__wi_*` arrays are no longer read or written as variables in
    // the group form; the work-item loops' counters are.
    let used: BTreeSet<u32> = group
        .blocks
        .iter()
        .flat_map(|b| b.graph.node_weights())
        .filter_map(|o| match o.kind {
            OpKind::ReadVar(v) | OpKind::WriteVar(v) => Some(v.0),
            _ => None,
        })
        .collect();
    let names: Vec<String> = used
        .iter()
        .filter_map(|v| group.vars.get(*v as usize))
        .map(|v| format!("{} ({})", v.name, v.ty))
        .collect();
    if !names.is_empty() {
        let _ = writeln!(
            p,
            "<p>{} variable{} in registers, one register each: {}.</p>",
            names.len(),
            if names.len() == 1 { "" } else { "s" },
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
