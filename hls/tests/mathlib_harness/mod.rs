//! Shared by the mathlib test and bench: runs a one-call kernel with `mathlib::expand`
//! applied in the interpreter over given inputs and measures the ULP error against the
//! host's f64 libm rounded to f32.

#![allow(dead_code)]

use ocl_hls::frontend::{check_source, Options};
use ocl_hls::interp::{self, ArgValue, Launch};
use ocl_hls::launch::compare::ulp_distance;
use ocl_hls::launch::types::ElemType;

/// One function under test: its name, arity, host reference and OpenCL's ULP bound.
pub struct Fun {
    pub name: &'static str,
    pub arity: usize,
    pub reference: fn(f64, f64) -> f64,
    pub bound: u64,
}

pub const FUNS: &[Fun] = &[
    Fun {
        name: "exp",
        arity: 1,
        reference: |x, _| x.exp(),
        bound: 3,
    },
    Fun {
        name: "exp2",
        arity: 1,
        reference: |x, _| x.exp2(),
        bound: 3,
    },
    Fun {
        name: "exp10",
        arity: 1,
        reference: |x, _| 10f64.powf(x),
        bound: 3,
    },
    Fun {
        name: "log",
        arity: 1,
        reference: |x, _| x.ln(),
        bound: 3,
    },
    Fun {
        name: "log2",
        arity: 1,
        reference: |x, _| x.log2(),
        bound: 3,
    },
    Fun {
        name: "log10",
        arity: 1,
        reference: |x, _| x.log10(),
        bound: 3,
    },
    Fun {
        name: "pow",
        arity: 2,
        reference: |x, y| x.powf(y),
        bound: 16,
    },
    Fun {
        name: "sin",
        arity: 1,
        reference: |x, _| x.sin(),
        bound: 4,
    },
    Fun {
        name: "cos",
        arity: 1,
        reference: |x, _| x.cos(),
        bound: 4,
    },
    Fun {
        name: "tan",
        arity: 1,
        reference: |x, _| x.tan(),
        bound: 5,
    },
];

/// Work-items per launch (kept moderate so buffers stay small).
const CHUNK: usize = 1 << 16;

/// `f` of every input through the expanded IR in the interpreter, as f32 bits.
pub fn run_expanded(f: &Fun, xs: &[f32], ys: &[f32]) -> Vec<u32> {
    let call = if f.arity == 2 {
        format!("{}(x[i], y[i])", f.name)
    } else {
        format!("{}(x[i])", f.name)
    };
    let src = format!(
        "__kernel void t(__global const float *x, __global const float *y, __global float *o)\n\
         {{ size_t i = get_global_id(0); o[i] = {call}; }}\n"
    );
    run_source(&src, xs, ys, 1)
}

/// Runs kernel `src` (arguments x, y, o: one float of `o` per input) with `mathlib::expand`
/// applied, `per_item` inputs per work-item; returns `o` as f32 bits.
pub fn run_source(src: &str, xs: &[f32], ys: &[f32], per_item: usize) -> Vec<u32> {
    let checked = check_source("mathlib_test.cl", src, &Options::default());
    assert!(!checked.has_errors(), "frontend errors in {src}");
    let program = checked.program.as_ref().expect("a program");
    let module = ocl_hls::lower::lower(program, &checked.sources).expect("lowering");
    let kernel = ocl_hls::mathlib::expand(&module.kernels[0]).expect("expansion");
    let left = kernel
        .blocks
        .iter()
        .flat_map(|b| b.order.iter().map(move |o| b.op(*o)));
    let calls: Vec<String> = left
        .filter_map(|op| match &op.kind {
            ocl_hls::ir::OpKind::Builtin(c) => Some(c.name.clone()),
            _ => None,
        })
        .collect();
    assert!(
        calls.is_empty(),
        "calls left after expansion: {calls:?} in {src}"
    );
    let mut out = Vec::with_capacity(xs.len());
    for (cx, cy) in xs.chunks(CHUNK).zip(ys.chunks(CHUNK)) {
        let bytes = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
        let n = (cx.len() / per_item) as u64;
        let launch = Launch {
            work_dim: 1,
            global: [n, 1, 1],
            local: [1, 1, 1],
            args: vec![
                ArgValue::Buffer(bytes(cx)),
                ArgValue::Buffer(bytes(cy)),
                ArgValue::Buffer(vec![0; cx.len() * 4]),
            ],
        };
        let r = interp::run(&kernel, &launch, &interp::Options::default())
            .unwrap_or_else(|e| panic!("interp: {}", e.to_diagnostic().message));
        let o = r.buffers[2].as_ref().expect("output buffer");
        out.extend(
            o.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
    }
    out
}

/// The worst case of `f` over the inputs: (ulp error, x, y, got, want); NaN against a
/// number counts as u64::MAX.
pub fn worst(f: &Fun, xs: &[f32], ys: &[f32]) -> (u64, f32, f32, u32, u32) {
    let got = run_expanded(f, xs, ys);
    let mut w = (0, 0.0, 0.0, 0, 0);
    for ((&x, &y), &g) in xs.iter().zip(ys).zip(&got) {
        let want = ((f.reference)(x as f64, y as f64) as f32).to_bits();
        let d = ulp_distance(ElemType::Float, want as u64, g as u64).unwrap_or(u64::MAX);
        if d > w.0 {
            w = (d, x, y, g, want);
        }
    }
    w
}

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn bits(&mut self) -> f32 {
        f32::from_bits((self.next() >> 32) as u32)
    }

    pub fn uniform(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }
}

/// Special values: zeros, infinities, NaNs (quiet, signalling, both signs), subnormal
/// and normal extremes, and a few exact cases.
pub fn specials() -> Vec<f32> {
    let bits: [u32; 14] = [
        0,
        0x8000_0000,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0xFFC0_0001,
        0x7F80_0001,
        1,
        0x807F_FFFF,
        0x0080_0000,
        0x7F7F_FFFF,
        0xFF7F_FFFF,
        0x3F80_0000,
        0xBF80_0000,
    ];
    let mut v: Vec<f32> = bits.iter().map(|b| f32::from_bits(*b)).collect();
    v.extend([
        0.5, -0.5, 2.0, 10.0, 88.72, 88.73, -87.3, -103.9, -150.0, 128.0, -149.0,
    ]);
    v.extend([
        std::f32::consts::FRAC_PI_2,
        std::f32::consts::PI,
        std::f32::consts::TAU,
        1e10,
        -1e20,
        3.0e38,
        38.5,
        -45.2,
    ]);
    v
}

/// Inputs for a unary function: specials, `n_random` random bit patterns (the whole
/// range), `n_dense` uniform in [-lo, lo], and for the trigonometric ones floats next to
/// multiples of pi/2 over the whole range (the hard cases of the reduction).
pub fn unary_inputs(name: &str, n_random: usize, n_dense: usize, seed: u64) -> Vec<f32> {
    let mut r = Rng(seed);
    let mut v = specials();
    v.extend((0..n_random).map(|_| r.bits()));
    let lo = match name {
        "exp" => 104.0,
        "exp2" => 151.0,
        "exp10" => 46.0,
        "log" | "log2" | "log10" => 4.0,
        _ => 20.0,
    };
    v.extend((0..n_dense).map(|_| r.uniform(-lo, lo)));
    if name.starts_with("log") {
        v.extend((0..n_dense / 4).map(|_| r.uniform(0.9, 1.1)));
    }
    if matches!(name, "sin" | "cos" | "tan") {
        for i in 0..n_dense / 4 {
            let e = (i % 100) as i32;
            let k = (r.next() >> 40) as f64 * 2f64.powi(e);
            let near = (k * std::f64::consts::FRAC_PI_2) as f32;
            let b = near.to_bits();
            let off = (r.next() % 5) as u32;
            v.push(f32::from_bits(b.wrapping_add(off).wrapping_sub(2)));
        }
    }
    v
}

/// (x, y) pairs for pow: specials against specials, random bit patterns, moderate
/// ranges, negative bases with integer exponents, and bases near 1 with large exponents.
pub fn pow_inputs(n_random: usize, n_dense: usize, seed: u64) -> (Vec<f32>, Vec<f32>) {
    let mut r = Rng(seed);
    let s = specials();
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    let ints = [
        0.0f32, 1.0, 2.0, 3.0, -1.0, -2.0, -3.0, 0.5, -0.5, 1e9, 16777217.0,
    ];
    for &a in s.iter().chain(&ints) {
        for &b in s.iter().chain(&ints) {
            xs.push(a);
            ys.push(b);
        }
    }
    for _ in 0..n_random {
        xs.push(r.bits());
        ys.push(r.bits());
    }
    for _ in 0..n_dense {
        xs.push(r.uniform(0.0, 20.0));
        ys.push(r.uniform(-30.0, 30.0));
        xs.push(-((r.next() % 64) as f32) / 4.0);
        ys.push((r.next() % 61) as f32 - 30.0);
        xs.push(r.uniform(0.999, 1.001));
        ys.push(r.uniform(-80000.0, 80000.0));
    }
    (xs, ys)
}
