//! Selects and compares: a select whose condition or arms settle it, a negated condition
//! swapped into the arms, compares of a value with itself or with the ends of its range,
//! and negated compares turned into the opposite compare.

use egg::{Id, Subst};

use super::{build, pat, v, Cond::*, Rule, Val::*};
use crate::opt::facts::{width, Graph};
use crate::opt::lang::Node;

/// `select c 1 0` on `w` bits is `c` zero-extended.
fn select_bool(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let cond = v(s, "?c");
    let w = width(g, v(s, "?t"));
    Some(if w == 1 {
        cond
    } else {
        g.add(Node::ZExt(w as u8, cond))
    })
}

/// `select c -1 0` on `w` bits is `c` sign-extended.
fn select_mask(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let cond = v(s, "?c");
    let w = width(g, v(s, "?t"));
    (w > 1).then(|| g.add(Node::SExt(w as u8, cond)))
}

pub fn rules() -> Vec<Rule> {
    let mut r = vec![
        pat("select-same", "(select ?c ?x ?x)", "?x", &[]),
        pat("select-true", "(select ?c ?x ?y)", "?x", &[Is("?c", One)]),
        pat("select-false", "(select ?c ?x ?y)", "?y", &[Is("?c", Zero)]),
        pat(
            "select-not",
            "(select (not ?c) ?x ?y)",
            "(select ?c ?y ?x)",
            &[],
        ),
        build(
            "select-bool",
            "(select ?c ?t ?f)",
            select_bool,
            &[Is("?t", One), Is("?f", Zero)],
        ),
        build(
            "select-mask",
            "(select ?c ?t ?f)",
            select_mask,
            &[Is("?t", Ones), Is("?f", Zero)],
        ),
        pat(
            "select-bool-not",
            "(select ?c ?f ?t)",
            "(not ?c)",
            &[Width("?t", 1), Is("?t", One), Is("?f", Zero)],
        ),
        pat("ult-zero", "(ult ?x ?c)", "0i1", &[Is("?c", Zero)]),
        pat("uge-zero", "(uge ?x ?c)", "1i1", &[Is("?c", Zero)]),
        pat("ugt-ones", "(ugt ?x ?c)", "0i1", &[Is("?c", Ones)]),
        pat("ule-ones", "(ule ?x ?c)", "1i1", &[Is("?c", Ones)]),
        pat(
            "ne-zero-bool",
            "(ne ?b ?c)",
            "?b",
            &[Width("?b", 1), Is("?c", Zero)],
        ),
        pat(
            "eq-one-bool",
            "(eq ?b ?c)",
            "?b",
            &[Width("?b", 1), Is("?c", One)],
        ),
        pat(
            "eq-zero-bool",
            "(eq ?b ?c)",
            "(not ?b)",
            &[Width("?b", 1), Is("?c", Zero)],
        ),
    ];
    for (op, same) in [
        ("eq", "1i1"),
        ("ne", "0i1"),
        ("ult", "0i1"),
        ("ule", "1i1"),
        ("ugt", "0i1"),
        ("uge", "1i1"),
        ("slt", "0i1"),
        ("sle", "1i1"),
        ("sgt", "0i1"),
        ("sge", "1i1"),
    ] {
        r.push(pat(
            &format!("{op}-self"),
            &format!("({op} ?x ?x)"),
            same,
            &[],
        ));
    }
    for (op, neg) in [
        ("eq", "ne"),
        ("ne", "eq"),
        ("ult", "uge"),
        ("uge", "ult"),
        ("ugt", "ule"),
        ("ule", "ugt"),
        ("slt", "sge"),
        ("sge", "slt"),
        ("sgt", "sle"),
        ("sle", "sgt"),
    ] {
        r.push(pat(
            &format!("not-{op}"),
            &format!("(not ({op} ?x ?y))"),
            &format!("({neg} ?x ?y)"),
            &[],
        ));
    }
    // Constants to the right of compares (swapping the sense of the order).
    for (op, swapped) in [
        ("eq", "eq"),
        ("ne", "ne"),
        ("ult", "ugt"),
        ("ugt", "ult"),
        ("ule", "uge"),
        ("uge", "ule"),
        ("slt", "sgt"),
        ("sgt", "slt"),
        ("sle", "sge"),
        ("sge", "sle"),
    ] {
        r.push(pat(
            &format!("{op}-const-right"),
            &format!("({op} ?c ?x)"),
            &format!("({swapped} ?x ?c)"),
            &[Const("?c"), NotConst("?x")],
        ));
    }
    r
}
