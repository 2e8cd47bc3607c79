//! The memory table: each on-chip memory the hardware accesses as the `memory` stage
//! shaped it (the report's typed per-memory section: word, depth, replicas, ports, the
//! M10K estimate, and the loops whose II its ports bound), and the variables in registers.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use super::escape;
use crate::ir::{Kernel, OpKind};
use crate::report::json::KernelReport;

/// The memories of `kr`, and the variables of `group` (its group form) in registers.
pub(super) fn table(p: &mut String, kr: &KernelReport, group: &Kernel) {
    p.push_str("<h3>Memories</h3>\n");
    if kr.memories.is_empty() {
        p.push_str(
            "<p>No private arrays, <code>__local</code> or <code>__constant</code> objects \
             in RAM.</p>\n",
        );
    } else {
        p.push_str(
            "<table>\n<tr><th>Memory</th><th>Space</th><th>Declared at</th><th>Word</th>\
             <th>Depth</th><th>Replicas</th><th>Read ports</th><th>Write ports</th>\
             <th>Bits</th><th>M10K</th><th>Accesses</th><th>Port conflicts</th></tr>\n",
        );
        for m in &kr.memories {
            let conflicts: Vec<String> = m
                .conflicts
                .iter()
                .map(|c| {
                    format!(
                        "L{} {} at {}: {} {} access{} at {} on {} {} port{}: II {} ({} without, \
                         {} cycle{} per iteration)",
                        c.loop_id,
                        c.loop_name,
                        c.loop_location,
                        c.count,
                        c.port,
                        if c.count == 1 { "" } else { "es" },
                        c.accesses.join(", "),
                        c.ports,
                        c.port,
                        if c.ports == 1 { "" } else { "s" },
                        c.ii,
                        c.ii_without,
                        c.costs,
                        if c.costs == 1 { "" } else { "s" }
                    )
                })
                .collect();
            let conflicts = if conflicts.is_empty() {
                "none".to_string()
            } else {
                conflicts.join("; ")
            };
            let _ = writeln!(
                p,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td class=\"n\">{} B</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{} ({})</td>\
                 <td class=\"n\">{} / {} / {}</td><td>{}</td></tr>",
                escape(&m.name),
                escape(&m.space),
                escape(m.location.as_deref().unwrap_or("")),
                m.word_bytes,
                m.depth,
                if m.banks > 1 {
                    format!("{} {} banks", m.banks, m.mapping)
                } else {
                    m.replicas.to_string()
                },
                m.read_ports,
                m.write_ports,
                m.bits * m.replicas as u64,
                m.m10k.total,
                escape(&m.m10k.shape),
                m.loads,
                m.stores,
                m.atomics,
                escape(&conflicts)
            );
        }
        p.push_str("</table>\n");
        p.push_str(
            "<p class=\"note\">Each copy is an <code>ohls_ram_1r1w</code> (one read, one write \
             port); every write goes to all copies. Bits count all copies. Accesses are loads / \
             stores / atomics in the hardware's kernel. M10K: Cyclone V blocks if every copy is \
             placed in M10Ks, with the simple dual-port shape needing the fewest (Quartus may \
             put a small memory in MLABs instead).</p>\n",
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
