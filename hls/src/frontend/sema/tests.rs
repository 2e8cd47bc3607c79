//! End-to-end tests of the checker: source text through the preprocessor, the parser and
//! `check`, asserting on diagnostics and on the side tables.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::diag::{Diagnostics, Severity, SourceMap};
use crate::frontend::ast::{ExprKind, Item, Stmt, StmtKind};
use crate::frontend::preprocess::{preprocess, PpOptions};
use crate::frontend::{parser, sema};

use super::{Program, SemaOptions};

pub(crate) fn check_named(name: &str, src: &str) -> (Program, Diagnostics, SourceMap) {
    let mut sm = SourceMap::new();
    let f = sm.add_file(name, name, src.to_string());
    let mut diags = Diagnostics::default();
    let toks = preprocess(&mut sm, f, &PpOptions::default(), &mut diags);
    let tu = parser::parse(toks, &sm, &mut diags);
    let p = sema::check(tu, &sm, &SemaOptions::default(), &mut diags);
    (p, diags, sm)
}

pub(crate) fn check_src(src: &str) -> (Program, Diagnostics, SourceMap) {
    check_named("t.cl", src)
}

fn errors(d: &Diagnostics, sm: &SourceMap) -> Vec<String> {
    d.list
        .iter()
        .filter(|x| x.severity == Severity::Error)
        .map(|x| match x.span {
            Some(s) => format!("{}: {}", sm.location(s), x.message),
            None => x.message.clone(),
        })
        .collect()
}

pub(super) fn assert_clean(src: &str) -> Program {
    let (p, d, sm) = check_src(src);
    let e = errors(&d, &sm);
    assert!(e.is_empty(), "unexpected errors:\n{}", e.join("\n"));
    p
}

/// The first error's line, and its message.
pub(super) fn first_error(src: &str) -> (u32, String) {
    let (_, d, sm) = check_src(src);
    let e = d
        .list
        .iter()
        .find(|x| x.severity == Severity::Error)
        .unwrap_or_else(|| panic!("expected an error in:\n{src}"));
    (sm.line_col(e.span.expect("span")).0, e.message.clone())
}

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance")
}

fn cl_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    v.sort();
    v
}

fn run_file(path: &Path) -> (Program, Diagnostics, SourceMap) {
    let text = std::fs::read_to_string(path).expect("read kernel");
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("k.cl");
    let mut sm = SourceMap::new();
    let f = sm.add_file(name, path, text);
    let mut diags = Diagnostics::default();
    let toks = preprocess(&mut sm, f, &PpOptions::default(), &mut diags);
    let tu = parser::parse(toks, &sm, &mut diags);
    let p = sema::check(tu, &sm, &SemaOptions::default(), &mut diags);
    (p, diags, sm)
}

#[test]
fn every_conformance_kernel_checks_without_errors() {
    let files = cl_files(&shared().join("kernels"));
    assert!(files.len() >= 15, "found {} kernels", files.len());
    let mut bad = Vec::new();
    for f in &files {
        let (p, d, sm) = run_file(f);
        let e = errors(&d, &sm);
        if !e.is_empty() || p.kernels.is_empty() {
            bad.push(format!("{}: {:?}", f.display(), e));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn every_invalid_file_is_diagnosed_at_its_line() {
    let mut bad = Vec::new();
    for f in cl_files(&shared().join("invalid")) {
        let text = std::fs::read_to_string(&f).expect("read");
        let first = text.lines().next().unwrap_or("");
        let (want_line, warning) = match first.split_once("expect-error-line:") {
            Some((_, n)) => (n.trim().parse::<u32>().expect("line"), false),
            None => match first.split_once("expect-warning-line:") {
                Some((_, n)) => (n.trim().parse::<u32>().expect("line"), true),
                None => continue,
            },
        };
        let (_, d, sm) = run_file(&f);
        let sev = if warning {
            Severity::Warning
        } else {
            Severity::Error
        };
        let hit = d
            .list
            .iter()
            .any(|x| x.severity == sev && x.span.is_some_and(|s| sm.line_col(s).0 == want_line));
        let errs = errors(&d, &sm);
        if !hit || (warning && !errs.is_empty()) {
            bad.push(format!(
                "{}: want line {want_line}, got {:?}",
                f.display(),
                d.list
                    .iter()
                    .map(|x| (x.span.map(|s| sm.location(s)), x.message.clone()))
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// `out[N] = expr;` statements of a function body: N -> folded value of expr.
fn folded_outputs(p: &Program, func: &str) -> HashMap<u64, Option<i128>> {
    fn walk(p: &Program, s: &Stmt, out: &mut HashMap<u64, Option<i128>>) {
        match &s.kind {
            StmtKind::Compound(v) => v.iter().for_each(|x| walk(p, x, out)),
            StmtKind::If(_, t, _) => walk(p, t, out),
            StmtKind::Expr(Some(e)) => {
                if let ExprKind::Assign(None, l, r) = &e.kind {
                    if let ExprKind::Index(_, i) = &l.kind {
                        if let ExprKind::IntLit { value, .. } = i.kind {
                            out.insert(value, p.expr(r.id).value);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = HashMap::new();
    for it in &p.ast.items {
        if let Item::Function(f) = it {
            if f.name() == func {
                walk(p, &f.body, &mut out);
            }
        }
    }
    out
}

#[test]
fn layout_rules_fold_to_the_expected_values() {
    let (p, d, sm) = run_file(&shared().join("kernels/layout_rules.cl"));
    assert!(errors(&d, &sm).is_empty(), "{:?}", errors(&d, &sm));
    let got = folded_outputs(&p, "layout");
    let want: [(u64, i128); 15] = [
        (0, 128),
        (1, 4),
        (2, 16),
        (3, 32),
        (4, 32),
        (5, 8),
        (6, 8),
        (7, 8),
        (8, 9),
        // The brief says 4, but clang (spir64 and x86-64) and GCC give 1: the only member
        // wider than a byte is packed, so nothing raises the struct's alignment.
        (9, 1),
        (10, 48),
        (11, 16),
        (12, 1644),
        (13, 128),
        (14, 4),
    ];
    for (i, v) in want {
        assert_eq!(got.get(&i).copied().flatten(), Some(v), "out[{i}]");
    }
    let (p, _, _) = run_file(&shared().join("kernels/packed_struct.cl"));
    let got = folded_outputs(&p, "unpack");
    assert_eq!(got.get(&0).copied().flatten(), Some(9));
    assert_eq!(got.get(&1).copied().flatten(), Some(16));
    assert_eq!(got.get(&2).copied().flatten(), Some(7));
    assert_eq!(got.get(&3).copied().flatten(), Some(8));
}
