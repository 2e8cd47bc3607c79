//! The kernel-wide range analysis that feeds bit-width narrowing: an unsigned upper bound
//! for every integer op of every block, from what the core accepts and what the program
//! says. Group and size functions are bounded by the core's 32-bit size registers (a
//! launch of at most 2^32 - 1 work-items per dimension, work-groups no larger than the
//! kernel's maximum, global offset 0); variables by every value written to them (a
//! flow-insensitive fixpoint, so a bound holds wherever the variable is read), loop
//! counters by their loop's bound; operations by the transfer functions of `bounds.rs`.
//!
//! Assumptions (both engines keep them): `workitems::group_launch` rejects launches the
//! core cannot take, and a variable never written reads as zero (the interpreter's
//! rule; the core's registers reset to zero and afterwards hold written values only).

use std::collections::HashMap;

use crate::analysis::loops::LID_VARS;

use super::bounds::{self, Operand};
use super::lang::mask;
use super::region;
use crate::ir::{
    BinOp, Block, BlockId, CmpOp, Conv, Kernel, LoopKind, Node as CNode, OpId, OpKind,
    Region as CRegion, Ty, VarId, WorkItemFn,
};
use crate::workitems::GroupForm;

/// The largest value of a size register of the core (global size, number of groups).
pub const SIZE_MAX: u64 = u32::MAX as u64;

/// What the launch can be: the facts the group form records.
#[derive(Clone, Copy, Debug)]
pub struct Launch {
    /// Largest local size per dimension.
    pub max_local: [u64; 3],
    /// The local size is exactly `max_local` (a `reqd_work_group_size` kernel); otherwise
    /// it is the hidden parameter of its dimension.
    pub exact_local: bool,
    /// Index of the first hidden local-size parameter (`params.len()` when none).
    pub hidden_from: usize,
}

impl Launch {
    pub fn of(g: &GroupForm) -> Launch {
        Launch {
            max_local: g.max_local,
            exact_local: g.hidden_params == 0,
            hidden_from: g.kernel.params.len() - g.hidden_params,
        }
    }

    /// Nothing known beyond the core's registers (a kernel not in group form).
    pub fn unknown(k: &Kernel) -> Launch {
        Launch {
            max_local: [SIZE_MAX; 3],
            exact_local: false,
            hidden_from: k.params.len(),
        }
    }

    /// Largest number of groups in dimension `d`: the global size over the local size.
    fn groups(&self, d: usize) -> u64 {
        if self.exact_local {
            SIZE_MAX / self.max_local[d].max(1)
        } else {
            SIZE_MAX
        }
    }
}

/// The bounds: per block, per integer op.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ranges {
    ops: Vec<HashMap<OpId, u64>>,
    pub vars: Vec<u64>,
    /// Per kernel object, the bound of what its loads read (`objects.rs`), all ones at
    /// 64 bits when unbounded.
    pub objects: Vec<u64>,
}

impl Ranges {
    /// The bound of op `o` of block `b` (all ones at its width when unknown).
    pub fn op(&self, b: BlockId, o: OpId) -> Option<u64> {
        self.ops.get(b.0 as usize)?.get(&o).copied()
    }

    /// Whether integer ops `x` and `y` of block `b` never have a set bit in common (by
    /// their bounds and the trailing zeros their shape shows): their `or` is their sum,
    /// as the `opt` stage's `add-disjoint` rule builds it.
    pub fn disjoint(&self, k: &Kernel, b: BlockId, x: OpId, y: OpId) -> bool {
        let blk = k.block(b);
        let set = |o: OpId| {
            let bits = int_bits(blk.op(o).ty.as_ref()).unwrap_or(64);
            let hi = match &blk.op(o).kind {
                OpKind::Const(v) if v.len() == 1 => v[0] & mask(bits),
                _ => self.op(b, o).unwrap_or(mask(bits)),
            };
            bounds::may_set(hi, trailing_zeros(blk, o, 8))
        };
        set(x) & set(y) == 0
    }
}

/// The low bits of IR op `o` known to be zero, from its shape (`depth` ops deep):
/// constants, shifts and multiplies by constants, and what keeps them, as
/// `bounds::tz` gives them in the e-graph.
fn trailing_zeros(blk: &Block, o: OpId, depth: u32) -> u32 {
    let op = blk.op(o);
    let bits = int_bits(op.ty.as_ref()).unwrap_or(64);
    let args = blk.operands(o);
    let konst = |a: OpId| match &blk.op(a).kind {
        OpKind::Const(v) if v.len() == 1 => Some(v[0]),
        _ => None,
    };
    let t = |i: usize| match args.get(i) {
        Some(a) if depth > 0 => trailing_zeros(blk, *a, depth - 1),
        _ => 0,
    };
    let z = match &op.kind {
        OpKind::Const(v) if v.len() == 1 => match v[0] & mask(bits) {
            0 => bits,
            v => v.trailing_zeros(),
        },
        OpKind::Conv(Conv::Int { sat: false, .. }) => t(0),
        OpKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Or | BinOp::Xor) => t(0).min(t(1)),
        OpKind::Binary(BinOp::And) => t(0).max(t(1)),
        OpKind::Binary(BinOp::Mul) => t(0).saturating_add(t(1)),
        OpKind::Binary(BinOp::Shl) => match args.get(1).and_then(|a| konst(*a)) {
            Some(c) => t(0).saturating_add((c % bits as u64) as u32),
            None => 0,
        },
        _ => 0,
    };
    z.min(bits)
}

/// A variable counted up by a `while` loop that tests it against a bound: every write of
/// it inside the loop adds a constant to its own value, none inside a nested loop, so
/// it never exceeds the bound plus the steps of one iteration.
#[derive(Clone, Debug)]
struct Counter {
    var: VarId,
    test: (BlockId, OpId),
    /// The compare's other operand, and whether the test is `<=` and signed.
    limit: OpId,
    inclusive: bool,
    signed: bool,
    steps: u64,
    writes: Vec<(BlockId, OpId)>,
}

fn int_bits(t: Option<&Ty>) -> Option<u32> {
    match t {
        Some(Ty::I(w)) => Some(*w as u32),
        _ => None,
    }
}

/// Blocks of `r` that run at most once per run of `r` (`direct`), and blocks of loops
/// nested in it that may repeat (`nested`).
fn blocks(k: &Kernel, r: &CRegion, direct: &mut Vec<BlockId>, nested: &mut Vec<BlockId>) {
    for n in &r.0 {
        match n {
            CNode::Block(b) => direct.push(*b),
            CNode::If {
                cond, then, els, ..
            } => {
                direct.push(cond.0);
                blocks(k, then, direct, nested);
                blocks(k, els, direct, nested);
            }
            CNode::Loop(l) => {
                let lp = &k.loops[l.0 as usize];
                let into = |d: &mut Vec<BlockId>, n: &mut Vec<BlockId>| {
                    d.extend(lp.cond.map(|c| c.0));
                    blocks(k, &lp.body, d, n);
                    blocks(k, &lp.latch, d, n);
                };
                if lp.kind == LoopKind::Once {
                    into(direct, nested);
                } else {
                    let mut all = Vec::new();
                    into(&mut all, nested);
                    nested.extend(all);
                }
            }
            CNode::Break(_) | CNode::Continue(_) | CNode::Return => {}
        }
    }
}

/// The counter tested by loop `l`, if its condition and writes have the shape. A
/// condition that is a conjunction (an unrolled loop's `i < n && n - i > 3`) bounds the
/// counter by any of its compares.
fn counter(k: &Kernel, l: usize) -> Option<Counter> {
    let lp = &k.loops[l];
    let (cb, co) = lp.cond?;
    if lp.kind != LoopKind::While {
        return None;
    }
    let b = k.block(cb);
    let mut todo = vec![co];
    while let Some(o) = todo.pop() {
        match b.op(o).kind {
            OpKind::Binary(crate::ir::BinOp::And) if b.op(o).ty == Some(Ty::I(1)) => {
                todo.extend(b.operands(o).iter().rev())
            }
            OpKind::Cmp(_) => {
                if let Some(c) = counter_at(k, l, cb, o) {
                    return Some(c);
                }
            }
            _ => {}
        }
    }
    None
}

/// Loop `l`'s counter as compare `co` of its test block `cb` shows it.
fn counter_at(k: &Kernel, l: usize, cb: BlockId, co: OpId) -> Option<Counter> {
    let lp = &k.loops[l];
    let b = k.block(cb);
    let OpKind::Cmp(c) = b.op(co).kind else {
        return None;
    };
    let args = b.operands(co);
    let (var_side, limit, inclusive, signed) = match c {
        CmpOp::ULt => (args[0], args[1], false, false),
        CmpOp::ULe => (args[0], args[1], true, false),
        CmpOp::SLt => (args[0], args[1], false, true),
        CmpOp::SLe => (args[0], args[1], true, true),
        CmpOp::UGt => (args[1], args[0], false, false),
        CmpOp::UGe => (args[1], args[0], true, false),
        CmpOp::SGt => (args[1], args[0], false, true),
        CmpOp::SGe => (args[1], args[0], true, true),
        _ => return None,
    };
    let OpKind::ReadVar(var) = b.op(var_side).kind else {
        return None;
    };
    let writes = |bid: BlockId| {
        let blk = k.block(bid);
        blk.order
            .iter()
            .copied()
            .filter(|o| blk.op(*o).kind == OpKind::WriteVar(var))
            .collect::<Vec<_>>()
    };
    // A write in the test's own block would change the value after it is tested.
    if !writes(cb).is_empty() {
        return None;
    }
    let (mut direct, mut nested) = (Vec::new(), Vec::new());
    blocks(k, &lp.body, &mut direct, &mut nested);
    blocks(k, &lp.latch, &mut direct, &mut nested);
    if nested.iter().any(|b| !writes(*b).is_empty()) {
        return None;
    }
    let bits = int_bits(Some(&k.vars[var.0 as usize].ty))?;
    let (mut steps, mut ws) = (0u64, Vec::new());
    for bid in direct {
        for w in writes(bid) {
            steps = steps.checked_add(step(k, bid, w, var, bits)?)?;
            ws.push((bid, w));
        }
    }
    Some(Counter {
        var,
        test: (cb, co),
        limit,
        inclusive,
        signed,
        steps,
        writes: ws,
    })
}

/// The constant a write `var = var + c` adds (below the sign bit, so it only counts up).
/// The sum may be computed narrower or wider and converted without sign (the `opt`
/// stage narrows counters): a conversion that drops bits only makes the value smaller,
/// so the counter's bound (its last tested value plus its steps) still holds.
fn step(k: &Kernel, b: BlockId, w: OpId, var: VarId, bits: u32) -> Option<u64> {
    let blk = k.block(b);
    let unsigned_conv = |o: OpId| {
        matches!(
            blk.op(o).kind,
            OpKind::Conv(crate::ir::Conv::Int {
                from_signed: false,
                sat: false,
                ..
            })
        )
    };
    let through = |mut o: OpId| {
        while unsigned_conv(o) {
            o = blk.operands(o)[0];
        }
        o
    };
    let value = through(blk.operands(w)[0]);
    if blk.op(value).kind != OpKind::Binary(crate::ir::BinOp::Add) {
        return None;
    }
    let args = blk.operands(value);
    let sum_bits = int_bits(blk.op(value).ty.as_ref())?.min(bits);
    let konst = |o: OpId| match &blk.op(o).kind {
        OpKind::Const(v) if v.len() == 1 => Some(v[0] & mask(sum_bits)),
        _ => None,
    };
    let reads = |o: OpId| blk.op(through(o)).kind == OpKind::ReadVar(var);
    let c = match (reads(args[0]), reads(args[1])) {
        (true, _) => konst(args[1])?,
        (_, true) => konst(args[0])?,
        _ => return None,
    };
    (c <= mask(sum_bits - 1)).then_some(c)
}

/// Bounds of every op of block `b` given the variables' bounds.
fn block_bounds(
    k: &Kernel,
    b: BlockId,
    launch: &Launch,
    vars: &[u64],
    objects: &[u64],
    in_work_item_loop: bool,
) -> HashMap<OpId, u64> {
    let blk = k.block(b);
    let mut out: HashMap<OpId, u64> = HashMap::new();
    for &o in &blk.order {
        let op = blk.op(o);
        let Some(bits) = int_bits(op.ty.as_ref()) else {
            continue;
        };
        let args = blk.operands(o);
        let arg = |i: usize| {
            let a = args[i];
            let bits = int_bits(blk.op(a).ty.as_ref()).unwrap_or(64);
            Operand {
                hi: out.get(&a).copied().unwrap_or(mask(bits)),
                bits,
                konst: match &blk.op(a).kind {
                    OpKind::Const(v) if v.len() == 1 => Some(v[0] & mask(bits)),
                    _ => None,
                },
            }
        };
        let dim = || match args.first().map(|a| &blk.op(*a).kind) {
            Some(OpKind::Const(v)) => v.first().copied(),
            _ => None,
        };
        let hi = match &op.kind {
            // Past its loop's test a work-item counter is below its size (only the
            // test sees the value that ends the loop).
            OpKind::ReadVar(v) if in_work_item_loop => {
                let name = k.vars[v.0 as usize].name.as_str();
                match LID_VARS.iter().position(|n| *n == name) {
                    Some(d) => vars[v.0 as usize].min(launch.max_local[d].saturating_sub(1)),
                    None => vars[v.0 as usize],
                }
            }
            OpKind::ReadVar(v) => vars[v.0 as usize],
            kind if super::objects::loaded(kind).is_some() => super::objects::loaded(kind)
                .and_then(|obj| objects.get(obj.0 as usize).copied())
                .unwrap_or(u64::MAX),
            OpKind::WorkItem(f) => work_item(*f, dim(), launch),
            OpKind::Param(p) if *p as usize >= launch.hidden_from => {
                let d = *p as usize - launch.hidden_from;
                launch.max_local.get(d).copied().unwrap_or(SIZE_MAX)
            }
            _ if global_id(k, blk, o, launch) => SIZE_MAX,
            _ => match region::node_of(blk, o) {
                Some(n) => bounds::hi(&n, bits, arg),
                None => mask(bits),
            },
        };
        out.insert(o, hi.min(mask(bits)));
    }
    out
}

/// Bound of a work-item function of dimension `d` (any dimension when not constant).
fn work_item(f: WorkItemFn, d: Option<u64>, launch: &Launch) -> u64 {
    let dims: Vec<usize> = match d {
        Some(d) if d < 3 => vec![d as usize],
        // Out of range: ids are 0 and sizes 1.
        Some(_) => return 1,
        None => vec![0, 1, 2],
    };
    let each = |d: usize| match f {
        WorkItemFn::WorkDim => 3,
        WorkItemFn::GlobalOffset => 0,
        WorkItemFn::GroupId => launch.groups(d).saturating_sub(1),
        WorkItemFn::NumGroups => launch.groups(d),
        WorkItemFn::LocalId => launch.max_local[d].saturating_sub(1),
        WorkItemFn::LocalSize | WorkItemFn::EnqueuedLocalSize => launch.max_local[d],
        WorkItemFn::GlobalSize | WorkItemFn::GlobalId => SIZE_MAX,
        WorkItemFn::GlobalLinearId | WorkItemFn::LocalLinearId => u64::MAX,
    };
    dims.into_iter().map(each).max().unwrap_or(u64::MAX)
}

/// Whether `o` is `group_id(d) * local_size(d) + local_id(d)` with the local size the
/// hidden parameter: a global id without offset, below the global size. Interval
/// arithmetic cannot see that (it takes the largest group id and the largest size at
/// once), so the group form's shape is recognised.
fn global_id(k: &Kernel, blk: &crate::ir::Block, o: OpId, launch: &Launch) -> bool {
    if blk.op(o).kind != OpKind::Binary(crate::ir::BinOp::Add) {
        return false;
    }
    let args = blk.operands(o);
    let mul_of = |m: OpId| -> Option<usize> {
        if blk.op(m).kind != OpKind::Binary(crate::ir::BinOp::Mul) {
            return None;
        }
        let xs = blk.operands(m);
        let dim_of_group = |g: OpId| match blk.op(g).kind {
            OpKind::WorkItem(WorkItemFn::GroupId) => match &blk.op(blk.operands(g)[0]).kind {
                OpKind::Const(v) => v.first().map(|d| *d as usize),
                _ => None,
            },
            _ => None,
        };
        let size_dim = |s: OpId| match blk.op(s).kind {
            OpKind::Param(p) if p as usize >= launch.hidden_from => {
                Some(p as usize - launch.hidden_from)
            }
            _ => None,
        };
        let (g, s) = (dim_of_group(xs[0])?, size_dim(xs[1])?);
        (g == s).then_some(g)
    };
    let is_lid = |x: OpId, d: usize| match &blk.op(x).kind {
        OpKind::ReadVar(v) => k.vars[v.0 as usize].name == LID_VARS[d],
        OpKind::Const(v) => v.first() == Some(&0),
        _ => false,
    };
    match (mul_of(args[0]), mul_of(args[1])) {
        (Some(d), _) => is_lid(args[1], d),
        (_, Some(d)) => is_lid(args[0], d),
        _ => false,
    }
}

/// Rounds before a still-growing variable is given up (bounded by its width only).
const WIDEN_AFTER: usize = 6;

/// The bounds of every integer op of `k`.
pub fn analyze(k: &Kernel, launch: &Launch) -> Ranges {
    let counters: Vec<Counter> = (0..k.loops.len()).filter_map(|l| counter(k, l)).collect();
    let mut by_write: HashMap<(BlockId, OpId), usize> = HashMap::new();
    for (i, c) in counters.iter().enumerate() {
        for w in &c.writes {
            by_write.insert(*w, i);
        }
    }
    // The group form's local-id counters run from 0 to the local size (the work-item
    // loop ends when the last one reaches it), however their steps are written.
    let counter_max = |v: usize| {
        LID_VARS
            .iter()
            .position(|n| *n == k.vars[v].name)
            .map(|d| launch.max_local[d])
    };
    let width_top = |v: usize| int_bits(Some(&k.vars[v].ty)).map_or(u64::MAX, mask);
    let top = |v: usize| counter_max(v).map_or(width_top(v), |m| m.min(width_top(v)));
    let mut vars = vec![0u64; k.vars.len()];
    for (v, slot) in vars.iter_mut().enumerate() {
        if int_bits(Some(&k.vars[v].ty)).is_none() {
            *slot = u64::MAX;
        }
    }
    let slots = super::objects::slots(k);
    let obj_start = |i: usize| match slots[i] {
        Some(w) => super::objects::initial_max(&k.objects[i], w),
        None => u64::MAX,
    };
    let mut objects: Vec<u64> = (0..k.objects.len()).map(obj_start).collect();
    // The blocks of work-item loops' bodies and latches (not their tests).
    let mut inside = std::collections::HashSet::new();
    for l in 0..k.loops.len() {
        let id = crate::ir::LoopId(l as u32);
        if crate::analysis::loops::work_item_dim(k, id).is_some() {
            let lp = k.lp(id);
            let mut blocks = Vec::new();
            crate::analysis::loops::all_blocks(k, &lp.body, &mut blocks);
            crate::analysis::loops::all_blocks(k, &lp.latch, &mut blocks);
            inside.extend(blocks);
        }
    }
    let mut round = 0;
    loop {
        let ops: Vec<HashMap<OpId, u64>> = (0..k.blocks.len())
            .map(|b| {
                let b = BlockId(b as u32);
                block_bounds(k, b, launch, &vars, &objects, inside.contains(&b))
            })
            .collect();
        let mut next_objects: Vec<u64> = (0..k.objects.len()).map(obj_start).collect();
        for (b, blk) in k.blocks.iter().enumerate() {
            for &o in &blk.order {
                let OpKind::Store {
                    base: Some(crate::ir::Base::Object(obj)),
                    ..
                } = blk.op(o).kind
                else {
                    continue;
                };
                let i = obj.0 as usize;
                let Some(w) = slots.get(i).copied().flatten() else {
                    continue;
                };
                let value = blk.operands(o).get(1).copied();
                let hi = value
                    .and_then(|v| ops[b].get(&v).copied())
                    .unwrap_or(mask(w));
                next_objects[i] = next_objects[i].max(hi.min(mask(w)));
            }
        }
        // Never written, an integer variable reads zero; other types are not bounded.
        let mut next: Vec<u64> = (0..vars.len())
            .map(|v| match int_bits(Some(&k.vars[v].ty)) {
                Some(_) => 0,
                None => u64::MAX,
            })
            .collect();
        for (b, blk) in k.blocks.iter().enumerate() {
            for &o in &blk.order {
                let OpKind::WriteVar(v) = blk.op(o).kind else {
                    continue;
                };
                let v = v.0 as usize;
                let bid = BlockId(b as u32);
                let value = blk.operands(o)[0];
                let hi = match by_write.get(&(bid, o)) {
                    Some(c) => counted(&counters[*c], &ops, &vars, width_top(v)),
                    None => ops[b].get(&value).copied().unwrap_or(top(v)),
                };
                next[v] = next[v].max(hi.min(top(v)));
            }
        }
        // Late rounds only let bounds grow: some transfers are not monotone (a wider
        // operand can give a narrower result), and two bounds that feed each other can
        // then take turns at the top forever (a fuzzer's kernel did, seed 38). Joined,
        // the widening ends it. The early rounds stay free: joined from the start,
        // reduce_local's scratch address widens from 8 to 14 bits and its loop's II
        // from 1 to 2.
        if round >= 2 * WIDEN_AFTER {
            for (n, v) in next.iter_mut().zip(&vars) {
                *n = (*n).max(*v);
            }
            for (n, o) in next_objects.iter_mut().zip(&objects) {
                *n = (*n).max(*o);
            }
        }
        round += 1;
        if round > WIDEN_AFTER {
            for v in 0..next.len() {
                if next[v] > vars[v] {
                    next[v] = top(v);
                }
            }
            for (i, o) in next_objects.iter_mut().enumerate() {
                if *o > objects[i] {
                    *o = slots[i].map_or(u64::MAX, mask);
                }
            }
        }
        if next == vars && next_objects == objects {
            return Ranges { ops, vars, objects };
        }
        vars = next;
        objects = next_objects;
    }
}

/// The largest value a counter's increments can write: its limit (less one for a strict
/// test) plus the steps of one iteration; all ones when that would wrap, or for a signed
/// test when the variable or its limit could be negative.
fn counted(c: &Counter, ops: &[HashMap<OpId, u64>], vars: &[u64], top: u64) -> u64 {
    let bits = 64 - top.leading_zeros();
    let limit = ops[c.test.0 .0 as usize]
        .get(&c.limit)
        .copied()
        .unwrap_or(top);
    // A signed test bounds the counter only while it and its limit are not negative.
    let ceiling = if c.signed { mask(bits - 1) } else { top };
    if vars[c.var.0 as usize] > ceiling || limit > ceiling {
        return top;
    }
    let last = if c.inclusive {
        Some(limit)
    } else {
        limit.checked_sub(1)
    };
    let Some(last) = last else {
        // `v < 0` with `v` not negative: the body never runs, its writes never happen.
        return 0;
    };
    let most = last.saturating_add(c.steps);
    if most <= ceiling {
        most
    } else {
        top
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bound of every variable of `src`'s group form, by name.
    fn var_bounds(src: &str) -> HashMap<String, u64> {
        let c = crate::frontend::check_source("k.cl", src, &Default::default());
        let m = crate::lower::lower(c.program.as_ref().expect("program"), &c.sources)
            .expect("lowering");
        let g = crate::workitems::to_group_form(&m.kernels[0]).expect("group form");
        let r = analyze(&g.kernel, &Launch::of(&g));
        g.kernel
            .vars
            .iter()
            .zip(&r.vars)
            .map(|(v, b)| (v.name.clone(), *b))
            .collect()
    }

    #[test]
    fn a_counted_loop_bounds_its_counter_by_its_limit_plus_its_step() {
        let b = var_bounds(
            "__kernel void k(__global int *a) {
                for (int i = 0; i < 100; i += 3) a[i] = i;
                for (uint j = 0; j <= 10; j++) a[j] = j;
            }",
        );
        assert_eq!(b["i"], 99 + 3);
        assert_eq!(b["j"], 11);
    }

    #[test]
    fn a_conjunction_of_tests_and_a_narrowed_step_still_bound_the_counter() {
        // An unrolled loop's test (`i < 1000 && 1000 - i > 3`) and a step the opt stage
        // computes at 16 bits and zero-extends.
        let b = var_bounds(
            "__kernel void k(__global uint *a) {
                uint i = 0;
                while (i < 1000u && 1000u - i > 3u) { a[i] = i; i = (uint)(ushort)(i + 4u); }
            }",
        );
        assert_eq!(b["i"], 999 + 4);
    }

    #[test]
    fn work_item_counters_and_ids_are_bounded_by_the_group_and_the_core() {
        let b = var_bounds(
            "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
            void k(__global int *a) { size_t i = get_global_id(0); a[i] = 1; }",
        );
        assert_eq!(b["__lid_x"], 64);
        assert!(b["i"] <= SIZE_MAX, "{b:?}");
        let b = var_bounds(
            "__kernel void k(__global int *a) { size_t i = get_global_id(0); a[i] = 1; }",
        );
        assert!(b["i"] <= SIZE_MAX, "{b:?}");
    }

    #[test]
    fn a_counter_written_elsewhere_in_its_loop_or_tested_signed_below_zero_is_unbounded() {
        let b = var_bounds(
            "__kernel void k(__global int *a, int n) {
                for (int i = 0; i < 100; i++) { if (a[i]) i = a[i]; }
                for (int j = n; j < 100; j++) a[j] = j;
                for (uint u = 0; u < 100; u++) { for (int t = 0; t < 2; t++) u++; }
            }",
        );
        assert_eq!(b["i"], u32::MAX as u64, "{b:?}");
        assert_eq!(b["j"], u32::MAX as u64, "{b:?}");
        assert_eq!(b["u"], u32::MAX as u64, "{b:?}");
        assert_eq!(b["t"], 2, "{b:?}");
    }

    #[test]
    fn a_variable_doubling_without_end_is_given_up_after_a_few_rounds() {
        let b = var_bounds(
            "__kernel void k(__global uint *a) {
                uint x = 1;
                while (a[x]) x = x * 2 + 1;
                a[0] = x & 255;
            }",
        );
        assert_eq!(b["x"], u32::MAX as u64, "{b:?}");
    }
}
