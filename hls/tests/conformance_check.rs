//! `ocl-hls check` on the shared acceptance set: every valid kernel is accepted, every
//! invalid one is rejected (or warned about) at the line its first comment names.

use std::path::{Path, PathBuf};
use std::process::Command;

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

fn check(file: &Path, extra: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ocl-hls"))
        .arg("check")
        .arg(file)
        .args(extra)
        .output()
        .expect("run ocl-hls");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_conformance_kernel_is_accepted_without_errors() {
    let files = cl_files(&shared().join("kernels"));
    assert!(
        files.len() >= 19,
        "expected the shared kernels, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let (ok, stdout, stderr) = check(f, &[]);
        if !ok || stderr.contains("error:") || !stdout.contains("kernel ") {
            failures.push(format!("{}:\n{stderr}{stdout}", f.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "rejected kernels:\n{}",
        failures.join("\n")
    );
}

/// The line an invalid file's first comment names, and whether it is a warning.
fn expectation(file: &Path) -> (u32, bool) {
    let text = std::fs::read_to_string(file).expect("read");
    let first = text.lines().next().unwrap_or_default();
    for (key, warn) in [
        ("expect-error-line:", false),
        ("expect-warning-line:", true),
    ] {
        if let Some(rest) = first.split(key).nth(1) {
            return (rest.trim().parse().expect("line number"), warn);
        }
    }
    panic!("{}: no expectation comment", file.display());
}

#[test]
fn every_invalid_file_is_diagnosed_at_its_line() {
    let files = cl_files(&shared().join("invalid"));
    assert!(files.len() >= 20);
    let mut failures = Vec::new();
    for f in &files {
        let (line, warn) = expectation(f);
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let (ok, _, stderr) = check(f, &[]);
        let want = if warn { "warning" } else { "error" };
        let located = stderr
            .lines()
            .any(|l| l.contains(&format!("{name}:{line}:")) && l.contains(&format!(": {want}: ")));
        // The first error of a rejected file must be the expected one, not a follow-on.
        let first_error_ok = warn
            || stderr
                .lines()
                .find(|l| l.contains(": error: "))
                .is_some_and(|l| l.contains(&format!("{name}:{line}:")));
        if ok != warn || !located || !first_error_ok {
            failures.push(format!(
                "{name}: expected {want} at line {line} (exit {}), got:\n{stderr}",
                if warn { "0" } else { "1" }
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn json_summary_describes_kernel_attributes_and_loops() {
    let (ok, stdout, _) = check(&shared().join("kernels/fir_constant.cl"), &["--json"]);
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    assert_eq!(v["ok"], true);
    let k = &v["kernels"][0];
    assert_eq!(k["name"], "fir");
    assert_eq!(
        k["attrs"]["reqd_work_group_size"],
        serde_json::json!([1, 1, 1])
    );
    assert_eq!(k["attrs"]["vec_type_hint"], "int");
    assert_eq!(k["attrs"]["vec_type_hint_explicit"], false);
    let loops = k["loops"].as_array().expect("loops");
    assert_eq!(loops.len(), 4, "{loops:?}");
    let unrolled: Vec<u64> = loops
        .iter()
        .filter(|l| !l["unroll"].is_null())
        .map(|l| l["line"].as_u64().unwrap())
        .collect();
    assert_eq!(unrolled, vec![20, 26]);
    let params = k["params"].as_array().unwrap();
    assert_eq!(params[0]["name"], "x");
    assert_eq!(params[0]["kind"], "global_buffer");
    assert_eq!(params[0]["access"], "read");
    assert_eq!(params[1]["access"], "write");
    assert_eq!(params[2]["kind"], "scalar");
}

#[test]
fn json_reports_diagnostics_with_positions() {
    let (ok, stdout, _) = check(&shared().join("invalid/unroll_zero.cl"), &["--json"]);
    assert!(!ok);
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    assert_eq!(v["ok"], false);
    let d = &v["diagnostics"][0];
    assert_eq!(d["severity"], "error");
    assert_eq!(d["line"], 5);
    assert!(d["file"].as_str().unwrap().ends_with("unroll_zero.cl"));
}

#[test]
fn text_summary_lists_parameters_and_defaulted_attributes() {
    let (ok, stdout, _) = check(&shared().join("kernels/ndrange3d.cl"), &[]);
    assert!(ok);
    assert!(stdout.contains("kernel grid3d"), "{stdout}");
    let has = |words: &str| {
        stdout
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>().join(" ") == words)
    };
    assert!(has("work_group_size_hint (4, 4, 2)"), "{stdout}");
    assert!(has("vec_type_hint int (default)"), "{stdout}");
    assert!(
        has("base __global const int * global buffer read endian(host)"),
        "{stdout}"
    );
}

#[test]
fn defines_and_missing_files_are_handled() {
    let dir = std::env::temp_dir().join(format!("ohls-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let k = dir.join("k.cl");
    std::fs::write(&k, "#ifndef N\n#error N must be defined\n#endif\n__kernel void k(__global int *p) { p[0] = N; }\n").unwrap();
    let (ok, _, stderr) = check(&k, &[]);
    assert!(!ok);
    assert!(stderr.contains("k.cl:2:"), "{stderr}");
    let (ok, _, stderr) = check(&k, &["-D", "N=4"]);
    assert!(ok, "{stderr}");
    let (ok, _, stderr) = check(&dir.join("missing.cl"), &[]);
    assert!(!ok);
    assert!(stderr.contains("cannot read"), "{stderr}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn emit_ir_prints_every_conformance_kernel() {
    for f in cl_files(&shared().join("kernels")) {
        let (ok, stdout, stderr) = check(&f, &["--emit", "ir"]);
        assert!(ok, "{}: {stderr}", f.display());
        assert!(stdout.starts_with("kernel "), "{}: {stdout}", f.display());
    }
    let (_, stdout, _) = check(&shared().join("kernels/vadd.cl"), &["--emit", "ir"]);
    assert!(stdout.contains("workitem(globalid)"), "{stdout}");
    assert!(stdout.contains("f32 load __global (param 0)"), "{stdout}");
    assert!(stdout.contains("store __global (param 2)"), "{stdout}");
    assert!(stdout.contains("vadd.cl:6:5"), "{stdout}");
}
