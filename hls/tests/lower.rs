//! Lowering tests: every conformance kernel lowers and verifies; small kernels checked
//! through the IR printer.

use std::path::{Path, PathBuf};

use ocl_hls::diag::render;
use ocl_hls::frontend::{check_file, check_source, Options};
use ocl_hls::ir::{print::print_kernel, Module};
use ocl_hls::lower::lower;

/// Lowers OpenCL C source; panics with the rendered diagnostics on failure.
fn lower_src(src: &str) -> Module {
    let c = check_source("t.cl", src, &Options::default());
    let Some(p) = c.program.as_ref().filter(|_| !c.has_errors()) else {
        let msgs: Vec<String> = c.diags.list.iter().map(|d| render(&c.sources, d)).collect();
        panic!("frontend errors:\n{}", msgs.join(""));
    };
    match lower(p, &c.sources) {
        Ok(m) => m,
        Err(d) => {
            let msgs: Vec<String> = d.list.iter().map(|x| render(&c.sources, x)).collect();
            panic!("lowering errors:\n{}", msgs.join(""));
        }
    }
}

fn ir_of(src: &str) -> String {
    let m = lower_src(src);
    m.kernels
        .iter()
        .map(|k| print_kernel(k, None))
        .collect::<Vec<_>>()
        .join("\n")
}

fn kernel_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "cl"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn lower_file(path: &Path) -> Result<Module, String> {
    let c = check_file(path, &Options::default());
    let Some(p) = c.program.as_ref().filter(|_| !c.has_errors()) else {
        let msgs: Vec<String> = c.diags.list.iter().map(|d| render(&c.sources, d)).collect();
        return Err(format!("frontend: {}", msgs.join("")));
    };
    lower(p, &c.sources).map_err(|d| {
        d.list
            .iter()
            .map(|x| render(&c.sources, x))
            .collect::<Vec<_>>()
            .join("")
    })
}

#[test]
fn conformance_kernels_lower_and_verify() {
    let dir = Path::new("/work/shared/conformance/kernels");
    let files = kernel_files(dir);
    assert!(
        files.len() >= 19,
        "expected the conformance kernels in {}",
        dir.display()
    );
    lower_all(&files);
}

#[test]
fn repository_test_kernels_lower_and_verify() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels");
    let files = kernel_files(&dir);
    assert!(!files.is_empty(), "expected kernels in {}", dir.display());
    lower_all(&files);
}

fn lower_all(files: &[PathBuf]) {
    let mut failures = Vec::new();
    for f in files {
        match lower_file(f) {
            Ok(m) => assert!(!m.kernels.is_empty(), "{}: no kernels", f.display()),
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `LOWER_DUMP=file.cl cargo test --test lower dump -- --ignored --nocapture` prints the IR.
#[test]
#[ignore]
fn dump() {
    let Ok(path) = std::env::var("LOWER_DUMP") else {
        return;
    };
    match lower_file(Path::new(&path)) {
        Ok(m) => {
            for k in &m.kernels {
                println!("{}", print_kernel(k, None));
            }
        }
        Err(e) => println!("{e}"),
    }
}

// ---------------------------------------------------------------- printed IR

#[test]
fn vector_add_ir() {
    let ir = ir_of(
        "__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {
            size_t i = get_global_id(0);
            c[i] = a[i] + b[i];
        }",
    );
    for want in [
        "param 0 a: ptr global (buffer __global)",
        "param 2 c: ptr global (buffer __global)",
        "var v0 i: i64",
        "= i64 workitem(globalid)",
        "= i64 const [0x4]",
        "= i64 binary(mul)",
        "= ptr global ptradd",
        "= f32 load __global (param 0) align 4",
        "= f32 load __global (param 1) align 4",
        "= f32 binary(fadd)",
        "store __global (param 2) align 4",
    ] {
        assert!(ir.contains(want), "missing '{want}' in\n{ir}");
    }
}

#[test]
fn shift_counts_are_masked_to_the_width() {
    let ir = ir_of(
        "__kernel void k(__global int *o, __global long *l, int x, uint u, long y, char n) {
            o[0] = x << n;
            o[1] = x >> n;
            o[2] = (int)(u >> n);
            l[0] = y << x;
        }",
    );
    // int shifts mask with 31, the long shift with 63; signed >> is arithmetic.
    assert_eq!(ir.matches("const [0x1f]").count(), 3, "{ir}");
    assert!(ir.contains("i64 const [0x3f]"), "{ir}");
    for want in [
        "binary(shl)",
        "binary(ashr)",
        "binary(lshr)",
        "i64 binary(shl)",
    ] {
        assert!(ir.contains(want), "missing '{want}' in\n{ir}");
    }
}

#[test]
fn short_circuit_with_a_load_becomes_an_if() {
    let ir = ir_of(
        "__kernel void k(__global const int *a, __global int *o, int n) {
            int i = get_global_id(0);
            o[i] = (i < n && a[i] > 0) ? 1 : 2;
        }",
    );
    let if_at = ir.find("if %").expect("an if for the short-circuit");
    let load_at = ir
        .find("load __global (param 0)")
        .expect("the load of a[i]");
    assert!(load_at > if_at, "the load must be inside the if:\n{ir}");
    // Pure right-hand sides need no control flow.
    let pure = ir_of("__kernel void k(__global int *o, int a, int b) { o[0] = a > 1 && b < 2; }");
    assert!(
        !pure.contains("if %") && pure.contains("i1 binary(and)"),
        "{pure}"
    );
}

#[test]
fn switch_with_fall_through_and_default_in_the_middle() {
    let ir = ir_of(
        "__kernel void k(__global int *o, int v) {
            int acc = 0;
            switch (v) {
            case 1: acc += 1;
            default: acc += 10;
            case 2: acc += 100; break;
            case 3: acc = 7;
            }
            o[0] = acc;
        }",
    );
    assert!(ir.contains("loop L0 once"), "{ir}");
    assert!(ir.contains("break L0"), "{ir}");
    // One matched-flag test per labelled statement.
    assert_eq!(ir.matches("if %").count(), 4, "{ir}");
}

#[test]
fn inlined_helper_with_early_return() {
    let ir = ir_of(
        "int clampi(int x, int hi) { if (x > hi) return hi; return x; }
        __kernel void k(__global int *o, int a) { o[0] = clampi(a, 5); }",
    );
    assert!(
        ir.contains("var v0 x: i32") || ir.contains(" x: i32"),
        "{ir}"
    );
    assert!(ir.contains("clampi.ret: i32"), "{ir}");
    assert!(ir.contains("loop L0 once"), "{ir}");
    assert!(ir.contains("break L0"), "{ir}");
    // A function whose only return is its last statement needs no wrapper.
    let plain = ir_of(
        "int twice(int x) { return 2 * x; } __kernel void k(__global int *o) { o[0] = twice(3); }",
    );
    assert!(!plain.contains("loop"), "{plain}");
}

#[test]
fn packed_struct_member_offsets() {
    let ir = ir_of(
        "typedef struct __attribute__((packed)) { uchar kind; ushort count; uint total; } h_t;
        __kernel void k(__global const h_t *h, __global uint *o) {
            o[0] = h[1].total + h[0].count;
        }",
    );
    // h[1]: 7 bytes in; total at offset 3, count at offset 1, both unaligned.
    for want in [
        "i64 const [0x7]",
        "i64 const [0x3]",
        "i64 const [0x1]",
        "i32 load __global (param 0) align 1",
        "i16 load __global (param 0) align 1",
    ] {
        assert!(ir.contains(want), "missing '{want}' in\n{ir}");
    }
}

#[test]
fn goto_is_rejected_at_its_line() {
    let src = "__kernel void k(__global int *o) {\n  int i = 0;\nagain:\n  o[i] = i;\n  if (++i < 4)\n    goto again;\n}\n";
    let c = check_source("g.cl", src, &Options::default());
    let p = c.program.as_ref().expect("the frontend accepts goto");
    let Err(d) = lower(p, &c.sources) else {
        panic!("goto must be rejected")
    };
    let text: String = d.list.iter().map(|x| render(&c.sources, x)).collect();
    assert!(
        text.contains("g.cl:6:5: error: goto is not supported in hardware kernels"),
        "{text}"
    );
}

// ---------------------------------------------------------------- through the interpreter

use ocl_hls::interp::{run, ArgValue, Launch, Options as RunOptions};

fn ints(v: &[i32]) -> ArgValue {
    ArgValue::Buffer(v.iter().flat_map(|x| x.to_le_bytes()).collect())
}

fn zeros(n: usize) -> ArgValue {
    ArgValue::Buffer(vec![0; n * 4])
}

fn val(bytes: &[u8]) -> ArgValue {
    ArgValue::Value(bytes.to_vec())
}

fn as_i32(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// Runs the only kernel of `src` over `global` work-items in groups of `local`; returns
/// each buffer argument's final contents as i32s.
fn run_src(src: &str, global: u64, local: u64, args: Vec<ArgValue>) -> Vec<Vec<i32>> {
    let m = lower_src(src);
    let launch = Launch {
        work_dim: 1,
        global: [global, 1, 1],
        local: [local, 1, 1],
        args,
    };
    match run(&m.kernels[0], &launch, &RunOptions::default()) {
        Ok(out) => out
            .buffers
            .iter()
            .map(|b| b.as_deref().map(as_i32).unwrap_or_default())
            .collect(),
        Err(e) => panic!(
            "interpreter: {}\n{}",
            e.message,
            print_kernel(&m.kernels[0], None)
        ),
    }
}

#[test]
fn runs_switch_fall_through_and_default() {
    let src = "__kernel void k(__global const int *in, __global int *o) {
        int i = get_global_id(0);
        int acc = 0;
        switch (in[i]) {
        case 1: acc += 1;
        default: acc += 10;
        case 2: acc += 100; break;
        case 3: acc = 7;
        }
        o[i] = acc;
    }";
    let out = run_src(src, 5, 1, vec![ints(&[0, 1, 2, 3, 4]), zeros(5)]);
    // 0 and 4 enter at default and fall into case 2; 1 falls through both.
    assert_eq!(out[1], vec![110, 111, 100, 7, 110]);
}

#[test]
fn runs_short_circuit_without_reading_out_of_bounds() {
    let src = "__kernel void k(__global const int *a, __global int *o, int n) {
        int i = get_global_id(0);
        o[i] = (i < n && a[i] > 0) ? 1 : 2;
    }";
    // a has 2 elements; work-items 2 and 3 must not read it.
    let out = run_src(
        src,
        4,
        1,
        vec![ints(&[5, -5]), zeros(4), val(&2i32.to_le_bytes())],
    );
    assert_eq!(out[1], vec![1, 2, 2, 2]);
}

#[test]
fn runs_integer_semantics() {
    let src = "__kernel void k(__global int *o, int x, int y) {
        uchar a = 200, b = 100;
        o[0] = a + b;                   // promoted to int: 300
        o[1] = (uchar)(a + b);          // 44
        o[2] = x << 33;                 // count taken modulo 32
        o[3] = x >> y;                  // arithmetic shift of a negative
        o[4] = (int)((uint)x >> y);
        o[5] = x / 7;                   // truncates toward zero
        o[6] = x % 7;
        o[7] = (int)(0xFFFFFFFFu + 2u); // wraps
        o[8] = (x < y) + (x == x) * 10;
        o[9] = -x > 0 ? 1 : 0;
        o[10] = (int)(-7.9f);
        o[11] = (int)(1 / 3.0f * 3.0f == 1.0f);
    }";
    let x: i32 = -20;
    let args = vec![zeros(12), val(&x.to_le_bytes()), val(&3i32.to_le_bytes())];
    let out = run_src(src, 1, 1, args);
    assert_eq!(
        out[0],
        vec![
            300,
            44,
            -40,
            -3,
            ((x as u32) >> 3) as i32,
            -2,
            -6,
            1,
            11,
            1,
            -7,
            1
        ]
    );
}

#[test]
fn runs_vector_operations() {
    let src = "__kernel void k(__global int *o) {
        int4 a = (int4)(1, -2, 3, -4);
        int4 b = (int4)(0, 5, 3, 9);
        int4 c = a < b;                 // -1 where true
        int4 d = a.wzyx + (int4)(b.xy, 100, 200);
        d.s1 = 42;
        a.xz = (int2)(7, 8);
        vstore4(c, 0, o);
        vstore4(d, 1, o);
        vstore4(a, 2, o);
        o[12] = any(c) + all(c) * 2;
        o[13] = b[2];
    }";
    let out = run_src(src, 1, 1, vec![zeros(14)]);
    assert_eq!(
        out[0],
        vec![0, -1, 0, -1, -4, 42, 98, 201, 7, -2, 8, -4, 1, 3]
    );
}

#[test]
fn runs_inlined_helpers_structs_and_constants() {
    let src = "
    __constant int table[4] = {10, 20, 30};
    typedef struct { int a; char c; int b[2]; } S;
    int pick(int x) { if (x < 0) return -1; for (int i = 0; i < 4; i++) { if (table[i] == x) return i; } return 99; }
    S make(int v) { S s = {v, 1, {v + 1, v + 2}}; return s; }
    __kernel void k(__global const int *in, __global int *o) {
        int i = get_global_id(0);
        o[i] = pick(in[i]);
        S s = make(i);
        S t = s;
        t.b[1] += 100;
        o[4 + i] = t.a + t.b[0] + t.b[1] + s.b[1] + table[3];
    }";
    let out = run_src(src, 4, 2, vec![ints(&[20, -3, 0, 7]), zeros(8)]);
    assert_eq!(&out[1][..4], &[1, -1, 3, 99]);
    let sums: Vec<i32> = (0..4)
        .map(|i| i + (i + 1) + (i + 2 + 100) + (i + 2))
        .collect();
    assert_eq!(&out[1][4..], &sums[..]);
}

#[test]
fn runs_local_memory_reduction_with_barriers() {
    let src = "__kernel __attribute__((reqd_work_group_size(4, 1, 1)))
    void k(__global const int *in, __global int *o) {
        __local int s[4];
        int l = get_local_id(0);
        s[l] = in[get_global_id(0)];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int w = 2; w > 0; w >>= 1) {
            if (l < w) s[l] += s[l + w];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (l == 0) o[get_group_id(0)] = s[0];
    }";
    let out = run_src(
        src,
        8,
        4,
        vec![ints(&[1, 2, 3, 4, 10, 20, 30, 40]), zeros(2)],
    );
    assert_eq!(out[1], vec![10, 100]);
}

#[test]
fn runs_pointer_walks_and_do_while() {
    let src = "__kernel void k(__global const char *src, __global char *dst, __global int *n) {
        __global const char *s = src;
        __global char *p = dst;
        while (*s != 0)
            *p++ = *s++;
        *p = 0;
        int c = 0;
        do { c++; } while (c < 5 && dst[c] != 'l');
        n[0] = (int)(p - dst);
        n[1] = c;
    }";
    let mut text = b"hello".to_vec();
    text.push(0);
    text.extend([0u8; 2]);
    let out = run_src(
        src,
        1,
        1,
        vec![
            ArgValue::Buffer(text),
            ArgValue::Buffer(vec![9; 8]),
            zeros(2),
        ],
    );
    assert_eq!(out[2], vec![5, 2]);
    let copied: Vec<u8> = out[1].iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(&copied[..6], b"hello\0");
}

#[test]
fn runs_control_flow_corners() {
    let src = "
    int first_zero(__global const int *a, int n) {
        int i = 0;
        while (i < n && a[i] != 0) i++;
        return i;
    }
    int sum_odd(int n) {
        int s = 0;
        for (int i = 0; ; i++) {
            if (i >= n) break;
            switch (i % 3) {
            case 0: continue;
            case 1: s += i; break;
            default: s += 100;
            }
            if (s > 1000) return -1;
        }
        return s;
    }
    __kernel void k(__global const int *a, __global int *o, __global int *cnt) {
        o[0] = first_zero(a, 6);
        o[1] = first_zero(a, 2);
        o[2] = sum_odd(7);
        o[3] = sum_odd(40);
        int x = 5, y = 0;
        o[4] = (y = 3, x + y);
        o[5] = x > 4 ? cnt[0]++ : cnt[1]++;
        o[6] = x < 4 ? cnt[0]++ : cnt[1]++;
        o[7] = (int)sizeof(int4) + (int)vec_step(float3);
        float f = 0.1;                  // rounded once from the text to float
        o[8] = as_int(f) == 0x3dcccccd;
        int t = 0;
        for (int r = 0; r < 3; r++) {
            int arr[4] = {r, r + 1};    // re-initialised (zeros included) every iteration
            t += arr[0] + arr[1] + arr[2] + arr[3];
            arr[3] = 50;
        }
        o[9] = t;
    }";
    let out = run_src(
        src,
        1,
        1,
        vec![ints(&[4, 5, 6, 0, 7, 8]), zeros(10), ints(&[10, 20])],
    );
    // sum_odd(7): i=1 +1, i=2 +100, i=4 +4, i=5 +100 -> 205; sum_odd(40) passes 1000.
    assert_eq!(out[1], vec![3, 2, 205, -1, 8, 10, 20, 20, 1, 9]);
    assert_eq!(out[2], vec![11, 21]);
}

#[test]
fn runs_compound_assignments_on_lanes_and_memory() {
    let src = "__kernel void k(__global int *o, __global float4 *v) {
        int4 a = (int4)(1, 2, 3, 4);
        a.xy += 10;
        a.w <<= 2;
        a[2] *= -1;
        vstore4(a, 0, o);
        char c = 120;
        c += 10;                        // wraps in char
        o[4] = c;
        uint u = 3;
        u -= 5;
        o[5] = (int)(u >> 28);
        short s = -7;
        s /= 2;
        o[6] = s;
        o[7] = 0;
        o[7]++;
        o[7] += o[7]++ * 0 + 5;
        v[0].yz *= (float2)(2.0f, 4.0f);
        v[1].w = -v[1].x;
    }";
    let fl: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let out = run_src(src, 1, 1, vec![zeros(8), ArgValue::Buffer(fl)]);
    assert_eq!(&out[0][..7], &[11, 12, -3, 16, -126, 15, -3]);
    let f: Vec<f32> = out[1].iter().map(|x| f32::from_bits(*x as u32)).collect();
    assert_eq!(f, vec![1.0, 4.0, 12.0, 4.0, 5.0, 6.0, 7.0, -5.0]);
}

#[test]
fn runs_atomics_and_half_stores() {
    let src = "__kernel void k(__global int *c, __global half *h, __global float *f) {
        int old = atomic_add(&c[0], 5);
        atomic_inc(&c[1]);
        int prev = atomic_cmpxchg(&c[2], 7, 9);
        atomic_max(&c[3], -2);
        atomic_min((__global uint *)&c[4], 3u);
        c[5] = old * 100 + prev;
        vstore_half_rtz(1.0009765625f * 1.5f, 0, h);
        vstore_half(65520.0f, 1, h);     // rounds to infinity
        vstore_half_rtz(65520.0f, 2, h); // the largest finite half
        f[0] = vload_half(0, h);
        vstore_half2((float2)(0.5f, -2.0f), 2, h);
        f[1] = vload_half(5, h);
    }";
    let out = run_src(
        src,
        1,
        1,
        vec![ints(&[1, 2, 7, -5, -1, 0]), zeros(4), zeros(2)],
    );
    assert_eq!(out[0], vec![6, 3, 9, -2, 3, 107]);
    let h: Vec<u16> = out[1]
        .iter()
        .flat_map(|x| [*x as u16, (*x >> 16) as u16])
        .collect();
    // 1.50146484375 is 1.5 ulps above 1.5: truncates to 0x3e01; 65520 is a tie above
    // the largest finite half.
    assert_eq!(&h[..3], &[0x3e01, 0x7c00, 0x7bff]);
    assert_eq!(&h[4..6], &[0x3800, 0xc000]);
    let f: Vec<f32> = out[2].iter().map(|x| f32::from_bits(*x as u32)).collect();
    assert_eq!(f, vec![1.5 + 1.0 / 1024.0, -2.0]);
}

#[test]
fn runs_bit_fields() {
    // Expected values from the same struct compiled by clang for x86-64.
    let src = "struct S { uint a : 3; int b : 5; uint c : 12; uchar d : 1; };
    typedef union { struct S s; uint raw; } U;
    __kernel void k(__global int *o) {
        U u;
        u.raw = 0;
        u.s.a = 9;
        u.s.b = -3;
        u.s.c = 0xABC;
        u.s.d = 1;
        o[0] = (int)u.raw;
        o[1] = u.s.a;
        o[2] = u.s.b;
        o[3] = u.s.c;
        o[4] = u.s.d;
        u.s.b += 20;
        u.s.c -= 0xABD;
        o[5] = u.s.b;
        o[6] = u.s.c;
        o[7] = sizeof(struct S);
    }";
    let out = run_src(src, 1, 1, vec![zeros(8)]);
    assert_eq!(out[0], vec![0x1abce9, 1, -3, 2748, 1, -15, 4095, 4]);
}

#[test]
fn pointer_variables_keep_their_base_when_it_is_known() {
    let ir = ir_of(
        "__kernel void k(__global int *a, __global int *b, __global int *o, int n) {
            __global int *p = a;
            for (int i = 0; i < n; i++) *p++ = i;
            __global int *q = n > 3 ? a : b;
            *q = 1;
            int priv[4];
            int *r = priv;
            r[n & 3] = 2;
            o[0] = priv[1];
        }",
    );
    // *p++ stays in a; q may be a or b; r points into the private array.
    assert!(ir.contains("store __global (param 0) align 4"), "{ir}");
    assert!(ir.contains("store __global align 4"), "{ir}");
    assert!(ir.contains("store __private (o0) align 4"), "{ir}");
    assert!(ir.contains("load __private (o0) align 4"), "{ir}");
}

#[test]
fn runs_a_kernel_calling_a_kernel() {
    let src = "__kernel void fill(__global int *o, int v) {
        if (v < 0) { o[0] = 0; return; }
        o[0] = v;
    }
    __kernel void twice(__global int *o, int v) {
        fill(o, v);
        fill(o + 1, -v);
        o[2] = o[0] + o[1] + 1;
    }";
    let m = lower_src(src);
    assert_eq!(m.kernels.len(), 2);
    let k = m
        .kernels
        .iter()
        .find(|k| k.name == "twice")
        .expect("kernel twice");
    let launch = Launch {
        work_dim: 1,
        global: [1, 1, 1],
        local: [1, 1, 1],
        args: vec![zeros(3), val(&7i32.to_le_bytes())],
    };
    let out = run(k, &launch, &RunOptions::default()).expect("runs");
    let o = as_i32(out.buffers[0].as_deref().unwrap_or_default());
    assert_eq!(o, vec![7, 0, 8]);
}

#[test]
fn deeply_nested_expressions_lower() {
    // A left-leaning chain of 5,000 additions: recursion depth, not size, is the test.
    let sum = vec!["x"; 5000].join(" + ");
    let src = format!("__kernel void k(__global int *o, int x) {{ o[0] = {sum}; }}");
    let m = lower_src(&src);
    let launch = Launch {
        work_dim: 1,
        global: [1, 1, 1],
        local: [1, 1, 1],
        args: vec![zeros(1), val(&3i32.to_le_bytes())],
    };
    let out = run(&m.kernels[0], &launch, &RunOptions::default()).expect("runs");
    assert_eq!(
        as_i32(out.buffers[0].as_deref().unwrap_or_default()),
        vec![15000]
    );
}

#[test]
fn constructs_without_hardware_meaning_are_errors_with_spans() {
    let cases = [
        ("__kernel void k(__global int *p, __global ulong *o) {\n  o[0] = (ulong)p;\n}\n", "t.cl:2:10: error: converting a pointer to an integer"),
        ("__kernel void k(__global int *o, ulong a) {\n  __global int *p = (__global int *)a;\n  *p = 1;\n}\n", "t.cl:2:21: error: converting an integer to a pointer"),
    ];
    for (src, want) in cases {
        let c = check_source("t.cl", src, &Options::default());
        let p = c
            .program
            .as_ref()
            .filter(|_| !c.has_errors())
            .expect("the frontend accepts it");
        let Err(d) = lower(p, &c.sources) else {
            panic!("must be rejected:\n{src}")
        };
        let text: String = d.list.iter().map(|x| render(&c.sources, x)).collect();
        assert!(text.contains(want), "want '{want}' in:\n{text}");
    }
}
