//! Tests of the language rules through the whole frontend: conversions, vectors, constant
//! folding, scopes, address spaces, initializers, attributes and pragmas.

use crate::diag::Severity;
use crate::frontend::types::{Scalar, Type};

use super::tests::{assert_clean, check_src, first_error};
use super::Program;

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
    let (line, _) = first_error(
        "void h(void) {\n __local int x[4];\n}\n__kernel void k(__global int *o) { h(); }",
    );
    assert_eq!(line, 2);
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

fn init_of(p: &Program, name: &str) -> Vec<(u64, String)> {
    let d = p
        .decl_symbols
        .iter()
        .position(|s| s.is_some_and(|s| p.symbol(s).name == name))
        .expect("declarator");
    let mut v: Vec<(u64, String)> = p.inits[&crate::frontend::ast::DeclaratorId(d as u32)]
        .iter()
        .map(|e| (e.offset, e.ty.to_string()))
        .collect();
    v.sort();
    v
}

#[test]
fn initializers_flatten_to_offsets() {
    let p = assert_clean(
        "struct P { char c; int v[2]; float4 f; };\n\
         __constant int tab[] = {1, 2, [5] = 6, 7};\n\
         __kernel void k(__global int *o) {\n\
         struct P a = { 'x', {1, 2}, (float4)(1.0f) };\n\
         struct P b = { .f = (float4)(0.0f), .v[1] = 3 };\n\
         struct P arr[2] = { 1, 2, 3 };\n\
         char s[] = \"hi\";\n\
         int big[1 << 28] = {0};\n\
         o[0] = tab[0] + a.v[0] + b.v[1] + arr[0].c + s[0] + sizeof(s) + big[0];\n}",
    );
    let tab = p.symbols.iter().find(|s| s.name == "tab").expect("tab");
    assert_eq!(tab.ty, Type::Array(Box::new(Type::int()), Some(7)));
    assert_eq!(
        init_of(&p, "tab").iter().map(|e| e.0).collect::<Vec<_>>(),
        vec![0, 4, 20, 24]
    );
    assert_eq!(
        init_of(&p, "a"),
        vec![
            (0, "char".into()),
            (4, "int".into()),
            (8, "int".into()),
            (16, "float4".into())
        ]
    );
    assert_eq!(
        init_of(&p, "b"),
        vec![(8, "int".into()), (16, "float4".into())]
    );
    // Brace elision: 1 -> arr[0].c, 2 and 3 -> arr[0].v[0..2].
    assert_eq!(
        init_of(&p, "arr"),
        vec![(0, "char".into()), (4, "int".into()), (8, "int".into())]
    );
    let s = p.symbols.iter().find(|s| s.name == "s").expect("s");
    assert_eq!(
        s.ty,
        Type::Array(Box::new(Type::Scalar(Scalar::Char)), Some(3))
    );
    let (line, _) = first_error("__kernel void k(__global int *o) {\n int a[2] = {1, 2, 3};\n}");
    assert_eq!(line, 2);
    let (line, _) =
        first_error("__constant int c;\n__kernel void k(__global int *o) { o[0] = c; }");
    assert_eq!(line, 1);
}

#[test]
fn members_records_and_recursion() {
    let p = assert_clean(
        "struct N; struct L { struct N *next; int v; };\nstruct N { struct L l; };\n\
         __kernel void k(__global struct L *o) {\n struct N n;\n n.l.v = o->v;\n o[1].v = n.l.v;\n}",
    );
    assert_eq!(p.kernels[0].params[0].access, "read_write");
    assert_eq!(p.kernels[0].params[0].kind, "global_buffer");
    let (line, msg) =
        first_error("struct S { int a; };\n__kernel void k(__global struct S *o) {\n o->b = 1;\n}");
    assert_eq!(line, 3, "{msg}");
    let (line, msg) = first_error(
        "int b(int x);\nint a(int x) { return b(x); }\nint b(int x) {\n return x ? a(x - 1) : 0;\n}\n\
         __kernel void k(__global int *o) { o[0] = a(3); }",
    );
    assert!(line == 2 || line == 4, "{line} {msg}");
    let (line, _) = first_error("int f(int a, int b) { return a + b; }\n__kernel void k(__global int *o) {\n o[0] = f(1);\n}");
    assert_eq!(line, 3);
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
fn one_bad_declaration_gives_one_error() {
    let (_, d, _) = check_src(
        "__kernel void k(__global int *o, int n) {\n int v[n];\n o[0] = v[0] + v[1];\n\
         enum E e2 = 1;\n o[1] = e2 + v[2];\n}",
    );
    let msgs: Vec<_> = d
        .list
        .iter()
        .filter(|x| x.severity == Severity::Error)
        .map(|x| x.message.clone())
        .collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(msgs[0].contains("variable length"), "{msgs:?}");
    assert!(msgs[1].contains("enum 'E'"), "{msgs:?}");
}

#[test]
fn constant_initializers_must_be_constant() {
    assert_clean(
        "__constant float tab[3] = { 1.0f, -2.5f * 2, INFINITY };\n__constant int4 v = (int4)(1, 2, 3, sizeof(float3));\n\
         __kernel void k(__global float *o) { o[0] = tab[0] + v.x; }",
    );
    let (line, msg) = first_error(
        "__kernel void k(__global float *o) {\n float x = o[0];\n __constant float c[2] = { 1.0f, x };\n o[1] = c[0];\n}",
    );
    assert_eq!(line, 3, "{msg}");
}

#[test]
fn hostile_input_never_panics() {
    let bodies = [
        "int a[0xffffffffffffffff];",
        "char s[] = {[0xffffffffffffffff] = 1};",
        "char s[] = {[0xfffffffffffffffe] = 1, 2};",
        "int x __attribute__((aligned(0x40000000)));",
        "int y __attribute__((aligned(0x8000000000000000)));",
        "o[0] = 1 << -1; o[1] = 1 >> 0xffffffffffffffff; o[2] = (char)-1 % 0; o[3] = 5 / 0;",
        "o[0] = -9223372036854775807L - 1 == 0x8000000000000000;",
        "struct B { int f : 0xffffffff; }; struct C { int g : -1; };",
        "o[0] = vec_step(void); o[1] = sizeof(struct U); o[2] = __alignof__(void);",
        "o[0] = ((int4)(((int2)(1, 2)).xy, 3, 4)).wzyx.s3210.odd.y;",
        "switch (o[0]) { case 0xffffffffffffffff: break; case -1: break; }",
        "k(o); o[0] = sizeof(o[0]) + sizeof k;",
        "enum E { A = 0xffffffffffffffff, B, C = A * A }; o[0] = B + C;",
        "long l[2][3][4] = {{{1}}, [1][2][3] = 9};",
        "struct S { struct S *next; float4 v[2]; } s = { 0, { (float4)(1.0f) } }; o[0] = s.v[1].x;",
        "o[0] = (int)(o + 0xffffffffffffffff - o);",
        "goto nowhere; lbl: lbl: ;",
    ];
    for b in bodies {
        let src = format!("__kernel void k(__global int *o) {{\n {b}\n}}");
        let _ = check_src(&src);
    }
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
fn anonymous_members_are_found_by_name() {
    let p = assert_clean(
        "struct V { char tag; union { float4 v; float a[4]; }; struct { int x, y; }; };\n\
         __kernel void k(__global struct V *o) { o->a[1] = o->v.x + o->x + o->y; }",
    );
    let rec = p
        .records
        .iter()
        .find(|r| r.name.as_deref() == Some("V"))
        .expect("V");
    let off = |n: &str| {
        rec.fields
            .iter()
            .find(|f| f.name.as_deref() == Some(n))
            .map(|f| f.offset)
    };
    assert_eq!(
        (off("v"), off("a"), off("x"), off("y")),
        (Some(16), Some(16), Some(32), Some(36))
    );
    assert_eq!((rec.size, rec.align), (48, 16));
}
