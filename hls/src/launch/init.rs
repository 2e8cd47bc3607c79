//! The initial bytes of a buffer from its `init` (zero, file, fill, iota, random), exactly
//! as SPEC.md defines them, so every engine starts from identical little-endian bytes.

use std::path::Path;

use super::spec::{Init, IotaSpec, RandomSpec};
use super::types::{ElemType, Num};

/// Largest buffer a spec may ask for; a bigger one is a spec error rather than an
/// allocation failure that would abort the process.
pub const MAX_BUFFER_BYTES: u64 = 1 << 30;

/// The SplitMix64 stream of SPEC.md.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Byte size of `count` elements of `ty`, or an error when it is zero or too large.
pub fn buffer_bytes(ty: ElemType, count: u64) -> Result<usize, String> {
    if count == 0 {
        return Err("count must be at least 1".into());
    }
    let bytes = count
        .checked_mul(ty.size() as u64)
        .filter(|b| *b <= MAX_BUFFER_BYTES)
        .ok_or_else(|| {
            format!("{count} x {ty} is larger than the {MAX_BUFFER_BYTES}-byte limit")
        })?;
    usize::try_from(bytes).map_err(|_| "buffer too large for this machine".to_string())
}

/// Builds the initial bytes of a buffer. `spec_dir` is where relative `file` paths start.
pub fn build(ty: ElemType, count: u64, init: &Init, spec_dir: &Path) -> Result<Vec<u8>, String> {
    let bytes = buffer_bytes(ty, count)?;
    match init {
        Init::Zero => Ok(vec![0; bytes]),
        Init::File(p) => from_file(&spec_dir.join(p), bytes, ty, count),
        Init::Fill(v) => {
            let one = ty.encode(*v).map_err(|e| format!("fill: {e}"))?;
            Ok(one.repeat(bytes / ty.size()))
        }
        Init::Iota(spec) => iota(ty, count, spec),
        Init::Random(spec) => random(ty, count, spec),
    }
}

fn from_file(path: &Path, bytes: usize, ty: ElemType, count: u64) -> Result<Vec<u8>, String> {
    // Check the size before reading so a huge wrong file is not read into memory.
    let meta = std::fs::metadata(path).map_err(|e| format!("file {}: {e}", path.display()))?;
    if meta.len() != bytes as u64 {
        return Err(format!(
            "file {} has {} bytes, but {count} x {ty} needs exactly {bytes}",
            path.display(),
            meta.len()
        ));
    }
    let data = std::fs::read(path).map_err(|e| format!("file {}: {e}", path.display()))?;
    if data.len() != bytes {
        return Err(format!("file {} changed while it was read", path.display()));
    }
    Ok(data)
}

fn iota(ty: ElemType, count: u64, spec: &IotaSpec) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(count as usize * ty.size());
    if ty.is_float() {
        let (s, d) = (spec.start.as_f64(), spec.step.as_f64());
        for i in 0..count {
            out.extend(ty.encode_f64(s + i as f64 * d));
        }
        return Ok(out);
    }
    let (s, d) = match (spec.start, spec.step) {
        (Num::Int(s), Num::Int(d)) => (s, d),
        _ => return Err(format!("iota: start and step must be integers for {ty}")),
    };
    // Counts are bounded by MAX_BUFFER_BYTES and spec integers by 2^64, so S + i*D stays
    // far inside i128: the value is exact before it is wrapped to the type.
    for i in 0..count {
        out.extend(ty.encode_wrapped(s + i128::from(i) * d));
    }
    Ok(out)
}

fn random(ty: ElemType, count: u64, spec: &RandomSpec) -> Result<Vec<u8>, String> {
    let mut rng = SplitMix64::new(spec.seed);
    let mut out = Vec::with_capacity(count as usize * ty.size());
    if ty.is_float() {
        let (a, b) = (spec.min.as_f64(), spec.max.as_f64());
        if !(a.is_finite() && b.is_finite() && a <= b) {
            return Err(format!("random: need finite min <= max, got {a} and {b}"));
        }
        for _ in 0..count {
            let u = (rng.next_u64() >> 40) as f64 / (1u64 << 24) as f64;
            out.extend(ty.encode_f64(a + (b - a) * u));
        }
        return Ok(out);
    }
    let (a, b) = match (spec.min, spec.max) {
        (Num::Int(a), Num::Int(b)) => (a, b),
        _ => return Err(format!("random: min and max must be integers for {ty}")),
    };
    if a > b {
        return Err(format!("random: min {a} is greater than max {b}"));
    }
    let span = b - a + 1;
    for _ in 0..count {
        out.extend(ty.encode_wrapped(a + i128::from(rng.next_u64()) % span));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(bytes: &[u8]) -> Vec<i32> {
        bytes
            .chunks(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    #[test]
    fn splitmix64_reference_values() {
        // First outputs for seed 0 from the SplitMix64 reference (Vigna's splitmix64.c).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn random_int_follows_the_formula() {
        let spec = RandomSpec {
            seed: 10,
            min: Num::Int(-1000),
            max: Num::Int(1000),
        };
        let got = ints(&build(ElemType::Int, 64, &Init::Random(spec), Path::new(".")).unwrap());
        let mut r = SplitMix64::new(10);
        for g in got {
            let want = -1000 + (r.next_u64() % 2001) as i32;
            assert_eq!(g, want);
            assert!((-1000..=1000).contains(&g));
        }
    }

    #[test]
    fn random_full_ranges() {
        let spec = RandomSpec {
            seed: 3,
            min: Num::Int(0),
            max: Num::Int(u64::MAX as i128),
        };
        let got = build(ElemType::Ulong, 2, &Init::Random(spec), Path::new(".")).unwrap();
        let mut r = SplitMix64::new(3);
        assert_eq!(got[..8], r.next_u64().to_le_bytes());
        let spec = RandomSpec {
            seed: 16,
            min: Num::Int(i32::MIN.into()),
            max: Num::Int(i32::MAX.into()),
        };
        let got = ints(&build(ElemType::Int, 3, &Init::Random(spec), Path::new(".")).unwrap());
        let mut r = SplitMix64::new(16);
        for g in got {
            let z = i128::from(r.next_u64());
            assert_eq!(i128::from(g), i128::from(i32::MIN) + z % (1i128 << 32));
        }
    }

    #[test]
    fn random_float_follows_the_formula() {
        let spec = RandomSpec {
            seed: 1,
            min: Num::Float(-100.0),
            max: Num::Float(100.0),
        };
        let got = build(ElemType::Float, 16, &Init::Random(spec), Path::new(".")).unwrap();
        let mut r = SplitMix64::new(1);
        for c in got.chunks(4) {
            let u = (r.next_u64() >> 40) as f64 / 16777216.0;
            let want = (-100.0 + 200.0 * u) as f32;
            assert_eq!(f32::from_le_bytes([c[0], c[1], c[2], c[3]]), want);
        }
    }

    #[test]
    fn iota_wraps_integers_and_rounds_floats() {
        let spec = IotaSpec {
            start: Num::Int(250),
            step: Num::Int(3),
        };
        let got = build(ElemType::Uchar, 4, &Init::Iota(spec), Path::new(".")).unwrap();
        assert_eq!(got, vec![250, 253, 0, 3]);
        let spec = IotaSpec {
            start: Num::Float(0.5),
            step: Num::Float(0.1),
        };
        let got = build(ElemType::Double, 3, &Init::Iota(spec), Path::new(".")).unwrap();
        assert_eq!(got[16..], (0.5f64 + 2.0 * 0.1).to_le_bytes());
        let half = build(ElemType::Half, 2, &Init::Iota(spec), Path::new(".")).unwrap();
        assert_eq!(half, vec![0x00, 0x38, 0xcd, 0x38]); // 0.5, 0.6 -> 0x38cd
        let bad = IotaSpec {
            start: Num::Float(0.5),
            step: Num::Int(1),
        };
        assert!(build(ElemType::Int, 2, &Init::Iota(bad), Path::new(".")).is_err());
    }

    #[test]
    fn fill_and_zero() {
        let got = build(
            ElemType::Short,
            3,
            &Init::Fill(Num::Int(-2)),
            Path::new("."),
        )
        .unwrap();
        assert_eq!(got, vec![0xfe, 0xff, 0xfe, 0xff, 0xfe, 0xff]);
        let got = build(ElemType::Float, 2, &Init::Zero, Path::new(".")).unwrap();
        assert_eq!(got, vec![0; 8]);
        assert!(build(
            ElemType::Uchar,
            1,
            &Init::Fill(Num::Int(256)),
            Path::new(".")
        )
        .is_err());
    }

    #[test]
    fn bad_sizes_and_ranges() {
        assert!(build(ElemType::Int, 0, &Init::Zero, Path::new(".")).is_err());
        assert!(build(ElemType::Long, 1 << 40, &Init::Zero, Path::new(".")).is_err());
        let rev = RandomSpec {
            seed: 0,
            min: Num::Int(5),
            max: Num::Int(4),
        };
        assert!(build(ElemType::Int, 1, &Init::Random(rev), Path::new(".")).is_err());
    }

    #[test]
    fn file_size_must_match_exactly() {
        let dir = std::env::temp_dir().join(format!("ohls-init-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("d.bin"), [1u8, 2, 3, 4, 5, 6, 7, 8]).unwrap();
        let init = Init::File("d.bin".into());
        assert_eq!(
            build(ElemType::Int, 2, &init, &dir).unwrap(),
            vec![1, 2, 3, 4, 5, 6, 7, 8]
        );
        let e = build(ElemType::Int, 3, &init, &dir).unwrap_err();
        assert!(e.contains("has 8 bytes") && e.contains("exactly 12"), "{e}");
        assert!(build(ElemType::Int, 2, &Init::File("nope.bin".into()), &dir).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
