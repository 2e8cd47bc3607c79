//! Loop analysis for reports and benchmarks: per loop of a kernel's group form (the
//! work-item loops included) its trip count, hints, the minimum II a pipelined
//! implementation could reach on a board and why, its pipeline depth, and what today's
//! generator spends per iteration; and the ideal cycle count of a launch built on them.

pub mod accesses;
pub mod affine;
pub mod cost;
pub mod counts;
pub mod ideal;
pub mod loops;
pub mod memories;
pub mod mii;
pub mod trip;

#[cfg(test)]
mod tests;

use serde::Serialize;

use crate::board::Board;
use crate::datapath::Facts;
use crate::diag::SourceMap;
use crate::frontend::sema::summary::LoopHints;
use crate::ir::{Kernel, LoopId, LoopKind};
use crate::rtl::netlist::SrcLoc;
use crate::schedule::loops::LoopSchedules;
use crate::schedule::KernelSchedule;

pub use ideal::{ideal_cycles, Ideal};
pub use memories::MemoryReport;
pub use trip::LaunchValues;

use cost::BlockCosts;
use loops::LoopShape;
use mii::{Iteration, MemDeps};

/// Register bits of a pipelined loop's values, as placed and as soon as possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RegisterBits {
    pub placed: u64,
    pub asap: u64,
}

/// One loop, as `report.json` and the cycles benchmark show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoopReport {
    /// The loop's number in the group-form kernel (`L<n>` in its printed IR).
    pub id: u32,
    /// "work-item loop (x)" (with "of region 2/3" in kernels with barriers), "for loop",
    /// "while loop", "do loop" or "switch".
    pub name: String,
    /// `file:line:col` (for work-item loops, the kernel's).
    pub location: String,
    pub line: u32,
    /// The enclosing loop's `id`.
    pub parent: Option<u32>,
    /// Nesting depth, 0 at the top of the group-form body.
    pub level: u32,
    /// The local-id dimension a work-item loop counts.
    pub work_item_dim: Option<u8>,
    /// Iterations per entry, when known before the launch (constants,
    /// `reqd_work_group_size`) or from the launch the analysis was given.
    pub trip_count: Option<u64>,
    /// The trip count depends on data: it is the average per entry the interpreter
    /// counted for the launch given to the analysis.
    pub trip_measured: bool,
    /// The source's unroll hint: "full", a factor, or "1 (not unrolled)".
    pub unroll: Option<String>,
    /// Copies of the source loop's body per iteration of this loop, as the `loops` stage
    /// unrolled it (`None`: no hint and not unrolled), and what it made of the loop (a
    /// main loop, its remainder, or why the hint was not applied).
    pub unroll_applied: Option<u64>,
    pub unroll_note: Option<String>,
    /// "ivdep", "ivdep(safelen N)", with "on a, b" when limited to arrays.
    pub ivdep: Option<String>,
    /// The II a modulo-scheduled implementation could reach: max(ResMII, RecMII).
    /// `None` for a loop holding inner loops (its iterations run one after another).
    pub min_ii: Option<u32>,
    /// The II of the loop's checked modulo schedule (the `modulo` stage); `None` for
    /// loops without one.
    pub scheduled_ii: Option<u32>,
    /// The datapath runs the loop as a pipeline at `scheduled_ii`.
    pub pipelined: bool,
    /// Runs across work-group boundaries without draining (a work-item loop).
    pub cross_group: bool,
    /// Buffer pairs ("a/b") the pipeline needs apart: the core compares their address
    /// ranges at the loop's entry and runs the loop ordered when they overlap.
    pub overlap_checks: Vec<String>,
    /// The wide accesses of a pipelined loop (`memory::widen`): per group, the buffer,
    /// how many loads or stores it merges and its bytes, e.g. "x: 4 loads as one 16-byte
    /// access at saxpy_unroll.cl:9:21".
    pub wide_accesses: Vec<String>,
    /// A pipelined loop's memory accesses: the unit serving each, whether it streams,
    /// and its burst size.
    pub memory_accesses: Vec<accesses::AccessReport>,
    /// Why the loop keeps the FSM (one iteration after another), when it does.
    pub not_pipelined: Option<String>,
    pub res_mii: Option<u32>,
    pub rec_mii: Option<u32>,
    /// Why `min_ii` is what it is, starting with the number.
    pub ii_reason: String,
    /// Why the pipeline runs above `min_ii`, when it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ii_raised: Option<String>,
    /// A work-item loop at II 1 whose global accesses all stream and leave the memory
    /// ports bandwidth to spare: how many work-items per cycle would fit
    /// (`num_simd_work_items`), and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lanes_fit: Option<String>,
    /// Cycles of one iteration's schedule (condition, body and latch blocks on the board
    /// library; the longer arm of each `if`), nested loops left out.
    pub depth: u64,
    /// Cycles from an iteration's start to its end in the loop's modulo schedule (the
    /// pipeline's fill and drain), when it has one.
    pub pipeline_depth: Option<u32>,
    /// Bits the pipeline's register chains hold for the values of one iteration (the
    /// lifetime placement's model, `schedule::sink`): as scheduled, and as soon as
    /// possible (before the placement).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub register_bits: Option<RegisterBits>,
    /// Bytes one iteration moves through global memory (its unguarded and guarded loads
    /// and stores of buffers): over the board's memory port, a bound on the II no
    /// pipeline beats (`global_bytes / port bytes per cycle`).
    pub global_bytes: u64,
    /// Today's generator (block schedules as controller states, no overlap between
    /// iterations): the states of one iteration (the generator's own count per block)
    /// and the cycles they take, estimated with the library's latencies (nested loops
    /// left out). This is its achieved II.
    pub fsm_states: u64,
    pub fsm_cycles_per_iteration: u64,
}

/// The stage results the analysis reads (see `compile::Compiled::parts`).
#[derive(Clone, Copy)]
pub struct Parts<'a> {
    /// The NDRange kernel after the math expansion.
    pub kernel: &'a Kernel,
    /// Its group form: the loops analysed.
    pub group: &'a Kernel,
    /// Per group-form block, its schedule.
    pub schedule: &'a KernelSchedule,
    /// Per innermost loop, its modulo schedule.
    pub pipelines: &'a LoopSchedules,
    /// Which loops the datapath pipelines.
    pub plan: &'a crate::pipeline::PipelinePlan,
    /// The on-chip memories' read replicas (read ports).
    pub memory: &'a crate::memory::MemoryPlan,
    /// The generated controller's states per block.
    pub states: &'a Facts,
    /// What the `loops` stage unrolled (per group-form loop).
    pub unroll: &'a crate::loops::LoopsReport,
}

/// Analyzes every loop of a compiled kernel on `board`, with nothing known about the
/// launch.
pub fn analyze(p: &Parts, sm: &SourceMap, board: &Board) -> Result<Vec<LoopReport>, String> {
    analyze_for_launch(p, sm, board, &LaunchValues::default())
}

/// [`analyze`] with the launch's scalar arguments and sizes, so more trip counts are known.
pub fn analyze_for_launch(
    p: &Parts,
    sm: &SourceMap,
    board: &Board,
    env: &LaunchValues,
) -> Result<Vec<LoopReport>, String> {
    Ok(Analysis::new(p, sm, board, env)?.reports)
}

/// [`analyze`] and the report of every on-chip memory, which reads the loops' resource
/// bounds (what the build reports show).
pub fn analyze_with_memories(
    p: &Parts,
    sm: &SourceMap,
    board: &Board,
) -> Result<(Vec<LoopReport>, Vec<MemoryReport>), String> {
    let a = Analysis::new(p, sm, board, &LaunchValues::default())?;
    let mems = memories::report(p.group, sm, p.memory, &a.reports, &a.bounds);
    Ok((a.reports, mems))
}

/// The group form with its loop reports and block costs (what `ideal` needs too).
pub(crate) struct Analysis<'a> {
    pub group: &'a Kernel,
    pub reports: Vec<LoopReport>,
    pub costs: BlockCosts,
    pub shapes: Vec<LoopShape>,
    pub env: LaunchValues,
    /// Per group-form loop, the NDRange loop it came from (work-item loops have none).
    pub ndr: std::collections::HashMap<LoopId, LoopId>,
    /// Per innermost loop analysed, each limited resource's bound and the RecMII.
    pub bounds: Vec<memories::LoopBounds>,
    /// Per main or remainder loop of an unrolling, its share of the source loop's trip.
    pub shares: std::collections::HashMap<LoopId, crate::loops::TripShare>,
}

impl<'a> Analysis<'a> {
    pub fn new(
        p: &Parts<'a>,
        sm: &SourceMap,
        board: &Board,
        env: &LaunchValues,
    ) -> Result<Analysis<'a>, String> {
        let (kernel, g) = (p.kernel, p.group);
        let mut env = env.clone();
        if env.local.is_none() {
            env.local = kernel.attrs.reqd_work_group_size;
        }
        let mut lib = board.library();
        let shell = crate::project::shell_config_for(board);
        p.memory.set_ports(&mut lib.limits);
        let costs = BlockCosts::new(g, &lib, p.schedule, p.states)?;
        let shapes = loops::shapes(g);
        let ndr_loops = loops::shapes(kernel);
        let mut reports = Vec::new();
        // Barrier-free regions, each with its own work-item loops: numbered for names.
        let main_loop = |s: &loops::LoopShape| {
            s.work_item_dim == Some(0) && g.lp(s.id).hints.fixed_id.is_none()
        };
        let regions = shapes.iter().filter(|s| main_loop(s)).count();
        let mut seen = [0usize; 3];
        let mut ndr_of = std::collections::HashMap::new();
        let mut bounds = Vec::new();
        for s in &shapes {
            let l = g.lp(s.id);
            let loc = SrcLoc::of_span(sm, l.span);
            let ndr = ndr_loops
                .iter()
                .find(|n| kernel.lp(n.id).span == l.span && n.work_item_dim.is_none());
            if let (Some(n), None) = (ndr, s.work_item_dim) {
                ndr_of.insert(s.id, n.id);
            }
            let mut measured = false;
            let trip = match s.work_item_dim {
                // The work-item loop is flat over the group's work-items (`workitems`).
                Some(_) => env.local.map(|x| loops::work_items(g, s.id, x)),
                None if l.kind == LoopKind::Once => Some(1),
                None => ndr
                    .and_then(|n| trip::trip_count(kernel, n.id, &env))
                    .or_else(|| {
                        let (entries, iters) = *env.measured.as_ref()?.get(ndr?.id.0 as usize)?;
                        measured = true;
                        // The average per entry, rounded to nearest.
                        Some((iters + entries / 2).checked_div(entries).unwrap_or(0))
                    }),
            };
            // A main loop of an unrolling runs a share of the source loop's iterations.
            let note = p.unroll.note(s.id);
            let trip = match (trip, note) {
                (Some(t), Some(n)) if s.work_item_dim.is_none() => Some(n.share.of(t)),
                (t, _) => t,
            };
            let mut it = Iteration::new(g, sm, s, &lib, &lib.limits, Some(&p.memory.ranges));
            it.share_ports(&p.memory.wide);
            let c = costs.iteration(g, s.id);
            let (min_ii, res, rec, reason) = if l.kind == LoopKind::Once {
                (None, None, None, "runs once (a switch)".to_string())
            } else if let Some(inner) = s.inner.first() {
                let wi_nest = s.work_item_dim.is_some()
                    && s.inner.len() == 1
                    && shapes
                        .iter()
                        .any(|x| x.id == *inner && x.work_item_dim.is_some());
                let reason = if wi_nest {
                    "coalesced with the work-item loop inside it (one loop over the group's \
                     work-items)"
                        .to_string()
                } else {
                    format!(
                        "not pipelined: holds the loop at {}; its iterations run one after \
                         another",
                        SrcLoc::of_span(sm, g.lp(*inner).span)
                    )
                };
                (None, None, None, reason)
            } else {
                let deps = MemDeps::of_loop(g, s);
                let res = it.res_mii(&lib.limits);
                let rec = it.rec_mii(&deps);
                bounds.push(memories::LoopBounds {
                    id: s.id,
                    res: it.res_bounds(&lib.limits),
                    rec_ii: rec.ii,
                });
                let ii = res.ii.max(rec.ii).max(1);
                let mut reason = if ii <= 1 {
                    "1: no loop-carried dependence".to_string()
                } else if rec.ii >= res.ii {
                    rec.reason.clone()
                } else {
                    res.reason.clone()
                };
                // What the address analysis ruled out, so a low II reads as proven.
                for n in &rec.notes {
                    reason.push_str("; ");
                    reason.push_str(n);
                }
                (Some(ii), Some(res.ii), Some(rec.ii), reason)
            };
            reports.push(LoopReport {
                id: s.id.0,
                name: match s.work_item_dim {
                    Some(d) if l.hints.fixed_id.is_some() => {
                        let (f, c) = l.hints.fixed_id.unwrap_or_default();
                        let [dim, fd] = [d, f].map(|x| ["x", "y", "z"][x]);
                        let within = if regions > 1 {
                            format!(" of region {}/{regions}", seen[0])
                        } else {
                            String::new()
                        };
                        format!("work-item loop ({dim}) over local id {fd} = {c}{within}")
                    }
                    Some(d) => {
                        seen[d] += 1;
                        let dim = ["x", "y", "z"][d];
                        if regions > 1 {
                            format!("work-item loop ({dim}) of region {}/{regions}", seen[d])
                        } else {
                            format!("work-item loop ({dim})")
                        }
                    }
                    None => name(sm, g, s),
                },
                location: loc.to_string(),
                line: loc.line,
                parent: s.parent.map(|p| p.0),
                level: s.level,
                work_item_dim: s.work_item_dim.map(|d| d as u8),
                trip_count: trip,
                trip_measured: measured,
                unroll: note
                    .and_then(|n| n.asked.as_deref())
                    .map(|a| match a {
                        "1" => "1 (not unrolled)".to_string(),
                        other => other.to_string(),
                    })
                    .or_else(|| unroll(&l.hints)),
                unroll_applied: note.map(|n| n.applied),
                unroll_note: note.map(|n| n.note.clone()),
                ivdep: ivdep(&l.hints),
                min_ii,
                scheduled_ii: p.pipelines.ii(s.id),
                pipelined: p.plan.loops.contains_key(&s.id),
                cross_group: p
                    .plan
                    .loops
                    .get(&s.id)
                    .is_some_and(|x| x.cross_group.is_some()),
                overlap_checks: p
                    .plan
                    .loops
                    .get(&s.id)
                    .map(|x| {
                        let name = |i: u32| p.group.params[i as usize].name.clone();
                        x.overlap
                            .iter()
                            .map(|&(a, b)| format!("{}/{}", name(a), name(b)))
                            .collect()
                    })
                    .unwrap_or_default(),
                wide_accesses: p
                    .plan
                    .loops
                    .get(&s.id)
                    .map(|x| wide_accesses(g, sm, p.memory, &x.ops))
                    .unwrap_or_default(),
                memory_accesses: p
                    .plan
                    .loops
                    .get(&s.id)
                    .map(|x| accesses::describe(g, sm, s, x, p.plan, p.memory, &shell))
                    .unwrap_or_default(),
                not_pipelined: p
                    .plan
                    .fallback
                    .get(&s.id)
                    .or(p.pipelines.not_pipelined.get(&s.id))
                    .cloned(),
                res_mii: res,
                rec_mii: rec,
                ii_raised: raised(s.id, min_ii, p),
                lanes_fit: None,
                ii_reason: reason,
                depth: c.depth,
                pipeline_depth: p.pipelines.loops.get(&s.id).map(|m| m.depth),
                register_bits: p
                    .pipelines
                    .held
                    .get(&s.id)
                    .map(|&(asap, placed)| RegisterBits { placed, asap }),
                global_bytes: global_bytes(g, s),
                fsm_states: c.states,
                fsm_cycles_per_iteration: c.fsm_cycles,
            });
            if let Some(r) = reports.last_mut() {
                let x = kernel.attrs.reqd_work_group_size.map(|r| r[0]);
                r.lanes_fit = lanes_fit(r, (shell.data_width / 8) as u64, x);
            }
        }
        /// Why pipelined loop `id` runs above `min_ii`: its exit test comes late in the
        /// iteration (the next one is admitted once it is known), a recurrence through an
        /// `if`'s condition (guards are not in `min_ii`'s graph), or the schedule found no
        /// slot for every op at a lower II.
        fn raised(id: crate::ir::LoopId, min_ii: Option<u32>, p: &Parts) -> Option<String> {
            let pl = p.plan.loops.get(&id)?;
            let ms = p.pipelines.loops.get(&id)?;
            if ms.ii <= min_ii.unwrap_or(1) {
                return None;
            }
            let ready = ms.cycle.get(&pl.exit).copied().unwrap_or(0)
                + pl.latency.get(&pl.exit).copied().unwrap_or(0);
            Some(if ready + 1 >= ms.ii {
                format!(
                    "{}: the exit test is known {ready} cycles into an iteration (after the \
                     values its `if`s and guarded writes wait for), and the next iteration \
                     is admitted only then",
                    ms.ii
                )
            } else if ms.mii >= ms.ii {
                format!(
                    "{}: a value the next iteration reads is written under an `if` whose \
                     condition takes that long (the write waits for its condition)",
                    ms.ii
                )
            } else {
                format!(
                    "{}: no modulo schedule of the if-converted body at a lower II (units, \
                     ports and the clock period)",
                    ms.ii
                )
            })
        }
        Ok(Analysis {
            group: g,
            reports,
            costs,
            shapes,
            env,
            ndr: ndr_of,
            bounds,
            shares: p
                .unroll
                .loops
                .iter()
                .map(|(id, n)| (LoopId(*id), n.share))
                .collect(),
        })
    }

    pub fn report(&self, id: LoopId) -> Option<&LoopReport> {
        self.reports.iter().find(|r| r.id == id.0)
    }
}

fn name(sm: &SourceMap, k: &Kernel, s: &LoopShape) -> String {
    let l = k.lp(s.id);
    if l.kind == LoopKind::Once {
        return "switch".into();
    }
    let text = sm.snippet(l.span).trim_start();
    let word: String = text
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    match word.as_str() {
        "for" | "while" | "do" => format!("{word} loop"),
        _ => "loop".into(),
    }
}

fn unroll(h: &LoopHints) -> Option<String> {
    h.unroll.as_ref().map(|u| match u.factor {
        None => "full".to_string(),
        Some(1) => "1 (not unrolled)".to_string(),
        Some(n) => n.to_string(),
    })
}

fn ivdep(h: &LoopHints) -> Option<String> {
    h.ivdep.as_ref().map(|i| {
        let base = match i.safelen {
            Some(n) => format!("ivdep(safelen {n})"),
            None => "ivdep".to_string(),
        };
        if h.ivdep_arrays.is_empty() {
            base
        } else {
            format!("{base} on {}", h.ivdep_arrays.join(", "))
        }
    })
}

/// Bytes the loads and stores of buffer arguments in one iteration of `s` move.
fn global_bytes(g: &Kernel, s: &loops::LoopShape) -> u64 {
    let mut n = 0u64;
    for ib in &s.blocks {
        let blk = g.block(ib.block);
        for &o in &blk.order {
            let op = blk.op(o);
            let (space, ty) = match &op.kind {
                crate::ir::OpKind::Load { space, .. } => (space, op.ty.clone()),
                crate::ir::OpKind::Store { space, .. } => (
                    space,
                    blk.operands(o).get(1).and_then(|v| blk.op(*v).ty.clone()),
                ),
                _ => continue,
            };
            if matches!(
                space,
                crate::frontend::types::AddrSpace::Global
                    | crate::frontend::types::AddrSpace::Constant
            ) {
                n += ty.map(|t| t.bits().div_ceil(8) as u64).unwrap_or(0);
            }
        }
    }
    n
}

/// The wide groups among a pipelined loop's ops, described for the report.
fn wide_accesses(
    g: &Kernel,
    sm: &SourceMap,
    memory: &crate::memory::MemoryPlan,
    ops: &[(crate::ir::BlockId, crate::ir::OpId)],
) -> Vec<String> {
    let mut out = Vec::new();
    for &m in ops {
        let Some(w) = memory.wide.group(m).filter(|w| w.lanes[0] == m) else {
            continue;
        };
        let op = g.block(m.0).op(m.1);
        let (what, buffer) = match op.kind {
            crate::ir::OpKind::Load {
                base: Some(crate::ir::Base::Param(p)),
                ..
            } => ("loads", p),
            crate::ir::OpKind::Store {
                base: Some(crate::ir::Base::Param(p)),
                ..
            } => ("stores", p),
            _ => continue,
        };
        out.push(format!(
            "{}: {} {what} as one {}-byte access at {}",
            g.params[buffer as usize].name,
            w.lanes.len(),
            w.bytes(),
            crate::rtl::netlist::SrcLoc::of_span(sm, op.span)
        ));
    }
    out
}

/// Work-items per cycle that would fit the memory ports of work-item loop `l` (x, at
/// II 1, one work-item per iteration): every access of the loop is a global one that
/// streams, and the widest use of one buffer's unit moves at most `port_bytes` / N bytes
/// per work-item; N a power of two from 2 to 16 dividing the required work-group x size
/// `x` (which `num_simd_work_items` needs).
fn lanes_fit(l: &LoopReport, port_bytes: u64, x: Option<u64>) -> Option<String> {
    if l.work_item_dim != Some(0)
        || !l.pipelined
        || l.scheduled_ii != Some(1)
        || l.unroll_applied.is_some_and(|a| a > 1)
        || l.memory_accesses.is_empty()
    {
        return None;
    }
    let mut per: std::collections::BTreeMap<(&str, &str), u64> = Default::default();
    for a in &l.memory_accesses {
        if !(a.unit == "load unit" || a.unit == "store unit") || !a.streams {
            return None;
        }
        *per.entry((a.memory.as_str(), a.op)).or_default() += a.bytes as u64;
    }
    let widest = per.values().copied().max()?.max(1);
    let items = x?;
    let n = (1..=4)
        .map(|e| 1u64 << e)
        .filter(|n| n * widest <= port_bytes && items % n == 0)
        .max()?;
    Some(format!(
        "{n} work-items per cycle would fit the memory ports ({widest} of {port_bytes} bytes \
         per cycle on the busiest buffer's unit): num_simd_work_items({n})"
    ))
}
