//! Math built-ins (OpenCL C 1.2 section 6.12.2). Functions OpenCL requires correctly
//! rounded (fma, sqrt, fmin/fmax, floor/ceil/rint/round/trunc, fmod, remainder, ...) are
//! exact here: either exact in f64 and then exactly representable, or computed in the
//! argument's own precision (fdim, mad, nextafter) or with round-to-odd (f32 fma). The
//! others are computed in f64 and rounded once to f32, well inside their ULP bounds.
//! `mad` is a multiply then an add, each rounded (as POCL does: measured with `ocl-ref`).

use super::builtins::Call;
use super::float_fns::{
    arith, fma_f32, fmax, fmin, frexp, ilogb, lgamma_r_safe, nextafter, one, quotient_low_bits,
    remainder_exact,
};
use super::memory::LaneBuf;
use super::value::{float_of, mask, Ek};

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

/// A result lane, with any NaN made the positive quiet NaN.
fn canonical(ek: Ek, r: f64) -> u64 {
    put(ek, if r.is_nan() { f64::NAN } else { r })
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
                // POCL: the code is the whole mantissa (0 becomes 1, to stay a NaN).
                let code = c.lane(0, i);
                match ek {
                    Ek::F64 => 0x7FF0_0000_0000_0000 | (code & ((1 << 52) - 1)).max(1),
                    _ => 0x7F80_0000 | (code & 0x7F_FFFF).max(1),
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
                if a.is_nan() {
                    put(ek, a)
                } else if b.is_nan() {
                    put(ek, b)
                } else if a > b {
                    put(ek, arith(ek, a, b, |p, q| p - q, |p, q| p - q))
                } else {
                    put(ek, 0.0)
                }
            }
            // NaN results of fmod/remainder/remquo are POCL's canonical +NaN.
            Fmod => canonical(ek, x(i) % y(i)),
            Remainder => canonical(ek, remainder_exact(x(i), y(i))),
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
                    // POCL gives a NaN with every payload bit set, in both results.
                    side[i] = mask(ek.bits() - 1);
                    f64::from_bits(mask(63))
                } else if a.is_infinite() {
                    0.0
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
                let (r, sign) = lgamma_r_safe(x(i));
                side[i] = sign as u32 as u64;
                put(ek, r)
            }
            Remquo => {
                let (a, b) = (x(i), y(i));
                let r = remainder_exact(a, b);
                let low = quotient_low_bits(a, b) as i64;
                let signed = if (a < 0.0) != (b < 0.0) { -low } else { low };
                side[i] = signed as i32 as u32 as u64;
                canonical(ek, r)
            }
            _ => put(ek, one(f, x(i))),
        };
    }
    Ok(())
}
