//! By-value struct parameters the kernel may write to. Every work-item owns a copy of
//! the host's bytes, but in group form the parameter's object exists once per group, so
//! a write by one work-item would be seen by the next. Such a parameter gets a private
//! working copy, filled from the parameter's bytes at the start of every work-item; all
//! uses move to the copy (which the later steps then keep per work-item when needed).

use std::collections::HashMap;

use crate::frontend::types::AddrSpace;
use crate::ir::{Base, Block, BlockId, Kernel, Node, Object, ObjectId, OpKind, ParamKind, Ty};

/// Whether some op may write private memory through a pointer of unknown object.
fn unknown_private_write(k: &Kernel) -> bool {
    k.blocks.iter().any(|b| {
        b.graph.node_weights().any(|o| match &o.kind {
            OpKind::Store { space, base, .. } | OpKind::Atomic { space, base, .. } => {
                base.is_none() && matches!(space, AddrSpace::Private | AddrSpace::Generic)
            }
            OpKind::Builtin(c) => c.params.iter().any(|t| t.is_pointer()),
            _ => false,
        })
    })
}

fn writes_object(k: &Kernel, obj: ObjectId) -> bool {
    k.blocks.iter().any(|b| {
        b.graph.node_weights().any(|o| {
            matches!(&o.kind,
                OpKind::Store { base: Some(Base::Object(x)), .. }
                | OpKind::Atomic { base: Some(Base::Object(x)), .. } if *x == obj)
        })
    })
}

/// Gives written struct parameters their working copies.
pub fn private_copies(k: &mut Kernel) {
    let unknown = unknown_private_write(k);
    let written: Vec<(u32, ObjectId)> = k
        .params
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p.kind {
            ParamKind::Struct { object } if unknown || writes_object(k, object) => {
                Some((i as u32, object))
            }
            _ => None,
        })
        .collect();
    if written.is_empty() {
        return;
    }
    let mut copy_of = HashMap::new();
    let mut param_copy = HashMap::new();
    for &(p, o) in &written {
        let obj = k.object(o).clone();
        let w = k.new_object(Object {
            name: format!("__copy_{}", k.params[p as usize].name),
            init: None,
            space: AddrSpace::Private,
            ..obj
        });
        copy_of.insert(o, w);
        param_copy.insert(p, w);
    }
    for i in 0..k.blocks.len() {
        redirect(k, BlockId(i as u32), &copy_of, &param_copy);
    }
    let fill = k.new_block();
    for &(p, o) in &written {
        let (size, align, span) = {
            let obj = k.object(o);
            (obj.size, obj.align, obj.span)
        };
        copy_bytes(k.block_mut(fill), (p, o), copy_of[&o], size, align, span);
    }
    k.body.0.insert(0, Node::Block(fill));
}

/// Rebuilds block `b` with uses of the parameters' objects moved to their copies.
fn redirect(
    k: &mut Kernel,
    b: BlockId,
    copy_of: &HashMap<ObjectId, ObjectId>,
    param_copy: &HashMap<u32, ObjectId>,
) {
    let old = std::mem::take(k.block_mut(b));
    let mut new = Block::default();
    let mut map = HashMap::new();
    let moved = |base: &Option<Base>| match base {
        Some(Base::Object(o)) => Some(Base::Object(copy_of.get(o).copied().unwrap_or(*o))),
        other => *other,
    };
    for &o in &old.order {
        let op = old.op(o).clone();
        let args: Vec<_> = old.operands(o).iter().map(|a| map[a]).collect();
        let kind = match op.kind {
            OpKind::Param(p) if param_copy.contains_key(&p) => OpKind::ObjectAddr(param_copy[&p]),
            OpKind::ObjectAddr(o) if copy_of.contains_key(&o) => OpKind::ObjectAddr(copy_of[&o]),
            OpKind::Load { space, base, align } => OpKind::Load {
                space,
                base: moved(&base),
                align,
            },
            OpKind::Store { space, base, align } => OpKind::Store {
                space,
                base: moved(&base),
                align,
            },
            OpKind::Atomic { op, space, base } => OpKind::Atomic {
                op,
                space,
                base: moved(&base),
            },
            other => other,
        };
        map.insert(o, new.add(kind, op.ty, op.span, &args));
    }
    *k.block_mut(b) = new;
}

/// Copies `size` bytes from parameter `p` (object `from`) to object `to`, in the widest
/// pieces the alignment allows.
fn copy_bytes(
    b: &mut Block,
    (p, from): (u32, ObjectId),
    to: ObjectId,
    size: u64,
    align: u64,
    span: crate::diag::Span,
) {
    let ptr = Some(Ty::Ptr(AddrSpace::Private));
    let src = b.add(OpKind::Param(p), ptr.clone(), span, &[]);
    let dst = b.add(OpKind::ObjectAddr(to), ptr.clone(), span, &[]);
    let mut at = 0u64;
    while at < size {
        let w = [8u64, 4, 2, 1]
            .into_iter()
            .find(|w| *w <= align.max(1) && at.is_multiple_of(*w) && at + w <= size)
            .unwrap_or(1);
        let off = b.add(OpKind::Const(vec![at]), Some(Ty::I(64)), span, &[]);
        let s = b.add(OpKind::PtrAdd, ptr.clone(), span, &[src, off]);
        let d = b.add(OpKind::PtrAdd, ptr.clone(), span, &[dst, off]);
        let ty = Some(Ty::I(8 * w as u8));
        let load = OpKind::Load {
            space: AddrSpace::Private,
            base: Some(Base::Object(from)),
            align: w as u32,
        };
        let v = b.add(load, ty, span, &[s]);
        let store = OpKind::Store {
            space: AddrSpace::Private,
            base: Some(Base::Object(to)),
            align: w as u32,
        };
        b.add(store, None, span, &[d, v]);
        at += w;
    }
}
