//! Variable liveness over the kernel's structured regions: a write is dead when no path
//! from it reads the variable before writing it again. The block-local rules of
//! `dead.rs` miss what crosses blocks: once the group form copies `gx = ...` into every
//! loop a barrier made and `merge` and forwarding hand each loop's uses the value
//! directly, the last loop's write of `gx` is read by nothing, yet its register, and the
//! pipeline chain carrying it to the write's stage, stayed.
//!
//! The analysis runs backwards: a block's reads make their variables live and its
//! writes end them; an `if` joins its arms; a loop's head is iterated to a fixed point
//! (the sets only grow); `break` takes the loop's exit set, `continue` its latch's, and
//! `return` none (a variable does not outlive its work-item).

use std::collections::{HashMap, HashSet};

use crate::ir::{BlockId, Kernel, LoopId, LoopKind, Node, OpId, OpKind, Region, VarId};

type Live = HashSet<VarId>;

/// The writes of `k` that no read can see.
pub fn unseen_writes(k: &Kernel) -> Vec<(BlockId, OpId)> {
    let mut a = Analysis {
        k,
        heads: HashMap::new(),
        exits: HashMap::new(),
        latches: HashMap::new(),
        dead: None,
    };
    // Each round can only grow the loops' head sets, which are bounded by the variables.
    loop {
        let before = a.heads.clone();
        a.region(&k.body, Live::new());
        if a.heads == before {
            break;
        }
    }
    a.dead = Some(Vec::new());
    a.region(&k.body, Live::new());
    let mut dead = a.dead.unwrap_or_default();
    dead.sort();
    dead
}

struct Analysis<'a> {
    k: &'a Kernel,
    /// Per loop, what is live where an iteration starts (the back edge's target).
    heads: HashMap<LoopId, Live>,
    /// Per loop being walked, what is live after it and at its latch.
    exits: HashMap<LoopId, Live>,
    latches: HashMap<LoopId, Live>,
    /// On the last round, the writes found dead.
    dead: Option<Vec<(BlockId, OpId)>>,
}

impl Analysis<'_> {
    fn block(&mut self, b: BlockId, mut live: Live) -> Live {
        let blk = self.k.block(b);
        for &o in blk.order.iter().rev() {
            match blk.op(o).kind {
                OpKind::WriteVar(v) if !live.remove(&v) => {
                    if let Some(d) = &mut self.dead {
                        d.push((b, o));
                    }
                }
                OpKind::ReadVar(v) => {
                    live.insert(v);
                }
                _ => {}
            }
        }
        live
    }

    /// What is live before `r`, given what is live after it.
    fn region(&mut self, r: &Region, after: Live) -> Live {
        let mut live = after;
        for n in r.0.iter().rev() {
            live = match n {
                Node::Block(b) => self.block(*b, live),
                Node::If {
                    cond, then, els, ..
                } => {
                    let mut both = self.region(then, live.clone());
                    both.extend(self.region(els, live));
                    self.block(cond.0, both)
                }
                Node::Loop(id) => self.lp(*id, live),
                Node::Break(id) => self.exits.get(id).cloned().unwrap_or_default(),
                Node::Continue(id) => self.latches.get(id).cloned().unwrap_or_default(),
                Node::Return => Live::new(),
            };
        }
        live
    }

    fn lp(&mut self, id: LoopId, exit: Live) -> Live {
        let l = self.k.lp(id);
        let head = self.heads.get(&id).cloned().unwrap_or_default();
        self.exits.insert(id, exit.clone());
        // The test, where it runs: on to `go_on`, or out of the loop.
        let test = |a: &mut Self, go_on: Live| match l.cond {
            Some((b, _)) => {
                let mut both = go_on;
                both.extend(exit.iter().copied());
                a.block(b, both)
            }
            None => go_on,
        };
        let new_head = match l.kind {
            LoopKind::While => {
                let latch = self.region(&l.latch, head);
                self.latches.insert(id, latch.clone());
                let body = self.region(&l.body, latch);
                test(self, body)
            }
            LoopKind::DoWhile => {
                let at_test = test(self, head);
                let latch = self.region(&l.latch, at_test);
                self.latches.insert(id, latch.clone());
                self.region(&l.body, latch)
            }
            LoopKind::Once => {
                let latch = self.region(&l.latch, exit.clone());
                self.latches.insert(id, latch.clone());
                self.region(&l.body, latch)
            }
        };
        let e = self.heads.entry(id).or_default();
        e.extend(new_head.iter().copied());
        self.exits.remove(&id);
        self.latches.remove(&id);
        new_head
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::ir::{Block, Loop, Ty};

    fn add(b: &mut Block, kind: OpKind, ty: Option<Ty>, args: &[OpId]) -> OpId {
        b.add(kind, ty, Span::default(), args)
    }

    /// `v` written in two loops one after the other, each reading it after writing it
    /// (in a later block of the iteration): the writes are live. A third write after
    /// the last loop, and a write the loop's next iteration overwrites unread, are not.
    #[test]
    fn a_write_no_later_read_sees_is_dead_across_blocks_and_loops() {
        let mut k = Kernel::new("k", Span::default(), Default::default());
        let v = k.new_var("v", Ty::I(32), Span::default());
        let w = k.new_var("w", Ty::I(32), Span::default());
        let mut blocks = Vec::new();
        let mut writes = Vec::new();
        let lp = |k: &mut Kernel, blocks: &mut Vec<Block>, read_v: bool| {
            // cond block: reads `w` (the counter) and tests it.
            let mut c = Block::default();
            let r = add(&mut c, OpKind::ReadVar(w), Some(Ty::I(32)), &[]);
            let t = add(
                &mut c,
                OpKind::Cmp(crate::ir::CmpOp::Ne),
                Some(Ty::I(1)),
                &[r, r],
            );
            let cb = BlockId(blocks.len() as u32);
            blocks.push(c);
            let mut body = Block::default();
            let one = add(&mut body, OpKind::Const(vec![1]), Some(Ty::I(32)), &[]);
            let wv = add(&mut body, OpKind::WriteVar(v), None, &[one]);
            let bb = BlockId(blocks.len() as u32);
            blocks.push(body);
            let mut nodes = vec![Node::Block(bb)];
            if read_v {
                let mut user = Block::default();
                let r = add(&mut user, OpKind::ReadVar(v), Some(Ty::I(32)), &[]);
                add(&mut user, OpKind::WriteVar(w), None, &[r]);
                nodes.push(Node::Block(BlockId(blocks.len() as u32)));
                blocks.push(user);
            }
            let id = LoopId(k.loops.len() as u32);
            k.loops.push(Loop {
                kind: LoopKind::While,
                cond: Some((cb, t)),
                body: Region(nodes),
                latch: Region::default(),
                hints: Default::default(),
                span: Span::default(),
            });
            (id, (bb, wv))
        };
        let (l0, w0) = lp(&mut k, &mut blocks, true);
        let (l1, w1) = lp(&mut k, &mut blocks, false);
        let mut tail = Block::default();
        let two = add(&mut tail, OpKind::Const(vec![2]), Some(Ty::I(32)), &[]);
        let w2 = add(&mut tail, OpKind::WriteVar(v), None, &[two]);
        let tb = BlockId(blocks.len() as u32);
        blocks.push(tail);
        writes.extend([w0, w1, (tb, w2)]);
        k.blocks = blocks;
        k.body = Region(vec![Node::Loop(l0), Node::Loop(l1), Node::Block(tb)]);
        let dead = unseen_writes(&k);
        assert!(!dead.contains(&writes[0]), "{dead:?}");
        assert!(dead.contains(&writes[1]), "{dead:?}");
        assert!(dead.contains(&writes[2]), "{dead:?}");
        // The counter `w`, written in the first loop and tested at its head, is live.
        assert_eq!(dead.len(), 2, "{dead:?}");
    }
}
