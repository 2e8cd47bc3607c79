//! Unrolling through the real binary: a request over the size limit stops the build with
//! an error at the loop (file:line:col, the factor, the size it would make) and writes
//! nothing; a build prints and reports what was unrolled and which arrays became
//! registers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::Tmp;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn build(cl: &Path, out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ocl-hls"))
        .arg("build")
        .arg(cl)
        .args(["--board", "sim", "--no-estimate", "--no-vendor", "-o"])
        .arg(out)
        .output()
        .expect("run ocl-hls")
}

#[test]
fn unrolling_over_the_size_limit_is_an_error_at_each_loop() {
    let t = Tmp::new("too-big");
    let out = t.0.join("out");
    let r = build(&repo().join("tests/unroll/full_too_big.cl"), &out);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(!r.status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "full_too_big.cl:8:5: error: fully unrolling this loop (100000 iterations) would \
             make 1600000 operations, over the unrolling limit of 8192"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("full_too_big.cl:11:5: error: unrolling this loop by 20000 would make"),
        "{stderr}"
    );
    // With the source line and a caret under the loop.
    assert!(
        stderr.contains("    for (int i = 0; i < 100000; i++)\n    ^"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was written"), "{stderr}");
    assert!(!out.exists(), "a failed build must write nothing");
}

#[test]
fn a_build_reports_unroll_factors_and_registers() {
    let t = Tmp::new("report");
    let kernels = repo().join("../shared/conformance/kernels");
    let out = t.0.join("saxpy");
    let r = build(&kernels.join("saxpy_unroll.cl"), &out);
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(
        stdout.contains(
            "unroll at saxpy_unroll.cl:8:5: asked 4, applied 4 (main loop + remainder loop)"
        ),
        "{stdout}"
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).expect("report.json"))
            .expect("JSON");
    let k = &report["kernels"][0];
    assert_eq!(k["loop_transforms"]["unrolled"][0]["applied"], 4);
    let loops = k["loop_analysis"].as_array().expect("loops");
    let main = loops
        .iter()
        .find(|l| l["unroll_applied"] == 4)
        .expect("the main loop");
    assert_eq!(main["unroll"], "4");
    let rest = loops
        .iter()
        .find(|l| l["unroll_applied"] == 1)
        .expect("the remainder loop");
    assert!(
        rest["unroll_note"]
            .as_str()
            .is_some_and(|n| n.contains("remainder")),
        "{rest}"
    );

    let out = t.0.join("fir");
    let r = build(&kernels.join("fir_constant.cl"), &out);
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(
        stdout.contains("in registers: window (16 x f32)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("constant tables folded: coeff (16 loads)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("unroll at fir_constant.cl:20:9: asked full, applied 15 (full)"),
        "{stdout}"
    );
}
