//! The mathlib expansions over a larger sweep than the test (4M random bit patterns and
//! 4M dense inputs per function, and for pow 4M random pairs plus moderate ranges):
//! prints the maximum ULP error per function against the host's f64 libm rounded to f32,
//! with the worst input and OpenCL's bound. `cargo bench -p ocl-hls --bench mathlib`.

#[path = "../tests/mathlib_harness/mod.rs"]
mod mathlib_harness;

use mathlib_harness::{pow_inputs, unary_inputs, worst, FUNS};

fn main() {
    println!(
        "{:<6} {:>10} {:>5} {:>6}  worst input",
        "fn", "inputs", "ulp", "bound"
    );
    for f in FUNS {
        let t = std::time::Instant::now();
        let (xs, ys) = if f.arity == 2 {
            pow_inputs(4_000_000, 1_300_000, 99)
        } else {
            let xs = unary_inputs(f.name, 4_000_000, 4_000_000, 98);
            let ys = vec![0.0; xs.len()];
            (xs, ys)
        };
        let (ulp, x, y, got, want) = worst(f, &xs, &ys);
        let input = if f.arity == 2 {
            format!("({x:e}, {y:e})")
        } else {
            format!("({x:e})")
        };
        println!(
            "{:<6} {:>10} {:>5} {:>6}  {}{input}: got {got:#010x}, host {want:#010x} ({:.1} s)",
            f.name,
            xs.len(),
            ulp,
            f.bound,
            f.name,
            t.elapsed().as_secs_f64()
        );
    }
}
