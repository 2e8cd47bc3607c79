//! The bounded fuzz run of CI: a few random well-defined kernels (hls/tests/fuzz) on
//! POCL, in the interpreter and in Verilator must agree. The seeds come from the commit
//! (`git rev-parse HEAD`, or `OCL_HLS_RANDOM_SEED`), so every commit explores new kernels
//! and a failure names the seed that reproduces it with the long-run command.

mod fuzz;

use std::path::Path;

/// Kernels per run: each costs one Verilator build (tens of seconds on two cores).
const KERNELS: u64 = 2;

fn base_seed() -> u64 {
    if let Ok(s) = std::env::var("OCL_HLS_RANDOM_SEED") {
        return s.trim().parse().expect("OCL_HLS_RANDOM_SEED is a number");
    }
    let out = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    let hash = out
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    // Outside a checkout there is no commit: a fixed seed keeps the run reproducible.
    let hex: String = hash.chars().take(8).collect();
    u64::from_str_radix(&hex, 16).unwrap_or(1) % 1_000_000_000
}

#[test]
fn random_kernels_agree_on_pocl_interp_and_verilator() {
    let cfg = fuzz::Config {
        ocl_ref: fuzz::ocl_ref_binary().unwrap_or_else(|e| panic!("{e}")),
        sim: true,
        math: Default::default(),
        latency_weight: None,
    };
    let base = base_seed();
    let work = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fuzz-ci");
    let mut failures = Vec::new();
    for seed in base..base + KERNELS {
        let p = fuzz::gen::Program::generate_small(seed);
        let src = p.render(&Default::default());
        let dir = work.join(format!("seed-{seed}"));
        let o = fuzz::check(&cfg, &src, &p.spec, &dir);
        println!(
            "seed {seed}: pocl {}, interp {}, sim {}; Verilog {} lines, Verilator {:.1} s{}",
            o.pocl.word(),
            o.interp.word(),
            o.sim.word(),
            o.verilog_lines,
            o.verilator_secs,
            if o.pocl_bug { " (POCL miscompile)" } else { "" }
        );
        if let Some(f) = o.failure() {
            failures.push(format!(
                "seed {seed}: {f}\n  pocl: {:?}\n  interp: {:?}\n  sim: {:?}\n  kernel: {}\n  \
                 reproduce and reduce: cargo run --release -p ocl-hls --example fuzz -- \
                 --seeds {seed}-{seed} --small",
                o.pocl,
                o.interp,
                o.sim,
                dir.join("rk.cl").display()
            ));
        } else if o.sim == fuzz::Status::Skipped {
            failures.push(format!("seed {seed}: Verilator did not run"));
        } else {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
