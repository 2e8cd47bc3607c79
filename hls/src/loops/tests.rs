//! The stage on small kernels: what each rule does to the IR, checked on the printed IR
//! and the report.

use crate::frontend::{check_file, check_source, Options};
use crate::ir::print::print_kernel;

use super::LoopsReport;

/// The group form of the first kernel of `src` after the stage, printed, and the report.
fn stage(src: &str) -> Result<(String, LoopsReport), String> {
    let c = check_source("k.cl", src, &Options::default());
    assert!(!c.has_errors(), "{:?}", c.diags.list);
    stage_checked(c)
}

fn stage_checked(c: crate::frontend::Checked) -> Result<(String, LoopsReport), String> {
    let m = crate::lower::lower(c.program.as_ref().expect("program"), &c.sources).expect("lowers");
    let k = crate::mathlib::expand(&m.kernels[0]).expect("mathlib");
    let mut g = crate::workitems::to_group_form(&k).expect("group form");
    let r = super::run(&mut g.kernel, &c.sources, &Default::default()).map_err(|d| {
        d.list
            .iter()
            .map(|x| crate::diag::render(&c.sources, x))
            .collect::<String>()
    })?;
    crate::ir::verify::verify_kernel(&g.kernel).expect("verifies");
    Ok((print_kernel(&g.kernel, None), r))
}

#[test]
#[ignore]
fn show() {
    let path = std::env::var("K").expect("K=file.cl");
    let c = check_file(std::path::Path::new(&path), &Options::default());
    let (ir, r) = stage_checked(c).expect("stage");
    println!(
        "{ir}\n{}",
        serde_json::to_string_pretty(&r).unwrap_or_default()
    );
}

fn kernel(body: &str) -> String {
    format!(
        "__kernel __attribute__((reqd_work_group_size(1, 1, 1)))\n\
         void k(__global int *a, __global const float *x, int n)\n{{\n{body}\n}}\n"
    )
}

/// How many loops the printed IR holds besides the work-item loop.
fn source_loops(ir: &str) -> usize {
    ir.lines()
        .filter(|l| l.trim_start().starts_with("loop L"))
        .count()
        - 1
}

#[test]
fn full_unrolling_makes_the_counter_a_constant_in_each_copy() {
    let (ir, r) = stage(&kernel(
        "    #pragma unroll\n    for (int k = 0; k < 4; k++)\n        a[k] = k * 3;",
    ))
    .expect("stage");
    assert_eq!(source_loops(&ir), 0, "{ir}");
    // The stores' values are constants: 0, 3, 6, 9.
    for v in ["0x3]", "0x6]", "0x9]"] {
        assert!(ir.contains(&format!("i32 const [{v}")), "{v}\n{ir}");
    }
    assert!(!ir.contains("var v0 k"), "the counter is gone:\n{ir}");
    let d = &r.unrolled[0];
    assert_eq!(
        (d.asked.as_str(), d.applied, d.how.as_str()),
        ("full", 4, "full")
    );
    assert!(d.location.starts_with("k.cl:5:5"), "{d:?}");
}

#[test]
fn a_factor_on_an_unknown_trip_count_makes_a_guarded_main_loop_and_a_remainder() {
    let (ir, r) = stage(&kernel(
        "    __attribute__((opencl_unroll_hint(4)))\n    for (int i = 0; i < n; i++)\n        a[i] += 1;",
    ))
    .expect("stage");
    assert_eq!(source_loops(&ir), 2, "{ir}");
    // Guard: `i < n && n - i > 3`, unsigned, so no `i + 3` can overflow.
    assert!(ir.contains("i32 binary(sub)"), "{ir}");
    assert!(ir.contains("i1 cmp(ugt)"), "{ir}");
    assert!(ir.contains("i1 binary(and)"), "{ir}");
    assert_eq!(r.unrolled[0].how, "main loop + remainder loop");
    let notes: Vec<_> = r.loops.values().map(|n| (n.applied, n.share)).collect();
    assert!(notes.contains(&(4, super::TripShare::Div(4))), "{notes:?}");
    assert!(notes.contains(&(1, super::TripShare::Rem(4))), "{notes:?}");
}

#[test]
fn an_inclusive_bound_tests_the_distance_with_at_least() {
    let (ir, _) = stage(&kernel(
        "    #pragma unroll 2\n    for (int i = 0; i <= n; i++)\n        a[i] = i;",
    ))
    .expect("stage");
    assert!(ir.contains("i1 cmp(uge)"), "{ir}");
}

#[test]
fn factor_one_and_full_on_an_unknown_count_keep_the_loop_and_say_why() {
    let (ir, r) = stage(&kernel(
        "    #pragma unroll 1\n    for (int i = 0; i < 8; i++) a[i] = i;\n    \
         #pragma unroll\n    for (int i = 0; i < n; i++) a[i] = 2;",
    ))
    .expect("stage");
    assert_eq!(source_loops(&ir), 2, "{ir}");
    assert_eq!(r.unrolled[0].how, "not unrolled");
    assert_eq!(r.unrolled[1].how, "not unrolled");
    let why = r.unrolled[1].reason.as_deref().unwrap_or("");
    assert!(why.contains("not a compile-time constant"), "{why}");
}

#[test]
fn a_full_unroll_over_the_size_limit_is_an_error_at_the_loop() {
    let e = stage(&kernel(
        "    __attribute__((opencl_unroll_hint))\n    for (int i = 0; i < 100000; i++)\n        a[i] = i;",
    ))
    .expect_err("too big");
    assert!(
        e.contains("k.cl:5:5: error: fully unrolling this loop (100000 iterations)"),
        "{e}"
    );
    assert!(e.contains("over the unrolling limit of 8192"), "{e}");
}

#[test]
fn a_huge_factor_is_an_error_before_any_copy_is_made() {
    let e = stage(&kernel(
        "    #pragma unroll 1000000\n    for (int i = 0; i < n; i++)\n        a[i] = i;",
    ))
    .expect_err("too big");
    assert!(
        e.contains("k.cl:5:5: error: unrolling this loop by 1000000 would make"),
        "{e}"
    );
}

#[test]
fn loops_with_break_are_unrolled_behind_exit_tests() {
    let (ir, r) = stage(&kernel(
        "    #pragma unroll 3\n    for (int i = 0; i < n; i++) {\n        if (a[i] < 0) break;\n        a[i] = 1;\n    }",
    ))
    .expect("stage");
    assert_eq!(source_loops(&ir), 1, "{ir}");
    assert_eq!(r.unrolled[0].how, "copies with exit tests");
    assert!(
        ir.contains("i1 binary(xor)"),
        "the copies test `!cond`:\n{ir}"
    );
}

#[test]
fn the_tool_unrolls_small_loops_over_private_arrays_only() {
    let (_, r) = stage(&kernel(
        "    int w[4];\n    for (int k = 0; k < 4; k++) w[k] = k;\n    \
         for (int k = 0; k < 4; k++) a[k] = 0;\n    a[9] = w[1] + w[3];",
    ))
    .expect("stage");
    assert_eq!(r.unrolled.len(), 1, "{:?}", r.unrolled);
    assert_eq!(r.unrolled[0].asked, "none");
    assert_eq!(r.registers.len(), 1);
    assert_eq!(
        (r.registers[0].name.as_str(), r.registers[0].registers),
        ("w", 4)
    );
}

#[test]
fn arrays_at_variable_addresses_or_escaping_stay_in_memory_with_a_reason() {
    let (ir, r) = stage(&kernel(
        "    int w[4] = {1, 2, 3, 4};\n    float f[2];\n    \
         a[0] = w[n & 3];\n    f[0] = fract(x[0], &f[1]);\n    a[1] = (int)f[0];",
    ))
    .expect("stage");
    let kept: Vec<_> = r
        .kept_in_memory
        .iter()
        .map(|k| (k.name.as_str(), k.reason.as_str()))
        .collect();
    assert!(
        kept.iter()
            .any(|(n, why)| *n == "w" && why.contains("variable address")),
        "{kept:?}"
    );
    assert!(
        kept.iter()
            .any(|(n, why)| *n == "f" && why.contains("fract")),
        "{kept:?}"
    );
    assert!(r.registers.is_empty());
    assert!(ir.contains("object o0 w"), "{ir}");
}

#[test]
fn an_ivdep_safelen_is_scaled_to_the_main_loop() {
    let src = |f: u32| {
        kernel(&format!(
            "    #pragma ivdep safelen(8)\n    #pragma unroll {f}\n    \
             for (int i = 0; i < n; i++)\n        a[i + 8] = a[i] + 1;"
        ))
    };
    // The remainder loop is the original loop and keeps the original promise.
    let (ir, _) = stage(&src(4)).expect("stage");
    assert!(
        ir.contains("[ivdep(2)]") && ir.contains("[ivdep(8)]"),
        "{ir}"
    );
    let (ir, _) = stage(&src(16)).expect("stage");
    assert_eq!(ir.matches("[ivdep(").count(), 1, "{ir}");
    assert!(ir.contains("[ivdep(8)]"), "{ir}");
}

#[test]
fn tables_read_at_constant_addresses_become_constants() {
    let (ir, r) = stage(
        "__constant int t[3] = {7, -8, 9};\n\
         __kernel void k(__global int *a, int n) {\n\
         #pragma unroll\n    for (int i = 0; i < 3; i++) a[i] = t[i];\n    a[3] = t[n % 3];\n}\n",
    )
    .expect("stage");
    assert_eq!(r.folded_tables[0].loads_folded, 3);
    assert_eq!(r.folded_tables[0].loads_kept, 1);
    assert!(ir.contains("i32 const [0xfffffff8]"), "{ir}");
    assert!(
        ir.contains("object o0 t"),
        "the table stays for the variable load:\n{ir}"
    );
}

#[test]
fn a_loop_holding_a_barrier_stays_rolled_and_says_why() {
    let (ir, r) = stage(
        "__kernel __attribute__((reqd_work_group_size(4, 1, 1)))\n\
         void k(__global int *a, int n) {\n    __local int l[4];\n    \
         #pragma unroll 2\n    for (int i = 0; i < n; i++) {\n        \
         l[get_local_id(0)] = i;\n        barrier(CLK_LOCAL_MEM_FENCE);\n        \
         a[get_global_id(0)] += l[3 - get_local_id(0)];\n        \
         barrier(CLK_LOCAL_MEM_FENCE);\n    }\n}\n",
    )
    .expect("stage");
    assert_eq!(r.unrolled[0].how, "not unrolled");
    let why = r.unrolled[0].reason.as_deref().unwrap_or("");
    assert!(why.contains("barrier"), "{why}");
    assert!(!ir.contains("[unroll"), "{ir}");
}

#[test]
fn a_struct_copied_whole_and_read_by_field_becomes_byte_registers() {
    let src = "struct rec { char a; int x[2] __attribute__((packed)); };\n\
               __kernel __attribute__((reqd_work_group_size(1, 1, 1)))\n\
               void k(__global const struct rec *recs, __global int *out)\n{\n\
               struct rec r = recs[get_global_id(0)];\n\
               out[get_global_id(0)] = r.x[0] - r.x[1] + r.a;\n}\n";
    let (ir, r) = stage(src).expect("stage");
    let regs: Vec<_> = r
        .registers
        .iter()
        .map(|x| (x.name.as_str(), x.registers, x.types.as_str()))
        .collect();
    assert_eq!(regs, vec![("r", 9, "i8")], "{:?}", r.kept_in_memory);
    assert!(!ir.contains("object o0 r"), "{ir}");
}

#[test]
fn a_promoted_short_counter_is_a_counted_loop() {
    // `i < 1000` on a `short i` compares `(int)i`; 1000 is a short, so the test narrows
    // to 16 bits and the loop is counted: a main loop of 4 copies at fixed offsets and
    // constant copies for the rest, no per-copy exit tests.
    let (ir, r) = stage(&kernel(
        "    #pragma unroll 4\n    for (short i = 0; i < 1000; i++)\n        a[i] = i;",
    ))
    .expect("stage");
    assert!(ir.contains("i1 cmp(slt) %"), "{ir}");
    assert!(!ir.contains(".go"), "exit flags: {ir}");
    assert_eq!(r.unrolled[0].how, "main loop + straight-line remainder");
    // A bound the counter cannot hold keeps the wide test (it never fails: the loop
    // would run forever), and the loop is not counted.
    let (ir, _) = stage(&kernel(
        "    for (uchar i = 0; i < 300; i++) {\n        a[i] = i;\n        if (a[0] == 7) break;\n    }",
    ))
    .expect("stage");
    assert!(ir.contains("i32 conv"), "{ir}");
    assert!(!ir.contains("i8 const [0x2c]"), "{ir}");
}
