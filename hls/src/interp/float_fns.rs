//! Scalar float functions behind the math built-ins: the exact ones (fmin/fmax rules,
//! frexp, logb, nextafter, f32 fma by round-to-odd) and the f64 evaluations of the rest.

use super::math::F;
use super::value::Ek;

extern "C" {
    // The C library's versions (std links libm); Rust's std has no stable equivalents.
    fn erf(x: f64) -> f64;
    fn erfc(x: f64) -> f64;
    fn tgamma(x: f64) -> f64;
    fn lgamma_r(x: f64, sign: *mut i32) -> f64;
    fn remainder(x: f64, y: f64) -> f64;
}

/// `lgamma_r` with its sign.
pub fn lgamma_r_safe(x: f64) -> (f64, i32) {
    let mut s = 0;
    // SAFETY: lgamma_r only writes the sign through the pointer we own.
    let r = unsafe { lgamma_r(x, &mut s) };
    (r, s)
}

/// IEEE remainder (exact: the C library's).
pub fn remainder_exact(x: f64, y: f64) -> f64 {
    // SAFETY: a pure function of two doubles.
    unsafe { remainder(x, y) }
}

/// A one-argument function computed in f64.
pub fn one(f: F, x: f64) -> f64 {
    use std::f64::consts::PI;
    use F::*;
    match f {
        Acos => x.acos(),
        Acosh => x.acosh(),
        Acospi => x.acos() / PI,
        Asin => x.asin(),
        Asinh => x.asinh(),
        Asinpi => x.asin() / PI,
        Atan => x.atan(),
        Atanh => x.atanh(),
        Atanpi => x.atan() / PI,
        Cbrt => x.cbrt(),
        Ceil => x.ceil(),
        Cos => x.cos(),
        Cosh => x.cosh(),
        Cospi => (PI * (x % 2.0)).cos(),
        // SAFETY: pure C library functions of one double.
        Erfc => unsafe { erfc(x) },
        Erf => unsafe { erf(x) },
        Exp => x.exp(),
        Exp2 => x.exp2(),
        Exp10 => 10f64.powf(x),
        Expm1 => x.exp_m1(),
        Fabs => x.abs(),
        Floor => x.floor(),
        Lgamma => lgamma_r_safe(x).0,
        Log => x.ln(),
        Log2 => x.log2(),
        Log10 => x.log10(),
        Log1p => x.ln_1p(),
        Logb => logb(x),
        Rint => x.round_ties_even(),
        Round => x.round(),
        Rsqrt => 1.0 / x.sqrt(),
        Sin => x.sin(),
        Sinh => x.sinh(),
        Sinpi => sinpi(x),
        Sqrt => x.sqrt(),
        Tan => x.tan(),
        Tanh => x.tanh(),
        Tanpi => sinpi(x) / (PI * (x % 2.0)).cos(),
        Tgamma => unsafe { tgamma(x) },
        Trunc => x.trunc(),
        Recip => 1.0 / x,
        _ => f64::NAN,
    }
}

pub fn sinpi(x: f64) -> f64 {
    let r = x % 2.0;
    if r == 0.0 || r == 1.0 || r == -1.0 {
        0.0f64.copysign(x)
    } else {
        (std::f64::consts::PI * r).sin()
    }
}

pub fn logb(x: f64) -> f64 {
    if x == 0.0 {
        f64::NEG_INFINITY
    } else if x.is_infinite() {
        f64::INFINITY
    } else if x.is_nan() {
        x
    } else {
        frexp(x).1 as f64 - 1.0
    }
}

/// `x = m * 2^e` with `|m|` in [0.5, 1).
pub fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let (x, adj) = if x.abs() < f64::MIN_POSITIVE {
        (x * 2f64.powi(64), -64)
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    let e = ((bits >> 52) & 0x7FF) as i32 - 1022;
    let m = f64::from_bits((bits & !(0x7FF << 52)) | (1022 << 52));
    (m, e + adj)
}

pub fn ilogb(x: f64) -> u64 {
    let v: i32 = if x == 0.0 {
        i32::MIN
    } else if !x.is_finite() {
        i32::MAX
    } else {
        frexp(x).1 - 1
    };
    v as u32 as u64
}

/// `fmin`: NaN loses; equal zeros of either sign give -0 (as POCL does).
pub fn fmin(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a < b {
        a
    } else if b < a {
        b
    } else {
        f64::from_bits(a.to_bits() | b.to_bits())
    }
}

/// `fmax`: NaN loses; equal zeros of either sign give -0 (as POCL does).
pub fn fmax(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        b
    } else if b.is_nan() || a > b {
        a
    } else if b > a {
        b
    } else {
        f64::from_bits(a.to_bits() | b.to_bits())
    }
}

/// Correctly rounded f32 fma through f64: the product is exact in f64; the sum is
/// rounded to odd so the final rounding to f32 is the only one that matters.
pub fn fma_f32(a: f32, b: f32, c: f32) -> f32 {
    let p = a as f64 * b as f64;
    let c = c as f64;
    let s = p + c;
    if !s.is_finite() || s == 0.0 {
        return s as f32;
    }
    // TwoSum error of p + c.
    let bb = s - p;
    let err = (p - (s - bb)) + (c - bb);
    let bits = s.to_bits();
    let s = if err != 0.0 && bits & 1 == 0 {
        let toward_larger = (err > 0.0) == (s > 0.0);
        f64::from_bits(if toward_larger { bits + 1 } else { bits - 1 })
    } else {
        s
    };
    s as f32
}

pub fn nextafter(ek: Ek, x: f64, y: f64) -> u64 {
    if ek == Ek::F32 {
        let (x, y) = (x as f32, y as f32);
        let r = if x.is_nan() || y.is_nan() {
            f32::NAN
        } else if x == y {
            y
        } else if x == 0.0 {
            f32::from_bits(1).copysign(y)
        } else if (y > x) == (x > 0.0) {
            f32::from_bits(x.to_bits() + 1)
        } else {
            f32::from_bits(x.to_bits() - 1)
        };
        r.to_bits() as u64
    } else {
        let r = if x.is_nan() || y.is_nan() {
            f64::NAN
        } else if x == y {
            y
        } else if x == 0.0 {
            f64::from_bits(1).copysign(y)
        } else if (y > x) == (x > 0.0) {
            f64::from_bits(x.to_bits() + 1)
        } else {
            f64::from_bits(x.to_bits() - 1)
        };
        r.to_bits()
    }
}

/// `a op b` rounded once in the lane precision.
pub fn arith(ek: Ek, a: f64, b: f64, op: fn(f64, f64) -> f64, op32: fn(f32, f32) -> f32) -> f64 {
    if ek == Ek::F32 {
        op32(a as f32, b as f32) as f64
    } else {
        op(a, b)
    }
}

/// The low 7 bits of the quotient `x / y` rounded to nearest even, computed exactly by
/// long division on the mantissas (the quotient can be far beyond 2^53).
pub fn quotient_low_bits(x: f64, y: f64) -> u32 {
    if !x.is_finite() || !y.is_finite() || y == 0.0 || x == 0.0 {
        return 0;
    }
    let parts = |v: f64| -> (u64, i32) {
        let b = v.abs().to_bits();
        let e = (b >> 52) as i32;
        let m = b & ((1 << 52) - 1);
        if e == 0 {
            (m, -1074)
        } else {
            (m | (1 << 52), e - 1075)
        }
    };
    let ((mx, ex), (my, ey)) = (parts(x), parts(y));
    let (mut q, mut r): (u32, u128) = (0, mx as u128);
    let my = my as u128;
    if ex >= ey {
        // |x| / 2^ey = mx * 2^(ex - ey) = q * my + r.
        q = (r / my) as u32 & 0xFF;
        r %= my;
        for _ in 0..ex - ey {
            r <<= 1;
            q = (q << 1) & 0xFF;
            if r >= my {
                r -= my;
                q |= 1;
            }
        }
        // Round to nearest, ties to even.
        if 2 * r > my || (2 * r == my && q & 1 == 1) {
            q += 1;
        }
    } else if 2.0 * x.abs() > y.abs() {
        q = 1;
    }
    q & 0x7F
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fmin_fmax_nan_rules() {
        assert_eq!(fmin(f64::NAN, 2.0), 2.0);
        assert_eq!(fmin(2.0, f64::NAN), 2.0);
        assert_eq!(fmax(f64::NAN, -2.0), -2.0);
        assert!(fmax(f64::NAN, f64::NAN).is_nan());
        assert_eq!(fmin(-1.0, 1.0), -1.0);
        assert_eq!(fmax(-1.0, 1.0), 1.0);
        for (a, b) in [(0.0, -0.0), (-0.0, 0.0)] {
            assert_eq!(fmin(a, b).to_bits(), (-0.0f64).to_bits());
            assert_eq!(fmax(a, b).to_bits(), (-0.0f64).to_bits());
        }
    }

    #[test]
    fn rounding_ties() {
        assert_eq!(one(F::Round, 2.5), 3.0);
        assert_eq!(one(F::Round, -2.5), -3.0);
        assert_eq!(one(F::Rint, 2.5), 2.0);
        assert_eq!(one(F::Rint, 3.5), 4.0);
        assert_eq!(one(F::Rint, -0.5).to_bits(), (-0.0f64).to_bits());
        assert_eq!(one(F::Trunc, -1.7), -1.0);
    }

    #[test]
    fn fma_f32_is_correctly_rounded() {
        // a*b = 1 + 2^-23 + 2^-48 exactly; + c lands just above a tie in f32.
        let a = 1.0 + f32::EPSILON / 2.0f32.powi(0);
        let b = 1.0 + 2.0f32.powi(-25);
        let c = -1.0f32;
        let exact = (a as f64) * (b as f64) + c as f64; // exact here (few bits)
        assert_eq!(fma_f32(a, b, c), exact as f32);
        // A case where f64 rounding of the sum would create a false tie.
        let a = 1.0f32 + 2.0f32.powi(-12);
        let b = 1.0f32 + 2.0f32.powi(-12);
        let c = 2.0f32.powi(-60);
        // a*b = 1 + 2^-11 + 2^-24: a tie for f32 without c; c breaks it upward.
        assert_eq!(fma_f32(a, b, c), 1.0 + 2.0f32.powi(-11) + 2.0f32.powi(-23));
        assert_eq!(fma_f32(a, b, 0.0), 1.0 + 2.0f32.powi(-11));
    }

    #[test]
    fn remquo_quotient_bits_are_exact() {
        assert_eq!(quotient_low_bits(7.0, 2.0), 4, "3.5 ties to even 4");
        assert_eq!(quotient_low_bits(5.0, 2.0), 2, "2.5 ties to even 2");
        assert_eq!(quotient_low_bits(1000.0, 1.0), 1000 % 128);
        assert_eq!(quotient_low_bits(0.75, 1.0), 1);
        assert_eq!(quotient_low_bits(0.25, 1.0), 0);
        // 2^100 / 3 = 422550200076076467165567735125.33..., rounded: ...125; mod 128 = 85.
        assert_eq!(quotient_low_bits(2f64.powi(100), 3.0), 85);
    }

    #[test]
    fn frexp_and_logb() {
        assert_eq!(frexp(8.0), (0.5, 4));
        assert_eq!(frexp(-3.0), (-0.75, 2));
        assert_eq!(frexp(1e-310).1, -1029);
        assert_eq!(logb(8.0), 3.0);
        assert_eq!(ilogb(0.0) as u32, 0x8000_0000);
        assert_eq!(ilogb(1.0), 0);
    }

    #[test]
    fn nextafter_steps_one_ulp() {
        assert_eq!(
            nextafter(Ek::F32, 1.0, 2.0),
            (1.0f32 + f32::EPSILON).to_bits() as u64
        );
        assert_eq!(
            nextafter(Ek::F32, 0.0, -1.0),
            (-f32::from_bits(1)).to_bits() as u64
        );
        assert_eq!(
            nextafter(Ek::F32, -1.0, 0.0),
            (-1.0f32 + f32::EPSILON / 2.0).to_bits() as u64
        );
    }
}
