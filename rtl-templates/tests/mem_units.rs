//! The streaming memory units (`ohls_mem_load`, `ohls_mem_store`) in Verilator against a
//! Rust model: the test writes a random mix of stride-1 streams, scattered, repeated,
//! strided and backward accesses; the C++ bench drives them through the unit with random
//! gaps and back-pressure against an AXI slave that stalls every channel, answers after a
//! random latency and checks the burst rules and which beats are read; the answers
//! (loads) or the final memory (stores) must equal the model's, byte for byte, and streams
//! must go out as full bursts at one element per cycle. Every element size the units take
//! is covered (4, 16 and 32 bytes aligned; 16-byte elements aligned to 4 bytes and 32-byte
//! ones aligned to 1, so they span two beats; 8-byte elements aligned to 2 on a 64-bit
//! bus), with and without stream prefetching, and streams that end at a buffer's end.
//! The store unit with byte masks (STRB=1) writes only each store's masked bytes: random
//! masks in random traffic, stores of 12 of 16 bytes (vstore3) in a stride stream at one
//! store per cycle in full-beat bursts, masks on spanning elements, stores that write
//! nothing; built with STRB=0 it is driven with random req_strb bits, which it ignores.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// The `n`-byte element at `a`, its bytes in address order.
fn element(a: u32, n: u32) -> Vec<u8> {
    (0..n).map(|j| mem_byte(a + j)).collect()
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

/// Addresses of `elem`-byte elements aligned to `align` (below 1 MiB, the whole element
/// too): streams (some across 4 KiB pages), scattered ones, repeats, strides of 2 and 8
/// elements and backward runs. With `elem` = `align` = 4 this is the mix the aligned
/// units were first tested with.
fn accesses(seed: u64, n: usize, elem: u32, align: u32) -> Vec<u32> {
    let mut r = XorShift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mask = !(align - 1);
    // Room for the longest run (300 elements, or 100 at a stride of 8 elements).
    let room = 1024 * u64::from(elem.max(8));
    let mut out = Vec::new();
    while out.len() < n {
        let start = (r.below((1 << 20) - room) as u32) & mask;
        let len = 1 + r.below(300) as u32;
        match r.below(6) {
            0 | 1 => out.extend((0..len).map(|i| start + elem * i)),
            2 => out.extend(
                (0..1 + r.below(20)).map(|_| (r.below((1 << 20) - u64::from(elem)) as u32) & mask),
            ),
            3 => out.extend((0..1 + r.below(5)).map(|_| start)),
            4 => {
                let stride = if r.below(2) == 0 { 2 * elem } else { 8 * elem };
                out.extend((0..len.min(100)).map(|i| start + stride * i));
            }
            _ => out.extend((0..len).map(|i| start + elem * (len - i))),
        }
    }
    out.truncate(n);
    out
}

/// Forward random walks: runs of addresses (aligned to `align`) that step 0 to 2 beats
/// of `beat` bytes at a time, so consecutive elements share a beat, follow in the next
/// one or skip one, spanning two beats or not, in every combination.
fn walks(seed: u64, n: usize, align: u32, beat: u32) -> Vec<u32> {
    let mut r = XorShift(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
    let mask = !(align - 1);
    let mut out = Vec::new();
    while out.len() < n {
        let mut a = (r.below((1 << 20) - 65536) as u32) & mask;
        for _ in 0..1 + r.below(200) {
            out.push(a);
            a += (r.below(u64::from(2 * beat) + 1) as u32) & mask;
        }
    }
    out.truncate(n);
    out
}

/// Random walks that also step back inside the beat: after an element that spans two
/// beats, one of the same first beat that does not (then one in the next beat, which the
/// unit already fetched as the spanning element's second).
fn zigzags(seed: u64, n: usize, elem: u32, align: u32, beat: u32) -> Vec<u32> {
    let mut r = XorShift(seed.wrapping_mul(0x9e6c_63d0_676a_9a99) | 1);
    let mask = !(align - 1);
    let mut out = Vec::new();
    while out.len() < n {
        let mut a = ((r.below((1 << 20) - 65536) as u32) & mask) + beat;
        for _ in 0..1 + r.below(200) {
            out.push(a);
            a = match r.below(4) {
                // Back to a spot earlier in the beat (the beat's start at most).
                0 => a - ((r.below(u64::from(a % beat) + 1) as u32) & mask),
                _ => a + ((r.below(u64::from(beat + elem) + 1) as u32) & mask),
            };
        }
    }
    out.truncate(n);
    out
}

/// A file for the bench, named uniquely (tests run in parallel).
fn scratch(name: &str, text: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("rtl-mem-units-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let p = dir.join(format!("{}-{name}", N.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&p, text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    p
}

fn fifos(b: Build) -> Build {
    ["ohls_fifo.v", "ohls_fifo_reg.v", "ohls_fifo_ram.v"]
        .iter()
        .fold(b, |b, f| b.source(template(f)))
}

/// A unit's shape: bus bits, element bytes and the address alignment.
#[derive(Clone, Copy, Debug)]
struct Shape {
    dw: u32,
    elem: u32,
    align: u32,
}

const fn shape(dw: u32, elem: u32, align: u32) -> Shape {
    Shape { dw, elem, align }
}

/// The bench compiled for `s` (its bus and element widths, and the store unit's STRB,
/// are C++ defines).
fn build(top: &str, bench: &str, s: Shape, params: &[(&str, u32)]) -> PathBuf {
    let strb = params
        .iter()
        .find(|(k, _)| *k == "STRB")
        .map_or(0, |&(_, v)| v);
    let mut b = fifos(Build::new(top).source(template(&format!("{top}.v"))))
        .param("DATA_WIDTH", s.dw)
        .param("ELEM_BYTES", s.elem)
        .param("ALIGN_BYTES", s.align);
    for (k, v) in params {
        b = b.param(k, v);
    }
    b.flag("-CFLAGS")
        .flag(&format!(
            "-DTB_DATA_WIDTH={} -DTB_ELEM_BYTES={} -DTB_STRB={strb}",
            s.dw, s.elem
        ))
        .testbench(tb(bench))
        .build()
        .unwrap_or_else(|e| panic!("{s:?} {params:?}: {e}"))
}

/// A load unit of shape `s`; `params` set STREAM and the rest.
fn load_unit(s: Shape, params: &[(&str, u32)]) -> PathBuf {
    build("ohls_mem_load", "mem_load_tb.cpp", s, params)
}

fn store_unit(s: Shape) -> PathBuf {
    store_unit_with(s, &[])
}

fn store_unit_with(s: Shape, params: &[(&str, u32)]) -> PathBuf {
    build("ohls_mem_store", "mem_store_tb.cpp", s, params)
}

/// A bench's output: its lines, the numbers of its DONE line (cycles, bursts, beats and
/// for stores full beats, the cycle of the last store accepted and beats with no byte
/// strobed) and its bursts.
struct Run {
    lines: Vec<String>,
    done: Vec<u64>,
    bursts: Vec<(u32, u32)>,
}

impl Run {
    fn cycles(&self) -> u64 {
        self.done[0]
    }
    fn burst_count(&self) -> u64 {
        self.done[1]
    }
    fn beats(&self) -> u64 {
        self.done[2]
    }
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

fn hex_bytes(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// How a load bench runs: seed, stall percentage (request gaps, response back-pressure
/// and every AXI channel), MAX_BURST and MAX_OUTSTANDING as built, stream_end, flush
/// percentage and whether the unit streams (the bench checks which beats it may read).
struct LoadRun<'a> {
    seed: u64,
    stall: u32,
    max_burst: u32,
    max_out: u32,
    stream_end: u32,
    flush: u32,
    stream: bool,
    what: &'a str,
}

impl<'a> LoadRun<'a> {
    /// Random traffic: 20% stalls, flush now and then, no prefetch limit, 16-beat
    /// bursts, 4 outstanding (the unit's defaults).
    fn random(seed: u64, stream: bool, what: &'a str) -> Self {
        LoadRun {
            seed,
            stall: 20,
            max_burst: 16,
            max_out: 4,
            stream_end: u32::MAX,
            flush: 1,
            stream,
            what,
        }
    }
    /// No stalls, no flush: the throughput setting.
    fn clean(seed: u64, stream_end: u32, what: &'a str) -> Self {
        LoadRun {
            stall: 0,
            flush: 0,
            stream_end,
            ..Self::random(seed, true, what)
        }
    }
}

/// Runs the load bench on `reqs` and checks every answer against the model.
fn run_loads(exe: &Path, s: Shape, reqs: &[u32], r: &LoadRun) -> Run {
    let text: String = reqs.iter().map(|a| format!("{a:x}\n")).collect();
    let file = scratch("loads.txt", &text);
    let path = file.display().to_string();
    let args = [
        path,
        r.seed.to_string(),
        r.stall.to_string(),
        r.max_burst.to_string(),
        r.max_out.to_string(),
        format!("{:x}", r.stream_end),
        r.flush.to_string(),
        u32::from(r.stream).to_string(),
    ];
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let what = format!("{} {s:?} seed {}", r.what, r.seed);
    let out = run(exe, &argv).unwrap_or_else(|e| panic!("{what}: {e}"));
    let _ = std::fs::remove_file(&file);
    let run = parse(&out);
    let got: Vec<Vec<u8>> = run
        .lines
        .iter()
        .filter_map(|l| l.strip_prefix("R "))
        .map(hex_bytes)
        .collect();
    assert_eq!(got.len(), reqs.len(), "{what}");
    for (i, (&a, g)) in reqs.iter().zip(&got).enumerate() {
        assert_eq!(*g, element(a, s.elem), "{what}: request {i} at {a:#x}");
    }
    run
}

/// The beats holding bytes [a, a + n) on a bus of `b` bytes.
fn beats_of(a: u32, n: u32, b: u32) -> std::ops::RangeInclusive<u32> {
    a / b..=(a + n - 1) / b
}

/// A stride-1 stream of `n` elements from `base` to the buffer's end (stream_end), no
/// stalls: every beat of the buffer is read exactly once, in full 16-beat bursts where
/// the 4 KiB pages allow, and the elements come one per cycle (`n` plus the first burst's
/// latency, at most 40 cycles, plus a small constant).
fn check_load_stream(exe: &Path, s: Shape, base: u32, n: u32, what: &str) -> Run {
    let b = s.dw / 8;
    let reqs: Vec<u32> = (0..n).map(|i| base + s.elem * i).collect();
    let end = base + s.elem * n;
    let r = run_loads(exe, s, &reqs, &LoadRun::clean(7, end, what));
    let first = base / b;
    let last = (end - 1) / b;
    let beats = u64::from(last - first + 1);
    assert_eq!(
        r.beats(),
        beats,
        "{what} {s:?}: each beat once; {:?}",
        r.bursts
    );
    // Bursts never cross 16-beat boundaries of the page here (16 * b divides 4096), so
    // all but the first and last are full.
    let full = r.bursts.iter().filter(|&&(_, k)| k == 16).count() as u64;
    assert!(
        r.burst_count() <= full + 2,
        "{what} {s:?}: {} bursts, {full} of 16 beats: {:?}",
        r.burst_count(),
        r.bursts
    );
    assert!(
        r.cycles() <= u64::from(n) + 100,
        "{what} {s:?}: {} cycles for {n} elements",
        r.cycles()
    );
    eprintln!(
        "{what} {s:?}: {n} elements in {} cycles, {} bursts, {} beats",
        r.cycles(),
        r.burst_count(),
        r.beats()
    );
    r
}

const ALIGNED4: Shape = shape(256, 4, 4);

#[test]
fn load_unit_answers_streams_and_scattered_requests_in_order() {
    let exe = load_unit(ALIGNED4, &[]);
    for seed in 1..=3u64 {
        let reqs = accesses(seed, 3000, 4, 4);
        run_loads(&exe, ALIGNED4, &reqs, &LoadRun::random(seed, true, "mix"));
    }
}

#[test]
fn load_unit_streams_a_buffer_in_full_bursts_at_one_element_per_cycle() {
    let exe = load_unit(ALIGNED4, &[]);
    let r = check_load_stream(&exe, ALIGNED4, 0x10000, 4096, "stream");
    assert_eq!((r.burst_count(), r.beats()), (32, 512), "{:?}", r.bursts);
    assert!(r.bursts.iter().all(|&(_, n)| n == 16), "{:?}", r.bursts);
}

/// STREAM = 0 with enough reads in flight for one request per cycle.
const NO_STREAM: &[(&str, u32)] = &[
    ("STREAM", 0),
    ("MAX_OUTSTANDING", 64),
    ("FIFO_DEPTH", 64),
    ("REQ_DEPTH", 64),
];

fn no_stream_run(seed: u64, stall: u32, what: &str) -> LoadRun<'_> {
    LoadRun {
        stall,
        max_out: 64,
        flush: if stall == 0 { 0 } else { 1 },
        ..LoadRun::random(seed, false, what)
    }
}

#[test]
fn load_unit_without_streams_fetches_one_beat_per_request_one_per_cycle() {
    let exe = load_unit(ALIGNED4, NO_STREAM);
    for seed in 4..=5u64 {
        let reqs = accesses(seed, 2000, 4, 4);
        let r = run_loads(&exe, ALIGNED4, &reqs, &no_stream_run(seed, 20, "mix"));
        assert!(r.bursts.iter().all(|&(_, n)| n == 1), "{:?}", r.bursts);
    }
    // Every request in a new beat, no stalls: one request a cycle with 64 in flight.
    let reqs: Vec<u32> = (0..2000).map(|i| 0x4000 + 32 * i).collect();
    let r = run_loads(&exe, ALIGNED4, &reqs, &no_stream_run(9, 0, "scattered"));
    assert_eq!(r.burst_count(), 2000);
    assert!(r.cycles() <= 2000 + 100, "{} cycles", r.cycles());
    eprintln!("2000 scattered loads: {} cycles", r.cycles());
}

/// 16- and 32-byte elements at their natural alignment (float4, float8, and merged
/// unrolled accesses: 8 floats are one 256-bit beat): random traffic with and without
/// streams, and a stream at one element per cycle.
#[test]
fn load_unit_serves_wide_aligned_elements() {
    for elem in [16, 32] {
        let s = shape(256, elem, elem);
        let exe = load_unit(s, &[]);
        for seed in 11..=12u64 {
            let reqs = accesses(seed, 2000, elem, elem);
            run_loads(&exe, s, &reqs, &LoadRun::random(seed, true, "mix"));
        }
        let n = 8192 / elem * 16; // 128 KiB
        check_load_stream(&exe, s, 0x10000, n, "stream");
        let exe = load_unit(s, NO_STREAM);
        let reqs = accesses(13, 2000, elem, elem);
        let r = run_loads(&exe, s, &reqs, &no_stream_run(13, 20, "mix"));
        assert!(
            r.bursts.iter().all(|&(_, n)| n == 1),
            "{s:?}: {:?}",
            r.bursts
        );
    }
}

/// 16-byte elements aligned to 4 bytes (vload4 on a float pointer; x[i..i+3] merged after
/// unrolling), and 32-byte ones aligned to a byte: elements span two beats. Streams that start
/// anywhere in a beat run at one element per cycle reading each beat once.
#[test]
fn load_unit_streams_misaligned_elements_at_one_element_per_cycle() {
    for s in [shape(256, 16, 4), shape(256, 32, 1)] {
        let exe = load_unit(s, &[]);
        let n = 65536 / s.elem;
        for base in [0x10004u32, 0x1001c, 0x10010, 0x10000, 0x10013] {
            if !base.is_multiple_of(s.align) {
                continue;
            }
            check_load_stream(&exe, s, base, n, "misaligned stream");
        }
    }
    // A narrow bus: 8-byte elements aligned to 2 on 64 bits.
    let s = shape(64, 8, 2);
    let exe = load_unit(s, &[]);
    for base in [0x10002, 0x10006] {
        check_load_stream(&exe, s, base, 8192, "misaligned stream");
    }
}

#[test]
fn load_unit_serves_misaligned_elements_in_random_traffic() {
    for s in [shape(256, 16, 4), shape(256, 32, 1), shape(64, 8, 2)] {
        let exe = load_unit(s, &[]);
        for seed in 21..=23u64 {
            let reqs = accesses(seed, 3000, s.elem, s.align);
            run_loads(&exe, s, &reqs, &LoadRun::random(seed, true, "mix"));
            let reqs = walks(seed, 3000, s.align, s.dw / 8);
            run_loads(&exe, s, &reqs, &LoadRun::random(seed, true, "walks"));
            let reqs = zigzags(seed, 3000, s.elem, s.align, s.dw / 8);
            run_loads(&exe, s, &reqs, &LoadRun::random(seed, true, "zigzags"));
        }
    }
}

/// FRESH = 1 (a pipeline's load ordered after stores it may read): no request shares the
/// beats fetched for the one before, even in the same beat, so each is read after the
/// request was taken: a stride-1 walk fetches a beat per element, aligned or spanning,
/// and random traffic under stalls is answered right (the bench checks every element).
#[test]
fn load_unit_fresh_fetches_every_request_its_own_beats() {
    let fresh: Vec<(&str, u32)> = NO_STREAM.iter().copied().chain([("FRESH", 1)]).collect();
    for s in [ALIGNED4, shape(256, 16, 4)] {
        let exe = load_unit(s, &fresh);
        let reqs: Vec<u32> = (0..1000).map(|i| 0x4000 + s.elem * i).collect();
        let r = run_loads(&exe, s, &reqs, &no_stream_run(41, 20, "walk"));
        assert_eq!(r.burst_count(), 1000, "{s:?}: {:?}", &r.bursts[..8]);
        for seed in 42..=43u64 {
            let reqs = accesses(seed, 2000, s.elem, s.align);
            let r = run_loads(&exe, s, &reqs, &no_stream_run(seed, 20, "mix"));
            // A spanning element across a 4 KiB boundary takes two bursts.
            let (n, spanning) = (r.burst_count(), s.align < s.elem);
            assert!(n == 2000 || (spanning && n > 2000), "{s:?}: {n} bursts");
        }
    }
}

/// STREAM = 0 with spanning elements: each request reads only its own beats (the bench
/// checks it), a request continuing the last one's beats reads only the beats it adds,
/// so a stride-1 stream reads each beat once, at one element per cycle with enough reads
/// in flight.
#[test]
fn load_unit_without_streams_reads_each_beat_of_misaligned_elements_once() {
    let s = shape(256, 16, 4);
    let exe = load_unit(s, NO_STREAM);
    for seed in 31..=33u64 {
        let reqs = accesses(seed, 3000, s.elem, s.align);
        let r = run_loads(&exe, s, &reqs, &no_stream_run(seed, 20, "mix"));
        assert!(r.bursts.iter().all(|&(_, n)| n <= 2), "{:?}", r.bursts);
        let reqs = walks(seed, 3000, s.align, 32);
        let r = run_loads(&exe, s, &reqs, &no_stream_run(seed, 20, "walks"));
        assert!(r.bursts.iter().all(|&(_, n)| n <= 2), "{:?}", r.bursts);
    }
    // Also 4-byte elements at 2-byte alignment (a packed struct's int after a short).
    for s in [s, shape(256, 4, 2)] {
        let exe = load_unit(s, NO_STREAM);
        for seed in 31..=33u64 {
            let reqs = zigzags(seed, 3000, s.elem, s.align, 32);
            let r = run_loads(&exe, s, &reqs, &no_stream_run(seed, 20, "zigzags"));
            assert!(r.bursts.iter().all(|&(_, n)| n <= 2), "{:?}", r.bursts);
        }
    }
    let n = 4096;
    let base = 0x10004;
    let reqs: Vec<u32> = (0..n).map(|i| base + 16 * i).collect();
    let r = run_loads(&exe, s, &reqs, &no_stream_run(34, 0, "stream"));
    assert_eq!(
        r.beats(),
        u64::from(n / 2 + 1),
        "each beat once: {:?}",
        r.bursts
    );
    assert!(r.cycles() <= u64::from(n) + 100, "{} cycles", r.cycles());
    eprintln!("STREAM=0 {s:?}: {n} elements in {} cycles", r.cycles());
}

/// A buffer whose end (stream_end) falls anywhere in a beat, streamed to its last element
/// and read at random inside it with stalls everywhere: the unit never reads a beat at or
/// past stream_end that no request's bytes lie in (the bench checks every AR). Also with
/// stream_end inside the last element (a request past the limit still gets its beats).
#[test]
fn load_unit_stops_prefetching_at_the_buffer_end() {
    for s in [shape(256, 16, 4), shape(256, 32, 1), shape(256, 16, 16)] {
        let exe = load_unit(s, &[]);
        let mut rng = XorShift(0x5eed + u64::from(s.elem * 100 + s.align));
        for case in 0..12u64 {
            let base = 0x20000 + (rng.below(4096) as u32 & !(s.align - 1));
            let n = 1 + rng.below(700) as u32;
            let end = base + s.elem * n;
            let stream: Vec<u32> = (0..n).map(|i| base + s.elem * i).collect();
            let random: Vec<u32> = (0..500)
                .map(|_| {
                    base + (rng.below(u64::from(end - s.elem - base + 1)) as u32 & !(s.align - 1))
                })
                .collect();
            // The last variant sets the prefetch limit inside the last element: its beats
            // past the limit are fetched for it alone.
            let cut = end - s.align;
            for (what, reqs, limit) in [
                ("stream to the end", &stream, end),
                ("random in the buffer", &random, end),
                ("stream past the limit", &stream, cut),
            ] {
                let run = LoadRun {
                    stream_end: limit,
                    flush: 2,
                    ..LoadRun::random(case, true, what)
                };
                let r = run_loads(&exe, s, reqs, &run);
                let b = s.dw / 8;
                let wanted = beats_of(base, end - base, b);
                assert!(
                    r.bursts.iter().all(|&(a, k)| a / b >= *wanted.start() && (a / b + k - 1) <= *wanted.end()),
                    "{what} {s:?} [{base:#x}, {end:#x}): {:?}",
                    r.bursts
                );
            }
        }
    }
}

/// Runs the store bench and checks the final memory against the model.
fn run_stores(exe: &Path, s: Shape, stores: &[(u32, Vec<u8>)], args: [&str; 5]) -> Run {
    let all: Vec<(u32, Vec<u8>, Option<u32>)> =
        stores.iter().map(|(a, v)| (*a, v.clone(), None)).collect();
    run_masked_stores(exe, s, &all, args)
}

/// [`run_stores`] with a byte mask per store (bit j: byte j is written; `None`: all),
/// for a unit built with STRB = 1.
fn run_masked_stores(
    exe: &Path,
    s: Shape,
    stores: &[(u32, Vec<u8>, Option<u32>)],
    args: [&str; 5],
) -> Run {
    let text: String = stores
        .iter()
        .map(|(a, v, m)| {
            let hex: String = v.iter().map(|b| format!("{b:02x}")).collect();
            match m {
                Some(m) => format!("{a:x} {hex} {m:x}\n"),
                None => format!("{a:x} {hex}\n"),
            }
        })
        .collect();
    let file = scratch("stores.txt", &text);
    let path = file.display().to_string();
    let mut all = vec![path.as_str()];
    all.extend(args);
    let what = format!("{s:?} {args:?}");
    let out = run(exe, &all).unwrap_or_else(|e| panic!("{what}: {e}"));
    let _ = std::fs::remove_file(&file);
    let r = parse(&out);
    let mut model: BTreeMap<u32, u8> = BTreeMap::new();
    for (a, v, m) in stores {
        for (j, &b) in v.iter().enumerate() {
            if m.is_none_or(|m| m >> j & 1 == 1) {
                model.insert(a + j as u32, b);
            }
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
        "{what}: wrong {wrong:x?} stray {stray:x?}"
    );
    r
}

/// Random values for the stores at `addrs`.
fn with_values(addrs: Vec<u32>, elem: u32, seed: u64) -> Vec<(u32, Vec<u8>)> {
    let mut r = XorShift(seed + 100);
    addrs
        .into_iter()
        .map(|a| (a, (0..elem).map(|_| r.next() as u8).collect()))
        .collect()
}

/// A stride-1 stream of `n` stores from `base`, no stalls: one store accepted per cycle,
/// each beat written once, all but the first and last full, in 16-beat bursts where the
/// pages allow.
fn check_store_stream(exe: &Path, s: Shape, base: u32, n: u32) -> Run {
    let b = s.dw / 8;
    let addrs: Vec<u32> = (0..n).map(|i| base + s.elem * i).collect();
    let stores = with_values(addrs, s.elem, 7);
    let r = run_stores(exe, s, &stores, ["7", "0", "16", "4", "0"]);
    let end = base + s.elem * n;
    let beats = u64::from((end - 1) / b - base / b + 1);
    let full = beats - u64::from(!base.is_multiple_of(b)) - u64::from(!end.is_multiple_of(b));
    assert_eq!(
        (r.beats(), r.done[3]),
        (beats, full),
        "{s:?} {base:#x}: {:?}",
        r.bursts
    );
    let sixteen = r.bursts.iter().filter(|&&(_, k)| k == 16).count() as u64;
    assert!(
        r.burst_count() <= sixteen + 2,
        "{s:?} {base:#x}: {:?}",
        r.bursts
    );
    assert!(
        r.cycles() <= u64::from(n) + 100,
        "{s:?} {base:#x}: {} cycles for {n} stores",
        r.cycles()
    );
    eprintln!(
        "store stream {s:?} from {base:#x}: {n} stores in {} cycles, {} bursts",
        r.cycles(),
        r.burst_count()
    );
    r
}

/// Random traffic (the mix, and with spanning elements the walks too), 20% stalls.
fn random_stores(exe: &Path, s: Shape, seeds: std::ops::RangeInclusive<u64>) {
    for seed in seeds {
        let sd = seed.to_string();
        let stores = with_values(accesses(seed, 3000, s.elem, s.align), s.elem, seed);
        run_stores(exe, s, &stores, [&sd, "20", "16", "4", "1"]);
        if s.align < s.elem {
            let stores = with_values(walks(seed, 3000, s.align, s.dw / 8), s.elem, seed);
            run_stores(exe, s, &stores, [&sd, "20", "16", "4", "1"]);
        }
    }
}

#[test]
fn store_unit_writes_streams_and_scattered_stores_in_order() {
    let exe = store_unit(ALIGNED4);
    random_stores(&exe, ALIGNED4, 1..=3);
}

#[test]
fn store_unit_writes_a_stream_as_full_beat_bursts_at_one_element_per_cycle() {
    let exe = store_unit(ALIGNED4);
    let r = check_store_stream(&exe, ALIGNED4, 0x10000, 4096);
    assert_eq!(
        (r.burst_count(), r.beats(), r.done[3]),
        (32, 512, 512),
        "{:?}",
        r.bursts
    );
}

#[test]
fn store_unit_writes_wide_aligned_elements() {
    for elem in [16, 32] {
        let s = shape(256, elem, elem);
        let exe = store_unit(s);
        random_stores(&exe, s, 11..=12);
        check_store_stream(&exe, s, 0x10000, 65536 / elem);
    }
}

/// Spanning stores (16 bytes aligned to 4, 32 aligned to 1, 8 aligned to 2 on a 64-bit
/// bus): random traffic, and streams from anywhere in a beat that take one store per cycle
/// and write full beats.
#[test]
fn store_unit_writes_misaligned_elements_into_two_beats() {
    for s in [shape(256, 16, 4), shape(256, 32, 1), shape(64, 8, 2)] {
        let exe = store_unit(s);
        random_stores(&exe, s, 21..=23);
        let n = 65536 / s.elem;
        let bases: &[u32] = if s.dw == 64 {
            &[0x10002, 0x10006]
        } else {
            &[0x10004, 0x1001c, 0x10010, 0x10013]
        };
        for &base in bases.iter().filter(|&&b| b.is_multiple_of(s.align)) {
            check_store_stream(&exe, s, base, n);
        }
    }
}

/// Spanning elements that straddle a 4 KiB page (their two beats go out as two bursts),
/// through the default units and through units built for one-beat bursts with little
/// room (MAX_BURST 1, two reads or one write in flight, two-beat FIFOs), with random
/// traffic too.
#[test]
fn misaligned_elements_across_pages_and_in_one_beat_bursts() {
    let s = shape(256, 16, 4);
    let straddle: Vec<u32> = (1..600u32)
        .map(|k| 0x10000 + 4096 * (k % 200) - 4 * (1 + k % 3))
        .collect();
    for (params, stream) in [(&[][..], true), (NO_STREAM, false)] {
        let exe = load_unit(s, params);
        let run = LoadRun {
            max_out: if stream { 4 } else { 64 },
            ..LoadRun::random(41, stream, "straddling pages")
        };
        run_loads(&exe, s, &straddle, &run);
    }
    for stream in [1, 0] {
        let exe = load_unit(
            s,
            &[
                ("STREAM", stream),
                ("MAX_BURST", 1),
                ("MAX_OUTSTANDING", 2),
                ("FIFO_DEPTH", 2),
                ("REQ_DEPTH", 4),
            ],
        );
        let tight = |seed, what| LoadRun {
            max_burst: 1,
            max_out: 2,
            ..LoadRun::random(seed, stream == 1, what)
        };
        run_loads(
            &exe,
            s,
            &straddle,
            &tight(42, "straddling pages, one-beat bursts"),
        );
        let reqs = accesses(43, 2000, s.elem, s.align);
        run_loads(&exe, s, &reqs, &tight(43, "mix, one-beat bursts"));
        let reqs = walks(44, 2000, s.align, 32);
        run_loads(&exe, s, &reqs, &tight(44, "walks, one-beat bursts"));
    }
    let straddling = with_values(straddle, s.elem, 45);
    let exe = store_unit(s);
    run_stores(&exe, s, &straddling, ["45", "20", "16", "4", "1"]);
    let exe = store_unit_with(
        s,
        &[("MAX_BURST", 1), ("MAX_OUTSTANDING", 1), ("FIFO_DEPTH", 2)],
    );
    run_stores(&exe, s, &straddling, ["46", "20", "1", "1", "1"]);
    for seed in 47..=48u64 {
        let sd = seed.to_string();
        for addrs in [
            accesses(seed, 2000, s.elem, s.align),
            walks(seed, 2000, s.align, 32),
        ] {
            let stores = with_values(addrs, s.elem, seed);
            run_stores(&exe, s, &stores, [&sd, "20", "1", "1", "1"]);
        }
    }
}

/// Store units built with per-store byte masks.
const STRB: &[(&str, u32)] = &[("STRB", 1)];

/// The low `k` bytes of an element.
fn low_bytes(k: u32) -> u32 {
    if k >= 32 {
        u32::MAX
    } else {
        (1 << k) - 1
    }
}

/// A random mask for an `elem`-byte store: no byte, every byte, a run of bytes from the
/// element's start (vstore3 and the like), a run anywhere, or random bytes.
fn random_mask(r: &mut XorShift, elem: u32) -> u32 {
    let e = u64::from(elem);
    match r.below(8) {
        0 => 0,
        1 => low_bytes(elem),
        2 | 3 => low_bytes(1 + r.below(e) as u32),
        4 => {
            let k = 1 + r.below(e) as u32;
            low_bytes(k) << r.below(u64::from(elem - k) + 1)
        }
        _ => r.next() as u32 & low_bytes(elem),
    }
}

/// Random values and random masks for the stores at `addrs`.
fn with_masks(addrs: Vec<u32>, elem: u32, seed: u64) -> Vec<(u32, Vec<u8>, Option<u32>)> {
    let mut r = XorShift(seed + 200);
    with_values(addrs, elem, seed)
        .into_iter()
        .map(|(a, v)| (a, v, Some(random_mask(&mut r, elem))))
        .collect()
}

/// Random traffic with random masks (a store's unmasked bytes carry random values too,
/// so writing one shows in memory), 20% stalls everywhere, random B latency, flush now
/// and then: the final memory equals the model's byte for byte, no byte is strobed that
/// no accepted store wrote, and acked counts each store once, after its bytes are written
/// (the bench checks both). Aligned and spanning shapes, wide and narrow buses.
#[test]
fn store_unit_writes_only_the_masked_bytes_of_random_stores() {
    for s in [
        ALIGNED4,
        shape(256, 16, 16),
        shape(256, 16, 4),
        shape(256, 32, 1),
        shape(64, 8, 2),
        shape(32, 4, 1),
    ] {
        let exe = store_unit_with(s, STRB);
        for seed in 51..=52u64 {
            let sd = seed.to_string();
            let mut sets = vec![accesses(seed, 3000, s.elem, s.align)];
            if s.align < s.elem {
                sets.push(walks(seed, 3000, s.align, s.dw / 8));
            }
            for addrs in sets {
                let stores = with_masks(addrs, s.elem, seed);
                run_masked_stores(&exe, s, &stores, [&sd, "20", "16", "4", "1"]);
            }
        }
    }
}

/// Cycles a store stream may take beyond one per store with no stalls: TIMEOUT (8) before
/// the held beat and the open burst are written, that burst's W beats (up to MAX_BURST,
/// 16: they follow its AW), the bench's B latency (at most 22 cycles) and a few cycles of
/// handshakes and of the bench's wait for idle.
const STORE_LATENCY: u64 = 8 + 16 + 22 + 8;

/// A stream of `n` stores of `len` bytes each at a stride of `len` (mask: the element's
/// low `len` bytes) from `base`, no stalls: the memory is the model's, one store is
/// accepted per cycle, every beat touched is written once and the bytes being contiguous,
/// every beat but the first and last is full (no beat goes out without strobes), in
/// 16-beat INCR bursts where the pages allow; the whole stream takes at most `n` +
/// STORE_LATENCY cycles.
fn check_masked_stride_stream(exe: &Path, s: Shape, base: u32, n: u32, len: u32) -> Run {
    let b = s.dw / 8;
    let addrs: Vec<u32> = (0..n).map(|i| base + len * i).collect();
    let stores: Vec<_> = with_values(addrs, s.elem, 8)
        .into_iter()
        .map(|(a, v)| (a, v, Some(low_bytes(len))))
        .collect();
    let r = run_masked_stores(exe, s, &stores, ["8", "0", "16", "4", "0"]);
    let end = base + len * n;
    let beats = u64::from((end - 1) / b - base / b + 1);
    let full = beats - u64::from(!base.is_multiple_of(b)) - u64::from(!end.is_multiple_of(b));
    let what = format!("{len} of {} bytes {s:?} from {base:#x}", s.elem);
    assert_eq!(
        (r.beats(), r.done[3], r.done[5]),
        (beats, full, 0),
        "{what}: (beats, full, empty): {:?}",
        r.bursts
    );
    let sixteen = r.bursts.iter().filter(|&&(_, k)| k == 16).count() as u64;
    assert!(r.burst_count() <= sixteen + 2, "{what}: {:?}", r.bursts);
    // The first store goes in at cycle 0, the last at cycle n - 1.
    assert_eq!(r.done[4], u64::from(n) - 1, "{what}: last store accepted");
    assert!(
        r.cycles() <= u64::from(n) + STORE_LATENCY,
        "{what}: {} cycles for {n} stores",
        r.cycles()
    );
    eprintln!(
        "masked stride stream {what}: {n} stores in {} cycles, {} bursts, {} beats",
        r.cycles(),
        r.burst_count(),
        r.beats()
    );
    r
}

/// vstore3 of floats through a 16-byte unit aligned to 4 (mask 0x0fff, 12-byte stride),
/// from anywhere in a beat and across 4 KiB pages; the same shape on narrower buses: 6 of
/// 8 bytes aligned to 2 on 64 bits (vstore3 of halves), 3 of 4 aligned to 1 on 32 bits
/// (vstore3 of chars).
#[test]
fn store_unit_writes_a_12_of_16_byte_stride_stream_as_full_beats_at_one_store_per_cycle() {
    let s = shape(256, 16, 4);
    let exe = store_unit_with(s, STRB);
    for base in [0x10000, 0x10004, 0x1001c, 0x10ff4] {
        check_masked_stride_stream(&exe, s, base, 4096, 12);
    }
    let s = shape(64, 8, 2);
    let exe = store_unit_with(s, STRB);
    for base in [0x10000, 0x10006] {
        check_masked_stride_stream(&exe, s, base, 4096, 6);
    }
    let s = shape(32, 4, 1);
    let exe = store_unit_with(s, STRB);
    for base in [0x10000, 0x10003] {
        check_masked_stride_stream(&exe, s, base, 4096, 3);
    }
}

/// Masks against bytes already held: stores to one beat whose masks leave earlier stores'
/// bytes alone, spanning stores whose masked bytes lie in one of their two beats only,
/// stores with no masked byte (alone, among others, spanning), with and without stalls;
/// and a stream of stores that write nothing: memory unchanged, every store counted.
#[test]
fn store_unit_masks_keep_earlier_bytes_and_empty_masks_write_nothing() {
    let s = shape(256, 16, 4);
    let exe = store_unit_with(s, STRB);
    let v = |k: u8| -> Vec<u8> {
        (0..16)
            .map(|j| k.wrapping_mul(17).wrapping_add(j))
            .collect()
    };
    let stores = vec![
        (0x1000, v(1), Some(0xffff)),
        (0x1000, v(2), Some(0x00ff)), // bytes 0..8 over the first store's
        (0x1004, v(3), Some(0xf000)), // bytes 0x1010..0x1014 of the same beat
        (0x1008, v(4), Some(0x0000)), // nothing, into the held beat
        // Elements that span two beats, their masked bytes in one of them:
        (0x101c, v(5), Some(0xfff0)), // 0x1020..0x102c, the second beat only
        (0x101c, v(6), Some(0x000f)), // 0x101c..0x1020, the first beat only
        (0x1038, v(7), Some(0x00f0)), // 0x103c..0x1040, the first beat only
        (0x2000, v(8), Some(0x0000)), // nothing, a beat of its own
        (0x201c, v(9), Some(0x0000)), // nothing, a spanning element
        (0x3010, v(10), Some(0x0001)), // one byte at a time
        (0x3010, v(11), Some(0x0002)),
        (0x3010, v(12), Some(0x8000)),
        (0x3018, v(13), Some(0x00f0)), // 0x301c..0x3020, the first beat only
        (0x3018, v(14), Some(0x0f00)), // 0x3020..0x3024, the second beat only
        (0x3018, v(15), Some(0x0000)),
        (0x3018, v(16), Some(0x0ff0)), // 0x301c..0x3024, both beats
    ];
    for seed in 61..=66u64 {
        let sd = seed.to_string();
        let stall = if seed % 2 == 0 { "0" } else { "30" };
        run_masked_stores(&exe, s, &stores, [&sd, stall, "16", "4", "0"]);
    }
    // 1000 stores that write nothing, a stream and scattered.
    let mut addrs: Vec<u32> = (0..500).map(|i| 0x10004 + 12 * i).collect();
    addrs.extend(accesses(67, 500, s.elem, s.align));
    let none: Vec<_> = with_values(addrs, s.elem, 67)
        .into_iter()
        .map(|(a, v)| (a, v, Some(0)))
        .collect();
    for (sd, stall) in [("67", "0"), ("68", "20")] {
        let r = run_masked_stores(&exe, s, &none, [sd, stall, "16", "4", "1"]);
        assert_eq!(r.beats(), r.done[5], "every beat without strobes");
    }
}

/// Random masks through a unit built for one-beat bursts with little room (MAX_BURST 1,
/// one write in flight, a two-beat FIFO), spanning elements.
#[test]
fn store_unit_masks_in_one_beat_bursts() {
    let s = shape(256, 16, 4);
    let exe = store_unit_with(
        s,
        &[
            ("STRB", 1),
            ("MAX_BURST", 1),
            ("MAX_OUTSTANDING", 1),
            ("FIFO_DEPTH", 2),
        ],
    );
    for seed in 71..=72u64 {
        let sd = seed.to_string();
        for addrs in [
            accesses(seed, 2000, s.elem, s.align),
            walks(seed, 2000, s.align, 32),
        ] {
            let stores = with_masks(addrs, s.elem, seed);
            run_masked_stores(&exe, s, &stores, [&sd, "20", "1", "1", "1"]);
        }
    }
}
