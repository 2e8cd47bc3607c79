//! The streaming memory units (`ohls_mem_load`, `ohls_mem_store`) in Verilator against a
//! Rust model: the test writes a random mix of stride-1 streams, scattered, repeated,
//! strided and backward accesses; the C++ bench drives them through the unit with random
//! gaps and back-pressure against an AXI slave that stalls every channel and checks the
//! burst rules; the answers (loads) or the final memory (stores) must equal the model's,
//! and streams must go out as full bursts at one element per cycle.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rtl_templates::template;
use rtl_templates::verilator::{run, Build};

fn tb(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tb")
        .join(name)
}

/// Memory byte `a` before any store (the bench's `mem_byte`).
fn mem_byte(a: u32) -> u8 {
    (a ^ (a >> 7) ^ (a >> 13))
        .wrapping_mul(0x9d)
        .wrapping_add(0x31) as u8
}

/// The 4-byte element at `a`, little-endian.
fn element(a: u32) -> u32 {
    (0..4).map(|j| (mem_byte(a + j) as u32) << (8 * j)).sum()
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Element addresses (4-aligned, below 1 MiB): streams (some across 4 KiB pages),
/// scattered ones, repeats, strides of 2 and 8 elements and backward runs.
fn accesses(seed: u64, n: usize) -> Vec<u32> {
    let mut r = XorShift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut out = Vec::new();
    while out.len() < n {
        let start = (r.below((1 << 20) - 8192) as u32) & !3;
        let len = 1 + r.below(300) as u32;
        match r.below(6) {
            0 | 1 => out.extend((0..len).map(|i| start + 4 * i)),
            2 => out.extend((0..1 + r.below(20)).map(|_| (r.below((1 << 20) - 4) as u32) & !3)),
            3 => out.extend((0..1 + r.below(5)).map(|_| start)),
            4 => {
                let stride = if r.below(2) == 0 { 8 } else { 32 };
                out.extend((0..len.min(100)).map(|i| start + stride * i));
            }
            _ => out.extend((0..len).map(|i| start + 4 * (len - i))),
        }
    }
    out.truncate(n);
    out
}

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rtl-mem-units-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    p
}

fn fifos(b: Build) -> Build {
    ["ohls_fifo.v", "ohls_fifo_reg.v", "ohls_fifo_ram.v"]
        .iter()
        .fold(b, |b, f| b.source(template(f)))
}

fn load_unit(params: &[(&str, u32)]) -> PathBuf {
    let mut b = fifos(Build::new("ohls_mem_load").source(template("ohls_mem_load.v")));
    for (k, v) in params {
        b = b.param(k, v);
    }
    b.testbench(tb("mem_load_tb.cpp"))
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn store_unit() -> PathBuf {
    fifos(Build::new("ohls_mem_store").source(template("ohls_mem_store.v")))
        .testbench(tb("mem_store_tb.cpp"))
        .build()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A bench's output: its lines, the numbers of its DONE line (cycles, bursts, beats and
/// for stores full beats) and its bursts.
struct Run {
    lines: Vec<String>,
    done: Vec<u64>,
    bursts: Vec<(u32, u32)>,
}

fn parse(out: &str) -> Run {
    let lines: Vec<String> = out.lines().map(str::to_string).collect();
    let done = lines
        .iter()
        .find_map(|l| l.strip_prefix("DONE "))
        .unwrap_or_else(|| panic!("no DONE line:\n{out}"))
        .split(' ')
        .map(|x| x.parse().expect("a count"))
        .collect();
    let bursts = lines
        .iter()
        .filter_map(|l| l.strip_prefix("A "))
        .map(|l| {
            let (a, n) = l.split_once(' ').expect("A addr beats");
            (
                u32::from_str_radix(a, 16).expect("hex"),
                n.parse().expect("beats"),
            )
        })
        .collect();
    Run {
        lines,
        done,
        bursts,
    }
}

/// Runs the load bench on `reqs` and checks every answer against the model.
fn run_loads(exe: &Path, reqs: &[u32], args: [&str; 6]) -> Run {
    let text: String = reqs.iter().map(|a| format!("{a:x}\n")).collect();
    let file = scratch(&format!("loads-{}.txt", args[0]), &text);
    let path = file.display().to_string();
    let mut all = vec![path.as_str()];
    all.extend(args);
    let out = run(exe, &all).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let _ = std::fs::remove_file(&file);
    let r = parse(&out);
    let got: Vec<u32> = r
        .lines
        .iter()
        .filter_map(|l| l.strip_prefix("R "))
        .map(|x| u32::from_str_radix(x, 16).expect("hex"))
        .collect();
    assert_eq!(got.len(), reqs.len(), "{args:?}");
    for (i, (&a, &g)) in reqs.iter().zip(&got).enumerate() {
        assert_eq!(g, element(a), "request {i} at {a:#x} ({args:?})");
    }
    r
}

#[test]
fn load_unit_answers_streams_and_scattered_requests_in_order() {
    let exe = load_unit(&[]);
    for seed in 1..=3u64 {
        let reqs = accesses(seed, 3000);
        let s = seed.to_string();
        // 20% stalls everywhere, flush now and then, no prefetch limit.
        run_loads(&exe, &reqs, [&s, "20", "16", "4", "ffffffff", "1"]);
    }
}

#[test]
fn load_unit_streams_a_buffer_in_full_bursts_at_one_element_per_cycle() {
    let exe = load_unit(&[]);
    let base = 0x10000u32;
    let reqs: Vec<u32> = (0..4096).map(|i| base + 4 * i).collect();
    let end = format!("{:x}", base + 4 * 4096);
    let r = run_loads(&exe, &reqs, ["7", "0", "16", "4", &end, "0"]);
    let (cycles, bursts, beats) = (r.done[0], r.done[1], r.done[2]);
    assert_eq!((bursts, beats), (32, 512), "{:?}", r.bursts);
    assert!(r.bursts.iter().all(|&(_, n)| n == 16), "{:?}", r.bursts);
    // One element per cycle after the first burst's latency.
    assert!(cycles <= 4096 + 100, "{cycles} cycles for 4096 elements");
    eprintln!("stream of 4096 elements: {cycles} cycles, {bursts} bursts");
}

#[test]
fn load_unit_without_streams_fetches_one_beat_per_request_one_per_cycle() {
    let exe = load_unit(&[
        ("STREAM", 0),
        ("MAX_OUTSTANDING", 64),
        ("FIFO_DEPTH", 64),
        ("REQ_DEPTH", 64),
    ]);
    for seed in 4..=5u64 {
        let reqs = accesses(seed, 2000);
        let s = seed.to_string();
        let r = run_loads(&exe, &reqs, [&s, "20", "16", "64", "ffffffff", "1"]);
        assert!(r.bursts.iter().all(|&(_, n)| n == 1), "{:?}", r.bursts);
    }
    // Every request in a new beat, no stalls: one request a cycle with 64 in flight.
    let reqs: Vec<u32> = (0..2000).map(|i| 0x4000 + 32 * i).collect();
    let r = run_loads(&exe, &reqs, ["9", "0", "16", "64", "ffffffff", "0"]);
    assert_eq!(r.done[1], 2000);
    assert!(r.done[0] <= 2000 + 100, "{} cycles", r.done[0]);
    eprintln!("2000 scattered loads: {} cycles", r.done[0]);
}

/// Runs the store bench and checks the final memory against the model.
fn run_stores(exe: &Path, stores: &[(u32, u32)], args: [&str; 5]) -> Run {
    let text: String = stores
        .iter()
        .map(|(a, v)| format!("{a:x} {v:x}\n"))
        .collect();
    let file = scratch(&format!("stores-{}.txt", args[0]), &text);
    let path = file.display().to_string();
    let mut all = vec![path.as_str()];
    all.extend(args);
    let out = run(exe, &all).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let _ = std::fs::remove_file(&file);
    let r = parse(&out);
    let mut model: BTreeMap<u32, u8> = BTreeMap::new();
    for &(a, v) in stores {
        for j in 0..4 {
            model.insert(a + j, (v >> (8 * j)) as u8);
        }
    }
    let want: BTreeMap<u32, u8> = model
        .into_iter()
        .filter(|&(a, v)| v != mem_byte(a))
        .collect();
    let got: BTreeMap<u32, u8> = r
        .lines
        .iter()
        .filter_map(|l| l.strip_prefix("M "))
        .map(|l| {
            let (a, v) = l.split_once(' ').expect("M addr byte");
            (
                u32::from_str_radix(a, 16).expect("hex"),
                u8::from_str_radix(v, 16).expect("hex"),
            )
        })
        .collect();
    let wrong: Vec<_> = want
        .iter()
        .filter(|(a, v)| got.get(a) != Some(v))
        .take(10)
        .collect();
    let stray: Vec<_> = got
        .keys()
        .filter(|a| !want.contains_key(a))
        .take(10)
        .collect();
    assert!(
        wrong.is_empty() && stray.is_empty(),
        "{args:?}: wrong {wrong:x?} stray {stray:x?}"
    );
    r
}

#[test]
fn store_unit_writes_streams_and_scattered_stores_in_order() {
    let exe = store_unit();
    for seed in 1..=3u64 {
        let mut r = XorShift(seed + 100);
        let stores: Vec<(u32, u32)> = accesses(seed, 3000)
            .into_iter()
            .map(|a| (a, r.next() as u32))
            .collect();
        let s = seed.to_string();
        run_stores(&exe, &stores, [&s, "20", "16", "4", "1"]);
    }
}

#[test]
fn store_unit_writes_a_stream_as_full_beat_bursts_at_one_element_per_cycle() {
    let exe = store_unit();
    let stores: Vec<(u32, u32)> = (0..4096u32)
        .map(|i| (0x10000 + 4 * i, i.wrapping_mul(2_654_435_761)))
        .collect();
    let r = run_stores(&exe, &stores, ["7", "0", "16", "4", "0"]);
    let (cycles, bursts, beats, full) = (r.done[0], r.done[1], r.done[2], r.done[3]);
    assert_eq!((bursts, beats, full), (32, 512, 512), "{:?}", r.bursts);
    assert!(cycles <= 4096 + 100, "{cycles} cycles for 4096 stores");
    eprintln!("stream of 4096 stores: {cycles} cycles, {bursts} bursts");
}
