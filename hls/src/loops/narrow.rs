//! A loop test comparing a widened counter with a constant the counter can hold
//! (`(int)i < 1000` for a `short i`, as C's integer promotions spell it) compares the
//! counter itself at its own width. The two agree on every counter value, `counted`
//! then recognizes the loop (so unrolled copies get fixed offsets instead of exit tests),
//! and the hardware compares 16 bits instead of 32.

use petgraph::visit::EdgeRef;
use petgraph::Direction;

use super::fold;
use crate::ir::{CmpOp, Conv, Edge, Kernel, Op, OpId, OpKind, Ty};

/// Narrows every such loop test; returns how many.
pub fn run(k: &mut Kernel) -> usize {
    let conds: Vec<_> = k.loops.iter().filter_map(|l| l.cond).collect();
    let mut n = 0;
    for (b, test) in conds {
        let blk = k.block_mut(b);
        let OpKind::Cmp(c) = blk.op(test).kind else {
            continue;
        };
        let args = blk.operands(test);
        let [x, y] = args[..] else { continue };
        for (p, (ext, other)) in [(x, y), (y, x)].into_iter().enumerate() {
            let Some((counter, w, cmp, limit)) = narrowed(blk, c, ext, other) else {
                continue;
            };
            let span = blk.op(other).span;
            let konst = OpId(blk.graph.add_node(Op {
                kind: OpKind::Const(vec![limit]),
                ty: Some(Ty::I(w as u8)),
                span,
            }));
            blk.order.insert(0, konst);
            let old: Vec<_> = blk
                .graph
                .edges_directed(test.0, Direction::Incoming)
                .filter(|e| matches!(e.weight(), Edge::Data(_)))
                .map(|e| e.id())
                .collect();
            for e in old {
                blk.graph.remove_edge(e);
            }
            // `p` is the counter's operand position.
            let (at_counter, at_limit) = (p as u8, 1 - p as u8);
            blk.graph
                .add_edge(counter.0, test.0, Edge::Data(at_counter));
            blk.graph.add_edge(konst.0, test.0, Edge::Data(at_limit));
            blk.graph[test.0].kind = OpKind::Cmp(cmp);
            n += 1;
            break;
        }
    }
    n
}

/// For `cmp(ext(counter), C)`: the counter read, its width, the comparison at that width
/// and `C` there, when `C` is a value `ext` can produce (so both tests agree everywhere).
fn narrowed(
    blk: &crate::ir::Block,
    c: CmpOp,
    ext: OpId,
    other: OpId,
) -> Option<(OpId, u32, CmpOp, u64)> {
    let OpKind::Conv(Conv::Int {
        from_signed,
        sat: false,
        ..
    }) = blk.op(ext).kind
    else {
        return None;
    };
    let counter = *blk.operands(ext).first()?;
    if !matches!(blk.op(counter).kind, OpKind::ReadVar(_)) {
        return None;
    }
    let w = fold::width(blk.op(counter).ty.as_ref()?)?;
    let wide = fold::width(blk.op(ext).ty.as_ref()?)?;
    if w >= wide || w < 2 {
        return None;
    }
    let OpKind::Const(v) = &blk.op(other).kind else {
        return None;
    };
    let [v] = v[..] else { return None };
    let v = fold::mask(v, wide);
    let limit = fold::mask(v, w);
    use CmpOp::*;
    let cmp = if from_signed {
        // A sign extension is monotone in both orders; its values are those whose upper
        // bits copy bit w-1.
        if fold::sext(v, wide) != fold::sext(limit, w) {
            return None;
        }
        c
    } else {
        // A zero extension's values are 0..2^w, where the signed and unsigned orders at
        // the wider width are the unsigned order at w.
        if v != limit {
            return None;
        }
        match c {
            SLt | ULt => ULt,
            SLe | ULe => ULe,
            SGt | UGt => UGt,
            SGe | UGe => UGe,
            Eq => Eq,
            Ne => Ne,
            _ => return None,
        }
    };
    Some((counter, w, cmp, limit))
}
