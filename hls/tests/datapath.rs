//! The generated datapath in Verilator (`--engine sim`) against the interpreter: the
//! checked buffers must match bit for bit.

use std::path::{Path, PathBuf};

use ocl_hls::engine::{run_file, Engine, RunOptions};

fn conformance() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/kernels")
}

fn both(name: &str) {
    let cl = conformance().join(format!("{name}.cl"));
    let spec = cl.with_extension("yaml");
    let run = |engine| {
        run_file(
            &cl,
            &spec,
            &RunOptions {
                engine,
                ..RunOptions::default()
            },
        )
        .unwrap_or_else(|e| {
            panic!("{name} on {engine:?} (needs verilator: `bash scripts/install-deps.sh`): {e}")
        })
    };
    let sim = run(Engine::Sim);
    let int = run(Engine::Interp);
    assert!(sim.record.cycles.is_some_and(|c| c > 0));
    assert_eq!(sim.buffers.len(), int.buffers.len());
    for ((n, s), (_, i)) in sim.buffers.iter().zip(&int.buffers) {
        assert!(s == i, "{name}: buffer {n} differs between sim and interp");
    }
}

#[test]
fn vadd_matches_the_interpreter() {
    both("vadd");
}
