//! The shared conformance kernels run on POCL through ocl-ref: every one completes and
//! writes its checked buffers, and several results are checked against Rust.

mod common;

use common::*;
use ocl_hls::launch::ArgValue;

/// SplitMix64 written out again from SPEC.md, so the input bytes are checked too.
fn splitmix(seed: u64, n: usize) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .collect()
}

fn random_f32(seed: u64, n: usize, min: f64, max: f64) -> Vec<f32> {
    splitmix(seed, n)
        .into_iter()
        .map(|z| (min + (max - min) * ((z >> 40) as f64 / 16_777_216.0)) as f32)
        .collect()
}

#[test]
fn every_shared_kernel_runs_and_writes_its_checked_buffers() {
    let mut names: Vec<String> = std::fs::read_dir(shared_kernels())
        .expect("../shared/conformance/kernels")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 19, "{names:?}");
    for name in &names {
        let r = shared(name);
        let mut changed = 0;
        for a in &r.launch.args {
            if let ArgValue::Buffer(b) = &a.value {
                let out = output(&r, &a.name);
                assert_eq!(out.len(), b.bytes.len(), "{name}: {}", a.name);
                changed += usize::from(b.check && out != b.bytes.as_slice());
            }
        }
        assert!(changed > 0, "{name}: no checked buffer changed");
    }
}

#[test]
fn vadd_adds() {
    let r = shared("vadd");
    let a = random_f32(1, 1024, -100.0, 100.0);
    let b = random_f32(2, 1024, -100.0, 100.0);
    assert_eq!(
        f32s(input(&r, "a")),
        a,
        "input bytes follow SPEC.md's SplitMix64"
    );
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    assert_f32_bits("c", &f32s(output(&r, "c")), &want);
    assert_eq!(r.record().local, vec![64]);
}

#[test]
fn layout_rules_gives_the_values_in_its_comments() {
    let r = shared("layout_rules");
    let want = [
        128,  // __alignof__(a): aligned(128) on the variable
        4,    // struct A keeps int's alignment
        16,   // b: aligned(16) on the variable
        32,   // struct B: aligned(32) on the type
        32,   // b1 of type struct B
        8,    // sizeof(struct S): 6 rounded up to 8
        8,    // __alignof__(struct S)
        8,    // more_aligned_int
        9,    // sizeof(struct foo): packed member at offset 1
        1,    // __alignof__(struct foo)
        48,   // sizeof(struct wide)
        16,   // __alignof__(struct wide)
        1644, // sizeof(float3)=16, sizeof(uchar3)=4, vec_step(float3)=4
        128,  // sizeof(long16)
        4,    // __alignof__(array)
        6,    // 1 + 2 + 3 + 0
    ];
    assert_eq!(i32s(output(&r, "out")), want);
}

#[test]
fn reduce_local_sums_each_group() {
    let r = shared("reduce_local");
    let inp = i32s(input(&r, "in"));
    let want: Vec<i32> = inp.chunks(128).map(|c| c.iter().sum()).collect();
    assert_eq!(i32s(output(&r, "partial")), want);
}

#[test]
fn prefix_sum_scans() {
    let r = shared("prefix_sum");
    let inp = i32s(input(&r, "in"));
    let want: Vec<i32> = inp
        .iter()
        .scan(0, |s, &v| {
            *s += v;
            Some(*s)
        })
        .collect();
    assert_eq!(i32s(output(&r, "out")), want);
}

#[test]
fn histogram_counts_bytes() {
    let r = shared("histogram_atomic");
    let mut want = vec![0u32; 64];
    for &b in input(&r, "data") {
        want[usize::from(b & 63)] += 1;
    }
    assert_eq!(u32s(output(&r, "hist")), want);
}
