//! Correctly rounded binary32 math built-ins as combinational bit manipulation, lane by
//! lane: floor, ceil, trunc, round, rint and float clamp, bit for bit as the interpreter
//! computes them (f64 evaluation on x86: a NaN comes back quiet with its payload).

use super::ops::{concat, lane};
use super::Gen;
use crate::ir::Ty;
use crate::rtl::expr::{BinOp, Expr, UnOp};
use crate::rtl::netlist::NetId;

const SIGN: u64 = 0x8000_0000;
const MANT: u64 = 0x007F_FFFF;
const QUIET: u64 = 0x0040_0000;
const ONE: u64 = 0x3F80_0000;

/// The integer-rounding functions of one binary32 argument.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rounding {
    Floor,
    Ceil,
    Trunc,
    Round,
    Rint,
}

fn lit(v: u64) -> Expr {
    Expr::lit(32, v)
}

fn and(a: Expr, b: Expr) -> Expr {
    Expr::bin(BinOp::And, a, b)
}

fn or(a: Expr, b: Expr) -> Expr {
    Expr::bin(BinOp::Or, a, b)
}

fn eq(a: Expr, b: Expr) -> Expr {
    Expr::bin(BinOp::Eq, a, b)
}

fn nonzero(a: Expr) -> Expr {
    Expr::bin(BinOp::Ne, a, lit(0))
}

impl Gen<'_> {
    /// A 32-bit wire holding `e`, so that it can be sliced and shared.
    fn wire32(&mut self, e: Expr) -> NetId {
        let name = self.fresh("mx");
        let n = self.m.wire(&name, 32);
        self.m.assign(n, e);
        n
    }

    /// The value of exact math built-in `name` on f32 operands, or `None` when it is not
    /// one of them (or not f32).
    pub(super) fn math_exact(&mut self, name: &str, nets: &[NetId], tys: &[Ty]) -> Option<Expr> {
        if tys.iter().any(|t| t.elem() != &Ty::F32) {
            return None;
        }
        let lanes = tys.iter().map(|t| t.lanes() as u32).max()?;
        let at = |k: usize, i: u32| lane(nets[k], i, 32, tys[k].lanes() as u32);
        let r = match (name, nets.len()) {
            ("floor", 1) => Rounding::Floor,
            ("ceil", 1) => Rounding::Ceil,
            ("trunc", 1) => Rounding::Trunc,
            ("round", 1) => Rounding::Round,
            ("rint", 1) => Rounding::Rint,
            ("clamp", 3) => {
                let v = (0..lanes)
                    .map(|i| self.clamp32(at(0, i), at(1, i), at(2, i)))
                    .collect();
                return Some(concat(v));
            }
            _ => return None,
        };
        let v = (0..lanes).map(|i| self.round32(r, at(0, i))).collect();
        Some(concat(v))
    }

    /// `x > y` on binary32 bit patterns, false when either is NaN; zeros are equal.
    fn fgt(&mut self, x: NetId, y: NetId) -> Expr {
        let nan = |n: NetId| {
            Expr::bin(
                BinOp::Gt,
                and(Expr::Net(n), lit(!SIGN & 0xFFFF_FFFF)),
                lit(0x7F80_0000),
            )
        };
        let any_nan = Expr::lor(nan(x), nan(y));
        // Sign-magnitude to an order-preserving unsigned key; -0 and +0 map together.
        let key = |n: NetId| {
            let neg = Expr::bit(n, 31);
            let mag = and(Expr::Net(n), lit(!SIGN & 0xFFFF_FFFF));
            Expr::mux(
                neg,
                Expr::bin(BinOp::Sub, lit(SIGN), mag.clone()),
                Expr::bin(BinOp::Add, lit(SIGN), mag),
            )
        };
        Expr::land(Expr::lnot(any_nan), Expr::bin(BinOp::Gt, key(x), key(y)))
    }

    /// POCL's float `clamp`: `min(max(a, lo), hi)` with plain comparisons (a NaN on the
    /// right wins), the result through f64 so a NaN comes back quiet.
    fn clamp32(&mut self, a: Expr, lo: Expr, hi: Expr) -> Expr {
        let (a, lo, hi) = (self.wire32(a), self.wire32(lo), self.wire32(hi));
        let gt = self.fgt(a, lo);
        let m = self.wire32(Expr::mux(gt, Expr::Net(a), Expr::Net(lo)));
        let lt = self.fgt(hi, m);
        let r = self.wire32(Expr::mux(lt, Expr::Net(m), Expr::Net(hi)));
        self.quieted(r)
    }

    /// `r`, with the quiet bit set if it is a NaN.
    fn quieted(&mut self, r: NetId) -> Expr {
        let nan = Expr::bin(
            BinOp::Gt,
            and(Expr::Net(r), lit(!SIGN & 0xFFFF_FFFF)),
            lit(0x7F80_0000),
        );
        Expr::mux(nan, or(Expr::Net(r), lit(QUIET)), Expr::Net(r))
    }

    /// One lane of floor/ceil/trunc/round/rint on binary32 bits.
    fn round32(&mut self, r: Rounding, x: Expr) -> Expr {
        let x = self.wire32(x);
        let neg = Expr::bit(x, 31);
        let exp = Expr::Slice {
            net: x,
            hi: 30,
            lo: 23,
        };
        let e_ge = |v: u64| Expr::bin(BinOp::Ge, exp.clone(), Expr::lit(8, v));
        let e_eq = |v: u64| Expr::bin(BinOp::Eq, exp.clone(), Expr::lit(8, v));
        // For 127 <= exp < 150: the fraction bits below the binary point.
        let shift = Expr::Concat(vec![
            Expr::lit(24, 0),
            Expr::bin(BinOp::Sub, exp.clone(), Expr::lit(8, 127)),
        ]);
        let fm = self.wire32(Expr::bin(BinOp::Shr, lit(MANT), shift));
        let frac = self.wire32(and(Expr::Net(x), Expr::Net(fm)));
        let int = self.wire32(and(Expr::Net(x), Expr::un(UnOp::Not, Expr::Net(fm))));
        let unit = Expr::bin(BinOp::Add, Expr::Net(fm), lit(1));
        // The integer part one unit further from zero (the carry may bump the exponent).
        let away = Expr::bin(BinOp::Add, Expr::Net(int), unit.clone());
        let half = Expr::bin(BinOp::Shr, unit.clone(), lit(1));
        let has_frac = nonzero(Expr::Net(frac));
        let up = match r {
            Rounding::Trunc => Expr::lit(1, 0),
            Rounding::Floor => Expr::land(neg.clone(), has_frac),
            Rounding::Ceil => Expr::land(Expr::lnot(neg.clone()), has_frac),
            Rounding::Round => Expr::bin(BinOp::Ge, Expr::Net(frac), half),
            Rounding::Rint => {
                let odd = nonzero(and(Expr::Net(x), unit));
                let gt = Expr::bin(BinOp::Gt, Expr::Net(frac), half.clone());
                let tie = eq(Expr::Net(frac), half);
                Expr::lor(gt, Expr::land(tie, odd))
            }
        };
        let mid = Expr::mux(up, away, Expr::Net(int));
        // |x| < 1: zero or one of x's sign.
        let signed_zero = and(Expr::Net(x), lit(SIGN));
        let signed_one = or(signed_zero.clone(), lit(ONE));
        let nonzero_mag = nonzero(and(Expr::Net(x), lit(!SIGN & 0xFFFF_FFFF)));
        let small_up = match r {
            Rounding::Trunc => Expr::lit(1, 0),
            Rounding::Floor => Expr::land(neg.clone(), nonzero_mag),
            Rounding::Ceil => Expr::land(Expr::lnot(neg), nonzero_mag),
            Rounding::Round => e_eq(126),
            // 0.5 < |x| < 1 rounds to one; exactly 0.5 to zero (even).
            Rounding::Rint => Expr::land(e_eq(126), nonzero(and(Expr::Net(x), lit(MANT)))),
        };
        let small = Expr::mux(small_up, signed_one, signed_zero);
        let big = self.quieted(x);
        Expr::mux(e_ge(150), big, Expr::mux(e_ge(127), mid, small))
    }
}
