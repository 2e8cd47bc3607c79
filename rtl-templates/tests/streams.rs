//! Stream templates (FIFOs, skid buffer, pipeline register, stall pipeline) simulated in
//! Verilator against queue and shift-register models with random valid/ready stalls.

use rtl_templates::template;
use rtl_templates::verilator::{run, Build};
use std::path::PathBuf;

fn tb(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tb")
        .join(name)
}

fn build() -> Result<PathBuf, String> {
    let mut b = Build::new("tb_streams").source(tb("tb_streams.v"));
    for m in [
        "ohls_fifo_reg.v",
        "ohls_fifo_ram.v",
        "ohls_fifo.v",
        "ohls_skid_buffer.v",
        "ohls_pipe_reg.v",
        "ohls_stall_pipe.v",
    ] {
        b = b.source(template(m));
    }
    b.testbench(tb("streams_tb.cpp")).build()
}

/// Every stream configuration of `tb_streams.v`, random stalls in five phases, then an
/// always-ready window measuring throughput, then a drain checking nothing was lost.
#[test]
fn stream_modules_match_queue_model() {
    let exe = build().unwrap_or_else(|e| panic!("{e}"));
    for seed in ["1", "2"] {
        let out = run(&exe, &[seed, "60000"]).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(out.contains("PASS"), "seed {seed}: {out}");
    }
}
