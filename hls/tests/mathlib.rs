//! `mathlib::expand` measured in the interpreter: every expanded function over special
//! values, random bit patterns across the whole float range, dense sweeps and hard cases
//! (>= 1M inputs per function), within OpenCL's ULP bounds of the host's f64 libm
//! rounded to f32. A larger sweep that prints the errors is `cargo bench --bench mathlib`.

mod mathlib_harness;

use mathlib_harness::{pow_inputs, run_expanded, run_source, unary_inputs, worst, FUNS};

fn check(name: &str) {
    let f = FUNS.iter().find(|f| f.name == name).expect("a function");
    let (xs, ys) = if f.arity == 2 {
        pow_inputs(500_000, 170_000, 7)
    } else {
        let xs = unary_inputs(name, 500_000, 500_000, 11);
        let ys = vec![0.0; xs.len()];
        (xs, ys)
    };
    assert!(xs.len() >= 1_000_000, "{name}: only {} inputs", xs.len());
    let (ulp, x, y, got, want) = worst(f, &xs, &ys);
    println!("{name}: max {ulp} ulp over {} inputs", xs.len());
    assert!(
        ulp <= f.bound,
        "{name}({x:e}, {y:e}) = {:e} ({got:#010x}), host {:e} ({want:#010x}): {ulp} ulp > {}",
        f32::from_bits(got),
        f32::from_bits(want),
        f.bound
    );
}

#[test]
fn exp_family() {
    for n in ["exp", "exp2", "exp10"] {
        check(n);
    }
}

#[test]
fn log_family() {
    for n in ["log", "log2", "log10"] {
        check(n);
    }
}

#[test]
fn pow() {
    check("pow");
}

#[test]
fn sin_cos_tan() {
    for n in ["sin", "cos", "tan"] {
        check(n);
    }
}

/// float4 calls are expanded lane-wise: each lane equals the scalar expansion.
#[test]
fn vector_lanes_match_scalar() {
    let (xs, ys) = pow_inputs(20_000, 4_000, 3);
    let n = xs.len() / 4 * 4;
    let (xs, ys) = (&xs[..n], &ys[..n]);
    for f in FUNS {
        let call = if f.arity == 2 {
            format!("{}(vload4(i, x), vload4(i, y))", f.name)
        } else {
            format!("{}(vload4(i, x))", f.name)
        };
        let src = format!(
            "__kernel void t(__global const float *x, __global const float *y, __global float *o)\n\
             {{ size_t i = get_global_id(0); vstore4({call}, i, o); }}\n"
        );
        let v = run_source(&src, xs, ys, 4);
        let s = run_expanded(f, xs, ys);
        let diff = v.iter().zip(&s).position(|(a, b)| a != b);
        assert_eq!(
            diff, None,
            "{}: float4 lane differs from scalar at {diff:?}",
            f.name
        );
    }
}
