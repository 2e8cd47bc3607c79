//! The delay-line template (`ohls_delay_ram`) simulated in Verilator against a chain of
//! registers with a common enable, under random enable patterns and resets.

use rtl_templates::template;
use rtl_templates::verilator::{run, Build};
use std::path::PathBuf;

fn tb(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tb")
        .join(name)
}

#[test]
fn delay_ram_matches_register_chain() {
    let exe = Build::new("tb_delay")
        .source(tb("tb_delay.v"))
        .source(template("ohls_delay_ram.v"))
        .testbench(tb("delay_tb.cpp"))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    for seed in ["1", "2"] {
        let out = run(&exe, &[seed, "100000"]).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(out.contains("PASS"), "seed {seed}: {out}");
    }
}
