//! Index-set splitting of work-item segments: the `if (get_local_id(d) == c) { ... }`
//! statements that end a segment (a tile's halo loads) run in loops of their own over
//! just the work-items with that id, instead of as predicated ops every work-item's
//! iteration carries through the pipeline. Four halo loads from one buffer behind such
//! guards cost a 16x16 tile's pipeline four extra cycles of its one read port per
//! work-item; split off, they cost 4 x 16 iterations.
//!
//! Each work-item still runs its statements in program order (the segment, then each
//! split statement in turn); only the interleaving of different work-items changes,
//! which a barrier-free segment leaves open (work-items share memory only through
//! atomics there). A statement is split off only when nothing can leave the segment
//! early, its variables are its own or recomputed from ids (`remat.rs`), and it touches
//! no private memory, so liveness gives it nothing new to keep per work-item.

use std::collections::{BTreeMap, HashSet};

use crate::ir::{BlockId, CmpOp, Kernel, Node, OpId, OpKind, Region, VarId, WorkItemFn};

use super::regions::{GNode, Seg, Tree};
use super::remat::Expr;

/// Splits the trailing guarded statements of every segment of `tree` (a kernel with
/// `reqd_work_group_size`): each becomes a segment of its own right after, with its
/// dimension fixed. `remat` are the variables recomputable from ids.
pub fn split(k: &Kernel, tree: &mut Tree, remat: &BTreeMap<VarId, Expr>, lanes: u64) {
    let Some(size) = k.attrs.reqd_work_group_size else {
        return;
    };
    // Lanes unroll the work-item loop; a loop over the other dimensions would get them.
    if lanes > 1 {
        return;
    }
    let mut extra: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..tree.segs.len() {
        let seg = &tree.segs[i];
        if seg.fixed.is_some() || leaves(k, &Region(seg.nodes.clone()), &mut Vec::new()) {
            continue;
        }
        let mut guarded: Vec<(usize, Guard)> = Vec::new();
        for (at, n) in seg.nodes.iter().enumerate().rev() {
            match guard(k, n, size, remat) {
                Some(g) if splittable(k, &g.then, remat, i, tree) => guarded.push((at, g)),
                _ => break,
            }
        }
        guarded.reverse();
        // The condition blocks after the first statement split off move before the
        // statements ahead of them: only blocks without effects may.
        if let Some(p) = guarded.iter().rposition(|(_, g)| !pure_block(k, g.cond)) {
            guarded.drain(..p);
        }
        if guarded.is_empty() {
            continue;
        }
        let first = guarded[0].0;
        let in_loop = seg.in_loop;
        let tail = seg.tail;
        let mut rest: Vec<Node> = seg.nodes[..first].to_vec();
        let mut new_segs = Vec::new();
        for (_, g) in guarded {
            // Condition blocks without effects go (the split-off loops need no test).
            if !pure_block(k, g.cond) {
                rest.push(Node::Block(g.cond));
            }
            new_segs.push(Seg {
                nodes: g.then.0.clone(),
                in_loop,
                tail,
                fixed: Some((g.dim, g.value, g.span)),
            });
        }
        tree.segs[i].nodes = rest;
        let ids = extra.entry(i).or_default();
        for s in new_segs {
            tree.segs.push(s);
            ids.push(tree.segs.len() - 1);
        }
    }
    // Each split segment is followed by its new ones; left empty, it runs no loop.
    let with: BTreeMap<usize, Vec<GNode>> = extra
        .into_iter()
        .map(|(i, new)| {
            let own = (!tree.segs[i].nodes.is_empty()).then_some(i);
            (i, own.into_iter().chain(new).map(GNode::Seg).collect())
        })
        .collect();
    tree.splice(&with);
}

fn pure_block(k: &Kernel, b: BlockId) -> bool {
    k.block(b)
        .graph
        .node_weights()
        .all(|o| !o.kind.has_effect())
}

/// A guarded statement: `if (get_local_id(dim) == value) then` with no `else`.
struct Guard {
    cond: BlockId,
    dim: usize,
    value: u64,
    then: Region,
    span: crate::diag::Span,
}

fn guard(k: &Kernel, n: &Node, size: [u64; 3], remat: &BTreeMap<VarId, Expr>) -> Option<Guard> {
    let Node::If {
        cond,
        then,
        els,
        span,
    } = n
    else {
        return None;
    };
    if !els.0.is_empty() {
        return None;
    }
    let blk = k.block(cond.0);
    let OpKind::Cmp(CmpOp::Eq) = blk.op(cond.1).kind else {
        return None;
    };
    let args = blk.operands(cond.1);
    let (a, b) = (args[0], args[1]);
    let id = |o| local_id(k, cond.0, o, size, remat);
    let (lid, c) = match (id(a), constant(k, cond.0, b)) {
        (Some(d), Some(c)) => (d, c),
        _ => (id(b)?, constant(k, cond.0, a)?),
    };
    (c < size[lid] && size[lid] > 1).then(|| Guard {
        cond: cond.0,
        dim: lid,
        value: c,
        then: then.clone(),
        span: *span,
    })
}

/// The dimension of a `get_local_id(d)`, seen through integer conversions wide enough to
/// keep every local id of `size` and variables recomputed from it.
fn local_id(
    k: &Kernel,
    b: BlockId,
    o: OpId,
    size: [u64; 3],
    remat: &BTreeMap<VarId, Expr>,
) -> Option<usize> {
    let blk = k.block(b);
    match &blk.op(o).kind {
        // A variable holding the id (`uint lid = get_local_id(0);`).
        OpKind::ReadVar(v) => remat.get(v)?.local_id(size),
        OpKind::Conv(crate::ir::Conv::Int { .. }) => {
            let d = local_id(k, b, blk.operands(o)[0], size, remat)?;
            super::remat::holds_ids(blk.op(o).ty.as_ref()?, size[d]).then_some(d)
        }
        OpKind::WorkItem(WorkItemFn::LocalId) => {
            let d = constant(k, b, blk.operands(o)[0])?;
            (d < 3).then_some(d as usize)
        }
        _ => None,
    }
}

fn constant(k: &Kernel, b: BlockId, o: OpId) -> Option<u64> {
    let op = k.block(b).op(o);
    match (&op.kind, crate::loops::fold::width(op.ty.as_ref()?)) {
        (OpKind::Const(words), Some(bits)) if bits <= 64 => {
            let v = *words.first()?;
            // Negative constants never equal a local id.
            let sign = 1u64 << (bits - 1);
            (bits == 64 || v & sign == 0).then_some(v)
        }
        _ => None,
    }
}

/// Whether statement `then` of segment `seg` can run in a loop of its own: no way out,
/// no private memory, its variables written only inside it and read only inside it or
/// recomputable.
fn splittable(
    k: &Kernel,
    then: &Region,
    remat: &BTreeMap<VarId, Expr>,
    seg: usize,
    tree: &Tree,
) -> bool {
    if leaves(k, then, &mut Vec::new()) {
        return false;
    }
    let mut blocks = Vec::new();
    crate::analysis::loops::all_blocks(k, then, &mut blocks);
    let mine: HashSet<BlockId> = blocks.iter().copied().collect();
    // Private memory would need per-work-item copies; barriers and fences or builtins
    // writing through pointers keep their place.
    let private = |space: &crate::frontend::types::AddrSpace| {
        use crate::frontend::types::AddrSpace::{Generic, Private};
        matches!(space, Private | Generic)
    };
    let movable = blocks
        .iter()
        .flat_map(|b| k.block(*b).graph.node_weights())
        .all(|o| match &o.kind {
            OpKind::Load { space, .. }
            | OpKind::Store { space, .. }
            | OpKind::Atomic { space, .. } => !private(space),
            OpKind::ObjectAddr(obj) => !private(&k.object(*obj).space),
            kind => !kind.is_memory(),
        });
    if !movable {
        return false;
    }
    let (read, written) = super::emit::var_uses(k, then);
    // Everything else the kernel runs: what it reads must not come from here.
    let mut outside = Vec::new();
    for (i, s) in tree.segs.iter().enumerate() {
        let mut b = Vec::new();
        crate::analysis::loops::all_blocks(k, &Region(s.nodes.clone()), &mut b);
        outside.extend(b.into_iter().filter(|x| i != seg || !mine.contains(x)));
    }
    let read_outside = outside.iter().any(|b| {
        k.block(*b)
            .graph
            .node_weights()
            .any(|o| matches!(o.kind, OpKind::ReadVar(v) if written.contains(&v)))
    });
    if read_outside {
        return false;
    }
    let written_outside: HashSet<VarId> = outside
        .iter()
        .flat_map(|b| k.block(*b).graph.node_weights())
        .filter_map(|o| match o.kind {
            OpKind::WriteVar(v) => Some(v),
            _ => None,
        })
        .collect();
    read.iter()
        .filter(|v| written_outside.contains(v))
        .all(|v| remat.contains_key(v) && !written.contains(v))
}

/// Whether `r` can leave early: a `return`, or a `break`/`continue` of a loop outside it.
pub(super) fn leaves(k: &Kernel, r: &Region, own: &mut Vec<crate::ir::LoopId>) -> bool {
    r.0.iter().any(|n| match n {
        Node::Block(_) => false,
        Node::If { then, els, .. } => leaves(k, then, own) || leaves(k, els, own),
        Node::Loop(id) => {
            own.push(*id);
            let l = k.lp(*id);
            let out = leaves(k, &l.body, own) || leaves(k, &l.latch, own);
            own.pop();
            out
        }
        Node::Break(l) | Node::Continue(l) => !own.contains(l),
        Node::Return => true,
    })
}
