//! Comparison of an output buffer from two engines: bit for bit, or within `tolerance_ulp`
//! units in the last place for float buffers, reporting the first differing elements.

use std::fmt;

use super::half::f16_bits_to_f64;
use super::resolve::BufferArg;
use super::types::ElemType;

/// How many differing elements a report lists.
pub const REPORT_FIRST: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tolerance {
    BitExact,
    /// Float elements may differ by this many ULPs; NaN matches NaN.
    Ulp(u64),
}

/// One element that differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElemDiff {
    pub index: usize,
    pub expected: String,
    pub actual: String,
    /// Distance in units in the last place for float types (`None`: one side is NaN).
    pub ulp: Option<u64>,
}

/// Why two buffers do not match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    Length {
        expected: usize,
        actual: usize,
    },
    Elements {
        ty: ElemType,
        tolerance: Tolerance,
        differing: usize,
        count: usize,
        first: Vec<ElemDiff>,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Length { expected, actual } => {
                write!(f, "expected {expected} bytes, got {actual}")
            }
            Mismatch::Elements {
                ty,
                tolerance,
                differing,
                count,
                first,
            } => {
                let how = match tolerance {
                    Tolerance::BitExact => "bit for bit".to_string(),
                    Tolerance::Ulp(n) => format!("within {n} ulp"),
                };
                write!(f, "{differing} of {count} {ty} elements differ ({how})")?;
                for d in first {
                    write!(
                        f,
                        "\n  [{}] expected {}, got {}",
                        d.index, d.expected, d.actual
                    )?;
                    match d.ulp {
                        Some(u) if ty.is_float() => write!(f, " ({u} ulp)")?,
                        None if ty.is_float() => write!(f, " (NaN on one side)")?,
                        _ => {}
                    }
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for Mismatch {}

/// Compares a checked buffer argument's expected and actual final bytes as its spec says
/// (`check: false` always matches).
pub fn compare_arg(arg: &BufferArg, expected: &[u8], actual: &[u8]) -> Result<(), Mismatch> {
    if !arg.check {
        return Ok(());
    }
    let tol = arg
        .tolerance_ulp
        .map_or(Tolerance::BitExact, Tolerance::Ulp);
    compare(arg.ty, tol, expected, actual)
}

/// Compares two buffers of `ty` elements.
pub fn compare(
    ty: ElemType,
    tol: Tolerance,
    expected: &[u8],
    actual: &[u8],
) -> Result<(), Mismatch> {
    if expected.len() != actual.len() || !expected.chunks_exact(ty.size()).remainder().is_empty() {
        return Err(Mismatch::Length {
            expected: expected.len(),
            actual: actual.len(),
        });
    }
    let size = ty.size();
    let mut differing = 0;
    let mut first = Vec::new();
    let pairs = expected.chunks_exact(size).zip(actual.chunks_exact(size));
    for (index, (e, a)) in pairs.enumerate() {
        if e == a {
            continue;
        }
        let (eb, ab) = (bits(e), bits(a));
        let ulp = ulp_distance(ty, eb, ab);
        let ok = match tol {
            Tolerance::BitExact => false,
            Tolerance::Ulp(n) => ty.is_float() && ulp.is_some_and(|u| u <= n),
        };
        if ok {
            continue;
        }
        differing += 1;
        if first.len() < REPORT_FIRST {
            first.push(ElemDiff {
                index,
                expected: show(ty, eb),
                actual: show(ty, ab),
                ulp,
            });
        }
    }
    if differing == 0 {
        return Ok(());
    }
    Err(Mismatch::Elements {
        ty,
        tolerance: tol,
        differing,
        count: expected.len() / size,
        first,
    })
}

/// The little-endian bytes of one element as an unsigned integer.
fn bits(b: &[u8]) -> u64 {
    b.iter().rev().fold(0, |acc, &x| (acc << 8) | u64::from(x))
}

fn is_nan(ty: ElemType, b: u64) -> bool {
    match ty {
        ElemType::Half => b & 0x7c00 == 0x7c00 && b & 0x3ff != 0,
        ElemType::Float => f32::from_bits(b as u32).is_nan(),
        ElemType::Double => f64::from_bits(b).is_nan(),
        _ => false,
    }
}

/// Units in the last place between two floats of `ty` (the number of representable
/// values between them; +0 and -0 are 0 apart). Integers: the absolute difference.
/// `None` when exactly one side is NaN; two NaNs are 0 apart.
pub fn ulp_distance(ty: ElemType, a: u64, b: u64) -> Option<u64> {
    let width = ty.bits();
    if ty.is_float() {
        match (is_nan(ty, a), is_nan(ty, b)) {
            (true, true) => return Some(0),
            (false, false) => {}
            _ => return None,
        }
        let sign = 1u64 << (width - 1);
        // Map sign-magnitude onto a line where neighbouring floats are 1 apart.
        let line = |x: u64| -> i128 {
            let mag = i128::from(x & (sign - 1));
            if x & sign != 0 {
                -mag
            } else {
                mag
            }
        };
        return Some((line(a) - line(b)).unsigned_abs() as u64);
    }
    let val = |x: u64| -> i128 {
        if ty.is_signed() && width < 64 && x & (1 << (width - 1)) != 0 {
            i128::from(x) - (1i128 << width)
        } else if ty.is_signed() {
            i128::from(x as i64)
        } else {
            i128::from(x)
        }
    };
    Some((val(a) - val(b)).unsigned_abs().min(u128::from(u64::MAX)) as u64)
}

/// An element for a report: the value, with the bits for floats.
fn show(ty: ElemType, b: u64) -> String {
    let w = ty.size() * 2;
    match ty {
        ElemType::Half => format!("{:?} (0x{b:0w$x})", f16_bits_to_f64(b as u16)),
        ElemType::Float => format!("{:?} (0x{b:0w$x})", f32::from_bits(b as u32)),
        ElemType::Double => format!("{:?} (0x{b:0w$x})", f64::from_bits(b)),
        ElemType::Char => (b as u8 as i8).to_string(),
        ElemType::Short => (b as u16 as i16).to_string(),
        ElemType::Int => (b as u32 as i32).to_string(),
        ElemType::Long => (b as i64).to_string(),
        _ => b.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32s(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn equal_buffers_match() {
        let a = f32s(&[1.0, -0.0, f32::NAN]);
        assert_eq!(
            compare(ElemType::Float, Tolerance::BitExact, &a, &a),
            Ok(())
        );
    }

    #[test]
    fn bit_exact_reports_first_differences() {
        let e = f32s(&[1.0, 2.0, 3.0, 0.0]);
        let a = f32s(&[1.0, f32::from_bits(2.0f32.to_bits() + 2), 3.0, -0.0]);
        let m = compare(ElemType::Float, Tolerance::BitExact, &e, &a).unwrap_err();
        let Mismatch::Elements {
            differing, first, ..
        } = &m
        else {
            panic!("{m}")
        };
        assert_eq!(*differing, 2);
        assert_eq!(first[0].index, 1);
        assert_eq!(first[0].ulp, Some(2));
        assert_eq!(first[1].index, 3);
        assert_eq!(first[1].ulp, Some(0));
        let text = m.to_string();
        assert!(
            text.starts_with("2 of 4 float elements differ (bit for bit)"),
            "{text}"
        );
        assert!(
            text.contains("[1] expected 2.0 (0x40000000), got 2.0000005 (0x40000002) (2 ulp)"),
            "{text}"
        );
    }

    #[test]
    fn ulp_tolerance() {
        let e = f32s(&[1.0, f32::NAN, 0.0, f32::MIN_POSITIVE]);
        let a = f32s(&[
            f32::from_bits(1.0f32.to_bits() - 3),
            f32::from_bits(0xffc0_0000),
            -0.0,
            0.0,
        ]);
        // min normal is 2^23 subnormal steps away from zero: far outside 3 ulp.
        let m = compare(ElemType::Float, Tolerance::Ulp(3), &e, &a).unwrap_err();
        assert!(
            matches!(&m, Mismatch::Elements { differing: 1, first, .. } if first[0].index == 3)
        );
        let m = compare(ElemType::Float, Tolerance::Ulp(2), &e[..4], &a[..4]).unwrap_err();
        assert!(m.to_string().contains("(3 ulp)"), "{m}");
        let one_nan = compare(ElemType::Float, Tolerance::Ulp(100), &e[..4], &e[4..8]);
        assert!(one_nan.unwrap_err().to_string().contains("NaN on one side"));
    }

    #[test]
    fn ulp_across_zero_and_for_half_and_double() {
        let tiny = f32::from_bits(1).to_bits() as u64;
        let neg_tiny = (-f32::from_bits(1)).to_bits() as u64;
        assert_eq!(ulp_distance(ElemType::Float, tiny, neg_tiny), Some(2));
        assert_eq!(ulp_distance(ElemType::Half, 0x3c00, 0x3c01), Some(1));
        assert_eq!(ulp_distance(ElemType::Half, 0x7e00, 0x7c01), Some(0));
        assert_eq!(ulp_distance(ElemType::Half, 0x7c00, 0x7bff), Some(1));
        let d = |x: f64| x.to_bits();
        assert_eq!(
            ulp_distance(ElemType::Double, d(1.0), d(1.0 + f64::EPSILON)),
            Some(1)
        );
    }

    #[test]
    fn integers_are_always_bit_exact() {
        let e = [1u8, 0, 0, 0];
        let a = [0xffu8, 0xff, 0xff, 0xff];
        let m = compare(ElemType::Int, Tolerance::Ulp(5), &e, &a).unwrap_err();
        assert!(m.to_string().contains("[0] expected 1, got -1"), "{m}");
        assert_eq!(ulp_distance(ElemType::Int, 1, 0xffff_ffff), Some(2));
        assert_eq!(ulp_distance(ElemType::Ulong, 0, u64::MAX), Some(u64::MAX));
    }

    #[test]
    fn lengths_and_check_flag() {
        let m = compare(ElemType::Int, Tolerance::BitExact, &[0; 4], &[0; 8]).unwrap_err();
        assert_eq!(m.to_string(), "expected 4 bytes, got 8");
        let mut arg = BufferArg {
            ty: ElemType::Uchar,
            count: 1,
            bytes: vec![0],
            check: false,
            tolerance_ulp: None,
            implementation_defined: false,
            same_as: None,
        };
        assert_eq!(compare_arg(&arg, &[1], &[2]), Ok(()));
        arg.check = true;
        assert!(compare_arg(&arg, &[1], &[2]).is_err());
    }

    #[test]
    fn report_is_bounded() {
        let e = vec![0u8; 100];
        let a = vec![1u8; 100];
        let m = compare(ElemType::Uchar, Tolerance::BitExact, &e, &a).unwrap_err();
        assert!(
            matches!(m, Mismatch::Elements { differing: 100, ref first, .. } if first.len() == REPORT_FIRST)
        );
    }
}
