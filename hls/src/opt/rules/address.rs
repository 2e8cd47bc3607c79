//! Address arithmetic: constant offsets of pointer additions merged (`p + 4 + 8` is one
//! adder, `p + 0` none), and a constant offset moved outward past a variable one so that
//! neighbouring accesses (`a[i]`, `a[i+1]`) share the variable part.

use super::{pat, Cond::*, Rule, Val::*};

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
    ]
}
