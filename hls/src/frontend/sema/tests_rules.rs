//! Tests of the language rules through the whole frontend: conversions, vectors, constant
//! folding, scopes, address spaces, initializers, attributes and pragmas.

use crate::diag::Severity;
use crate::frontend::types::{Scalar, Type};

use super::tests::{assert_clean, check_src, first_error};

#[test]
fn arithmetic_conversions_are_recorded() {
    let p = assert_clean(
        "__kernel void k(__global float *o, int a, uint u, float4 v) {\n\
         float x = a + 1.0f;\n\
         float4 w = v * 2;\n\
         o[0] = x + w.x + (float)(u + a);\n}",
    );
    let mut saw_int_to_float = false;
    let mut saw_splat = false;
    let mut saw_uint = false;
    for (i, info) in p.exprs.iter().enumerate() {
        let _ = i;
        match (&info.ty, &info.conv) {
            (Some(Type::Scalar(Scalar::Int)), Some(Type::Scalar(Scalar::Float))) => {
                saw_int_to_float = true
            }
            (Some(Type::Scalar(Scalar::Int)), Some(Type::Vector(Scalar::Float, 4))) => {
                saw_splat = true
            }
            (Some(Type::Scalar(Scalar::Int)), Some(Type::Scalar(Scalar::UInt))) => saw_uint = true,
            _ => {}
        }
    }
    assert!(saw_int_to_float && saw_splat && saw_uint);
}

#[test]
fn vector_rules() {
    let (line, msg) =
        first_error("__kernel void k(__global int4 *o) {\n int4 a = o[0];\n o[1] = a * 2.0f;\n}");
    assert_eq!(line, 3, "{msg}");
    let (line, _) = first_error("__kernel void k(__global float4 *o) {\n float4 a = o[0];\n int4 b = (int4)(1);\n o[1] = a + b;\n}");
    assert_eq!(line, 4);
    let (line, msg) = first_error(
        "__kernel void k(__global float4 *o) {\n o[0] = (float4)(1.0f, 2.0f, 3.0f);\n}",
    );
    assert_eq!(line, 2, "{msg}");
    let (line, _) = first_error(
        "__kernel void k(__global float4 *o) {\n float4 a = o[0];\n a.xx = (float2)(1.0f);\n}",
    );
    assert_eq!(line, 3);
    let (line, _) = first_error(
        "__kernel void k(__global float *o) {\n float3 a = (float3)(0.0f);\n o[0] = a.w;\n}",
    );
    assert_eq!(line, 3);
    let (line, _) = first_error(
        "__kernel void k(__global float4 *o) {\n int4 i = (int4)(1);\n o[0] = (float4)i;\n}",
    );
    assert_eq!(line, 3);
    let p = assert_clean(
        "__kernel void k(__global float4 *o) {\n float4 a = o[0];\n int4 m = a > 1.0f;\n float8 e = (float8)(a, a.s3210);\n \
         o[0] = e.hi + (float4)(a.xy, 1.0f, 2.0f) + (m.x ? 1.0f : 0.0f);\n}",
    );
    let lanes: Vec<_> = p.exprs.iter().filter_map(|i| i.swizzle.clone()).collect();
    assert!(lanes.contains(&vec![3, 2, 1, 0]) && lanes.contains(&vec![4, 5, 6, 7]));
}

#[test]
fn constant_folding_for_array_sizes_and_cases() {
    let p = assert_clean(
        "#define N (3 * 4 + (1 << 2))\n__kernel void k(__global int *o) {\n int t[N];\n int u[sizeof(long4) / 8 - 1];\n \
         switch (o[0]) { case N - 1: o[1] = sizeof(t) + sizeof(u); break; case 'a': break; default: break; }\n}",
    );
    let sizes: Vec<u64> = p
        .symbols
        .iter()
        .filter(|s| s.name == "t" || s.name == "u")
        .filter_map(|s| match &s.ty {
            Type::Array(_, n) => *n,
            _ => None,
        })
        .collect();
    assert_eq!(sizes, vec![16, 3]);
    let (line, msg) = first_error("__kernel void k(__global int *o, int n) {\n int t[n];\n}");
    assert_eq!(line, 2, "{msg}");
    let (line, _) = first_error(
        "__kernel void k(__global int *o) {\n switch (o[0]) { case 1: break; case 1: break; }\n}",
    );
    assert_eq!(line, 2);
}

#[test]
fn scopes_and_statements() {
    let (line, msg) =
        first_error("__kernel void k(__global int *o) {\n { int x = 1; }\n o[0] = x;\n}");
    assert_eq!(
        (line, msg.as_str()),
        (3, "use of undeclared identifier 'x'")
    );
    let (line, _) = first_error(
        "__kernel void k(__global int *o) {\n for (int i = 0; i < 4; i++) {}\n o[0] = i;\n}",
    );
    assert_eq!(line, 3);
    let (line, _) = first_error("__kernel void k(__global int *o) {\n break;\n}");
    assert_eq!(line, 2);
    let (line, _) =
        first_error("int f(void) {\n return;\n}\n__kernel void k(__global int *o) { o[0] = f(); }");
    assert_eq!(line, 2);
    let (line, _) = first_error("__kernel void k(__global int *o) {\n int a = 1;\n int a = 2;\n}");
    assert_eq!(line, 3);
    let (line, _) = first_error("__kernel void k(int *o) {\n}");
    assert_eq!(line, 1);
    let (line, _) = first_error("__kernel void k(__global int *o) {\n o[0] = undefined_fn(1);\n}");
    assert_eq!(line, 2);
    let (line, _) = first_error("int x = 3;\n__kernel void k(__global int *o) { o[0] = x; }");
    assert_eq!(line, 1);
}

#[test]
fn address_spaces_of_pointers() {
    let (line, msg) = first_error(
        "__kernel void k(__global int *g, __local int *l) {\n __global int *p = l;\n p[0] = 1;\n}",
    );
    assert_eq!(line, 2, "{msg}");
    let p = assert_clean(
        "__kernel void k(__global int *g, __local int *l) {\n __local int *q = l + 1;\n q[0] = g[0];\n}",
    );
    let k = &p.kernels[0];
    assert_eq!(k.params[0].access, "read");
    assert_eq!(k.params[1].access, "write");
    assert_eq!(k.params[1].kind, "local_buffer");
}

#[test]
fn kernel_summary_lists_attrs_params_and_loops() {
    let p = assert_clean(
        "void helper(__global float *p, int n) {\n #pragma unroll 2\n for (int i = 0; i < n; i++) p[i] += 1.0f;\n}\n\
         __kernel __attribute__((reqd_work_group_size(8, 4, 1))) __attribute__((vec_type_hint(float4)))\n\
         void k(__global const float *in, __global float *out, int n) {\n\
         [[cl::ivdep(8)]] for (int i = 0; i < n; i++) out[i] = in[i];\n\
         __attribute__((opencl_unroll_hint)) while (n > 0) n--;\n helper(out, n);\n}",
    );
    let k = &p.kernels[0];
    assert_eq!(k.attrs.reqd_work_group_size, Some([8, 4, 1]));
    assert_eq!(k.attrs.vec_type_hint, "float4");
    assert!(k.attrs.vec_type_hint_explicit);
    assert_eq!(k.params[0].ty, "__global const float *");
    assert_eq!(k.params[0].access, "read");
    assert_eq!(k.params[1].access, "read_write");
    assert_eq!(k.params[2].kind, "scalar");
    assert_eq!(k.loops.len(), 3);
    let ivdep = k
        .loops
        .iter()
        .find(|l| l.ivdep.is_some())
        .expect("ivdep loop");
    assert_eq!(ivdep.ivdep.as_ref().and_then(|i| i.safelen), Some(8));
    assert_eq!(ivdep.line, 7);
    let full = k
        .loops
        .iter()
        .find(|l| l.kind == "while")
        .expect("while loop");
    assert_eq!(full.unroll.as_ref().map(|u| u.factor), Some(None));
    let helper = k
        .loops
        .iter()
        .find(|l| l.function == "helper")
        .expect("helper loop");
    assert_eq!(helper.unroll.as_ref().and_then(|u| u.factor), Some(2));
    assert_eq!(p.loop_hints.len(), 3);
}

#[test]
fn memory_shaping_hints_warn_that_they_are_not_acted_on() {
    let (_, d, _) = check_src(
        "__kernel void k(__global int *o) {\n\
         __local int t[64] __attribute__((bankwidth(8)));\n\
         int w[4] __attribute__((register));\n\
         t[0] = 1; w[0] = t[0]; o[0] = w[0];\n}",
    );
    let warnings: Vec<_> = d
        .list
        .iter()
        .filter(|x| x.severity == Severity::Warning)
        .map(|x| x.message.clone())
        .collect();
    for name in ["'bankwidth(8)'", "'register'"] {
        assert!(
            warnings
                .iter()
                .any(|w| w.contains(name) && w.contains("not acted on")),
            "{name}: {warnings:?}"
        );
    }
    assert!(!d.has_errors());
}

/// The memory hints recorded for variable `name` of `p`.
fn hints_of(p: &super::Program, name: &str) -> Option<super::MemoryHints> {
    p.symbols
        .iter()
        .position(|s| s.name == name)
        .and_then(|i| p.memory_hints.get(&super::SymbolId(i as u32)).copied())
}

#[test]
fn banks_and_replicas_asked_for_are_recorded_per_array() {
    let (p, d, _) = check_src(
        "__kernel void k(__global int *o) {\n\
         __local int a[64] __attribute__((numbanks(4)));\n\
         __local int b[8][4] __attribute__((xcl_array_partition(cyclic, 2, 2)));\n\
         __local int c[8][4] __attribute__((xcl_array_partition(cyclic, 2, 1)));\n\
         __local int e[16] __attribute__((max_replicates(2)));\n\
         a[0] = 1; b[0][0] = 1; c[0][0] = 1; e[0] = 1;\n\
         o[0] = a[0] + b[0][0] + c[0][0] + e[0];\n}",
    );
    assert!(!d.has_errors(), "{:?}", d.list);
    let of = |name: &str| hints_of(&p, name);
    assert_eq!(of("a").and_then(|h| h.banks), Some(4));
    assert_eq!(of("b").and_then(|h| h.banks), Some(2));
    // An outer dimension's cyclic partition is not a cyclic bank of the flat array.
    assert_eq!(of("c"), None);
    assert!(d.list.iter().any(|x| x.severity == Severity::Warning
        && x.message
            .contains("'xcl_array_partition(cyclic, 2, 1)' is not acted on")));
    assert_eq!(of("e").and_then(|h| h.max_replicates), Some(2));
    // Complete partitions: of the innermost dimension, of the whole array (dim 0).
    let (p, d, _) = check_src(
        "__kernel void k(__global int *o) {\n\
         __local int f[8][4] __attribute__((xcl_array_partition(complete, 2)));\n\
         int g[2][4] __attribute__((xcl_array_partition(complete, 0)));\n\
         __local int h[64] __attribute__((xcl_array_partition(complete, 1)));\n\
         f[0][0] = 1; g[0][0] = 1; h[0] = 1; o[0] = f[0][0] + g[0][0] + h[0];\n}",
    );
    assert!(!d.has_errors(), "{:?}", d.list);
    let of = |name: &str| hints_of(&p, name);
    assert_eq!(of("f").and_then(|h| h.banks), Some(4));
    assert_eq!(of("g").and_then(|h| h.banks), Some(8));
    // 64 memories are more banks than the tool builds: a warning, nothing asked.
    assert_eq!(of("h"), None);
    assert!(d.list.iter().any(|x| x.severity == Severity::Warning
        && x.message
            .contains("'xcl_array_partition(complete, 1)' is not acted on")));
    // Block partitions of the outermost dimension (of a 1-D array: the array) are runs of
    // the flattened array; of an inner dimension, or by a factor that does not divide
    // the extent, they warn.
    let (p, d, _) = check_src(
        "__kernel void k(__global int *o) {\n\
         __local int m[128] __attribute__((xcl_array_partition(block, 4, 1)));\n\
         __local int n[8][4] __attribute__((xcl_array_partition(block, 2, 1)));\n\
         __local int q[8][4] __attribute__((xcl_array_partition(block, 2, 2)));\n\
         __local int r[6] __attribute__((xcl_array_partition(block, 4, 1)));\n\
         m[0] = 1; n[0][0] = 1; q[0][0] = 1; r[0] = 1;\n\
         o[0] = m[0] + n[0][0] + q[0][0] + r[0];\n}",
    );
    assert!(!d.has_errors(), "{:?}", d.list);
    let block = |b: u32| {
        Some(super::MemoryHints {
            banks: Some(b),
            mapping: super::BankMapping::Block,
            max_replicates: None,
            bankwidth: None,
        })
    };
    assert_eq!(hints_of(&p, "m"), block(4));
    assert_eq!(hints_of(&p, "n"), block(2));
    assert_eq!(hints_of(&p, "q"), None);
    assert_eq!(hints_of(&p, "r"), None);
    for bad in ["(block, 2, 2)", "(block, 4, 1)"] {
        let what = format!("'xcl_array_partition{bad}' is not acted on");
        assert!(
            d.list
                .iter()
                .any(|x| x.severity == Severity::Warning && x.message.contains(&what)),
            "{what}: {:?}",
            d.list
        );
    }
    // Malformed requests are errors.
    for bad in [
        "numbanks(3)",
        "numbanks(32)",
        "xcl_array_partition(cyclic, 3, 1)",
        "xcl_array_partition(diagonal)",
        "xcl_array_partition(complete)",
        "xcl_array_partition(block, 3, 1)",
        "xcl_array_partition(block, 32, 1)",
        "xcl_array_partition(block, 2)",
        "bankwidth(6)",
    ] {
        let (_, d, _) = check_src(&format!(
            "__kernel void k(__global int *o) {{ __local int t[64] __attribute__(({bad})); \
             t[0] = 1; o[0] = t[0]; }}"
        ));
        assert!(d.has_errors(), "{bad}");
    }
}

#[test]
fn unknown_attributes_and_pragmas_warn() {
    let (_, d, _) = check_src(
        "#pragma frobnicate\n__kernel __attribute__((foo)) void k(__global int *o) {\n [[cl::bar]] for (;;) break;\n}",
    );
    let warnings: Vec<_> = d
        .list
        .iter()
        .filter(|x| x.severity == Severity::Warning)
        .map(|x| x.message.clone())
        .collect();
    assert!(warnings.iter().any(|w| w.contains("'foo'")), "{warnings:?}");
    assert!(
        warnings.iter().any(|w| w.contains("cl::bar")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("frobnicate")),
        "{warnings:?}"
    );
    assert!(!d.has_errors());
}

#[test]
fn fp16_pragma_enables_half() {
    let src = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n__kernel void k(__global half *p) {\n half a = p[0];\n p[1] = a * 2.0h;\n}";
    assert_clean(src);
    let (line, _) = first_error("__kernel void k(__global half *p) {\n float f = p[0];\n}");
    assert_eq!(line, 2);
}

#[test]
fn fp_contract_is_recorded_and_builtins_resolved() {
    let p = assert_clean(
        "#pragma OPENCL FP_CONTRACT ON\n__kernel void k(__global float *p) {\n p[0] = fma(p[1], 2.0f, 1.0f) + get_global_id(0);\n}",
    );
    assert_eq!(p.fp_contract.len(), 1);
    assert!(p
        .exprs
        .iter()
        .any(|i| matches!(&i.callee, Some(super::Callee::Builtin(s)) if s.name == "fma")));
}

#[test]
fn fp_contract_on_warns_that_nothing_is_fused() {
    let (_, d, _) = check_src("#pragma OPENCL FP_CONTRACT ON\n#pragma OPENCL FP_CONTRACT OFF\n");
    let warnings: Vec<_> = d
        .list
        .iter()
        .filter(|x| x.severity == Severity::Warning)
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("does not contract"));
    assert!(!d.has_errors());
}

#[test]
fn vendor_kernel_attributes() {
    let p = assert_clean(
        "__kernel __attribute__((reqd_work_group_size(64, 1, 1))) __attribute__((num_simd_work_items(4)))\n\
         __attribute__((max_work_group_size(256))) __attribute__((num_compute_units(2, 1)))\n\
         __attribute__((xcl_pipeline_workitems)) __attribute__((required_num_sub_groups(2)))\n\
         void k(__global int *o) { o[0] = 1; }",
    );
    let a = &p.kernels[0].attrs;
    assert_eq!(a.num_simd_work_items, Some(4));
    assert_eq!(a.max_work_group_size, Some([256, 1, 1]));
    assert_eq!(a.num_compute_units, Some(vec![2, 1]));
    assert!(a.xcl_pipeline_workitems);
    assert_eq!(a.required_num_sub_groups, Some(2));
    assert_eq!(a.vec_type_hint, "int");
    let (line, _) = first_error(
        "__kernel __attribute__((reqd_work_group_size(6, 1, 1)))\n__attribute__((num_simd_work_items(4)))\nvoid k(__global int *o) { }",
    );
    assert_eq!(line, 2);
    let (line, _) =
        first_error("__kernel __attribute__((num_simd_work_items(3))) void k(__global int *o) { }");
    assert_eq!(line, 1);
}

#[test]
fn loop_pragmas_are_validated() {
    let p = assert_clean(
        "__kernel void k(__global int *o, int n) {\n\
         #pragma ivdep safelen(4)\n for (int i = 0; i < n; i++) o[i] = i;\n\
         #pragma nounroll\n for (int i = 0; i < n; i++) o[i] += 1;\n\
         #pragma ivdep array(o)\n while (n--) o[n] = 0;\n}",
    );
    let loops = &p.kernels[0].loops;
    assert_eq!(loops[0].ivdep.as_ref().and_then(|i| i.safelen), Some(4));
    assert_eq!(loops[1].unroll.as_ref().and_then(|u| u.factor), Some(1));
    let h = &p.loop_hints[&loops[2].stmt];
    assert_eq!(h.ivdep_arrays, vec!["o".to_string()]);
    let (line, _) =
        first_error("__kernel void k(__global int *o) {\n #pragma unroll 4\n o[0] = 1;\n}");
    assert_eq!(line, 2);
    let (line, _) = first_error(
        "__kernel void k(__global int *o, int n) {\n #pragma unroll 0\n for (;;) break;\n}",
    );
    assert_eq!(line, 2);
}

#[test]
fn operators_check_their_operands() {
    let src = |body: &str| {
        format!(
            "__kernel void k(__global int *o, float f, int i, float4 v, int4 w) {{\n {body}\n}}"
        )
    };
    for bad in [
        "o[0] = f % 2.0f;",
        "o[0] = f & i;",
        "o[0] = ~f;",
        "o[0] = i << v;",
        "o[0] = (int)(v == w).x;",
        "o[0] = *i;",
        "o[0] = &(i + 1) == 0;",
        "v.xy = w.xy;",
        "i = v;",
        "{ __local int x; }",
        "o = 0; const int c = 1; c = 2;",
    ] {
        let (line, msg) = first_error(&src(bad));
        assert_eq!(line, 2, "{bad}: {msg}");
    }
    let p = assert_clean(&src(
        "int4 m = v < 1.0f; long c = (long)(f > 0.0f) + (v.x != v.y); o[0] = m.x + (int)c + (i << 33) + (w >> 1).y;",
    ));
    let rel: Vec<_> = p
        .exprs
        .iter()
        .filter_map(|i| i.ty.clone())
        .filter(|t| *t == Type::Vector(Scalar::Int, 4))
        .collect();
    assert!(!rel.is_empty());
    let p = assert_clean(
        "__kernel void k(__global int *o) {\n o[0] = (7 / 2) * (int)sizeof(float3) + (-7 % 3) + (1u << 31 >> 30) + (char)300;\n}",
    );
    let v = p.exprs.iter().filter_map(|i| i.value).max();
    assert_eq!(v, Some(1i128 << 31), "largest folded constant");
    let folded: Vec<i128> = p.exprs.iter().filter_map(|i| i.value).collect();
    assert!(folded.contains(&(3 * 16 - 1 + 2 + 44)), "{folded:?}");
}

#[test]
fn null_pointer_constants() {
    assert_clean(
        "#define NULL ((void*)0)\n__kernel void k(__global int *o, __local int *l) {\n\
         __global int *p = NULL;\n __local int *q = 0;\n if (o != NULL && l != 0 && p == NULL) o[0] = 1;\n\
         __global int *r = o[0] ? o : NULL;\n r[0] = (q == NULL);\n}",
    );
}

#[test]
fn true_and_false_are_bool_keywords() {
    assert_clean(
        "__kernel void k(__global int *o) {\n\
         bool b = true;\n\
         o[0] = b + false + (int)sizeof(true);\n\
         int a[sizeof(false) == 1 && true ? 1 : -1];\n a[0] = 0;\n}",
    );
    let (line, msg) = first_error("__kernel void k(__global int *o) {\n int true = 1;\n}");
    assert_eq!(line, 2, "{msg}");
}

#[test]
fn loop_attributes_before_labels_and_tripcounts() {
    let p = assert_clean(
        "__kernel void k(__global int *o, int n) {\n\
         __attribute__((xcl_pipeline_loop(1))) __attribute__((xcl_loop_tripcount(1, 9)))\n\
         lbl: for (int i = 0; i < n; i++) o[i] = 0;\n\
         a: b: __attribute__((xcl_pipeline_loop, xcl_loop_tripcount(1, 9, 2))) while (n--) o[n] = 1;\n\
         done: o[0] = 2;\n}",
    );
    let loops = &p.kernels[0].loops;
    assert_eq!(loops.len(), 2);
    assert!(loops.iter().all(|l| l.pipeline));
    let t: Vec<_> = loops.iter().map(|l| l.tripcount.map(|t| t.avg)).collect();
    assert_eq!(t, [Some(5), Some(2)]);
    for (src, want) in [
        ("xcl_loop_tripcount(9, 2)", "needs min <= avg <= max"),
        ("xcl_loop_tripcount(4)", "takes two or three arguments"),
        ("xcl_loop_tripcount(-1, 2)", "non-negative"),
    ] {
        let (line, msg) = first_error(&format!(
            "__kernel void k(__global int *o) {{\n __attribute__(({src}))\n l: for (int i = 0; i < 4; i++) o[i] = 0;\n}}"
        ));
        assert!(line == 2 && msg.contains(want), "{src}: {line}: {msg}");
    }
    let (line, msg) = first_error(
        "__kernel void k(__global int *o) {\n __attribute__((xcl_pipeline_loop)) l: o[0] = 1;\n}",
    );
    assert!(
        line == 2 && msg.contains("only applies to for, while and do loops"),
        "{msg}"
    );
}

#[test]
fn local_variables_in_helpers_are_accepted_with_a_warning() {
    let (_, d, sm) = check_src(
        "void h(__global int *o) {\n __local int x[4];\n x[0] = 1; o[0] = x[0];\n}\n\
         __kernel void k(__global int *o) { h(o); }",
    );
    assert!(!d.has_errors(), "{:?}", d.list);
    let w: Vec<_> = d
        .list
        .iter()
        .filter(|x| x.severity == Severity::Warning)
        .collect();
    assert_eq!(w.len(), 1);
    assert_eq!(sm.line_col(w[0].span.expect("span")).0, 2);
    let m = &w[0].message;
    assert!(
        m.contains("OpenCL C 1.2 (6.5.2)") && m.contains("'h'"),
        "{m}"
    );
}

#[test]
fn async_copy_events_are_event_t_or_the_constant_0() {
    assert_clean(
        "__kernel void k(__global int *g) {\n __local int l[8];\n\
         event_t e = async_work_group_copy(l, g, 8, 0);\n\
         e = async_work_group_strided_copy(g, l, 8, 2, e);\n wait_group_events(1, &e);\n}",
    );
    let (line, msg) = first_error(
        "__kernel void k(__global int *g, int n) {\n __local int l[8];\n\
         async_work_group_copy(l, g, 8, n);\n}",
    );
    assert!(line == 3 && msg.contains("the constant 0"), "{line}: {msg}");
}

#[test]
fn bankwidth_of_the_element_size_is_honoured_others_say_why_not() {
    let (_, d, _) = check_src(
        "__kernel void k(__global int *o) {\n\
         __local int a[64] __attribute__((bankwidth(4)));\n\
         __local float4 b[16] __attribute__((bankwidth(16)));\n\
         __local short c[64] __attribute__((bankwidth(8)));\n\
         __local long e[64] __attribute__((bankwidth(2)));\n\
         __local int f[64] __attribute__((bankwidth(64)));\n\
         a[0] = 1; b[0] = 1; c[0] = 1; e[0] = 1; f[0] = 1;\n\
         o[0] = a[0] + (int)b[0].x + c[0] + (int)e[0] + f[0];\n}",
    );
    assert!(!d.has_errors(), "{:?}", d.list);
    let warned = |w: &str| {
        d.list
            .iter()
            .filter(|x| x.severity == Severity::Warning && x.message.contains(w))
            .map(|x| x.message.clone())
            .collect::<Vec<_>>()
    };
    assert!(warned("'bankwidth(4)'").is_empty());
    assert!(warned("'bankwidth(16)'").is_empty());
    assert!(warned("'bankwidth(8)'")[0].contains("byte enables"));
    assert!(warned("'bankwidth(2)'")[0].contains("split each 8-byte element over 4 words"));
    assert!(warned("'bankwidth(64)'")[0].contains("widest RAM word is 32 bytes"));
}
