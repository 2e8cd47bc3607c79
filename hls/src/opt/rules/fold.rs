//! Constants brought together so that the analysis folds them: `(x + 3) + 4` is `x + 7`,
//! `(x << 2) << 3` is `x << 5`. Only constants move; general reassociation stays out.

use egg::{Id, Subst};

use super::{build, c, pat, v, Cond::*, Rule};
use crate::opt::facts::{konst, width, Graph};
use crate::opt::lang::{Bin, Node};

/// `(op (op x a) b)` for a shift: one shift by `a + b` while that stays below the width
/// (a longer shift would wrap its count, unlike two shorter ones).
fn shifts(op: Bin) -> impl Fn(&mut Graph, Id, &Subst) -> Option<Id> {
    move |g: &mut Graph, _e: Id, s: &Subst| {
        let (x, a, b) = (v(s, "?x"), v(s, "?a"), v(s, "?b"));
        let w = width(g, x);
        let (ka, kb) = (konst(g, a)?, konst(g, b)?);
        let sum = ka.checked_add(kb).filter(|n| *n < w as u64)?;
        let k = c(g, w, sum);
        Some(g.add(Node::Bin(op, [x, k])))
    }
}

fn shl_shl(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    shifts(Bin::Shl)(g, _e, s)
}

fn lshr_lshr(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    shifts(Bin::LShr)(g, _e, s)
}

fn ashr_ashr(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    shifts(Bin::AShr)(g, _e, s)
}

pub fn rules() -> Vec<Rule> {
    let consts = [Const("?a"), Const("?b")];
    let mut r: Vec<Rule> = ["add", "mul", "and", "or", "xor"]
        .iter()
        .map(|op| {
            pat(
                &format!("{op}-consts"),
                &format!("({op} ({op} ?x ?a) ?b)"),
                &format!("({op} ?x ({op} ?a ?b))"),
                &consts,
            )
        })
        .collect();
    r.extend([
        build("shl-shl", "(shl (shl ?x ?a) ?b)", shl_shl, &consts),
        build("lshr-lshr", "(lshr (lshr ?x ?a) ?b)", lshr_lshr, &consts),
        build("ashr-ashr", "(ashr (ashr ?x ?a) ?b)", ashr_ashr, &consts),
        // Distributing a constant factor over a constant term: `(i + 1) * 4` is `i*4 + 4`,
        // which shares `i*4` with the neighbouring address.
        pat(
            "mul-add-consts",
            "(mul (add ?x ?a) ?b)",
            "(add (mul ?x ?b) (mul ?a ?b))",
            &consts,
        ),
        pat(
            "shl-add-consts",
            "(shl (add ?x ?a) ?b)",
            "(add (shl ?x ?b) (shl ?a ?b))",
            &consts,
        ),
        pat(
            "add-muls-factor",
            "(add (mul ?x ?a) (mul ?x ?b))",
            "(mul ?x (add ?a ?b))",
            &consts,
        ),
    ]);
    r
}
