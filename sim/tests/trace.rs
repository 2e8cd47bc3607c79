//! Waveform tracing: a run with a trace path builds the traced variant of the model and
//! writes a VCD holding the core's ports.

mod common;

use common::{le_bytes_f32, vadd_desc};
use ocl_hls_sim::{MemConfig, SimArg, SimLaunch, SimModel};

#[test]
fn a_traced_run_writes_a_vcd_with_the_ports() {
    let model = SimModel::build(&vadd_desc()).unwrap_or_else(|e| panic!("{e}"));
    let a = [1.5f32, -2.0, 3.25];
    let launch = SimLaunch {
        global: [3, 1, 1],
        local: [1, 1, 1],
        args: vec![
            SimArg::Buffer(le_bytes_f32(&a)),
            SimArg::Buffer(le_bytes_f32(&a)),
            SimArg::Buffer(vec![0; 12]),
            SimArg::Scalar(vec![0; 4]),
        ],
    };
    let path = std::env::temp_dir().join(format!("ohls-sim-trace-{}.vcd", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let out = model
        .run(&launch, &MemConfig::default(), 10_000, Some(&path))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.buffers[2], Some(le_bytes_f32(&[3.0, -4.0, 6.5])));
    let vcd = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let _ = std::fs::remove_file(&path);
    assert!(vcd.contains("$enddefinitions"), "not a VCD");
    for port in ["m_c_wvalid", "s_axil_awaddr", "irq"] {
        assert!(vcd.contains(port), "{port} not traced");
    }
    // A value change at least every cycle of the run.
    let stamps = vcd.lines().filter(|l| l.starts_with('#')).count() as u64;
    assert!(
        stamps >= out.cycles,
        "{stamps} time stamps for {} cycles",
        out.cycles
    );
}
