//! The `loops` stage: unrolling from the loops' `unroll` hints (and the tool's own choice
//! on small loops over private arrays), `__constant` table loads at constant addresses
//! folded, private arrays with constant indices replaced by registers, and the blocks
//! this made cleaned up (joined, variables forwarded, dead code dropped).
//!
//! It runs on the group form right after `workitems` and before `opt`: the unrolled
//! copies carry `k + 1`, `(k + 1) * 4`... that `opt`'s constant folding and narrowing
//! then clean, and the straight-line blocks unrolling makes are what `opt` and the
//! scheduler work best on. (DESIGN.md lists `loops` after `opt`; running it first gives
//! `opt` the unrolled code to fold instead of the rolled loop.)
//!
//! Passes, in order: `narrow` (a loop test on a promoted counter, `(int)i < 1000`, at
//! the counter's width), `unroll` (with `merge` joining the straight-line runs it leaves),
//! `tables`, `registers`, `rotate` (a do-while loop's test to the start of its
//! iteration), `exits` (`break` and `continue` as flags, so the loop can be pipelined),
//! `flatten` (a work-item loop with the loop it holds), `split` (an under-aligned global
//! load in a pipeline candidate into aligned pieces), `merge` (every straight-line run
//! of blocks joined, a run before an `if` with its condition's block),
//! `forward` (on the blocks the others made), `compact`.

pub mod compact;
pub mod copy;
pub mod counted;
pub mod exits;
pub mod flatten;
pub mod fold;
pub mod forward;
pub mod merge;
pub mod narrow;
pub mod registers;
pub mod rotate;
pub mod split;
pub mod tables;
pub mod unroll;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use crate::diag::{Diagnostics, SourceMap};
use crate::ir::{BlockId, Kernel, LoopId, Node, OpId, Region};

/// The stage's limits.
#[derive(Clone, Debug)]
pub struct Options {
    /// An unrolled loop may hold at most this many ops (more is an error at the loop).
    pub max_ops: usize,
    /// Trip counts are counted up to this many iterations (more is "too many to unroll").
    pub trip_cap: u64,
    /// The tool's own full unrolling: at most this many iterations and ops.
    pub auto_trips: u64,
    pub auto_ops: usize,
    /// Private arrays larger than this (bytes, elements) stay in memory.
    pub max_register_bytes: u64,
    pub max_register_slots: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_ops: 8192,
            trip_cap: 1 << 20,
            auto_trips: 64,
            auto_ops: 1024,
            max_register_bytes: 1024,
            max_register_slots: 128,
        }
    }
}

/// What unrolling did to one source loop (with an unroll hint, or unrolled by the tool).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct UnrollDecision {
    /// `file:line:col` of the loop.
    pub location: String,
    /// The factor the source asked for: a number, "full", or "none" (the tool's choice).
    pub asked: String,
    /// How the source spelled it (`opencl_unroll_hint`, `#pragma unroll`...).
    pub spelling: Option<String>,
    /// Copies of the body made per iteration of what remains (the trip count when fully
    /// unrolled; 1 when not unrolled).
    pub applied: u64,
    /// "full", "main loop + remainder loop", "main loop + straight-line remainder",
    /// "copies with exit tests" or "not unrolled".
    pub how: String,
    /// Why the result differs from what was asked, or why the tool chose to unroll.
    pub reason: Option<String>,
    /// Ops of the loop before and of what replaced it after (before clean-up and `opt`).
    pub ops_before: usize,
    pub ops_after: usize,
}

/// A private array now kept in registers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RegisterArray {
    pub name: String,
    pub location: String,
    pub bytes: u64,
    /// Variables made (one per accessed element).
    pub registers: usize,
    pub types: String,
}

/// A private array that stays in memory, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeptArray {
    pub name: String,
    pub location: String,
    pub reason: String,
}

/// A `__constant` table whose loads at constant addresses became constants.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FoldedTable {
    pub name: String,
    pub location: String,
    pub loads_folded: usize,
    pub loads_kept: usize,
}

/// How a loop of the result relates to the iterations of its source loop, for trip
/// counts in the loop analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TripShare {
    /// As many as the source loop.
    All,
    /// `n / f`: a main loop of an unrolling by `f`.
    Div(u64),
    /// `n % f`: its remainder loop.
    Rem(u64),
    /// `ceil(n / f)`: copies behind exit tests.
    CeilDiv(u64),
}

impl TripShare {
    pub fn of(self, n: u64) -> u64 {
        match self {
            TripShare::All => n,
            TripShare::Div(f) => n / f.max(1),
            TripShare::Rem(f) => n % f.max(1),
            TripShare::CeilDiv(f) => n.div_ceil(f.max(1)),
        }
    }
}

/// What unrolling made of one loop of the result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoopNote {
    /// The source's unroll hint ("4", "full", "1").
    pub asked: Option<String>,
    /// Copies of the source body per iteration of this loop.
    pub applied: u64,
    pub note: String,
    pub share: TripShare,
}

/// What the stage did to one kernel.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LoopsReport {
    pub unrolled: Vec<UnrollDecision>,
    pub registers: Vec<RegisterArray>,
    pub kept_in_memory: Vec<KeptArray>,
    pub folded_tables: Vec<FoldedTable>,
    /// Under-aligned global loads of pipeline candidates split into aligned pieces.
    pub split_loads: usize,
    /// Per loop of the result (its id in the group form), what unrolling made of it.
    #[serde(skip)]
    pub loops: BTreeMap<u32, LoopNote>,
}

impl LoopsReport {
    pub fn note(&self, id: LoopId) -> Option<&LoopNote> {
        self.loops.get(&id.0)
    }
}

/// Runs the stage on a group-form kernel. Errors (an unrolling over the size limit) are
/// diagnostics at the loops, all of them.
pub fn run(k: &mut Kernel, sm: &SourceMap, opts: &Options) -> Result<LoopsReport, Diagnostics> {
    narrow::run(k);
    let mut u = unroll::Unroller::new(k, opts, sm);
    let body = std::mem::take(&mut k.body);
    k.body = u.region(k, body);
    if !u.errors.is_empty() {
        let mut ds = Diagnostics::default();
        for e in u.errors {
            ds.push(e);
        }
        return Err(ds);
    }
    let mut made = std::mem::take(&mut u.made);
    let mut report = LoopsReport {
        unrolled: u.decisions,
        ..LoopsReport::default()
    };
    let notes = u.notes;
    report.folded_tables = tables::run(k, sm, &mut made);
    let (regs, kept) = registers::run(k, sm, opts, &mut made);
    report.registers = regs;
    report.kept_in_memory = kept;
    let rotated = rotate::run(k);
    let flagged = exits::run(k) + rotated;
    let flattened = flatten::run(k);
    report.split_loads = split::run(k);
    let joined = merge::join_all(k, &mut made);
    let unrolled = report.unrolled.iter().any(|d| d.how != "not unrolled");
    if made.is_empty() && !unrolled && flattened == 0 && flagged == 0 && joined == 0 {
        report.loops = notes.into_iter().map(|(l, n)| (l.0, n)).collect();
        return Ok(report);
    }
    // Forwarding drops reads, which can leave more writes unread: a few rounds.
    for _ in 0..4 {
        if !forward::clean(k, &made) {
            break;
        }
    }
    let renumbered = compact::compact(k);
    report.loops = notes
        .into_iter()
        .filter_map(|(l, n)| Some((renumbered.get(&l)?.0, n)))
        .collect();
    Ok(report)
}

/// The blocks the kernel places (conditions included).
pub fn placed(k: &Kernel) -> BTreeSet<BlockId> {
    let mut v = Vec::new();
    crate::analysis::loops::all_blocks(k, &k.body, &mut v);
    v.into_iter().collect()
}

/// Every (block, op) the control structure tests.
pub fn conditions(k: &Kernel) -> Vec<(BlockId, OpId)> {
    fn walk(k: &Kernel, r: &Region, out: &mut Vec<(BlockId, OpId)>) {
        for n in &r.0 {
            match n {
                Node::If {
                    cond, then, els, ..
                } => {
                    out.push(*cond);
                    walk(k, then, out);
                    walk(k, els, out);
                }
                Node::Loop(id) => {
                    let l = k.lp(*id);
                    out.extend(l.cond);
                    walk(k, &l.body, out);
                    walk(k, &l.latch, out);
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(k, &k.body, &mut out);
    out
}

/// Points the conditions tested in block `b` at their ops after `b` was rebuilt.
pub fn remap_conditions(k: &mut Kernel, b: BlockId, map: &HashMap<OpId, OpId>) {
    fn fix(c: &mut (BlockId, OpId), b: BlockId, map: &HashMap<OpId, OpId>) {
        if c.0 == b {
            if let Some(n) = map.get(&c.1) {
                c.1 = *n;
            }
        }
    }
    fn walk(r: &mut Region, b: BlockId, map: &HashMap<OpId, OpId>) {
        for n in &mut r.0 {
            if let Node::If {
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

#[cfg(test)]
mod tests;
