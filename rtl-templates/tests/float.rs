//! Bit-exact tests of the binary32 floating-point units against the host CPU: one
//! Verilator model (`tests/tb/fp_top.v`) holds every unit at two latencies, and its C++
//! testbench issues a million operations per unit, with stalls, and checks each result.

use rtl_templates::verilator::{lint, run, Build};
use std::path::PathBuf;

fn tb(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tb")
        .join(name)
}

/// The float templates and the wrapper, as one Verilator build.
fn fp_model() -> Result<PathBuf, String> {
    let mut b = Build::new("fp_top").source(tb("fp_top.v"));
    for f in float_sources() {
        b = b.source(f);
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
    let ops = ops_per_unit();
    let out = run(&exe, &[&ops, "1"]).unwrap_or_else(|e| panic!("{e}"));
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
        assert_eq!(
            n.to_string(),
            ops,
            "PASS line of {op} missing or short:\n{out}"
        );
    }
}

/// Each unit with the largest LATENCY it accepts (0 and the default are linted too).
const MAX_LATENCY: &[(&str, u32)] = &[
    ("ohls_fp_add", 7),
    ("ohls_fp_mul", 5),
    ("ohls_fp_fma", 7),
    ("ohls_fp_div", 29),
    ("ohls_fp_sqrt", 27),
    ("ohls_fp_cmp", 1),
    ("ohls_fp_minmax", 1),
    ("ohls_fp_to_int", 3),
    ("ohls_int_to_fp", 3),
    ("ohls_fp_to_half", 2),
    ("ohls_half_to_fp", 1),
];

fn float_sources() -> Vec<PathBuf> {
    rtl_templates::template_files()
        .into_iter()
        .filter(|f| {
            f.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with("ohls_fp")
                    || n.starts_with("ohls_int_to_fp")
                    || n.starts_with("ohls_half")
            })
        })
        .collect()
}

#[test]
fn float_units_lint_clean_at_every_depth_bound() {
    let sources = float_sources();
    let mut failures = Vec::new();
    for (unit, max) in MAX_LATENCY {
        for lat in [None, Some(0), Some(*max)] {
            let value = lat.map(|l| l.to_string());
            let params: Vec<(&str, &str)> = value.iter().map(|v| ("LATENCY", v.as_str())).collect();
            if let Err(e) = lint(unit, &sources, &params) {
                failures.push(format!("{unit} LATENCY={value:?}: {e}"));
            }
        }
    }
    for helper in [
        "ohls_fp_stage",
        "ohls_fp_lzc",
        "ohls_fp_shr_sticky",
        "ohls_fp_denorm",
        "ohls_fp_round",
    ] {
        if let Err(e) = lint(helper, &sources, &[]) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
