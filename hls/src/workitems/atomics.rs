//! In group form the work-items of a group run one after another, and the core is the
//! only master of memory while it runs (the assumption the FSM's atomics already rest
//! on: a read, then the write, with nothing between): an atomic cannot meet another
//! work-item's access halfway, so it becomes a plain load, the operation, and a store.
//! The loop schedulers then see ordinary memory accesses (a local histogram pipelines,
//! its same-address updates ordered by the memory dependences like any load after a
//! store). Several cores sharing a buffer (`num_compute_units`) would need them atomic
//! again.

use crate::frontend::types::AddrSpace;
use std::collections::HashMap;

use crate::ir::{
    AtomicOp, BinOp, Block, BlockId, CmpOp, Kernel, Loop, Node, OpId, OpKind, Region, Ty,
};

/// Rewrites every atomic of `k` whose memory is known (an atomic through a pointer of
/// unknown memory stays: no memory could be named in `Kernel::shared_rmw`).
pub fn lower_group_atomics(k: &mut Kernel) {
    let mut moved: HashMap<BlockId, HashMap<OpId, OpId>> = HashMap::new();
    for b in 0..k.blocks.len() {
        let b = BlockId(b as u32);
        let any = k
            .block(b)
            .order
            .iter()
            .any(|&o| group_atomic(&k.block(b).op(o).kind));
        if any {
            moved.insert(b, rebuild(k, b));
        }
    }
    if moved.is_empty() {
        return;
    }
    // Conditions of `if`s and loops name ops of their blocks: follow the new ids.
    let at = |c: (BlockId, OpId)| match moved.get(&c.0) {
        Some(m) => (c.0, m[&c.1]),
        None => c,
    };
    for l in &mut k.loops {
        l.cond = l.cond.map(at);
    }
    let mut body = std::mem::take(&mut k.body);
    remap(&mut body, &at, &mut k.loops);
    k.body = body;
}

fn remap(r: &mut Region, at: &impl Fn((BlockId, OpId)) -> (BlockId, OpId), loops: &mut [Loop]) {
    for n in &mut r.0 {
        match n {
            Node::If {
                cond, then, els, ..
            } => {
                *cond = at(*cond);
                remap(then, at, loops);
                remap(els, at, loops);
            }
            Node::Loop(id) => {
                let i = id.0 as usize;
                let (mut body, mut latch) = (
                    std::mem::take(&mut loops[i].body),
                    std::mem::take(&mut loops[i].latch),
                );
                remap(&mut body, at, loops);
                remap(&mut latch, at, loops);
                loops[i].body = body;
                loops[i].latch = latch;
            }
            _ => {}
        }
    }
}

fn group_atomic(kind: &OpKind) -> bool {
    matches!(
        kind,
        OpKind::Atomic {
            space: AddrSpace::Local | AddrSpace::Private | AddrSpace::Global,
            base: Some(_),
            ..
        }
    )
}

/// Rebuilds block `b` op by op (so `Block::add` orders the new accesses as the atomic
/// was ordered).
fn rebuild(k: &mut Kernel, b: BlockId) -> HashMap<OpId, OpId> {
    let mut shared = std::collections::BTreeSet::new();
    let old = std::mem::take(k.block_mut(b));
    let mut new = Block::default();
    let mut map: HashMap<OpId, OpId> = HashMap::new();
    for &o in &old.order {
        let op = old.op(o).clone();
        let args: Vec<OpId> = old.operands(o).iter().map(|a| map[a]).collect();
        let id = match op.kind {
            OpKind::Atomic {
                op: aop,
                space,
                base,
            } if group_atomic(&op.kind) => {
                shared.insert(base);
                let ty = match &op.ty {
                    Some(t) => t.clone(),
                    None => new.op(args[1]).ty.clone().unwrap_or(Ty::I(32)),
                };
                let align = ty.store_size().max(1) as u32;
                let span = op.span;
                let ptr = args[0];
                if aop == AtomicOp::Store {
                    let store = OpKind::Store { space, base, align };
                    new.add(store, None, span, &[ptr, args[1]])
                } else {
                    let load = OpKind::Load { space, base, align };
                    let old_v = new.add(load, Some(ty.clone()), span, &[ptr]);
                    let t = Some(ty.clone());
                    let bin = |new: &mut Block, op: BinOp, x: OpId, y: OpId| {
                        new.add(OpKind::Binary(op), t.clone(), span, &[x, y])
                    };
                    let pick = |new: &mut Block, c: CmpOp, x: OpId, y: OpId| {
                        // `x` when `c(x, y)` holds, else `y`.
                        let hold = new.add(OpKind::Cmp(c), Some(Ty::I(1)), span, &[x, y]);
                        new.add(OpKind::Select, t.clone(), span, &[hold, x, y])
                    };
                    let one = || OpKind::Const(vec![1]);
                    let value = match aop {
                        AtomicOp::Load | AtomicOp::Store => None,
                        AtomicOp::Add => Some(bin(&mut new, BinOp::Add, old_v, args[1])),
                        AtomicOp::Sub => Some(bin(&mut new, BinOp::Sub, old_v, args[1])),
                        AtomicOp::And => Some(bin(&mut new, BinOp::And, old_v, args[1])),
                        AtomicOp::Or => Some(bin(&mut new, BinOp::Or, old_v, args[1])),
                        AtomicOp::Xor => Some(bin(&mut new, BinOp::Xor, old_v, args[1])),
                        AtomicOp::Inc | AtomicOp::Dec => {
                            let c = new.add(one(), Some(ty.clone()), span, &[]);
                            let op = if aop == AtomicOp::Inc {
                                BinOp::Add
                            } else {
                                BinOp::Sub
                            };
                            Some(bin(&mut new, op, old_v, c))
                        }
                        AtomicOp::Xchg => Some(args[1]),
                        AtomicOp::CmpXchg => {
                            let same = new.add(
                                OpKind::Cmp(CmpOp::Eq),
                                Some(Ty::I(1)),
                                span,
                                &[old_v, args[1]],
                            );
                            Some(new.add(OpKind::Select, t.clone(), span, &[same, args[2], old_v]))
                        }
                        AtomicOp::SMin => Some(pick(&mut new, CmpOp::SLt, args[1], old_v)),
                        AtomicOp::SMax => Some(pick(&mut new, CmpOp::SGt, args[1], old_v)),
                        AtomicOp::UMin => Some(pick(&mut new, CmpOp::ULt, args[1], old_v)),
                        AtomicOp::UMax => Some(pick(&mut new, CmpOp::UGt, args[1], old_v)),
                    };
                    if let Some(v) = value {
                        let store = OpKind::Store { space, base, align };
                        new.add(store, None, span, &[ptr, v]);
                    }
                    old_v
                }
            }
            _ => new.add(op.kind.clone(), op.ty.clone(), op.span, &args),
        };
        map.insert(o, id);
    }
    *k.block_mut(b) = new;
    k.shared_rmw.extend(shared.into_iter().flatten());
    map
}
