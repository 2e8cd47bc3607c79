//! Bit-exact tests of the binary32 floating-point units against the host CPU: one
//! Verilator model (`tests/tb/fp_top.v`) holds every unit at two latencies, and its C++
//! testbench issues a million operations per unit, with stalls, and checks each result.

use rtl_templates::verilator::{run, Build};
use std::path::PathBuf;

fn tb(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tb")
        .join(name)
}

/// The float templates and the wrapper, as one Verilator build.
fn fp_model() -> Result<PathBuf, String> {
    let mut b = Build::new("fp_top").source(tb("fp_top.v"));
    for f in rtl_templates::template_files() {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with("ohls_fp")
            || name.starts_with("ohls_int_to_fp")
            || name.starts_with("ohls_half")
        {
            b = b.source(f);
        }
    }
    // The reference changes the FPU rounding mode around conversions: stop GCC from
    // moving floating-point work across fesetround.
    b.testbench(tb("fp_top.cpp"))
        .flag("-CFLAGS")
        .flag("-frounding-math")
        .build()
}

fn ops_per_unit() -> String {
    std::env::var("OHLS_FP_OPS").unwrap_or_else(|_| "1000000".to_string())
}

#[test]
fn every_float_unit_matches_the_host_bit_for_bit() {
    let exe = fp_model().unwrap_or_else(|e| panic!("{e}"));
    let out = run(&exe, &[&ops_per_unit(), "1"]).unwrap_or_else(|e| panic!("{e}"));
    print!("{out}");
    for op in [
        "add",
        "mul",
        "cmp",
        "minmax",
        "to_int",
        "int_to_fp",
        "to_half",
        "half_to_fp",
        "div",
        "sqrt",
        "fma",
    ] {
        let line = format!("PASS {op} n=");
        let passed = out.lines().find(|l| l.starts_with(&line));
        let n: u64 = passed
            .and_then(|l| l[line.len()..].split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(n >= 1, "no PASS line for {op}:\n{out}");
    }
}
