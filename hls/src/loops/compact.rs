//! Dropping what the stage left unused: blocks and loops the body no longer places
//! (the originals of unrolled copies) and objects nothing points at any more (arrays now
//! in registers, tables whose loads all folded), numbering the rest in program order so
//! the printed IR, the side tables and the hardware see only live code and memories.

use std::collections::{BTreeSet, HashMap};

use crate::ir::{
    Base, Block, BlockId, Kernel, Loop, LoopId, Node, ObjectId, OpKind, ParamKind, Region, VarId,
};

/// Renumbers `k`; returns the old-to-new loop ids.
pub fn compact(k: &mut Kernel) -> HashMap<LoopId, LoopId> {
    let mut r = Renumber::default();
    let body = std::mem::take(&mut k.body);
    k.body = r.region(k, &body);
    k.blocks = r.new_blocks;
    k.loops = r.new_loops;
    prune_objects(k);
    prune_vars(k);
    r.loops
}

/// Removes variables no op reads or writes any more (counters of fully unrolled loops),
/// renumbering the rest.
fn prune_vars(k: &mut Kernel) {
    let mut used: BTreeSet<VarId> = BTreeSet::new();
    for b in &k.blocks {
        for o in b.graph.node_weights() {
            if let OpKind::ReadVar(v) | OpKind::WriteVar(v) = o.kind {
                used.insert(v);
            }
        }
    }
    if used.len() == k.vars.len() {
        return;
    }
    let map: HashMap<VarId, VarId> = used
        .iter()
        .enumerate()
        .map(|(i, v)| (*v, VarId(i as u32)))
        .collect();
    let vars = std::mem::take(&mut k.vars);
    k.vars = vars
        .into_iter()
        .enumerate()
        .filter(|(i, _)| used.contains(&VarId(*i as u32)))
        .map(|(_, v)| v)
        .collect();
    for b in &mut k.blocks {
        for o in b.graph.node_weights_mut() {
            if let OpKind::ReadVar(v) | OpKind::WriteVar(v) = &mut o.kind {
                *v = map[v];
            }
        }
    }
}

#[derive(Default)]
struct Renumber {
    blocks: HashMap<BlockId, BlockId>,
    loops: HashMap<LoopId, LoopId>,
    new_blocks: Vec<Block>,
    new_loops: Vec<Loop>,
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
                // The slot is taken now so that nested loops number after this one.
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

/// Removes objects no op and no parameter refers to, renumbering the references.
fn prune_objects(k: &mut Kernel) {
    let mut used: BTreeSet<ObjectId> = BTreeSet::new();
    for p in &k.params {
        if let ParamKind::Struct { object } = p.kind {
            used.insert(object);
        }
    }
    for b in &k.blocks {
        for o in b.graph.node_weights() {
            used.extend(object_of(&o.kind));
        }
    }
    if used.len() == k.objects.len() {
        return;
    }
    let map: HashMap<ObjectId, ObjectId> = used
        .iter()
        .enumerate()
        .map(|(i, o)| (*o, ObjectId(i as u32)))
        .collect();
    let objects = std::mem::take(&mut k.objects);
    k.objects = objects
        .into_iter()
        .enumerate()
        .filter(|(i, _)| used.contains(&ObjectId(*i as u32)))
        .map(|(_, o)| o)
        .collect();
    for p in &mut k.params {
        if let ParamKind::Struct { object } = &mut p.kind {
            *object = map[object];
        }
    }
    for b in &mut k.blocks {
        for o in b.graph.node_weights_mut() {
            match &mut o.kind {
                OpKind::ObjectAddr(x) => *x = map[x],
                OpKind::Load { base, .. }
                | OpKind::Store { base, .. }
                | OpKind::Atomic { base, .. } => {
                    if let Some(Base::Object(x)) = base {
                        *x = map[x];
                    }
                }
                _ => {}
            }
        }
    }
}

fn object_of(kind: &OpKind) -> Option<ObjectId> {
    match kind {
        OpKind::ObjectAddr(x) => Some(*x),
        OpKind::Load { base, .. } | OpKind::Store { base, .. } | OpKind::Atomic { base, .. } => {
            match base {
                Some(Base::Object(x)) => Some(*x),
                _ => None,
            }
        }
        _ => None,
    }
}
