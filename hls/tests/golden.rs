//! Golden files of the compile pipeline: for a handful of conformance kernels (the last
//! kernel of each file), and for project kernels built with float build options, the IR
//! after each IR stage, the schedule side table, the binding and the emitted Verilog are
//! compared with `tests/golden/KERNEL/` (`KERNEL-OPTION` for a build with an option),
//! so a change in any stage's output shows up in review.
//! `OCL_HLS_BLESS=1 cargo test -p ocl-hls --test golden` rewrites them.

use std::path::{Path, PathBuf};

use ocl_hls::board::BoardSet;
use ocl_hls::compile::{self, Snapshots, Stage};
use ocl_hls::ir::print::print_kernel;
use ocl_hls::rtl::shell::ShellConfig;

const KERNELS: &[&str] = &[
    "vadd",
    "saxpy_unroll",
    "fir_constant",
    "histogram_atomic",
    "stencil2d_local",
    "matmul_tiled",
    "reduce_local",
    "ndrange3d",
];

/// Project kernels built with a float build option: what the `relax` stage does.
const WITH_OPTIONS: &[(&str, &str)] = &[("mad_recurrence", "-cl-fast-relaxed-math")];

fn conformance(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/conformance/kernels")
        .join(format!("{name}.cl"))
}

fn project(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/kernels")
        .join(format!("{name}.cl"))
}

/// Every golden case: its folder name, its source and its float build option.
fn cases() -> Vec<(String, PathBuf, Option<&'static str>)> {
    let mut v: Vec<_> = KERNELS
        .iter()
        .map(|k| (k.to_string(), conformance(k), None))
        .collect();
    v.extend(
        WITH_OPTIONS
            .iter()
            .map(|(k, o)| (format!("{k}{o}"), project(k), Some(*o))),
    );
    v
}

fn golden_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/golden")
        .join(name)
}

/// Every file the pipeline's stages produce for the last kernel of `cl` on the `sim`
/// board, built with the float build `option`, in pipeline order: (file name, text).
fn stage_outputs(name: &str, cl: &Path, option: Option<&str>) -> Vec<(String, String)> {
    let checked = ocl_hls::frontend::check_file(cl, &Default::default());
    assert!(!checked.has_errors(), "{name}: {:?}", checked.diags.list);
    let program = checked.program.as_ref().expect("a program");
    let module = compile::lower(program, &checked.sources).expect("lowers");
    let k = module.kernels.last().unwrap();
    let boards = BoardSet::builtin().expect("boards");
    let board = boards.get("sim").expect("sim board");
    let mut snap = Snapshots { stages: Vec::new() };
    let mut opt = ocl_hls::opt::Options::default();
    if let Some(o) = option {
        assert!(opt.math.set(o), "{o} is a float build option");
    }
    let c = compile::compile_opt_with(
        k,
        &checked.sources,
        board,
        &ShellConfig::sim(),
        &opt,
        &mut snap,
    )
    .unwrap_or_else(|d| panic!("{name}: {:?}", d.list));
    let mut out = vec![("1-lower.ir".to_string(), print_kernel(k, None))];
    for (i, (stage, text)) in snap.stages.into_iter().enumerate() {
        out.push((format!("{}-{}.ir", i + 2, stage.name()), text));
    }
    let n = out.len() + 1;
    out.push((
        format!("{n}-schedule.txt"),
        ocl_hls::schedule::print::print(&c.group.kernel, &c.schedule),
    ));
    out.push((
        format!("{}-modulo.txt", n + 1),
        ocl_hls::schedule::loops::print(&c.group.kernel, &c.pipelines),
    ));
    out.push((
        format!("{}-binding.json", n + 2),
        serde_json::to_string_pretty(&c.binding).expect("binding as JSON") + "\n",
    ));
    for (file, text) in &c.core.files {
        out.push((format!("{}-{file}", n + 3), text.clone()));
    }
    out
}

/// The first line where `a` and `b` differ, for a readable failure.
fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  golden: {x}\n  now:    {y}", i + 1);
        }
    }
    format!(
        "lengths differ: golden {} lines, now {} lines",
        a.lines().count(),
        b.lines().count()
    )
}

#[test]
fn every_stage_output_matches_its_golden_file() {
    let bless = std::env::var_os("OCL_HLS_BLESS").is_some();
    let mut problems = Vec::new();
    for (name, cl, option) in cases() {
        let dir = golden_dir(&name);
        let outputs = stage_outputs(&name, &cl, option);
        if bless {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("golden dir");
            for (file, text) in &outputs {
                std::fs::write(dir.join(file), text).expect("write golden file");
            }
            continue;
        }
        let mut expected: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (OCL_HLS_BLESS=1 writes it)", dir.display()))
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        expected.sort();
        let mut made: Vec<String> = outputs.iter().map(|o| o.0.clone()).collect();
        made.sort();
        if expected != made {
            problems.push(format!("{name}: files {made:?}, golden {expected:?}"));
            continue;
        }
        for (file, text) in &outputs {
            let golden = std::fs::read_to_string(dir.join(file)).expect("golden file");
            if &golden != text {
                problems.push(format!(
                    "{name}/{file} changed at {}",
                    first_difference(&golden, text)
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{}\n(if the change is intended: OCL_HLS_BLESS=1 cargo test -p ocl-hls --test golden, \
         and review the diff)",
        problems.join("\n")
    );
}

#[test]
fn every_stage_runs_once_per_kernel() {
    let boards = BoardSet::builtin().expect("boards");
    let board = boards.get("de10-nano").expect("de10-nano board");
    let cfg = ocl_hls::project::shell_config_for(board);
    for name in KERNELS {
        let (c, _) =
            compile::compile_file(&conformance(name), &Default::default(), None, board, &cfg)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        for s in Stage::KERNEL {
            assert_eq!(c.times.count(s), 1, "{name}: stage {}", s.name());
        }
        assert_eq!(c.times.runs.len(), Stage::KERNEL.len(), "{name}");
        // The side tables cover what the hardware runs.
        assert_eq!(c.schedule.schedules.len(), c.group.kernel.blocks.len());
        // Blocks of pipelined loops are pipeline stages, every other one FSM states (a
        // versioned loop's blocks are both: its ordered version runs on the FSM).
        let piped: std::collections::BTreeSet<_> = c
            .plan
            .loops
            .values()
            .filter(|l| l.overlap.is_empty())
            .flat_map(|l| l.ops.iter().map(|k| k.0))
            .collect();
        assert_eq!(
            c.datapath.blocks.len() + piped.len(),
            c.group.kernel.blocks.len(),
            "{name}"
        );
        assert_eq!(c.datapath.pipelines.len(), c.plan.loops.len(), "{name}");
        assert!(!c.loops.is_empty(), "{name}: the analysis ran");
        // Every innermost loop has a checked modulo schedule at the analysis's minimum II.
        for l in &c.loops {
            if l.min_ii.is_some() {
                assert_eq!(l.scheduled_ii, l.min_ii, "{name}: {l:?}");
            }
        }
    }
}

#[test]
fn a_golden_difference_is_reported_with_its_line() {
    let d = first_difference("a\nb\nc\n", "a\nB\nc\n");
    assert!(d.starts_with("line 2:"), "{d}");
    assert!(d.contains("golden: b") && d.contains("now:    B"), "{d}");
    // And the stage outputs really change with the IR: a different kernel differs.
    let vadd = stage_outputs("vadd", &conformance("vadd"), None);
    let saxpy = stage_outputs("saxpy_unroll", &conformance("saxpy_unroll"), None);
    assert_ne!(vadd[0].1, saxpy[0].1);
    assert!(vadd.iter().any(|(f, _)| f.ends_with("-workitems.ir")));
    assert!(vadd.iter().any(|(f, _)| f.ends_with("vadd_datapath.v")));
    // A build with a float option keeps what the relax stage made of the kernel.
    let (name, cl, option) = cases().pop().expect("a case with an option");
    let relaxed = stage_outputs(&name, &cl, option);
    assert_eq!(relaxed[1].0, "2-relax.ir", "{name}");
    assert!(
        relaxed[1].1.contains("d.7"),
        "{name}: the partial sums of `d`"
    );
}
