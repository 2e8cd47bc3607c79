//! The `opt` stage's effect per kernel: ops and board-priced area (logic, registers,
//! DSPs, and the weighed score) of the group-form IR before and after, the stage's time,
//! and the rules that fired most. `cargo run --release -p ocl-hls --example opt_report
//! [BOARD]` (default de10-nano) over the conformance and project kernels.

use std::path::{Path, PathBuf};

use ocl_hls::board::BoardSet;
use ocl_hls::frontend::{check_file, Options};

fn files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v = Vec::new();
    for dir in ["../../shared/conformance/kernels", "../tests/kernels"] {
        let d = root.join(dir);
        let Ok(rd) = std::fs::read_dir(&d) else {
            eprintln!("{}: not found", d.display());
            continue;
        };
        let mut fs: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "cl"))
            .collect();
        fs.sort();
        v.extend(fs);
    }
    v
}

fn main() {
    let name = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "de10-nano".into());
    let boards = BoardSet::builtin().expect("built-in boards");
    let Some(board) = boards.get(&name) else {
        eprintln!("error: no board `{name}`");
        std::process::exit(1);
    };
    println!(
        "{:<28} {:>5} {:>5} {:>7} {:>7} {:>5} {:>5} {:>9} {:>9} {:>6} {:>6}  top rules",
        "kernel", "ops", "ops'", "logic", "logic'", "dsp", "dsp'", "score", "score'", "ratio", "ms"
    );
    let (mut logs, mut n, mut worst_ms) = (0.0f64, 0u32, 0.0f64);
    for f in files() {
        let mut fo = Options::default();
        // Kernels that need a define get it from their spec; the rest compile as they are.
        if let Ok(spec) = ocl_hls::launch::LaunchSpec::load(&f.with_extension("yaml")) {
            fo.pp.defines = spec
                .defines
                .iter()
                .map(|(k, v)| (k.clone(), v.0.clone()))
                .collect();
        }
        let checked = check_file(&f, &fo);
        let Some(program) = checked.program.as_ref().filter(|_| !checked.has_errors()) else {
            continue;
        };
        let Ok(module) = ocl_hls::lower::lower(program, &checked.sources) else {
            continue;
        };
        for k in &module.kernels {
            let Ok(k) = ocl_hls::mathlib::expand(k) else {
                continue;
            };
            let Ok(g) = ocl_hls::workitems::to_group_form(&k) else {
                continue;
            };
            let mut g = g;
            // The loops stage runs before opt in the pipeline (`compile`).
            if ocl_hls::loops::run(&mut g.kernel, &checked.sources, &Default::default()).is_err() {
                continue;
            }
            let r = match ocl_hls::opt::run_group(&mut g, board, &Default::default()) {
                Ok(r) => r,
                Err(d) => {
                    eprintln!("{}: {}", k.name, d.message);
                    continue;
                }
            };
            let ratio = r.after.score / r.before.score.max(1e-9);
            logs += ratio.max(1e-9).ln();
            n += 1;
            worst_ms = worst_ms.max(r.millis);
            let mut fired: Vec<(&String, &usize)> = r.fired.iter().collect();
            fired.sort_by(|a, b| b.1.cmp(a.1));
            let top: Vec<String> = fired
                .iter()
                .take(4)
                .map(|(k, v)| format!("{k}:{v}"))
                .collect();
            println!(
                "{:<28} {:>5} {:>5} {:>7} {:>7} {:>5} {:>5} {:>9.0} {:>9.0} {:>6.3} {:>6.1}  {}",
                k.name,
                r.before.ops,
                r.after.ops,
                r.before.logic,
                r.after.logic,
                r.before.dsps,
                r.after.dsps,
                r.before.score,
                r.after.score,
                ratio,
                r.millis,
                top.join(" ")
            );
        }
    }
    println!(
        "{n} kernels on {}: geometric mean of score after/before {:.3}; slowest stage run {:.1} ms",
        board.name,
        (logs / n.max(1) as f64).exp(),
        worst_ms
    );
}
