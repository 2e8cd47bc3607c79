//! Per pipelinable loop of the group form (innermost loops and work-item loops, the
//! `switch` pseudo-loops left out) a modulo schedule with its II, checked by the
//! independent modulo checker: the side table the pipelined controller follows.
//!
//! Beyond the iteration's own dependences the schedule keeps what a pipeline without
//! speculation needs: the exit test of a `while` loop is known before any side effect of
//! its iteration (memory accesses, variable writes) and within the first II cycles, so
//! the next iteration is admitted only once this one is known to run; and a variable
//! read by an iteration before it is written there is read no later than the write
//! (the write of the same iteration must not overtake it).

use std::collections::BTreeMap;

use crate::analysis::loops::shapes;
use crate::analysis::mii::{Iteration, MemDeps};
use crate::board::OpLibrary;
use crate::diag::SourceMap;
use crate::ir::{BlockId, Kernel, LoopId, LoopKind, OpId, OpKind};

use super::loop_graph::{DepEdge, DepKind, LoopGraph};
use super::modulo::{modulo_schedule, ModuloSchedule};
use super::modulo_check::check_modulo;
use super::sink::{movable, shorten_lifetimes};

/// The modulo schedule of every loop that has one, and why the others have none.
#[derive(Clone, Debug, Default)]
pub struct LoopSchedules {
    pub loops: BTreeMap<LoopId, ModuloSchedule<(BlockId, OpId)>>,
    /// Loops not modulo-scheduled, with the reason (inner loops, a `switch`).
    pub not_pipelined: BTreeMap<LoopId, String>,
    /// Per scheduled loop, the dependences between its memory accesses the schedule
    /// keeps (a pipeline's memory units must keep them too, or the loop cannot run as one).
    pub mem_deps: BTreeMap<LoopId, Vec<MemDep>>,
    /// Per scheduled loop, the pipeline register bits its values hold (the lifetime
    /// placement's model): as soon as possible, and as placed.
    pub held: BTreeMap<LoopId, (u64, u64)>,
}

/// `to` of iteration `i + distance` must follow `from` of iteration `i` in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemDep {
    pub from: (BlockId, OpId),
    pub to: (BlockId, OpId),
    pub distance: u32,
}

impl LoopSchedules {
    pub fn ii(&self, l: LoopId) -> Option<u32> {
        self.loops.get(&l).map(|s| s.ii)
    }
}

/// Modulo-schedules every innermost loop of group-form kernel `k` on `lib`; a schedule
/// the checker rejects is an error (a scheduler bug), so callers never see one.
pub fn schedule_loops(
    k: &Kernel,
    sm: &SourceMap,
    lib: &OpLibrary,
    wide: &crate::memory::widen::WideAccesses,
    ranges: Option<&crate::opt::ranges::Ranges>,
) -> Result<LoopSchedules, String> {
    let mut out = LoopSchedules::default();
    for s in shapes(k) {
        if k.lp(s.id).kind == LoopKind::Once {
            out.not_pipelined
                .insert(s.id, "runs once (a switch)".into());
            continue;
        }
        if !s.inner.is_empty() {
            out.not_pipelined.insert(
                s.id,
                "holds a loop: its iterations run one after another".into(),
            );
            continue;
        }
        let mut it = Iteration::new(k, sm, &s, lib, &lib.limits, ranges);
        it.share_ports(wide);
        let mut g = it.graph(&MemDeps::of_loop(k, &s));
        let exit = pipeline_edges(k, s.id, &mut g, wide);
        let fail = |e: String| format!("kernel `{}` loop L{}: {e}", k.name, s.id.0);
        let mut sched =
            modulo_schedule(&g, lib.period_ns, &lib.limits).map_err(|e| fail(e.message))?;
        // The exit test must be known within the first II cycles; where it is not, raise
        // the II (a recurrence on the test) until it is.
        if let Some(c) = exit {
            for _ in 0..8 {
                let lat = g.nodes[c].timing.latency;
                let ready = sched.cycle[&g.nodes[c].key] + lat;
                if ready < sched.ii {
                    break;
                }
                g.edges.retain(|e| !(e.from == c && e.to == c));
                g.edges.push(DepEdge {
                    from: c,
                    to: c,
                    delay: ready + 1,
                    distance: 1,
                    kind: DepKind::Order,
                });
                sched =
                    modulo_schedule(&g, lib.period_ns, &lib.limits).map_err(|e| fail(e.message))?;
            }
        }
        let facts = movable(k, &g, exit, wide);
        let held = shorten_lifetimes(&g, &mut sched, lib.period_ns, &lib.limits, &facts);
        out.held.insert(s.id, held);
        if let Some(v) = check_modulo(&g, lib.period_ns, &lib.limits, &sched).first() {
            return Err(fail(format!("the modulo schedule breaks a rule: {v}")));
        }
        gather_stores(&g, &mut sched, lib);
        let memory = |i: usize| {
            let (b, o) = g.nodes[i].key;
            k.block(b).op(o).kind.is_memory()
        };
        // Within an iteration, every store with a later load it may meet in program order
        // (the graph's order edges keep only what the schedule needs, not every pair
        // the memory units could reorder); across iterations, the carried edges.
        let mut deps: Vec<MemDep> = it
            .stores_before_loads()
            .into_iter()
            .map(|(from, to)| MemDep {
                from,
                to,
                distance: 0,
            })
            .collect();
        deps.extend(
            g.edges
                .iter()
                .filter(|e| e.distance > 0 && memory(e.from) && memory(e.to))
                .map(|e| MemDep {
                    from: g.nodes[e.from].key,
                    to: g.nodes[e.to].key,
                    distance: e.distance,
                }),
        );
        out.mem_deps.insert(s.id, deps);
        out.loops.insert(s.id, sched);
    }
    Ok(out)
}

/// Stores of one iteration to one buffer go to that buffer's store unit, which builds
/// bursts only of beats that arrive one after another: two stores scheduled far apart
/// reach it interleaved with other iterations' stores (`out[16*i .. 16*i+7]` between
/// `out[16*(i-8)+8 ..]`), so every beat becomes a burst of its own and the unit's
/// outstanding bursts, not the II, set the pace. Each such store is moved as late as the
/// rules allow (the checker decides) up to just before the next store to its buffer.
fn gather_stores<K: Copy + Eq + std::hash::Hash + Ord>(
    g: &LoopGraph<K>,
    sched: &mut ModuloSchedule<K>,
    lib: &OpLibrary,
) {
    use super::timing::Resource;
    let mut by_buffer: BTreeMap<crate::ir::Base, Vec<usize>> = BTreeMap::new();
    for (i, n) in g.nodes.iter().enumerate() {
        let t = &n.timing;
        let issues = t
            .demands
            .iter()
            .any(|d| matches!(d.resource, Resource::WritePort(_)));
        if let (true, true, Some(super::MemKey::Base(b @ crate::ir::Base::Param(_)))) =
            (t.pure_write, issues, t.mem)
        {
            by_buffer.entry(b).or_default().push(i);
        }
    }
    for stores in by_buffer.values().filter(|v| v.len() > 1) {
        for w in (0..stores.len() - 1).rev() {
            let (a, next) = (g.nodes[stores[w]].key, g.nodes[stores[w + 1]].key);
            let (at, until) = (sched.cycle[&a], sched.cycle[&next]);
            for t in (at + 1..until).rev() {
                sched.cycle.insert(a, t);
                if check_modulo(g, lib.period_ns, &lib.limits, sched).is_empty() {
                    break;
                }
                sched.cycle.insert(a, at);
            }
        }
    }
}

type OpKey = (BlockId, OpId);

/// Every (if test, side effect under it) pair of region `r`, `tests` the enclosing ones.
fn guarded_effects(
    k: &Kernel,
    r: &crate::ir::Region,
    tests: &mut Vec<(BlockId, OpId)>,
    out: &mut Vec<(OpKey, OpKey)>,
) {
    use crate::ir::Node;
    let block = |b: BlockId, tests: &[(BlockId, OpId)], out: &mut Vec<_>| {
        let blk = k.block(b);
        for &o in &blk.order {
            let effect =
                matches!(blk.op(o).kind, OpKind::WriteVar(_)) || blk.op(o).kind.is_memory();
            if effect {
                out.extend(tests.iter().map(|t| (*t, (b, o))));
            }
        }
    };
    for n in &r.0 {
        match n {
            Node::Block(b) => block(*b, tests, out),
            Node::If {
                cond, then, els, ..
            } => {
                block(cond.0, tests, out);
                tests.push(*cond);
                guarded_effects(k, then, tests, out);
                guarded_effects(k, els, tests, out);
                tests.pop();
            }
            Node::Loop(_) | Node::Break(_) | Node::Continue(_) | Node::Return => {}
        }
    }
}

/// Adds to `g` (one iteration of loop `l`) the edges a pipeline without speculation
/// needs (see the module documentation); returns the exit test's node, if any.
fn pipeline_edges(
    k: &Kernel,
    l: LoopId,
    g: &mut LoopGraph<(BlockId, OpId)>,
    wide: &crate::memory::widen::WideAccesses,
) -> Option<usize> {
    let lp = k.lp(l);
    let kind = |i: usize| {
        let (b, o) = g.nodes[i].key;
        &k.block(b).op(o).kind
    };
    let exit = match (lp.kind, lp.cond) {
        (LoopKind::While, Some(c)) => g.nodes.iter().position(|n| n.key == c),
        _ => None,
    };
    let mut extra = Vec::new();
    if let Some(c) = exit {
        let lat = g.nodes[c].timing.latency;
        for i in c + 1..g.nodes.len() {
            let effect = matches!(
                kind(i),
                OpKind::Load { .. }
                    | OpKind::Store { .. }
                    | OpKind::Atomic { .. }
                    | OpKind::WriteVar(_)
            );
            if effect {
                extra.push(DepEdge {
                    from: c,
                    to: i,
                    delay: lat,
                    distance: 0,
                    kind: DepKind::Data,
                });
            }
        }
    }
    // If-conversion: a side effect inside an `if` waits for every test on its way.
    let mut guarded = Vec::new();
    guarded_effects(k, &lp.body, &mut Vec::new(), &mut guarded);
    guarded_effects(k, &lp.latch, &mut Vec::new(), &mut guarded);
    // A wide load's request holds where any member's guard does: its issuer waits for
    // every member's tests too.
    let issuers: Vec<(OpKey, OpKey)> = guarded
        .iter()
        .filter_map(|&(c, e)| {
            let w = wide.group(e)?;
            let load = matches!(k.block(e.0).op(e.1).kind, OpKind::Load { .. });
            (load && w.issuer != e).then_some((c, w.issuer))
        })
        .collect();
    for (c, e) in guarded.into_iter().chain(issuers) {
        let (Some(from), Some(to)) = (
            g.nodes.iter().position(|n| n.key == c),
            g.nodes.iter().position(|n| n.key == e),
        ) else {
            continue;
        };
        extra.push(DepEdge {
            from,
            to,
            delay: g.nodes[from].timing.latency,
            distance: 0,
            kind: DepKind::Data,
        });
    }
    // Variable reads before a later write of the same variable in another block (the
    // block's own edges order those within one block).
    for r in 0..g.nodes.len() {
        let OpKind::ReadVar(v) = kind(r) else {
            continue;
        };
        for w in r + 1..g.nodes.len() {
            let same = matches!(kind(w), OpKind::WriteVar(x) if x == v);
            if same && g.nodes[w].key.0 != g.nodes[r].key.0 {
                extra.push(DepEdge {
                    from: r,
                    to: w,
                    delay: 0,
                    distance: 0,
                    kind: DepKind::Order,
                });
            }
        }
    }
    // Writes of one variable in different blocks keep their program order: a pipeline's
    // guarded write muxes its value over the write before it (`datapath::pipe`).
    for a in 0..g.nodes.len() {
        let OpKind::WriteVar(v) = kind(a) else {
            continue;
        };
        let next =
            (a + 1..g.nodes.len()).find(|&b| matches!(kind(b), OpKind::WriteVar(x) if x == v));
        if let Some(b) = next.filter(|&b| g.nodes[b].key.0 != g.nodes[a].key.0) {
            extra.push(DepEdge {
                from: a,
                to: b,
                delay: 0,
                distance: 0,
                kind: DepKind::Order,
            });
        }
    }
    g.edges.extend(extra);
    exit
}

/// The loop schedules as text for golden files: per loop its II, depth and stages, then
/// each op's cycle (`%B.I` as the printed IR names ops).
pub fn print(k: &Kernel, s: &LoopSchedules) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for (l, why) in &s.not_pipelined {
        let _ = writeln!(out, "L{}: not pipelined: {why}", l.0);
    }
    for (l, m) in &s.loops {
        let _ = write!(
            out,
            "L{}: II {} (minimum {}), depth {}, {} stages",
            l.0, m.ii, m.mii, m.depth, m.stages
        );
        match s.held.get(l) {
            Some((asap, placed)) if asap != placed => {
                let _ = writeln!(out, ", {placed} register bits ({asap} as soon as possible)");
            }
            Some((bits, _)) => {
                let _ = writeln!(out, ", {bits} register bits");
            }
            None => {
                let _ = writeln!(out);
            }
        }
        let mut ops: Vec<(u32, usize, u32)> = m
            .cycle
            .iter()
            .map(|((b, o), c)| {
                let i = k.block(*b).order.iter().position(|x| x == o).unwrap_or(0);
                (b.0, i, *c)
            })
            .collect();
        ops.sort();
        for (b, i, c) in ops {
            let _ = writeln!(out, "  %{b}.{i:<4} cycle {c:>4}");
        }
    }
    out
}
