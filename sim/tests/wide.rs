//! The harness on `scale_core.v` (dst = src * k): 256-bit data masters, which Verilator
//! holds as `VlWide<8>`, and 64-bit addresses above 4 GiB, passed in two registers.

mod common;

use common::{le_bytes_u32, scale_desc, words, Rng};
use ocl_hls_sim::{plan, MemConfig, SimArg, SimLaunch, SimModel, Stalls};
use std::sync::OnceLock;

fn model() -> &'static SimModel {
    static MODEL: OnceLock<Result<SimModel, String>> = OnceLock::new();
    match MODEL.get_or_init(|| SimModel::build(&scale_desc())) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    }
}

fn check(n: usize, k: u32, seed: u64, mem: &MemConfig) -> u64 {
    let mut r = Rng::new(seed);
    let src: Vec<u32> = (0..n).map(|_| r.next() as u32).collect();
    let launch = SimLaunch {
        global: [n as u32, 1, 1],
        local: [1, 1, 1],
        args: vec![
            SimArg::Buffer(le_bytes_u32(&src)),
            SimArg::Buffer(vec![0x5A; 4 * n]),
            SimArg::Scalar(k.to_le_bytes().to_vec()),
        ],
    };
    let p = plan(model().desc(), &launch).unwrap();
    assert!(p.placements[0].unwrap().base > u64::from(u32::MAX));
    let out = model()
        .run(&launch, mem, 100_000, None)
        .unwrap_or_else(|e| panic!("n = {n}: {e}"));
    let dst = words(out.buffers[1].as_ref().expect("dst is a buffer"));
    assert_eq!(dst.len(), n);
    for i in 0..n {
        assert_eq!(dst[i], src[i].wrapping_mul(k), "dst[{i}], n = {n}");
    }
    let beats = (n as u64 * 4).div_ceil(32);
    assert_eq!(out.stats[0].read_beats, beats);
    assert_eq!(out.stats[1].write_beats, beats);
    assert!(
        out.cycles >= beats,
        "{} cycles for {beats} beats",
        out.cycles
    );
    out.cycles
}

#[test]
fn wide_masters_scale_every_element() {
    // Lengths that end mid-beat test the write strobes of the last beat.
    for (n, seed) in [(1, 1), (8, 2), (13, 3), (1003, 4)] {
        check(n, 0x9E37_79B9, seed, &MemConfig::ideal());
    }
    let cycles = check(1003, 7, 5, &MemConfig::default());
    assert!(
        cycles >= 2 * 126,
        "{cycles} cycles: two masters share one beat per cycle"
    );
}

#[test]
fn wide_masters_survive_random_stalls() {
    let mem = MemConfig {
        stalls: Some(Stalls {
            seed: 9,
            percent: 30,
        }),
        ..MemConfig::default()
    };
    check(517, 3, 6, &mem);
}
