//! Splitting blocks at barriers: afterwards every barrier sits alone in a block of its
//! own, so region boundaries are block boundaries. A value computed before a barrier and
//! used after it is recomputed when it is a pure function of the work-item (constants,
//! parameters, ids, arithmetic on those), otherwise carried through a new `Var` (which the
//! liveness step then keeps per work-item).

use std::collections::{HashMap, HashSet};

use crate::diag::Diagnostic;
use crate::ir::{Block, BlockId, Kernel, Node, OpId, OpKind, Region, Ty, VarId};

pub fn is_barrier(kind: &OpKind) -> bool {
    matches!(kind, OpKind::Barrier { .. })
}

fn has_barrier(b: &Block) -> bool {
    b.graph.node_weights().any(|o| is_barrier(&o.kind))
}

/// Splits every block holding a barrier; returns the blocks that hold only barriers.
pub fn split_barriers(k: &mut Kernel) -> Result<HashSet<BlockId>, Diagnostic> {
    let mut s = Splitter {
        barriers: HashSet::new(),
        split_vars: 0,
    };
    let body = std::mem::take(&mut k.body);
    k.body = s.region(k, body)?;
    for i in 0..k.loops.len() {
        if let Some((c, _)) = k.loops[i].cond {
            s.no_barrier_in_cond(k, c)?;
        }
        let body = std::mem::take(&mut k.loops[i].body);
        k.loops[i].body = s.region(k, body)?;
        let latch = std::mem::take(&mut k.loops[i].latch);
        k.loops[i].latch = s.region(k, latch)?;
    }
    Ok(s.barriers)
}

struct Splitter {
    barriers: HashSet<BlockId>,
    split_vars: usize,
}

/// The pieces of one block being split: parts in program order, where each op went, and
/// what was already recomputed or read back in which part.
struct Parts {
    blocks: Vec<Block>,
    barrier: Vec<bool>,
    home: HashMap<OpId, (usize, OpId)>,
    local: HashMap<(usize, OpId), OpId>,
    carried: HashMap<OpId, VarId>,
}

impl Splitter {
    fn no_barrier_in_cond(&self, k: &Kernel, b: BlockId) -> Result<(), Diagnostic> {
        let blk = k.block(b);
        match blk.order.iter().find(|o| is_barrier(&blk.op(**o).kind)) {
            Some(o) => Err(Diagnostic::error(
                blk.op(*o).span,
                "a barrier inside a condition is not supported",
            )),
            None => Ok(()),
        }
    }

    fn region(&mut self, k: &mut Kernel, r: Region) -> Result<Region, Diagnostic> {
        let mut out = Vec::new();
        for n in r.0 {
            match n {
                Node::Block(b) if has_barrier(k.block(b)) => out.extend(self.split(k, b).0),
                Node::If {
                    mut cond,
                    then,
                    els,
                    span,
                } => {
                    // The lowering computes a condition in the block the statements
                    // before the `if` went to, so it may follow a barrier.
                    if has_barrier(k.block(cond.0)) {
                        let (mut nodes, home) = self.split(k, cond.0);
                        let Some((b, op)) = home.get(&cond.1).copied() else {
                            return Err(Diagnostic::error(span, "internal: condition lost"));
                        };
                        if nodes
                            .pop()
                            .is_none_or(|n| !matches!(n, Node::Block(x) if x == b))
                        {
                            return Err(Diagnostic::error(
                                span,
                                "internal: condition computed before a barrier",
                            ));
                        }
                        out.extend(nodes);
                        cond = (b, op);
                    }
                    let then = self.region(k, then)?;
                    let els = self.region(k, els)?;
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
        Ok(Region(out))
    }

    /// Replaces block `b` by its parts: the first part keeps the id, barriers and later
    /// parts get new blocks; empty parts are dropped. Also returns where each old op went.
    fn split(&mut self, k: &mut Kernel, b: BlockId) -> (Vec<Node>, HashMap<OpId, (BlockId, OpId)>) {
        let old = std::mem::take(k.block_mut(b));
        let mut p = Parts {
            blocks: vec![Block::default()],
            barrier: vec![false],
            home: HashMap::new(),
            local: HashMap::new(),
            carried: HashMap::new(),
        };
        let pure = pure_ops(&old);
        for &o in &old.order {
            let op = old.op(o).clone();
            if is_barrier(&op.kind) {
                p.blocks.push(Block::default());
                p.barrier.push(true);
                let at = p.blocks.len() - 1;
                let id = p.blocks[at].add(op.kind, op.ty, op.span, &[]);
                p.home.insert(o, (at, id));
                p.blocks.push(Block::default());
                p.barrier.push(false);
                continue;
            }
            let at = p.blocks.len() - 1;
            let args: Vec<OpId> = old
                .operands(o)
                .into_iter()
                .map(|a| self.value(k, &old, &pure, &mut p, at, a))
                .collect();
            let id = p.blocks[at].add(op.kind, op.ty, op.span, &args);
            p.home.insert(o, (at, id));
        }
        let mut nodes = Vec::new();
        let mut first = true;
        let mut ids = Vec::new();
        for (blk, is_barrier) in p.blocks.into_iter().zip(p.barrier) {
            if blk.is_empty() {
                ids.push(b);
                continue;
            }
            let id = if first {
                *k.block_mut(b) = blk;
                b
            } else {
                let id = k.new_block();
                *k.block_mut(id) = blk;
                id
            };
            first = false;
            if is_barrier {
                self.barriers.insert(id);
            }
            ids.push(id);
            nodes.push(Node::Block(id));
        }
        let home = p
            .home
            .iter()
            .map(|(o, (part, id))| (*o, (ids[*part], *id)))
            .collect();
        (nodes, home)
    }

    /// Old op `a` as seen from part `at`: itself when computed there, recomputed when pure,
    /// else read back from the variable its part writes it to.
    fn value(
        &mut self,
        k: &mut Kernel,
        old: &Block,
        pure: &HashSet<OpId>,
        p: &mut Parts,
        at: usize,
        a: OpId,
    ) -> OpId {
        let (from, id) = p.home[&a];
        if from == at {
            return id;
        }
        if let Some(v) = p.local.get(&(at, a)) {
            return *v;
        }
        let op = old.op(a).clone();
        let new = if pure.contains(&a) {
            let args: Vec<OpId> = old
                .operands(a)
                .into_iter()
                .map(|x| self.value(k, old, pure, p, at, x))
                .collect();
            p.blocks[at].add(op.kind, op.ty, op.span, &args)
        } else {
            let ty = op.ty.clone().unwrap_or(Ty::I(1));
            let var = match p.carried.get(&a) {
                Some(v) => *v,
                None => {
                    let v = k.new_var(&format!("__split{}", self.split_vars), ty.clone(), op.span);
                    self.split_vars += 1;
                    p.blocks[from].add(OpKind::WriteVar(v), None, op.span, &[id]);
                    p.carried.insert(a, v);
                    v
                }
            };
            p.blocks[at].add(OpKind::ReadVar(var), Some(ty), op.span, &[])
        };
        p.local.insert((at, a), new);
        new
    }
}

/// Ops whose value depends only on the launch and the work-item's ids (no memory, no
/// variables), so recomputing them after a barrier gives the same value.
fn pure_ops(b: &Block) -> HashSet<OpId> {
    let mut pure = HashSet::new();
    for &o in &b.order {
        let kind = &b.op(o).kind;
        let leaf_ok = !kind.has_effect() && !matches!(kind, OpKind::ReadVar(_));
        if leaf_ok && b.operands(o).iter().all(|a| pure.contains(a)) {
            pure.insert(o);
        }
    }
    pure
}
