//! Variable forwarding inside the blocks this stage made: a read of a variable written
//! earlier in the same block takes the written value (a wire instead of a register
//! round trip), a write that a later write in the block overwrites, or whose variable
//! nothing reads, goes, and so do the pure ops left without users. After unrolling and
//! scalar replacement this is what turns `acc += c[k] * w[k]` sixteen times into one
//! chain of operators, and a shift register's moves into wires.

use std::collections::{HashMap, HashSet};

use crate::ir::{Block, BlockId, Edge, Kernel, OpId, OpKind, VarId};

/// Forwards and cleans every block of `blocks` (blocks the kernel no longer places are
/// skipped); condition ops stay, and the loops and ifs that test them are updated.
/// Returns whether any block lost an op.
pub fn clean(k: &mut Kernel, blocks: &[BlockId]) -> bool {
    let placed = super::placed(k);
    let read: HashSet<VarId> = placed
        .iter()
        .flat_map(|b| k.block(*b).graph.node_weights())
        .filter_map(|o| match o.kind {
            OpKind::ReadVar(v) => Some(v),
            _ => None,
        })
        .collect();
    let conds = super::conditions(k);
    let mut done = HashSet::new();
    let mut changed = false;
    for &b in blocks {
        if !placed.contains(&b) || !done.insert(b) {
            continue;
        }
        let keep: HashSet<OpId> = conds.iter().filter(|c| c.0 == b).map(|c| c.1).collect();
        let (new, map) = block(k.block(b), &read, &keep);
        changed |= new.len() < k.block(b).len();
        *k.block_mut(b) = new;
        super::remap_conditions(k, b, &map);
    }
    changed
}

/// A forwarded value's expression written out as a tree (every use of a shared value
/// counted again) stays below this many ops: the `opt` stage and its explanations expand
/// expressions into trees, and a chain like `v = v & f(v)` doubles at every copy. A read
/// past it stays a read of the variable.
const MAX_TREE: u64 = 1000;

/// The forwarded, cleaned copy of `b` and the map of the ops it kept.
fn block(b: &Block, read: &HashSet<VarId>, keep: &HashSet<OpId>) -> (Block, HashMap<OpId, OpId>) {
    // Each read after a write of its variable stands for the written value.
    let mut last: HashMap<VarId, OpId> = HashMap::new();
    let mut fwd: HashMap<OpId, OpId> = HashMap::new();
    let mut tree: HashMap<OpId, u64> = HashMap::new();
    // A write is dead when the next write of its variable in the block comes before any
    // read that was not forwarded; the last one when nothing reads the variable.
    let mut pending: HashMap<VarId, (OpId, bool)> = HashMap::new();
    let mut dead: HashSet<OpId> = HashSet::new();
    for &o in &b.order {
        let size = b.operands(o).iter().fold(1u64, |n, a| {
            n.saturating_add(tree.get(fwd.get(a).unwrap_or(a)).copied().unwrap_or(1))
        });
        tree.insert(o, size);
        match b.op(o).kind {
            OpKind::WriteVar(v) => {
                if let Some(x) = b.operands(o).first() {
                    let x = *fwd.get(x).unwrap_or(x);
                    last.insert(v, x);
                }
                if let Some((w, false)) = pending.insert(v, (o, false)) {
                    dead.insert(w);
                }
            }
            OpKind::ReadVar(v) => {
                let to = last
                    .get(&v)
                    .filter(|x| tree.get(x).copied().unwrap_or(1) <= MAX_TREE);
                match to {
                    Some(x) if !keep.contains(&o) => {
                        fwd.insert(o, *x);
                    }
                    _ => {
                        if let Some(p) = pending.get_mut(&v) {
                            p.1 = true;
                        }
                    }
                }
            }
            _ => {}
        }
    }
    for (v, (w, _)) in &pending {
        if !read.contains(v) {
            dead.insert(*w);
        }
    }
    let resolve = |o: OpId| *fwd.get(&o).unwrap_or(&o);
    let mut live: HashSet<OpId> = HashSet::new();
    for &o in b.order.iter().rev() {
        let op = b.op(o);
        let root = (op.kind.has_effect() && !dead.contains(&o)) || keep.contains(&o);
        if !(root || live.contains(&o)) || fwd.contains_key(&o) {
            continue;
        }
        live.insert(o);
        for a in b.operands(o) {
            live.insert(resolve(a));
        }
    }
    let mut out = Block::default();
    let mut map: HashMap<OpId, OpId> = HashMap::new();
    for &o in &b.order {
        if !live.contains(&o) {
            continue;
        }
        let op = b.op(o);
        let args: Vec<OpId> = b.operands(o).iter().map(|a| map[&resolve(*a)]).collect();
        map.insert(o, out.add(op.kind.clone(), op.ty.clone(), op.span, &args));
    }
    // Ordering edges of the input between two kept ops that the replay did not remake.
    use petgraph::visit::{EdgeRef, IntoEdgeReferences};
    for e in b.graph.edge_references() {
        if *e.weight() != Edge::Order {
            continue;
        }
        if let (Some(x), Some(y)) = (map.get(&OpId(e.source())), map.get(&OpId(e.target()))) {
            if out.graph.find_edge(x.0, y.0).is_none() {
                out.graph.add_edge(x.0, y.0, Edge::Order);
            }
        }
    }
    (out, map)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::ir::{BinOp, Ty};

    #[test]
    fn a_read_after_a_write_takes_the_written_value_and_overwritten_writes_go() {
        let (s, v, w) = (Span::default(), VarId(0), VarId(1));
        let mut b = Block::default();
        let r0 = b.add(OpKind::ReadVar(v), Some(Ty::I(32)), s, &[]);
        let one = b.add(OpKind::Const(vec![1]), Some(Ty::I(32)), s, &[]);
        let a = b.add(OpKind::Binary(BinOp::Add), Some(Ty::I(32)), s, &[r0, one]);
        b.add(OpKind::WriteVar(v), None, s, &[a]);
        let r1 = b.add(OpKind::ReadVar(v), Some(Ty::I(32)), s, &[]);
        let a2 = b.add(OpKind::Binary(BinOp::Add), Some(Ty::I(32)), s, &[r1, one]);
        b.add(OpKind::WriteVar(v), None, s, &[a2]);
        // `w` is written but read nowhere.
        b.add(OpKind::WriteVar(w), None, s, &[a2]);
        let read: HashSet<VarId> = [v].into_iter().collect();
        let (out, _) = block(&b, &read, &HashSet::new());
        let kinds: Vec<String> = out
            .order
            .iter()
            .map(|o| format!("{:?}", out.op(*o).kind))
            .collect();
        assert_eq!(
            kinds.iter().filter(|k| k.starts_with("ReadVar")).count(),
            1,
            "{kinds:?}"
        );
        assert_eq!(
            kinds.iter().filter(|k| k.starts_with("WriteVar")).count(),
            1,
            "{kinds:?}"
        );
        assert_eq!(
            kinds.iter().filter(|k| k.starts_with("Binary")).count(),
            2,
            "{kinds:?}"
        );
    }
}
