//! Bit-exact tests of the 64-bit integer conversion units (`ohls_fp_to_int` and
//! `ohls_int_to_fp` at WIDTH = 64) against the host CPU: one Verilator model
//! (`tests/tb/convert64_top.v`) holds both units at two latencies, and its C++ testbench
//! issues a million conversions per unit, with stalls, and checks each result; plus a
//! lint of both units at WIDTH = 64 and every latency bound.

use rtl_templates::verilator::{lint, run, Build};
use std::path::PathBuf;

fn tb(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tb")
        .join(name)
}

/// The conversion units and the helpers they instantiate.
fn sources() -> Vec<PathBuf> {
    let want = [
        "ohls_fp_to_int",
        "ohls_int_to_fp",
        "ohls_fp_stage",
        "ohls_fp_lzc",
        "ohls_fp_shr_sticky",
        "ohls_fp_round",
    ];
    rtl_templates::template_files()
        .into_iter()
        .filter(|f| {
            f.file_stem()
                .and_then(|n| n.to_str())
                .is_some_and(|n| want.contains(&n))
        })
        .collect()
}

fn ops_per_unit() -> String {
    std::env::var("OHLS_FP_OPS").unwrap_or_else(|_| "1000000".to_string())
}

#[test]
fn conversions_at_64_bits_match_the_host_bit_for_bit() {
    let mut b = Build::new("convert64_top").source(tb("convert64_top.v"));
    for f in sources() {
        b = b.source(f);
    }
    // The reference changes the FPU rounding mode around conversions: stop GCC from
    // moving floating-point work across fesetround.
    let exe = b
        .testbench(tb("convert64_top.cpp"))
        .flag("-CFLAGS")
        .flag("-frounding-math")
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let ops = ops_per_unit();
    let out = run(&exe, &[&ops, "1"]).unwrap_or_else(|e| panic!("{e}\nsee above"));
    print!("{out}");
    for op in ["to_int", "int_to_fp"] {
        let line = format!("PASS {op} n=");
        let n = out
            .lines()
            .find_map(|l| l.strip_prefix(&line))
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or("0");
        assert_eq!(n, ops, "PASS line of {op} missing or short:\n{out}");
    }
}

/// The 64-bit units lint clean at every latency bound. They are linted through a wrapper
/// that sets WIDTH in the instance, as the generated cores do (`-G` overrides give the
/// parameter a 32-bit type that helpers then warn about).
#[test]
fn conversions_at_64_bits_lint_clean() {
    let dir = std::env::temp_dir().join(format!("ohls_convert64_lint_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let mut failures = Vec::new();
    for (unit, iw, ow, ports, max) in [
        (
            "ohls_fp_to_int",
            32,
            64,
            ".a(a), .rm(rm), .is_signed(s), .sat(s), .result(r)",
            3,
        ),
        (
            "ohls_int_to_fp",
            64,
            32,
            ".x(a), .rm(rm), .is_signed(s), .result(r)",
            3,
        ),
    ] {
        for lat in 0..=max {
            let top = format!("w_{unit}_{lat}");
            let text = format!(
                "module {top} (input wire clk, input wire rst, input wire v,\n\
                 input wire [{iw}-1:0] a, input wire [1:0] rm, input wire s, output wire ov,\n\
                 output wire [{ow}-1:0] r);\n\
                 {unit} #(.LATENCY({lat}), .WIDTH(64)) u (.clk(clk), .rst(rst), .en(1'b1),\n\
                 .in_valid(v), .out_valid(ov), {ports});\nendmodule\n"
            );
            let path = dir.join(format!("{top}.v"));
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
            let mut srcs = vec![path];
            srcs.extend(sources());
            if let Err(e) = lint(&top, &srcs, &[]) {
                failures.push(e);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
