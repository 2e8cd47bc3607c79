//! Address arithmetic: constant offsets of pointer additions merged (`p + 4 + 8` is one
//! adder, `p + 0` none), and a constant offset moved outward past a variable one so that
//! neighbouring accesses (`a[i]`, `a[i+1]`) share the variable part; two offsets with no
//! set bit in common joined by an `or` (`&tile[ty][k]` is the tile plus `ty * 32 | k * 4`),
//! which is wiring where a second pointer addition is an adder.

use egg::{Id, Subst};

use super::{build, pat, v, Cond::*, Rule, Val::*};
use crate::opt::facts::{may_set, Graph};
use crate::opt::lang::{Bin, Node};

/// `(p + a) + b` as `p + (a | b)` when `a` and `b` share no set bit (so `a + b = a | b`).
fn disjoint_offsets(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let (p, a, b) = (v(s, "?p"), v(s, "?a"), v(s, "?b"));
    if may_set(g, a) & may_set(g, b) != 0 {
        return None;
    }
    let or = g.add(Node::Bin(Bin::Or, [a, b]));
    Some(g.add(Node::PtrAdd([p, or])))
}

pub fn rules() -> Vec<Rule> {
    vec![
        pat("ptradd-zero", "(ptradd ?p ?c)", "?p", &[Is("?c", Zero)]),
        pat(
            "ptradd-consts",
            "(ptradd (ptradd ?p ?a) ?b)",
            "(ptradd ?p (add ?a ?b))",
            &[Const("?a"), Const("?b")],
        ),
        pat(
            "ptradd-split-const",
            "(ptradd ?p (add ?x ?c))",
            "(ptradd (ptradd ?p ?x) ?c)",
            &[Const("?c"), NotConst("?x")],
        ),
        build(
            "ptradd-disjoint",
            "(ptradd (ptradd ?p ?a) ?b)",
            disjoint_offsets,
            &[],
        ),
    ]
}
