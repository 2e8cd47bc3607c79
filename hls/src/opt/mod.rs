//! The `opt` stage: equality saturation over the pure integer datapath of each block
//! (the `egg` crate), extraction priced by the board's operator library, and the chosen
//! expressions spliced back. Runs on the group-form kernel (after
//! `workitems::to_group_form` and the `loops` stage, before scheduling); `ir::verify::verify_kernel` holds
//! after it. A block is replaced only when the board prices the result lower (or equal
//! with fewer ops), so the stage never makes a kernel costlier by its own measure.
//!
//! Before the e-graphs, integer built-ins that are plain arithmetic become it
//! (`builtins.rs`), and each block's copies of one value are merged: variable reads
//! after a write in the block (`forward.rs`), equal pure ops and loads of object places
//! the block already stored or read (`cse.rs`); then dead writes and ops go (`dead.rs`).
//! The e-graph then sees whole expressions, and extraction (`extract.rs`) prices the
//! shared parts once.
//!
//! Floating point is left as written except where the result is the same bits: a
//! division by a constant whose reciprocal is an exact power of two is a multiply
//! (`reciprocal.rs`). Rounding the reciprocal of any other constant needs
//! `-cl-unsafe-math-optimizations` or `-cl-fast-relaxed-math` (`fast_math.rs`); no other
//! float rule of this stage exists. The loop-level float rewrites the options allow run
//! earlier, on the lowered kernel (`compile`'s `relax` stage, [`relax`], and the
//! interpreter alike): a float accumulator becomes interleaved partial sums
//! (`reassociate.rs`), a multiply-add on a loop recurrence an fma (`contract.rs`).
//! Bit-width narrowing: the range analysis (`ranges.rs`, with the contents of kernel
//! objects, `objects.rs`) bounds every integer op of the kernel, the e-class analysis
//! carries the bounds, and the narrowing rules build an op whose values fit fewer bits
//! at that width (`rules/narrow.rs`). After extraction, a truncation goes below the
//! arithmetic only it reads (`truncate.rs`), so equal computations of different blocks
//! are spelled alike and synthesis shares them. Last, a compare with a constant that a
//! bit test decides (`x > 0`, `x < 16`) is built as that test (`bittest.rs`): synthesis
//! makes every compare a carry chain.

pub mod bittest;
pub mod bounds;
pub mod builtins;
pub mod contract;
pub mod cost;
pub mod cse;
pub mod dead;
pub mod explain;
pub mod extract;
pub mod facts;
pub mod fast_math;
pub mod forward;
pub mod lang;
pub mod live;
pub mod objects;
pub mod ranges;
pub mod readdress;
pub mod reassociate;
pub mod reciprocal;
pub mod region;
pub mod rules;
pub mod splice;
pub mod truncate;

#[cfg(test)]
mod examples;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use egg::{Runner, StopReason};

use crate::board::Board;
use crate::diag::Diagnostic;
use crate::ir::{BlockId, Kernel, Node as CNode, OpId, Region as CRegion};
use crate::workitems::GroupForm;
use cost::{Price, Pricer};
pub use ranges::Launch;

/// Bounds on the saturation of one block.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub nodes: usize,
    pub iterations: usize,
    pub time: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            nodes: 10_000,
            iterations: 12,
            time: Duration::from_millis(40),
        }
    }
}

/// How the stage runs (the `build` and `run` options that reach it).
#[derive(Clone, Debug)]
pub struct Options {
    /// `--no-opt` turns the stage off: the group form goes on as it is.
    pub enabled: bool,
    pub limits: Limits,
    /// The floating-point build options (`-cl-fast-relaxed-math`...): with
    /// `-cl-unsafe-math-optimizations` (or the former) a division by any constant is
    /// a multiply by its rounded reciprocal.
    pub math: fast_math::MathFlags,
    /// `--latency-weight`: logic units (ALMs or LUTs) one cycle on a block's critical
    /// path is worth when choosing among equal computations; `None`: the board's 32-bit
    /// adder.
    pub latency_weight: Option<f64>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            enabled: true,
            limits: Limits::default(),
            math: fast_math::MathFlags::default(),
            latency_weight: None,
        }
    }
}

/// What the stage did to one kernel.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct OptReport {
    pub kernel: String,
    /// The stage was turned off (`--no-opt`): nothing below was computed.
    pub disabled: bool,
    /// Logic units a cycle on a block's critical path was worth in the prices
    /// (`--latency-weight` or the board's default).
    pub latency_weight: f64,
    /// Ops that were the value of an earlier op of their block (variable reads after
    /// writes, `forward.rs`; common subexpressions and loads of stored values, `cse.rs`),
    /// and dead ops removed (`dead.rs`).
    pub forwarded: usize,
    pub removed: usize,
    /// Truncations pushed below the arithmetic only they read (`truncate.rs`).
    pub truncations: usize,
    /// Compares with a constant lowered to bit tests (`bittest.rs`).
    pub bit_tests: usize,
    /// Late accesses given their own copy of an earlier access's address
    /// (`readdress.rs`).
    pub readdressed: usize,
    /// Single-precision divisions by a constant made multiplies by its reciprocal
    /// (`reciprocal.rs`), and where they are.
    pub reciprocals: usize,
    #[serde(skip)]
    pub reciprocal_spans: Vec<crate::diag::Span>,
    /// Blocks with a pure region, and those replaced by a cheaper one.
    pub regions: usize,
    pub replaced: usize,
    /// The whole kernel priced before and after.
    pub before: Price,
    pub after: Price,
    /// Why saturation stopped, per block: "saturated", "iteration limit", ...
    pub stops: BTreeMap<String, usize>,
    /// How often each rule applied in the e-graphs (whether or not extraction kept
    /// its result).
    pub fired: BTreeMap<String, usize>,
    /// Per replaced block, the rules that applied in its e-graph.
    pub block_rules: Vec<explain::BlockRules>,
    /// Per replaced block, the roots whose expression changed (`--explain-rewrites`).
    pub rewrites: Vec<explain::Rewrite>,
    pub millis: f64,
    /// Of `millis`: equality saturation, and extraction (`extract.rs`).
    pub saturate_ms: f64,
    pub extract_ms: f64,
}

/// Optimises every block of a kernel for `board`, knowing nothing of its launch beyond
/// what the core's size registers hold.
pub fn run(kernel: &mut Kernel, board: &Board) -> Result<OptReport, Diagnostic> {
    let launch = Launch::unknown(kernel);
    run_with(kernel, &launch, board, &Options::default())
}

/// The rewrites by which the floating-point build options change results, applied to the
/// lowered kernel when the stage is on; returns how many fired. The interpreter runs them
/// so that `run --engine interp` with those options computes the same bits as the
/// generated hardware: the loop rewrites as `compile`'s `relax` stage makes them
/// ([`relax`]), and the rounded reciprocals of constant divisors (op by op, so the opt
/// stage making them on the group form changes the same divisions).
pub fn relax_floats(kernel: &mut Kernel, opts: &Options) -> usize {
    if !opts.enabled {
        return 0;
    }
    let r = relax_in_place(kernel, opts);
    r.interleaved.len()
        + r.contracted.len()
        + kernel
            .blocks
            .iter_mut()
            .map(|b| reciprocal::block(b, &opts.math).len())
            .sum::<usize>()
}

/// What the `relax` stage rewrote.
#[derive(Clone, Debug, Default)]
pub struct Relaxed {
    /// Float accumulators split into partial sums (`reassociate.rs`).
    pub interleaved: Vec<reassociate::Interleaved>,
    /// Multiply-adds on loop recurrences fused into fma (`contract.rs`), where the add is.
    pub contracted: Vec<crate::diag::Span>,
}

/// The relax rewrites on `k` (its callers have checked the stage is on).
fn relax_in_place(k: &mut Kernel, opts: &Options) -> Relaxed {
    let flags = opts.math.effective();
    let mut r = Relaxed::default();
    // Sums first: an accumulator split into partials no longer waits on itself, so the
    // fma would only cost area there.
    if flags.unsafe_math {
        r.interleaved = reassociate::kernel(k);
    }
    if flags.mad_enable {
        r.contracted = contract::kernel(k);
    }
    r
}

/// The `relax` stage: the lowered kernel with the loop-level float rewrites its build
/// options allow (`reassociate.rs` under `-cl-unsafe-math-optimizations`, `contract.rs`
/// under `-cl-mad-enable`; `-cl-fast-relaxed-math` implies both), and what they did;
/// `None` when nothing changed. `compile` runs it before the math library, as the
/// interpreter does in [`relax_floats`], so both compute the same bits.
pub fn relax(kernel: &Kernel, opts: &Options) -> Option<(Kernel, Relaxed)> {
    let flags = opts.math.effective();
    if !opts.enabled || !(flags.unsafe_math || flags.mad_enable) {
        return None;
    }
    let mut k = kernel.clone();
    let r = relax_in_place(&mut k, opts);
    (!r.interleaved.is_empty() || !r.contracted.is_empty()).then_some((k, r))
}

/// Optimises every block of a group-form kernel for `board`, with the launch facts the
/// group form records (work-group sizes) for bit-width narrowing; with the stage turned
/// off, a report that says so.
pub fn run_group(
    group: &mut GroupForm,
    board: &Board,
    opts: &Options,
) -> Result<OptReport, Diagnostic> {
    if !opts.enabled {
        let price = Pricer::weighing(board, opts.latency_weight).kernel(&group.kernel);
        return Ok(OptReport {
            kernel: group.kernel.name.clone(),
            disabled: true,
            before: price,
            after: price,
            ..OptReport::default()
        });
    }
    let launch = Launch::of(group);
    run_with(&mut group.kernel, &launch, board, opts)
}

pub fn run_with(
    kernel: &mut Kernel,
    launch: &Launch,
    board: &Board,
    opts: &Options,
) -> Result<OptReport, Diagnostic> {
    let start = Instant::now();
    let limits = opts.limits;
    let pricer = Pricer::weighing(board, opts.latency_weight);
    let mut report = OptReport {
        kernel: kernel.name.clone(),
        latency_weight: pricer.w.latency,
        before: pricer.kernel(kernel),
        ..OptReport::default()
    };
    for i in 0..kernel.blocks.len() {
        let map = reciprocal::block(&mut kernel.blocks[i], &opts.math);
        report.reciprocals += map.len();
        let mut spans: Vec<_> = map.values().map(|m| kernel.blocks[i].op(*m).span).collect();
        spans.sort_by_key(|s| (s.file, s.lo));
        report.reciprocal_spans.extend(spans);
        for pass in [builtins::block, forward::block, cse::block] {
            let map = pass(&mut kernel.blocks[i]);
            report.forwarded += map.len();
            remap_conditions(kernel, BlockId(i as u32), &map);
        }
    }
    let cond_set: HashSet<(BlockId, OpId)> = conditions(kernel).into_iter().collect();
    report.removed = dead::kernel(kernel, &cond_set);
    let ranges = ranges::analyze(kernel, launch);
    let rewrites = rules::rewrites();
    let mut conds: HashMap<BlockId, Vec<OpId>> = HashMap::new();
    for (b, o) in conditions(kernel) {
        conds.entry(b).or_default().push(o);
    }
    for i in 0..kernel.blocks.len() {
        let bid = BlockId(i as u32);
        let old = &kernel.blocks[i];
        let before = pricer.block(old);
        let cs = conds.get(&bid).cloned().unwrap_or_default();
        let cset: HashSet<OpId> = cs.iter().copied().collect();
        let hi = |o: OpId| ranges.op(bid, o);
        let Some(region) = region::build(old, &cset, &hi) else {
            continue;
        };
        report.regions += 1;
        let mut block_fired: BTreeMap<String, usize> = BTreeMap::new();
        let t0 = Instant::now();
        let mut runner = Runner::default()
            .with_egraph(region.graph.clone())
            .with_node_limit(limits.nodes)
            .with_iter_limit(limits.iterations)
            .with_time_limit(limits.time)
            .run(&rewrites);
        *report
            .stops
            .entry(stop_name(&runner.stop_reason))
            .or_default() += 1;
        for it in &runner.iterations {
            for (name, n) in &it.applied {
                *report.fired.entry(name.to_string()).or_default() += n;
                *block_fired.entry(name.to_string()).or_default() += n;
            }
        }
        let g = std::mem::take(&mut runner.egraph);
        let roots: Vec<egg::Id> = region.roots.iter().map(|o| region.class_of[o]).collect();
        let t1 = Instant::now();
        let choice = extract::Choice::new(&g, &pricer, &roots);
        report.saturate_ms += (t1 - t0).as_secs_f64() * 1e3;
        report.extract_ms += t1.elapsed().as_secs_f64() * 1e3;
        // The block's computation and the chosen one, priced alike in the e-graph (which
        // knows the bounds of values, and so the multipliers synthesis builds).
        let was = extract::original_price(&g, &pricer, &region);
        if let Some((new, map)) = splice::splice(old, &region, &g, &choice, &cs) {
            let ops = pricer.block(&new).ops;
            let cheaper =
                choice.price < was - 1e-6 || (choice.price <= was + 1e-6 && ops < before.ops);
            if cheaper {
                let changes = explain::block(bid, old, &region, &g, &choice, &pricer);
                report.rewrites.extend(changes);
                report.block_rules.push(explain::BlockRules {
                    block: bid.0,
                    fired: block_fired,
                });
                kernel.blocks[i] = new;
                remap_conditions(kernel, bid, &map);
                report.replaced += 1;
            }
        }
    }
    // One narrow form for each truncated computation, whichever form extraction kept.
    let keep: HashSet<(BlockId, OpId)> = conditions(kernel).into_iter().collect();
    report.truncations = each_block(kernel, &keep, truncate::block);
    // Compares a bit test decides, but not loop exit tests on a variable (the analyses
    // after this stage read counters from them).
    report.bit_tests = each_block(kernel, &exit_tests(kernel), bittest::block);
    // Last: the e-graphs and CSE would share the copies again.
    report.readdressed = kernel.blocks.iter_mut().map(readdress::block).sum();
    report.after = pricer.kernel(kernel);
    crate::ir::verify::verify_kernel(kernel).map_err(|e| {
        Diagnostic::error(
            kernel.span,
            format!(
                "internal error: the opt stage broke kernel {}: {}",
                kernel.name,
                e.join("; ")
            ),
        )
    })?;
    report.millis = start.elapsed().as_secs_f64() * 1e3;
    Ok(report)
}

/// Runs a rewrite of single ops on every block (`keep`: ops it must leave, by block),
/// points the control structure at the replacements and removes what is left unread;
/// the number replaced.
fn each_block(
    kernel: &mut Kernel,
    keep: &HashSet<(BlockId, OpId)>,
    rewrite: fn(&mut crate::ir::Block, &HashSet<OpId>) -> HashMap<OpId, OpId>,
) -> usize {
    let mut replaced = 0;
    for i in 0..kernel.blocks.len() {
        let bid = BlockId(i as u32);
        let here: HashSet<OpId> = keep
            .iter()
            .filter(|(b, _)| *b == bid)
            .map(|(_, o)| *o)
            .collect();
        let map = rewrite(&mut kernel.blocks[i], &here);
        replaced += map.len();
        remap_conditions(kernel, bid, &map);
    }
    if replaced > 0 {
        let cond_set: HashSet<(BlockId, OpId)> = conditions(kernel).into_iter().collect();
        dead::kernel(kernel, &cond_set);
    }
    replaced
}

/// The loop exit tests that compare a variable's read itself (`ranges::counter` reads
/// the loop's counter from them): each loop's condition and, through the `and`s of a
/// conjunction (an unrolled loop's `i < n && n - i > 3`), its parts.
fn exit_tests(k: &Kernel) -> HashSet<(BlockId, OpId)> {
    use crate::ir::{BinOp, OpKind};
    let mut out = HashSet::new();
    for (b, o) in k.loops.iter().filter_map(|l| l.cond) {
        let blk = k.block(b);
        let mut todo = vec![o];
        while let Some(o) = todo.pop() {
            match blk.op(o).kind {
                OpKind::Binary(BinOp::And) => todo.extend(blk.operands(o)),
                OpKind::Cmp(_) => {
                    let reads_var = blk
                        .operands(o)
                        .iter()
                        .any(|a| matches!(blk.op(*a).kind, OpKind::ReadVar(_)));
                    if reads_var {
                        out.insert((b, o));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

fn stop_name(r: &Option<StopReason>) -> String {
    match r {
        Some(StopReason::Saturated) => "saturated",
        Some(StopReason::IterationLimit(_)) => "iteration limit",
        Some(StopReason::NodeLimit(_)) => "node limit",
        Some(StopReason::TimeLimit(_)) => "time limit",
        Some(StopReason::Other(_)) | None => "other",
    }
    .to_string()
}

/// Every (block, op) the control structure reads as a condition.
fn conditions(k: &Kernel) -> Vec<(BlockId, OpId)> {
    fn walk(r: &CRegion, out: &mut Vec<(BlockId, OpId)>) {
        for n in &r.0 {
            if let CNode::If {
                cond, then, els, ..
            } = n
            {
                out.push(*cond);
                walk(then, out);
                walk(els, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(&k.body, &mut out);
    for l in &k.loops {
        out.extend(l.cond);
        walk(&l.body, &mut out);
        walk(&l.latch, &mut out);
    }
    out
}

fn remap_conditions(k: &mut Kernel, b: BlockId, map: &HashMap<OpId, OpId>) {
    fn fix(c: &mut (BlockId, OpId), b: BlockId, map: &HashMap<OpId, OpId>) {
        if c.0 == b {
            if let Some(n) = map.get(&c.1) {
                c.1 = *n;
            }
        }
    }
    fn walk(r: &mut CRegion, b: BlockId, map: &HashMap<OpId, OpId>) {
        for n in &mut r.0 {
            if let CNode::If {
                cond, then, els, ..
            } = n
            {
                fix(cond, b, map);
                walk(then, b, map);
                walk(els, b, map);
            }
        }
    }
    walk(&mut k.body, b, map);
    for l in &mut k.loops {
        if let Some(c) = &mut l.cond {
            fix(c, b, map);
        }
        walk(&mut l.body, b, map);
        walk(&mut l.latch, b, map);
    }
}
