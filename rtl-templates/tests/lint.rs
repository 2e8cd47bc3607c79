//! `verilator --lint-only -Wall` and a Yosys elaboration check over every template, each
//! file's module as the top with its default parameters; the modules a template
//! instantiates are passed along.

use rtl_templates::template_files;
use rtl_templates::verilator::lint;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The identifiers in `text` that name another template module.
fn instantiated(text: &str, stems: &BTreeSet<String>, own: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w != &own && stems.contains(*w))
        .map(str::to_string)
        .collect()
}

/// The file itself first, then every template it instantiates, transitively.
fn sources_for(file: &Path, files: &[PathBuf]) -> Vec<PathBuf> {
    let stems: BTreeSet<String> = files.iter().map(|f| stem(f)).collect();
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    let mut todo = vec![file.to_path_buf()];
    while let Some(f) = todo.pop() {
        if !seen.insert(stem(&f)) {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for dep in instantiated(&text, &stems, &stem(&f)) {
            if let Some(p) = files.iter().find(|p| stem(p) == dep) {
                todo.push(p.clone());
            }
        }
        order.push(f);
    }
    order
}

#[test]
fn every_template_lints_clean() {
    let files = template_files();
    assert!(!files.is_empty(), "no templates found");
    let mut failures = Vec::new();
    for f in &files {
        let top = stem(f);
        if let Err(e) = lint(&top, &sources_for(f, &files), &[]) {
            failures.push(format!("{}:\n{e}", f.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} templates fail lint:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// Yosys (the open flow's front end) elaborates the template: `read_verilog`, `hierarchy
/// -check`, `proc`, and `check -assert` (which fails on multiple drivers, loops and
/// undriven cells). Any warning other than Yosys's note that it turned a small memory into
/// registers counts as a failure.
fn yosys_check(top: &str, sources: &[PathBuf]) -> Result<(), String> {
    let files: Vec<String> = sources.iter().map(|p| p.display().to_string()).collect();
    let script = format!(
        "read_verilog {}; hierarchy -check -top {top}; proc; check -assert",
        files.join(" ")
    );
    let out = Command::new("yosys")
        .args(["-q", "-p", &script])
        .output()
        .map_err(|_| {
            "yosys is not installed: run `bash scripts/install-deps.sh` (or `apt-get install -y yosys`)"
                .to_string()
        })?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let bad: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.contains("ERROR") || (l.contains("Warning") && !l.contains("Replacing memory"))
        })
        .collect();
    if !out.status.success() || !bad.is_empty() {
        return Err(format!("yosys check of {top} failed:\n{text}"));
    }
    Ok(())
}

#[test]
fn every_template_elaborates_in_yosys() {
    let files = template_files();
    assert!(!files.is_empty(), "no templates found");
    let mut failures = Vec::new();
    for f in &files {
        if let Err(e) = yosys_check(&stem(f), &sources_for(f, &files)) {
            failures.push(format!("{}:\n{e}", f.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} templates fail the Yosys check:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
