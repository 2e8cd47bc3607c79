//! `__constant` tables read at constant addresses: after unrolling, `coeff[k]` with `k` a
//! constant is a number the compiler knows, so the load becomes that constant and the
//! table's ROM (and its read port's cycles) goes when no other load needs it. Constant
//! memory never changes, so a load's value is the initial bytes whatever ran before.

use std::collections::{BTreeMap, HashMap};

use super::copy::rebuild;
use super::fold::Consts;
use super::registers::lanes;
use super::FoldedTable;
use crate::diag::SourceMap;
use crate::frontend::types::AddrSpace;
use crate::ir::{BlockId, Kernel, ObjectId, OpId, OpKind};

/// Folds the loads of `__constant` tables at constant addresses; returns per table the
/// loads folded and kept, and adds the blocks it changed to `made`.
pub fn run(k: &mut Kernel, sm: &SourceMap, made: &mut Vec<BlockId>) -> Vec<FoldedTable> {
    let mut counts: BTreeMap<ObjectId, (usize, usize)> = BTreeMap::new();
    let blocks: Vec<BlockId> = super::placed(k).into_iter().collect();
    for b in blocks {
        let blk = k.block(b);
        let cs = Consts::of(blk);
        let mut values: HashMap<OpId, Vec<u64>> = HashMap::new();
        for &o in &blk.order {
            let op = blk.op(o);
            let OpKind::Load {
                space: AddrSpace::Constant,
                ..
            } = op.kind
            else {
                continue;
            };
            let Some(ty) = &op.ty else { continue };
            let Some(p) = blk.operands(o).first().copied() else {
                continue;
            };
            match cs.ptrs.get(&p) {
                Some((obj, off)) => {
                    let table = k.object(*obj);
                    let entry = counts.entry(*obj).or_default();
                    let init = table
                        .init
                        .as_deref()
                        .filter(|_| table.space == AddrSpace::Constant);
                    let value = init.and_then(|bytes| {
                        let at = u64::try_from(*off).ok()?;
                        (at.checked_add(ty.store_size())? <= table.size
                            && !ty.elem().is_ptr()
                            && ty.elem().bits() % 8 == 0)
                            .then(|| lanes(bytes, at, ty))?
                    });
                    match value {
                        Some(v) => {
                            values.insert(o, v);
                            entry.0 += 1;
                        }
                        None => entry.1 += 1,
                    }
                }
                None => {
                    if let Some(crate::ir::Base::Object(obj)) = load_base(&op.kind) {
                        counts.entry(obj).or_default().1 += 1;
                    }
                }
            }
        }
        if values.is_empty() {
            continue;
        }
        let (new, map) = rebuild(blk, |out, id, _| {
            let v = values.get(&id)?;
            let op = blk.op(id);
            Some(out.add(OpKind::Const(v.clone()), op.ty.clone(), op.span, &[]))
        });
        *k.block_mut(b) = new;
        super::remap_conditions(k, b, &map);
        made.push(b);
    }
    counts
        .into_iter()
        .filter(|(_, (folded, _))| *folded > 0)
        .map(|(obj, (folded, kept))| {
            let o = k.object(obj);
            FoldedTable {
                name: o.name.clone(),
                location: sm.location(o.span),
                loads_folded: folded,
                loads_kept: kept,
            }
        })
        .collect()
}

fn load_base(kind: &OpKind) -> Option<crate::ir::Base> {
    match kind {
        OpKind::Load { base, .. } => *base,
        _ => None,
    }
}
