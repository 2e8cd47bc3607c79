//! The estimate table of the conformance kernels: `ocl-hls build` of each for de10
//! (Yosys ALMs, DSPs, M10Ks) and ulx3s (Yosys LUT4s, nextpnr's out-of-context fmax), with
//! the seconds Yosys and nextpnr took and the build time without them, as Markdown.
//!
//! Run: `cargo build --release -p ocl-hls && cargo run --release -p ocl-hls --example
//! estimates [KERNEL...]` (default: every conformance kernel; about 3 CPU-minutes each).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use serde_json::Value;

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/kernels")
}

/// The `ocl-hls` binary of the same profile (target/PROFILE/ocl-hls).
fn binary() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let bin = exe
        .parent()
        .and_then(Path::parent)
        .map(|d| d.join("ocl-hls"))
        .ok_or("no target folder")?;
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!(
            "{} is missing: run `cargo build --release -p ocl-hls` first",
            bin.display()
        ))
    }
}

/// One build; the report's estimates, or why there are none.
fn build(bin: &Path, cl: &Path, board: &str, extra: &[&str]) -> Result<(Value, f64), String> {
    let stem = cl.file_stem().unwrap_or_default().to_string_lossy();
    let out = std::env::temp_dir().join(format!(
        "ohls-estimates-{}-{stem}-{board}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&out);
    let started = Instant::now();
    let r = Command::new(bin)
        .arg("build")
        .arg(cl)
        .args(["--board", board, "--allow-overfit", "-o"])
        .arg(&out)
        .args(extra)
        .output()
        .map_err(|e| e.to_string())?;
    let secs = started.elapsed().as_secs_f64();
    if !r.status.success() {
        let err = String::from_utf8_lossy(&r.stderr);
        let last = err.lines().last().unwrap_or("").to_string();
        return Err(last.replace('|', "/"));
    }
    let text = std::fs::read_to_string(out.join("report.json")).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&out);
    let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    Ok((v["estimates"].clone(), secs))
}

fn total(e: &Value, key: &str) -> String {
    match e["total"][key]["used"].as_u64() {
        Some(n) => format!("{n} ({}%)", e["total"][key]["percent"]),
        None => "-".into(),
    }
}

/// One kernel's table row, and the Yosys version when it ran.
fn row(bin: &Path, cl: &Path) -> (String, Option<String>) {
    let name = cl
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    eprintln!("{name} ...");
    let plain = build(bin, cl, "de10", &["--no-estimate"]).map(|(_, s)| s);
    let de10 = build(bin, cl, "de10", &[]);
    let ulx3s = build(bin, cl, "ulx3s", &[]);
    let mut tool = None;
    let row = match (plain, de10, ulx3s) {
        (Ok(plain), Ok((d, _)), Ok((u, _))) if d["status"] == "done" && u["status"] == "done" => {
            if let Some(v) = d["tool"]["version"].as_str() {
                tool = Some(v.to_string());
            }
            let fmax: Vec<String> = u["kernels"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|k| match k["timing"]["fmax_mhz"].as_f64() {
                    Some(f) => format!("{f:.1}"),
                    None => format!("{}", k["timing"]["status"]),
                })
                .collect();
            let pnr: f64 = u["kernels"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|k| k["timing"]["seconds"].as_f64())
                .sum();
            let yosys_u = u["seconds"].as_f64().unwrap_or(0.0) - pnr;
            format!(
                "| {name} | {} | {} | {} | {} | {} | {} | {} | {plain:.2} | {:.0} | {yosys_u:.0} | {pnr:.0} |",
                d["kernels"].as_array().map_or(0, Vec::len),
                total(&d, "logic"),
                total(&d, "dsps"),
                total(&d, "block_ram"),
                total(&u, "logic"),
                fmax.join(", "),
                if d["fits"] == true { "yes" } else { "no" },
                d["seconds"].as_f64().unwrap_or(0.0),
            )
        }
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
            format!("| {name} | refused: {e} | | | | | | | | | | |")
        }
        (_, Ok((d, _)), Ok((u, _))) => format!(
            "| {name} | estimates {} / {}: {} {} | | | | | | | | | | |",
            d["status"], u["status"], d["note"], u["note"]
        ),
    };
    (row, tool)
}

fn main() -> ExitCode {
    let bin = match binary() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    let mut files: Vec<PathBuf> = std::fs::read_dir(kernels_dir())
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|x| x == "cl"));
    files.retain(|p| {
        let stem = p.file_stem().unwrap_or_default().to_string_lossy();
        wanted.is_empty() || wanted.iter().any(|w| *w == stem)
    });
    files.sort();
    let jobs: usize = std::env::var("JOBS")
        .ok()
        .and_then(|j| j.parse().ok())
        .unwrap_or(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(cl) = files.get(i) else { break };
                let (row, version) = row(&bin, cl);
                eprintln!("{row}");
                if let Ok(mut r) = results.lock() {
                    r.push((i, row, version));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort();
    let tool = results
        .iter()
        .find_map(|(_, _, v)| v.clone())
        .unwrap_or_default();
    let rows: Vec<String> = results.into_iter().map(|(_, r, _)| r).collect();
    println!("Estimates per conformance kernel ({tool}; `cargo run --release -p ocl-hls --example estimates`).");
    println!();
    println!("| kernel | cores | de10 ALMs | de10 DSPs | de10 M10K | ulx3s LUT4s | ulx3s fmax (MHz, target 50) | fits de10 | build without estimates (s) | Yosys de10 (s) | Yosys ulx3s (s) | nextpnr (s) |");
    println!("|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|");
    for r in rows {
        println!("{r}");
    }
    ExitCode::SUCCESS
}
