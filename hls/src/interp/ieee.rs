//! IEEE binary16/32/64 encodings: decoding a float into sign, integer mantissa and
//! exponent, and the one exact rounding routine (four modes, subnormals, overflow to
//! infinity or to the largest finite value) every narrowing conversion goes through.

use super::value::mask;
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
            if to == Fmt::F16 {
                // POCL's half stores give every NaN all payload bits (measured).
                return sign | 0x7FFF;
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use Round::*;

    fn f32r(x: f64, r: Round) -> f32 {
        f32::from_bits(float_to_float(Fmt::F64, Fmt::F32, x.to_bits(), r) as u32)
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
        assert_eq!(f32_to_f16(f32::NAN, Rte), 0x7FFF);
        assert_eq!(f32_to_f16(-f32::NAN, Rtz), 0xFFFF);
        for h in 0..=0xFFFFu16 {
            let f = f16_to_f32(h);
            if !f.is_nan() {
                assert_eq!(f32_to_f16(f, Rte), h, "round trip {h:#x}");
            }
        }
    }
}
