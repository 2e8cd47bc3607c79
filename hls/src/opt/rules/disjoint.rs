//! Sums of values with no set bit in common are `or`s: no carry can occur, so the two
//! give the same bits at every width. On the board the difference is the whole adder: an
//! `or` of disjoint bits is wiring, while Yosys keeps an adder's carry chain whole even
//! where one operand's bits are constant zero (`gid * 16 + lid` with `lid < 16`, a row
//! times a power of two plus a column below it).

use egg::{Id, Subst};

use super::{build, v, Rule};
use crate::opt::facts::{may_set, Graph};
use crate::opt::lang::{Bin, Node};

fn disjoint(g: &Graph, x: Id, y: Id) -> bool {
    may_set(g, x) & may_set(g, y) == 0
}

fn disjoint_or(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let (x, y) = (v(s, "?x"), v(s, "?y"));
    disjoint(g, x, y).then(|| g.add(Node::Bin(Bin::Or, [x, y])))
}

/// `a + b + c` with `c` disjoint from `a` or `b`: that pair first, as an `or`, leaving
/// one adder (`row * n + t * 8 + tx` is `row * n + (t * 8 | tx)`). Sums are associative
/// modulo the width; the rule regroups only where the new pair needs no adder.
fn regroup(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let (a, b, c) = (v(s, "?a"), v(s, "?b"), v(s, "?c"));
    let (keep, pair) = if disjoint(g, b, c) {
        (a, b)
    } else if disjoint(g, a, c) {
        (b, a)
    } else {
        return None;
    };
    let or = g.add(Node::Bin(Bin::Or, [pair, c]));
    Some(g.add(Node::Bin(Bin::Add, [keep, or])))
}

pub fn rules() -> Vec<Rule> {
    vec![
        build("add-disjoint", "(add ?x ?y)", disjoint_or, &[]),
        build("add-regroup-disjoint", "(add (add ?a ?b) ?c)", regroup, &[]),
        build(
            "add-regroup-disjoint-right",
            "(add ?c (add ?a ?b))",
            regroup,
            &[],
        ),
    ]
}
