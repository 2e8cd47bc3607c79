//! The ideal cycle count of a launch: what a core that pipelines every innermost loop at
//! its minimum II would need, against which the simulated cycles are compared.
//!
//! Definition (over the group form, see [`DEFINITION`]):
//! - an innermost loop (no loop inside) with N iterations: `N x II + depth`, or where its
//!   iterations move more global memory than the board's port carries in II cycles,
//!   `N x bytes / port bytes per cycle + depth` (bound by bandwidth);
//! - a loop holding loops runs its iterations one after another:
//!   `N x (depth of its own blocks + sum of the ideals of the loops inside it)`;
//! - a work-item loop nest (z, y, x) counts as one loop over the group's work-items
//!   (N = the product), with the innermost loop's II and depth;
//! - a kernel without barriers counts the work-items of every group as one loop (groups
//!   follow each other through the same pipeline): N = all work-items of the launch;
//!   with barriers, each group runs the group body: `groups x ideal(body)`;
//! - straight-line blocks outside loops count their schedule length; an `if`, its
//!   condition plus the longer arm.
//!
//! Summed over the launch, an innermost loop entered E times for T iterations in all
//! costs `T x II + E x depth`. Trip counts come from constants and the launch; a loop
//! with the interpreter's counts of E and T (`LaunchValues::measured`; the benchmark
//! gives them) every loop uses them, so a loop whose count depends on data, or inside a
//! branch few work-items take, is counted for what really ran.
//!
//! Loops are counted as the `loops` stage left them: a main loop of an unrolling by F
//! runs N / F iterations of F copies, its remainder loop N % F, and a fully unrolled
//! loop is straight-line code of its enclosing block.

use crate::board::Board;
use crate::diag::SourceMap;
use crate::ir::{LoopId, LoopKind, Node, Region};

use super::{Analysis, LaunchValues, LoopReport, Parts};

/// The definition in one line, for tables.
pub const DEFINITION: &str = "ideal = sum over the loop nest: innermost loops \
max(N x minII, N x bytes / port bytes per cycle) + depth, outer loops N x (own depth + inner ideals); the work-item loops of all groups form \
one loop of all work-items (groups x body with barriers); blocks outside loops their \
schedule length, ifs the longer arm; data-dependent loops with the interpreter's counts: \
iterations x minII + entries x depth";

/// The ideal of one launch, or why it is unknown.
#[derive(Clone, Debug)]
pub struct Ideal {
    pub cycles: Result<u64, String>,
    /// The work-item loops (x, innermost of their nest), one per barrier-free region.
    pub work_item_loops: Vec<LoopReport>,
    /// Every loop, as analysed for this launch.
    pub loops: Vec<LoopReport>,
    /// The same loop nest costed as today's generator runs it: groups one after another,
    /// every loop iteration its FSM cycles (see `LoopReport::fsm_cycles_per_iteration`).
    pub fsm_estimate: Result<u64, String>,
}

/// What a loop nest is costed for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Ideal,
    Fsm,
}

/// The ideal cycles of a compiled kernel for a launch on `board`.
pub fn ideal_cycles(
    p: &Parts,
    sm: &SourceMap,
    board: &Board,
    env: &LaunchValues,
) -> Result<Ideal, String> {
    let kernel = p.kernel;
    let a = Analysis::new(p, sm, board, env)?;
    let (Some(global), Some(local)) = (a.env.global, a.env.local) else {
        return Err("the ideal needs the launch's global and local sizes".into());
    };
    let groups: u64 = (0..3)
        .map(|d| global[d].checked_div(local[d]).unwrap_or(0))
        .product();
    let items: u64 = local.iter().product();
    let barrier = kernel.has_barrier();
    let port_bytes = (crate::project::shell_config_for(board).data_width / 8) as u64;
    let launch = Launch {
        groups,
        all: items.saturating_mul(groups),
    };
    let ideal = Nest {
        a: &a,
        m: Mode::Ideal,
        per_group: barrier,
        launch,
        port_bytes,
    };
    let cycles = if barrier {
        ideal
            .region(&a.group.body, items, 1)
            .map(|c| c.saturating_mul(groups))
    } else {
        ideal.region(&a.group.body, launch.all, 1)
    };
    let fsm = Nest {
        a: &a,
        m: Mode::Fsm,
        per_group: true,
        launch,
        port_bytes,
    };
    let fsm_estimate = fsm
        .region(&a.group.body, items, 1)
        .map(|c| c.saturating_mul(groups));
    let work_item_loops = a
        .reports
        .iter()
        .filter(|r| r.work_item_dim == Some(0))
        .cloned()
        .collect();
    Ok(Ideal {
        cycles,
        work_item_loops,
        loops: a.reports.clone(),
        fsm_estimate,
    })
}

#[derive(Clone, Copy)]
struct Launch {
    groups: u64,
    /// Work-items of the launch.
    all: u64,
}

/// One costing of the loop nest: every function returns the *total* cycles of a piece
/// entered `entries` times.
struct Nest<'a> {
    a: &'a Analysis<'a>,
    m: Mode,
    /// The body is costed for one group (and multiplied by the groups after).
    per_group: bool,
    launch: Launch,
    /// Bytes the board's global memory port moves per cycle.
    port_bytes: u64,
}

impl Nest<'_> {
    fn block(&self, b: crate::ir::BlockId) -> u64 {
        let c = self.a.costs.block(b);
        match self.m {
            Mode::Ideal => c.depth,
            Mode::Fsm => c.fsm_cycles,
        }
    }

    /// `items`: the work-items a work-item loop nest runs over.
    fn region(&self, r: &Region, items: u64, entries: u64) -> Result<u64, String> {
        let (blocks, loops) = self.parts(r, items, entries)?;
        Ok(blocks.saturating_add(loops))
    }

    /// A region's cost as (straight-line blocks, loops). An `if` costs its condition
    /// and the longer arm's blocks; its arms' loops: with the interpreter's counts each
    /// loop is counted for the work-items that ran it, so both arms add up; without,
    /// every entry is assumed to take the costlier arm.
    fn parts(&self, r: &Region, items: u64, entries: u64) -> Result<(u64, u64), String> {
        let (mut blocks, mut loops) = (0u64, 0u64);
        for n in &r.0 {
            match n {
                Node::Block(b) => {
                    blocks = blocks.saturating_add(self.block(*b).saturating_mul(entries))
                }
                Node::If {
                    cond, then, els, ..
                } => {
                    let (tb, tl) = self.parts(then, items, entries)?;
                    let (eb, el) = self.parts(els, items, entries)?;
                    let cond = self.block(cond.0).saturating_mul(entries);
                    blocks = blocks.saturating_add(cond);
                    if self.a.env.measured.is_some() {
                        blocks = blocks.saturating_add(tb.max(eb));
                        loops = loops.saturating_add(tl.saturating_add(el));
                    } else {
                        blocks = blocks.saturating_add((tb + tl).max(eb + el));
                    }
                }
                Node::Loop(id) => loops = loops.saturating_add(self.lp(*id, items, entries)?),
                _ => {}
            }
        }
        Ok((blocks, loops))
    }

    /// FSM cycles of the loops nested in `r` (its own blocks are already in the loop's
    /// per-iteration FSM cycles).
    fn inner_loops(&self, r: &Region, items: u64, entries: u64) -> Result<u64, String> {
        let mut total = 0u64;
        for n in &r.0 {
            total = total.saturating_add(match n {
                Node::Loop(id) => self.lp(*id, items, entries)?,
                Node::If { then, els, .. } => self
                    .inner_loops(then, items, entries)?
                    .max(self.inner_loops(els, items, entries)?),
                _ => 0,
            });
        }
        Ok(total)
    }

    /// (entries, iterations) of a source loop: the interpreter's counts when measured
    /// (scaled to what one costing unit runs: exact even for loops in branches), else
    /// `entries` x its trip count.
    fn counts(&self, id: LoopId, r: &LoopReport, entries: u64) -> Result<(u64, u64), String> {
        if self.a.group.lp(id).kind == LoopKind::Once {
            return Ok((entries, entries));
        }
        let measured = self
            .a
            .ndr
            .get(&id)
            .and_then(|n| self.a.env.measured.as_ref()?.get(n.0 as usize).copied());
        if let Some((e, t)) = measured {
            // Every work-item counts a loop that holds work-item loops (a group-level
            // loop); the others count once per work-item that runs them.
            let group_level = self.holds_work_items(id);
            let scale = match (group_level, self.per_group) {
                (true, _) => self.launch.all,
                (false, true) => self.launch.groups,
                (false, false) => 1,
            }
            .max(1);
            let (e, t) = ((e + scale / 2) / scale, (t + scale / 2) / scale);
            // The interpreter counted the source loop; a main or remainder loop of its
            // unrolling runs its share of each entry's iterations.
            return Ok(match self.a.shares.get(&id) {
                Some(share) if e > 0 => (e, e.saturating_mul(share.of((t + e / 2) / e))),
                _ => (e, t),
            });
        }
        let trip = r.trip_count.ok_or_else(|| {
            format!(
                "the trip count of the {} at {} is unknown",
                r.name, r.location
            )
        })?;
        Ok((entries, entries.saturating_mul(trip)))
    }

    fn holds_work_items(&self, id: LoopId) -> bool {
        let Some(s) = self.a.shapes.iter().find(|s| s.id == id) else {
            return false;
        };
        s.inner.iter().any(|i| {
            self.a
                .shapes
                .iter()
                .any(|x| x.id == *i && x.work_item_dim.is_some())
                || self.holds_work_items(*i)
        })
    }

    fn lp(&self, id: LoopId, items: u64, entries: u64) -> Result<u64, String> {
        let a = self.a;
        let r = a
            .report(id)
            .ok_or_else(|| format!("internal: loop L{} was not analysed", id.0))?;
        let shape = a
            .shapes
            .iter()
            .find(|s| s.id == id)
            .ok_or_else(|| format!("internal: loop L{} has no shape", id.0))?;
        let (inner_id, e, t) = match (shape.work_item_dim, self.m) {
            // The generator runs every loop of the nest with its own control states.
            (Some(_), Mode::Fsm) => {
                let local = a.env.local.ok_or("the local size is unknown")?;
                let n = crate::analysis::loops::work_items(a.group, id, local);
                (id, entries, entries.saturating_mul(n))
            }
            // A work-item nest: its innermost work-item loop over all its items.
            (Some(_), Mode::Ideal) => {
                let mut at = shape;
                while let Some(next) = at
                    .inner
                    .first()
                    .filter(|_| at.inner.len() == 1)
                    .and_then(|i| a.shapes.iter().find(|s| s.id == *i))
                    .filter(|s| s.work_item_dim.is_some())
                {
                    at = next;
                }
                // A loop with a local id fixed runs only those work-items (`items` counts
                // every group's).
                let n = match (a.group.lp(at.id).hints.fixed_id, a.env.local) {
                    (Some((d, _)), Some(local)) => items / local[d].max(1),
                    _ => items,
                };
                // Lanes take that many work-items per iteration.
                let lanes = a
                    .report(at.id)
                    .and_then(|r| r.unroll_applied)
                    .unwrap_or(1)
                    .max(1);
                (at.id, entries, entries.saturating_mul(n.div_ceil(lanes)))
            }
            (None, _) => {
                let (e, t) = self.counts(id, r, entries)?;
                (id, e, t)
            }
        };
        let ir = a
            .report(inner_id)
            .ok_or_else(|| format!("internal: loop L{} was not analysed", inner_id.0))?;
        if let (Some(ii), Mode::Ideal) = (ir.min_ii, self.m) {
            // The memory port moves `port_bytes` a cycle at best: a loop moving more per
            // iteration than its II allows is bound by bandwidth instead.
            let by_ii = t.saturating_mul(ii as u64);
            let by_port = t
                .saturating_mul(ir.global_bytes)
                .div_ceil(self.port_bytes.max(1));
            // An entry that runs no iteration only tests (a remainder loop of an unrolling
            // whose trip is a multiple of the factor): its condition, not the depth.
            let fill = if t == 0 {
                let l = a.group.lp(inner_id);
                l.cond.map(|(b, _)| self.block(b)).unwrap_or(0)
            } else {
                // The list schedule's depth, or the built pipeline's where that is less
                // (the modulo schedule overlaps what the list schedule chains).
                ir.pipeline_depth
                    .map_or(ir.depth, |d| ir.depth.min(u64::from(d)))
            };
            return Ok(by_ii.max(by_port).saturating_add(e.saturating_mul(fill)));
        }
        let l = a.group.lp(inner_id);
        match self.m {
            Mode::Ideal => {
                let cond = l.cond.map(|(b, _)| self.block(b)).unwrap_or(0);
                Ok(cond
                    .saturating_mul(t)
                    .saturating_add(self.region(&l.body, items, t)?)
                    .saturating_add(self.region(&l.latch, items, t)?))
            }
            // Own blocks and control states are in the per-iteration FSM cycles.
            Mode::Fsm => Ok(ir
                .fsm_cycles_per_iteration
                .saturating_mul(t)
                .saturating_add(self.inner_loops(&l.body, items, t)?)
                .saturating_add(self.inner_loops(&l.latch, items, t)?)),
        }
    }
}
