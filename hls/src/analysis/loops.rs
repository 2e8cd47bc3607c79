//! The loop tree of a kernel and, per loop, the straight-line blocks one iteration runs
//! (nested loops left out, both arms of an `if` kept, as an if-converted pipeline would).

use crate::ir::{BlockId, Kernel, LoopId, LoopKind, Node, OpId, OpKind, Region};

/// Names of the group-form local-id counters, by dimension (see `workitems`).
/// The group form's work-item counters (`workitems`), x, y, z.
pub const LID_VARS: [&str; 3] = ["__lid_x", "__lid_y", "__lid_z"];

/// One block of an iteration: where it sits and whether an `if` guards it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IterBlock {
    pub block: BlockId,
    /// Inside an `if` of this iteration: its writes may not happen.
    pub conditional: bool,
}

/// A loop as the analysis sees it.
#[derive(Clone, Debug)]
pub struct LoopShape {
    pub id: LoopId,
    pub parent: Option<LoopId>,
    /// 0 for a loop at the top of the kernel body.
    pub level: u32,
    /// `Some(d)` for the work-item loop over local ids of dimension `d` (group form).
    pub work_item_dim: Option<usize>,
    /// One iteration's blocks in program order: condition (first for `while`, last for
    /// `do`), body, latch.
    pub blocks: Vec<IterBlock>,
    /// Loops directly inside this one.
    pub inner: Vec<LoopId>,
    /// A `break` of this loop or a `return` inside it: the trip count is only a bound.
    pub early_exit: bool,
}

/// Every loop of `k` in program order (parents before their children).
pub fn shapes(k: &Kernel) -> Vec<LoopShape> {
    let mut out = Vec::new();
    collect(k, &k.body, None, 0, &mut out);
    out
}

fn collect(k: &Kernel, r: &Region, parent: Option<LoopId>, level: u32, out: &mut Vec<LoopShape>) {
    for n in &r.0 {
        match n {
            Node::Loop(id) => {
                let at = out.len();
                out.push(shape(k, *id, parent, level));
                let l = k.lp(*id);
                collect(k, &l.body, Some(*id), level + 1, out);
                collect(k, &l.latch, Some(*id), level + 1, out);
                let inner = out[at + 1..]
                    .iter()
                    .filter(|s| s.parent == Some(*id))
                    .map(|s| s.id)
                    .collect();
                out[at].inner = inner;
            }
            Node::If { then, els, .. } => {
                collect(k, then, parent, level, out);
                collect(k, els, parent, level, out);
            }
            _ => {}
        }
    }
}

fn shape(k: &Kernel, id: LoopId, parent: Option<LoopId>, level: u32) -> LoopShape {
    let l = k.lp(id);
    let mut blocks = Vec::new();
    let cond = l.cond.map(|(b, _)| IterBlock {
        block: b,
        conditional: false,
    });
    if l.kind == LoopKind::While {
        blocks.extend(cond);
    }
    let mut early_exit = false;
    flatten(&l.body, false, id, &mut blocks, &mut early_exit);
    flatten(&l.latch, false, id, &mut blocks, &mut early_exit);
    if l.kind != LoopKind::While {
        blocks.extend(cond);
    }
    LoopShape {
        id,
        parent,
        level,
        work_item_dim: work_item_dim(k, id),
        blocks,
        inner: Vec::new(),
        early_exit,
    }
}

/// Appends the blocks of `r` outside nested loops; notes exits of loop `me`.
fn flatten(r: &Region, cond: bool, me: LoopId, out: &mut Vec<IterBlock>, exit: &mut bool) {
    for n in &r.0 {
        match n {
            Node::Block(b) => out.push(IterBlock {
                block: *b,
                conditional: cond,
            }),
            Node::If {
                cond: (b, _),
                then,
                els,
                ..
            } => {
                out.push(IterBlock {
                    block: *b,
                    conditional: cond,
                });
                flatten(then, true, me, out, exit);
                flatten(els, true, me, out, exit);
            }
            Node::Break(l) if *l == me => *exit = true,
            Node::Return => *exit = true,
            Node::Loop(_) | Node::Break(_) | Node::Continue(_) => {}
        }
    }
}

/// The dimension of a group-form work-item loop: its latch steps a local-id counter.
pub fn work_item_dim(k: &Kernel, id: LoopId) -> Option<usize> {
    let l = k.lp(id);
    l.latch.0.iter().find_map(|n| {
        let Node::Block(b) = n else { return None };
        k.block(*b).graph.node_weights().find_map(|o| match o.kind {
            OpKind::WriteVar(v) => LID_VARS.iter().position(|n| *n == k.var(v).name),
            _ => None,
        })
    })
}

/// The work-items a group-form work-item loop runs per group of `local` size: all of
/// them, or those with one local id fixed (`workitems/guards.rs`).
pub fn work_items(k: &Kernel, id: LoopId, local: [u64; 3]) -> u64 {
    let fixed = k.lp(id).hints.fixed_id.map(|f| f.0);
    (0..3)
        .filter(|d| Some(*d) != fixed)
        .map(|d| local[d])
        .product()
}

/// Blocks of a region and its nested ifs and loops, in program order.
pub fn all_blocks(k: &Kernel, r: &Region, out: &mut Vec<BlockId>) {
    for n in &r.0 {
        match n {
            Node::Block(b) => out.push(*b),
            Node::If {
                cond, then, els, ..
            } => {
                out.push(cond.0);
                all_blocks(k, then, out);
                all_blocks(k, els, out);
            }
            Node::Loop(id) => {
                let l = k.lp(*id);
                out.extend(l.cond.map(|c| c.0));
                all_blocks(k, &l.body, out);
                all_blocks(k, &l.latch, out);
            }
            _ => {}
        }
    }
}

/// The conditions on the way to a block: each `if` test and the arm taken (`true`: then).
pub type Guard = Vec<((BlockId, OpId), bool)>;

/// Per block of one iteration of loop `s` inside an `if`, the conditions on its way (the
/// blocks of an if-converted iteration); `None` when the iteration can leave early (a
/// `break`, `continue` or `return`) or holds a loop, which no pipeline runs.
pub fn block_guards(
    k: &Kernel,
    s: &LoopShape,
) -> Option<std::collections::BTreeMap<BlockId, Guard>> {
    fn walk(
        r: &Region,
        path: &mut Guard,
        out: &mut std::collections::BTreeMap<BlockId, Guard>,
    ) -> bool {
        for n in &r.0 {
            match n {
                Node::Block(b) => {
                    if !path.is_empty() {
                        out.insert(*b, path.clone());
                    }
                }
                Node::If {
                    cond, then, els, ..
                } => {
                    if !path.is_empty() {
                        out.insert(cond.0, path.clone());
                    }
                    for (arm, polarity) in [(then, true), (els, false)] {
                        path.push((*cond, polarity));
                        let ok = walk(arm, path, out);
                        path.pop();
                        if !ok {
                            return false;
                        }
                    }
                }
                _ => return false,
            }
        }
        true
    }
    let l = k.lp(s.id);
    let mut out = std::collections::BTreeMap::new();
    let ok = !s.early_exit
        && walk(&l.body, &mut Vec::new(), &mut out)
        && walk(&l.latch, &mut Vec::new(), &mut out);
    ok.then_some(out)
}
