//! Build time per conformance kernel: `cargo bench -p ocl-hls --bench build`. Runs the
//! release `ocl-hls build K.cl --board B -o OUT --no-estimate --no-vendor` (the command
//! users type, process start included; Yosys estimates and Quartus skipped: they report
//! their own times) for the `sim` and `de10` boards, best of 3 runs each, and prints a table
//! with the maximum. The target (issue 5/6) is under 1 s per kernel. Kernels the
//! generator refuses fail the build quickly; they are listed as refused, not timed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const BOARDS: [&str; 2] = ["sim", "de10"];
const RUNS: usize = 3;

fn kernels() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/kernels");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    v.sort();
    v
}

/// The best time of `RUNS` builds, or the first line of the error.
fn time_build(cl: &Path, board: &str, out: &Path) -> Result<Duration, String> {
    let mut best = Duration::MAX;
    for _ in 0..RUNS {
        // OUT is replaced only when it holds an earlier build; start clean each time.
        let _ = std::fs::remove_dir_all(out);
        let t = Instant::now();
        let o = Command::new(env!("CARGO_BIN_EXE_ocl-hls"))
            .arg("build")
            .arg(cl)
            .args(["--board", board, "--no-estimate", "--no-vendor", "-o"])
            .arg(out)
            .output()
            .map_err(|e| format!("cannot run ocl-hls: {e}"))?;
        let took = t.elapsed();
        if !o.status.success() {
            let err = String::from_utf8_lossy(&o.stderr);
            let first = err
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or("failed")
                .to_string();
            return Err(first);
        }
        best = best.min(took);
    }
    Ok(best)
}

fn main() {
    let tmp = std::env::temp_dir().join(format!("ocl-hls-build-bench-{}", std::process::id()));
    println!("`ocl-hls build --no-estimate --no-vendor` wall time, best of {RUNS} (release binary; machine shared)\n");
    println!("{:<18} {:>10} {:>10}", "kernel", BOARDS[0], BOARDS[1]);
    let mut max = [Duration::ZERO; 2];
    let mut refused = Vec::new();
    let mut built = 0;
    for cl in kernels() {
        let name = cl
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut cells = Vec::new();
        for (i, b) in BOARDS.iter().enumerate() {
            match time_build(&cl, b, &tmp.join(b)) {
                Ok(d) => {
                    max[i] = max[i].max(d);
                    built += 1;
                    cells.push(format!("{:.0} ms", d.as_secs_f64() * 1000.0));
                }
                Err(e) => {
                    if i == 0 {
                        refused.push(format!("{name}: {e}"));
                    }
                    cells.push("refused".into());
                }
            }
        }
        println!("{name:<18} {:>10} {:>10}", cells[0], cells[1]);
    }
    println!(
        "{:<18} {:>10} {:>10}",
        "max",
        format!("{:.0} ms", max[0].as_secs_f64() * 1000.0),
        format!("{:.0} ms", max[1].as_secs_f64() * 1000.0)
    );
    println!("\n{built} builds timed; target: under 1000 ms per kernel");
    if !refused.is_empty() {
        println!("refused by the generator (the build stops before writing):");
        for r in refused {
            println!("  {r}");
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
