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

/// The forwarded, cleaned copy of `b` and the map of the ops it kept.
fn block(b: &Block, read: &HashSet<VarId>, keep: &HashSet<OpId>) -> (Block, HashMap<OpId, OpId>) {
    // Each read after a write of its variable stands for the written value.
    let mut last: HashMap<VarId, OpId> = HashMap::new();
    let mut fwd: HashMap<OpId, OpId> = HashMap::new();
    let mut writes: HashMap<VarId, Vec<OpId>> = HashMap::new();
    for &o in &b.order {
        match b.op(o).kind {
            OpKind::WriteVar(v) => {
                if let Some(x) = b.operands(o).first() {
                    let x = *fwd.get(x).unwrap_or(x);
                    last.insert(v, x);
                }
                writes.entry(v).or_default().push(o);
            }
            OpKind::ReadVar(v) if !keep.contains(&o) => {
                if let Some(x) = last.get(&v) {
                    fwd.insert(o, *x);
                }
            }
            _ => {}
        }
    }
    let resolve = |o: OpId| *fwd.get(&o).unwrap_or(&o);
    // Every write but the last of each variable is overwritten before anyone reads it
    // (reads after a write were forwarded); the last goes when nothing reads the variable.
    let mut dead: HashSet<OpId> = HashSet::new();
    for (v, ws) in &writes {
        let n = ws.len() - usize::from(read.contains(v));
        dead.extend(ws.iter().take(n));
    }
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
