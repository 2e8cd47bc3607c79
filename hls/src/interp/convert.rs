//! Conversions between IR scalars: integer resizing and saturation, float to integer and
//! integer to float in the four rounding modes, and float narrowing (f64 -> f32 -> f16)
//! through one exact rounding routine, so no conversion rounds twice.
//!
//! Out-of-range float to integer conversions without `_sat` are undefined in OpenCL C; this
//! interpreter gives what POCL gives on x86-64 with AVX-512 (measured with `ocl-ref`):
//! - `int`/`long`: the "integer indefinite" value (minimum of the type) for NaN and
//!   anything outside the range;
//! - `char`/`short`/`uchar`/`ushort`: converted to `int` as above, then truncated
//!   (`(uchar)-2.5f` is 0xFE, `(char)300.0f` is 0x2C, `(uchar)NaN` is 0);
//! - `uint`/`ulong`: all ones for NaN and for anything outside `[0, 2^n)` after rounding
//!   (`(uint)-2.5f` is 0xFFFFFFFF, `(uint)-0.5f` is 0).

use super::ieee::round_to;
pub use super::ieee::{f16_to_f32, f32_to_f16, float_to_float, Fmt};
use super::value::{mask, sext};
use crate::ir::Round;

/// An integer lane as an exact i128.
#[inline]
pub fn int_value(v: u64, bits: u32, signed: bool) -> i128 {
    if signed {
        sext(v, bits) as i128
    } else {
        (v & mask(bits)) as i128
    }
}

/// The range of an integer type.
pub fn int_range(bits: u32, signed: bool) -> (i128, i128) {
    if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// `Conv::Int`: extend or truncate, or clamp with `sat`.
pub fn int_to_int(
    v: u64,
    from_bits: u32,
    from_signed: bool,
    to_bits: u32,
    to_signed: bool,
    sat: bool,
) -> u64 {
    let x = int_value(v, from_bits, from_signed);
    let x = if sat {
        let (lo, hi) = int_range(to_bits, to_signed);
        x.clamp(lo, hi)
    } else {
        x
    };
    (x as u64) & mask(to_bits)
}

/// Rounds a float to an integral f64 in a rounding mode (exact: no new rounding error).
pub fn round_integral(x: f64, round: Round) -> f64 {
    match round {
        Round::Rte => x.round_ties_even(),
        Round::Rtz => x.trunc(),
        Round::Rtp => x.ceil(),
        Round::Rtn => x.floor(),
    }
}

/// x86 `cvttsd2si` to 64 bits: the indefinite value when out of range.
fn cvtt64(x: f64) -> u64 {
    let t = (1u64 << 63) as f64;
    if x.is_nan() || x < -t || x >= t {
        1 << 63
    } else {
        x as i64 as u64
    }
}

/// x86 `cvttsd2si` to 32 bits.
fn cvtt32(x: f64) -> u64 {
    if x.is_nan() || !(-2147483648.0..2147483648.0).contains(&x) {
        0x8000_0000
    } else {
        x as i32 as u32 as u64
    }
}

/// `Conv::FloatToInt` from an f64 holding the source value exactly.
pub fn float_to_int(x: f64, bits: u32, signed: bool, round: Round, sat: bool) -> u64 {
    let r = round_integral(x, round);
    if sat {
        if r.is_nan() {
            return 0;
        }
        let (lo, hi) = int_range(bits, signed);
        let v = if r <= lo as f64 {
            lo
        } else if r >= hi as f64 {
            hi
        } else {
            r as i128
        };
        return (v as u64) & mask(bits);
    }
    let v = match (bits, signed) {
        (64, true) => cvtt64(r),
        (32 | 64, false) => {
            if r.is_nan() || r < 0.0 || r >= 2f64.powi(bits as i32) {
                u64::MAX
            } else {
                r as u64
            }
        }
        _ => cvtt32(r),
    };
    v & mask(bits)
}

/// `Conv::IntToFloat`, correctly rounded from any integer width.
pub fn int_to_float(v: u64, bits: u32, signed: bool, to: Fmt, round: Round) -> u64 {
    let x = int_value(v, bits, signed);
    round_to(to, x < 0, x.unsigned_abs(), 0, round)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Round::*;

    #[test]
    fn float_to_int_modes_on_ties_and_negatives() {
        let cases = [
            (2.5, [2, 2, 3, 2]),
            (3.5, [4, 3, 4, 3]),
            (-2.5, [-2, -2, -2, -3]),
            (-0.5, [0, 0, 0, -1]),
            (1.2, [1, 1, 2, 1]),
            (-1.7, [-2, -1, -1, -2]),
        ];
        for (x, want) in cases {
            for (r, w) in [Rte, Rtz, Rtp, Rtn].into_iter().zip(want) {
                assert_eq!(
                    float_to_int(x, 32, true, r, false) as u32 as i32,
                    w,
                    "{x} {r:?}"
                );
            }
        }
    }

    #[test]
    fn float_to_int_saturation_nan_and_huge() {
        assert_eq!(float_to_int(f64::NAN, 32, true, Rtz, true), 0);
        assert_eq!(float_to_int(1e20, 32, true, Rtz, true), 0x7FFF_FFFF);
        assert_eq!(float_to_int(-1e20, 32, true, Rtz, true), 0x8000_0000);
        assert_eq!(float_to_int(-3.0, 8, false, Rtz, true), 0);
        assert_eq!(float_to_int(300.0, 8, false, Rtz, true), 255);
        assert_eq!(float_to_int(255.5, 8, false, Rte, true), 255);
        assert_eq!(float_to_int(1e30, 64, false, Rtz, true), u64::MAX);
        // Without saturation: x86 behaviour.
        assert_eq!(float_to_int(f64::NAN, 32, true, Rtz, false), 0x8000_0000);
        assert_eq!(float_to_int(3e9, 32, true, Rtz, false), 0x8000_0000);
        assert_eq!(float_to_int(3e9, 32, false, Rtz, false), 3_000_000_000);
        assert_eq!(float_to_int(-1.0, 32, false, Rtz, false), 0xFFFF_FFFF);
        assert_eq!(float_to_int(-2.5, 32, false, Rtz, false), 0xFFFF_FFFF);
        assert_eq!(float_to_int(-0.5, 32, false, Rtz, false), 0);
        assert_eq!(float_to_int(f64::NAN, 64, false, Rtz, false), u64::MAX);
        assert_eq!(float_to_int(2e19, 64, false, Rtz, false), u64::MAX);
        assert_eq!(
            float_to_int(4294967296.0, 32, false, Rtz, false),
            0xFFFF_FFFF
        );
        assert_eq!(float_to_int(-2.5, 8, false, Rtz, false), 0xFE);
        assert_eq!(float_to_int(3e9, 8, true, Rtz, false), 0);
        assert_eq!(float_to_int(-200.0, 8, true, Rtz, false), 0x38);
        assert_eq!(
            float_to_int(1e19, 64, false, Rtz, false),
            10_000_000_000_000_000_000
        );
        assert_eq!(float_to_int(1e20, 64, true, Rtz, false), 1 << 63);
        assert_eq!(float_to_int(300.0, 8, true, Rtz, false), 300 & 0xFF);
    }

    #[test]
    fn int_to_float_is_rounded_once() {
        // 2^53 + 1 is exactly halfway between two f64s in f64 but not a tie in f32 terms;
        // going through f64 would round twice. u64::MAX rounds up to 2^64 in rte.
        let v = (1u64 << 62) + (1 << 38) + 1; // just above an f32 tie
        let r = f32::from_bits(int_to_float(v, 64, false, Fmt::F32, Rte) as u32);
        assert_eq!(r, ((1u64 << 62) + (1 << 39)) as f32);
        assert_eq!(
            v as f64 as f32,
            (1u64 << 62) as f32,
            "double rounding would differ"
        );
        let m = int_to_float(u64::MAX, 64, false, Fmt::F32, Rtz) as u32;
        assert_eq!(f32::from_bits(m), 18446742974197923840.0);
        let m = int_to_float(u64::MAX, 64, false, Fmt::F32, Rte) as u32;
        assert_eq!(f32::from_bits(m), 18446744073709551616.0);
        let n = int_to_float((-16777217i64) as u64, 64, true, Fmt::F32, Rtn) as u32;
        assert_eq!(f32::from_bits(n), -16777218.0);
        let n = int_to_float((-16777217i64) as u64, 64, true, Fmt::F32, Rtp) as u32;
        assert_eq!(f32::from_bits(n), -16777216.0);
        let n = int_to_float(16777217, 32, true, Fmt::F32, Rte) as u32;
        assert_eq!(f32::from_bits(n), 16777216.0);
        let d = int_to_float(u64::MAX, 64, false, Fmt::F64, Rtz);
        assert_eq!(f64::from_bits(d), 18446744073709549568.0);
    }

    #[test]
    fn integer_resizing() {
        assert_eq!(int_to_int(0xFF, 8, true, 32, true, false), 0xFFFF_FFFF);
        assert_eq!(int_to_int(0xFF, 8, false, 32, true, false), 0xFF);
        assert_eq!(int_to_int(0x1234, 32, true, 8, true, false), 0x34);
        assert_eq!(int_to_int(300, 32, true, 8, false, true), 255);
        assert_eq!(
            int_to_int((-5i32) as u32 as u64, 32, true, 8, false, true),
            0
        );
        assert_eq!(
            int_to_int(0xFFFF_FFFF, 32, false, 32, true, true),
            0x7FFF_FFFF
        );
        assert_eq!(int_to_int(u64::MAX, 64, true, 64, false, true), 0);
        assert_eq!(int_to_int(1, 1, false, 32, true, false), 1);
    }
}
