//! How `check` shows kernels to a person (aligned text) and to tools (JSON).

use std::fmt::Write as _;
use std::path::Path;

use serde_json::json;

use crate::diag::Severity;
use crate::frontend::sema::summary::{KernelInfo, LoopInfo};
use crate::frontend::types::Endian;
use crate::frontend::Checked;

/// "1 error and 2 warnings generated." in clang's words.
pub fn counts(errors: usize, warnings: usize) -> String {
    let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
    match (errors, warnings) {
        (0, w) => format!("{} generated.", plural(w, "warning")),
        (e, 0) => format!("{} generated.", plural(e, "error")),
        (e, w) => format!(
            "{} and {} generated.",
            plural(e, "error"),
            plural(w, "warning")
        ),
    }
}

fn dims(d: &Option<[u64; 3]>) -> String {
    match d {
        Some([x, y, z]) => format!("({x}, {y}, {z})"),
        None => "-".into(),
    }
}

/// Rows of equal-width columns.
fn table(out: &mut String, indent: &str, rows: &[Vec<String>]) {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in rows {
        let mut line = String::from(indent);
        for (c, cell) in r.iter().enumerate() {
            if c + 1 == r.len() {
                line.push_str(cell);
            } else {
                let _ = write!(line, "{:w$}  ", cell, w = widths[c]);
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

fn loop_row(l: &LoopInfo) -> Vec<String> {
    let unroll = match &l.unroll {
        None => "-".to_string(),
        Some(u) => match u.factor {
            None => format!("full ({})", u.spelling),
            Some(1) => format!("off ({})", u.spelling),
            Some(n) => format!("x{n} ({})", u.spelling),
        },
    };
    let ivdep = match &l.ivdep {
        None => "-".to_string(),
        Some(i) => match i.safelen {
            Some(n) => format!("safelen {n} ({})", i.spelling),
            None => format!("yes ({})", i.spelling),
        },
    };
    vec![
        l.location.clone(),
        format!("{} in {}", l.kind, l.function),
        format!("unroll: {unroll}"),
        format!("ivdep: {ivdep}"),
        if l.pipeline {
            "pipeline".into()
        } else {
            String::new()
        },
        match l.tripcount {
            Some(t) => format!("tripcount {}..{} (avg {})", t.min, t.max, t.avg),
            None => String::new(),
        },
    ]
}

/// The human summary: one block per kernel.
pub fn text(file: &Path, kernels: &[KernelInfo]) -> String {
    let mut out = String::new();
    let n = kernels.len();
    let _ = writeln!(
        out,
        "{}: ok, {n} kernel{}",
        file.display(),
        if n == 1 { "" } else { "s" }
    );
    for k in kernels {
        let _ = writeln!(out, "\nkernel {} ({})", k.name, k.location);
        let a = &k.attrs;
        let _ = writeln!(out, "  attributes");
        let mut rows = vec![
            vec!["reqd_work_group_size".into(), dims(&a.reqd_work_group_size)],
            vec!["work_group_size_hint".into(), dims(&a.work_group_size_hint)],
            vec![
                "vec_type_hint".into(),
                if a.vec_type_hint_explicit {
                    a.vec_type_hint.clone()
                } else {
                    format!("{} (default)", a.vec_type_hint)
                },
            ],
        ];
        if let Some(n) = a.required_num_sub_groups {
            rows.push(vec!["required_num_sub_groups".into(), n.to_string()]);
        }
        if a.max_work_group_size.is_some() {
            rows.push(vec![
                "max_work_group_size".into(),
                dims(&a.max_work_group_size),
            ]);
        }
        if let Some(n) = a.num_simd_work_items {
            rows.push(vec!["num_simd_work_items".into(), n.to_string()]);
        }
        if let Some(v) = &a.num_compute_units {
            let s: Vec<String> = v.iter().map(u64::to_string).collect();
            rows.push(vec!["num_compute_units".into(), s.join(", ")]);
        }
        if a.xcl_pipeline_workitems {
            rows.push(vec!["xcl_pipeline_workitems".into(), "yes".into()]);
        }
        for u in &a.unknown {
            rows.push(vec![u.clone(), "ignored (unknown)".into()]);
        }
        table(&mut out, "    ", &rows);
        let _ = writeln!(out, "  parameters");
        let mut rows = vec![vec![
            "name".into(),
            "type".into(),
            "kind".into(),
            "access".into(),
            "notes".into(),
        ]];
        for p in &k.params {
            let mut notes = Vec::new();
            // Device byte order is the default; only the exception is worth a note.
            if p.endian == Some(Endian::Host) {
                notes.push("endian(host)".to_string());
            }
            if let Some(m) = p.max_size {
                notes.push(format!("max_size({m})"));
            }
            rows.push(vec![
                p.name.clone(),
                p.ty.clone(),
                p.kind.replace('_', " "),
                if p.access == "none" {
                    "-".to_string()
                } else {
                    p.access.replace('_', " ")
                },
                notes.join(" "),
            ]);
        }
        table(&mut out, "    ", &rows);
        if k.loops.is_empty() {
            let _ = writeln!(out, "  loops: none");
        } else {
            let _ = writeln!(out, "  loops");
            let rows: Vec<Vec<String>> = k.loops.iter().map(loop_row).collect();
            table(&mut out, "    ", &rows);
        }
    }
    out
}

/// The machine-readable report: the same facts plus every diagnostic with its position.
pub fn json(file: &Path, checked: &Checked, kernels: &[KernelInfo]) -> String {
    let diags: Vec<serde_json::Value> = checked
        .diags
        .list
        .iter()
        .map(|d| {
            let (file, line, col) = match d.span {
                Some(s) => {
                    let site = checked.sources.use_site(s);
                    let f = checked.sources.file(site.file);
                    let (l, c) = f.line_col(site.lo);
                    (Some(f.name.clone()), Some(l), Some(c))
                }
                None => (None, None, None),
            };
            let notes: Vec<serde_json::Value> = d
                .notes
                .iter()
                .map(|n| json!({"message": n.message, "location": n.span.map(|s| checked.sources.location(s))}))
                .collect();
            json!({
                "severity": d.severity,
                "message": d.message,
                "file": file,
                "line": line,
                "column": col,
                "notes": notes,
            })
        })
        .collect();
    let errors = checked.diags.error_count();
    let warnings = checked
        .diags
        .list
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let v = json!({
        "file": file.display().to_string(),
        "ok": errors == 0,
        "errors": errors,
        "warnings": warnings,
        "diagnostics": diags,
        "kernels": kernels,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}
