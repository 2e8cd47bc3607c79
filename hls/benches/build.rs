//! Build time per conformance kernel: `cargo bench -p ocl-hls --bench build`. Runs the
//! release `ocl-hls build K.cl --board B -o OUT --no-estimate --no-vendor` (the command
//! users type, process start included; Yosys estimates and Quartus skipped: they report
//! their own times) for the `sim` and `de10` boards, best of 3 runs each, and prints a table
//! with the maximum. The target (issue 10) is under 0.3 s per kernel. Kernels the
//! generator refuses fail the build quickly; they are listed as refused, not timed.
//! A second table runs the compile pipeline in-process for `de10` and prints the time of
//! each stage (best of 3), so a slow stage is named.

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
    println!("\n{built} builds timed; target: under 300 ms per kernel");
    if !refused.is_empty() {
        println!("refused by the generator (the build stops before writing):");
        for r in refused {
            println!("  {r}");
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    stage_table();
}

/// Per conformance kernel, the time of each stage of `compile::compile` on `de10`,
/// best of `RUNS` (frontend and lowering run once per file outside this table).
fn stage_table() {
    use ocl_hls::compile::{compile_file, Stage};
    let boards = ocl_hls::board::BoardSet::builtin().expect("boards");
    let board = boards.get("de10-nano").expect("de10-nano");
    let cfg = ocl_hls::project::shell_config_for(board);
    println!("\ncompile stages in-process on de10-nano, ms, best of {RUNS}\n");
    let mut head = format!("{:<18}", "kernel");
    for s in Stage::KERNEL {
        head.push_str(&format!(" {:>9}", s.name()));
    }
    println!("{head} {:>9}", "total");
    for cl in kernels() {
        let name = cl
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut best: Option<ocl_hls::compile::StageTimes> = None;
        for _ in 0..RUNS {
            match compile_file(&cl, &Default::default(), None, board, &cfg) {
                Ok((c, _)) => {
                    if best.as_ref().is_none_or(|b| c.times.total() < b.total()) {
                        best = Some(c.times);
                    }
                }
                Err(e) => {
                    println!("{name:<18} refused: {}", e.lines().next().unwrap_or(""));
                    break;
                }
            }
        }
        let Some(t) = best else { continue };
        let ms = |d: Duration| format!("{:>9.1}", d.as_secs_f64() * 1000.0);
        let mut row = format!("{name:<18}");
        for s in Stage::KERNEL {
            row.push(' ');
            row.push_str(&ms(t.of(s)));
        }
        println!("{row} {}", ms(t.total()));
    }
}
