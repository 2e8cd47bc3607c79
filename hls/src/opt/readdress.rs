//! Late accesses compute their own addresses. Common subexpressions (`cse.rs`, the
//! e-graphs) give a read-modify-write's load and store one address op; the store waits
//! for the load's data (a global memory latency: about 240 cycles on the DE10-Nano), so
//! in a pipelined loop the shared address rides a pipeline register chain from the load
//! to the store, 32 bits wide, where the narrow index it was computed from often rides
//! to the store anyway (packed_aligned_array: three such addresses were 6,000 of its
//! 10,300 register bits). Here such a store gets a copy of the address's cheap
//! arithmetic (adds, shifts, logic, conversions), cut where the fewest bits must ride;
//! lifetime placement (`schedule/sink.rs`) then computes the copy next to the store.
//! A copy computes the same value as the op it copies, so results cannot change.

use std::collections::{HashMap, HashSet};

use petgraph::visit::EdgeRef;
use petgraph::Direction;

use crate::frontend::types::AddrSpace;
use crate::ir::{BinOp, Block, Conv, Edge, OpId, OpKind, Ty};

/// Gives every late access (one that waits, through its operands or the memory order,
/// for a global load's data) whose address op an
/// earlier access also uses its own copy of that address, where copying costs fewer
/// riding bits than sharing. Returns how many accesses were given one.
pub fn block(b: &mut Block) -> usize {
    let late = late_ops(b);
    let mut copies: HashMap<OpId, OpId> = HashMap::new();
    let mut given = 0;
    for m in b.order.clone() {
        if !late.contains(&m) || !is_access(&b.op(m).kind) {
            continue;
        }
        let Some(&a) = b.operands(m).first() else {
            continue;
        };
        let early_user = users(b, a).iter().any(|u| *u != m && !late.contains(u));
        if late.contains(&a) || !early_user {
            continue;
        }
        let mut memo = HashMap::new();
        if cut(b, a, &late, &mut memo).copy < riding_bits(b, a) {
            let mut added = Vec::new();
            let c = copy(b, a, &late, &mut memo, &mut copies, &mut added);
            let pos = b.order.iter().position(|o| *o == m).expect("m is in order");
            b.order.splice(pos..pos, added);
            retarget(b, a, c, m);
            given += 1;
        }
    }
    given
}

/// What riding an op's value costs, and what copying it down to the cheapest cut does.
#[derive(Clone, Copy)]
struct Cut {
    copy: u32,
    best: u32,
}

/// The ops that start only after a global load's data: they read it, or a value
/// computed from it, or follow such an op in the memory order. (Accesses merely
/// ordered after a load issue in the next cycles.)
fn late_ops(b: &Block) -> HashSet<OpId> {
    let mut late = HashSet::new();
    for &o in &b.order {
        let waits = b.graph.edges_directed(o.0, Direction::Incoming).any(|e| {
            let s = OpId(e.source());
            late.contains(&s)
                || (matches!(e.weight(), Edge::Data(_)) && is_global_read(&b.op(s).kind))
        });
        if waits {
            late.insert(o);
        }
    }
    late
}

fn is_access(k: &OpKind) -> bool {
    matches!(
        k,
        OpKind::Load { .. } | OpKind::Store { .. } | OpKind::Atomic { .. }
    )
}

/// An access whose result comes back a memory latency after it starts.
fn is_global_read(k: &OpKind) -> bool {
    match k {
        OpKind::Load { space, .. } | OpKind::Atomic { space, .. } => {
            matches!(space, AddrSpace::Global | AddrSpace::Constant)
        }
        _ => false,
    }
}

fn users(b: &Block, o: OpId) -> Vec<OpId> {
    b.graph
        .edges_directed(o.0, Direction::Outgoing)
        .filter(|e| matches!(e.weight(), Edge::Data(_)))
        .map(|e| OpId(e.target()))
        .collect()
}

/// Bits a pipeline register holds of the value (global addresses are 32 bits on the
/// boards' buses, as lifetime placement counts them); 0 for what never changes.
fn riding_bits(b: &Block, o: OpId) -> u32 {
    let op = b.op(o);
    if matches!(
        op.kind,
        OpKind::Const(_) | OpKind::Param(_) | OpKind::ObjectAddr(_)
    ) {
        return 0;
    }
    match &op.ty {
        Some(Ty::Ptr(AddrSpace::Global | AddrSpace::Constant)) => 32,
        Some(t) => t.bits(),
        None => 0,
    }
}

/// Arithmetic cheap enough to compute twice: no multiplier, divider or memory.
fn cheap(k: &OpKind) -> bool {
    match k {
        OpKind::PtrAdd | OpKind::Conv(Conv::Int { .. }) | OpKind::Bitcast => true,
        OpKind::Binary(op) => matches!(
            op,
            BinOp::Add
                | BinOp::Sub
                | BinOp::Shl
                | BinOp::LShr
                | BinOp::AShr
                | BinOp::And
                | BinOp::Or
                | BinOp::Xor
        ),
        _ => false,
    }
}

/// The riding bits of `o` for a late user: shared as it is (`best` when not copied), or
/// copied, its operands each at their own cheapest cut. A value a late op already
/// reads rides whatever happens, so sharing it costs nothing more.
fn cut(b: &Block, o: OpId, late: &HashSet<OpId>, memo: &mut HashMap<OpId, Cut>) -> Cut {
    if let Some(c) = memo.get(&o) {
        return *c;
    }
    let ride = if users(b, o).iter().any(|u| late.contains(u)) {
        0
    } else {
        riding_bits(b, o)
    };
    let copy = if cheap(&b.op(o).kind) {
        b.operands(o)
            .into_iter()
            .map(|x| cut(b, x, late, memo).best)
            .sum()
    } else {
        u32::MAX
    };
    let c = Cut {
        copy,
        best: ride.min(copy),
    };
    memo.insert(o, c);
    c
}

/// The copy of `o` for late users, made once per block; new ops are appended to
/// `added` operands first. An operand is copied where that rides no more bits than
/// sharing it: on a tie too, because the tie is usually a cast or shift on the way down
/// to an index that rides anyway (strict `<` left packed_aligned_array's loop at 8,272
/// register bits instead of 4,304).
fn copy(
    b: &mut Block,
    o: OpId,
    late: &HashSet<OpId>,
    memo: &mut HashMap<OpId, Cut>,
    copies: &mut HashMap<OpId, OpId>,
    added: &mut Vec<OpId>,
) -> OpId {
    if let Some(c) = copies.get(&o) {
        return *c;
    }
    if cut(b, o, late, memo).copy == u32::MAX {
        return o;
    }
    let operands: Vec<OpId> = b
        .operands(o)
        .into_iter()
        .map(|x| {
            let cx = cut(b, x, late, memo);
            if cx.copy <= cx.best && cx.copy != u32::MAX {
                copy(b, x, late, memo, copies, added)
            } else {
                x
            }
        })
        .collect();
    let op = b.op(o).clone();
    let id = OpId(b.graph.add_node(op));
    for (i, x) in operands.iter().enumerate() {
        b.graph.add_edge(x.0, id.0, Edge::Data(i as u8));
    }
    added.push(id);
    copies.insert(o, id);
    id
}

/// Makes `m` read its address from `c` instead of `a`.
fn retarget(b: &mut Block, a: OpId, c: OpId, m: OpId) {
    let e = b
        .graph
        .edges_connecting(a.0, m.0)
        .find(|e| *e.weight() == Edge::Data(0))
        .map(|e| e.id())
        .expect("the address edge");
    b.graph.remove_edge(e);
    b.graph.add_edge(c.0, m.0, Edge::Data(0));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::ir::{Base, Kernel};

    fn add(b: &mut Block, kind: OpKind, ty: Option<Ty>, args: &[OpId]) -> OpId {
        b.add(kind, ty, Span::default(), args)
    }

    fn access(store: bool) -> OpKind {
        let (space, base) = (AddrSpace::Global, Some(Base::Param(0)));
        if store {
            OpKind::Store {
                space,
                base,
                align: 4,
            }
        } else {
            OpKind::Load {
                space,
                base,
                align: 4,
            }
        }
    }

    /// `p[i] = p[i] + 1` with one address op for both accesses, and a store of a
    /// constant at the same address between them: the store of the loaded value gets
    /// its own address from the 16-bit index (fewer bits than the 32 of an address),
    /// the other store keeps the shared one.
    fn read_modify_write() -> (Kernel, OpId, OpId, OpId, OpId) {
        let mut k = Kernel::new("k", Span::default(), Default::default());
        let v = k.new_var("i", Ty::I(16), Span::default());
        let mut b = Block::default();
        let p = add(
            &mut b,
            OpKind::Param(0),
            Some(Ty::Ptr(AddrSpace::Global)),
            &[],
        );
        let i = add(&mut b, OpKind::ReadVar(v), Some(Ty::I(16)), &[]);
        let wide = OpKind::Conv(Conv::Int {
            from_signed: false,
            to_signed: false,
            sat: false,
        });
        let e = add(&mut b, wide, Some(Ty::I(64)), &[i]);
        let two = add(&mut b, OpKind::Const(vec![2]), Some(Ty::I(64)), &[]);
        let off = add(
            &mut b,
            OpKind::Binary(BinOp::Shl),
            Some(Ty::I(64)),
            &[e, two],
        );
        let a = add(
            &mut b,
            OpKind::PtrAdd,
            Some(Ty::Ptr(AddrSpace::Global)),
            &[p, off],
        );
        let c = add(&mut b, OpKind::Const(vec![1]), Some(Ty::I(32)), &[]);
        let x = add(&mut b, access(false), Some(Ty::I(32)), &[a]);
        let early = add(&mut b, access(true), None, &[a, c]);
        let y = add(&mut b, OpKind::Binary(BinOp::Add), Some(Ty::I(32)), &[x, c]);
        let late = add(&mut b, access(true), None, &[a, y]);
        k.blocks.push(b);
        (k, a, x, late, early)
    }

    #[test]
    fn a_store_waiting_for_a_load_computes_its_address_from_the_index() {
        let (mut k, a, load, late, early) = read_modify_write();
        assert_eq!(block(&mut k.blocks[0]), 1);
        let b = &k.blocks[0];
        assert_eq!(b.operands(load)[0], a, "the load keeps its address");
        let copy = b.operands(late)[0];
        assert_ne!(copy, a, "the late store reads a copy");
        assert_eq!(b.op(copy).kind, OpKind::PtrAdd);
        // The copy's shift reads a copy of the conversion: the index, 16 bits, rides.
        let shl = b.operands(copy)[1];
        let conv = b.operands(shl)[0];
        assert_ne!(conv, b.operands(b.operands(a)[1])[0]);
        assert!(matches!(b.op(b.operands(conv)[0]).kind, OpKind::ReadVar(_)));
        // The store the load does not feed is not late: it keeps the shared address
        // (its order after the load does not delay it by a memory latency).
        assert_eq!(b.operands(early)[0], a);
        // The order stays topological and the kernel valid.
        let pos = |o: OpId| b.order.iter().position(|x| *x == o).unwrap();
        for &o in &b.order {
            for x in b.operands(o) {
                assert!(pos(x) < pos(o), "operand after its user");
            }
        }
        assert_eq!(b.order.len(), b.graph.node_count());
    }

    #[test]
    fn nothing_changes_when_no_access_waits_for_a_load() {
        let (mut k, ..) = read_modify_write();
        let b = &mut k.blocks[0];
        // Without the load's data (the late store removed), no access is late.
        let late = *b.order.last().unwrap();
        b.graph.remove_node(late.0);
        b.order.retain(|o| *o != late);
        let n = b.graph.node_count();
        assert_eq!(block(b), 0);
        assert_eq!(b.graph.node_count(), n);
    }
}
