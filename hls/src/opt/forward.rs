//! Variable reads a block already has the value of, found before the e-graph is built: a
//! read after a write of the same variable in the same block is the written value, and
//! reads of one variable that see the same write (or none, reading the value at the
//! block's entry) are one value. The duplicate reads are removed and their users read
//! the value they stand for, so that the e-graph sees whole expressions across
//! variables (`o = i * 16; out[o + 1]`) and the common parts of neighbouring addresses
//! are one computation.
//!
//! A block runs its ops in `order` (a topological order the ordering edges follow), so
//! the write a read sees is the last write of its variable before it in `order`.

use std::collections::HashMap;

use petgraph::visit::EdgeRef;
use petgraph::Direction;

use crate::ir::{Block, Edge, OpId, OpKind, VarId};

/// Whether `b` must follow `a` in a block's order when both are there: two memory ops
/// (the block orders each after the previous one), or two accesses of one variable.
/// `Block::add` leaves the ordering edge out when the earlier op is an operand of the
/// later one, so between such ops a data edge orders too.
fn chained(a: &OpKind, b: &OpKind) -> bool {
    let var = |k: &OpKind| match k {
        OpKind::ReadVar(v) | OpKind::WriteVar(v) => Some(*v),
        _ => None,
    };
    (a.is_memory() && b.is_memory()) || var(a).is_some_and(|v| var(b) == Some(v))
}

/// Removes `old` from `b` keeping the order it stood in: every op it followed (by an
/// ordering edge, or as an operand chained to it) precedes every op that followed it
/// (by an ordering edge, or as a user chained to it). Without the data edges, a store of
/// a forwarded load's value would lose its place after the memory ops before the load,
/// and the schedule could move it past a later load of the same place.
pub fn remove(b: &mut Block, old: OpId) {
    let kind = b.op(old).kind.clone();
    let before: Vec<_> = b
        .graph
        .edges_directed(old.0, Direction::Incoming)
        .filter(|e| *e.weight() == Edge::Order || chained(&b.graph[e.source()].kind, &kind))
        .map(|e| e.source())
        .collect();
    let after: Vec<_> = b
        .graph
        .edges_directed(old.0, Direction::Outgoing)
        .filter(|e| *e.weight() == Edge::Order || chained(&kind, &b.graph[e.target()].kind))
        .map(|e| e.target())
        .collect();
    for &p in &before {
        for &t in &after {
            if p != t && b.graph.find_edge(p, t).is_none() {
                b.graph.add_edge(p, t, Edge::Order);
            }
        }
    }
    b.graph.remove_node(old.0);
    b.order.retain(|o| *o != old);
}

/// Replaces every use of `old` by `new` and removes `old`, keeping the order it stood
/// in (`remove`).
pub fn replace(b: &mut Block, old: OpId, new: OpId) {
    let uses: Vec<(petgraph::graph::NodeIndex<u32>, u8)> = b
        .graph
        .edges_directed(old.0, Direction::Outgoing)
        .filter_map(|e| match e.weight() {
            Edge::Data(i) => Some((e.target(), *i)),
            Edge::Order => None,
        })
        .collect();
    for (t, i) in uses {
        b.graph.add_edge(new.0, t, Edge::Data(i));
    }
    remove(b, old);
}

/// Replaces `old` by `new`, an op of the ones appended to `b` since its order had
/// `since` ops: those take `old`'s place in the order (they read only what `old` could),
/// then `old`'s users read `new` and `old` goes (`replace`).
pub fn replace_with_appended(b: &mut Block, old: OpId, new: OpId, since: usize) {
    let added = b.order.split_off(since);
    let at = b.order.iter().position(|o| *o == old).expect("in order");
    b.order.splice(at..at, added);
    replace(b, old, new);
}

/// Forwards the reads of block `b`; returns each removed read with the op now standing
/// for it.
pub fn block(b: &mut Block) -> HashMap<OpId, OpId> {
    let mut known: HashMap<VarId, OpId> = HashMap::new();
    let mut plan: Vec<(OpId, OpId)> = Vec::new();
    // Reads already found to be duplicates, with the op each stands for.
    let mut alias: HashMap<OpId, OpId> = HashMap::new();
    for &o in &b.order {
        let key = match &b.op(o).kind {
            OpKind::WriteVar(v) => {
                if let Some(value) = b.operands(o).first() {
                    let value = alias.get(value).copied().unwrap_or(*value);
                    known.insert(*v, value);
                }
                continue;
            }
            OpKind::ReadVar(v) => *v,
            _ => continue,
        };
        match known.get(&key) {
            Some(first) => {
                plan.push((o, *first));
                alias.insert(o, *first);
            }
            None => {
                known.insert(key, o);
            }
        }
    }
    let mut map = HashMap::new();
    for (old, new) in plan {
        replace(b, old, new);
        map.insert(old, new);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::ir::{BinOp, Ty};

    /// A kernel of one block and `vars` i32 variables.
    fn kernel(b: Block, vars: usize) -> crate::ir::Kernel {
        let mut k = crate::ir::Kernel::new("k", Span::default(), Default::default());
        for i in 0..vars {
            k.new_var(&format!("v{i}"), Ty::I(32), Span::default());
        }
        k.blocks.push(b);
        k.body.0.push(crate::ir::Node::Block(crate::ir::BlockId(0)));
        k
    }

    fn add(b: &mut Block, kind: OpKind, ty: Option<Ty>, args: &[OpId]) -> OpId {
        b.add(kind, ty, Span::default(), args)
    }

    #[test]
    fn a_read_after_a_write_is_the_written_value_and_entry_reads_are_one() {
        let mut b = Block::default();
        let v = VarId(0);
        let r0 = add(&mut b, OpKind::ReadVar(v), Some(Ty::I(32)), &[]);
        let r1 = add(&mut b, OpKind::ReadVar(v), Some(Ty::I(32)), &[]);
        let s = add(
            &mut b,
            OpKind::Binary(BinOp::Add),
            Some(Ty::I(32)),
            &[r0, r1],
        );
        add(&mut b, OpKind::WriteVar(v), None, &[s]);
        let r2 = add(&mut b, OpKind::ReadVar(v), Some(Ty::I(32)), &[]);
        let m = add(
            &mut b,
            OpKind::Binary(BinOp::Mul),
            Some(Ty::I(32)),
            &[r2, r2],
        );
        add(&mut b, OpKind::WriteVar(VarId(1)), None, &[m]);
        let map = block(&mut b);
        assert_eq!(map.get(&r1), Some(&r0));
        assert_eq!(map.get(&r2), Some(&s));
        assert_eq!(b.operands(s), vec![r0, r0]);
        assert_eq!(b.operands(m), vec![s, s]);
        assert_eq!(b.len(), 5);
    }

    #[test]
    fn a_write_of_a_duplicate_read_forwards_the_read_it_stands_for() {
        let mut b = Block::default();
        let (v, w) = (VarId(0), VarId(1));
        let r0 = add(&mut b, OpKind::ReadVar(v), Some(Ty::I(32)), &[]);
        let r1 = add(&mut b, OpKind::ReadVar(v), Some(Ty::I(32)), &[]);
        add(&mut b, OpKind::WriteVar(w), None, &[r1]);
        let r2 = add(&mut b, OpKind::ReadVar(w), Some(Ty::I(32)), &[]);
        add(&mut b, OpKind::WriteVar(v), None, &[r2]);
        let map = block(&mut b);
        assert_eq!(map.get(&r2), Some(&r0));
        assert_eq!(b.len(), 3);
        assert!(crate::ir::verify::verify_kernel(&kernel(b, 2)).is_ok());
    }
}
