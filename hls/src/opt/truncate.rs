//! Truncations pushed down through the arithmetic only they use: `trunc32(or64(a,
//! mul64(b, 8)))` becomes `or32(trunc32(a), mul32(trunc32(b), 8))`. The low bits of a sum,
//! difference, product or bitwise op depend only on the low bits of its operands, so both
//! are the same value and synthesis builds the same bits of logic for either; but the
//! extractor breaks that tie by op count, block by block, so one block would compute
//! `row * n` in the narrow form and another in the wide one. Synthesis merges equal
//! expressions on the same registers (a loop's copy of an address shared with the loop
//! before it), and only when they are spelled alike: this gives each its one narrow form.

use std::collections::{HashMap, HashSet};

use petgraph::Direction;

use crate::diag::Span;
use crate::ir::{BinOp, Block, Conv, Edge, OpId, OpKind, Ty};

/// The integer width of op `o`, when it is a scalar integer.
fn width(b: &Block, o: OpId) -> Option<u8> {
    match b.op(o).ty {
        Some(Ty::I(w)) => Some(w),
        _ => None,
    }
}

/// How many ops read `o`'s value.
fn uses(b: &Block, o: OpId) -> usize {
    b.graph
        .edges_directed(o.0, Direction::Outgoing)
        .filter(|e| matches!(e.weight(), Edge::Data(_)))
        .count()
}

const TRUNC: Conv = Conv::Int {
    from_signed: false,
    to_signed: false,
    sat: false,
};

/// Whether `o` is a truncation of a wider scalar integer op through which it can be
/// pushed (an arithmetic op only it reads).
fn pushable(b: &Block, o: OpId, keep: &HashSet<OpId>) -> bool {
    let OpKind::Conv(Conv::Int { sat: false, .. }) = b.op(o).kind else {
        return false;
    };
    let args = b.operands(o);
    let (Some(n), [x]) = (width(b, o), args.as_slice()) else {
        return false;
    };
    matches!(width(b, *x), Some(w) if w > n) && arithmetic(b, *x, keep)
}

/// Whether the truncation of `x` may replace `x` itself: an integer op whose low bits
/// depend only on its operands' low bits, read by nothing else.
fn arithmetic(b: &Block, x: OpId, keep: &HashSet<OpId>) -> bool {
    let ok = match b.op(x).kind {
        OpKind::Binary(op) => matches!(
            op,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::And | BinOp::Or | BinOp::Xor
        ),
        _ => false,
    };
    ok && uses(b, x) == 1 && !keep.contains(&x)
}

/// Appends to `b` an op computing the low `n` bits of `x`.
fn low(b: &mut Block, x: OpId, n: u8, span: Span, keep: &HashSet<OpId>) -> OpId {
    let w = width(b, x).unwrap_or(64);
    if w == n {
        return x;
    }
    let args = b.operands(x);
    match b.op(x).kind.clone() {
        OpKind::Const(v) if v.len() == 1 => {
            let mask = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
            b.add(OpKind::Const(vec![v[0] & mask]), Some(Ty::I(n)), span, &[])
        }
        OpKind::Binary(op) if arithmetic(b, x, keep) => {
            let l = low(b, args[0], n, span, keep);
            let r = low(b, args[1], n, span, keep);
            b.add(OpKind::Binary(op), Some(Ty::I(n)), span, &[l, r])
        }
        // A truncation of an extension: the source itself, shorter, or extended less.
        OpKind::Conv(c @ Conv::Int { sat: false, .. }) => match width(b, args[0]) {
            Some(m) if m == n => args[0],
            Some(m) if m > n => b.add(OpKind::Conv(TRUNC), Some(Ty::I(n)), span, &[args[0]]),
            Some(_) if w > n => b.add(OpKind::Conv(c), Some(Ty::I(n)), span, &[args[0]]),
            _ => b.add(OpKind::Conv(TRUNC), Some(Ty::I(n)), span, &[x]),
        },
        _ => b.add(OpKind::Conv(TRUNC), Some(Ty::I(n)), span, &[x]),
    }
}

/// Pushes the truncations of block `b` down (`keep`: its ops that region nodes read as
/// conditions, which must stay); returns each replaced truncation with the op now
/// standing for it. The wide ops left unread are for `dead.rs`.
pub fn block(b: &mut Block, keep: &HashSet<OpId>) -> HashMap<OpId, OpId> {
    let mut map = HashMap::new();
    let todo: Vec<OpId> = b
        .order
        .iter()
        .copied()
        .filter(|&o| pushable(b, o, keep))
        .collect();
    for o in todo {
        // An earlier push may have consumed this one's operand.
        if !b.graph.contains_node(o.0) || !pushable(b, o, keep) {
            continue;
        }
        let n = width(b, o).expect("integer");
        let x = b.operands(o)[0];
        let span = b.op(o).span;
        let since = b.order.len();
        let new = low(b, x, n, span, keep);
        super::forward::replace_with_appended(b, o, new, since);
        map.insert(o, new);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `trunc32(or64(v, mul64(g, 8)))` becomes `or32(trunc32(v), mul32(trunc32(g), 8))`;
    /// a wide op another op also reads stays, truncated where it is.
    #[test]
    fn truncation_goes_below_single_use_arithmetic() {
        let span = Span::default();
        let mut b = Block::default();
        let v = b.add(
            OpKind::ReadVar(crate::ir::VarId(0)),
            Some(Ty::I(64)),
            span,
            &[],
        );
        let g = b.add(
            OpKind::ReadVar(crate::ir::VarId(1)),
            Some(Ty::I(64)),
            span,
            &[],
        );
        let eight = b.add(OpKind::Const(vec![8]), Some(Ty::I(64)), span, &[]);
        let m = b.add(
            OpKind::Binary(BinOp::Mul),
            Some(Ty::I(64)),
            span,
            &[g, eight],
        );
        let or = b.add(OpKind::Binary(BinOp::Or), Some(Ty::I(64)), span, &[v, m]);
        let t = b.add(OpKind::Conv(TRUNC), Some(Ty::I(32)), span, &[or]);
        let user = b.add(OpKind::WriteVar(crate::ir::VarId(2)), None, span, &[t]);
        let map = block(&mut b, &HashSet::new());
        let new = map[&t];
        assert_eq!(b.operands(user), vec![new]);
        assert_eq!(b.op(new).kind, OpKind::Binary(BinOp::Or));
        assert_eq!(b.op(new).ty, Some(Ty::I(32)));
        let [l, r] = b.operands(new)[..] else {
            panic!("two operands")
        };
        assert_eq!(b.op(l).kind, OpKind::Conv(TRUNC));
        assert_eq!(b.operands(l), vec![v]);
        assert_eq!(b.op(r).kind, OpKind::Binary(BinOp::Mul));
        assert_eq!(b.op(r).ty, Some(Ty::I(32)));
        let [gl, k] = b.operands(r)[..] else {
            panic!("two operands")
        };
        assert_eq!(b.operands(gl), vec![g]);
        assert_eq!(b.op(k).kind, OpKind::Const(vec![8]));
        assert_eq!(b.op(k).ty, Some(Ty::I(32)));

        // The or is read twice: the truncation stays above it.
        let mut b = Block::default();
        let v = b.add(
            OpKind::ReadVar(crate::ir::VarId(0)),
            Some(Ty::I(64)),
            span,
            &[],
        );
        let or = b.add(OpKind::Binary(BinOp::Or), Some(Ty::I(64)), span, &[v, v]);
        let t = b.add(OpKind::Conv(TRUNC), Some(Ty::I(32)), span, &[or]);
        b.add(OpKind::WriteVar(crate::ir::VarId(2)), None, span, &[t]);
        b.add(OpKind::WriteVar(crate::ir::VarId(3)), None, span, &[or]);
        assert!(block(&mut b, &HashSet::new()).is_empty());
    }
}
