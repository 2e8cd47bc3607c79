//! Algebraic identities: neutral and absorbing constants, self-cancellation, double
//! negation, and constants moved to the right of commutative operators (the one form of
//! commutativity allowed, so that the other rules need only one shape).

use egg::{Id, Subst};

use super::{build, c, pat, v, Cond::*, Rule, Val::*};
use crate::opt::facts::{width, Graph};

fn zero_of_x(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let w = width(g, v(s, "?x"));
    Some(c(g, w, 0))
}

fn shl_one(g: &mut Graph, _e: Id, s: &Subst) -> Option<Id> {
    let x = v(s, "?x");
    let one = c(g, width(g, x), 1);
    Some(g.add(crate::opt::lang::Node::Bin(
        crate::opt::lang::Bin::Shl,
        [x, one],
    )))
}

pub fn rules() -> Vec<Rule> {
    let mut r = Vec::new();
    for op in ["add", "mul", "and", "or", "xor"] {
        r.push(pat(
            &format!("{op}-const-right"),
            &format!("({op} ?c ?x)"),
            &format!("({op} ?x ?c)"),
            &[Const("?c"), NotConst("?x")],
        ));
    }
    r.extend([
        pat("add-zero", "(add ?x ?c)", "?x", &[Is("?c", Zero)]),
        pat("sub-zero", "(sub ?x ?c)", "?x", &[Is("?c", Zero)]),
        build("sub-self", "(sub ?x ?x)", zero_of_x, &[]),
        pat(
            "sub-const",
            "(sub ?x ?c)",
            "(add ?x (neg ?c))",
            &[Const("?c"), NotConst("?x")],
        ),
        pat("zero-sub", "(sub ?c ?x)", "(neg ?x)", &[Is("?c", Zero)]),
        pat("add-neg", "(add ?x (neg ?y))", "(sub ?x ?y)", &[]),
        pat("sub-neg", "(sub ?x (neg ?y))", "(add ?x ?y)", &[]),
        pat("add-sub-cancel", "(add (sub ?x ?y) ?y)", "?x", &[]),
        pat("sub-add-cancel", "(sub (add ?x ?y) ?y)", "?x", &[]),
        build("add-self", "(add ?x ?x)", shl_one, &[]),
        pat("mul-zero", "(mul ?x ?c)", "?c", &[Is("?c", Zero)]),
        pat("mul-one", "(mul ?x ?c)", "?x", &[Is("?c", One)]),
        pat(
            "mul-minus-one",
            "(mul ?x ?c)",
            "(neg ?x)",
            &[Is("?c", Ones)],
        ),
        pat("udiv-one", "(udiv ?x ?c)", "?x", &[Is("?c", One)]),
        pat("sdiv-one", "(sdiv ?x ?c)", "?x", &[Is("?c", One)]),
        // MIN / -1 is MIN in the IR, as is -MIN.
        pat(
            "sdiv-minus-one",
            "(sdiv ?x ?c)",
            "(neg ?x)",
            &[Is("?c", Ones)],
        ),
        build("urem-one", "(urem ?x ?c)", zero_of_x, &[Is("?c", One)]),
        build("srem-one", "(srem ?x ?c)", zero_of_x, &[Is("?c", One)]),
        build(
            "srem-minus-one",
            "(srem ?x ?c)",
            zero_of_x,
            &[Is("?c", Ones)],
        ),
        pat("and-zero", "(and ?x ?c)", "?c", &[Is("?c", Zero)]),
        pat("and-ones", "(and ?x ?c)", "?x", &[Is("?c", Ones)]),
        pat("and-self", "(and ?x ?x)", "?x", &[]),
        pat("or-zero", "(or ?x ?c)", "?x", &[Is("?c", Zero)]),
        pat("or-ones", "(or ?x ?c)", "?c", &[Is("?c", Ones)]),
        pat("or-self", "(or ?x ?x)", "?x", &[]),
        pat("xor-zero", "(xor ?x ?c)", "?x", &[Is("?c", Zero)]),
        pat("xor-ones", "(xor ?x ?c)", "(not ?x)", &[Is("?c", Ones)]),
        build("xor-self", "(xor ?x ?x)", zero_of_x, &[]),
        pat("shl-zero", "(shl ?x ?c)", "?x", &[Is("?c", Zero)]),
        pat("lshr-zero", "(lshr ?x ?c)", "?x", &[Is("?c", Zero)]),
        pat("ashr-zero", "(ashr ?x ?c)", "?x", &[Is("?c", Zero)]),
        pat("not-not", "(not (not ?x))", "?x", &[]),
        pat("neg-neg", "(neg (neg ?x))", "?x", &[]),
        pat("and-not-self", "(and ?x (not ?x))", "(xor ?x ?x)", &[]),
    ]);
    r
}
