//! Dropping the blocks and loops the body no longer places (barrier blocks, replaced
//! pieces) and numbering the rest in the order they appear, so later passes and the
//! printed IR see only live code.

use std::collections::HashMap;

use crate::ir::{Block, BlockId, Kernel, Loop, LoopId, Node, Region};

#[derive(Default)]
struct Renumber {
    blocks: HashMap<BlockId, BlockId>,
    loops: HashMap<LoopId, LoopId>,
    new_blocks: Vec<Block>,
    new_loops: Vec<Loop>,
}

pub fn compact(k: &mut Kernel) {
    let mut r = Renumber::default();
    let body = std::mem::take(&mut k.body);
    k.body = r.region(k, &body);
    k.blocks = r.new_blocks;
    k.loops = r.new_loops;
}

impl Renumber {
    fn block(&mut self, k: &mut Kernel, b: BlockId) -> BlockId {
        let id = BlockId(self.new_blocks.len() as u32);
        self.new_blocks.push(std::mem::take(k.block_mut(b)));
        self.blocks.insert(b, id);
        id
    }

    fn region(&mut self, k: &mut Kernel, r: &Region) -> Region {
        Region(r.0.iter().map(|n| self.node(k, n)).collect())
    }

    fn node(&mut self, k: &mut Kernel, n: &Node) -> Node {
        match n {
            Node::Block(b) => Node::Block(self.block(k, *b)),
            Node::If {
                cond,
                then,
                els,
                span,
            } => {
                let c = self.block(k, cond.0);
                Node::If {
                    cond: (c, cond.1),
                    then: self.region(k, then),
                    els: self.region(k, els),
                    span: *span,
                }
            }
            Node::Loop(id) => {
                let mut l = k.lp(*id).clone();
                let new = LoopId(self.new_loops.len() as u32);
                self.loops.insert(*id, new);
                // Reserve the slot so nested loops number after this one.
                self.new_loops.push(l.clone());
                l.cond = l.cond.map(|(b, op)| (self.block(k, b), op));
                l.body = self.region(k, &l.body);
                l.latch = self.region(k, &l.latch);
                self.new_loops[new.0 as usize] = l;
                Node::Loop(new)
            }
            Node::Break(l) => Node::Break(self.loops.get(l).copied().unwrap_or(*l)),
            Node::Continue(l) => Node::Continue(self.loops.get(l).copied().unwrap_or(*l)),
            Node::Return => Node::Return,
        }
    }
}
