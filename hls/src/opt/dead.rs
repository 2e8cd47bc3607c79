//! Dead code: writes of variables that no block reads, a write its own block overwrites
//! before any read of it, a write no path reads before the next (`live.rs`), and ops without an effect whose results nobody uses (no other
//! op, no `if` or loop condition). What forwarding (`forward.rs`) leaves behind: once
//! `o = i * 16; out[o] = ...` reads the product directly, `o` is written for nothing,
//! and its register (and the chain that carries it through a pipeline) goes.
//!
//! Memory ops stay, used or not (a load may be the access that reports an out-of-bounds
//! index), except a buffer store that a later store of the block to the same pointer, of
//! the same type, replaces with nothing in between that could read the buffer: the
//! inlined `*cell = *cell * w + 1` after `out[idx] = ...` (whose load `cse.rs` forwards)
//! would otherwise spend a second write-port slot per iteration.

use std::collections::HashSet;

use petgraph::Direction;

use crate::ir::{Base, BlockId, Kernel, OpId, OpKind, VarId};

/// Whether `o` can go when nothing reads it.
fn removable(k: &Kernel, b: BlockId, o: OpId, read: &HashSet<VarId>) -> bool {
    match &k.block(b).op(o).kind {
        OpKind::WriteVar(v) => !read.contains(v),
        kind => !kind.has_effect(),
    }
}

/// Variables some block reads.
fn read_vars(k: &Kernel) -> HashSet<VarId> {
    k.blocks
        .iter()
        .flat_map(|b| b.order.iter().map(move |o| &b.op(*o).kind))
        .filter_map(|kind| match kind {
            OpKind::ReadVar(v) => Some(*v),
            _ => None,
        })
        .collect()
}

/// Writes of block `b` that a later write of the same variable in `b` replaces with no
/// read of it in between.
fn overwritten(k: &Kernel, b: BlockId) -> Vec<OpId> {
    let blk = k.block(b);
    let mut pending: std::collections::HashMap<VarId, OpId> = Default::default();
    let mut dead = Vec::new();
    for &o in &blk.order {
        match blk.op(o).kind {
            OpKind::WriteVar(v) => {
                if let Some(w) = pending.insert(v, o) {
                    dead.push(w);
                }
            }
            OpKind::ReadVar(v) => {
                pending.remove(&v);
            }
            _ => {}
        }
    }
    dead
}

/// Buffer stores of block `b` that a later store of the block to the same pointer value
/// and type replaces, with no op between that might read buffer memory (a buffer load,
/// an atomic, a barrier or fence, a built-in writing through a pointer).
fn stored_over(k: &Kernel, b: BlockId) -> Vec<OpId> {
    let blk = k.block(b);
    let mut pending: std::collections::HashMap<OpId, (OpId, Option<crate::ir::Ty>)> =
        Default::default();
    let mut dead = Vec::new();
    for &o in &blk.order {
        match &blk.op(o).kind {
            OpKind::Store {
                base: Some(Base::Param(_)),
                ..
            } => {
                let args = blk.operands(o);
                let ty = blk.op(args[1]).ty.clone();
                if let Some((w, wty)) = pending.insert(args[0], (o, ty.clone())) {
                    if wty == ty {
                        dead.push(w);
                    }
                }
            }
            OpKind::Store { .. }
            | OpKind::Load {
                base: Some(Base::Object(_)),
                ..
            } => {}
            kind if kind.is_memory() => pending.clear(),
            _ => {}
        }
    }
    dead
}

/// Removes dead ops from `k` until none is left; `conds` are the ops the control
/// structure reads. Returns how many ops went.
pub fn kernel(k: &mut Kernel, conds: &HashSet<(BlockId, OpId)>) -> usize {
    let mut removed = 0;
    loop {
        let read = read_vars(k);
        // Writes no read can see, across blocks and loops (`live.rs`).
        let mut gone: Vec<(BlockId, OpId)> = super::live::unseen_writes(k);
        for i in 0..k.blocks.len() {
            let b = BlockId(i as u32);
            gone.extend(overwritten(k, b).into_iter().map(|o| (b, o)));
            gone.extend(stored_over(k, b).into_iter().map(|o| (b, o)));
            let blk = k.block(b);
            for &o in &blk.order {
                let unused = blk
                    .graph
                    .edges_directed(o.0, Direction::Outgoing)
                    .all(|e| *e.weight() == crate::ir::Edge::Order);
                if unused && !conds.contains(&(b, o)) && removable(k, b, o, &read) {
                    gone.push((b, o));
                }
            }
        }
        gone.sort();
        gone.dedup();
        if gone.is_empty() {
            return removed;
        }
        removed += gone.len();
        for (b, o) in gone {
            // A removed write keeps the reads before it ahead of the next write.
            super::forward::remove(k.block_mut(b), o);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::ir::{BinOp, Block, Node, Ty};

    fn kernel_of(blocks: Vec<Block>, vars: usize) -> Kernel {
        let mut k = Kernel::new("k", Span::default(), Default::default());
        k.params.push(crate::ir::Param {
            name: "p".into(),
            ty: Ty::I(32),
            kind: crate::ir::ParamKind::Value,
            span: Span::default(),
        });
        for i in 0..vars {
            k.new_var(&format!("v{i}"), Ty::I(32), Span::default());
        }
        for (i, b) in blocks.into_iter().enumerate() {
            k.blocks.push(b);
            k.body.0.push(Node::Block(BlockId(i as u32)));
        }
        k
    }

    fn add(b: &mut Block, kind: OpKind, ty: Option<Ty>, args: &[OpId]) -> OpId {
        b.add(kind, ty, Span::default(), args)
    }

    #[test]
    fn a_variable_nobody_reads_loses_its_writes_and_what_only_they_used() {
        let mut b = Block::default();
        let x = add(&mut b, OpKind::Param(0), Some(Ty::I(32)), &[]);
        let s = add(&mut b, OpKind::Binary(BinOp::Add), Some(Ty::I(32)), &[x, x]);
        add(&mut b, OpKind::WriteVar(VarId(0)), None, &[s]);
        let kept = add(&mut b, OpKind::WriteVar(VarId(1)), None, &[x]);
        let mut c = Block::default();
        add(&mut c, OpKind::ReadVar(VarId(1)), Some(Ty::I(32)), &[]);
        let r = add(&mut c, OpKind::ReadVar(VarId(1)), Some(Ty::I(32)), &[]);
        let mut k = kernel_of(vec![b, c], 2);
        let conds = HashSet::from([(BlockId(1), r)]);
        assert_eq!(kernel(&mut k, &conds), 3);
        assert_eq!(k.blocks[0].order, vec![x, kept]);
        assert_eq!(k.blocks[1].order, vec![r]);
        assert!(crate::ir::verify::verify_kernel(&k).is_ok());
    }

    #[test]
    fn a_write_overwritten_before_any_read_goes_and_one_read_first_stays() {
        let mut b = Block::default();
        let x = add(&mut b, OpKind::Param(0), Some(Ty::I(32)), &[]);
        let w0 = add(&mut b, OpKind::WriteVar(VarId(0)), None, &[x]);
        let w1 = add(&mut b, OpKind::WriteVar(VarId(0)), None, &[x]);
        let r = add(&mut b, OpKind::ReadVar(VarId(0)), Some(Ty::I(32)), &[]);
        let w2 = add(&mut b, OpKind::WriteVar(VarId(0)), None, &[r]);
        // A later block reads the last write (as a condition, so the read stays).
        let mut c = Block::default();
        let r2 = add(&mut c, OpKind::ReadVar(VarId(0)), Some(Ty::I(32)), &[]);
        let mut k = kernel_of(vec![b, c], 1);
        let conds = HashSet::from([(BlockId(1), r2)]);
        assert_eq!(kernel(&mut k, &conds), 1);
        assert_eq!(k.blocks[0].order, vec![x, w1, r, w2]);
        assert!(!k.blocks[0].graph.contains_node(w0.0));
        assert!(crate::ir::verify::verify_kernel(&k).is_ok());
    }

    #[test]
    fn a_buffer_store_the_block_stores_over_before_any_read_goes() {
        let global = crate::frontend::types::AddrSpace::Global;
        let store = |p| OpKind::Store {
            space: global,
            base: Some(Base::Param(p)),
            align: 4,
        };
        let load = |p| OpKind::Load {
            space: global,
            base: Some(Base::Param(p)),
            align: 4,
        };
        let mut b = Block::default();
        let ptr = Some(Ty::Ptr(global));
        let out = add(&mut b, OpKind::Param(1), ptr.clone(), &[]);
        let other = add(&mut b, OpKind::Param(2), ptr, &[]);
        let v = add(&mut b, OpKind::Const(vec![7]), Some(Ty::I(32)), &[]);
        let w = add(&mut b, OpKind::Const(vec![9]), Some(Ty::I(32)), &[]);
        let s0 = add(&mut b, store(1), None, &[out, v]);
        // A store elsewhere between does not read `out`.
        let s1 = add(&mut b, store(2), None, &[other, v]);
        let s2 = add(&mut b, store(1), None, &[out, w]);
        // A load of any buffer between keeps the store before it.
        let l = add(&mut b, load(2), Some(Ty::I(32)), &[other]);
        let s3 = add(&mut b, store(1), None, &[out, v]);
        let mut k = kernel_of(vec![b], 0);
        for name in ["out", "other"] {
            k.params.push(crate::ir::Param {
                name: name.into(),
                ty: Ty::Ptr(global),
                kind: crate::ir::ParamKind::Buffer { space: global },
                span: Span::default(),
            });
        }
        assert_eq!(kernel(&mut k, &HashSet::new()), 1);
        assert_eq!(k.blocks[0].order, vec![out, other, v, w, s1, s2, l, s3]);
        assert!(!k.blocks[0].graph.contains_node(s0.0));
    }
}
