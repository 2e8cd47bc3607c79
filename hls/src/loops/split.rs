//! Splits a global load in a loop holding no loop (a pipeline candidate) that is narrower
//! than its buffer's widest load and less aligned than its size (a packed struct's
//! `ushort` at an odd offset) into loads of its aligned pieces, joined little-endian.
//! A pipelined load narrower than its buffer's memory unit reads the unit's element
//! holding it, so it must not straddle two elements; an aligned piece never does. Outside
//! pipeline candidates the FSM's one unaligned request is cheaper, so those stay whole.

use std::collections::{BTreeMap, BTreeSet};

use petgraph::visit::EdgeRef;
use petgraph::Direction;

use crate::frontend::types::AddrSpace;
use crate::ir::{Base, BinOp, Block, BlockId, Conv, Edge, Kernel, Op, OpId, OpKind, Ty};

/// Splits the loads described above; returns how many it split.
pub fn run(k: &mut Kernel) -> usize {
    let widest = widest_loads(k);
    let candidates: BTreeSet<BlockId> = crate::analysis::loops::shapes(k)
        .iter()
        .filter(|s| s.inner.is_empty())
        .flat_map(|s| s.blocks.iter().map(|ib| ib.block))
        .collect();
    let mut split = 0;
    for b in candidates {
        let blk = k.block_mut(b);
        let targets: Vec<(OpId, u32)> = blk
            .order
            .iter()
            .filter_map(|&o| {
                let (bytes, align) = splittable(blk.op(o))?;
                let Some(Base::Param(p)) = load_base(blk.op(o)) else {
                    return None;
                };
                (widest.get(&p).copied().unwrap_or(0) > bytes).then_some((o, align))
            })
            .collect();
        for (o, align) in targets {
            split_load(blk, o, align);
            split += 1;
        }
    }
    split
}

/// The widest load of every buffer parameter, in bytes.
fn widest_loads(k: &Kernel) -> BTreeMap<u32, u32> {
    let mut out: BTreeMap<u32, u32> = BTreeMap::new();
    for blk in &k.blocks {
        for &o in &blk.order {
            let op = blk.op(o);
            if let (Some(Base::Param(p)), Some(ty)) = (load_base(op), &op.ty) {
                let e = out.entry(p).or_default();
                *e = (*e).max(ty.bits().div_ceil(8));
            }
        }
    }
    out
}

fn load_base(op: &Op) -> Option<Base> {
    match op.kind {
        OpKind::Load {
            space: AddrSpace::Global | AddrSpace::Constant,
            base,
            ..
        } => base,
        _ => None,
    }
}

/// A scalar load of 2, 4 or 8 bytes aligned below its size: its bytes and alignment.
fn splittable(op: &Op) -> Option<(u32, u32)> {
    let OpKind::Load { align, .. } = op.kind else {
        return None;
    };
    let bytes = match op.ty.as_ref()? {
        Ty::I(16 | 32 | 64) | Ty::F32 | Ty::F64 => op.ty.as_ref()?.bits() / 8,
        _ => return None,
    };
    let align = 1u32 << align.max(1).trailing_zeros();
    (align < bytes).then_some((bytes, align))
}

/// Replaces load `o` in place: `o` becomes the first piece (keeping its place in the
/// memory order), the other pieces follow it in that order, and the users of `o` read
/// the joined value.
fn split_load(blk: &mut Block, o: OpId, align: u32) {
    let op = blk.op(o).clone();
    let ty = op.ty.clone().expect("a load has a result");
    let bits = ty.bits();
    let piece_bits = align * 8;
    let piece_ty = Ty::I(piece_bits as u8);
    let whole_ty = Ty::I(bits as u8);
    let OpKind::Load { space, base, .. } = op.kind else {
        unreachable!("splittable checked the kind")
    };
    let ptr = blk.operands(o)[0];
    let span = op.span;
    // Every edge leaving `o` now leaves the joined value (data) or the last piece (order).
    let out_data: Vec<(petgraph::graph::EdgeIndex<u32>, OpId, Edge)> = blk
        .graph
        .edges_directed(o.0, Direction::Outgoing)
        .map(|e| (e.id(), OpId(e.target()), *e.weight()))
        .collect();
    for (id, _, _) in &out_data {
        blk.graph.remove_edge(*id);
    }
    blk.graph[o.0] = Op {
        kind: OpKind::Load { space, base, align },
        ty: Some(piece_ty.clone()),
        span,
    };
    let mut new_ops: Vec<OpId> = Vec::new();
    let mut node = |blk: &mut Block, kind: OpKind, ty: Ty, args: &[OpId]| {
        let id = OpId(blk.graph.add_node(Op {
            kind,
            ty: Some(ty),
            span,
        }));
        for (i, a) in args.iter().enumerate() {
            blk.graph.add_edge(a.0, id.0, Edge::Data(i as u8));
        }
        new_ops.push(id);
        id
    };
    let zext = OpKind::Conv(Conv::Int {
        from_signed: false,
        to_signed: false,
        sat: false,
    });
    let mut joined = node(blk, zext.clone(), whole_ty.clone(), &[o]);
    let mut last_piece = o;
    for i in 1..bits / piece_bits {
        let off = node(blk, OpKind::Const(vec![(i * align) as u64]), Ty::I(64), &[]);
        let ptr_ty = blk.op(ptr).ty.clone().expect("a pointer");
        let at = node(blk, OpKind::PtrAdd, ptr_ty, &[ptr, off]);
        let piece = node(
            blk,
            OpKind::Load { space, base, align },
            piece_ty.clone(),
            &[at],
        );
        blk.graph.add_edge(last_piece.0, piece.0, Edge::Order);
        last_piece = piece;
        let wide = node(blk, zext.clone(), whole_ty.clone(), &[piece]);
        let sh = node(
            blk,
            OpKind::Const(vec![(i * piece_bits) as u64]),
            whole_ty.clone(),
            &[],
        );
        let moved = node(
            blk,
            OpKind::Binary(BinOp::Shl),
            whole_ty.clone(),
            &[wide, sh],
        );
        joined = node(
            blk,
            OpKind::Binary(BinOp::Or),
            whole_ty.clone(),
            &[joined, moved],
        );
    }
    if ty != whole_ty {
        joined = node(blk, OpKind::Bitcast, ty, &[joined]);
    }
    for (_, to, w) in out_data {
        let from = match w {
            Edge::Data(_) => joined,
            Edge::Order => last_piece,
        };
        blk.graph.add_edge(from.0, to.0, w);
    }
    // Right after `o` in the order: every new op reads only `o`, `ptr` and each other.
    let at = blk.order.iter().position(|x| *x == o).expect("o is placed") + 1;
    blk.order.splice(at..at, new_ops);
}
