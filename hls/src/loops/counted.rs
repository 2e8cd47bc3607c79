//! Counted loops: `for (k = C0; k < / <= / > / >= / != BOUND; k += / -= STEP)` where the
//! body never writes `k` and the bound does not change inside the loop. For these the
//! unroller can name the counter's value in every copy (`k + j * STEP`, or a constant
//! when `C0` and `BOUND` are constants too), which is what turns `a[k]` into fixed
//! addresses. Anything else is unrolled with per-copy exit tests instead.

use std::collections::HashSet;

use super::fold::{self, Consts};
use crate::analysis::loops::all_blocks;
use crate::ir::{
    BinOp, BlockId, CmpOp, Kernel, LoopId, LoopKind, Node, OpId, OpKind, Region, VarId,
};

/// A counted loop, as its condition and latch spell it.
#[derive(Clone, Debug)]
pub struct Counted {
    pub var: VarId,
    /// The counter's width in bits.
    pub width: u32,
    /// What the latch adds to the counter each iteration (never 0).
    pub step: i64,
    /// The test with the counter on the left: `k CMP bound`.
    pub cmp: CmpOp,
    /// The condition block, its counter read, its bound operand and its test.
    pub cond: BlockId,
    pub read: OpId,
    pub bound: OpId,
    pub test: OpId,
    /// The counter's value on entry, when a constant is written just before the loop.
    pub init: Option<u64>,
    /// The bound's value, when it folds to a constant.
    pub limit: Option<u64>,
}

impl Counted {
    /// The counter after `j` steps from `from` (wrapping at its width, as the loop does).
    pub fn value(&self, from: u64, j: u64) -> u64 {
        fold::mask(
            from.wrapping_add((self.step as u64).wrapping_mul(j)),
            self.width,
        )
    }

    /// The trip count when the start and the bound are constants, counted by running the
    /// counter (exact with wrap-around); `None` past `cap` iterations.
    pub fn trips(&self, cap: u64) -> Option<Result<u64, ()>> {
        let (mut v, b) = (self.init?, self.limit?);
        let mut n = 0u64;
        while fold::cmp(self.cmp, v, b, self.width)? {
            n += 1;
            if n > cap {
                return Some(Err(()));
            }
            v = self.value(v, 1);
        }
        Some(Ok(n))
    }

    /// True when the counter counts up (`k < bound`, `k <= bound`, or `!=` with a
    /// positive step).
    pub fn up(&self) -> bool {
        self.step > 0
    }
}

/// Flips a comparison so that its operands can be swapped.
fn swapped(c: CmpOp) -> CmpOp {
    use CmpOp::*;
    match c {
        SLt => SGt,
        SLe => SGe,
        SGt => SLt,
        SGe => SLe,
        ULt => UGt,
        ULe => UGe,
        UGt => ULt,
        UGe => ULe,
        other => other,
    }
}

/// Variables written anywhere in a region.
pub fn written(k: &Kernel, r: &Region) -> HashSet<VarId> {
    let mut blocks = Vec::new();
    all_blocks(k, r, &mut blocks);
    blocks
        .iter()
        .flat_map(|b| k.block(*b).graph.node_weights())
        .filter_map(|o| match o.kind {
            OpKind::WriteVar(v) => Some(v),
            _ => None,
        })
        .collect()
}

/// Recognizes loop `id` as a counted loop; `before` are the nodes before it in its region
/// (where the counter's start value is written). Otherwise says why not.
pub fn recognize(k: &Kernel, id: LoopId, before: &[Node]) -> Result<Counted, String> {
    let l = k.lp(id);
    if l.kind != LoopKind::While {
        return Err("not a `for`/`while` loop".into());
    }
    let (cb, test) = l.cond.ok_or("no loop condition")?;
    let block = k.block(cb);
    if block.order.iter().any(|o| block.op(*o).kind.has_effect()) {
        return Err("the condition reads memory or writes a variable".into());
    }
    let OpKind::Cmp(c) = block.op(test).kind else {
        return Err("the condition is not one comparison".into());
    };
    let args = block.operands(test);
    let is_read = |o: &OpId| matches!(block.op(*o).kind, OpKind::ReadVar(_));
    let (read, bound, cmp) = match (args.first(), args.get(1)) {
        (Some(a), Some(b)) if is_read(a) => (*a, *b, c),
        (Some(a), Some(b)) if is_read(b) => (*b, *a, swapped(c)),
        _ => return Err("the condition does not compare a variable".into()),
    };
    let OpKind::ReadVar(var) = block.op(read).kind else {
        return Err("the condition does not compare a variable".into());
    };
    let width = match block.op(read).ty.as_ref().and_then(fold::width) {
        Some(w) if w >= 2 => w,
        _ => return Err("the counter is not an integer".into()),
    };
    let mut changed = written(k, &l.body);
    changed.extend(written(k, &l.latch));
    if written(k, &l.body).contains(&var) {
        return Err(format!("the body writes the counter `{}`", k.var(var).name));
    }
    // The bound must not depend on the counter nor on anything the loop changes.
    let mut on_counter: HashSet<OpId> = HashSet::new();
    for &o in &block.order {
        let op = block.op(o);
        if let OpKind::ReadVar(v) = op.kind {
            if v == var {
                on_counter.insert(o);
            } else if changed.contains(&v) {
                return Err(format!(
                    "the bound reads `{}`, which the loop changes",
                    k.var(v).name
                ));
            }
        }
        if block.operands(o).iter().any(|a| on_counter.contains(a)) {
            on_counter.insert(o);
        }
    }
    if on_counter.contains(&bound) {
        return Err("the bound depends on the counter".into());
    }
    let step = latch_step(k, &l.latch, var, width)?;
    use CmpOp::*;
    let fits = match cmp {
        SLt | SLe | ULt | ULe => step > 0,
        SGt | SGe | UGt | UGe => step < 0,
        Ne => true,
        _ => false,
    };
    if !fits {
        return Err("the counter steps away from its bound".into());
    }
    Ok(Counted {
        var,
        width,
        step,
        cmp,
        cond: cb,
        read,
        bound,
        test,
        init: start(k, before, var),
        limit: Consts::of(block).ints.get(&bound).copied(),
    })
}

/// The latch's step: its only effect is `k = k + C` (or `k - C`, or `C + k`).
fn latch_step(k: &Kernel, latch: &Region, var: VarId, width: u32) -> Result<i64, String> {
    let mut step = None;
    for n in &latch.0 {
        let Node::Block(b) = n else {
            return Err("the latch holds control flow".into());
        };
        let block = k.block(*b);
        let consts = Consts::of(block);
        for &o in &block.order {
            let op = block.op(o);
            if !op.kind.has_effect() {
                continue;
            }
            let OpKind::WriteVar(v) = op.kind else {
                return Err("the latch does more than step the counter".into());
            };
            if v != var || step.is_some() {
                return Err("the latch does more than step the counter".into());
            }
            let value = *block.operands(o).first().ok_or("malformed latch")?;
            let args = block.operands(value);
            let is_counter = |x: &OpId| block.op(*x).kind == OpKind::ReadVar(var);
            let konst = |x: &OpId| consts.ints.get(x).map(|c| fold::sext(*c, width));
            let s = match (&block.op(value).kind, args.first(), args.get(1)) {
                (OpKind::Binary(BinOp::Add), Some(a), Some(b)) if is_counter(a) => konst(b),
                (OpKind::Binary(BinOp::Add), Some(a), Some(b)) if is_counter(b) => konst(a),
                (OpKind::Binary(BinOp::Sub), Some(a), Some(b)) if is_counter(a) => {
                    konst(b).and_then(i64::checked_neg)
                }
                _ => None,
            };
            step = Some(s.ok_or("the latch does not add a constant to the counter")?);
        }
    }
    let s = step.ok_or("the latch does not step the counter")?;
    // A step of half the range or more has no clear direction.
    let half = if width >= 64 {
        i64::MAX
    } else {
        1i64 << (width - 1)
    };
    if s == 0 || s.unsigned_abs() >= half as u64 {
        return Err("the counter's step is 0 or too large".into());
    }
    Ok(s)
}

/// The counter's constant start value: the last write before the loop in its region,
/// when nothing between that write and the loop may change it.
fn start(k: &Kernel, before: &[Node], var: VarId) -> Option<u64> {
    for n in before.iter().rev() {
        match n {
            Node::Block(b) => {
                let block = k.block(*b);
                let last = block
                    .order
                    .iter()
                    .rev()
                    .find(|o| block.op(**o).kind == OpKind::WriteVar(var));
                if let Some(w) = last {
                    let value = *block.operands(*w).first()?;
                    return Consts::of(block).ints.get(&value).copied();
                }
            }
            Node::If { .. } | Node::Loop(_) => {
                if written(k, &Region(vec![n.clone()])).contains(&var) {
                    return None;
                }
            }
            Node::Break(_) | Node::Continue(_) | Node::Return => return None,
        }
    }
    None
}
