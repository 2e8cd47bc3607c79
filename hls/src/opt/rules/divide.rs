//! Division and remainder by constants that are not powers of two, as a multiply by a
//! "magic" reciprocal and a shift (Granlund and Montgomery; Hacker's Delight ch. 10):
//! `x / d` is `(x * M) >> p` for `M = ceil(2^p / d)` once `M*d - 2^p <= 2^(p - n)`, with
//! `n` the bits of `x`'s magnitude (from its bound, for unsigned division). The product
//! is computed at 32 or 64 bits (the IR has no wider integers), so this applies where
//! `x` and `M` fit 64 bits together; the remainder is `x - (x / d) * d`, whose multiply
//! the strength rules may turn into adds.

use egg::{Id, Subst};

use super::{build, c, v, Cond::*, Rule};
use crate::opt::facts::{hi, konst, width, Graph};
use crate::opt::lang::{sext, Bin, ICmp, Node};

/// The smallest `(M, p)` with `p >= n` and `M*d - 2^p <= 2^(p-n)`.
pub fn magic(d: u64, n: u32) -> (u128, u32) {
    let d = d as u128;
    let mut p = n;
    loop {
        let m = (1u128 << p).div_ceil(d);
        if m * d - (1u128 << p) <= 1u128 << (p - n) {
            return (m, p);
        }
        p += 1;
    }
}

fn bin(g: &mut Graph, op: Bin, a: Id, b: Id) -> Id {
    g.add(Node::Bin(op, [a, b]))
}

/// `x` brought to `w` bits: zero-extended or truncated.
fn zext_to(g: &mut Graph, x: Id, w: u32) -> Id {
    match width(g, x).cmp(&w) {
        std::cmp::Ordering::Equal => x,
        std::cmp::Ordering::Less => g.add(Node::ZExt(w as u8, x)),
        std::cmp::Ordering::Greater => g.add(Node::Trunc(w as u8, x)),
    }
}

/// Unsigned `x / d` for `d` neither 0 nor a power of two. The magic number is sized for
/// the bits `x`'s values need (its bound), after the divisor's factor of two is shifted
/// out of both (`x / 12 = (x >> 2) / 3`): the smaller the operands, the smaller the
/// multiplier. `x` below `d` gives 0.
fn udiv_magic(g: &mut Graph, x: Id, d: u64) -> Option<Id> {
    let w = width(g, x);
    if d == 0 || d.is_power_of_two() {
        return None;
    }
    let hx = hi(g, x);
    if hx < d {
        return Some(c(g, w, 0));
    }
    if d > 1u64 << (w - 1) {
        // The quotient is 0 or 1.
        let dc = c(g, w, d);
        let ge = g.add(Node::Cmp(ICmp::UGe, [x, dc]));
        return Some(g.add(Node::ZExt(w as u8, ge)));
    }
    let s = d.trailing_zeros();
    let (d, xs) = if s == 0 {
        (d, x)
    } else {
        let sc = c(g, w, s as u64);
        (d >> s, bin(g, Bin::LShr, x, sc))
    };
    // The bits of x >> s.
    let n = (64 - (hx >> s).leading_zeros()).max(1);
    let (m, p) = magic(d, n);
    let mbits = 128 - m.leading_zeros();
    let q = if n + mbits <= 64 {
        let wide = w.max(if n + mbits <= 32 { 32 } else { 64 });
        let xw = zext_to(g, xs, wide);
        let mc = c(g, wide, m as u64);
        let prod = bin(g, Bin::Mul, xw, mc);
        let pc = c(g, wide, p as u64);
        bin(g, Bin::LShr, prod, pc)
    } else if n == 32 && mbits == 33 && p >= 32 {
        // A 33-bit M for 32-bit x: x*M = x*(M - 2^32) + (x << 32); the high part is
        // added after the first shift, where it cannot overflow.
        let xw = zext_to(g, xs, 64);
        let mc = c(g, 64, (m - (1u128 << 32)) as u64);
        let prod = bin(g, Bin::Mul, xw, mc);
        let c32 = c(g, 64, 32);
        let hi = bin(g, Bin::LShr, prod, c32);
        let sum = bin(g, Bin::Add, hi, xw);
        let pc = c(g, 64, (p - 32) as u64);
        bin(g, Bin::LShr, sum, pc)
    } else {
        return None;
    };
    Some(zext_to(g, q, w))
}

/// Signed `x / d` (rounding toward zero) for `x` of `w <= 32` bits and `|d|` at least 3,
/// below `2^(w-1)` and not a power of two.
fn sdiv_magic(g: &mut Graph, x: Id, d: u64) -> Option<Id> {
    let w = width(g, x);
    if !(3..=32).contains(&w) {
        return None;
    }
    let ds = sext(d, w);
    let a = ds.unsigned_abs();
    if a < 3 || a.is_power_of_two() || a >= 1u64 << (w - 1) {
        return None;
    }
    let (m, p) = magic(a, w - 1);
    // |x| <= 2^(w-1), so |x*M| <= 2^(w-1) * M must stay below 2^(wide-1).
    let mbits = 128 - m.leading_zeros();
    let wide: u32 = if w - 1 + mbits < 32 { 32 } else { 64 };
    let xw = if wide == w {
        x
    } else {
        g.add(Node::SExt(wide as u8, x))
    };
    let mc = c(g, wide, m as u64);
    let prod = bin(g, Bin::Mul, xw, mc);
    let pc = c(g, wide, p as u64);
    let floor = bin(g, Bin::AShr, prod, pc);
    // + 1 for negative x turns the floor into truncation (M*d > 2^p, so exact quotients
    // of negative x fall just below the integer too).
    let top = c(g, wide, (wide - 1) as u64);
    let neg = bin(g, Bin::LShr, xw, top);
    let q = bin(g, Bin::Add, floor, neg);
    let q = if wide == w {
        q
    } else {
        g.add(Node::Trunc(w as u8, q))
    };
    Some(if ds < 0 { g.add(Node::Neg(q)) } else { q })
}

fn divisor(g: &Graph, s: &Subst) -> Option<(Id, u64)> {
    Some((v(s, "?x"), konst(g, v(s, "?c"))?))
}

fn udiv(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let (x, d) = divisor(g, s)?;
    udiv_magic(g, x, d)
}

fn sdiv(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let (x, d) = divisor(g, s)?;
    sdiv_magic(g, x, d)
}

/// `x - q * d` for the quotient `q` the magic division gives.
fn rem(g: &mut Graph, s: &Subst, signed: bool) -> Option<Id> {
    let (x, d) = divisor(g, s)?;
    let q = if signed {
        sdiv_magic(g, x, d)?
    } else {
        udiv_magic(g, x, d)?
    };
    let dc = v(s, "?c");
    let back = bin(g, Bin::Mul, q, dc);
    Some(bin(g, Bin::Sub, x, back))
}

fn urem(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    rem(g, s, false)
}

fn srem(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    rem(g, s, true)
}

pub fn rules() -> Vec<Rule> {
    let k = [Const("?c"), NotConst("?x")];
    vec![
        build("udiv-magic", "(udiv ?x ?c)", udiv, &k),
        build("sdiv-magic", "(sdiv ?x ?c)", sdiv, &k),
        build("urem-magic", "(urem ?x ?c)", urem, &k),
        build("srem-magic", "(srem ?x ?c)", srem, &k),
    ]
}

#[cfg(test)]
mod tests {
    use super::magic;

    #[test]
    fn magic_numbers_match_the_known_ones() {
        // Hacker's Delight table 10-2: /3 at 32 bits is 0xAAAAAAAB >> 33, /7 needs 33 bits.
        assert_eq!(magic(3, 32), (0xAAAA_AAAB, 33));
        assert_eq!(magic(7, 32), (0x1_2492_4925, 35));
        assert_eq!(magic(5, 31), (0x6666_6667, 33));
    }
}
