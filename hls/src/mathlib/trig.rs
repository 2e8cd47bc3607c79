//! sin, cos and tan of binary32 over the whole float range.
//!
//! Reduction (Payne-Hanek, in 64-bit integer arithmetic): x = M 2^E with M the 24-bit
//! significand; the 96 bits of 2/pi from bit E-1 on (bits before that only add multiples
//! of 4 to x 2/pi) are picked from a table by select chains and multiplied by M in three
//! exact 24x32-bit products; bits 95..94 of the sum are the quadrant, the next 62 the
//! fraction (rounded to the nearest quadrant, so |r| <= pi/4). The truncated table tail
//! adds below 2^-70 and the dropped low product bits below 2^-62 to a fraction that is
//! never below about 2^-32 for a binary32 x, so r is good to about 2^-30 relative.
//! |x| < 1/2 is not reduced. Polynomials: Taylor series of sin (to r^13) and cos (to
//! r^14) in f64, truncation error below 2^-36 on |r| <= pi/4; one rounding to binary32.

use super::build::{B, F32, F64, I32, I64};
use super::explog::DEFAULT_NAN32;
use crate::ir::{BinOp, CmpOp, OpId};

/// Bits of 2/pi, 32 per word, most significant first, after a zero word that stands for
/// the bits before the binary point (computed from Machin's formula in exact integer
/// arithmetic; the first words are the well-known A2F9836E 4E441529 ...).
const TWO_OVER_PI: [i64; 9] = [
    0,
    0xA2F9_836E,
    0x4E44_1529,
    0xFC27_57D1,
    0xF534_DDC0,
    0xDB62_9599,
    0x3C43_9041,
    0xFE51_63AB,
    0xDEBB_C561,
];

const M32: i64 = 0xFFFF_FFFF;

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Fun {
    Sin,
    Cos,
    Tan,
}

/// Factorial series coefficients: sin (odd) as a polynomial in r^2 times r, cos (even).
fn series(odd: bool, n: usize) -> Vec<f64> {
    let mut v = Vec::new();
    let mut fact = 1.0f64;
    let mut k = 0u32;
    let mut sign = 1.0;
    while v.len() < n {
        if k > 0 {
            fact *= k as f64;
        }
        if (k % 2 == 1) == odd {
            v.push(sign / fact);
            sign = -sign;
        }
        k += 1;
    }
    v
}

/// Quadrant (i64, 0..3) and reduced argument (f64) of |x| for binary32 bits `a`
/// (sign cleared) with a biased exponent of 126 or more.
fn payne_hanek(b: &mut B, a: OpId) -> (OpId, OpId) {
    let eb = b.ic(BinOp::LShr, a, 23);
    let mant = b.ic(BinOp::And, a, 0x7F_FFFF);
    let m = b.ic(BinOp::Or, mant, 0x80_0000);
    // Window start in table bits (from the zero word's top bit): E - 2 + 32.
    let s = b.ic(BinOp::Sub, eb, 120);
    let neg = b.icmpc(CmpOp::SLt, s, 0);
    let zero = b.i(0);
    let s = b.sel(I64, neg, zero, s);
    let wi = b.ic(BinOp::LShr, s, 5);
    let sh = b.ic(BinOp::And, s, 31);
    let n_words = TWO_OVER_PI.len() - 3;
    let is: Vec<OpId> = (0..n_words)
        .map(|j| b.icmpc(CmpOp::Eq, wi, j as i64))
        .collect();
    let word = |b: &mut B, k: usize| {
        let mut v = b.i(TWO_OVER_PI[k]);
        for (j, c) in is.iter().enumerate().skip(1) {
            let t = b.i(TWO_OVER_PI[j + k]);
            v = b.sel(I64, *c, t, v);
        }
        v
    };
    let t: Vec<OpId> = (0..4).map(|k| word(b, k)).collect();
    let back = b.i(32);
    let rs = b.bin(BinOp::Sub, I64, back, sh);
    let w: Vec<OpId> = (0..3)
        .map(|k| {
            let hi = b.ic(BinOp::Shl, t[k], 32);
            let pair = b.bin(BinOp::Or, I64, hi, t[k + 1]);
            let sw = b.bin(BinOp::LShr, I64, pair, rs);
            b.ic(BinOp::And, sw, M32)
        })
        .collect();
    let p: Vec<OpId> = w.iter().map(|&wk| b.bin(BinOp::Mul, I64, m, wk)).collect();
    // Bits 32..95 of p0 2^64 + p1 2^32 + p2.
    let p2h = b.ic(BinOp::LShr, p[2], 32);
    let p1l = b.ic(BinOp::And, p[1], M32);
    let c1 = b.bin(BinOp::Add, I64, p2h, p1l);
    let c1h = b.ic(BinOp::LShr, c1, 32);
    let p1h = b.ic(BinOp::LShr, p[1], 32);
    let p0l = b.ic(BinOp::And, p[0], M32);
    let c2 = b.bin(BinOp::Add, I64, c1h, p1h);
    let c2 = b.bin(BinOp::Add, I64, c2, p0l);
    let top = b.ic(BinOp::Shl, c2, 32);
    let c1l = b.ic(BinOp::And, c1, M32);
    let hi = b.bin(BinOp::Or, I64, top, c1l);
    let q = b.ic(BinOp::LShr, hi, 62);
    let frac = b.ic(BinOp::Shl, hi, 2);
    let up = b.ic(BinOp::LShr, frac, 63);
    let q = b.bin(BinOp::Add, I64, q, up);
    let q = b.ic(BinOp::And, q, 3);
    // The fraction as a signed fixed-point number in [-1/2, 1/2) of a quadrant.
    let fd = b.i_to_f(frac);
    let r = b.fmulc(
        fd,
        std::f64::consts::FRAC_PI_2 / 18_446_744_073_709_551_616.0,
    );
    (q, r)
}

pub(super) fn trig(b: &mut B, x: OpId, f: Fun) -> OpId {
    let xd = b.f32_to_f64(x);
    let xb = b.cast(I32, x);
    let xb = b.zext(xb);
    let a = b.ic(BinOp::And, xb, 0x7FFF_FFFF);
    let (q, r) = payne_hanek(b, a);
    let small = b.icmpc(CmpOp::SLt, a, 0x3F00_0000);
    let ax = b.fabs(xd);
    let r = b.sel(F64, small, ax, r);
    let zero = b.i(0);
    let q = b.sel(I64, small, zero, q);
    let q = match f {
        Fun::Cos => {
            let q1 = b.ic(BinOp::Add, q, 1);
            b.ic(BinOp::And, q1, 3)
        }
        _ => q,
    };
    let z = b.fmul(r, r);
    let sp = b.poly(z, &series(true, 7));
    let s = b.fmul(r, sp);
    let c = b.poly(z, &series(false, 8));
    let qodd = b.ic(BinOp::And, q, 1);
    let odd = b.icmpc(CmpOp::Ne, qodd, 0);
    let v = match f {
        Fun::Tan => {
            // tan = sin/cos in even quadrants, -cos/sin in odd ones (there |s| is far
            // above binary32's smallest normal: no binary32 argument lies that close to
            // an odd multiple of pi/2, so the binary32 reciprocal of s is exact enough).
            let t = super::explog::quotient(b, s, c);
            let ct = super::explog::quotient(b, c, s);
            let nct = b.fneg(F64, ct);
            b.sel(F64, odd, nct, t)
        }
        _ => {
            let v = b.sel(F64, odd, c, s);
            let q2 = b.ic(BinOp::And, q, 2);
            let neg = b.icmpc(CmpOp::Ne, q2, 0);
            let nv = b.fneg(F64, v);
            b.sel(F64, neg, nv, v)
        }
    };
    let v = match f {
        Fun::Cos => v,
        _ => {
            let sign = b.ic(BinOp::And, xb, 0x8000_0000);
            let sx = b.icmpc(CmpOp::Ne, sign, 0);
            let nv = b.fneg(F64, v);
            b.sel(F64, sx, nv, v)
        }
    };
    let r = b.f64_to_f32(v);
    let inf = b.icmpc(CmpOp::Eq, a, 0x7F80_0000);
    let dn = b.bits(F32, DEFAULT_NAN32);
    let r = b.sel(F32, inf, dn, r);
    let nan = b.is_nan32(x);
    let qn = b.f64_to_f32(xd);
    b.sel(F32, nan, qn, r)
}
