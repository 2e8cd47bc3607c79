//! The harness on `vadd_core.v` (c = a + b on binary32): results bit for bit against Rust
//! under several memory models, plausible cycle counts, and the errors the harness must
//! report (stray address, cycle limit, protocol violations), all from one Verilator build.

mod common;

use common::{le_bytes_f32, vadd_desc, words, Rng};
use ocl_hls_sim::{plan, MemConfig, SimArg, SimLaunch, SimModel, SimOutcome, Stalls};
use std::sync::OnceLock;

fn model() -> &'static SimModel {
    static MODEL: OnceLock<Result<SimModel, String>> = OnceLock::new();
    match MODEL.get_or_init(|| SimModel::build(&vadd_desc())) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    }
}

fn launch(a: &[f32], b: &[f32], fault: u32) -> SimLaunch {
    SimLaunch {
        global: [a.len() as u32, 1, 1],
        local: [1, 1, 1],
        args: vec![
            SimArg::Buffer(le_bytes_f32(a)),
            SimArg::Buffer(le_bytes_f32(b)),
            SimArg::Buffer(vec![0xEE; 4 * a.len()]),
            SimArg::Scalar(fault.to_le_bytes().to_vec()),
        ],
    }
}

fn inputs(n: usize, seed: u64) -> (Vec<f32>, Vec<f32>) {
    let mut r = Rng::new(seed);
    let a = (0..n).map(|_| r.float()).collect();
    let b = (0..n).map(|_| r.float()).collect();
    (a, b)
}

/// ohls_fp_add returns the canonical quiet NaN; everything else must equal Rust's sum.
fn expected(a: &[f32], b: &[f32]) -> Vec<u32> {
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            let s = x + y;
            if s.is_nan() {
                0x7FC0_0000
            } else {
                s.to_bits()
            }
        })
        .collect()
}

fn run_ok(n: usize, seed: u64, mem: &MemConfig) -> SimOutcome {
    let (a, b) = inputs(n, seed);
    let out = model()
        .run(&launch(&a, &b, 0), mem, 200_000, None)
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("n = {n}: {} cycles, {:?}", out.cycles, out.stats);
    let c = out.buffers[2].as_ref().expect("c is a buffer");
    let got = words(c);
    let want = expected(&a, &b);
    assert_eq!(got.len(), n);
    for i in 0..n {
        assert_eq!(
            got[i], want[i],
            "c[{i}] = {:#010x}, expected {:#010x} = {:?} + {:?}",
            got[i], want[i], a[i], b[i]
        );
    }
    assert_eq!(
        out.buffers[0].as_deref(),
        Some(&le_bytes_f32(&a)[..]),
        "a changed"
    );
    assert_eq!(out.buffers[3], None);
    out
}

#[test]
fn sums_match_rust_on_an_ideal_memory() {
    let n = 1000;
    let out = run_ok(n, 1, &MemConfig::ideal());
    let c = &out.stats[2];
    assert_eq!((c.write_beats, c.read_beats), (n as u64, 0));
    // 16-beat bursts on every master, one beat per cycle at best.
    assert_eq!(out.stats[0].read_bursts, (n as u64).div_ceil(16));
    assert!(
        out.cycles >= n as u64,
        "{} cycles for {n} beats",
        out.cycles
    );
    assert!(
        out.cycles < 2 * n as u64,
        "{} cycles: the stream did not flow",
        out.cycles
    );
}

#[test]
fn sums_match_rust_on_the_default_de10_like_memory() {
    let n = 777;
    let out = run_ok(n, 2, &MemConfig::default());
    // One shared beat per cycle: a, b and c move 3n beats.
    assert!(
        out.cycles >= 3 * n as u64,
        "{} cycles for {} beats",
        out.cycles,
        3 * n
    );
    assert!(out.cycles < 6 * n as u64, "{} cycles", out.cycles);
}

#[test]
fn sums_match_rust_with_random_stalls_on_every_channel() {
    for seed in [3, 4] {
        let mem = MemConfig {
            stalls: Some(Stalls { seed, percent: 40 }),
            ..MemConfig::ideal()
        };
        let ideal = run_ok(300, seed, &MemConfig::ideal()).cycles;
        let stalled = run_ok(300, seed, &mem).cycles;
        assert!(
            stalled > ideal,
            "stalls cost nothing: {stalled} vs {ideal} cycles"
        );
    }
}

#[test]
fn sums_match_rust_with_high_latency_and_one_outstanding_burst() {
    let mem = MemConfig {
        read_latency: 200,
        write_latency: 150,
        max_outstanding: 1,
        max_burst: 16,
        bandwidth: Some(0.5),
        stalls: None,
    };
    let n = 64;
    let out = run_ok(n, 5, &mem);
    // 4 bursts of 16 beats per input, one at a time, each waiting 200 cycles.
    assert!(out.cycles >= 4 * 200, "{} cycles", out.cycles);
    assert_eq!(out.stats[1].read_bursts, 4);
    // Half a beat per cycle for 3n beats.
    assert!(out.cycles >= 6 * n as u64, "{} cycles", out.cycles);
}

#[test]
fn a_burst_longer_than_the_memory_takes_is_refused() {
    let (a, b) = inputs(20, 12);
    let mem = MemConfig {
        max_burst: 4,
        ..MemConfig::default()
    };
    let err = model()
        .run(&launch(&a, &b, 0), &mem, 100_000, None)
        .expect_err("16-beat bursts exceed the limit");
    assert!(
        err.contains("burst of 16 beats") && err.contains("limit of 4"),
        "{err}"
    );
}

#[test]
fn an_empty_range_finishes_without_traffic() {
    let out = run_ok(0, 6, &MemConfig::default());
    assert!(out.stats.iter().all(|s| s.read_beats + s.write_beats == 0));
}

#[test]
fn a_read_past_the_buffer_is_reported_with_its_address() {
    let (a, b) = inputs(100, 7);
    let l = launch(&a, &b, 1);
    let base_a = plan(model().desc(), &l).unwrap().placements[0]
        .unwrap()
        .base;
    let err = model()
        .run(&l, &MemConfig::default(), 100_000, None)
        .expect_err("a stray read must fail");
    eprintln!("{err}");
    let addr = format!("{:#x}", base_a + 400);
    assert!(err.contains("read outside any buffer"), "{err}");
    assert!(err.contains(&addr), "address {addr} missing: {err}");
    assert!(err.contains("master a") && err.contains("AR"), "{err}");
}

#[test]
fn the_cycle_limit_stops_a_core_that_never_finishes() {
    let (a, b) = inputs(50, 8);
    let err = model()
        .run(&launch(&a, &b, 2), &MemConfig::default(), 5_000, None)
        .expect_err("must hit the limit");
    eprintln!("{err}");
    assert!(err.contains("cycle limit of 5000 cycles reached"), "{err}");
    assert!(err.contains("has not signalled DONE"), "{err}");
    // The last thing c did was its final write response.
    assert!(
        err.contains("master c: cycle") && err.contains(": B"),
        "{err}"
    );
}

#[test]
fn a_wrong_wlast_is_caught() {
    let (a, b) = inputs(40, 9);
    let err = model()
        .run(&launch(&a, &b, 3), &MemConfig::default(), 100_000, None)
        .expect_err("WLAST low must fail");
    eprintln!("{err}");
    assert!(
        err.contains("master c") && err.contains("WLAST is low on beat 16 of the 16-beat"),
        "{err}"
    );
}

#[test]
fn an_address_changing_while_not_ready_is_caught() {
    let (a, b) = inputs(200, 10);
    let mem = MemConfig {
        stalls: Some(Stalls {
            seed: 11,
            percent: 50,
        }),
        ..MemConfig::default()
    };
    let err = model()
        .run(&launch(&a, &b, 4), &mem, 100_000, None)
        .expect_err("a changing ARADDR must fail");
    eprintln!("{err}");
    assert!(
        err.contains("master a") && err.contains("AR payload"),
        "{err}"
    );
    assert!(
        err.contains("changed while ARVALID was high and ARREADY low"),
        "{err}"
    );
}

#[test]
fn a_launch_that_does_not_fit_the_description_is_refused() {
    let mut l = launch(&[1.0], &[2.0], 0);
    l.args.pop();
    let err = model()
        .run(&l, &MemConfig::default(), 1000, None)
        .unwrap_err();
    assert!(err.contains("takes 4 arguments"), "{err}");
    l.args.push(SimArg::Buffer(vec![]));
    let err = model()
        .run(&l, &MemConfig::default(), 1000, None)
        .unwrap_err();
    assert!(err.contains("argument fault is a scalar"), "{err}");
}

#[test]
fn a_nonzero_error_code_is_an_error() {
    let (a, b) = inputs(10, 13);
    let err = model()
        .run(&launch(&a, &b, 5), &MemConfig::default(), 100_000, None)
        .expect_err("error code 0x5A must fail");
    assert!(
        err.contains("error code 0x5a") && err.contains("does not list"),
        "{err}"
    );
}

#[test]
fn done_before_the_write_responses_is_caught() {
    let (a, b) = inputs(64, 14);
    let err = model()
        .run(&launch(&a, &b, 6), &MemConfig::default(), 100_000, None)
        .expect_err("an early DONE must fail");
    assert!(
        err.contains("signalled DONE") && err.contains("master c"),
        "{err}"
    );
    assert!(err.contains("B responses"), "{err}");
}

#[test]
fn an_irq_that_never_rises_is_caught_by_polling_status() {
    let (a, b) = inputs(10, 15);
    let err = model()
        .run(&launch(&a, &b, 7), &MemConfig::default(), 100_000, None)
        .expect_err("a silent irq must fail");
    assert!(
        err.contains("STATUS.DONE is set but irq stayed low"),
        "{err}"
    );
}

#[test]
fn a_burst_crossing_4k_is_caught() {
    let (a, b) = inputs(100, 16);
    let err = model()
        .run(&launch(&a, &b, 8), &MemConfig::default(), 100_000, None)
        .expect_err("a 4 KiB crossing must fail");
    assert!(
        err.contains("master a") && err.contains("crosses a 4 KiB boundary"),
        "{err}"
    );
}
