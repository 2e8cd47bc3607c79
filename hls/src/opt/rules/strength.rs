//! Strength reduction: a multiply by a constant as shifts and adds of its canonical
//! signed digits (at most three, so at most two adders replace the DSP; extraction keeps
//! whichever the board prices lower), and division and remainder by powers of two as
//! shifts and masks, with the rounding-toward-zero correction for signed division.

use egg::{Id, Subst};

use super::{build, c, v, Cond::*, Rule};
use crate::opt::facts::{hi, konst, width, Graph};
use crate::opt::lang::{mask, Bin, Node};

/// The most nonzero digits a multiply is expanded into.
const MAX_DIGITS: usize = 3;

/// The non-adjacent form of `k` modulo `2^w`: (shift, +1 or -1) pairs, fewest digits.
pub fn signed_digits(k: u64, w: u32) -> Vec<(u32, i8)> {
    let mut k = k as u128;
    let mut out = Vec::new();
    let mut shift = 0;
    while k != 0 && shift < w {
        if k & 1 == 1 {
            let d: i8 = if k & 3 == 1 { 1 } else { -1 };
            k = if d == 1 { k - 1 } else { k + 1 };
            out.push((shift, d));
        }
        k >>= 1;
        shift += 1;
    }
    out
}

/// The digits a multiply by `k` (modulo `2^w`) expands into: its plain binary digits
/// where they are no more than the signed ones (50 = 32 + 16 + 2, not 64 - 16 + 2), as
/// sums of non-negative terms keep the range analysis' bounds (an address `50 x group +
/// lid` stays provably affine); else the non-adjacent form.
pub fn digits(k: u64, w: u32) -> Vec<(u32, i8)> {
    let k = k & (u64::MAX >> (64 - w.clamp(1, 64)));
    match signed_digits(k, w) {
        d if (k.count_ones() as usize) <= d.len() => (0..w.min(64))
            .filter(|b| k >> b & 1 == 1)
            .map(|b| (b, 1))
            .collect(),
        d => d,
    }
}

fn bin(g: &mut Graph, op: Bin, a: Id, b: Id) -> Id {
    g.add(Node::Bin(op, [a, b]))
}

fn shifted(g: &mut Graph, x: Id, k: u32) -> Id {
    if k == 0 {
        return x;
    }
    let w = width(g, x);
    let kc = c(g, w, k as u64);
    bin(g, Bin::Shl, x, kc)
}

/// `x * k` as `±(x << a) ± (x << b) ...`.
fn mul_digits(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let (x, k) = (v(s, "?x"), v(s, "?c"));
    let w = width(g, x);
    let k = konst(g, k)?;
    let digits = digits(k, w);
    let single_pow2 = digits.len() == 1 && digits[0].1 == 1;
    if digits.is_empty() || single_pow2 || digits.len() > MAX_DIGITS {
        return None;
    }
    // Start from a positive digit so that no negation is needed if there is one.
    let first = digits.iter().position(|d| d.1 == 1);
    let (mut acc, rest): (Id, Vec<(u32, i8)>) = match first {
        Some(i) => {
            let t = shifted(g, x, digits[i].0);
            let rest = digits
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, d)| *d)
                .collect();
            (t, rest)
        }
        None => {
            let t = shifted(g, x, digits[0].0);
            (g.add(Node::Neg(t)), digits[1..].to_vec())
        }
    };
    for (k, d) in rest {
        let t = shifted(g, x, k);
        acc = bin(g, if d == 1 { Bin::Add } else { Bin::Sub }, acc, t);
    }
    Some(acc)
}

/// log2 of a power-of-two constant class.
fn pow2(g: &Graph, id: Id) -> Option<u32> {
    konst(g, id)
        .filter(|k| k.is_power_of_two())
        .map(u64::trailing_zeros)
}

fn udiv_pow2(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let (x, d) = (v(s, "?x"), v(s, "?c"));
    let k = pow2(g, d)?;
    let w = width(g, x);
    let kc = c(g, w, k as u64);
    Some(bin(g, Bin::LShr, x, kc))
}

fn urem_pow2(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let (x, d) = (v(s, "?x"), v(s, "?c"));
    let k = pow2(g, d)?;
    let w = width(g, x);
    let m = c(g, w, mask(k));
    Some(bin(g, Bin::And, x, m))
}

/// `x + (2^k - 1 if x < 0 else 0)`: the bias that makes an arithmetic shift round toward
/// zero, for `2^k` below the sign bit.
fn biased(g: &mut Graph, x: Id, k: u32) -> Option<(Id, u32)> {
    let w = width(g, x);
    if k == 0 || k + 1 >= w {
        return None;
    }
    let sign = c(g, w, (w - 1) as u64);
    let ones = bin(g, Bin::AShr, x, sign);
    let sh = c(g, w, (w - k) as u64);
    let bias = bin(g, Bin::LShr, ones, sh);
    Some((bin(g, Bin::Add, x, bias), w))
}

fn sdiv_pow2(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let (x, d) = (v(s, "?x"), v(s, "?c"));
    let k = pow2(g, d)?;
    let (t, w) = biased(g, x, k)?;
    let kc = c(g, w, k as u64);
    Some(bin(g, Bin::AShr, t, kc))
}

fn srem_pow2(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let (x, d) = (v(s, "?x"), v(s, "?c"));
    let k = pow2(g, d)?;
    let (t, w) = biased(g, x, k)?;
    let m = c(g, w, !mask(k));
    let down = bin(g, Bin::And, t, m);
    Some(bin(g, Bin::Sub, x, down))
}

/// The input width of the DSP multipliers a split product is built around (Cyclone V's
/// 27x27; a board with narrower ones prices the split form higher and keeps the product).
const DSP_BITS: u32 = 27;

/// The widest cross term a split product adds (its two small multiplies are this wide).
const MAX_CROSS_BITS: u32 = 9;

/// A product of `w` bits, `DSP_BITS < w <= DSP_BITS + MAX_CROSS_BITS`, kept to its low
/// `w` bits as one full-width DSP multiply of the operands' low 27 bits plus two
/// `w - 27`-bit cross products added into its top bits:
/// `x*y mod 2^w = xl*yl + 2^27 (xh*yl + xl*yh) mod 2^w` (`xh*yh` is shifted out), and the
/// cross terms matter only modulo `2^(w-27)`. Synthesis builds a 32-bit product as three
/// DSP multipliers and a 32-bit adder tree, not knowing the high product is discarded;
/// this form needs one 27x27 multiplier, two 5x5 ones and a 5-bit add.
fn mul_split(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let (x, y) = (v(s, "?x"), v(s, "?y"));
    let w = width(g, x);
    if w <= DSP_BITS || w > DSP_BITS + MAX_CROSS_BITS {
        return None;
    }
    // Operands that fit the DSP already make one multiplier.
    if hi(g, x) >> DSP_BITS == 0 && hi(g, y) >> DSP_BITS == 0 {
        return None;
    }
    // So does a sign-extended narrow operand, which synthesis narrows to its sign (a
    // signed product), where the split would see 27 bits of replicated sign.
    let sext_narrow = |g: &Graph, z: Id| {
        g[z].nodes
            .iter()
            .any(|n| matches!(n, Node::SExt(_, a) if width(g, *a) <= DSP_BITS))
    };
    if sext_narrow(g, x) || sext_narrow(g, y) {
        return None;
    }
    let h = w - DSP_BITS;
    let low = |g: &mut Graph, z: Id| {
        let t = g.add(Node::Trunc(DSP_BITS as u8, z));
        g.add(Node::ZExt(w as u8, t))
    };
    let (xl, yl) = (low(g, x), low(g, y));
    let lo = bin(g, Bin::Mul, xl, yl);
    let sh = c(g, w, DSP_BITS as u64);
    let part = |g: &mut Graph, z: Id, high: bool| {
        let z = if high { bin(g, Bin::LShr, z, sh) } else { z };
        g.add(Node::Trunc(h as u8, z))
    };
    let (xh, yh) = (part(g, x, true), part(g, y, true));
    let (xs, ys) = (part(g, x, false), part(g, y, false));
    let a = bin(g, Bin::Mul, xh, ys);
    let b = bin(g, Bin::Mul, xs, yh);
    let cross = bin(g, Bin::Add, a, b);
    let lo_top = part(g, lo, true);
    let top = bin(g, Bin::Add, lo_top, cross);
    let top = g.add(Node::ZExt(w as u8, top));
    let top = bin(g, Bin::Shl, top, sh);
    let lo_low = low(g, lo);
    Some(bin(g, Bin::Or, lo_low, top))
}

pub fn rules() -> Vec<Rule> {
    let k = [Const("?c"), NotConst("?x")];
    vec![
        build("mul-shift-add", "(mul ?x ?c)", mul_digits, &k),
        build(
            "mul-split-dsp",
            "(mul ?x ?y)",
            mul_split,
            &[NotConst("?x"), NotConst("?y")],
        ),
        build("udiv-pow2", "(udiv ?x ?c)", udiv_pow2, &k),
        build("urem-pow2", "(urem ?x ?c)", urem_pow2, &k),
        build("sdiv-pow2", "(sdiv ?x ?c)", sdiv_pow2, &k),
        build("srem-pow2", "(srem ?x ?c)", srem_pow2, &k),
    ]
}

#[cfg(test)]
mod tests {
    use super::{digits, signed_digits};

    #[test]
    fn digits_are_the_non_adjacent_form() {
        assert_eq!(signed_digits(10, 32), vec![(1, 1), (3, 1)]);
        // 7 = 8 - 1
        assert_eq!(signed_digits(7, 32), vec![(0, -1), (3, 1)]);
        // -4 at 8 bits: 252 = 256 - 4, and 256 vanishes modulo 2^8.
        assert_eq!(signed_digits(252, 8), vec![(2, -1)]);
    }

    #[test]
    fn binary_digits_win_ties() {
        // 50 = 32 + 16 + 2 (the signed form 64 - 16 + 2 has as many digits).
        assert_eq!(digits(50, 32), vec![(1, 1), (4, 1), (5, 1)]);
        assert_eq!(digits(10, 32), vec![(1, 1), (3, 1)]);
        // Fewer signed digits still win: 7 = 8 - 1, 252 = -4 at 8 bits.
        assert_eq!(digits(7, 32), vec![(0, -1), (3, 1)]);
        assert_eq!(digits(252, 8), vec![(2, -1)]);
    }
}
