//! Division and remainder pairs: a remainder whose quotient the block computes anyway is
//! `x - (x / y) * y`, a multiply and a subtraction instead of a second divider (LLVM's
//! `DivRemPairs` does the same for targets without a combined instruction). The identity
//! holds for every input by the IR's definitions: `y = 0` gives the quotient all ones
//! and `x - (-1) * 0 = x`, the remainder by zero; signed `MIN / -1` is `MIN` and
//! `MIN - MIN * -1 = 0`, its remainder. Extraction (`extract.rs`) counts the shared
//! quotient once, so the form is kept only where the quotient is built anyway.

use egg::{Id, Subst};

use super::{build, v, Cond::*, Rule};
use crate::opt::facts::Graph;
use crate::opt::lang::{Bin, Node};

/// `x - (x div y) * y` when the class `x div y` exists.
fn from_quotient(div: Bin) -> impl Fn(&mut Graph, Id, &Subst) -> Option<Id> {
    move |g: &mut Graph, _e: Id, s: &Subst| {
        let (x, y) = (v(s, "?x"), v(s, "?y"));
        let q = g.lookup(Node::Bin(div, [x, y]))?;
        let m = g.add(Node::Bin(Bin::Mul, [q, y]));
        Some(g.add(Node::Bin(Bin::Sub, [x, m])))
    }
}

fn urem(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    from_quotient(Bin::UDiv)(g, e, s)
}

fn srem(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    from_quotient(Bin::SDiv)(g, e, s)
}

pub fn rules() -> Vec<Rule> {
    // A constant divisor has its own forms (`divide.rs`, `strength.rs`).
    let k = [NotConst("?y")];
    vec![
        build("urem-from-udiv", "(urem ?x ?y)", urem, &k),
        build("srem-from-sdiv", "(srem ?x ?y)", srem, &k),
    ]
}
