//! Bit-width narrowing: an operation whose operands and result fit a narrower width, by
//! the classes' upper bounds (`facts.rs`, fed by the range analysis of `ranges.rs`), is
//! done at the narrowest of 8, 16 or 32 bits that holds them and zero-extended back, so
//! that a `size_t` address computation whose values fit 32 bits is built 32 bits wide.
//! Each rule states the condition under which the narrow operation gives the same bits:
//! no carry, product or shifted-out bit may leave the narrow width. Signed operations on
//! values whose sign bits are clear become the unsigned ones (arithmetic shifts, division
//! and remainder), which the other rules then narrow.

use egg::{Id, Subst};

use super::{build, c, v, Rule};
use crate::opt::facts::{hi, konst, width, Graph};
use crate::opt::lang::{mask, Bin, ICmp, Node};

/// The narrowest width below `w` that holds `need`.
fn target(w: u32, need: u64) -> Option<u32> {
    [8u32, 16, 32]
        .into_iter()
        .find(|t| *t < w && need <= mask(*t))
}

fn trunc(g: &mut Graph, x: Id, t: u32) -> Id {
    g.add(Node::Trunc(t as u8, x))
}

/// `op` at `t` bits on the truncated operands, zero-extended to `w`.
fn at(g: &mut Graph, op: Bin, a: Id, b: Id, t: u32, w: u32) -> Id {
    let (ta, tb) = (trunc(g, a, t), trunc(g, b, t));
    let n = g.add(Node::Bin(op, [ta, tb]));
    g.add(Node::ZExt(w as u8, n))
}

/// The largest value the narrow operation must hold (operands and result), or `None`
/// when it is not exact at any narrower width.
fn need(g: &Graph, op: Bin, a: Id, b: Id) -> Option<u64> {
    let (ha, hb, w) = (hi(g, a), hi(g, b), width(g, a));
    let count = || konst(g, b).map(|k| k % w as u64);
    Some(match op {
        Bin::Add => ha.checked_add(hb)?,
        Bin::Mul => ha.checked_mul(hb)?,
        // The result's high bits are zero when either operand's are.
        Bin::And => ha.min(hb),
        Bin::Or | Bin::Xor | Bin::URem => ha.max(hb),
        // Division by zero gives all ones, which differs between widths.
        Bin::UDiv if konst(g, b).is_some_and(|k| k != 0) => ha.max(hb),
        // The count must stay below the narrow width (`1 << k` fits `t` bits only then),
        // which would take it modulo itself.
        Bin::Shl => {
            let k = count()?;
            (ha.leading_zeros() as u64 >= k).then(|| (ha << k).max(1 << k))?
        }
        Bin::LShr => ha.max(1 << count()?),
        _ => return None,
    })
}

fn narrow_bin(op: Bin) -> impl Fn(&mut Graph, Id, &Subst) -> Option<Id> {
    move |g: &mut Graph, e: Id, s: &Subst| {
        let (a, b) = (v(s, "?a"), v(s, "?b"));
        let w = width(g, e);
        let t = target(w, need(g, op, a, b)?)?;
        if matches!(op, Bin::Shl | Bin::LShr) {
            // The count, reduced as the wide op reduces it, fits the narrow width.
            let k = konst(g, b)? % w as u64;
            let ta = trunc(g, a, t);
            let kt = c(g, t, k);
            let n = g.add(Node::Bin(op, [ta, kt]));
            return Some(g.add(Node::ZExt(w as u8, n)));
        }
        Some(at(g, op, a, b, t, w))
    }
}

macro_rules! narrow_rules {
    ($($f:ident = $op:ident),*) => {
        $(fn $f(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
            narrow_bin(Bin::$op)(g, e, s)
        })*
        const NARROW: &[(&str, super::Builder)] = &[$((stringify!($f), $f)),*];
    };
}

narrow_rules!(
    add = Add,
    mul = Mul,
    and = And,
    or = Or,
    xor = Xor,
    urem = URem,
    udiv = UDiv,
    shl = Shl,
    lshr = LShr
);

/// A difference of values below `2^(t-1)` lies strictly between `-2^(t-1)` and
/// `2^(t-1)`: it is the `t`-bit difference sign-extended.
fn sub(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    let (a, b) = (v(s, "?a"), v(s, "?b"));
    let w = width(g, e);
    let t = [8u32, 16, 32]
        .into_iter()
        .find(|t| *t < w && hi(g, a).max(hi(g, b)) <= mask(t - 1))?;
    let (ta, tb) = (trunc(g, a, t), trunc(g, b, t));
    let n = g.add(Node::Bin(Bin::Sub, [ta, tb]));
    Some(g.add(Node::SExt(w as u8, n)))
}

/// An arithmetic shift of a value whose sign bit is clear is a logical one.
fn ashr(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    let (a, b) = (v(s, "?a"), v(s, "?b"));
    let w = width(g, e);
    (hi(g, a) <= mask(w - 1)).then(|| g.add(Node::Bin(Bin::LShr, [a, b])))
}

/// A signed division or remainder of values whose sign bits are clear is the unsigned
/// one (also by zero: all ones, and the dividend).
fn unsigned(op: Bin) -> impl Fn(&mut Graph, Id, &Subst) -> Option<Id> {
    move |g: &mut Graph, e: Id, s: &Subst| {
        let (a, b) = (v(s, "?a"), v(s, "?b"));
        let top = mask(width(g, e) - 1);
        (hi(g, a) <= top && hi(g, b) <= top).then(|| g.add(Node::Bin(op, [a, b])))
    }
}

fn sdiv(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    unsigned(Bin::UDiv)(g, e, s)
}

fn srem(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    unsigned(Bin::URem)(g, e, s)
}

fn select(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
    let (cond, x, y) = (v(s, "?c"), v(s, "?x"), v(s, "?y"));
    let w = width(g, e);
    let t = target(w, hi(g, x).max(hi(g, y)))?;
    let (tx, ty) = (trunc(g, x, t), trunc(g, y, t));
    let n = g.add(Node::Select([cond, tx, ty]));
    Some(g.add(Node::ZExt(w as u8, n)))
}

/// A compare of two values that fit `t` bits, at `t` bits; both are below the sign bit
/// of either width, so a signed compare is the unsigned one.
fn compare(op: ICmp) -> impl Fn(&mut Graph, Id, &Subst) -> Option<Id> {
    move |g: &mut Graph, _e: Id, s: &Subst| {
        let (a, b) = (v(s, "?a"), v(s, "?b"));
        let w = width(g, a);
        let t = target(w, hi(g, a).max(hi(g, b)))?;
        let unsigned = match op {
            ICmp::SLt => ICmp::ULt,
            ICmp::SLe => ICmp::ULe,
            ICmp::SGt => ICmp::UGt,
            ICmp::SGe => ICmp::UGe,
            other => other,
        };
        let (ta, tb) = (trunc(g, a, t), trunc(g, b, t));
        Some(g.add(Node::Cmp(unsigned, [ta, tb])))
    }
}

macro_rules! compare_rules {
    ($($f:ident = $op:ident),*) => {
        $(fn $f(g: &mut Graph, e: Id, s: &Subst) -> Option<Id> {
            compare(ICmp::$op)(g, e, s)
        })*
        const COMPARE: &[(&str, super::Builder)] = &[$((stringify!($f), $f)),*];
    };
}

compare_rules!(
    eq = Eq,
    ne = Ne,
    ult = ULt,
    ule = ULe,
    ugt = UGt,
    uge = UGe,
    slt = SLt,
    sle = SLe,
    sgt = SGt,
    sge = SGe
);

pub fn rules() -> Vec<Rule> {
    let mut r = Vec::new();
    for (op, f) in NARROW.iter().chain(COMPARE) {
        r.push(build(
            &format!("narrow-{op}"),
            &format!("({op} ?a ?b)"),
            *f,
            &[],
        ));
    }
    r.push(build("narrow-sub", "(sub ?a ?b)", sub, &[]));
    r.push(build("narrow-ashr", "(ashr ?a ?b)", ashr, &[]));
    r.push(build("narrow-sdiv", "(sdiv ?a ?b)", sdiv, &[]));
    r.push(build("narrow-srem", "(srem ?a ?b)", srem, &[]));
    r.push(build("narrow-select", "(select ?c ?x ?y)", select, &[]));
    r
}
