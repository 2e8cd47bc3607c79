//! Random-kernel fuzzing, long runs: `cargo run --release -p ocl-hls --example fuzz --
//! --seeds 1-500 --jobs 2` generates one well-defined kernel per seed, runs it on POCL,
//! in the interpreter and in Verilator, prints a line per kernel (verdicts, Verilator
//! build time, Verilog size) and agree/differ/error counts per engine, and writes every
//! failing kernel, reduced, with its spec under `tests/fuzz/seed-N/`.
//!
//! Each kernel runs in a child process of this program (`--one SEED`), so parallel jobs
//! keep their Verilator folders apart and a crash stops one kernel, not the run.

#[path = "../tests/fuzz/mod.rs"]
mod fuzz;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use fuzz::{Config, Outcome, Status};

struct Args {
    seeds: Vec<u64>,
    jobs: usize,
    sim: bool,
    budget: usize,
    out: PathBuf,
    work: PathBuf,
    one: Option<u64>,
    small: bool,
    print: bool,
    math: Vec<String>,
    latency_weight: Option<f64>,
}

fn usage() -> String {
    "usage: fuzz [--seeds A-B] [--jobs N] [--no-sim] [--small] [--print] [--reduce-budget N] [--out DIR] [--work DIR] [--math OPTION]... [--latency-weight W]"
        .into()
}

const HELP: &str = "\
Generates one well-defined random OpenCL kernel per seed and runs it on POCL, in the
interpreter and in Verilator; failing kernels are reduced and saved with their specs.

  --seeds A-B          seeds to run (default 1-20); one seed: --seeds 7
  --jobs N             kernels checked at once (default 2)
  --no-sim             skip Verilator (POCL and the interpreter only)
  --small              the small generator CI uses
  --print              print each seed's kernel instead of checking it
  --reduce-budget N    reduction steps per failing kernel (default 40; 0: save unreduced)
  --out DIR            where failing kernels go (default tests/fuzz)
  --work DIR           scratch folders (default target/fuzz)
  --math OPTION        a float build option (-cl-mad-enable, -cl-fast-relaxed-math...)
                       for the interpreter and Verilator, which must then agree bit for
                       bit; POCL is not run (repeatable)
  --latency-weight W   the opt stage's weight of a cycle of latency for the hardware
                       (0: datapaths chosen by area alone, dividers kept)

examples:
  cargo run --release -p ocl-hls --example fuzz -- --seeds 1-500 --jobs 2
  cargo run --release -p ocl-hls --example fuzz -- --seeds 20114 --reduce-budget 0
  cargo run --release -p ocl-hls --example fuzz -- --seeds 1-50 --math -cl-fast-relaxed-math
  cargo run --release -p ocl-hls --example fuzz -- --seeds 1-50 --latency-weight 0
";

fn parse() -> Result<Args, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut a = Args {
        seeds: (1..=20).collect(),
        jobs: 2,
        sim: true,
        budget: 40,
        out: root.join("tests/fuzz"),
        work: root.join("target/fuzz"),
        one: None,
        small: false,
        print: false,
        math: Vec::new(),
        latency_weight: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut val = || {
            it.next()
                .ok_or_else(|| format!("{k} needs a value; {}", usage()))
        };
        match k.as_str() {
            "--seeds" => {
                let v = val()?;
                let (lo, hi) = v.split_once('-').unwrap_or((&v, &v));
                let p = |s: &str| s.parse::<u64>().map_err(|e| format!("--seeds {v}: {e}"));
                a.seeds = (p(lo)?..=p(hi)?).collect();
            }
            "--jobs" => a.jobs = val()?.parse().map_err(|e| format!("--jobs: {e}"))?,
            "--reduce-budget" => {
                a.budget = val()?
                    .parse()
                    .map_err(|e| format!("--reduce-budget: {e}"))?
            }
            "--out" => a.out = PathBuf::from(val()?),
            "--work" => a.work = PathBuf::from(val()?),
            "--one" => a.one = Some(val()?.parse().map_err(|e| format!("--one: {e}"))?),
            "--no-sim" => a.sim = false,
            "--small" => a.small = true,
            "--print" => a.print = true,
            "--math" => a.math.push(val()?),
            "--latency-weight" => {
                let v = val()?;
                match v.parse::<f64>() {
                    Ok(w) if w.is_finite() && w >= 0.0 => a.latency_weight = Some(w),
                    _ => return Err(format!("--latency-weight {v}: not a number from 0 up")),
                }
            }
            "-h" | "--help" => {
                print!("{}\n\n{HELP}", usage());
                std::process::exit(0);
            }
            _ => return Err(format!("unknown option {k}; {}", usage())),
        }
    }
    Ok(a)
}

/// The child: one seed, checked (and reduced and saved when it fails); the outcome goes
/// to standard output as one JSON line.
fn one(a: &Args, cfg: &Config, seed: u64) -> ExitCode {
    let p = if a.small {
        fuzz::gen::Program::generate_small(seed)
    } else {
        fuzz::gen::Program::generate(seed)
    };
    let dir = a.work.join(format!("seed-{seed}"));
    let src = p.render(&Default::default());
    let o = fuzz::check(cfg, &src, &p.spec, &dir);
    let mut saved = None;
    if let Some(f) = o.failure() {
        let small = fuzz::reduce(cfg, &p, &f, &dir, a.budget);
        let why = format!(
            "{f}\npocl: {:?}\ninterp: {:?}\nsim: {:?}",
            o.pocl, o.interp, o.sim
        );
        saved = Some(fuzz::save(&a.out, seed, &small, &p.spec, &why));
    }
    let _ = std::fs::remove_dir_all(&dir);
    let lines = src.lines().count();
    println!(
        "OUTCOME {}",
        serde_json::json!({"outcome": o, "saved": saved, "lines": lines})
    );
    ExitCode::SUCCESS
}

#[derive(Default)]
struct Counts {
    by: [[u64; 4]; 3],
    pocl_bugs: u64,
    crashes: u64,
    saved: Vec<String>,
}

fn slot(s: &Status) -> usize {
    match s {
        Status::Agree => 0,
        Status::Differ(_) => 1,
        Status::Error(_) => 2,
        Status::Skipped => 3,
    }
}

fn main() -> ExitCode {
    let a = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("fuzz: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut math = ocl_hls::opt::fast_math::MathFlags::default();
    if let Some(bad) = a.math.iter().find(|m| !math.set(m)) {
        eprintln!(
            "fuzz: error: --math {bad}: not one of {}",
            ocl_hls::opt::fast_math::MathFlags::spellings()
                .collect::<Vec<_>>()
                .join(", ")
        );
        return ExitCode::FAILURE;
    }
    let cfg = match fuzz::ocl_ref_binary() {
        Ok(ocl_ref) => Config {
            ocl_ref,
            sim: a.sim,
            math,
            latency_weight: a.latency_weight,
        },
        Err(e) => {
            eprintln!("fuzz: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if a.print {
        // The kernels and specs alone, for reading or for other tools.
        for &seed in &a.seeds {
            let p = if a.small {
                fuzz::gen::Program::generate_small(seed)
            } else {
                fuzz::gen::Program::generate(seed)
            };
            println!("{}\n/* spec:\n{}*/", p.render(&Default::default()), p.spec);
        }
        return ExitCode::SUCCESS;
    }
    if let Some(seed) = a.one {
        return one(&a, &cfg, seed);
    }
    let exe = std::env::current_exe().expect("own path");
    let next = AtomicUsize::new(0);
    let counts = Mutex::new(Counts::default());
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..a.jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(&seed) = a.seeds.get(i) else { break };
                let mut cmd = std::process::Command::new(&exe);
                cmd.args(["--one", &seed.to_string(), "--reduce-budget"])
                    .arg(a.budget.to_string())
                    .arg("--out")
                    .arg(&a.out)
                    .arg("--work")
                    .arg(&a.work);
                if !a.sim {
                    cmd.arg("--no-sim");
                }
                if a.small {
                    cmd.arg("--small");
                }
                for m in &a.math {
                    cmd.args(["--math", m]);
                }
                if let Some(w) = a.latency_weight {
                    cmd.args(["--latency-weight", &w.to_string()]);
                }
                let res = cmd.output();
                let line = res.as_ref().ok().and_then(|r| {
                    String::from_utf8_lossy(&r.stdout)
                        .lines()
                        .find_map(|l| l.strip_prefix("OUTCOME ").map(str::to_string))
                });
                let parsed = line.and_then(|l| serde_json::from_str::<serde_json::Value>(&l).ok());
                let mut c = counts.lock().unwrap();
                let Some(v) = parsed else {
                    let err = res
                        .map(|r| String::from_utf8_lossy(&r.stderr).into_owned())
                        .unwrap_or_else(|e| e.to_string());
                    println!("seed {seed}: the checker crashed: {}", err.trim());
                    c.crashes += 1;
                    continue;
                };
                let o: Outcome = serde_json::from_value(v["outcome"].clone()).expect("outcome");
                for (e, st) in [&o.pocl, &o.interp, &o.sim].into_iter().enumerate() {
                    c.by[e][slot(st)] += 1;
                }
                c.pocl_bugs += o.pocl_bug as u64;
                let mut msg = format!(
                    "seed {seed}: {} lines; pocl {}, interp {}, sim {}; Verilog {} lines ({} KB), Verilator {:.1} s, {} cycles",
                    v["lines"],
                    o.pocl.word(),
                    o.interp.word(),
                    o.sim.word(),
                    o.verilog_lines,
                    o.verilog_bytes / 1024,
                    o.verilator_secs,
                    o.cycles
                );
                if o.pocl_bug {
                    msg.push_str(" [POCL bug: -cl-opt-disable agrees with us]");
                }
                for st in [&o.pocl, &o.interp, &o.sim] {
                    if let Status::Differ(m) | Status::Error(m) = st {
                        msg.push_str(&format!("\n    {}", m.lines().next().unwrap_or("")));
                    }
                }
                if let Some(d) = v["saved"].as_str() {
                    msg.push_str(&format!("\n    reduced kernel written to {d}"));
                    c.saved.push(d.to_string());
                }
                println!("{msg}");
                let _ = std::io::stdout().flush();
            });
        }
    });
    let c = counts.into_inner().unwrap();
    println!(
        "\n{} kernels in {:.0} s (agree / differ / error / skipped):",
        a.seeds.len(),
        start.elapsed().as_secs_f64()
    );
    for (e, name) in ["pocl", "interp", "sim"].iter().enumerate() {
        let b = c.by[e];
        println!("  {name:7} {} / {} / {} / {}", b[0], b[1], b[2], b[3]);
    }
    println!(
        "  POCL miscompiles (unoptimized POCL agrees with us): {}",
        c.pocl_bugs
    );
    println!(
        "  checker crashes (generator or runner bugs): {}",
        c.crashes
    );
    if c.saved.is_empty() && c.crashes == 0 {
        println!("no failing kernels");
        ExitCode::SUCCESS
    } else {
        println!(
            "failing kernels (reduced) written to:\n  {}",
            c.saved.join("\n  ")
        );
        ExitCode::FAILURE
    }
}
