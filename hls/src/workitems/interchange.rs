//! Grid-stride loops run in rounds over the work-items: a loop every work-item runs
//! over its share of a buffer (`for (i = get_global_id(0); i < n; i += get_global_size(0))`)
//! becomes a group-level loop whose every round runs one iteration of each work-item still
//! in its loop. Run work-item after work-item, such a loop reads one element per
//! global-size stride, each its own memory request (a histogram's loads wait on the
//! memory's outstanding-request limit); in rounds, neighbouring work-items read
//! neighbouring elements one after another, which the load units fetch as streams.
//!
//! ```text
//! P; while (c) { B; L } E
//! =>
//! P; act = c; any = OR(act)              (a work-item segment)
//! while (any) { if (act) { B; L; act = c } any = OR(act) }   (one segment per round)
//! E
//! ```
//!
//! `act` is kept per work-item like any value crossing segments; `any` is one register
//! the work-items of a segment accumulate in order (reset by the first), so after the
//! segment it holds the OR of all of them, which the group-level loop tests. Each
//! work-item still runs its own statements in order; only the interleaving of different
//! work-items changes, which a barrier-free segment leaves open.

use std::collections::HashSet;

use crate::diag::Span;
use crate::ir::{
    BinOp, BlockId, CmpOp, Kernel, LoopId, LoopKind, Node, OpId, OpKind, Region, Ty, VarId,
    WorkItemFn,
};

use super::regions::{GNode, Seg, Tree};
use super::uniform::Varying;

/// Interchanges the grid-stride loops of `tree`'s segments; returns the variables every
/// work-item shares (the `any` accumulators), which must stay single registers.
pub fn run(k: &mut Kernel, tree: &mut Tree) -> HashSet<VarId> {
    let mut shared = HashSet::new();
    if k.attrs
        .reqd_work_group_size
        .is_some_and(|r| r.iter().product::<u64>() <= 1)
    {
        return shared;
    }
    let varying = Varying::of(k);
    let count = tree.segs.len();
    let mut replaced: std::collections::BTreeMap<usize, Vec<GNode>> = Default::default();
    for i in 0..count {
        let seg = &tree.segs[i];
        if seg.fixed.is_some() {
            continue;
        }
        let Some(at) = seg.nodes.iter().position(|n| match n {
            Node::Loop(id) => grid_stride(k, *id, &varying),
            _ => false,
        }) else {
            continue;
        };
        let before = Region(seg.nodes[..at].to_vec());
        if super::guards::leaves(k, &before, &mut Vec::new()) {
            continue;
        }
        let Node::Loop(id) = seg.nodes[at] else {
            continue;
        };
        let after = seg.nodes[at + 1..].to_vec();
        let (in_loop, tail) = (seg.in_loop, seg.tail);
        let l = k.lp(id).clone();
        let Some((cb, cop)) = l.cond else { continue };
        let span = l.span;
        let act = k.new_var("__active", Ty::I(1), span);
        let any = k.new_var("__any_active", Ty::I(1), span);
        shared.insert(any);

        // The first test, at the end of the segment before the rounds.
        let mut first = before.0;
        first.push(Node::Block(test(k, cb, cop, act, span)));
        first.push(Node::Block(accumulate(k, act, any, span)));
        tree.segs[i].nodes = first;
        tree.segs[i].tail = false;

        // One round: an iteration of each work-item still in the loop.
        let read = k.new_block();
        let a = k
            .block_mut(read)
            .add(OpKind::ReadVar(act), Some(Ty::I(1)), span, &[]);
        let mut then = l.body.0.clone();
        then.extend(l.latch.0.iter().cloned());
        then.push(Node::Block(test(k, cb, cop, act, span)));
        let round = vec![
            Node::If {
                cond: (read, a),
                then: Region(then),
                els: Region::default(),
                span,
            },
            Node::Block(accumulate(k, act, any, span)),
        ];
        tree.segs.push(Seg {
            nodes: round,
            in_loop: true,
            tail: false,
            fixed: None,
        });
        let round = tree.segs.len() - 1;
        let group_loop = super::emit::new_loop(k, span);
        let mut nodes = vec![
            GNode::Seg(i),
            GNode::Loop {
                id: group_loop,
                cvar: Some(any),
                body: vec![GNode::Seg(round)],
                latch: Vec::new(),
            },
        ];
        if !after.is_empty() {
            tree.segs.push(Seg {
                nodes: after,
                in_loop,
                tail,
                fixed: None,
            });
            nodes.push(GNode::Seg(tree.segs.len() - 1));
        }
        replaced.insert(i, nodes);
    }
    tree.splice(&replaced);
    shared
}

/// A copy of the loop's test block writing its condition to `act`.
fn test(k: &mut Kernel, cb: BlockId, cop: OpId, act: VarId, span: Span) -> BlockId {
    let b = k.new_block();
    let src = k.block(cb).clone();
    let map = crate::loops::copy::append(k.block_mut(b), &src, None);
    k.block_mut(b)
        .add(OpKind::WriteVar(act), None, span, &[map[&cop]]);
    b
}

/// `any = first work-item ? act : any | act`: after a segment, the OR over its
/// work-items.
fn accumulate(k: &mut Kernel, act: VarId, any: VarId, span: Span) -> BlockId {
    let b = k.new_block();
    let blk = k.block_mut(b);
    let bit = Some(Ty::I(1));
    let a = blk.add(OpKind::ReadVar(act), bit.clone(), span, &[]);
    let acc = blk.add(OpKind::ReadVar(any), bit.clone(), span, &[]);
    let or = blk.add(OpKind::Binary(BinOp::Or), bit.clone(), span, &[a, acc]);
    let lin = blk.add(
        OpKind::WorkItem(WorkItemFn::LocalLinearId),
        Some(Ty::I(64)),
        span,
        &[],
    );
    let zero = blk.add(OpKind::Const(vec![0]), Some(Ty::I(64)), span, &[]);
    let first = blk.add(OpKind::Cmp(CmpOp::Eq), bit.clone(), span, &[lin, zero]);
    let v = blk.add(OpKind::Select, bit, span, &[first, a, or]);
    blk.add(OpKind::WriteVar(any), None, span, &[v]);
    b
}

/// Whether loop `id` is a grid-stride loop worth running in rounds: a `while` loop with
/// a test, holding no loop and no way out but its test, that steps a variable whose start
/// differs between work-items by an amount the same for all, and indexes a buffer with it.
fn grid_stride(k: &Kernel, id: LoopId, varying: &Varying) -> bool {
    let l = k.lp(id);
    if l.kind != LoopKind::While || l.cond.is_none() {
        return false;
    }
    let whole = Region(l.body.0.iter().chain(&l.latch.0).cloned().collect());
    if super::guards::leaves(k, &whole, &mut Vec::new()) || holds_loop(&whole) {
        return false;
    }
    // Variables the latch steps by a work-item-invariant amount.
    let mut latch_blocks = Vec::new();
    crate::analysis::loops::all_blocks(k, &l.latch, &mut latch_blocks);
    let mut stepped = HashSet::new();
    for &b in &latch_blocks {
        let blk = k.block(b);
        for &o in &blk.order {
            let OpKind::WriteVar(v) = blk.op(o).kind else {
                continue;
            };
            // Through the integer conversions of `i += get_global_size(0)` on a `uint`.
            let strip = |mut x: OpId| {
                while matches!(blk.op(x).kind, OpKind::Conv(crate::ir::Conv::Int { .. })) {
                    x = blk.operands(x)[0];
                }
                x
            };
            let value = strip(blk.operands(o)[0]);
            if !matches!(blk.op(value).kind, OpKind::Binary(BinOp::Add)) {
                continue;
            }
            let args = blk.operands(value);
            let reads_v = |x: OpId| matches!(blk.op(strip(x)).kind, OpKind::ReadVar(w) if w == v);
            let step = match (reads_v(args[0]), reads_v(args[1])) {
                (true, false) => args[1],
                (false, true) => args[0],
                _ => continue,
            };
            if varying.var(v) && !varying.op(k, b, step) {
                stepped.insert(v);
            }
        }
    }
    if stepped.is_empty() {
        return false;
    }
    // A buffer access whose address reads a stepped variable.
    let mut blocks = Vec::new();
    crate::analysis::loops::all_blocks(k, &l.body, &mut blocks);
    blocks.into_iter().any(|b| {
        let blk = k.block(b);
        blk.order.iter().any(|&o| {
            let addr = match &blk.op(o).kind {
                OpKind::Load {
                    base: Some(crate::ir::Base::Param(_)),
                    ..
                }
                | OpKind::Store {
                    base: Some(crate::ir::Base::Param(_)),
                    ..
                } => blk.operands(o)[0],
                _ => return false,
            };
            reads_any(blk, addr, &stepped)
        })
    })
}

/// Whether `o`'s value is computed (within its block) from a read of one of `vars`.
fn reads_any(blk: &crate::ir::Block, o: OpId, vars: &HashSet<VarId>) -> bool {
    let mut stack = vec![o];
    let mut seen = HashSet::new();
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        if matches!(blk.op(x).kind, OpKind::ReadVar(v) if vars.contains(&v)) {
            return true;
        }
        stack.extend(blk.operands(x));
    }
    false
}

fn holds_loop(r: &Region) -> bool {
    r.0.iter().any(|n| match n {
        Node::Loop(_) => true,
        Node::If { then, els, .. } => holds_loop(then) || holds_loop(els),
        _ => false,
    })
}
