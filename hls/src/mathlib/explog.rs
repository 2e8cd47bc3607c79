//! exp, exp2, exp10, log, log2, log10 and pow of binary32, evaluated in binary64.
//!
//! Method: binary32 arguments are exact in binary64, so each function is computed there
//! to about 2^-32 relative error and rounded once to binary32 (within 0.51 ulp before
//! the special cases, which are selected exactly). exp: Cody-Waite reduction
//! `x = k ln2 + r`, |r| <= ln2/2 (ln2 split in two so `k * ln2_hi` is exact), a degree 9
//! Taylor polynomial, and the scale 2^k built in the exponent field. log: `x = 2^e m`,
//! m in [sqrt(1/2), sqrt(2)), `log m = 2 atanh(s)` with `s = (m-1)/(m+1)` (divided through
//! a binary32 reciprocal and one correction step) and its odd
//! series to s^13 (|s| < 0.172). pow: `exp(y log|x|)` with the C99/OpenCL special
//! cases, the sign from y's parity.

use super::build::{B, F32, F64, I64};
use crate::ir::{BinOp, CmpOp, OpId};

const LN2: f64 = std::f64::consts::LN_2;
/// ln 2 split: the high part has 32 significant bits so k * LN2_HI is exact for |k| < 2^20.
const LN2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEE0_0000);
const LN2_LO: f64 = f64::from_bits(0x3DEA_39EF_3579_3C76);
/// 1.5 * 2^52: adding it rounds a |t| < 2^51 to an integer in the low mantissa bits.
const MAGIC: f64 = 6_755_399_441_055_744.0;
/// The x86 default NaN (what an invalid operation gives), as binary32.
pub(super) const DEFAULT_NAN32: u64 = 0xFFC0_0000;

/// 1/n! for n = 0..=9.
const EXP_TAYLOR: [f64; 10] = [
    1.0,
    1.0,
    0.5,
    1.0 / 6.0,
    1.0 / 24.0,
    1.0 / 120.0,
    1.0 / 720.0,
    1.0 / 5040.0,
    1.0 / 40320.0,
    1.0 / 362880.0,
];

/// Which base the exponential takes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Base {
    E,
    Two,
    Ten,
}

/// `base^z` in f64 for any non-NaN f64 `z` (clamped first: the result then overflows or
/// underflows binary32 as it should).
fn exp_core(b: &mut B, z: OpId, base: Base) -> OpId {
    let lim = match base {
        Base::E => 200.0,
        Base::Two => 300.0,
        Base::Ten => 90.0,
    };
    let hi = b.fcmpc(CmpOp::FGt, z, lim);
    let c = b.f(lim);
    let z = b.sel(F64, hi, c, z);
    let lo = b.fcmpc(CmpOp::FLt, z, -lim);
    let c = b.f(-lim);
    let z = b.sel(F64, lo, c, z);
    let t = match base {
        Base::E => b.fmulc(z, 1.0 / LN2),
        Base::Two => z,
        Base::Ten => b.fmulc(z, std::f64::consts::LOG2_10),
    };
    let magic = b.f(MAGIC);
    let tm = b.fadd(t, magic);
    let kd = b.fsub(tm, magic);
    let tb = b.cast(I64, tm);
    let k = b.ic(BinOp::Sub, tb, MAGIC.to_bits() as i64);
    // r = z ln(base) - k ln2, |r| <= ~ln2/2.
    let r = match base {
        Base::Two => {
            let d = b.fsub(z, kd);
            b.fmulc(d, LN2)
        }
        _ => {
            let zl = match base {
                Base::Ten => b.fmulc(z, std::f64::consts::LN_10),
                _ => z,
            };
            let h = b.fmulc(kd, LN2_HI);
            let r = b.fsub(zl, h);
            let l = b.fmulc(kd, LN2_LO);
            b.fsub(r, l)
        }
    };
    let p = b.poly(r, &EXP_TAYLOR);
    let e = b.ic(BinOp::Add, k, 1023);
    let e = b.ic(BinOp::Shl, e, 52);
    let scale = b.cast(F64, e);
    b.fmul(p, scale)
}

/// The binary32 NaN `x` quieted (through the widening and narrowing conversions).
fn quiet(b: &mut B, xd: OpId) -> OpId {
    b.f64_to_f32(xd)
}

/// exp, exp2, exp10 of binary32 `x`.
pub(super) fn exp(b: &mut B, x: OpId, base: Base) -> OpId {
    let xd = b.f32_to_f64(x);
    let r = exp_core(b, xd, base);
    let r = b.f64_to_f32(r);
    let nan = b.is_nan32(x);
    let q = quiet(b, xd);
    b.sel(F32, nan, q, r)
}

/// `ln a` in f64 for finite positive normal f64 `a` (anything else gives garbage).
fn log_core(b: &mut B, a: OpId) -> OpId {
    const SQRT_HALF: i64 = 0x3FE6_A09E_667F_3BCD;
    let ib = b.cast(I64, a);
    let t = b.ic(BinOp::Sub, ib, SQRT_HALF);
    let e = b.ic(BinOp::AShr, t, 52);
    let mb = b.ic(BinOp::And, t, (1i64 << 52) - 1);
    let mb = b.ic(BinOp::Add, mb, SQRT_HALF);
    let m = b.cast(F64, mb);
    let one = b.f(1.0);
    let f = b.fsub(m, one);
    let two = b.f(2.0);
    let den = b.fadd(f, two);
    let s = quotient(b, f, den);
    let z = b.fmul(s, s);
    // 2 atanh(s) = 2 (s + s^3/3 + s^5/5 + ...)
    let c: Vec<f64> = (0..7).map(|j| 2.0 / (2 * j + 1) as f64).collect();
    let p = b.poly(z, &c);
    let lg = b.fmul(s, p);
    let ed = b.i_to_f(e);
    let el = b.fmulc(ed, LN2_LO);
    let low = b.fadd(el, lg);
    let eh = b.fmulc(ed, LN2_HI);
    b.fadd(eh, low)
}

/// `n / d` for f64 `d` within binary32's normal range, to about 2^-46 relative error
/// without an f64 division (`ohls_dp_div` takes one per 57 cycles and would bound a
/// pipelined loop's II): a binary32 reciprocal (relative error below 2^-23) and one
/// correction step, `q = q0 + r (n - d q0)`, which squares the error.
pub(super) fn quotient(b: &mut B, n: OpId, d: OpId) -> OpId {
    let d32 = b.f64_to_f32(d);
    let one = b.bits(F32, 1.0f32.to_bits() as u64);
    let r32 = b.bin(BinOp::FDiv, F32, one, d32);
    let r = b.f32_to_f64(r32);
    let q0 = b.fmul(n, r);
    let dq = b.fmul(d, q0);
    let rest = b.fsub(n, dq);
    let fix = b.fmul(r, rest);
    b.fadd(q0, fix)
}

/// log, log2, log10 of binary32 `x`.
pub(super) fn log(b: &mut B, x: OpId, base: Base) -> OpId {
    let xd = b.f32_to_f64(x);
    let l = log_core(b, xd);
    let l = match base {
        Base::E => l,
        Base::Two => b.fmulc(l, 1.0 / LN2),
        Base::Ten => b.fmulc(l, 1.0 / std::f64::consts::LN_10),
    };
    let r = b.f64_to_f32(l);
    let zero = b.fcmpc(CmpOp::FEq, xd, 0.0);
    let ninf = b.bits(F32, 0xFF80_0000);
    let r = b.sel(F32, zero, ninf, r);
    let inf = b.fcmpc(CmpOp::FEq, xd, f64::INFINITY);
    let pinf = b.bits(F32, 0x7F80_0000);
    let r = b.sel(F32, inf, pinf, r);
    let neg = b.fcmpc(CmpOp::FLt, xd, 0.0);
    let dn = b.bits(F32, DEFAULT_NAN32);
    let r = b.sel(F32, neg, dn, r);
    let nan = b.is_nan32(x);
    let q = quiet(b, xd);
    b.sel(F32, nan, q, r)
}

/// pow of binary32 `x` and `y`.
pub(super) fn pow(b: &mut B, x: OpId, y: OpId) -> OpId {
    let xd = b.f32_to_f64(x);
    let yd = b.f32_to_f64(y);
    let a = b.fabs(xd);
    let l = log_core(b, a);
    let zero = b.fcmpc(CmpOp::FEq, a, 0.0);
    let ninf = b.f(f64::NEG_INFINITY);
    let l = b.sel(F64, zero, ninf, l);
    let inf = b.fcmpc(CmpOp::FEq, a, f64::INFINITY);
    let pinf = b.f(f64::INFINITY);
    let l = b.sel(F64, inf, pinf, l);
    let z = b.fmul(yd, l);
    let zn = b.cmp(CmpOp::FNe, z, z);
    let zero = b.f(0.0);
    let z = b.sel(F64, zn, zero, z);
    let r = exp_core(b, z, Base::E);
    let r = b.f64_to_f32(r);
    // y's parity: binary32 values of magnitude >= 2^24 (and infinities) are even.
    let ay = b.fabs(yd);
    let big = b.fcmpc(CmpOp::FGe, ay, 16_777_216.0);
    let small = b.not1(big);
    let yc = b.sel(F64, big, zero, yd);
    let yi = b.f_to_i(yc);
    let back = b.i_to_f(yi);
    let exact = b.cmp(CmpOp::FEq, back, yd);
    let is_int = b.or1(big, exact);
    let low = b.ic(BinOp::And, yi, 1);
    let odd = b.icmpc(CmpOp::Ne, low, 0);
    let odd = b.and1(odd, small);
    let odd = b.and1(odd, exact);
    let xb = b.cast(I64, xd);
    let sx = b.icmpc(CmpOp::SLt, xb, 0);
    let neg = b.and1(sx, odd);
    let nr = b.fneg(F32, r);
    let r = b.sel(F32, neg, nr, r);
    // A finite negative x to a non-integer power is invalid.
    let xneg = b.fcmpc(CmpOp::FLt, xd, 0.0);
    let xfin = b.fcmpc(CmpOp::FGt, xd, f64::NEG_INFINITY);
    let not_int = b.not1(is_int);
    let bad = b.and1(xneg, xfin);
    let bad = b.and1(bad, not_int);
    let dn = b.bits(F32, DEFAULT_NAN32);
    let r = b.sel(F32, bad, dn, r);
    // NaNs propagate (x's first, as x + y does), then the results that are 1 anyway.
    let ny = b.is_nan32(y);
    let qy = quiet(b, yd);
    let r = b.sel(F32, ny, qy, r);
    let nx = b.is_nan32(x);
    let qx = quiet(b, xd);
    let r = b.sel(F32, nx, qx, r);
    let one32 = b.bits(F32, 0x3F80_0000);
    let y0 = b.fcmpc(CmpOp::FEq, yd, 0.0);
    let x1 = b.fcmpc(CmpOp::FEq, xd, 1.0);
    let xm1 = b.fcmpc(CmpOp::FEq, xd, -1.0);
    let yinf = b.fcmpc(CmpOp::FEq, ay, f64::INFINITY);
    let m1inf = b.and1(xm1, yinf);
    let unit = b.or1(y0, x1);
    let unit = b.or1(unit, m1inf);
    b.sel(F32, unit, one32, r)
}
