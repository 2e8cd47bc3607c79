//! `verilator --lint-only -Wall` and a Yosys elaboration check over every template, each
//! file's module as the top with its default parameters; the modules a template
//! instantiates are passed along. The streaming memory units are also linted in every
//! configuration of bus width, element size and alignment (the store unit with and
//! without byte masks).

use rtl_templates::verilator::lint;
use rtl_templates::{template, template_files};
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
    yosys_check_with(top, sources, &[])
}

/// [`yosys_check`] with parameter overrides.
fn yosys_check_with(top: &str, sources: &[PathBuf], params: &[(&str, u32)]) -> Result<(), String> {
    let files: Vec<String> = sources.iter().map(|p| p.display().to_string()).collect();
    let chparams: String = params
        .iter()
        .map(|(k, v)| format!(" -chparam {k} {v}"))
        .collect();
    let script = format!(
        "read_verilog {}; hierarchy -check -top {top}{chparams}; proc; check -assert",
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

/// Powers of two from 1 to `max`.
fn powers(max: u32) -> impl Iterator<Item = u32> {
    (0..).map(|k| 1u32 << k).take_while(move |&p| p <= max)
}

/// Every (unit, parameters) the compiler may instantiate: bus widths 32..256, element
/// sizes up to the beat, alignments up to the element, the load unit with and without
/// streams, the store unit with and without byte masks (STRB).
fn memory_unit_configs() -> Vec<(&'static str, Vec<(&'static str, u32)>)> {
    let mut out = Vec::new();
    for dw in [32, 64, 128, 256] {
        for elem in powers(dw / 8) {
            for align in powers(elem) {
                let p = vec![
                    ("DATA_WIDTH", dw),
                    ("ELEM_BYTES", elem),
                    ("ALIGN_BYTES", align),
                ];
                for strb in [0, 1] {
                    let mut q = p.clone();
                    q.push(("STRB", strb));
                    out.push(("ohls_mem_store", q));
                }
                for (stream, fresh) in [(0, 0), (1, 0), (0, 1)] {
                    let mut q = p.clone();
                    q.push(("STREAM", stream));
                    if fresh == 1 {
                        q.push(("FRESH", 1));
                    }
                    out.push(("ohls_mem_load", q));
                }
            }
        }
    }
    out
}

#[test]
fn memory_units_lint_clean_in_every_configuration() {
    let files = template_files();
    let configs = memory_unit_configs();
    assert_eq!(configs.len(), 5 * (6 + 10 + 15 + 21));
    // Two at a time: each lint is a short single-threaded verilator run.
    let halves: Vec<Vec<String>> = std::thread::scope(|sc| {
        let jobs: Vec<_> = (0..2)
            .map(|k| {
                let (configs, files) = (&configs, &files);
                sc.spawn(move || {
                    let mut failures = Vec::new();
                    for (top, params) in configs.iter().skip(k).step_by(2) {
                        let sources = sources_for(&template(&format!("{top}.v")), files);
                        let values: Vec<String> =
                            params.iter().map(|(_, v)| v.to_string()).collect();
                        let p: Vec<(&str, &str)> = params
                            .iter()
                            .zip(&values)
                            .map(|((k, _), v)| (*k, v.as_str()))
                            .collect();
                        if let Err(e) = lint(top, &sources, &p) {
                            failures.push(format!("{top} {params:?}:\n{e}"));
                        }
                    }
                    failures
                })
            })
            .collect();
        jobs.into_iter()
            .map(|j| j.join().expect("lint thread"))
            .collect()
    });
    let failures: Vec<String> = halves.into_iter().flatten().collect();
    assert!(
        failures.is_empty(),
        "{} of {} memory unit configurations fail lint:\n{}",
        failures.len(),
        configs.len(),
        failures.join("\n")
    );
}

/// The Yosys front end elaborates the memory units in the new shapes at a 256-bit bus
/// (wide aligned elements and elements spanning two beats), and the store unit with byte
/// masks (STRB=1) at every one of those alignments.
#[test]
fn memory_units_elaborate_in_yosys_in_wide_and_misaligned_shapes() {
    let files = template_files();
    let mut failures = Vec::new();
    for (top, params) in memory_unit_configs() {
        let p: std::collections::BTreeMap<&str, u32> = params.iter().copied().collect();
        let (elem, align) = (p["ELEM_BYTES"], p["ALIGN_BYTES"]);
        let strb = p.get("STRB") == Some(&1);
        if p["DATA_WIDTH"] != 256
            || !(elem >= 16 || align < elem || strb)
            || !matches!(align, 1 | 4 | 16 | 32)
        {
            continue;
        }
        let sources = sources_for(&template(&format!("{top}.v")), &files);
        if let Err(e) = yosys_check_with(top, &sources, &params) {
            failures.push(format!("{top} {params:?}:\n{e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
