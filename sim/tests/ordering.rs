//! The memory model orders a read after a write only when the core waited for the write's
//! B response: a read issued earlier returns the old bytes, so a core that relies on luck
//! fails here rather than on a board.

mod common;

use ocl_hls_sim::{MemConfig, SimArg, SimLaunch, SimModel};

const OLD: u32 = 0x1111_1111;
const NEW: u32 = 0xC0FF_EE01;

/// x[0] and x[1] after one run of `raw_core` with `wait`.
fn run(model: &SimModel, wait: u32, mem: &MemConfig) -> (u32, u32, u64) {
    let mut x = OLD.to_le_bytes().to_vec();
    x.extend([0u8; 4]);
    let launch = SimLaunch {
        global: [1, 1, 1],
        local: [1, 1, 1],
        args: vec![
            SimArg::Buffer(x),
            SimArg::Scalar(wait.to_le_bytes().to_vec()),
        ],
    };
    let out = model
        .run(&launch, mem, 100_000, None)
        .unwrap_or_else(|e| panic!("{e}"));
    let x = out.buffers[0].clone().expect("x is a buffer");
    let word = |i: usize| u32::from_le_bytes([x[4 * i], x[4 * i + 1], x[4 * i + 2], x[4 * i + 3]]);
    (word(0), word(1), out.cycles)
}

#[test]
fn a_read_sees_a_write_only_after_its_response() {
    let model = SimModel::build(&common::raw_desc()).unwrap_or_else(|e| panic!("{e}"));
    let mem = MemConfig::default();
    let (x0, early, fast) = run(&model, 0, &mem);
    assert_eq!(x0, NEW);
    assert_eq!(
        early, OLD,
        "a read issued before the write's B saw the new word"
    );
    let (x0, late, slow) = run(&model, 1, &mem);
    assert_eq!(x0, NEW);
    assert_eq!(
        late, NEW,
        "a read issued after the write's B saw the old word"
    );
    assert!(
        slow >= fast + u64::from(mem.write_latency) / 2,
        "waiting for B took {slow} cycles, not waiting {fast}"
    );
}
