//! The modulo scheduler on the real loop bodies of the conformance and project kernels
//! (as the loop analysis sees them, on several boards): every schedule passes the
//! checker and its II equals the analysis's minimum II (the README's cycles table).

use std::collections::HashMap;

use crate::analysis::loops;
use crate::analysis::mii::{Iteration, MemDeps};
use crate::board::{Board, BoardSet};
use crate::ir::{BlockId, OpId};

use super::modulo::{modulo_schedule, ModuloSchedule};
use super::modulo_check::check_modulo;

fn board(name: &str) -> Board {
    BoardSet::builtin()
        .expect("built-in boards")
        .get(name)
        .expect("board")
        .clone()
}

type ConformanceLoop = (String, u32, u32, ModuloSchedule<(BlockId, OpId)>);

/// Every pipelinable loop of a conformance kernel on `board`: (kernel, loop id, the
/// analysis's min II, the modulo schedule), each schedule checked.
fn conformance_loops(board_name: &str, only: Option<&str>) -> Vec<ConformanceLoop> {
    kernel_loops("../../shared/conformance/kernels", board_name, only)
}

/// [`conformance_loops`] over the kernels of `dir` (relative to the crate).
fn kernel_loops(dir: &str, board_name: &str, only: Option<&str>) -> Vec<ConformanceLoop> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .filter(|p| only.is_none_or(|o| p.file_stem().is_some_and(|s| s == o)))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no kernels in {}", dir.display());
    let board = board(board_name);
    let mut out = Vec::new();
    for cl in files {
        let c = crate::frontend::check_file(&cl, &crate::frontend::Options::default());
        out.extend(scheduled_loops(&c, &board));
    }
    out
}

/// Every pipelinable loop of a checked program on `board`, scheduled and checked.
fn scheduled_loops(c: &crate::frontend::Checked, board: &Board) -> Vec<ConformanceLoop> {
    let p = c.program.as_ref().expect("a program");
    let m = crate::lower::lower(p, &c.sources).expect("lowers");
    let mut out = Vec::new();
    for k in &m.kernels {
        let cfg = crate::project::shell_config_for(board);
        let comp = crate::compile::compile(k, &c.sources, board, &cfg)
            .unwrap_or_else(|d| panic!("{}: {:?}", k.name, d.list));
        // The on-chip memories' read copies are read ports (the memory stage's plan).
        let mut lib = board.library();
        comp.memory.set_ports(&mut lib.limits);
        let reports = comp.loops;
        let g = comp.group.kernel;
        for shape in loops::shapes(&g) {
            let Some(r) = reports.iter().find(|r| r.id == shape.id.0) else {
                continue;
            };
            let Some(min_ii) = r.min_ii else { continue };
            let ranges = Some(&comp.memory.ranges);
            let mut it = Iteration::new(&g, &c.sources, &shape, &lib, &lib.limits, ranges);
            it.share_ports(&comp.memory.wide);
            let graph = it.graph(&MemDeps::of_loop(&g, &shape));
            let s = modulo_schedule(&graph, lib.period_ns, &lib.limits)
                .unwrap_or_else(|e| panic!("{} loop {}: {e}", k.name, r.id));
            let v = check_modulo(&graph, lib.period_ns, &lib.limits, &s);
            assert!(v.is_empty(), "{} loop {}: {v:?}", k.name, r.id);
            out.push((k.name.clone(), r.id, min_ii, s));
        }
    }
    out
}

#[test]
fn ivdep_drops_or_spaces_out_the_carried_memory_dependence() {
    // ivdep_offset's loop: A[i + K] against A[i] with K unknown, so without a hint the
    // store reaches the next iteration's load; ivdep(8) spaces it 8 iterations apart;
    // plain ivdep drops it and only the read ports bound the II.
    let src = |hint: &str| {
        format!(
            "__kernel void k(__global int *A, __global const int *B, int N, int K) {{\n\
             {hint}\nfor (int i = 0; i < N; i++) {{ A[i + K] = A[i] * B[i] + 1; }}\n}}"
        )
    };
    let sim = board("sim");
    let mut iis = Vec::new();
    for hint in ["", "[[cl::ivdep(8)]]", "#pragma ivdep"] {
        let c =
            crate::frontend::check_source("k.cl", &src(hint), &crate::frontend::Options::default());
        assert!(!c.has_errors(), "{:?}", c.diags.list);
        let loops = scheduled_loops(&c, &sim);
        assert_eq!(loops.len(), 1, "{hint}");
        let (_, _, min_ii, s) = &loops[0];
        assert_eq!(s.ii, *min_ii, "{hint}");
        iis.push(s.ii);
    }
    // The round trip through memory (load 44, multiply, add, the store's 44 before a load
    // may follow it) is 91 cycles: over 1 iteration, over 8, or gone.
    assert_eq!(iis, [91, 12, 1]);
}

#[test]
fn conformance_loop_bodies_schedule_at_the_analysis_min_ii() {
    // vadd's work-item loop (two read ports, streaming units taking a request per
    // cycle), saxpy's loops (y's store and load meet only within an iteration; unrolled
    // by 4, the main loop's four loads of y are one wide access, as are its four loads of
    // x and its four stores; its remainder runs at 1),
    // prefix_sum's one-cycle integer recurrence and ivdep_offset's store to A feeding
    // the load 8 iterations later.
    for (file, want) in [
        ("vadd", vec![1]),
        ("saxpy_unroll", vec![1, 1]),
        ("prefix_sum", vec![1]),
        // The 91-cycle round trip through A spread over 8 iterations (ivdep(8)).
        ("ivdep_offset", vec![12]),
    ] {
        let loops = conformance_loops("sim", Some(file));
        let got: Vec<u32> = loops.iter().map(|l| l.3.ii).collect();
        assert_eq!(got, want, "{file}");
        for (k, id, min_ii, s) in &loops {
            assert_eq!((s.ii, s.mii), (*min_ii, *min_ii), "{k} loop {id}: {s:?}");
        }
    }
}

#[test]
fn every_conformance_loop_schedules_at_its_min_ii_on_every_board() {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for b in ["sim", "de10-nano", "ulx3s", "icebreaker"] {
        let loops = conformance_loops(b, None);
        let off: Vec<String> = loops
            .iter()
            .filter(|(_, _, min, s)| s.ii != *min)
            .map(|(k, id, min, s)| {
                format!("{k} loop {id}: II {} (mii {}), analysis {min}", s.ii, s.mii)
            })
            .collect();
        assert!(off.is_empty(), "{b}: {off:?}");
        counts.insert(b, loops.len());
    }
    assert!(counts.values().all(|&n| n >= 19), "{counts:?}");
}

#[test]
fn every_project_kernel_loop_schedules_at_its_min_ii() {
    // Early exits, do loops, barriers, atomics, helper pointers: the project's kernels.
    let loops = kernel_loops("../tests/kernels", "sim", None);
    // Known misses, each with its reason: atomics_global's loop is one recurrence of 176
    // cycles with no slack (each work-item's 18 read-modify-writes of `s`, lowered to a
    // load and a store in group form) whose loads and stores also share `s`'s one port,
    // so port conflicts on the cycle cost up to two more; the loop is not pipelined anyway
    // (a 4-byte access to a unit of 32-byte elements).
    let known = [("atomics_global", 0usize, 2u32)];
    let off: Vec<String> = loops
        .iter()
        .filter(|(k, id, min, s)| {
            let slack = known
                .iter()
                .find(|(n, l, _)| k.contains(n) && *l == *id as usize)
                .map_or(0, |x| x.2);
            s.ii > *min + slack || s.ii < *min
        })
        .map(|(k, id, min, s)| {
            format!("{k} loop {id}: II {} (mii {}), analysis {min}", s.ii, s.mii)
        })
        .collect();
    assert!(off.is_empty(), "{off:?}");
    assert!(loops.len() >= 30, "{} loops", loops.len());
}

#[test]
fn memory_ops_of_different_memories_in_different_blocks_do_not_wait_for_each_other() {
    // Two guarded copies: the second's load from `b` need not wait for the first's store
    // to `o` (another buffer; the loop runs where they do not overlap), so both copies
    // overlap in one load latency. Reading `o` back instead must wait for the store.
    let src = |second: &str| {
        format!(
            "__kernel void k(__global const int *a, __global const int *b, __global int *o,\n\
             __global int *p, int n) {{\n\
             for (int i = 0; i < n; i++) {{\n\
             if (i & 1) o[i] = a[i];\n\
             if (i & 2) p[i] = {second}[i];\n\
             }}\n}}"
        )
    };
    let sim = board("sim");
    let mut depths = Vec::new();
    for second in ["b", "o"] {
        let c = crate::frontend::check_source(
            "k.cl",
            &src(second),
            &crate::frontend::Options::default(),
        );
        assert!(!c.has_errors(), "{:?}", c.diags.list);
        let loops = scheduled_loops(&c, &sim);
        assert_eq!(loops.len(), 1, "{second}");
        depths.push(loops[0].3.depth);
    }
    // One load and one store (44 cycles each) deep, against two of each in a chain.
    assert_eq!(depths, [88, 176]);
}
