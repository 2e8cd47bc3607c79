//! `mathlib::expand` measured in the interpreter: every expanded function over special
//! values, random bit patterns across the whole float range, dense sweeps and hard cases
//! (>= 1M inputs per function), within OpenCL's ULP bounds of the host's f64 libm
//! rounded to f32. A larger sweep that prints the errors is `cargo bench --bench mathlib`.

mod mathlib_harness;

use mathlib_harness::{pow_inputs, unary_inputs, worst, FUNS};

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
