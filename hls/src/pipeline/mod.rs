//! The `pipeline` stage: which modulo-scheduled loops the datapath runs as pipelines,
//! why each other loop keeps the FSM, and which memory paths every buffer needs.
//!
//! A loop is pipelined when its iteration is one region of blocks and `if`s (no `break`,
//! `continue`, inner loop or `return` yet), if-converted: every block runs, and each
//! side effect (load, store, variable write) of a block inside an `if` carries the
//! block's predicate, the conditions on its path (`PipeLoop::guards`); its exit test is
//! a `while` condition computed without side effects, and every op has a pipelined
//! implementation: integer and `float` arithmetic, compares and selects, lanes,
//! variables, and `__global`/`__constant` loads and stores of 1, 2, 4 or 8 bytes, which go
//! through the streaming memory units (`ohls_mem_load`, `ohls_mem_store`; one of each
//! per buffer, serving every access of one element size to it). Those units keep no order between a buffer's loads and stores, so a loop
//! whose schedule orders a store before a load (in one iteration or across iterations)
//! keeps the FSM.
//!
//! A work-item loop that is the whole group body after its counters' reset runs across
//! work-group boundaries: at the end of a group the pipeline steps the group counters and
//! resets the local ids itself, without draining (`CrossGroup`).

use std::collections::BTreeMap;

use crate::analysis::loops::{shapes, LoopShape};
use crate::board::OpLibrary;
use crate::frontend::types::AddrSpace;
use crate::ir::{Base, BlockId, Kernel, LoopId, LoopKind, Node, OpId, OpKind, ParamKind, Ty};
use crate::memory::MemoryPlan;
use crate::schedule::loops::LoopSchedules;
use crate::schedule::timing::op_timing;

pub use crate::rtl::shell::BufferPaths;

/// What the stage decided for one kernel.
#[derive(Clone, Debug, Default)]
pub struct PipelinePlan {
    pub loops: BTreeMap<LoopId, PipeLoop>,
    /// Loops with a modulo schedule that keep the FSM, with the reason.
    pub fallback: BTreeMap<LoopId, String>,
    /// Per buffer parameter (by index), the memory paths the core gives it.
    pub buffers: BTreeMap<u32, BufferPaths>,
}

impl PipelinePlan {
    /// The ops only a pipeline runs: those of pipelined loops without an ordered FSM
    /// version (loop versioning runs a loop's ops on the FSM too where buffers may overlap).
    pub fn pipeline_only(&self) -> std::collections::HashSet<(BlockId, OpId)> {
        self.loops
            .values()
            .filter(|pl| pl.overlap.is_empty())
            .flat_map(|pl| pl.ops.iter().copied())
            .collect()
    }
}

/// One pipelined loop.
#[derive(Clone, Debug)]
pub struct PipeLoop {
    /// The ops of one iteration in program order: condition block, body, latch.
    pub ops: Vec<(BlockId, OpId)>,
    /// The `i1` exit test (the loop runs while it holds).
    pub exit: (BlockId, OpId),
    /// `Some(init)`: the loop runs across work-groups; `init` is the block before it that
    /// resets the local-id counters (constants written to variables).
    pub cross_group: Option<BlockId>,
    /// The blocks inside an `if` of the iteration, with their guard.
    pub guards: BTreeMap<BlockId, Guard>,
    /// Each op's latency on the board library, as the modulo schedule assumed it (a
    /// load's response is due that many cycles after its request).
    pub latency: BTreeMap<(BlockId, OpId), u32>,
    /// Pairs of buffer parameters (by index, the smaller first) the pipeline treats as
    /// distinct although the host may pass overlapping memory: at the loop's entry the
    /// core compares their address ranges and runs the loop ordered, on the FSM, when any
    /// pair overlaps (loop versioning).
    pub overlap: Vec<(u32, u32)>,
    /// Loads that may read what a global store of the same iteration or of an earlier one
    /// wrote (an `ivdep(N)` loop's carried dependence through memory), with those stores: the
    /// schedule issues the store of iteration `i - distance` before the load of iteration
    /// `i`, and the load is requested only once the store unit's count of acknowledged
    /// stores (`NAME_st_acked`) has reached that store's, so it reads the stored bytes.
    pub ordered_loads: BTreeMap<(BlockId, OpId), Vec<OrderedAfter>>,
}

/// A store an ordered load waits for: the load of iteration `i` reads only once the
/// store of iteration `i - distance` (and every store before it) is acknowledged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderedAfter {
    pub store: (BlockId, OpId),
    pub distance: u32,
}

/// Plans group-form kernel `k` (modulo schedules `sched` on `lib`).
/// `max_elem_bytes` is the widest access a memory unit takes (a bus beat).
pub fn plan(
    k: &Kernel,
    sched: &LoopSchedules,
    lib: &OpLibrary,
    max_elem_bytes: u32,
    memory: &MemoryPlan,
) -> PipelinePlan {
    let mut out = PipelinePlan::default();
    let shapes = shapes(k);
    let units = unit_sizes(k, &shapes, sched, memory, max_elem_bytes);
    for s in &shapes {
        if !sched.loops.contains_key(&s.id) {
            continue;
        }
        match check_loop(k, s, sched, &units, max_elem_bytes, memory) {
            Ok((mut pl, uses)) => {
                for &(b, o) in &pl.ops {
                    let t = op_timing(o, k.block(b), lib, &lib.limits);
                    pl.latency.insert((b, o), t.latency);
                }
                // Loads in flight per buffer: each waits its latency for its answer.
                let ii = sched.loops.get(&s.id).map(|m| m.ii.max(1)).unwrap_or(1);
                // A loop whose loads wait for the previous iteration's stores at an II as
                // long as the whole iteration overlaps nothing: the FSM runs it as fast,
                // without the pipeline's entry and drain.
                let depth = sched.loops.get(&s.id).map_or(0, |m| m.depth);
                if !pl.ordered_loads.is_empty() && ii >= depth {
                    out.fallback.insert(
                        s.id,
                        format!(
                            "a load waits for stores of earlier iterations: at II {ii} an \
                             iteration overlaps no other, so the loop runs in order"
                        ),
                    );
                    continue;
                }
                let mut uses = uses;
                for (p, u) in uses.iter_mut() {
                    let lat: u32 = pl
                        .ops
                        .iter()
                        .filter(|x| {
                            matches!(k.block(x.0).op(x.1).kind,
                                OpKind::Load { base: Some(Base::Param(q)), .. } if q == *p)
                                && !memory.wide.rides_along(**x)
                        })
                        .map(|x| pl.latency.get(x).copied().unwrap_or(1) / ii + 2)
                        .sum();
                    u.load_in_flight = lat + 8;
                }
                for (p, u) in uses {
                    let b = out.buffers.entry(p).or_default();
                    b.pipe_load = b.pipe_load.or(u.pipe_load);
                    b.pipe_store = b.pipe_store.or(u.pipe_store);
                    b.load_align = min_align(b.load_align, u.load_align);
                    b.store_align = min_align(b.store_align, u.store_align);
                    b.load_in_flight = b.load_in_flight.max(u.load_in_flight);
                    b.store_strb |= u.store_strb;
                    b.load_scattered |= u.load_scattered;
                    b.load_fresh |= u.load_fresh;
                    b.store_acked |= u.store_acked;
                }
                pl.overlap = overlap_pairs(k, s, &pl);
                for &(x, y) in &pl.overlap {
                    out.buffers.entry(x).or_default().size = true;
                    out.buffers.entry(y).or_default().size = true;
                }
                out.loops.insert(s.id, pl);
            }
            Err(why) => {
                out.fallback.insert(s.id, why);
            }
        }
    }
    // The FSM's accesses: every memory op outside the pipelined loops, and those of
    // versioned loops (their ordered version runs on the FSM).
    let inside = out.pipeline_only();
    for (bi, blk) in k.blocks.iter().enumerate() {
        let b = BlockId(bi as u32);
        for &o in &blk.order {
            if inside.contains(&(b, o)) {
                continue;
            }
            let (read, write, base) = match &blk.op(o).kind {
                OpKind::Load { base, .. } => (true, false, base),
                OpKind::Store { base, .. } => (false, true, base),
                OpKind::Atomic { op, base, .. } => (true, *op != crate::ir::AtomicOp::Load, base),
                _ => continue,
            };
            if let Some(Base::Param(p)) = base {
                if k.is_buffer(*p) {
                    let e = out.buffers.entry(*p).or_default();
                    e.fsm_read |= read;
                    e.fsm_write |= write;
                }
            }
        }
    }
    // Cross-group running once the loops are known.
    let cross = cross_group(k, &shapes, &out, sched);
    if let Some((l, init)) = cross {
        if let Some(pl) = out.loops.get_mut(&l) {
            pl.cross_group = Some(init);
        }
    }
    out
}

/// Whether an access of `bytes` to on-chip memory `b` can run in loop `s`'s pipeline:
/// one RAM word, and memory the overlapping iterations may share (in a work-item loop a
/// private object is every work-item's own, which the group form keeps in one copy; the
/// group form's per-work-item storage and read-only memories are safe).
fn on_chip_access(
    k: &Kernel,
    s: &LoopShape,
    memory: &MemoryPlan,
    b: Base,
    bytes: u32,
    load: bool,
) -> Result<(), String> {
    let l = memory.layout(b).ok_or("no memory plan")?;
    let name = match b {
        Base::Object(o) => k.object(o).name.clone(),
        Base::Param(p) => k.params[p as usize].name.clone(),
    };
    if bytes != l.word {
        return Err(format!(
            "a {bytes}-byte access to {name}, a memory of {}-byte words (not pipelined yet)",
            l.word
        ));
    }
    if let (Some(_), Base::Object(o)) = (s.work_item_dim, b) {
        let obj = k.object(o);
        let per_item = obj.name.starts_with("__wi");
        let private = obj.space == AddrSpace::Private;
        if private && !per_item && (!load || written(k, b)) {
            return Err(format!(
                "private array {name} is written: the work-items in flight would share it"
            ));
        }
    }
    Ok(())
}

/// Whether any op of `k` stores to (or updates) memory `b`.
fn written(k: &Kernel, b: Base) -> bool {
    k.blocks.iter().any(|blk| {
        blk.graph.node_weights().any(|o| match &o.kind {
            OpKind::Store { base, .. } | OpKind::Atomic { base, .. } => *base == Some(b),
            _ => false,
        })
    })
}

/// The bytes and alignment memory op `x` moves (a wide group's issuer: the whole
/// group), or `None` when it rides along in another op's group.
fn access_size(
    k: &Kernel,
    memory: &MemoryPlan,
    x: (BlockId, OpId),
    align: u32,
) -> Option<(u32, u32)> {
    if memory.wide.rides_along(x) {
        return None;
    }
    if let Some(g) = memory.wide.group(x) {
        return Some((g.bytes(), g.align));
    }
    let blk = k.block(x.0);
    let op = blk.op(x.1);
    let vty = if matches!(op.kind, OpKind::Load { .. }) {
        op.ty.clone()
    } else {
        blk.operands(x.1).get(1).and_then(|v| blk.op(*v).ty.clone())
    };
    Some((vty.map(|t| t.bits().div_ceil(8)).unwrap_or(0), align))
}

/// Per buffer parameter, the element size of its pipelined load and store units: the
/// widest access of any innermost loop that may be pipelined, so that loops unrolled by
/// different factors (and wide groups beside single accesses) share one unit per buffer
/// and direction.
#[derive(Default)]
struct UnitSizes {
    load: BTreeMap<u32, u32>,
    store: BTreeMap<u32, u32>,
}

fn unit_sizes(
    k: &Kernel,
    shapes: &[LoopShape],
    sched: &LoopSchedules,
    memory: &MemoryPlan,
    max_elem_bytes: u32,
) -> UnitSizes {
    let mut out = UnitSizes::default();
    for s in shapes {
        if !sched.loops.contains_key(&s.id) || !s.inner.is_empty() {
            continue;
        }
        for ib in &s.blocks {
            let blk = k.block(ib.block);
            for &o in &blk.order {
                let (load, p, align) = match blk.op(o).kind {
                    OpKind::Load {
                        base: Some(Base::Param(p)),
                        align,
                        ..
                    } => (true, p, align),
                    OpKind::Store {
                        base: Some(Base::Param(p)),
                        align,
                        ..
                    } => (false, p, align),
                    _ => continue,
                };
                let Some((bytes, _)) = access_size(k, memory, (ib.block, o), align) else {
                    continue;
                };
                // A load of an odd size is not pipelined: it must not widen the others.
                if load && !bytes.is_power_of_two() {
                    continue;
                }
                let bytes = bytes.next_power_of_two();
                if bytes > max_elem_bytes {
                    continue;
                }
                let w = if load { &mut out.load } else { &mut out.store };
                let e = w.entry(p).or_default();
                *e = (*e).max(bytes);
            }
        }
    }
    out
}

/// The smaller of two alignments, 0 meaning none is known yet.
fn min_align(a: u32, b: u32) -> u32 {
    match (a, b) {
        (0, x) | (x, 0) => x,
        (x, y) => x.min(y),
    }
}

/// The group body `[init block, work-item loop]`, the loop pipelined and the block only
/// writing constants to variables: the loop and the block.
fn cross_group(
    k: &Kernel,
    shapes: &[LoopShape],
    plan: &PipelinePlan,
    sched: &LoopSchedules,
) -> Option<(LoopId, BlockId)> {
    let [Node::Block(init), Node::Loop(l)] = k.body.0.as_slice() else {
        return None;
    };
    if !read_only_objects(k) || !plan.loops.contains_key(l) {
        return None;
    }
    let wi = shapes
        .iter()
        .any(|s| s.id == *l && s.work_item_dim.is_some());
    let blk = k.block(*init);
    let simple = blk.order.iter().all(|&o| match blk.op(o).kind {
        OpKind::Const(_) => true,
        OpKind::WriteVar(_) => blk
            .operands(o)
            .iter()
            .all(|a| matches!(blk.op(*a).kind, OpKind::Const(_))),
        _ => false,
    });
    // The reset happens at the end of the first stage: the loop's writes of the reset
    // variables must all be done by then, or an older iteration would undo it.
    let ms = sched.loops.get(l)?;
    let reset: Vec<_> = blk
        .order
        .iter()
        .filter_map(|&o| match blk.op(o).kind {
            OpKind::WriteVar(v) => Some(v),
            _ => None,
        })
        .collect();
    let early = plan.loops[l]
        .ops
        .iter()
        .all(|&(b, o)| match k.block(b).op(o).kind {
            OpKind::WriteVar(v) if reset.contains(&v) => {
                ms.cycle.get(&(b, o)).copied().unwrap_or(u32::MAX) < ms.ii
            }
            _ => true,
        });
    (wi && simple && early).then_some((*l, *init))
}

/// Whether every object of the kernel is a `__private` or `__constant` table nothing
/// writes, and no `__local` argument: the same bytes for every work-item of every group, so the next group's
/// work-items may start before the last group's finish. (A `__local` array is the
/// group's; a written private array is the work-item's.)
fn read_only_objects(k: &Kernel) -> bool {
    let spaces = k
        .objects
        .iter()
        .all(|o| matches!(o.space, AddrSpace::Private | AddrSpace::Constant));
    let no_local_args = k
        .params
        .iter()
        .all(|p| !matches!(p.kind, ParamKind::LocalBuffer));
    spaces
        && no_local_args
        && k.blocks.iter().all(|b| {
            b.order.iter().all(|&o| match &b.op(o).kind {
                OpKind::Store { base, .. } | OpKind::Atomic { base, .. } => {
                    matches!(base, Some(Base::Param(_)))
                }
                kind @ OpKind::Builtin(_) => !kind.is_memory(),
                _ => true,
            })
        })
}

type Uses = Vec<(u32, BufferPaths)>;

/// Whether loop `s` can run as a pipeline; its plan and the element paths it uses.
fn check_loop(
    k: &Kernel,
    s: &LoopShape,
    sched: &LoopSchedules,
    units: &UnitSizes,
    max_elem_bytes: u32,
    memory: &MemoryPlan,
) -> Result<(PipeLoop, Uses), String> {
    let l = k.lp(s.id);
    let exit = match (l.kind, l.cond) {
        (LoopKind::While, Some(c)) => c,
        (LoopKind::DoWhile, _) => {
            return Err(
                "a do-while loop: its exit is known only at the end of an iteration \
                        (not pipelined yet)"
                    .into(),
            )
        }
        _ => {
            return Err("no exit test (the loop ends by break or return; not pipelined yet)".into())
        }
    };
    if !s.inner.is_empty() {
        return Err("holds a loop".into());
    }
    let Some(guards) = crate::analysis::loops::block_guards(k, s) else {
        return Err("its body leaves early (break, continue or return): not pipelined yet".into());
    };
    let mut ops = Vec::new();
    for ib in &s.blocks {
        for &o in &k.block(ib.block).order {
            ops.push((ib.block, o));
        }
    }
    // The exit test's block runs once more than the body: it must not write anything.
    let cb = k.block(exit.0);
    for &o in &cb.order {
        if matches!(cb.op(o).kind, OpKind::WriteVar(_)) || cb.op(o).kind.is_memory() {
            return Err("its exit test has side effects (not pipelined yet)".into());
        }
    }
    let mut uses: BTreeMap<u32, BufferPaths> = BTreeMap::new();
    for &(b, o) in &ops {
        let blk = k.block(b);
        let op = blk.op(o);
        let f64_operand = blk
            .operands(o)
            .iter()
            .any(|a| is_f64(blk.op(*a).ty.as_ref()));
        // Binary64 add, multiply, compare and conversions are pipelined units; the
        // divider is iterative and no built-in has a binary64 unit.
        if is_f64(op.ty.as_ref()) || f64_operand {
            match &op.kind {
                OpKind::Binary(crate::ir::BinOp::FDiv) => {
                    return Err("a double-precision division (ohls_dp_div takes one \
                                per 57 cycles)"
                        .into())
                }
                OpKind::Builtin(c) => {
                    return Err(format!(
                        "built-in `{}` on doubles has no pipelined unit yet",
                        c.name
                    ))
                }
                _ => {}
            }
        }
        let ok = match &op.kind {
            OpKind::Const(_)
            | OpKind::Param(_)
            | OpKind::ReadVar(_)
            | OpKind::WriteVar(_)
            | OpKind::PtrAdd
            | OpKind::PtrDiff
            | OpKind::Unary(_)
            | OpKind::Cmp(_)
            | OpKind::Select
            | OpKind::Bitcast
            | OpKind::Extract(_)
            | OpKind::Insert(_)
            | OpKind::Shuffle(_)
            | OpKind::Splat
            | OpKind::Build
            | OpKind::Conv(_)
            | OpKind::ObjectAddr(_) => true,
            OpKind::Binary(_) => true,
            // Built-ins the datapath builds as wires (bit patterns, integer functions,
            // float classification): no unit, so no latency to follow.
            OpKind::Builtin(call) => {
                let int = blk
                    .operands(o)
                    .first()
                    .and_then(|a| blk.op(*a).ty.as_ref())
                    .is_some_and(|t| t.is_int());
                let pointer = call.params.iter().any(|p| p.is_pointer());
                !pointer
                    && (RELATIONAL.contains(&call.name.as_str())
                        || FLOAT_WIRES.contains(&call.name.as_str())
                        || (int && INTEGER.contains(&call.name.as_str())))
            }
            OpKind::WorkItem(_) => blk
                .operands(o)
                .first()
                .is_none_or(|a| matches!(blk.op(*a).kind, OpKind::Const(_))),
            OpKind::Load { space, base, align } | OpKind::Store { space, base, align } => {
                let load = matches!(op.kind, OpKind::Load { .. });
                // A wide group: its issuer moves the whole group, the others ride along.
                let Some((bytes, align)) = access_size(k, memory, (b, o), *align) else {
                    continue;
                };
                let global = matches!(space, AddrSpace::Global | AddrSpace::Constant);
                // On-chip memory: a RAM word per access, at the RAM's fixed latency.
                if let Some(b) = base.filter(|b| memory.layout(*b).is_some()) {
                    on_chip_access(k, s, memory, b, bytes, load)?;
                    continue;
                }
                let Some(Base::Param(p)) = base.filter(|_| global) else {
                    return Err(format!(
                        "a {} access through a pointer whose memory is not known",
                        space.name()
                    ));
                };
                if !k.is_buffer(p) {
                    return Err("an access through a non-buffer parameter".into());
                }
                // Every pipelined access of a buffer in one direction goes through one
                // unit, as wide as the widest of them in any loop (`unit_sizes`). A store
                // of an odd size (`vstore3`) or narrower than the unit writes its own bytes
                // through the strobes; a narrower load asks for the unit's element holding
                // it (its address rounded down) and takes its bytes from the answer, so it
                // must not straddle two elements. The schedule gives a loop's accesses of
                // the unit distinct slots (one port per buffer) and one latency, so
                // responses come back in the order they are taken.
                let widest = if load { &units.load } else { &units.store };
                let unit_bytes = bytes
                    .next_power_of_two()
                    .max(widest.get(&p).copied().unwrap_or(0));
                if !unit_bytes.is_power_of_two() || unit_bytes > max_elem_bytes {
                    return Err(format!(
                        "a {bytes}-byte {} (the memory units take 1, 2, 4, ... up to \
                         {max_elem_bytes} bytes, a bus beat)",
                        if load { "load" } else { "access" }
                    ));
                }
                let narrow = unit_bytes != bytes;
                if load && narrow && (!bytes.is_power_of_two() || align < bytes) {
                    return Err(format!(
                        "a {bytes}-byte load aligned to {align} through buffer {}'s \
                         {unit_bytes}-byte memory unit (it must lie within one of its \
                         elements)",
                        k.params[p as usize].name
                    ));
                }
                // Below its size, the alignment the unit must handle (two-beat elements):
                // a narrower load's request is aligned to the unit's element, a narrower
                // store's is its own.
                let al = if load && narrow {
                    unit_bytes
                } else {
                    1 << align.clamp(1, unit_bytes).trailing_zeros()
                };
                let u = uses.entry(p).or_default();
                if load {
                    u.load_align = min_align(u.load_align, al);
                    u.pipe_load = Some(unit_bytes);
                } else {
                    // A group of members under their own guards writes each one's
                    // bytes where its guard holds.
                    let guarded = memory.wide.group((b, o)).is_some_and(|g| g.spans_blocks());
                    u.store_strb |= narrow || guarded;
                    u.store_align = min_align(u.store_align, al);
                    u.pipe_store = Some(unit_bytes);
                }
                true
            }
            _ => false,
        };
        if !ok {
            return Err(format!(
                "{} has no pipelined implementation yet",
                describe(&op.kind)
            ));
        }
    }
    // A guarded write before any other write of its variable keeps the register's value
    // where its guard fails: the previous iteration's last write must have landed.
    if let Some(ms) = sched.loops.get(&s.id) {
        let at = |x: &(BlockId, OpId)| ms.cycle.get(x).copied().unwrap_or(0);
        let mut first: BTreeMap<crate::ir::VarId, (BlockId, OpId)> = BTreeMap::new();
        let mut last = BTreeMap::new();
        for &(b, o) in &ops {
            if let OpKind::WriteVar(v) = k.block(b).op(o).kind {
                first.entry(v).or_insert((b, o));
                last.insert(v, (b, o));
            }
        }
        for (v, f) in &first {
            if guards.contains_key(&f.0) && at(&last[v]) > at(f) + ms.ii {
                return Err(format!(
                    "variable {} is written under an if {} cycles before its last write",
                    k.vars[v.0 as usize].name,
                    at(&last[v]) - at(f)
                ));
            }
        }
    }
    // One memory unit per buffer and direction takes one access per cycle: a board with
    // more ports per buffer can schedule two in one slot.
    if let Some(ms) = sched.loops.get(&s.id) {
        let mut seen = std::collections::HashSet::new();
        for &(b, o) in &ops {
            let (load, base) = match &k.block(b).op(o).kind {
                OpKind::Load { base, .. } => (true, base),
                OpKind::Store { base, .. } => (false, base),
                _ => continue,
            };
            if memory.wide.rides_along((b, o)) {
                continue;
            }
            let slot = ms.cycle.get(&(b, o)).copied().unwrap_or(0) % ms.ii.max(1);
            // An on-chip memory has a read port per copy, and a banked one a write lane
            // per bank (the schedule counts them).
            let lanes = base.and_then(|b| memory.layout(b)).map(|l| (load, l.banks));
            if matches!(lanes, Some((true, _))) || lanes.is_some_and(|(_, n)| n > 1) {
                continue;
            }
            if !seen.insert((*base, load, slot)) {
                return Err(format!(
                    "two {} of one buffer in the same cycle: its memory unit takes one per cycle",
                    if load { "loads" } else { "stores" }
                ));
            }
        }
    }
    // Stores before loads in memory order: a global load and store go through different
    // AXI units that do not order each other, so the load waits for the store's
    // acknowledgement (on-chip RAMs keep the schedule's order: their latency is fixed).
    let kind = |x: (BlockId, OpId)| &k.block(x.0).op(x.1).kind;
    let global = |x: (BlockId, OpId)| match kind(x) {
        OpKind::Load { base, .. } | OpKind::Store { base, .. } => {
            !base.is_some_and(|b| memory.layout(b).is_some())
        }
        _ => true,
    };
    // The load of iteration `i` waits for the acknowledgement of the store of iteration
    // `i - distance` (`ordered_loads`; 0: the same iteration), which needs that store
    // issued before the load.
    let mut ordered_loads: BTreeMap<(BlockId, OpId), Vec<OrderedAfter>> = BTreeMap::new();
    let ms = sched.loops.get(&s.id);
    for d in sched.mem_deps.get(&s.id).into_iter().flatten() {
        let store = matches!(kind(d.from), OpKind::Store { .. }) && global(d.from);
        let load = matches!(kind(d.to), OpKind::Load { .. }) && global(d.to);
        if !(store && load) {
            continue;
        }
        let at = |x: (BlockId, OpId)| ms.and_then(|m| m.cycle.get(&x).copied());
        let ahead = match (at(d.from), at(d.to), ms) {
            (Some(st), Some(ld), Some(m)) => ld + d.distance * m.ii > st,
            _ => false,
        };
        // A wide group's accesses go out with its issuer, at another cycle.
        let wide = memory.wide.group(d.from).is_some() || memory.wide.group(d.to).is_some();
        if !ahead || wide {
            let of = if d.distance == 0 {
                "the same iteration".to_string()
            } else {
                format!("the iteration {} before", d.distance)
            };
            let why = if wide {
                "one of them goes out in a wide access at another cycle, so the load \
                 cannot wait for the store"
            } else {
                "the schedule issues the load no later than the store, so it cannot wait \
                 for the store's acknowledgement"
            };
            return Err(format!(
                "a load may read what a store of {of} wrote, and {why}"
            ));
        }
        let waits = ordered_loads.entry(d.to).or_default();
        match waits.iter_mut().find(|w| w.store == d.from) {
            Some(w) => w.distance = w.distance.min(d.distance),
            None => waits.push(OrderedAfter {
                store: d.from,
                distance: d.distance,
            }),
        }
        if let OpKind::Store {
            base: Some(Base::Param(p)),
            ..
        } = kind(d.from)
        {
            uses.entry(*p).or_default().store_acked = true;
        }
    }
    // A buffer's load unit prefetches (STREAM) where the loop's only load of it walks
    // through memory one element (or wide group) per iteration; other patterns would
    // abandon streams whose prefetched beats fill the unit.
    let aff = crate::analysis::affine::AffineLoop::new(k, s, Some(&memory.ranges));
    let mut issuers: BTreeMap<u32, Vec<(BlockId, OpId)>> = BTreeMap::new();
    for &(b, o) in &ops {
        if let OpKind::Load {
            base: Some(Base::Param(p)),
            ..
        } = k.block(b).op(o).kind
        {
            if uses.get(&p).is_some_and(|u| u.pipe_load.is_some())
                && !memory.wide.rides_along((b, o))
            {
                issuers.entry(p).or_default().push((b, o));
            }
        }
    }
    for (p, is) in issuers {
        let u = uses.entry(p).or_default();
        // A walk one access (or wide group) at a time, whatever the unit's width: narrower
        // accesses share its beats.
        let stream = match is.as_slice() {
            [one] => {
                let own = match k.block(one.0).op(one.1).kind {
                    OpKind::Load { align, .. } => access_size(k, memory, *one, align),
                    _ => None,
                };
                !guards.contains_key(&one.0)
                    && own.is_some_and(|(bytes, _)| aff.stride(*one) == Some(bytes as i64))
            }
            _ => false,
        };
        // A load ordered after stores fetches afresh when it is asked: a stream's
        // prefetched beats could be older than the stores it waits for.
        let ordered = is.iter().any(|x| ordered_loads.contains_key(x));
        u.load_scattered |= !stream || ordered;
        u.load_fresh |= ordered;
    }
    Ok((
        PipeLoop {
            ops,
            exit,
            cross_group: None,
            guards,
            latency: BTreeMap::new(),
            overlap: Vec::new(),
            ordered_loads,
        },
        uses.into_iter().collect(),
    ))
}

/// The buffer pairs whose overlap would break loop `s`'s pipeline: one of them written,
/// the other accessed. The memory units of two buffers keep no order between each other,
/// so any such pair could reorder accesses to shared bytes. Work-items are unordered
/// with respect to global memory (OpenCL's memory model), so in a work-item loop only
/// the accesses of one iteration count, and a store computed from a load's value waits
/// for that load anyway.
fn overlap_pairs(k: &Kernel, s: &LoopShape, pl: &PipeLoop) -> Vec<(u32, u32)> {
    let ops = &pl.ops;
    // Only buffers the host allocates can overlap: each `__local` argument is its own RAM
    // in the core (and has no address registers to compare).
    let buffer = |p: u32| {
        matches!(
            k.params.get(p as usize).map(|x| &x.kind),
            Some(ParamKind::Buffer { .. })
        )
    };
    let access = |x: (BlockId, OpId)| match &k.block(x.0).op(x.1).kind {
        OpKind::Load {
            base: Some(Base::Param(p)),
            ..
        } if buffer(*p) => Some((*p, false)),
        OpKind::Store {
            base: Some(Base::Param(p)),
            ..
        } if buffer(*p) => Some((*p, true)),
        _ => None,
    };
    let accesses: Vec<(usize, u32, bool)> = ops
        .iter()
        .enumerate()
        .filter_map(|(i, &x)| access(x).map(|(p, st)| (i, p, st)))
        .collect();
    let mut pairs = std::collections::BTreeSet::new();
    for &(i, p, store) in &accesses {
        if !store {
            continue;
        }
        for &(j, q, other_store) in &accesses {
            if p == q {
                continue;
            }
            let ordered = s.work_item_dim.is_some()
                && !k.lp(s.id).hints.flattened
                && !other_store
                && j < i
                && feeds(k, pl, j, i);
            if !ordered {
                pairs.insert((p.min(q), p.max(q)));
            }
        }
    }
    pairs.into_iter().collect()
}

/// Whether op `ops[from]`'s value reaches op `ops[to]` (within one iteration: through
/// operands, and through unguarded variable writes between the two).
fn feeds(k: &Kernel, pl: &PipeLoop, from: usize, to: usize) -> bool {
    let ops = &pl.ops;
    let pos: std::collections::HashMap<(BlockId, OpId), usize> =
        ops.iter().enumerate().map(|(i, x)| (*x, i)).collect();
    let mut stack = vec![ops[to]];
    let mut seen = std::collections::HashSet::new();
    while let Some((b, o)) = stack.pop() {
        if !seen.insert((b, o)) {
            continue;
        }
        if (b, o) == ops[from] {
            return true;
        }
        let blk = k.block(b);
        if let OpKind::ReadVar(v) = blk.op(o).kind {
            // The iteration's latest write of `v` before this read, if any.
            let here = pos.get(&(b, o)).copied().unwrap_or(0);
            let w = ops[..here].iter().rev().find(
                |&&(wb, wo)| matches!(k.block(wb).op(wo).kind, OpKind::WriteVar(x) if x == v),
            );
            // A guarded write may not happen: the value may be older.
            if let Some(&w) = w.filter(|w| !pl.guards.contains_key(&w.0)) {
                stack.push(w);
            }
        }
        for a in blk.operands(o) {
            stack.push((b, a));
        }
    }
    false
}

/// Built-ins `datapath::builtins` builds as combinational expressions.
const RELATIONAL: [&str; 18] = [
    "any",
    "all",
    "isfinite",
    "isinf",
    "isnan",
    "isnormal",
    "signbit",
    "isequal",
    "isnotequal",
    "isless",
    "isgreater",
    "islessequal",
    "isgreaterequal",
    "islessgreater",
    "isordered",
    "isunordered",
    "bitselect",
    "select",
];
/// Float built-ins: wires (`datapath::math_exact` builds the rounding functions and
/// `clamp` as bit manipulation), or one pipelined unit (`sqrt`, `fma` of `float`).
const FLOAT_WIRES: [&str; 12] = [
    "fabs", "copysign", "fmin", "fmax", "sqrt", "fma", "floor", "ceil", "trunc", "round", "rint",
    "clamp",
];
const INTEGER: [&str; 19] = [
    "abs", "clz", "ctz", "popcount", "abs_diff", "add_sat", "sub_sat", "hadd", "rhadd", "max",
    "min", "mul_hi", "rotate", "upsample", "mul24", "clamp", "mad_hi", "mad_sat", "mad24",
];

fn is_f64(t: Option<&Ty>) -> bool {
    t.is_some_and(|t| t.elem() == &Ty::F64)
}

pub use crate::analysis::loops::Guard;

fn describe(k: &OpKind) -> String {
    match k {
        OpKind::Builtin(c) => format!("built-in `{}`", c.name),
        OpKind::Conv(_) => "a conversion".into(),
        OpKind::Atomic { .. } => "an atomic".into(),
        OpKind::Barrier { .. } => "a barrier".into(),
        OpKind::Binary(b) => format!("{b:?}"),
        other => format!("{other:?}")
            .split(['(', ' ', '{'])
            .next()
            .unwrap_or("an op")
            .to_string(),
    }
}
