//! Compares of a quotient by a positive constant with a constant, as compares of the
//! dividend: `n / 8 > 0` is `n > 7`, and `n / 8 < 3` is `n < 24`, with no divider, nor
//! the rounding adder of a signed division by a power of two. For `q = x / c`
//! (truncating, `c >= 1`) and `a >= 0`: `q > a` exactly when `x >= (a + 1) * c`, and for
//! `a >= 1`, `q < a` exactly when `x < a * c` (a positive quotient is `x`'s floor
//! division, and a negative `x` gives `q <= 0`). The rules apply where the new constant
//! fits the compare's width.

use egg::{Id, Subst};

use super::{build, c, v, Rule};
use crate::opt::facts::{konst, width, Graph};
use crate::opt::lang::{mask, ICmp, Node};

/// The divisor, bound and width of a match, when the divisor is positive and the bound
/// not negative (both as `signed` says).
fn parts(g: &Graph, s: &Subst, signed: bool) -> Option<(u64, u64, u32)> {
    let w = width(g, v(s, "?x"));
    let (d, a) = (konst(g, v(s, "?c"))?, konst(g, v(s, "?a"))?);
    let max = if signed { mask(w) >> 1 } else { mask(w) };
    (d >= 1 && d <= max && a <= max).then_some((d, a, w))
}

fn above(signed: bool) -> impl Fn(&mut Graph, Id, &Subst) -> Option<Id> {
    move |g: &mut Graph, _e: Id, s: &Subst| {
        let (d, a, w) = parts(g, s, signed)?;
        let max = if signed { mask(w) >> 1 } else { mask(w) };
        let k = (a + 1)
            .checked_mul(d)?
            .checked_sub(1)
            .filter(|k| *k <= max)?;
        let x = v(s, "?x");
        let k = c(g, w, k);
        let op = if signed { ICmp::SGt } else { ICmp::UGt };
        Some(g.add(Node::Cmp(op, [x, k])))
    }
}

fn below(signed: bool) -> impl Fn(&mut Graph, Id, &Subst) -> Option<Id> {
    move |g: &mut Graph, _e: Id, s: &Subst| {
        let (d, a, w) = parts(g, s, signed)?;
        let max = if signed { mask(w) >> 1 } else { mask(w) };
        let k = a.checked_mul(d).filter(|k| a >= 1 && *k <= max)?;
        let x = v(s, "?x");
        let k = c(g, w, k);
        let op = if signed { ICmp::SLt } else { ICmp::ULt };
        Some(g.add(Node::Cmp(op, [x, k])))
    }
}

fn sgt(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    above(true)(g, e, s)
}

fn ugt(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    above(false)(g, e, s)
}

fn slt(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    below(true)(g, e, s)
}

fn ult(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    below(false)(g, e, s)
}

pub fn rules() -> Vec<Rule> {
    vec![
        build("sgt-quotient", "(sgt (sdiv ?x ?c) ?a)", sgt, &[]),
        build("slt-quotient", "(slt (sdiv ?x ?c) ?a)", slt, &[]),
        build("ugt-quotient", "(ugt (udiv ?x ?c) ?a)", ugt, &[]),
        build("ult-quotient", "(ult (udiv ?x ?c) ?a)", ult, &[]),
    ]
}
