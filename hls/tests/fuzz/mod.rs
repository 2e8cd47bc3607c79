//! The random-kernel fuzzer's runner: one generated kernel on POCL (`ocl-ref`), in the
//! interpreter and in Verilator; a disagreement is a failure of our engine unless POCL
//! without optimization (`-cl-opt-disable`) sides with it (then POCL is at fault).
//! Failing kernels are reduced by delta debugging over statements and written out with
//! their specs. Shared by `examples/fuzz.rs` (long runs) and `tests/fuzz_random.rs` (CI).

#![allow(dead_code)]

pub mod gen;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use gen::Program;
use ocl_hls::engine::{run_file, Engine, RunOptions};

/// What one engine did with a kernel.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Status {
    Agree,
    Differ(String),
    Error(String),
    /// Not run (an earlier step failed, or the engine was switched off).
    Skipped,
}

impl Status {
    pub fn word(&self) -> &'static str {
        match self {
            Status::Agree => "agree",
            Status::Differ(_) => "differ",
            Status::Error(_) => "error",
            Status::Skipped => "skipped",
        }
    }
}

/// The verdict on one kernel, per engine, with the cost of its hardware.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    pub pocl: Status,
    pub interp: Status,
    pub sim: Status,
    /// Optimized POCL differed and POCL `-cl-opt-disable` agreed with our engines.
    pub pocl_bug: bool,
    pub verilator_secs: f64,
    pub verilog_bytes: u64,
    pub verilog_lines: u64,
    pub cycles: u64,
}

impl Outcome {
    /// The failure our engines show, as a key reduction must keep: engine and kind (and
    /// the error's first line with its numbers blanked, so a reduced kernel keeps failing
    /// the same way).
    pub fn failure(&self) -> Option<String> {
        let key = |e: &str, s: &Status| match s {
            Status::Differ(_) => Some(format!("{e} differ")),
            Status::Error(m) => {
                let first = m.lines().next().unwrap_or("");
                let first = first.rsplit(": error: ").next().unwrap_or(first);
                let blank: String = first
                    .chars()
                    .map(|c| if c.is_ascii_digit() { '#' } else { c })
                    .collect();
                Some(format!("{e} error {blank}"))
            }
            _ => None,
        };
        key("interp", &self.interp)
            .or_else(|| key("sim", &self.sim))
            .or_else(|| key("pocl", &self.pocl).filter(|_| !self.pocl_bug))
    }
}

/// Paths and switches of a fuzz run.
#[derive(Clone, Debug)]
pub struct Config {
    pub ocl_ref: PathBuf,
    pub sim: bool,
    /// Float build options (`-cl-mad-enable`...) for the interpreter and Verilator. Under
    /// them results may differ from POCL's within bounds a hashed output cannot show, so
    /// POCL is not run and the hardware must match the interpreter bit for bit.
    pub math: ocl_hls::opt::fast_math::MathFlags,
    /// `--latency-weight` for the hardware's opt stage (`None`: the board's default), so
    /// that random kernels also reach the datapaths chosen by area alone.
    pub latency_weight: Option<f64>,
}

/// The `ocl-ref` binary (POCL runner): the newer of this workspace's builds.
pub fn ocl_ref_binary() -> Result<PathBuf, String> {
    // The target folder cargo builds into: CARGO_TARGET_DIR when set (worktrees sharing
    // one checkout's sources keep their own), else the workspace's.
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    ["debug/ocl-ref", "release/ocl-ref"]
        .iter()
        .map(|p| target.join(p))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .max()
        .map(|(_, p)| p)
        .ok_or_else(|| {
            "the ocl-ref binary is missing: run `cargo build --release -p ocl-ref` (POCL \
             comes from `bash scripts/install-deps.sh`)"
                .to_string()
        })
}

fn out_buffer(r: &ocl_hls::engine::RunResult) -> Vec<u8> {
    r.buffers
        .iter()
        .find(|(n, _)| n == "out")
        .map(|(_, b)| b.clone())
        .unwrap_or_default()
}

fn pocl(cfg: &Config, cl: &Path, spec: &Path, out: &Path, opt: bool) -> Result<Vec<u8>, String> {
    let _ = std::fs::remove_dir_all(out);
    let mut cmd = std::process::Command::new(&cfg.ocl_ref);
    cmd.arg("run")
        .arg(cl)
        .arg("--spec")
        .arg(spec)
        .arg("--out")
        .arg(out);
    if !opt {
        cmd.env("OCL_REF_BUILD_OPTIONS", "-cl-opt-disable");
    }
    let res = cmd.output().map_err(|e| format!("ocl-ref: {e}"))?;
    if !res.status.success() {
        return Err(String::from_utf8_lossy(&res.stderr).into_owned());
    }
    std::fs::read(out.join("out.bin")).map_err(|e| format!("ocl-ref out.bin: {e}"))
}

fn first_diff(a: &[u8], b: &[u8]) -> String {
    let words = |v: &[u8]| -> Vec<u32> {
        v.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    let (a, b) = (words(a), words(b));
    match a.iter().zip(&b).position(|(x, y)| x != y) {
        Some(i) => format!("out[{i}]: {:#010x} vs {:#010x}", a[i], b[i]),
        None => format!("{} vs {} words", a.len(), b.len()),
    }
}

/// Runs `src` with `spec` in `dir` (created; Verilator's files go below it and are
/// removed afterwards) on every engine.
pub fn check(cfg: &Config, src: &str, spec: &str, dir: &Path) -> Outcome {
    let mut o = Outcome {
        pocl: Status::Skipped,
        interp: Status::Skipped,
        sim: Status::Skipped,
        pocl_bug: false,
        verilator_secs: 0.0,
        verilog_bytes: 0,
        verilog_lines: 0,
        cycles: 0,
    };
    let _ = std::fs::create_dir_all(dir);
    let cl = dir.join("rk.cl");
    let yaml = dir.join("rk.yaml");
    if let Err(e) = std::fs::write(&cl, src).and_then(|_| std::fs::write(&yaml, spec)) {
        o.interp = Status::Error(format!("{}: {e}", dir.display()));
        return o;
    }
    let run = |engine| {
        let mut opts = RunOptions {
            engine,
            ..RunOptions::default()
        };
        opts.opt.math = cfg.math;
        opts.opt.latency_weight = cfg.latency_weight;
        run_file(&cl, &yaml, &opts)
    };
    let int = run(Engine::Interp).map(|r| out_buffer(&r));
    let relaxed = cfg.math != Default::default();
    let pc = if relaxed {
        Err("not run under float build options".to_string())
    } else {
        pocl(cfg, &cl, &yaml, &dir.join("pocl"), true)
    };
    // The reference the hardware must match: the interpreter once it agrees with POCL
    // (or with unoptimized POCL), else POCL.
    let reference = match (&int, &pc) {
        // Under float build options: the interpreter is the reference (it ran; POCL not).
        (Ok(i), _) if relaxed => {
            o.interp = Status::Agree;
            Some(i.clone())
        }
        (Err(e), _) => {
            o.interp = Status::Error(e.to_string());
            pc.as_ref().ok().cloned()
        }
        (Ok(_), Err(e)) => {
            o.pocl = Status::Error(e.clone());
            o.interp = Status::Skipped;
            None
        }
        (Ok(i), Ok(p)) if i == p => {
            o.pocl = Status::Agree;
            o.interp = Status::Agree;
            Some(i.clone())
        }
        (Ok(i), Ok(p)) => match pocl(cfg, &cl, &yaml, &dir.join("pocl-O0"), false) {
            Ok(p0) if &p0 == i => {
                o.pocl = Status::Differ(format!("optimized POCL: {}", first_diff(p, i)));
                o.pocl_bug = true;
                o.interp = Status::Agree;
                Some(i.clone())
            }
            Ok(p0) => {
                o.pocl = Status::Agree;
                o.interp = Status::Differ(format!("interp vs POCL: {}", first_diff(i, &p0)));
                Some(p0)
            }
            Err(e) => {
                o.pocl = Status::Error(format!("-cl-opt-disable: {e}"));
                None
            }
        },
    };
    if !cfg.sim {
        return o;
    }
    let Some(reference) = reference else {
        return o;
    };
    let vdir = dir.join("sim");
    std::env::set_var("OCL_HLS_SIM_DIR", vdir.join("rtl"));
    std::env::set_var("OCL_HLS_VERILATOR_CACHE", vdir.join("verilator"));
    // Each model is built once and runs a few thousand cycles: skip C++ optimization
    // unless the caller chose a level.
    if std::env::var_os("OCL_HLS_VERILATOR_OPT").is_none() {
        std::env::set_var("OCL_HLS_VERILATOR_OPT", "-O0");
    }
    let t = Instant::now();
    let sim = run(Engine::Sim);
    o.verilator_secs = t.elapsed().as_secs_f64();
    for f in walk(&vdir.join("rtl")) {
        if f.extension().is_some_and(|x| x == "v") {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            o.verilog_bytes += text.len() as u64;
            o.verilog_lines += text.lines().count() as u64;
        }
    }
    let _ = std::fs::remove_dir_all(&vdir);
    o.sim = match sim {
        Err(e) => Status::Error(e.to_string()),
        Ok(r) => {
            o.cycles = r.record.cycles.unwrap_or(0);
            let s = out_buffer(&r);
            if s == reference {
                Status::Agree
            } else {
                Status::Differ(format!("sim vs reference: {}", first_diff(&s, &reference)))
            }
        }
    };
    o
}

fn walk(d: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(d) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// Delta debugging over the statements of `p`: the largest set of statements whose
/// removal keeps `failure` (at most `budget` runs). Returns the reduced source.
pub fn reduce(cfg: &Config, p: &Program, failure: &str, dir: &Path, budget: usize) -> String {
    let n = p.count();
    let mut drop = BTreeSet::new();
    let mut runs = 0;
    let mut chunk = n.div_ceil(2).max(1);
    loop {
        let mut i = 0;
        while i < n && runs < budget {
            let cand: BTreeSet<usize> = drop.iter().copied().chain(i..(i + chunk).min(n)).collect();
            if cand.len() > drop.len() {
                runs += 1;
                let o = check(cfg, &p.render(&cand), &p.spec, &dir.join("reduce"));
                if o.failure().as_deref() == Some(failure) {
                    drop = cand;
                }
            }
            i += chunk;
        }
        if chunk == 1 || runs >= budget {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    let _ = std::fs::remove_dir_all(dir.join("reduce"));
    p.render(&drop)
}

/// Writes a failing kernel (reduced) under `root/seed-N/` as `fuzz_N.cl` with its spec
/// and what failed; returns the folder.
pub fn save(root: &Path, seed: u64, src: &str, spec: &str, why: &str) -> PathBuf {
    let d = root.join(format!("seed-{seed}"));
    let _ = std::fs::create_dir_all(&d);
    let _ = std::fs::write(d.join(format!("fuzz_{seed}.cl")), src);
    let _ = std::fs::write(d.join(format!("fuzz_{seed}.yaml")), spec);
    let _ = std::fs::write(d.join("FAILURE.txt"), format!("{why}\n"));
    d
}
