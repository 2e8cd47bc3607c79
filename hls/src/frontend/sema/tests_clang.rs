//! The checker's verdicts on small kernels compared with clang's (OpenCL C 1.2, spir64):
//! each snippet is a kernel body both must accept, or both must reject.

use std::process::Command;

use super::tests::check_src;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Want {
    Accept,
    Reject,
    /// We reject what clang accepts: a C constraint violation clang only warns about, or
    /// an OpenCL rule (recursion) clang leaves to the backend.
    Stricter,
    /// We accept, with a warning, what clang rejects: a vendor compiler's extension that
    /// real kernels rely on (Intel's `__local` variables in helper functions).
    Looser,
}
use Want::*;

const SNIPPETS: &[(Want, &str)] = &[
    (Accept, "float4 a = v * 2; o[0] = (int)a.x;"),
    (Accept, "float4 a = v * 2.0f; o[0] = (int)a.x;"),
    (Accept, "int4 b = w * 2; o[0] = b.x;"),
    (Accept, "int4 b = w + (char)1; o[0] = b.y;"),
    (Accept, "int4 m = v > v; o[0] = m.z;"),
    (Accept, "float4 a = 1.0f; o[0] = (int)a.w;"),
    (
        Accept,
        "float4 a = (float4)(1.0f, v.xy, 2.0f); o[0] = (int)a.x;",
    ),
    (Accept, "float2 h = v.hi; o[0] = (int)h.y;"),
    (Accept, "float s = v.s3; o[0] = (int)s;"),
    (Accept, "o[0] = i << 40;"),
    (Accept, "__global int *p = o + 1; p[0] = 1;"),
    (Accept, "o[0] = f > 0 ? 1 : 2;"),
    (Accept, "float3 t = (float3)(v.xyz); o[0] = (int)t.z;"),
    (Accept, "v.xyz = v.zyx; o[0] = (int)v.x;"),
    (Accept, "o[0] = vec_step(float3) + sizeof(float3);"),
    (Accept, "long x = i * 3L; o[0] = (int)x;"),
    (Accept, "uint q = u + i; o[0] = (int)q;"),
    (Accept, "int4 m = w & 3; int4 n = ~m; o[0] = n.x;"),
    (Accept, "o[0] = (int)(v.x && 1);"),
    (Accept, "o[0] = (int)(u < i);"),
    (Accept, "int4 s = w >> 2; o[0] = s.x;"),
    (Accept, "float4 c = w.x ? v : v; o[0] = (int)c.x;"),
    (Accept, "__local int *q = l; q[0] = 1;"),
    (Accept, "o[0] = (int)(size_t)o;"),
    (Accept, "const int k2 = 3; o[k2] = k2;"),
    (
        Accept,
        "struct S { int a; float b; } s = { 1, 2.0f }; o[0] = s.a;",
    ),
    (
        Accept,
        "int arr[] = {1, 2, 3}; o[0] = arr[2] + sizeof(arr);",
    ),
    (Accept, "char str[] = \"abc\"; o[0] = str[0];"),
    (Reject, "int4 b = w * 2.0f; o[0] = b.x;"),
    (Reject, "float4 a = v + w; o[0] = (int)a.x;"),
    (Reject, "float4 a = (float4)(1.0f, 2.0f); o[0] = (int)a.x;"),
    (Reject, "float3 t = (float3)(1.0f); o[0] = (int)t.w;"),
    (Reject, "v.xx = (float2)(1.0f);"),
    (Reject, "int4 b = (int4)v; o[0] = b.x;"),
    (Reject, "o[0] = f % 2.0f;"),
    (Reject, "o[0] = ~f;"),
    (Reject, "__local int *p = o; p[0] = 1;"),
    (Reject, "o[0] = undefined_thing;"),
    (Reject, "int a[i]; a[0] = 1;"),
    (Reject, "o[0] = *i;"),
    (Reject, "float x = v; o[0] = (int)x;"),
    (Reject, "char *s = \"x\"; o[0] = s[0];"),
    (Reject, "o[0] = v.q;"),
    (Reject, "o[0] = (v == w).x;"),
    (Reject, "int x = 1; int x = 2;"),
    (Reject, "o[0] = (int)v.s4;"),
    (Reject, "o[0] = i ? v : 1.0f;"),
    (Reject, "half hh; hh = 1;"),
    (Reject, "o[0] = f << 1;"),
    (Reject, "const int k2 = 3; k2 = 4;"),
    (Stricter, "int arr[2] = {1, 2, 3};"),
    (Reject, "float4 a = (float4)(w.xy, 1.0f, 1.0f);"),
    (Reject, "break;"),
    (Stricter, "o[0] = i < o;"),
    (Reject, "struct S { int a; } s; o[0] = s.b;"),
    (Reject, "int4 b = w << v;"),
    (Accept, "@int f(int); int f(int x) { return x; }\n__kernel void k(__global int *o) { o[0] = f(1); }"),
    (Reject, "@__kernel void k(__global int **o) { }"),
    (Reject, "@__kernel void k(int *o) { }"),
    (Reject, "@__kernel int k(__global int *o) { return 0; }"),
    (Looser, "@void h(void) { __local int x; x = 1; }\n__kernel void k(__global int *o) { h(); }"),
    (Reject, "@int x = 1;\n__kernel void k(__global int *o) { o[0] = x; }"),
    (Accept, "@__constant int x = 1;\n__kernel void k(__global int *o) { o[0] = x; }"),
    (Reject, "@__constant int x;\n__kernel void k(__global int *o) { o[0] = x; }"),
    (Stricter, "@int f(int n) { return n ? f(n - 1) : 0; }\n__kernel void k(__global int *o) { o[0] = f(3); }"),
    (Accept, "@typedef struct { int a; float b; } P;\n__kernel void k(__global P *p) { p->a = (int)p->b; }"),
    (Accept, "@__kernel void k(__global int *o) { __local int t[4]; t[0] = 1; o[0] = t[0]; }"),
    (Reject, "@__kernel void k(__global int *o) { { __local int t[4]; t[0] = 1; } }"),
    (Accept, "@#define NULL ((void*)0)\n__kernel void k(__global int *o) { __global int *p = NULL; if (p != NULL) o[0] = 1; }"),
    (Reject, "@__kernel void k(__global int *o, __local int *l) { o = l; }"),
    (Accept, "@__kernel void k(__global float *o) { o[0] = INFINITY + NAN + M_PI_F + FLT_MAX; }"),
    (Accept, "@enum E { A, B = 5, C };\n__kernel void k(__global int *o) { enum E e = C; o[0] = e + B; }"),
    (Accept, "@__kernel void k(__global int *o) { switch (o[0]) { case 1: case 2: o[1] = 0; break; default: ; } }"),
    (Reject, "@__kernel void k(__global int *o) { continue; }"),
    (Accept, "@__kernel void k(__global int *o) { int i = 0; do { i++; } while (i < 3); o[0] = i; }"),
    (Reject, "@__kernel void k(__global float4 *o) { o[0] = (float4)(1.0f, 2.0f, 3.0f, 4.0f, 5.0f); }"),
    (Accept, "@__kernel void k(__global float *o) { float8 v = (float8)(1.0f); float4 w = v.s0123 + v.s4567 + v.lo.lo.xyxy; o[0] = w.x; }"),
    (Reject, "@__kernel void k(__global float *o) { float2 v = (float2)(1.0f); o[0] = v.z; }"),
    (Reject, "@__kernel void k(__global int *o) { int a = 1; int *p = &a; __global int *q = p; q[0] = 1; }"),
    (Accept, "@__kernel __attribute__((reqd_work_group_size(8, 1, 1))) void k(__global int *o) { o[0] = 1; }"),
    (Reject, "@__kernel __attribute__((reqd_work_group_size(8, 1))) void k(__global int *o) { }"),
    (Accept, "@struct __attribute__((packed)) S { char c; int i; };\n__kernel void k(__global struct S *s) { s->i = s->c; }"),
    (Reject, "@struct S { int i __attribute__((aligned(12))); };\n__kernel void k(__global struct S *s) { s->i = 1; }"),
    (Accept, "@#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n__kernel void k(__global half *o) { half h = o[0]; o[1] = h * (half)2; }"),
    (Reject, "@__kernel void k(__global half *o) { half h; }"),
    (Reject, "@__kernel void k(__global half *o) { float f = o[0]; }"),
    (Accept, "@__kernel void k(__global half *o) { vstore_half(vload_half(0, o) * 2.0f, 1, o); }"),
    (Reject, "@__kernel void k(__global int *o) { o[0] = get_global_id(0, 1); }"),
    (Reject, "@__kernel void k(__global int *o) { o[0] = not_a_function(1); }"),
];

const PARAMS: &str = "__global int *o, float f, int i, float4 v, int4 w, uint u, __local int *l";

fn clang_accepts(dir: &std::path::Path, n: usize, src: &str) -> bool {
    let file = dir.join(format!("s{n}.cl"));
    std::fs::write(&file, src).expect("write snippet");
    let out = Command::new("clang")
        .args([
            "-cl-std=CL1.2",
            "-fsyntax-only",
            "-Xclang",
            "-finclude-default-header",
            "-target",
            "spir64",
        ])
        .arg(&file)
        .output()
        .unwrap_or_else(|_| panic!("clang not found: run `bash scripts/install-deps.sh`"));
    out.status.success()
}

#[test]
fn verdicts_agree_with_clang() {
    let dir = std::env::temp_dir().join(format!("ocl-hls-sema-clang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut bad = Vec::new();
    for (n, (want, body)) in SNIPPETS.iter().enumerate() {
        let src = match body.strip_prefix('@') {
            Some(whole) => format!("{whole}\n"),
            None => format!("__kernel void k({PARAMS}) {{\n {body}\n}}\n"),
        };
        let (_, d, _) = check_src(&src);
        let ours = !d.has_errors();
        let clang = clang_accepts(&dir, n, &src);
        let ok = match want {
            Accept => ours && clang,
            Reject => !ours && !clang,
            Stricter => !ours && clang,
            Looser => ours && !clang,
        };
        if !ok {
            bad.push(format!(
                "{want:?} `{body}`: ours accepts={ours}, clang accepts={clang}"
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(bad.is_empty(), "disagreements:\n{}", bad.join("\n"));
}
