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

/// `x > (a + 1) * c - 1` (`above`) or `x < a * c` for a match of a quotient by `c`
/// compared with `a`, when `c` is positive, `a` not negative (at least 1 below) and the
/// new constant fits, all as `signed` says.
fn dividend_compare(g: &mut Graph, s: &Subst, signed: bool, above: bool) -> Option<Id> {
    let x = v(s, "?x");
    let w = width(g, x);
    let (d, a) = (konst(g, v(s, "?c"))?, konst(g, v(s, "?a"))?);
    let max = if signed { mask(w) >> 1 } else { mask(w) };
    if d == 0 || d > max || a > max {
        return None;
    }
    let k = if above {
        a.checked_add(1)?.checked_mul(d)? - 1
    } else {
        a.checked_mul(d).filter(|_| a >= 1)?
    };
    if k > max {
        return None;
    }
    let op = match (signed, above) {
        (true, true) => ICmp::SGt,
        (false, true) => ICmp::UGt,
        (true, false) => ICmp::SLt,
        (false, false) => ICmp::ULt,
    };
    let k = c(g, w, k);
    Some(g.add(Node::Cmp(op, [x, k])))
}

fn sgt(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    dividend_compare(g, s, true, true)
}

fn ugt(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    dividend_compare(g, s, false, true)
}

fn slt(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    dividend_compare(g, s, true, false)
}

fn ult(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    dividend_compare(g, s, false, false)
}

pub fn rules() -> Vec<Rule> {
    vec![
        build("sgt-quotient", "(sgt (sdiv ?x ?c) ?a)", sgt, &[]),
        build("slt-quotient", "(slt (sdiv ?x ?c) ?a)", slt, &[]),
        build("ugt-quotient", "(ugt (udiv ?x ?c) ?a)", ugt, &[]),
        build("ult-quotient", "(ult (udiv ?x ?c) ?a)", ult, &[]),
    ]
}
