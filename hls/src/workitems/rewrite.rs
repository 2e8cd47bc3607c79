//! Rebuilding the blocks of a segment for group form: work-item functions expanded,
//! per-work-item variables turned into loads and stores of their private array at
//! `local linear id * stride`, and addresses of replicated private objects offset to the
//! work-item's copy. Blocks are rebuilt op by op in their order, so `Block::add` derives
//! the same ordering edges.

use std::collections::HashMap;

use crate::frontend::types::AddrSpace;
use crate::ir::{Base, BinOp, Block, BlockId, Kernel, ObjectId, OpId, OpKind, Ty, VarId};

use super::ids::{Expander, IdEnv};

/// The private array holding a variable per work-item.
#[derive(Clone, Copy)]
pub struct Slot {
    pub object: ObjectId,
    pub stride: u64,
    pub align: u32,
}

pub struct Storage {
    pub vars: HashMap<VarId, Slot>,
    /// The types of the variables in `vars`.
    pub tys: HashMap<VarId, Ty>,
    /// Replicated private objects: the bytes of one work-item's copy.
    pub objects: HashMap<ObjectId, u64>,
}

/// Rebuilds block `b`; returns the new id of every old op that has a result. Variables in
/// `cached` stay variables: the segment keeps them in a register.
pub fn block(
    k: &mut Kernel,
    b: BlockId,
    env: &IdEnv,
    st: &Storage,
    cached: &std::collections::HashSet<VarId>,
) -> (HashMap<OpId, OpId>, bool) {
    let old = std::mem::take(k.block_mut(b));
    let mut new = Block::default();
    let mut map = HashMap::new();
    let mut used_lin = false;
    let mut lin: Option<OpId> = None;
    for &o in &old.order {
        let op = old.op(o).clone();
        let args: Vec<OpId> = old.operands(o).iter().map(|a| map[a]).collect();
        let mut x = Expander {
            b: &mut new,
            env,
            span: op.span,
            used_lin: false,
        };
        // One read of the linear id per block: nothing in a segment writes it.
        let mut at = |x: &mut Expander, stride: u64| {
            let l = *lin.get_or_insert_with(|| x.lin());
            let s = x.c64(stride);
            x.add(OpKind::Binary(BinOp::Mul), Some(Ty::I(64)), &[l, s])
        };
        let id = match &op.kind {
            OpKind::WorkItem(f) => {
                let ty = op.ty.clone().unwrap_or(Ty::I(64));
                match x.work_item(*f, args.first().copied(), &ty) {
                    Some(v) => v,
                    None => x.add(op.kind.clone(), op.ty.clone(), &args),
                }
            }
            OpKind::ReadVar(v) if st.vars.contains_key(v) && !cached.contains(v) => {
                let s = st.vars[v];
                let p = slot_ptr(&mut x, s, &mut at);
                let load = OpKind::Load {
                    space: AddrSpace::Private,
                    base: Some(Base::Object(s.object)),
                    align: s.align,
                };
                x.add(load, op.ty.clone(), &[p])
            }
            OpKind::WriteVar(v) if st.vars.contains_key(v) && !cached.contains(v) => {
                let s = st.vars[v];
                let p = slot_ptr(&mut x, s, &mut at);
                let store = OpKind::Store {
                    space: AddrSpace::Private,
                    base: Some(Base::Object(s.object)),
                    align: s.align,
                };
                x.add(store, None, &[p, args[0]])
            }
            OpKind::ObjectAddr(obj) if st.objects.contains_key(obj) => {
                let a = x.add(op.kind.clone(), op.ty.clone(), &[]);
                let off = at(&mut x, st.objects[obj]);
                x.add(OpKind::PtrAdd, op.ty.clone(), &[a, off])
            }
            _ => x.add(op.kind.clone(), op.ty.clone(), &args),
        };
        used_lin |= x.used_lin;
        map.insert(o, id);
    }
    *k.block_mut(b) = new;
    (map, used_lin)
}

/// The address of this work-item's slot of a per-work-item variable.
fn slot_ptr(x: &mut Expander, s: Slot, at: &mut impl FnMut(&mut Expander, u64) -> OpId) -> OpId {
    let ptr = Some(Ty::Ptr(AddrSpace::Private));
    let a = x.add(OpKind::ObjectAddr(s.object), ptr.clone(), &[]);
    let off = at(x, s.stride);
    x.add(OpKind::PtrAdd, ptr, &[a, off])
}
