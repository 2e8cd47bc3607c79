//! Common subexpressions of a block, found before the e-graph is built (which sees only
//! the integer ops): ops without an effect that do the same thing to the same operands
//! are one value (reads of one parameter, one object's address, one work-item function
//! of one dimension, the same pointer addition, the same float operation); and a load of
//! a kernel object (`__private` or `__local`) at a pointer the block stored to or loaded
//! from in that object, with nothing in between that may write it, is the value stored
//! or loaded there. The group form stores each work-item's values that live across a
//! barrier and reads them back (`__wi_*` objects) at every use, so the reads of one such
//! value in a block become one. (Other work-items writing a `__local` object between two
//! accesses of one work-item, with no barrier, would be a data race.) Likewise a load of
//! a buffer argument at the pointer the block just stored to, with no store to any
//! buffer in between (buffers may overlap), is the stored value: `*cell = *cell * w + 1`
//! after `out[idx] = ...` reads nothing back.
//!
//! Variable reads are `forward.rs`'s: two reads of one variable are one value only when
//! they see the same write.

use std::collections::HashMap;

use super::forward::replace;
use crate::ir::{Base, Block, OpId, OpKind, Ty};

/// What makes two ops the same value: their operation, result type and operands.
fn key(b: &Block, o: OpId, args: &[OpId]) -> Option<String> {
    let op = b.op(o);
    if op.kind.has_effect() || matches!(op.kind, OpKind::ReadVar(_)) {
        return None;
    }
    Some(format!("{:?} {:?} {args:?}", op.kind, op.ty))
}

/// Per kernel object, what the block knows it holds since its last write: the value at
/// a pointer, read as a type (what a store wrote, or what a load read).
type Known = HashMap<Base, Vec<(OpId, Option<Ty>, OpId)>>;

/// What a memory op does to what the block knows of the objects.
fn clobber(kind: &OpKind, known: &mut Known) {
    match kind {
        OpKind::Store {
            base: Some(b @ Base::Object(_)),
            ..
        }
        | OpKind::Atomic {
            base: Some(b @ Base::Object(_)),
            ..
        } => {
            known.remove(b);
        }
        // A buffer argument's memory is never a kernel object's, but may be another
        // buffer's.
        OpKind::Store {
            base: Some(Base::Param(_)),
            ..
        }
        | OpKind::Atomic {
            base: Some(Base::Param(_)),
            ..
        } => known.retain(|b, _| matches!(b, Base::Object(_))),
        OpKind::Load { .. } => {}
        k if k.is_memory() => known.clear(),
        _ => {}
    }
}

/// The value the block knows memory `base` holds at `ptr` as `ty`.
fn recall(known: &Known, base: Base, ptr: OpId, ty: &Option<Ty>) -> Option<OpId> {
    known
        .get(&base)?
        .iter()
        .find(|(p, t, _)| *p == ptr && t == ty)
        .map(|(_, _, v)| *v)
}

/// Merges the common subexpressions of block `b`; returns each removed op with the op
/// now standing for it.
pub fn block(b: &mut Block) -> HashMap<OpId, OpId> {
    let mut table: HashMap<String, OpId> = HashMap::new();
    let mut alias: HashMap<OpId, OpId> = HashMap::new();
    let mut known = Known::new();
    let mut plan = Vec::new();
    for &o in &b.order {
        let args: Vec<OpId> = b
            .operands(o)
            .iter()
            .map(|a| alias.get(a).copied().unwrap_or(*a))
            .collect();
        let kind = &b.op(o).kind;
        let same = match kind {
            OpKind::Load {
                base: Some(Base::Object(obj)),
                ..
            } => {
                let ty = b.op(o).ty.clone();
                let v = recall(&known, Base::Object(*obj), args[0], &ty);
                if v.is_none() {
                    known
                        .entry(Base::Object(*obj))
                        .or_default()
                        .push((args[0], ty, o));
                }
                v
            }
            // Only what the block stored: a buffer read twice may have changed between
            // (another core, `volatile`), one the block wrote holds what it wrote.
            OpKind::Load {
                base: Some(p @ Base::Param(_)),
                ..
            } => recall(&known, *p, args[0], &b.op(o).ty),
            OpKind::Store {
                base: Some(Base::Object(obj)),
                ..
            } => {
                // The store may overlap anything known of the object but what it wrote.
                let ty = b.op(args[1]).ty.clone();
                known.insert(Base::Object(*obj), vec![(args[0], ty, args[1])]);
                None
            }
            OpKind::Store {
                base: Some(p @ Base::Param(_)),
                ..
            } => {
                clobber(kind, &mut known);
                let ty = b.op(args[1]).ty.clone();
                known.insert(*p, vec![(args[0], ty, args[1])]);
                None
            }
            k if k.is_memory() => {
                clobber(k, &mut known);
                None
            }
            _ => key(b, o, &args).and_then(|k| match table.get(&k) {
                Some(first) => Some(*first),
                None => {
                    table.insert(k, o);
                    None
                }
            }),
        };
        if let Some(s) = same {
            alias.insert(o, s);
            plan.push((o, s));
        }
    }
    for (old, new) in &plan {
        replace(b, *old, *new);
    }
    plan.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::frontend::types::AddrSpace;
    use crate::ir::{ObjectId, WorkItemFn};

    fn add(b: &mut Block, kind: OpKind, ty: Option<Ty>, args: &[OpId]) -> OpId {
        b.add(kind, ty, Span::default(), args)
    }

    #[test]
    fn parameters_work_item_ids_and_their_sums_are_computed_once() {
        let mut b = Block::default();
        let p0 = add(&mut b, OpKind::Param(0), Some(Ty::I(32)), &[]);
        let p1 = add(&mut b, OpKind::Param(0), Some(Ty::I(32)), &[]);
        let d0 = add(&mut b, OpKind::Const(vec![0]), Some(Ty::I(32)), &[]);
        let d1 = add(&mut b, OpKind::Const(vec![1]), Some(Ty::I(32)), &[]);
        let d0b = add(&mut b, OpKind::Const(vec![0]), Some(Ty::I(32)), &[]);
        let gid = || OpKind::WorkItem(WorkItemFn::GroupId);
        let g0 = add(&mut b, gid(), Some(Ty::I(64)), &[d0]);
        let g1 = add(&mut b, gid(), Some(Ty::I(64)), &[d1]);
        let g2 = add(&mut b, gid(), Some(Ty::I(64)), &[d0b]);
        let add0 = OpKind::Binary(crate::ir::BinOp::Add);
        let s0 = add(&mut b, add0.clone(), Some(Ty::I(32)), &[p0, d1]);
        let s1 = add(&mut b, add0, Some(Ty::I(32)), &[p1, d1]);
        let map = block(&mut b);
        assert_eq!(map.get(&p1), Some(&p0));
        assert_eq!(map.get(&d0b), Some(&d0));
        assert_eq!(map.get(&g2), Some(&g0));
        assert_eq!(map.get(&s1), Some(&s0));
        assert!(!map.contains_key(&g1));
        assert_eq!(map.len(), 4);
    }

    #[test]
    fn a_load_of_what_the_block_stored_in_an_object_is_the_stored_value() {
        let mut b = Block::default();
        let private = |obj| OpKind::Store {
            space: AddrSpace::Private,
            base: Some(Base::Object(ObjectId(obj))),
            align: 4,
        };
        let load = |obj| OpKind::Load {
            space: AddrSpace::Private,
            base: Some(Base::Object(ObjectId(obj))),
            align: 4,
        };
        let ptr = Some(Ty::Ptr(AddrSpace::Private));
        let a = add(&mut b, OpKind::ObjectAddr(ObjectId(0)), ptr.clone(), &[]);
        let c = add(&mut b, OpKind::ObjectAddr(ObjectId(1)), ptr.clone(), &[]);
        let v = add(&mut b, OpKind::Const(vec![7]), Some(Ty::I(32)), &[]);
        add(&mut b, private(0), None, &[a, v]);
        // A store to another object leaves it; the load reads the stored value.
        add(&mut b, private(1), None, &[c, v]);
        let a2 = add(&mut b, OpKind::ObjectAddr(ObjectId(0)), ptr.clone(), &[]);
        let l0 = add(&mut b, load(0), Some(Ty::I(32)), &[a2]);
        // A load of another type, or after an unknown store, reads memory.
        let l1 = add(&mut b, load(0), Some(Ty::I(8)), &[a]);
        let l1b = add(&mut b, load(0), Some(Ty::I(8)), &[a]);
        let unknown = OpKind::Store {
            space: AddrSpace::Private,
            base: None,
            align: 4,
        };
        let s = add(&mut b, unknown, None, &[a, v]);
        let l2 = add(&mut b, load(0), Some(Ty::I(32)), &[a]);
        let map = block(&mut b);
        assert_eq!(map.get(&a2), Some(&a));
        assert_eq!(map.get(&l0), Some(&v));
        assert!(!map.contains_key(&l1) && !map.contains_key(&l2));
        // A second load of one place reads what the first did.
        assert_eq!(map.get(&l1b), Some(&l1));
        // The memory order still runs through the removed load's place.
        assert!(b.order_preds(l1).contains(&b.order[4]));
        assert!(b.order_preds(s).contains(&l1));
        assert!(!b.graph.contains_node(l1b.0));
    }

    #[test]
    fn a_store_of_a_forwarded_load_stays_after_the_memory_ops_before_the_load() {
        let mut b = Block::default();
        let store = |obj| OpKind::Store {
            space: AddrSpace::Private,
            base: Some(Base::Object(ObjectId(obj))),
            align: 4,
        };
        let ptr = Some(Ty::Ptr(AddrSpace::Private));
        let a = add(&mut b, OpKind::ObjectAddr(ObjectId(0)), ptr.clone(), &[]);
        let c = add(&mut b, OpKind::ObjectAddr(ObjectId(1)), ptr, &[]);
        let v = add(&mut b, OpKind::Const(vec![7]), Some(Ty::I(32)), &[]);
        let s0 = add(&mut b, store(0), None, &[a, v]);
        let load = OpKind::Load {
            space: AddrSpace::Private,
            base: Some(Base::Object(ObjectId(0))),
            align: 4,
        };
        // The store after the load is ordered by its operand alone (`Block::add`).
        let l = add(&mut b, load, Some(Ty::I(32)), &[a]);
        let s1 = add(&mut b, store(1), None, &[c, l]);
        let map = block(&mut b);
        assert_eq!(map.get(&l), Some(&v));
        assert_eq!(b.operands(s1), vec![c, v]);
        assert!(petgraph::algo::has_path_connecting(
            &b.graph, s0.0, s1.0, None
        ));
    }

    #[test]
    fn a_load_of_what_the_block_stored_in_a_buffer_is_the_stored_value_until_any_buffer_store() {
        let mut b = Block::default();
        let global = AddrSpace::Global;
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
        let ptr = Some(Ty::Ptr(global));
        let out = add(&mut b, OpKind::Param(0), ptr.clone(), &[]);
        let other = add(&mut b, OpKind::Param(1), ptr, &[]);
        let v = add(&mut b, OpKind::Const(vec![7]), Some(Ty::I(32)), &[]);
        add(&mut b, store(0), None, &[out, v]);
        let l0 = add(&mut b, load(0), Some(Ty::I(32)), &[out]);
        // Two loads of a buffer the block did not write stay two reads.
        let r0 = add(&mut b, load(1), Some(Ty::I(32)), &[other]);
        let r1 = add(&mut b, load(1), Some(Ty::I(32)), &[other]);
        // A store to another buffer may overlap this one.
        add(&mut b, store(1), None, &[other, v]);
        let l1 = add(&mut b, load(0), Some(Ty::I(32)), &[out]);
        let map = block(&mut b);
        assert_eq!(map.get(&l0), Some(&v));
        assert!(!map.contains_key(&r0) && !map.contains_key(&r1));
        assert!(!map.contains_key(&l1));
    }
}
