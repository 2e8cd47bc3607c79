//! Bit-exact tests of the binary64 units (`ohls_dp_*`) against the host CPU: one Verilator
//! model (`tests/tb/dp_top.v`) holds every unit at its default latency and at LATENCY 0
//! (the divider 32 times), and its C++ testbench issues a million operations per
//! operation, with stalls, and checks each result, NaN bits included.

use rtl_templates::verilator::{lint, run, Build};
use std::path::PathBuf;

fn tb(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tb")
        .join(name)
}

/// The binary64 units and the float helpers they instantiate.
fn sources() -> Vec<PathBuf> {
    rtl_templates::template_files()
        .into_iter()
        .filter(|f| {
            f.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("ohls_dp_") || n.starts_with("ohls_fp_"))
        })
        .collect()
}

fn ops_per_op() -> String {
    std::env::var("OHLS_DP_OPS").unwrap_or_else(|_| "1000000".to_string())
}

#[test]
fn every_double_unit_matches_the_host_bit_for_bit() {
    let mut b = Build::new("dp_top").source(tb("dp_top.v"));
    for f in sources() {
        b = b.source(f);
    }
    // The references change the rounding mode around conversions: stop GCC from moving
    // floating-point work across fesetround.
    let exe = b
        .testbench(tb("dp_top.cpp"))
        .flag("-CFLAGS")
        .flag("-frounding-math")
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let ops = ops_per_op();
    let want: u64 = ops.parse().expect("OHLS_DP_OPS is a number");
    let out = run(&exe, &[&ops, "1"]).unwrap_or_else(|e| panic!("{e}"));
    print!("{out}");
    for op in [
        "add",
        "sub",
        "mul",
        "div",
        "cmp",
        "from_int",
        "to_int",
        "to_fp32",
        "from_fp32",
        "to_half",
    ] {
        let line = format!("PASS {op} n=");
        let n: u64 = out
            .lines()
            .find(|l| l.starts_with(&line))
            .and_then(|l| l[line.len()..].split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(
            n >= want,
            "{op}: {n} operations checked, want {want}:\n{out}"
        );
    }
}

/// Each pipelined unit with the largest LATENCY it accepts (0 and the default are linted
/// too); the divider has no LATENCY.
const MAX_LATENCY: &[(&str, u32)] = &[
    ("ohls_dp_add", 7),
    ("ohls_dp_mul", 5),
    ("ohls_dp_cmp", 1),
    ("ohls_dp_from_int", 3),
    ("ohls_dp_to_int", 3),
    ("ohls_dp_to_fp32", 2),
    ("ohls_dp_from_fp32", 1),
    ("ohls_dp_to_half", 2),
];

#[test]
fn double_units_lint_clean_at_every_depth_bound() {
    let sources = sources();
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
    if let Err(e) = lint("ohls_dp_div", &sources, &[]) {
        failures.push(e);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
