//! Evaluation of the arithmetic, comparison, conversion and lane ops on frame words.
//!
//! Integer division by zero and `MIN / -1` are undefined in OpenCL C; here they never
//! trap: `x / 0` gives all ones (-1 signed), `x % 0` gives `x`, `MIN / -1` gives `MIN`
//! and `MIN % -1` gives 0 (the RISC-V definitions).

use super::convert::{self, Fmt};
use super::value::{f32_of, f64_of, mask, of_f32, of_f64, sext, Ek, Shape};
use crate::ir::{AtomicOp, BinOp, CmpOp, Conv, UnOp};

#[inline]
pub fn unary(op: UnOp, ek: Ek, x: u64) -> u64 {
    let m = mask(ek.bits());
    match op {
        UnOp::Neg => x.wrapping_neg() & m,
        UnOp::Not => !x & m,
        UnOp::FNeg => x ^ (1u64 << (ek.bits() - 1)),
    }
}

#[inline]
fn int_bin(op: BinOp, bits: u32, x: u64, y: u64) -> u64 {
    let m = mask(bits);
    let r = match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::UDiv => x.checked_div(y).unwrap_or(u64::MAX),
        BinOp::URem => x.checked_rem(y).unwrap_or(x),
        BinOp::SDiv | BinOp::SRem => {
            let (sx, sy) = (sext(x, bits), sext(y, bits));
            if sy == 0 {
                if op == BinOp::SDiv {
                    u64::MAX
                } else {
                    x
                }
            } else if op == BinOp::SDiv {
                sx.wrapping_div(sy) as u64
            } else {
                sx.wrapping_rem(sy) as u64
            }
        }
        BinOp::Shl => x << (y % bits as u64),
        BinOp::LShr => x >> (y % bits as u64),
        BinOp::AShr => (sext(x, bits) >> (y % bits as u64)) as u64,
        BinOp::And => x & y,
        BinOp::Or => x | y,
        BinOp::Xor => x ^ y,
        BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv => 0,
    };
    r & m
}

#[inline]
pub fn binary(op: BinOp, ek: Ek, x: u64, y: u64) -> u64 {
    match ek {
        Ek::F32 => {
            let (a, b) = (f32_of(x), f32_of(y));
            of_f32(match op {
                BinOp::FAdd => a + b,
                BinOp::FSub => a - b,
                BinOp::FMul => a * b,
                BinOp::FDiv => a / b,
                _ => return int_bin(op, 32, x, y),
            })
        }
        Ek::F64 => {
            let (a, b) = (f64_of(x), f64_of(y));
            of_f64(match op {
                BinOp::FAdd => a + b,
                BinOp::FSub => a - b,
                BinOp::FMul => a * b,
                BinOp::FDiv => a / b,
                _ => return int_bin(op, 64, x, y),
            })
        }
        _ => int_bin(op, ek.bits(), x, y),
    }
}

#[inline]
pub fn compare(op: CmpOp, ek: Ek, x: u64, y: u64) -> bool {
    let bits = ek.bits();
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::SLt => sext(x, bits) < sext(y, bits),
        CmpOp::SLe => sext(x, bits) <= sext(y, bits),
        CmpOp::SGt => sext(x, bits) > sext(y, bits),
        CmpOp::SGe => sext(x, bits) >= sext(y, bits),
        CmpOp::ULt => x < y,
        CmpOp::ULe => x <= y,
        CmpOp::UGt => x > y,
        CmpOp::UGe => x >= y,
        _ => {
            let (a, b) = (super::value::float_of(ek, x), super::value::float_of(ek, y));
            match op {
                CmpOp::FEq => a == b,
                CmpOp::FLt => a < b,
                CmpOp::FLe => a <= b,
                CmpOp::FGt => a > b,
                CmpOp::FGe => a >= b,
                _ => a != b,
            }
        }
    }
}

pub fn fmt_of(ek: Ek) -> Fmt {
    match ek {
        Ek::F16 => Fmt::F16,
        Ek::F64 => Fmt::F64,
        _ => Fmt::F32,
    }
}

#[inline]
pub fn conv(c: Conv, from: Ek, to: Ek, x: u64) -> u64 {
    match c {
        Conv::Int {
            from_signed,
            to_signed,
            sat,
        } => convert::int_to_int(x, from.bits(), from_signed, to.bits(), to_signed, sat),
        Conv::FloatToInt {
            to_signed,
            round,
            sat,
        } => {
            let v = super::value::float_of(from, x);
            convert::float_to_int(v, to.bits(), to_signed, round, sat)
        }
        Conv::IntToFloat { from_signed, round } => {
            convert::int_to_float(x, from.bits(), from_signed, fmt_of(to), round)
        }
        Conv::Float { round } => convert::float_to_float(fmt_of(from), fmt_of(to), x, round),
    }
}

/// POCL's vector half stores (`vstore_halfN`) give NaNs the canonical quiet pattern with
/// the sign kept, unlike its scalar stores (0x7FFF, see `ieee.rs`); measured.
pub fn vector_half_nans(lanes: &mut [u64]) {
    for h in lanes {
        if *h & 0x7C00 == 0x7C00 && *h & 0x3FF != 0 {
            *h = (*h & 0x8000) | 0x7E00;
        }
    }
}

/// Reinterprets the bytes of a value as another type of the same store size.
pub fn bitcast(from: Shape, to: Shape, src: &[u64], dst: &mut [u64]) {
    let mut bytes = [0u8; 128];
    let fs = from.ek.store_size();
    for (l, w) in src.iter().enumerate().take(from.lanes as usize) {
        bytes[l * fs..l * fs + fs].copy_from_slice(&w.to_le_bytes()[..fs]);
    }
    let ts = to.ek.store_size();
    for (l, d) in dst.iter_mut().enumerate().take(to.lanes as usize) {
        let mut w = [0u8; 8];
        w[..ts].copy_from_slice(&bytes[l * ts..l * ts + ts]);
        *d = u64::from_le_bytes(w) & mask(to.ek.bits());
    }
}

/// The new memory value of an atomic read-modify-write (`None` for plain loads).
pub fn atomic(op: AtomicOp, ek: Ek, old: u64, a: u64, b: u64) -> Option<u64> {
    let bits = ek.bits();
    let m = mask(bits);
    Some(match op {
        AtomicOp::Add => old.wrapping_add(a) & m,
        AtomicOp::Sub => old.wrapping_sub(a) & m,
        AtomicOp::Xchg | AtomicOp::Store => a,
        AtomicOp::Inc => old.wrapping_add(1) & m,
        AtomicOp::Dec => old.wrapping_sub(1) & m,
        AtomicOp::CmpXchg => {
            if old == a {
                b
            } else {
                old
            }
        }
        AtomicOp::SMin => {
            if sext(a, bits) < sext(old, bits) {
                a
            } else {
                old
            }
        }
        AtomicOp::SMax => {
            if sext(a, bits) > sext(old, bits) {
                a
            } else {
                old
            }
        }
        AtomicOp::UMin => old.min(a),
        AtomicOp::UMax => old.max(a),
        AtomicOp::And => old & a,
        AtomicOp::Or => old | a,
        AtomicOp::Xor => old ^ a,
        AtomicOp::Load => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_edges() {
        let i32min = 0x8000_0000u64;
        let m1 = 0xFFFF_FFFFu64;
        assert_eq!(binary(BinOp::SDiv, Ek::I(32), i32min, m1), i32min);
        assert_eq!(binary(BinOp::SRem, Ek::I(32), i32min, m1), 0);
        assert_eq!(binary(BinOp::SDiv, Ek::I(32), 7, 0), m1);
        assert_eq!(binary(BinOp::URem, Ek::I(32), 7, 0), 7);
        // -7 / 2 = -3, -7 % 2 = -1 (truncation toward zero, remainder has dividend's sign)
        let m7 = (-7i32) as u32 as u64;
        assert_eq!(binary(BinOp::SDiv, Ek::I(32), m7, 2), (-3i32) as u32 as u64);
        assert_eq!(binary(BinOp::SRem, Ek::I(32), m7, 2), m1);
        assert_eq!(binary(BinOp::SRem, Ek::I(32), 7, (-2i32) as u32 as u64), 1);
        assert_eq!(binary(BinOp::AShr, Ek::I(8), 0x80, 7), 0xFF);
        assert_eq!(binary(BinOp::LShr, Ek::I(8), 0x80, 7), 1);
        assert_eq!(binary(BinOp::Shl, Ek::I(16), 0xFFFF, 4), 0xFFF0);
        assert_eq!(binary(BinOp::Add, Ek::I(8), 200, 100), 44);
        assert_eq!(unary(UnOp::Neg, Ek::I(32), 1), m1);
        assert_eq!(unary(UnOp::FNeg, Ek::F32, of_f32(0.0)), of_f32(-0.0));
        assert!(compare(CmpOp::SLt, Ek::I(32), m1, 0));
        assert!(!compare(CmpOp::ULt, Ek::I(32), m1, 0));
    }

    #[test]
    fn float_compare_nan() {
        let n = of_f32(f32::NAN);
        let one = of_f32(1.0);
        assert!(!compare(CmpOp::FEq, Ek::F32, n, n));
        assert!(compare(CmpOp::FNe, Ek::F32, n, one));
        assert!(!compare(CmpOp::FLt, Ek::F32, n, one));
        assert!(compare(CmpOp::FEq, Ek::F32, of_f32(0.0), of_f32(-0.0)));
    }

    #[test]
    fn bitcast_vectors() {
        let from = Shape {
            ek: Ek::I(32),
            lanes: 2,
        };
        let to = Shape {
            ek: Ek::I(64),
            lanes: 1,
        };
        let mut d = [0u64; 1];
        bitcast(from, to, &[0x1111_2222, 0x3333_4444], &mut d);
        assert_eq!(d[0], 0x3333_4444_1111_2222);
    }
}
