//! A work-item loop holding one loop becomes one loop: each iteration either runs one
//! iteration of the inner loop or leaves it and moves to the next work-item, so the
//! pipeline flows from one work-item's inner iterations into the next one's instead of
//! draining once per work-item (a histogram's per-work-item loop over its share of the
//! data). The code before the inner loop runs on a work-item's first iteration, the code
//! after it on its last:
//!
//! ```text
//! while (wi) { P; while (c) { B; L } E; } step
//! =>
//! first = 1;
//! while (wi) { if (first) { P; first = 0 }  if (c) { B; L; adv = 0 } else { E; adv = 1; first = 1 } }
//! step only when adv
//! ```
//!
//! Only for a constant number of work-items, more than one (`reqd_work_group_size`), when
//! nothing leaves early (no `break`, `continue` or `return`), the pieces hold no other
//! loop, and the code around the inner loop touches no memory. Consecutive iterations may now be one work-item's, so the loop's
//! memory dependences are all kept (`LoopHints::flattened`).

use std::collections::HashMap;

use crate::analysis::loops::{all_blocks, work_item_dim, LID_VARS};
use crate::diag::Span;
use crate::ir::{
    Base, Block, BlockId, Kernel, LoopId, LoopKind, Node, OpId, OpKind, Region, Ty, VarId,
};

/// Flattens every work-item loop of `k` that holds exactly one loop; returns how many.
pub fn run(k: &mut Kernel) -> usize {
    let body = std::mem::take(&mut k.body);
    let mut n = 0;
    k.body = region(k, body, &mut n);
    n
}

fn region(k: &mut Kernel, r: Region, n: &mut usize) -> Region {
    let mut out = Vec::new();
    for node in r.0 {
        match node {
            Node::Loop(id) => {
                let l = k.lp(id).clone();
                let body = region(k, l.body, n);
                let latch = region(k, l.latch, n);
                let lp = &mut k.loops[id.0 as usize];
                lp.body = body;
                lp.latch = latch;
                if let Some(first) = flatten(k, id) {
                    out.push(Node::Block(first));
                    *n += 1;
                }
                out.push(Node::Loop(id));
            }
            Node::If {
                cond,
                then,
                els,
                span,
            } => {
                let then = region(k, then, n);
                let els = region(k, els, n);
                out.push(Node::If {
                    cond,
                    then,
                    els,
                    span,
                });
            }
            other => out.push(other),
        }
    }
    Region(out)
}

fn is_lid(k: &Kernel, v: VarId) -> bool {
    LID_VARS.contains(&k.var(v).name.as_str())
}

/// The work-item loop runs a constant number of work-items, more than one (a
/// `reqd_work_group_size` kernel: its test compares with a constant).
fn many_items(k: &Kernel, cond: Option<(BlockId, OpId)>) -> bool {
    let Some((b, c)) = cond else { return false };
    let blk = k.block(b);
    blk.operands(c)
        .iter()
        .any(|a| matches!(&blk.op(*a).kind, OpKind::Const(v) if v.first().is_some_and(|n| *n > 1)))
}

/// No memory access in `nodes` but on-chip reads: code that runs once per work-item
/// around the inner loop must not put a global memory latency into the flattened loop's
/// recurrences (its values are carried from a work-item's first iteration to the rest).
fn no_memory(k: &Kernel, nodes: &[Node]) -> bool {
    let slow = |kind: &OpKind| {
        kind.is_memory()
            && !matches!(
                kind,
                OpKind::Load {
                    base: Some(Base::Object(_)),
                    ..
                }
            )
    };
    let mut blocks = Vec::new();
    all_blocks(k, &Region(nodes.to_vec()), &mut blocks);
    blocks
        .iter()
        .all(|b| !k.block(*b).graph.node_weights().any(|o| slow(&o.kind)))
}

/// Straight-line or branching code: no loop, nothing leaving early.
fn plain(nodes: &[Node]) -> bool {
    nodes.iter().all(|n| match n {
        Node::Block(_) => true,
        Node::If { then, els, .. } => plain(&then.0) && plain(&els.0),
        Node::Loop(_) | Node::Break(_) | Node::Continue(_) | Node::Return => false,
    })
}

fn flag(k: &mut Kernel, v: VarId, on: bool, span: Span) -> BlockId {
    let b = k.new_block();
    let blk = k.block_mut(b);
    let c = blk.add(OpKind::Const(vec![on as u64]), Some(Ty::I(1)), span, &[]);
    blk.add(OpKind::WriteVar(v), None, span, &[c]);
    b
}

/// Flattens loop `w` when it is a work-item loop holding one plain `while` loop; returns
/// the block to place before it (setting `first`).
fn flatten(k: &mut Kernel, w: LoopId) -> Option<BlockId> {
    let wl = k.lp(w).clone();
    if wl.kind != LoopKind::While
        || wl.hints.flattened
        || work_item_dim(k, w).is_none()
        || !many_items(k, wl.cond)
    {
        return None;
    }
    let at = wl.body.0.iter().position(|n| matches!(n, Node::Loop(_)))?;
    let Node::Loop(i) = wl.body.0[at] else {
        return None;
    };
    let (before, after) = (&wl.body.0[..at], &wl.body.0[at + 1..]);
    let il = k.lp(i).clone();
    let ok = il.kind == LoopKind::While
        && plain(before)
        && plain(after)
        && no_memory(k, before)
        && no_memory(k, after)
        && plain(&il.body.0)
        && plain(&il.latch.0)
        && plain(&wl.latch.0);
    let (cb, cop) = il.cond?;
    if !ok {
        return None;
    }
    let span = il.span;
    let first = k.new_var(&format!("__first{}", w.0), Ty::I(1), span);
    let adv = k.new_var(&format!("__advance{}", w.0), Ty::I(1), span);
    let start = flag(k, first, true, span);

    let read_first = k.new_block();
    let rf = k
        .block_mut(read_first)
        .add(OpKind::ReadVar(first), Some(Ty::I(1)), span, &[]);
    let mut head: Vec<Node> = before.to_vec();
    head.push(Node::Block(flag(k, first, false, span)));

    let mut inner: Vec<Node> = il.body.0.clone();
    inner.extend(il.latch.0.iter().cloned());
    inner.push(Node::Block(flag(k, adv, false, span)));
    let mut leave: Vec<Node> = after.to_vec();
    leave.push(Node::Block(flag(k, adv, true, span)));
    leave.push(Node::Block(flag(k, first, true, span)));

    let body = vec![
        Node::If {
            cond: (read_first, rf),
            then: Region(head),
            els: Region::default(),
            span,
        },
        Node::If {
            cond: (cb, cop),
            then: Region(inner),
            els: Region(leave),
            span,
        },
    ];
    let latch: Vec<Node> = wl
        .latch
        .0
        .iter()
        .map(|n| match n {
            Node::Block(b) => Node::Block(gate_steps(k, *b, adv)),
            other => other.clone(),
        })
        .collect();
    let lp = &mut k.loops[w.0 as usize];
    lp.body = Region(body);
    lp.latch = Region(latch);
    lp.hints.flattened = true;
    Some(start)
}

/// Block `b` again, each work-item counter it writes keeping its value unless `adv`.
fn gate_steps(k: &mut Kernel, b: BlockId, adv: VarId) -> BlockId {
    let old = k.block(b).clone();
    let mut new = Block::default();
    let mut map: HashMap<OpId, OpId> = HashMap::new();
    let span = old
        .order
        .first()
        .map(|&o| old.op(o).span)
        .unwrap_or_default();
    let go = new.add(OpKind::ReadVar(adv), Some(Ty::I(1)), span, &[]);
    for &o in &old.order {
        let op = old.op(o);
        let args: Vec<OpId> = old.operands(o).iter().map(|a| map[a]).collect();
        let id = match op.kind {
            OpKind::WriteVar(v) if is_lid(k, v) => {
                let ty = Some(k.var(v).ty.clone());
                let keep = new.add(OpKind::ReadVar(v), ty.clone(), op.span, &[]);
                let next = new.add(OpKind::Select, ty, op.span, &[go, args[0], keep]);
                new.add(OpKind::WriteVar(v), None, op.span, &[next])
            }
            _ => new.add(op.kind.clone(), op.ty.clone(), op.span, &args),
        };
        map.insert(o, id);
    }
    let nb = k.new_block();
    *k.block_mut(nb) = new;
    nb
}
