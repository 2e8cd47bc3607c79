//! Casts: chains of extensions and truncations collapsed, and truncation pushed into the
//! operators whose low bits depend only on their operands' low bits, so that a
//! computation widened only to be truncated (`(int)(i + j)` on `size_t`) is built at the
//! narrow width; and an extension moved into a sum with a constant where the range
//! analysis's bounds show the narrow sum cannot wrap. Made for every IR width, since a
//! cast's width is part of its operator.

use egg::{Id, Subst};

use super::{build, v, Rule, WIDTHS};
use crate::opt::facts::{hi, konst, width, Graph};
use crate::opt::lang::{mask, Bin, Node};

/// `x` brought to `w` bits by truncation or the given extension.
fn resize(g: &mut Graph, x: Id, w: u32, signed: bool) -> Id {
    let xw = width(g, x);
    let w8 = w as u8;
    match xw.cmp(&w) {
        std::cmp::Ordering::Equal => x,
        std::cmp::Ordering::Greater => g.add(Node::Trunc(w8, x)),
        std::cmp::Ordering::Less if signed => g.add(Node::SExt(w8, x)),
        std::cmp::Ordering::Less => g.add(Node::ZExt(w8, x)),
    }
}

/// `trunc (zext x)` and `zext (zext x)`: `x` brought to the outer width, zero-extended.
fn through_zext(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    let w = width(g, e);
    Some(resize(g, v(s, "?x"), w, false))
}

/// `trunc (sext x)` and `sext (sext x)`.
fn through_sext(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    let w = width(g, e);
    Some(resize(g, v(s, "?x"), w, true))
}

/// `trunc (trunc x)`.
fn through_trunc(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    let w = width(g, e);
    Some(resize(g, v(s, "?x"), w, false))
}

fn trunc_into(op: Bin) -> impl Fn(&mut Graph, Id, &Subst) -> Option<Id> {
    move |g: &mut Graph, e: Id, s: &Subst| {
        let w = width(g, e);
        let (a, b) = (v(s, "?a"), v(s, "?b"));
        let (ta, tb) = (resize(g, a, w, false), resize(g, b, w, false));
        Some(g.add(Node::Bin(op, [ta, tb])))
    }
}

macro_rules! trunc_rules {
    ($($f:ident = $op:ident),*) => {
        $(fn $f(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
            trunc_into(Bin::$op)(g, e, s)
        })*
        const TRUNC_INTO: &[(&str, super::Builder)] = &[$((stringify!($f), $f)),*];
    };
}

trunc_rules!(
    add = Add,
    sub = Sub,
    mul = Mul,
    and = And,
    or = Or,
    xor = Xor
);

/// `zext x == c` is `x == c` at `x`'s width when `c` fits it (and false when it does not).
fn cmp_zext(g: &mut Graph, e: Id, s: &Subst, eq: bool) -> Option<Id> {
    let _ = e;
    let (x, cst) = (v(s, "?x"), v(s, "?c"));
    let (xw, k) = (width(g, x), konst(g, cst)?);
    let fits = xw >= 64 || k >> xw == 0;
    if !fits {
        return Some(super::c(g, 1, !eq as u64));
    }
    let small = super::c(g, xw, k);
    let op = if eq {
        crate::opt::lang::ICmp::Eq
    } else {
        crate::opt::lang::ICmp::Ne
    };
    Some(g.add(Node::Cmp(op, [x, small])))
}

fn eq_zext(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    cmp_zext(g, e, s, true)
}

fn ne_zext(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    cmp_zext(g, e, s, false)
}

/// `ext (x + c)` as `ext x + ext c` when the narrow sum cannot wrap (by `x`'s bound), so
/// that the constant joins the wide arithmetic around it: `tile[ly - 1]` indexes with
/// `sext(ly - 1) * 72`, which becomes `ly * 72 - 72`, and `ly * 72` is shared with
/// `tile[ly]`.
fn ext_add(g: &mut Graph, e: Id, s: &Subst, signed: bool) -> Option<Id> {
    let (x, cst) = (v(s, "?x"), v(s, "?c"));
    let (n, w, k, hx) = (width(g, x), width(g, e), konst(g, cst)?, hi(g, x));
    let fits = if signed {
        // x is not negative; the sum stays within the signed range.
        let ks = crate::opt::lang::sext(k, n);
        hx <= mask(n - 1) && (ks < 0 || hx.checked_add(ks as u64)? <= mask(n - 1))
    } else {
        hx.checked_add(k)? <= mask(n)
    };
    if !fits {
        return None;
    }
    let wx = resize(g, x, w, signed);
    let wc = resize(g, cst, w, signed);
    Some(g.add(Node::Bin(Bin::Add, [wx, wc])))
}

fn sext_add(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    ext_add(g, e, s, true)
}

fn zext_add(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    ext_add(g, e, s, false)
}

pub fn rules() -> Vec<Rule> {
    let mut r = Vec::new();
    for w in WIDTHS {
        for m in WIDTHS {
            // (A cast from i1 or to i64 has no narrower or wider input to collapse.)
            if m > w {
                r.push(build(
                    &format!("trunc{w}-zext{m}"),
                    &format!("(trunc{w} (zext{m} ?x))"),
                    through_zext,
                    &[],
                ));
                r.push(build(
                    &format!("trunc{w}-sext{m}"),
                    &format!("(trunc{w} (sext{m} ?x))"),
                    through_sext,
                    &[],
                ));
                if m < 64 {
                    r.push(build(
                        &format!("trunc{w}-trunc{m}"),
                        &format!("(trunc{w} (trunc{m} ?x))"),
                        through_trunc,
                        &[],
                    ));
                }
            }
            if m < w && m > 1 {
                r.push(build(
                    &format!("zext{w}-zext{m}"),
                    &format!("(zext{w} (zext{m} ?x))"),
                    through_zext,
                    &[],
                ));
                r.push(build(
                    &format!("sext{w}-sext{m}"),
                    &format!("(sext{w} (sext{m} ?x))"),
                    through_sext,
                    &[],
                ));
                // A zext always adds bits (a same-width cast is no node), so its sign bit is 0.
                r.push(build(
                    &format!("sext{w}-zext{m}"),
                    &format!("(sext{w} (zext{m} ?x))"),
                    through_zext,
                    &[],
                ));
            }
        }
        if w < 64 {
            for (op, f) in TRUNC_INTO {
                r.push(build(
                    &format!("trunc{w}-{op}"),
                    &format!("(trunc{w} ({op} ?a ?b))"),
                    *f,
                    &[],
                ));
            }
        }
        if w > 8 {
            for (ext, f) in [("sext", sext_add as super::Builder), ("zext", zext_add)] {
                r.push(build(
                    &format!("{ext}{w}-add"),
                    &format!("({ext}{w} (add ?x ?c))"),
                    f,
                    &[super::Cond::Const("?c"), super::Cond::NotConst("?x")],
                ));
            }
        }
        if w > 1 {
            r.push(build(
                &format!("eq-zext{w}"),
                &format!("(eq (zext{w} ?x) ?c)"),
                eq_zext,
                &[super::Cond::Const("?c")],
            ));
            r.push(build(
                &format!("ne-zext{w}"),
                &format!("(ne (zext{w} ?x) ?c)"),
                ne_zext,
                &[super::Cond::Const("?c")],
            ));
        }
    }
    r
}
