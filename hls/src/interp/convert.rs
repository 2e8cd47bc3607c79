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

use super::value::{mask, sext};
use crate::ir::Round;

/// An IEEE binary interchange format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fmt {
    F16,
    F32,
    F64,
}

impl Fmt {
    fn mant(self) -> u32 {
        match self {
            Fmt::F16 => 10,
            Fmt::F32 => 23,
            Fmt::F64 => 52,
        }
    }

    fn exp_bits(self) -> u32 {
        match self {
            Fmt::F16 => 5,
            Fmt::F32 => 8,
            Fmt::F64 => 11,
        }
    }

    fn bias(self) -> i32 {
        (1 << (self.exp_bits() - 1)) - 1
    }

    fn sign_bit(self) -> u64 {
        1u64 << (self.mant() + self.exp_bits())
    }

    fn inf(self) -> u64 {
        mask(self.exp_bits()) << self.mant()
    }
}

/// A decoded float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decoded {
    Nan {
        neg: bool,
        payload: u64,
    },
    Inf {
        neg: bool,
    },
    /// `m * 2^e` (`m` may be 0).
    Finite {
        neg: bool,
        m: u64,
        e: i32,
    },
}

pub fn decode(fmt: Fmt, bits: u64) -> Decoded {
    let mb = fmt.mant();
    let neg = bits & fmt.sign_bit() != 0;
    let exp = ((bits >> mb) & mask(fmt.exp_bits())) as i32;
    let frac = bits & mask(mb);
    if exp == mask(fmt.exp_bits()) as i32 {
        if frac == 0 {
            Decoded::Inf { neg }
        } else {
            Decoded::Nan { neg, payload: frac }
        }
    } else if exp == 0 {
        Decoded::Finite {
            neg,
            m: frac,
            e: 1 - fmt.bias() - mb as i32,
        }
    } else {
        Decoded::Finite {
            neg,
            m: frac | (1 << mb),
            e: exp - fmt.bias() - mb as i32,
        }
    }
}

/// Rounds the exact value `(-1)^neg * m * 2^e` to `fmt` in mode `round`; returns the bits.
pub fn round_to(fmt: Fmt, neg: bool, m: u128, e: i32, round: Round) -> u64 {
    let sign = if neg { fmt.sign_bit() } else { 0 };
    if m == 0 {
        return sign;
    }
    let p = fmt.mant() as i32 + 1;
    let emin = 1 - fmt.bias();
    let emax = fmt.bias();
    let msb = 127 - m.leading_zeros() as i32;
    let big_e = msb.saturating_add(e);
    let mut q = big_e.max(emin) - (p - 1);
    let mut n: u128;
    if e >= q {
        n = m << (e - q) as u32;
    } else {
        let s = (q as i64 - e as i64) as u64;
        let (keep, above_half, at_half, sticky) = if s > 128 {
            (0, false, false, true)
        } else if s == 128 {
            let top = m >> 127 == 1;
            let rest = m & (u128::MAX >> 1) != 0;
            (0, top && rest, top && !rest, rest || top)
        } else {
            let rem = m & ((1u128 << s) - 1);
            let half = 1u128 << (s - 1);
            (m >> s, rem > half, rem == half, rem != 0)
        };
        n = keep;
        let up = match round {
            Round::Rte => above_half || (at_half && n & 1 == 1),
            Round::Rtz => false,
            Round::Rtp => !neg && sticky,
            Round::Rtn => neg && sticky,
        };
        if up {
            n += 1;
        }
        if n == 1u128 << p {
            n >>= 1;
            q += 1;
        }
    }
    let normal = n >= 1u128 << (p - 1);
    if normal && q + p - 1 > emax {
        let to_inf = match round {
            Round::Rte => true,
            Round::Rtz => false,
            Round::Rtp => !neg,
            Round::Rtn => neg,
        };
        return sign | if to_inf { fmt.inf() } else { fmt.inf() - 1 };
    }
    if normal {
        let biased = (q + p - 1 + fmt.bias()) as u64;
        sign | (biased << fmt.mant()) | (n as u64 & mask(fmt.mant()))
    } else {
        sign | n as u64
    }
}

/// Converts between float formats (widening is exact; narrowing rounds once).
pub fn float_to_float(from: Fmt, to: Fmt, bits: u64, round: Round) -> u64 {
    match decode(from, bits) {
        Decoded::Nan { neg, payload } => {
            let sign = if neg { to.sign_bit() } else { 0 };
            let p = if from.mant() >= to.mant() {
                payload >> (from.mant() - to.mant())
            } else {
                payload << (to.mant() - from.mant())
            };
            sign | to.inf() | p | (1 << (to.mant() - 1))
        }
        Decoded::Inf { neg } => (if neg { to.sign_bit() } else { 0 }) | to.inf(),
        Decoded::Finite { neg, m, e } => round_to(to, neg, m as u128, e, round),
    }
}

pub fn f16_to_f32(h: u16) -> f32 {
    f32::from_bits(float_to_float(Fmt::F16, Fmt::F32, h as u64, Round::Rte) as u32)
}

pub fn f32_to_f16(f: f32, round: Round) -> u16 {
    float_to_float(Fmt::F32, Fmt::F16, f.to_bits() as u64, round) as u16
}

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

    fn f32r(x: f64, r: Round) -> f32 {
        f32::from_bits(float_to_float(Fmt::F64, Fmt::F32, x.to_bits(), r) as u32)
    }

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
    fn narrowing_f64_to_f32() {
        let x = 1.0 + f64::EPSILON; // between 1 and next f32 above 1
        assert_eq!(f32r(x, Rte), 1.0);
        assert_eq!(f32r(x, Rtp), 1.0 + f32::EPSILON);
        assert_eq!(f32r(-x, Rtn), -1.0 - f32::EPSILON);
        assert_eq!(f32r(-x, Rtz), -1.0);
        assert_eq!(f32r(1e300, Rte), f32::INFINITY);
        assert_eq!(f32r(1e300, Rtz), f32::MAX);
        assert_eq!(f32r(-1e300, Rtp), -f32::MAX);
        assert_eq!(f32r(1e-50, Rtp), f32::from_bits(1));
        assert_eq!(f32r(1e-50, Rte), 0.0);
        for x in [0.1, -3.7e-39, 1.5e-45, 3.4028235677973366e38, 7.006e-46] {
            assert_eq!(f32r(x, Rte).to_bits(), (x as f32).to_bits(), "{x}");
        }
        assert!(f32r(f64::NAN, Rte).is_nan());
    }

    #[test]
    fn half_conversions() {
        assert_eq!(f32_to_f16(1.0, Rte), 0x3C00);
        assert_eq!(f32_to_f16(65504.0, Rte), 0x7BFF);
        assert_eq!(
            f32_to_f16(65520.0, Rte),
            0x7C00,
            "ties to even overflow to inf"
        );
        assert_eq!(f32_to_f16(65520.0, Rtz), 0x7BFF);
        assert_eq!(f32_to_f16(1e6, Rtz), 0x7BFF);
        assert_eq!(f32_to_f16(-1e6, Rtp), 0xFBFF);
        assert_eq!(f32_to_f16(-1e6, Rtn), 0xFC00);
        // Smallest subnormal 2^-24, and half of it (a tie to even -> 0).
        assert_eq!(f32_to_f16(5.9604645e-8, Rte), 0x0001);
        assert_eq!(f32_to_f16(2.9802322e-8, Rte), 0x0000);
        assert_eq!(f32_to_f16(2.9802322e-8, Rtp), 0x0001);
        assert_eq!(
            f32_to_f16(8.940697e-8, Rte),
            0x0002,
            "1.5 ulp ties to even 2"
        );
        // 1 + 2^-11 is a tie between 1 and 1 + 2^-10.
        assert_eq!(f32_to_f16(1.0 + 1.0 / 2048.0, Rte), 0x3C00);
        assert_eq!(f32_to_f16(1.0 + 3.0 / 2048.0, Rte), 0x3C02);
        assert_eq!(f16_to_f32(0x0001), 5.9604645e-8);
        assert_eq!(f16_to_f32(0x7BFF), 65504.0);
        assert_eq!(f16_to_f32(0xFC00), f32::NEG_INFINITY);
        assert!(f16_to_f32(0x7E00).is_nan());
        assert_eq!(f32_to_f16(f32::NAN, Rte) & 0x7E00, 0x7E00);
        for h in 0..=0xFFFFu16 {
            let f = f16_to_f32(h);
            if !f.is_nan() {
                assert_eq!(f32_to_f16(f, Rte), h, "round trip {h:#x}");
            }
        }
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
