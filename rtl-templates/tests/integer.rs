//! Integer templates (divider, mul_hi, saturating add/sub, clz, popcount, rotate) at widths
//! 8, 16, 32, 64, signed and unsigned, simulated in Verilator against a C++ model.

use rtl_templates::template;
use rtl_templates::verilator::{run, Build};
use std::path::PathBuf;

fn tb(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tb")
        .join(name)
}

fn build() -> Result<PathBuf, String> {
    let mut b = Build::new("tb_integer").source(tb("tb_integer.v"));
    for m in [
        "ohls_div.v",
        "ohls_mul_hi.v",
        "ohls_addsub_sat.v",
        "ohls_clz.v",
        "ohls_popcount.v",
        "ohls_rotate.v",
    ] {
        b = b.source(template(m));
    }
    b.testbench(tb("integer_tb.cpp")).build()
}

fn number_after(out: &str, key: &str) -> Option<u64> {
    let rest = &out[out.find(key)? + key.len()..];
    rest.split_whitespace().next()?.parse().ok()
}

/// The edge values crossed with each other (0, 1, -1, MIN, MAX, division by zero,
/// MIN / -1 among them), then random operands: more than 100k per unit and width.
#[test]
fn integer_units_match_model() {
    let exe = build().unwrap_or_else(|e| panic!("{e}"));
    let out = run(&exe, &["7", "125000"]).unwrap_or_else(|e| panic!("{e}"));
    assert!(out.contains("PASS"), "{out}");
    let ops = number_after(&out, "pipelined_ops=").unwrap_or(0);
    assert!(
        ops >= 100_000,
        "too few divider/mul_hi operations checked: {out}"
    );
}
