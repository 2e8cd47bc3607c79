//! Unit tests of the loop analysis on small kernels.

use super::*;
use crate::board::BoardSet;
use crate::frontend::{check_source, Options};

/// The first kernel of `src`, lowered, with its source map. (The `\` line ends of the
/// sources below drop each next line's indentation: every line starts at column 1.)
fn kernel(src: &str) -> (Kernel, SourceMap) {
    let c = check_source("k.cl", src, &Options::default());
    assert!(!c.has_errors(), "{:?}", c.diags.list);
    let p = c.program.as_ref().expect("a program");
    let m = crate::lower::lower(p, &c.sources).expect("lowers");
    (m.kernels[0].clone(), c.sources)
}

fn sim() -> Board {
    BoardSet::builtin()
        .expect("built-in boards")
        .get("sim")
        .expect("sim board")
        .clone()
}

/// The sim board with global memory units that take a request every `ii` cycles.
fn units_ii(ii: u32) -> Board {
    let mut b = sim();
    for t in b
        .operators
        .global_load
        .iter_mut()
        .chain(b.operators.global_store.iter_mut())
    {
        t.ii = ii;
    }
    b
}

/// The sim board with memory units that accept a command every other cycle.
fn ports_ii2() -> Board {
    units_ii(2)
}

/// The sim board with one-cycle-II memory units, so only port counts bound the II.
fn one_port_ii1() -> Board {
    let mut b = units_ii(1);
    b.operators.limits.read_ports = 1;
    b.operators.limits.write_ports = 1;
    b
}

/// The whole pipeline for `board` (the analysis reads its stage results).
fn compiled(k: &Kernel, sm: &SourceMap, board: &Board) -> crate::compile::Compiled {
    let cfg = crate::project::shell_config_for(board);
    crate::compile::compile(k, sm, board, &cfg)
        .unwrap_or_else(|d| panic!("{} does not compile: {:?}", k.name, d.list))
}

fn loops_for(k: &Kernel, sm: &SourceMap, board: &Board, env: &LaunchValues) -> Vec<LoopReport> {
    analyze_for_launch(&compiled(k, sm, board).parts(), sm, board, env).expect("analysis")
}

fn ideal_for(k: &Kernel, sm: &SourceMap, board: &Board, env: &LaunchValues) -> Ideal {
    ideal_cycles(&compiled(k, sm, board).parts(), sm, board, env).expect("ideal")
}

fn run(src: &str, board: &Board) -> Vec<LoopReport> {
    let (k, sm) = kernel(src);
    compiled(&k, &sm, board).loops
}

fn source_loop(r: &[LoopReport]) -> &LoopReport {
    r.iter()
        .find(|l| l.work_item_dim.is_none())
        .expect("a source loop")
}

const VADD: &str = "__kernel void vadd(__global const float *a, __global const float *b, \
    __global float *c) { int i = get_global_id(0); c[i] = a[i] + b[i]; }";

#[test]
fn vadd_work_item_loop_has_ii_1_without_a_recurrence() {
    let r = run(VADD, &one_port_ii1());
    let wi = r
        .iter()
        .find(|l| l.work_item_dim == Some(0))
        .expect("the work-item loop");
    assert_eq!(wi.name, "work-item loop (x)");
    assert_eq!(wi.min_ii, Some(1), "{wi:?}");
    assert_eq!(wi.ii_reason, "1: no loop-carried dependence");
    // Two loads of 44 cycles in parallel, an fp_add of 6, a store of 44: deep pipeline.
    assert!(wi.depth >= 44 + 6 + 44, "{wi:?}");
    assert!(wi.fsm_cycles_per_iteration > wi.depth, "{wi:?}");
}

#[test]
fn a_load_holds_its_port_for_the_units_ii() {
    let r = run(VADD, &ports_ii2());
    let wi = r
        .iter()
        .find(|l| l.work_item_dim == Some(0))
        .expect("wi loop");
    assert_eq!(wi.min_ii, Some(2), "{wi:?}");
    assert!(
        wi.ii_reason.starts_with("2: 1 load from `"),
        "{}",
        wi.ii_reason
    );
}

const REDUCE: &str = "__kernel __attribute__((reqd_work_group_size(1,1,1))) \
    void sum(__global const float *a, __global float *out, int n) {\n\
    float acc = 0.0f;\n\
    for (int i = 0; i < n; i++)\n\
        acc += a[i];\n\
    out[0] = acc;\n}";

#[test]
fn a_float_accumulator_bounds_the_ii_by_the_adder_latency() {
    let board = one_port_ii1();
    let fp_add = board.operators.fp_add[0].latency;
    let r = run(REDUCE, &board);
    let l = source_loop(&r);
    assert_eq!(l.name, "for loop");
    assert_eq!(l.line, 3);
    assert_eq!(l.rec_mii, Some(fp_add), "{l:?}");
    assert_eq!(l.min_ii, Some(fp_add));
    assert!(
        l.ii_reason
            .starts_with(&format!("{fp_add}: `acc` at k.cl:4:1 is carried")),
        "{}",
        l.ii_reason
    );
    assert!(
        l.ii_reason.contains(&format!("fp_add ({fp_add} cycles)")),
        "{}",
        l.ii_reason
    );
    assert_eq!(l.trip_count, None, "n is an argument");
}

#[test]
fn trip_counts_follow_from_constants_and_launch_values() {
    let (k, sm) = kernel(REDUCE);
    let env = LaunchValues {
        scalars: vec![None, None, Some(37)],
        global: Some([1, 1, 1]),
        local: Some([1, 1, 1]),
        measured: None,
    };
    let r = loops_for(&k, &sm, &sim(), &env);
    assert_eq!(source_loop(&r).trip_count, Some(37));
    let down = "__kernel void f(__global int *a) { for (uint s = 64; s > 0; s >>= 1) a[s] = 0; \
        for (int k = 15; k > 0; k--) a[k] = 1; }";
    let r = run(down, &sim());
    let trips: Vec<Option<u64>> = r
        .iter()
        .filter(|l| l.work_item_dim.is_none())
        .map(|l| l.trip_count)
        .collect();
    assert_eq!(trips, [Some(7), Some(15)]);
}

const TWO_LOADS: &str = "__kernel __attribute__((reqd_work_group_size(1,1,1))) \
    void f(__global const int *a, __global int *out, int n) {\n\
    for (int i = 0; i < n; i++)\n\
        out[i] = a[i] + a[i + n];\n}";

#[test]
fn two_loads_of_one_buffer_on_a_one_port_board_need_ii_2() {
    let r = run(TWO_LOADS, &one_port_ii1());
    let l = source_loop(&r);
    assert_eq!(l.res_mii, Some(2), "{l:?}");
    assert_eq!(l.min_ii, Some(2));
    assert_eq!(l.ii_reason, "2: 2 loads from `a` on 1 read port");
    let mut two = one_port_ii1();
    two.operators.limits.read_ports = 2;
    assert_eq!(source_loop(&run(TWO_LOADS, &two)).min_ii, Some(1));
}

const IN_PLACE: &str = "__kernel __attribute__((reqd_work_group_size(1,1,1))) \
    void f(__global int *a, int n) {\n\
    HINT\n\
    for (int i = 0; i < n; i++)\n\
        a[2 * i] = a[i] * 3;\n}";

#[test]
fn a_store_and_load_of_one_buffer_are_a_recurrence_that_ivdep_removes() {
    let board = one_port_ii1();
    let lat = |t: &[crate::board::oplib::Tier]| t[0].latency;
    let (ld, st) = (
        lat(&board.operators.global_load),
        lat(&board.operators.global_store),
    );
    let plain = run(&IN_PLACE.replace("HINT", ""), &board);
    let l = source_loop(&plain);
    let rec = l.rec_mii.expect("a recurrence");
    assert!(rec >= ld + st, "load then store then the next load: {l:?}");
    assert!(
        l.ii_reason.contains("store to `a` at k.cl:4:1")
            && l.ii_reason.contains("load from `a` at k.cl:4:12"),
        "{}",
        l.ii_reason
    );
    let ivdep = run(&IN_PLACE.replace("HINT", "#pragma ivdep"), &board);
    let l = source_loop(&ivdep);
    assert_eq!(l.min_ii, Some(1), "{l:?}");
    assert_eq!(l.ivdep.as_deref(), Some("ivdep"));
    let safelen = run(
        &IN_PLACE.replace("HINT", "#pragma ivdep safelen(8)"),
        &board,
    );
    let l = source_loop(&safelen);
    assert_eq!(l.rec_mii, Some(rec.div_ceil(8)), "{l:?}");
    // `a[i + 8] = a[i] * 3`: the addresses prove what safelen(8) promised.
    let eight = run(
        &IN_PLACE.replace("HINT", "").replace("2 * i]", "i + 8]"),
        &board,
    );
    let l = source_loop(&eight);
    assert_eq!(l.rec_mii, Some(rec.div_ceil(8)), "{l:?}");
    assert!(
        l.ii_reason.contains("dependence distance 8"),
        "{}",
        l.ii_reason
    );
}

#[test]
fn outer_loops_are_not_pipelined_and_say_which_loop_they_hold() {
    let src = "__kernel __attribute__((reqd_work_group_size(1,1,1))) void f(__global int *a) {\n\
        for (int i = 0; i < 4; i++)\n\
            for (int j = 0; j < 8; j++)\n\
                a[i * 8 + j] = i + j;\n}";
    let r = run(src, &sim());
    let src_loops: Vec<&LoopReport> = r.iter().filter(|l| l.work_item_dim.is_none()).collect();
    assert_eq!(src_loops.len(), 2);
    let (outer, inner) = (src_loops[0], src_loops[1]);
    assert_eq!(outer.min_ii, None);
    assert!(
        outer.ii_reason.contains("holds the loop at k.cl:3:1"),
        "{}",
        outer.ii_reason
    );
    assert_eq!(inner.parent, Some(outer.id));
    assert_eq!((outer.trip_count, inner.trip_count), (Some(4), Some(8)));
}

#[test]
fn global_atomics_serialise_the_work_item_loop() {
    let src = "__kernel void h(__global const uchar *d, __global int *bins) {\n\
        atomic_inc(&bins[d[get_global_id(0)]]);\n}";
    let board = sim();
    let r = run(src, &board);
    let wi = r
        .iter()
        .find(|l| l.work_item_dim == Some(0))
        .expect("wi loop");
    // In group form the atomic is a load, the increment and a store (one core runs the
    // work-items in order); the next work-item's load may read what the store wrote.
    let (load, store) = (
        board.operators.global_load[0].latency,
        board.operators.global_store[0].latency,
    );
    assert_eq!(wi.rec_mii, Some(load + store), "{wi:?}");
    assert!(
        wi.ii_reason
            .contains("store to `bins` at k.cl:2:1 before load from `bins`"),
        "{}",
        wi.ii_reason
    );
}

/// vadd's launch in the ideal tests: 256 work-items in groups of 64.
fn vadd_launch() -> LaunchValues {
    LaunchValues {
        scalars: vec![None; 3],
        global: Some([256, 1, 1]),
        local: Some([64, 1, 1]),
        measured: None,
    }
}

/// A pipelined loop's fill in the ideal: the pipeline's depth where shorter than the list
/// schedule's.
fn fill(wi: &LoopReport) -> u64 {
    wi.pipeline_depth
        .map_or(wi.depth, |d| wi.depth.min(u64::from(d)))
}

#[test]
fn the_ideal_counts_all_work_items_through_one_pipeline() {
    let (k, sm) = kernel(VADD);
    let board = one_port_ii1();
    let env = vadd_launch();
    let ideal = ideal_for(&k, &sm, &board, &env);
    let wi = &ideal.work_item_loops[0];
    let cycles = ideal.cycles.expect("known");
    // The x loop: 256 x II 1 + its fill (the pipeline's depth where shorter than the
    // list schedule's), plus the group form's few blocks around it.
    let fill = fill(wi);
    assert!(fill < wi.depth, "{wi:?}");
    assert!(cycles >= 256 + fill, "{cycles} {wi:?}");
    assert!(cycles < 256 + fill + 20, "{cycles} {wi:?}");
}

#[test]
fn the_ideal_of_lanes_counts_their_iterations_not_their_work_items() {
    // 4 lanes: 64 iterations of 4 work-items, each moving 48 bytes through the 32-byte
    // port, so the port, not the II, bounds it: 64 x 48 / 32 = 96 cycles plus the fill.
    let src = "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
        __attribute__((num_simd_work_items(4)))
        void vadd(__global const float *a, __global const float *b, __global float *c) {
        int i = get_global_id(0); c[i] = a[i] + b[i]; }";
    let (k, sm) = kernel(src);
    let env = vadd_launch();
    let ideal = ideal_for(&k, &sm, &sim(), &env);
    let wi = &ideal.work_item_loops[0];
    assert_eq!(wi.unroll_applied, Some(4), "{wi:?}");
    let fill = fill(wi);
    let cycles = ideal.cycles.expect("known");
    assert!(cycles >= 96 + fill, "{cycles} {wi:?}");
    assert!(cycles < 96 + fill + 20, "{cycles} {wi:?}");
}

#[test]
fn the_ideal_of_a_loop_with_an_unknown_trip_count_says_which() {
    let (k, sm) = kernel(REDUCE);
    let env = LaunchValues {
        scalars: vec![None; 3],
        global: Some([1, 1, 1]),
        local: Some([1, 1, 1]),
        measured: None,
    };
    let ideal = ideal_for(&k, &sm, &sim(), &env);
    let e = ideal.cycles.expect_err("n unknown");
    assert!(e.contains("for loop at k.cl:3:1"), "{e}");
}

#[test]
fn data_dependent_trip_counts_are_measured_by_the_interpreter() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/kernels");
    let cl = dir.join("strcpy_attr.cl");
    let spec = crate::launch::LaunchSpec::load(&cl.with_extension("yaml")).expect("spec");
    let c = crate::frontend::check_file(&cl, &Options::default());
    let p = c.program.as_ref().expect("a program");
    let sigs: Vec<crate::launch::KernelSig> = p
        .kernels
        .iter()
        .map(crate::launch::KernelSig::from_info)
        .collect();
    let l = crate::launch::resolve(&spec, &sigs, 256).expect("launch");
    let m = crate::lower::lower(p, &c.sources).expect("lowers");
    let k = &m.kernels[0];
    let counts = counts::measure(k, &l).expect("counted");
    // One entry per work-item; the strings' lengths add up to the iterations.
    let src = match &l.args[0].value {
        crate::launch::ArgValue::Buffer(b) => b.bytes.clone(),
        _ => panic!("src is a buffer"),
    };
    let lengths: u64 = src
        .chunks(32)
        .map(|s| s.iter().position(|&b| b == 0).unwrap_or(32) as u64)
        .sum();
    assert_eq!(counts, [(16, lengths)]);
    let mut env = LaunchValues::of_launch(&l);
    let plain = loops_for(k, &c.sources, &sim(), &env);
    assert_eq!(source_loop(&plain).trip_count, None);
    env.measured = Some(counts);
    let r = loops_for(k, &c.sources, &sim(), &env);
    let w = source_loop(&r);
    assert!(w.trip_measured);
    // The loop runs two copies per iteration behind exit tests (`unroll_hint(2)`).
    assert_eq!(w.unroll_applied, Some(2));
    assert_eq!(w.trip_count, Some(((lengths + 8) / 16).div_ceil(2)));
    assert!(ideal_for(k, &c.sources, &sim(), &env).cycles.is_ok());
}

#[test]
fn every_conformance_kernel_is_analysed_on_every_board() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/kernels");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("shared kernels")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    assert!(files.len() >= 19, "{}", dir.display());
    let boards = BoardSet::builtin().expect("built-in boards");
    for cl in files {
        let c = crate::frontend::check_file(&cl, &Options::default());
        let p = c.program.as_ref().expect("a program");
        let m = crate::lower::lower(p, &c.sources).expect("lowers");
        for k in &m.kernels {
            for b in ["sim", "de10-nano", "ulx3s", "icebreaker"] {
                let board = boards.get(b).expect("board");
                let r = compiled(k, &c.sources, board).loops;
                // Every kernel has its work-item loop; every pipelinable loop a reason
                // starting with its II.
                assert!(r.iter().any(|l| l.work_item_dim == Some(0)), "{}", k.name);
                for l in r.iter().filter(|l| l.min_ii.is_some()) {
                    let ii = l.min_ii.unwrap_or(0).to_string();
                    assert!(l.ii_reason.starts_with(&format!("{ii}: ")), "{l:?}");
                }
            }
        }
    }
}

/// `y[i] = alpha * x[i] + y[i]` with a one-item group: only the source loop matters.
fn single(body: &str) -> String {
    format!(
        "__kernel __attribute__((reqd_work_group_size(1,1,1))) \
         void k(__global float *x, __global float *a, float alpha, int n) {{\n\
         {body}\n}}"
    )
}

#[test]
fn affine_saxpy_store_and_load_of_one_element_are_not_loop_carried() {
    let src = single("for (int i = 0; i < n; i++)\n a[i] = alpha * x[i] + a[i];");
    let l = source_loop(&run(&src, &one_port_ii1())).clone();
    assert_eq!(l.rec_mii, Some(1), "{l:?}");
    assert!(l.min_ii.is_some_and(|ii| ii <= 2), "{l:?}");
    assert!(
        l.ii_reason.contains(
            "touch the same element only within one iteration: no loop-carried dependence"
        ),
        "{}",
        l.ii_reason
    );
}

#[test]
fn affine_next_element_is_a_recurrence_of_distance_1() {
    let board = one_port_ii1();
    let src = single("for (int i = 0; i < n; i++)\n a[i + 1] = a[i] + 1.0f;");
    let l = source_loop(&run(&src, &board)).clone();
    let load = board.operators.global_load[0].latency;
    assert!(l.rec_mii.is_some_and(|r| r > load), "{l:?}");
    assert!(
        l.ii_reason
            .contains("1 iteration later (affine addresses: dependence distance 1)"),
        "{}",
        l.ii_reason
    );
}

#[test]
fn affine_distance_2_halves_the_recurrence() {
    let board = one_port_ii1();
    let d1 = single("for (int i = 0; i < n; i++)\n a[i + 1] = a[i] + 1.0f;");
    let d2 = single("for (int i = 0; i < n; i++)\n a[i + 2] = a[i] + 1.0f;");
    let r1 = source_loop(&run(&d1, &board)).rec_mii.expect("rec 1");
    let l2 = source_loop(&run(&d2, &board)).clone();
    assert_eq!(l2.rec_mii, Some(r1.div_ceil(2)), "{l2:?}");
    assert!(
        l2.ii_reason.contains("dependence distance 2"),
        "{}",
        l2.ii_reason
    );
}

#[test]
fn affine_different_strides_stay_conservative() {
    let board = one_port_ii1();
    let src = single("for (int i = 0; i < n; i++)\n a[2 * i] = a[i] + 1.0f;");
    let l = source_loop(&run(&src, &board)).clone();
    let load = board.operators.global_load[0].latency;
    assert!(l.rec_mii.is_some_and(|r| r > load), "{l:?}");
    assert!(
        l.ii_reason
            .contains("in the next iteration (same memory, no ivdep)"),
        "{}",
        l.ii_reason
    );
    // A variable not written in the loop is an invariant term; two different ones
    // cannot be compared: conservative too.
    let src = single("int m = n / 2;\nfor (int i = 0; i < n; i++)\n a[i + m] = a[i] + 1.0f;");
    let l = source_loop(&run(&src, &board)).clone();
    assert!(l.rec_mii.is_some_and(|r| r > load), "{l:?}");
}

#[test]
fn affine_ivdep_still_removes_an_unprovable_dependence() {
    let board = one_port_ii1();
    let src = single("#pragma ivdep\nfor (int i = 0; i < n; i++)\n a[2 * i] = a[i] + 1.0f;");
    let l = source_loop(&run(&src, &board)).clone();
    assert_eq!(l.rec_mii, Some(1), "{l:?}");
}

#[test]
fn the_fsm_estimate_counts_the_generators_states_per_block() {
    // A binary64 division (no pipelined unit) keeps the loop on the FSM.
    let (k, sm) = kernel(
        "__kernel void vadd(__global const float *a, __global const float *b, \
         __global float *c) { int i = get_global_id(0); \
         c[i] = a[i] + (float)((double)b[i] / 3.0); }",
    );
    let board = sim();
    let c = compiled(&k, &sm, &board);
    let a = Analysis::new(&c.parts(), &sm, &board, &LaunchValues::default()).expect("analysis");
    let states = &c.datapath;
    let shape = a
        .shapes
        .iter()
        .find(|s| s.work_item_dim == Some(0))
        .expect("wi loop");
    let blocks: u64 = shape
        .blocks
        .iter()
        .map(|ib| states.states_of(ib.block).expect("block reported"))
        .sum();
    let r = a.report(shape.id).expect("report");
    // Plus the loop's head and branch states.
    assert_eq!(r.fsm_states, blocks + 2, "{r:?}");
    // Two loads wait for their data one after another (the store only for acceptance).
    let lat = 2 * board.operators.global_load[0].latency;
    assert!(
        r.fsm_cycles_per_iteration >= lat as u64 + r.fsm_states,
        "{r:?}"
    );
}

/// A search loop whose `break` depends on a load: pipelined well above the minimum the
/// analysis finds without the if-conversion's guards, and the report says why.
#[test]
fn a_pipeline_above_its_minimum_ii_says_why() {
    let (k, sm) = kernel(
        "__kernel void k(__global const int *row, __global int *out, int width) {\n\
         int j = 0;\n\
         while (1) {\n\
         if (j == width || row[j] < 0)\n\
         break;\n\
         j++;\n\
         }\n\
         out[0] = j;\n\
         }\n",
    );
    let ls = loops_for(&k, &sm, &sim(), &LaunchValues::default());
    let l = ls
        .iter()
        .find(|l| l.pipelined && l.work_item_dim.is_none())
        .expect("the search loop is pipelined");
    let (ii, min) = (l.scheduled_ii.expect("ii"), l.min_ii.expect("min"));
    assert!(ii > min, "{ii} vs {min}");
    let why = l.ii_raised.as_deref().expect("a reason");
    assert!(why.starts_with(&format!("{ii}: ")), "{why}");
    assert!(why.contains("under an `if`"), "{why}");
}

#[test]
fn a_conditional_first_write_is_a_carried_read_the_schedule_keeps_within_one_ii() {
    // `t` is written in both arms of an `if`: a constant in one (its write can come at
    // once), a loaded value in the other (tens of cycles later). Where the first write's
    // guard fails it keeps the register's value, which the previous iteration's last
    // write must have reached: the schedule takes that as a carried dependence (the loop
    // used to be refused, "written under an if 44 cycles before its last write").
    let src = "__kernel void k(__global const int *x, __global int *y, int n) {
        for (int i = 0; i < n; i++) {
            int t;
            if (i % 3 == 0) t = 5; else t = x[i];
            y[i] = t;
        }
    }";
    let r = run(src, &sim());
    let l = source_loop(&r);
    assert!(l.pipelined, "{l:?}");
}

/// An unrolled inner product over a local tile (matmul_tiled's): as soon as possible,
/// all eight loads start together and their values ride to the links of the multiply-add
/// chain; the lifetime placement starts each load next to its link, and the loop
/// reports both counts.
#[test]
fn an_unrolled_tile_product_reports_the_register_bits_its_placement_saves() {
    let src = "__kernel __attribute__((reqd_work_group_size(8, 8, 1)))
void k(__global const float *A, __global float *C) {
    __local float T[8][8];
    int tx = get_local_id(0), ty = get_local_id(1);
    T[ty][tx] = A[get_global_id(1) * 8 + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = 0.0f;
    __attribute__((opencl_unroll_hint))
    for (int j = 0; j < 8; j++)
        acc = fma(T[ty][j], T[j][tx], acc);
    C[get_global_id(1) * 8 + tx] = acc;
}";
    let r = run(src, &sim());
    let bits: Vec<RegisterBits> = r.iter().filter_map(|l| l.register_bits).collect();
    assert!(!bits.is_empty(), "no pipelined loop: {r:?}");
    assert!(bits.iter().all(|b| b.placed <= b.asap), "{bits:?}");
    let product = bits.iter().max_by_key(|b| b.asap).expect("a loop");
    assert!(
        product.placed * 4 < product.asap * 3,
        "the placement should save a quarter of the product loop's bits: {bits:?}"
    );
}
