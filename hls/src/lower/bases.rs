//! Which argument or object each pointer points into, where that is known statically:
//! a fixpoint over pointer variables (the bases every write gives them), then the base
//! of each load, store and atomic's pointer is written into the op.

use std::collections::HashMap;

use crate::ir::{Base, Kernel, OpId, OpKind, ParamKind};

/// What is known about a pointer's base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Known {
    /// No pointer value seen (not a pointer, a null pointer, a variable never written).
    Nothing,
    One(Base),
    /// Could be more than one base, or comes from memory.
    Many,
}

fn join(a: Known, b: Known) -> Known {
    match (a, b) {
        (Known::Nothing, x) | (x, Known::Nothing) => x,
        (Known::One(x), Known::One(y)) if x == y => Known::One(x),
        _ => Known::Many,
    }
}

/// Fills in `base` of every memory op whose pointer has one statically known base.
pub fn resolve(k: &mut Kernel) {
    let mut vars = vec![Known::Nothing; k.vars.len()];
    loop {
        let mut changed = false;
        for bi in 0..k.blocks.len() {
            let bases = block_bases(k, bi, &vars);
            let b = &k.blocks[bi];
            for &o in &b.order {
                if let OpKind::WriteVar(v) = b.op(o).kind {
                    let Some(arg) = b.operands(o).first().copied() else {
                        continue;
                    };
                    let x = bases.get(&arg).copied().unwrap_or(Known::Nothing);
                    let slot = &mut vars[v.0 as usize];
                    let j = join(*slot, x);
                    if j != *slot {
                        *slot = j;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    for bi in 0..k.blocks.len() {
        let bases = block_bases(k, bi, &vars);
        let b = &mut k.blocks[bi];
        let order = b.order.clone();
        for o in order {
            let Some(ptr) = b.operands(o).first().copied() else {
                continue;
            };
            let known = match bases.get(&ptr) {
                Some(Known::One(base)) => Some(*base),
                _ => None,
            };
            match &mut b.graph[o.0].kind {
                OpKind::Load { base, .. }
                | OpKind::Store { base, .. }
                | OpKind::Atomic { base, .. } => *base = known,
                _ => {}
            }
        }
    }
}

/// The base of every pointer op of block `bi`, given the variables' bases.
fn block_bases(k: &Kernel, bi: usize, vars: &[Known]) -> HashMap<OpId, Known> {
    let b = &k.blocks[bi];
    let mut out: HashMap<OpId, Known> = HashMap::new();
    for &o in &b.order {
        let op = b.op(o);
        if !op.ty.as_ref().is_some_and(|t| t.is_ptr()) {
            continue;
        }
        let arg = |i: usize| {
            b.operands(o)
                .get(i)
                .and_then(|a| out.get(a))
                .copied()
                .unwrap_or(Known::Nothing)
        };
        let x = match &op.kind {
            OpKind::Param(i) => match k.params.get(*i as usize).map(|p| &p.kind) {
                Some(ParamKind::Buffer { .. } | ParamKind::LocalBuffer) => {
                    Known::One(Base::Param(*i))
                }
                Some(ParamKind::Struct { object }) => Known::One(Base::Object(*object)),
                _ => Known::Nothing,
            },
            OpKind::ObjectAddr(obj) => Known::One(Base::Object(*obj)),
            OpKind::PtrAdd | OpKind::Bitcast => arg(0),
            OpKind::ReadVar(v) => vars.get(v.0 as usize).copied().unwrap_or(Known::Many),
            OpKind::Select => join(arg(1), arg(2)),
            OpKind::Const(_) => Known::Nothing,
            _ => Known::Many,
        };
        out.insert(o, x);
    }
    out
}
