//! Math built-ins (OpenCL C 1.2 section 6.12.2). Functions OpenCL requires correctly
//! rounded (fma, sqrt, fmin/fmax, floor/ceil/rint/round/trunc, fmod, remainder, ...) are
//! exact here: either exact in f64 and then exactly representable, or computed in the
//! argument's own precision (fdim, mad, nextafter) or with round-to-odd (f32 fma). The
//! others are computed in f64 and rounded once to f32, well inside their ULP bounds.
//! `mad` is a multiply then an add, each rounded (POCL without FMA contraction).

use super::builtins::Call;
use super::memory::LaneBuf;
use super::value::{float_of, Ek};

extern "C" {
    // The C library's versions (std links libm); Rust's std has no stable equivalents.
    fn erf(x: f64) -> f64;
    fn erfc(x: f64) -> f64;
    fn tgamma(x: f64) -> f64;
    fn lgamma_r(x: f64, sign: *mut i32) -> f64;
    fn remainder(x: f64, y: f64) -> f64;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F {
    Acos,
    Acosh,
    Acospi,
    Asin,
    Asinh,
    Asinpi,
    Atan,
    Atanh,
    Atanpi,
    Cbrt,
    Ceil,
    Cos,
    Cosh,
    Cospi,
    Erfc,
    Erf,
    Exp,
    Exp2,
    Exp10,
    Expm1,
    Fabs,
    Floor,
    Lgamma,
    Log,
    Log2,
    Log10,
    Log1p,
    Logb,
    Rint,
    Round,
    Rsqrt,
    Sin,
    Sinh,
    Sinpi,
    Sqrt,
    Tan,
    Tanh,
    Tanpi,
    Tgamma,
    Trunc,
    Recip,
    Atan2,
    Atan2pi,
    Copysign,
    Fdim,
    Fmax,
    Fmin,
    Fmod,
    Hypot,
    Maxmag,
    Minmag,
    Nextafter,
    Pow,
    Powr,
    Remainder,
    Divide,
    Fma,
    Mad,
    Ilogb,
    Ldexp,
    Pown,
    Rootn,
    Nan,
    Fract,
    Modf,
    Sincos,
    Frexp,
    LgammaR,
    Remquo,
    Inf,
    NanConst,
}

pub fn lookup(name: &str) -> Option<F> {
    use F::*;
    let base = name
        .strip_prefix("half_")
        .or_else(|| name.strip_prefix("native_"))
        .unwrap_or(name);
    Some(match base {
        "acos" => Acos,
        "acosh" => Acosh,
        "acospi" => Acospi,
        "asin" => Asin,
        "asinh" => Asinh,
        "asinpi" => Asinpi,
        "atan" => Atan,
        "atanh" => Atanh,
        "atanpi" => Atanpi,
        "cbrt" => Cbrt,
        "ceil" => Ceil,
        "cos" => Cos,
        "cosh" => Cosh,
        "cospi" => Cospi,
        "erfc" => Erfc,
        "erf" => Erf,
        "exp" => Exp,
        "exp2" => Exp2,
        "exp10" => Exp10,
        "expm1" => Expm1,
        "fabs" => Fabs,
        "floor" => Floor,
        "lgamma" => Lgamma,
        "log" => Log,
        "log2" => Log2,
        "log10" => Log10,
        "log1p" => Log1p,
        "logb" => Logb,
        "rint" => Rint,
        "round" => Round,
        "rsqrt" => Rsqrt,
        "sin" => Sin,
        "sinh" => Sinh,
        "sinpi" => Sinpi,
        "sqrt" => Sqrt,
        "tan" => Tan,
        "tanh" => Tanh,
        "tanpi" => Tanpi,
        "tgamma" => Tgamma,
        "trunc" => Trunc,
        "recip" => Recip,
        "atan2" => Atan2,
        "atan2pi" => Atan2pi,
        "copysign" => Copysign,
        "fdim" => Fdim,
        "fmax" => Fmax,
        "fmin" => Fmin,
        "fmod" => Fmod,
        "hypot" => Hypot,
        "maxmag" => Maxmag,
        "minmag" => Minmag,
        "nextafter" => Nextafter,
        "pow" => Pow,
        "powr" => Powr,
        "remainder" => Remainder,
        "divide" => Divide,
        "fma" => Fma,
        "mad" => Mad,
        "ilogb" => Ilogb,
        "ldexp" => Ldexp,
        "pown" => Pown,
        "rootn" => Rootn,
        "nan" => Nan,
        "fract" => Fract,
        "modf" => Modf,
        "sincos" => Sincos,
        "frexp" => Frexp,
        "lgamma_r" => LgammaR,
        "remquo" => Remquo,
        "__builtin_inff" | "__builtin_huge_valf" | "__builtin_inf" | "__builtin_huge_val" => Inf,
        "__builtin_nanf" | "__builtin_nan" => NanConst,
        _ => return None,
    })
}

/// Rounds an f64 into a lane of `ek` (round to nearest even).
#[inline]
pub fn put(ek: Ek, x: f64) -> u64 {
    match ek {
        Ek::F32 => (x as f32).to_bits() as u64,
        Ek::F16 => super::convert::f32_to_f16(x as f32, crate::ir::Round::Rte) as u64,
        _ => x.to_bits(),
    }
}

/// A one-argument function computed in f64.
fn one(f: F, x: f64) -> f64 {
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
        Erfc => unsafe { erfc(x) },
        Erf => unsafe { erf(x) },
        Exp => x.exp(),
        Exp2 => x.exp2(),
        Exp10 => 10f64.powf(x),
        Expm1 => x.exp_m1(),
        Fabs => x.abs(),
        Floor => x.floor(),
        Lgamma => {
            let mut s = 0;
            // SAFETY: lgamma_r only writes the sign through the pointer we own.
            unsafe { lgamma_r(x, &mut s) }
        }
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

fn sinpi(x: f64) -> f64 {
    let r = x % 2.0;
    if r == 0.0 || r == 1.0 || r == -1.0 {
        0.0f64.copysign(x)
    } else {
        (std::f64::consts::PI * r).sin()
    }
}

fn logb(x: f64) -> f64 {
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

fn ilogb(x: f64) -> u64 {
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

fn nextafter(ek: Ek, x: f64, y: f64) -> u64 {
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
fn arith(ek: Ek, a: f64, b: f64, op: fn(f64, f64) -> f64, op32: fn(f32, f32) -> f32) -> f64 {
    if ek == Ek::F32 {
        op32(a as f32, b as f32) as f64
    } else {
        op(a, b)
    }
}

pub fn eval(f: F, c: &Call, res: &mut LaneBuf, side: &mut LaneBuf) -> Result<(), String> {
    use F::*;
    let ek = c.ret_ek();
    let aek = c.b.args.first().map(|a| a.sh.ek).unwrap_or(ek);
    let n = c.n();
    let x = |i: usize| float_of(aek, c.lane(0, i));
    let y = |i: usize| float_of(aek, c.lane(1, i));
    let z = |i: usize| float_of(aek, c.lane(2, i));
    let int_arg = |a: usize, i: usize| super::value::sext(c.lane(a, i), 32);
    for i in 0..n {
        res[i] = match f {
            Inf => put(ek, f64::INFINITY),
            NanConst => put(ek, f64::NAN),
            Nan => {
                let code = c.lane(0, i);
                match ek {
                    Ek::F64 => 0x7FF8_0000_0000_0000 | (code & ((1 << 51) - 1)),
                    _ => 0x7FC0_0000 | (code & 0x3F_FFFF),
                }
            }
            Ilogb => ilogb(x(i)),
            Fabs => c.lane(0, i) & !(1u64 << (aek.bits() - 1)),
            Copysign => {
                let s = 1u64 << (aek.bits() - 1);
                (c.lane(0, i) & !s) | (c.lane(1, i) & s)
            }
            Fmin => put(ek, fmin(x(i), y(i))),
            Fmax => put(ek, fmax(x(i), y(i))),
            Maxmag | Minmag => {
                let (a, b) = (x(i), y(i));
                let r = match (a.abs().partial_cmp(&b.abs()), f) {
                    (Some(std::cmp::Ordering::Greater), Maxmag)
                    | (Some(std::cmp::Ordering::Less), Minmag) => a,
                    (Some(std::cmp::Ordering::Less), Maxmag)
                    | (Some(std::cmp::Ordering::Greater), Minmag) => b,
                    _ if f == Maxmag => fmax(a, b),
                    _ => fmin(a, b),
                };
                put(ek, r)
            }
            Fdim => {
                let (a, b) = (x(i), y(i));
                if a.is_nan() || b.is_nan() {
                    put(ek, f64::NAN)
                } else if a > b {
                    put(ek, arith(ek, a, b, |p, q| p - q, |p, q| p - q))
                } else {
                    put(ek, 0.0)
                }
            }
            Fmod => put(ek, x(i) % y(i)),
            Remainder => put(ek, unsafe { remainder(x(i), y(i)) }),
            Divide => put(ek, arith(ek, x(i), y(i), |p, q| p / q, |p, q| p / q)),
            Hypot => put(ek, x(i).hypot(y(i))),
            Atan2 => put(ek, x(i).atan2(y(i))),
            Atan2pi => put(ek, x(i).atan2(y(i)) / std::f64::consts::PI),
            Pow => put(ek, x(i).powf(y(i))),
            Powr => {
                let (a, b) = (x(i), y(i));
                put(ek, if a < 0.0 { f64::NAN } else { a.powf(b) })
            }
            Pown => put(ek, x(i).powf(int_arg(1, i) as f64)),
            Rootn => {
                let (a, k) = (x(i), int_arg(1, i));
                let r = if k == 0 {
                    f64::NAN
                } else if a < 0.0 && k % 2 != 0 {
                    -(-a).powf(1.0 / k as f64)
                } else if a < 0.0 {
                    f64::NAN
                } else {
                    a.powf(1.0 / k as f64)
                };
                put(ek, r)
            }
            Ldexp => {
                let k = int_arg(1, i).clamp(-2200, 2200) as i32;
                // Two steps keep intermediate powers of two finite.
                let h = k / 2;
                put(ek, x(i) * 2f64.powi(h) * 2f64.powi(k - h))
            }
            Nextafter => nextafter(ek, x(i), y(i)),
            Fma => {
                if ek == Ek::F32 {
                    fma_f32(x(i) as f32, y(i) as f32, z(i) as f32).to_bits() as u64
                } else {
                    put(ek, x(i).mul_add(y(i), z(i)))
                }
            }
            Mad => {
                let p = arith(ek, x(i), y(i), |p, q| p * q, |p, q| p * q);
                put(ek, arith(ek, p, z(i), |p, q| p + q, |p, q| p + q))
            }
            Fract => {
                let a = x(i);
                let fl = a.floor();
                side[i] = put(ek, fl);
                let r = if a.is_nan() {
                    a
                } else if a.is_infinite() {
                    0.0f64.copysign(a)
                } else {
                    let max = if ek == Ek::F32 {
                        f32::from_bits(0x3F7F_FFFF) as f64
                    } else {
                        f64::from_bits(0x3FEF_FFFF_FFFF_FFFF)
                    };
                    (a - fl).min(max)
                };
                put(ek, r)
            }
            Modf => {
                let a = x(i);
                side[i] = put(ek, a.trunc());
                put(
                    ek,
                    if a.is_infinite() {
                        0.0f64.copysign(a)
                    } else {
                        (a - a.trunc()).copysign(a)
                    },
                )
            }
            Sincos => {
                side[i] = put(ek, x(i).cos());
                put(ek, x(i).sin())
            }
            Frexp => {
                let (m, e) = frexp(x(i));
                side[i] = e as u32 as u64;
                put(ek, m)
            }
            LgammaR => {
                let mut s = 0;
                // SAFETY: lgamma_r only writes the sign through the pointer we own.
                let r = unsafe { lgamma_r(x(i), &mut s) };
                side[i] = s as u32 as u64;
                put(ek, r)
            }
            Remquo => {
                let (a, b) = (x(i), y(i));
                let r = unsafe { remainder(a, b) };
                let q = ((a - r) / b).round();
                let low = if q.is_finite() {
                    (q.abs() % 128.0) as i64
                } else {
                    0
                };
                let signed = if (a < 0.0) != (b < 0.0) { -low } else { low };
                side[i] = signed as i32 as u32 as u64;
                put(ek, r)
            }
            _ => put(ek, one(f, x(i))),
        };
    }
    Ok(())
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
