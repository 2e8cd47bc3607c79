//! The opt stage measured by Yosys: per conformance kernel, `ocl-hls build --board de10`
//! with the stage on and with `--no-opt`, the ALMs, DSPs and flip-flops Yosys estimates for each,
//! the change, and the stage's own time (from `--explain-rewrites`), as a Markdown table
//! with the geometric mean of the ALM ratio.
//!
//! Run: `cargo build -p ocl-hls && cargo run -p ocl-hls --example opt_bench [--datapath | --hierarchy | --own-logic] [KERNEL...]`
//! (KERNEL: a conformance kernel's name, or any kernel's `.cl` path, such as the project's
//! `tests/kernels/*.cl`, whose launch spec gives its defines; default: every conformance
//! kernel; two Yosys runs each, minutes per kernel, run at
//! the same time). Needs `yosys` on PATH (`bash scripts/install-deps.sh`). With
//! `OHLS_BENCH_BEFORE=PATH` naming another `ocl-hls` binary (an earlier build of the
//! stage), its build with the stage on is a third column: the table before and after a
//! change of the stage in one run (`--no-opt` does not depend on the stage).
//!
//! With `--datapath`, Yosys synthesises only each kernel's datapath module (the
//! operations, their registers and the address arithmetic: what the stage rewrites),
//! not the memory units, control registers and counters around it: the stage's effect
//! on the part it can change. With `--own-logic`, the datapath's own logic alone: the
//! library's units (`ohls_*`: float operators, RAMs, delay lines, memory ports) become
//! black boxes, so the table shows the integer logic, address arithmetic, pipeline
//! registers and control the stage and the generator decide, without the float units'
//! ALMs diluting the change (and at a fraction of the Yosys time). With `--hierarchy`,
//! the datapath module as with `--datapath` but not flattened (`synth_intel_alm
//! -noflatten`): each unit is synthesised once per parameter set and counted once per
//! instance (Yosys's totals over the design hierarchy), without the optimizations across
//! a unit's ports. For math_builtins, whose flattened datapath (its float units inlined
//! many times over) keeps Yosys busy for hours. The nets are split before the LUT mapping
//! (`splitnets`), which keeps Yosys 0.23's `abc9` from asserting on that hierarchy.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

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
    bin.is_file().then_some(bin.clone()).ok_or_else(|| {
        format!(
            "{} is missing: run `cargo build -p ocl-hls` (same profile) first",
            bin.display()
        )
    })
}

/// One measured build.
struct Measured {
    alms: u64,
    dsps: u64,
    /// Flip-flops (registers).
    ffs: u64,
    /// The opt stage's milliseconds summed over the file's kernels (0 with `--no-opt`).
    opt_ms: f64,
}

/// The stage's time from `--explain-rewrites` lines (`...; 13.9 ms; saturation: ...`).
fn opt_millis(stdout: &str) -> f64 {
    stdout
        .lines()
        .filter(|l| l.starts_with("opt: kernel "))
        .filter_map(|l| {
            let ms = l.split("; ").find(|p| p.ends_with(" ms"))?;
            ms.trim_end_matches(" ms").parse::<f64>().ok()
        })
        .sum()
}

/// What Yosys synthesises of a build.
#[derive(Clone, Copy, PartialEq)]
enum Scope {
    /// The whole core (the build's own estimate).
    Core,
    /// Each kernel's datapath module alone.
    Datapath,
    /// The datapath module synthesised without flattening, totals over its hierarchy.
    Hierarchy,
    /// The datapath module with the library's units as black boxes.
    OwnLogic,
}

/// ALMs and DSP blocks of every kernel's datapath module in `out` (a build's folder).
fn synth_datapaths(out: &Path, report: &Value, scope: Scope) -> Result<(u64, u64, u64), String> {
    use ocl_hls::estimate::{cells::Library, yosys, CoreSource};
    use rtl_templates::area::MistralCells;
    let rtl = out.join("rtl");
    let mut files: Vec<(String, String)> = Vec::new();
    for e in std::fs::read_dir(&rtl).map_err(|e| e.to_string())? {
        let p = e.map_err(|e| e.to_string())?.path();
        if p.extension().is_some_and(|x| x == "v") {
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let mut text = std::fs::read_to_string(&p).map_err(|e| e.to_string())?;
            if scope == Scope::OwnLogic && name.starts_with("ohls_") {
                text = blackboxed(&text);
            }
            files.push((name, text));
        }
    }
    let (mut alms, mut dsps, mut ffs) = (0, 0, 0);
    for k in report["kernels"]
        .as_array()
        .ok_or("no kernels in report.json")?
    {
        let top = k["files"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .find_map(|f| f.strip_suffix("_datapath.v"))
            .map(|s| format!("{s}_datapath"))
            .ok_or("no datapath module in report.json")?;
        // The build's own synthesis, with the datapath as the top module.
        let dir = out.join(format!("yosys-{top}"));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let core = CoreSource {
            top: &top,
            files: &files,
            templates: &[],
        };
        let lib = Library::IntelAlm;
        // Yosys 0.23's abc9 asserts (`count_id(cell->name) == 0`, YosysHQ/yosys#4451) when
        // it maps math_builtins' hierarchy; splitting the nets before the LUT mapping, as
        // the Yosys maintainers suggest there, avoids it. The function is the same, the
        // mapping moves by a few ALMs (ivdep_offset: 947 -> 951 off, 760 -> 757 on).
        let intel = "synth_intel_alm -family cyclonev";
        let synth = match scope {
            Scope::Hierarchy => {
                let whole = yosys::synth_command(&format!("{intel} -noflatten"), lib, &top);
                format!("{whole} -run :map_luts; splitnets; {intel} -noflatten -run map_luts:")
            }
            _ => intel.to_string(),
        };
        let got = yosys::synthesise(Path::new("yosys"), &dir, &core, &synth, lib, false)?;
        let m = MistralCells::from_counts(&got.cells);
        alms += m.alms();
        dsps += m.dsp_blocks();
        ffs += m.ff;
    }
    Ok((alms, dsps, ffs))
}

/// `text` with every module declared a black box (ports kept, contents gone to Yosys).
fn blackboxed(text: &str) -> String {
    text.lines()
        .map(|l| match l.trim_start().strip_prefix("module ") {
            Some(rest) => format!("(* blackbox *) module {rest}"),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn build(bin: &Path, cl: &Path, opt: bool, tag: &str, scope: Scope) -> Result<Measured, String> {
    let stem = cl.file_stem().unwrap_or_default().to_string_lossy();
    let out =
        std::env::temp_dir().join(format!("ohls-optbench-{}-{stem}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let mut cmd = Command::new(bin);
    cmd.arg("build").arg(cl).args([
        "--board",
        "de10",
        "--allow-overfit",
        "--no-vendor",
        "--explain-rewrites",
        "-o",
    ]);
    cmd.arg(&out);
    if !opt {
        cmd.arg("--no-opt");
    }
    if scope != Scope::Core {
        cmd.arg("--no-estimate");
    }
    // A launch spec next to the kernel gives its `-D` defines.
    if let Ok(spec) = ocl_hls::launch::LaunchSpec::load(&cl.with_extension("yaml")) {
        for (k, v) in &spec.defines {
            match &v.0 {
                Some(v) => cmd.arg("-D").arg(format!("{k}={v}")),
                None => cmd.arg("-D").arg(k),
            };
        }
    }
    let r = cmd.output().map_err(|e| e.to_string())?;
    if !r.status.success() {
        let err = String::from_utf8_lossy(&r.stderr);
        return Err(err.lines().last().unwrap_or("").replace('|', "/"));
    }
    let text = std::fs::read_to_string(out.join("report.json")).map_err(|e| e.to_string())?;
    let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let opt_ms = opt_millis(&String::from_utf8_lossy(&r.stdout));
    if scope != Scope::Core {
        let got = synth_datapaths(&out, &v, scope);
        let _ = std::fs::remove_dir_all(&out);
        let (alms, dsps, ffs) = got?;
        return Ok(Measured {
            alms,
            dsps,
            ffs,
            opt_ms,
        });
    }
    let _ = std::fs::remove_dir_all(&out);
    let e = &v["estimates"];
    if e["status"] != "done" {
        return Err(format!("estimates {}: {}", e["status"], e["note"]));
    }
    let used = |k: &str| e["total"][k]["used"].as_u64().unwrap_or(0);
    Ok(Measured {
        alms: used("logic"),
        dsps: used("dsps"),
        ffs: used("registers"),
        opt_ms,
    })
}

fn main() -> ExitCode {
    if Command::new("yosys").arg("-V").output().is_err() {
        eprintln!("yosys is not on PATH: run `bash scripts/install-deps.sh`");
        return ExitCode::FAILURE;
    }
    let bin = match binary() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    // Conformance kernels by name; any other kernel by its `.cl` path (the project's).
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scope = if args.iter().any(|a| a == "--own-logic") {
        Scope::OwnLogic
    } else if args.iter().any(|a| a == "--hierarchy") {
        Scope::Hierarchy
    } else if args.iter().any(|a| a == "--datapath") {
        Scope::Datapath
    } else {
        Scope::Core
    };
    let (paths, wanted): (Vec<String>, Vec<String>) = args
        .into_iter()
        .filter(|a| !matches!(a.as_str(), "--datapath" | "--hierarchy" | "--own-logic"))
        .partition(|a| a.ends_with(".cl"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(kernels_dir())
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| {
        let stem = p.file_stem().unwrap_or_default().to_string_lossy();
        p.extension().is_some_and(|x| x == "cl")
            && ((wanted.is_empty() && paths.is_empty()) || wanted.iter().any(|w| *w == stem))
    });
    files.sort();
    files.extend(paths.iter().map(PathBuf::from));
    let before = std::env::var_os("OHLS_BENCH_BEFORE").map(PathBuf::from);
    match scope {
        Scope::Datapath => {
            println!("Yosys ALMs and DSPs of the datapath modules alone (--datapath)\n")
        }
        Scope::Hierarchy => println!(
            "Yosys ALMs and DSPs of the datapath modules, not flattened: each unit once per \
             parameter set, counted per instance (--hierarchy)\n"
        ),
        Scope::OwnLogic => println!(
            "Yosys ALMs and DSPs of the datapath modules' own logic, the library's units \
             as black boxes (--own-logic)\n"
        ),
        Scope::Core => {}
    }
    match &before {
        Some(_) => {
            println!(
                "| kernel | ALMs off | ALMs on before | ALMs on | change before | change | \
                 DSPs off | DSPs on before | DSPs on | FFs off | FFs on before | FFs on | \
                 opt stage (ms) |"
            );
            println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        }
        None => {
            println!(
                "| kernel | ALMs off | ALMs on | ALMs change | DSPs off | DSPs on | FFs off | FFs on \
                 | opt stage (ms) |"
            );
            println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        }
    }
    let pct = |on: u64, off: u64| (on as f64 / off.max(1) as f64 - 1.0) * 100.0;
    let (mut logs, mut logs_before, mut n) = (0.0f64, 0.0f64, 0u32);
    // The goal says "never more on any kernel": the kernels that break it, named.
    let (mut more, mut failed) = (Vec::new(), Vec::new());
    for cl in &files {
        let name = cl.file_stem().unwrap_or_default().to_string_lossy();
        eprintln!("{name} ...");
        // The builds run at once: each is one Yosys process.
        let (off, on, was) = std::thread::scope(|s| {
            let off = s.spawn(|| build(&bin, cl, false, "off", scope));
            let was = before
                .as_ref()
                .map(|b| s.spawn(|| build(b, cl, true, "before", scope)));
            let on = build(&bin, cl, true, "on", scope);
            let join = |h: std::thread::ScopedJoinHandle<'_, Result<Measured, String>>| {
                h.join()
                    .unwrap_or_else(|_| Err("a build thread failed".into()))
            };
            (join(off), on, was.map(join))
        });
        let (off, on) = match (off, on) {
            (Ok(off), Ok(on)) => (off, on),
            (Err(e), _) | (_, Err(e)) => {
                failed.push(name.to_string());
                // The whole error (with the tail of Yosys's log, whose folder is gone
                // now) on stderr; one table row with its first line.
                eprintln!("{name}: {e}");
                let e = e.lines().next().unwrap_or("").replace('|', "/");
                println!("| {name} | {e} | | | | | |");
                continue;
            }
        };
        let ratio = on.alms as f64 / off.alms.max(1) as f64;
        if on.alms > off.alms {
            more.push(format!("{name} (+{})", on.alms - off.alms));
        }
        logs += ratio.ln();
        n += 1;
        match was {
            Some(Ok(was)) => {
                logs_before += (was.alms as f64 / off.alms.max(1) as f64).ln();
                println!(
                    "| {name} | {} | {} | {} | {:+.1}% | {:+.1}% | {} | {} | {} | {} | {} | {} | \
                     {:.1} |",
                    off.alms,
                    was.alms,
                    on.alms,
                    pct(was.alms, off.alms),
                    pct(on.alms, off.alms),
                    off.dsps,
                    was.dsps,
                    on.dsps,
                    off.ffs,
                    was.ffs,
                    on.ffs,
                    on.opt_ms
                );
            }
            Some(Err(e)) => println!("| {name} | {} | {e} | {} | | | | | | |", off.alms, on.alms),
            None => println!(
                "| {name} | {} | {} | {:+.1}% | {} | {} | {} | {} | {:.1} |",
                off.alms,
                on.alms,
                pct(on.alms, off.alms),
                off.dsps,
                on.dsps,
                off.ffs,
                on.ffs,
                on.opt_ms
            ),
        }
    }
    let mean = |l: f64| (l / n.max(1) as f64).exp();
    println!(
        "\n{n} kernels: geometric mean of ALMs on/off {:.3}",
        mean(logs)
    );
    if more.is_empty() {
        println!("more ALMs with the stage on: none");
    } else {
        println!("more ALMs with the stage on: {}", more.join(", "));
        if scope == Scope::OwnLogic {
            // A divider the stage turns into a multiply is a black box off and logic on.
            println!(
                "(own logic leaves out the units the stage removes: judge these with --datapath)"
            );
        }
    }
    if !failed.is_empty() {
        println!("not measured: {}", failed.join(", "));
    }
    if before.is_some() {
        println!(
            "before: geometric mean of ALMs on/off {:.3}",
            mean(logs_before)
        );
    }
    ExitCode::SUCCESS
}
