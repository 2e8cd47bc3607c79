//! The modulo scheduler: iterative modulo scheduling (Rau, 1994) of a loop body on the
//! board's operator library. Starting at II = max(ResMII, RecMII), ops are placed by
//! height (longest path to the body's end at this II) into the earliest cycle their
//! scheduled predecessors allow where a modulo reservation table has room for their
//! units and ports and their combinational chain fits the clock period; when none of II
//! consecutive cycles fits, the op takes a cycle anyway and evicts what it conflicts
//! with. The II is raised only when a placement budget runs out.

use std::collections::HashMap;
use std::hash::Hash;

use crate::board::{Limits, OpLibrary};
use crate::ir::{Block, OpId};

use super::list::{capacity, ScheduleError, EPS_NS};
use super::loop_graph::{CarriedDep, DepKind, LoopGraph};
use super::timing::{span, Resource};

/// A modulo schedule: `cycle` is each op's start relative to its iteration's start
/// (iteration `i` starts at `i * ii`); `depth` is the cycles from an iteration's start
/// until all its ops have finished; `stages = ceil(depth / ii)`. `mii` is the lower bound
/// the scheduler started from (ii > mii only when no schedule existed at mii).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuloSchedule<K: Eq + Hash = OpId> {
    pub ii: u32,
    pub mii: u32,
    pub cycle: HashMap<K, u32>,
    pub depth: u32,
    pub stages: u32,
}

impl<K: Eq + Hash> ModuloSchedule<K> {
    /// The pipeline stage `op` starts in (`cycle / ii`).
    pub fn stage(&self, op: &K) -> Option<u32> {
        self.cycle.get(op).map(|c| c / self.ii.max(1))
    }

    /// The slot of the modulo reservation table `op` starts in (`cycle % ii`).
    pub fn slot(&self, op: &K) -> Option<u32> {
        self.cycle.get(op).map(|c| c % self.ii.max(1))
    }
}

/// Placements per op tried at one II before giving up on it.
const BUDGET_PER_OP: usize = 8;

/// Modulo-schedules a one-block loop body with its carried dependences.
pub fn schedule_loop_block(
    block: &Block,
    carried: &[CarriedDep],
    lib: &OpLibrary,
    limits: &Limits,
) -> Result<ModuloSchedule<OpId>, ScheduleError> {
    let g = LoopGraph::from_block(block, carried, lib, limits)?;
    modulo_schedule(&g, lib.period_ns, limits)
}

/// Modulo-schedules `g` under `limits` with chaining within `period_ns`.
pub fn modulo_schedule<K: Copy + Eq + Hash>(
    g: &LoopGraph<K>,
    period_ns: f64,
    limits: &Limits,
) -> Result<ModuloSchedule<K>, ScheduleError> {
    let err = |e: super::loop_graph::Unschedulable| ScheduleError {
        message: e.to_string(),
    };
    let mii = g.mii(limits).map_err(err)?;
    // At this II every op fits one after another, so the search always ends.
    let cap: u64 = mii as u64
        + g.nodes
            .iter()
            .map(|n| {
                span(&n.timing) as u64
                    + n.timing
                        .demands
                        .iter()
                        .map(|d| d.cycles as u64)
                        .max()
                        .unwrap_or(0)
            })
            .sum::<u64>()
        + g.edges.iter().map(|e| e.delay as u64).max().unwrap_or(0);
    let cap = cap.min(u32::MAX as u64) as u32;
    for ii in mii..=cap {
        if let Some(t) = Ims::new(g, ii, period_ns, limits).run() {
            let cycle: HashMap<K, u32> = g
                .nodes
                .iter()
                .zip(&t)
                .map(|(n, &c)| (n.key, c as u32))
                .collect();
            let depth = g
                .nodes
                .iter()
                .zip(&t)
                .map(|(n, &c)| c as u32 + span(&n.timing))
                .max()
                .unwrap_or(0);
            return Ok(ModuloSchedule {
                ii,
                mii,
                cycle,
                depth,
                stages: depth.div_ceil(ii).max(1),
            });
        }
    }
    Err(ScheduleError {
        message: format!("no modulo schedule with II from {mii} to {cap}"),
    })
}

/// One attempt at one II.
struct Ims<'a, K> {
    g: &'a LoopGraph<K>,
    ii: i64,
    period_ns: f64,
    limits: &'a Limits,
    /// Incoming and outgoing edges (indices into `g.edges`) per node.
    ins: Vec<Vec<usize>>,
    outs: Vec<Vec<usize>>,
    height: Vec<i64>,
    time: Vec<Option<i64>>,
    /// The last cycle each node was placed in (Rau's forced placement moves on from it).
    last: Vec<Option<i64>>,
    /// Per resource and slot `cycle mod ii`, the nodes holding units there.
    mrt: HashMap<(Resource, i64), Vec<(usize, u32)>>,
}

impl<'a, K> Ims<'a, K> {
    fn new(g: &'a LoopGraph<K>, ii: u32, period_ns: f64, limits: &'a Limits) -> Ims<'a, K> {
        let n = g.nodes.len();
        let mut ins = vec![Vec::new(); n];
        let mut outs = vec![Vec::new(); n];
        for (i, e) in g.edges.iter().enumerate() {
            ins[e.to].push(i);
            outs[e.from].push(i);
        }
        let mut s = Ims {
            g,
            ii: ii as i64,
            period_ns,
            limits,
            ins,
            outs,
            height: Vec::new(),
            time: vec![None; n],
            last: vec![None; n],
            mrt: HashMap::new(),
        };
        s.height = s.heights();
        s
    }

    fn weight(&self, e: usize) -> i64 {
        let e = &self.g.edges[e];
        e.delay as i64 - e.distance as i64 * self.ii
    }

    /// Longest path from each node to the end of the body (its own span included): the
    /// priority. Converges because the II allows every dependence cycle.
    fn heights(&self) -> Vec<i64> {
        let mut h: Vec<i64> = self
            .g
            .nodes
            .iter()
            .map(|n| span(&n.timing) as i64)
            .collect();
        for _ in 0..=self.g.nodes.len() {
            let mut changed = false;
            for (i, e) in self.g.edges.iter().enumerate() {
                let v = h[e.to] + self.weight(i);
                if v > h[e.from] {
                    h[e.from] = v;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        h
    }

    fn run(mut self) -> Option<Vec<i64>> {
        let n = self.g.nodes.len();
        let mut budget = n * BUDGET_PER_OP + 16;
        // The unscheduled op with the greatest height, earliest in program order.
        while let Some(v) = (0..n)
            .filter(|&i| self.time[i].is_none())
            .max_by_key(|&i| (self.height[i], std::cmp::Reverse(i)))
        {
            if budget == 0 {
                return None;
            }
            budget -= 1;
            let estart = self.estart(v);
            // The modulo table repeats every II cycles, so a later cycle can only help a
            // chain too long for the clock (its inputs then come from registers): look one
            // more II ahead before forcing a place.
            let free =
                (estart..estart + 2 * self.ii).find(|&t| self.fits(v, t) && self.chain_ok(v, t));
            let t = match free {
                Some(t) => t,
                None => {
                    let t = match self.last[v] {
                        Some(l) if l >= estart => l + 1,
                        _ => estart,
                    };
                    self.evict_resource_conflicts(v, t);
                    if !self.chain_ok(v, t) {
                        self.evict_chained_preds(v, t);
                    }
                    t
                }
            };
            self.place(v, t);
            self.evict_violated_successors(v);
        }
        let min = self.time.iter().flatten().copied().min().unwrap_or(0);
        Some(self.time.iter().map(|t| t.unwrap_or(0) - min).collect())
    }

    /// The earliest cycle the scheduled predecessors allow.
    fn estart(&self, v: usize) -> i64 {
        self.ins[v]
            .iter()
            .filter_map(|&e| {
                let src = self.g.edges[e].from;
                self.time[src].map(|t| t + self.weight(e))
            })
            .max()
            .unwrap_or(0)
            .max(0)
    }

    fn slots(&self, v: usize, t: i64) -> Vec<(Resource, i64, u32)> {
        let mut out = Vec::new();
        for d in &self.g.nodes[v].timing.demands {
            if capacity(d.resource, self.limits) == u32::MAX {
                continue;
            }
            for c in t..t + d.cycles as i64 {
                out.push((d.resource, c.rem_euclid(self.ii), d.units));
            }
        }
        out
    }

    fn fits(&self, v: usize, t: i64) -> bool {
        let mut want: HashMap<(Resource, i64), u32> = HashMap::new();
        for (r, s, u) in self.slots(v, t) {
            *want.entry((r, s)).or_default() += u;
        }
        want.into_iter().all(|((r, s), u)| {
            let used: u32 = self
                .mrt
                .get(&(r, s))
                .map(|v| v.iter().map(|x| x.1).sum())
                .unwrap_or(0);
            used + u <= capacity(r, self.limits)
        })
    }

    /// The in-cycle arrival (ns) at `v`'s inputs if it starts at `t`: the longest chain of
    /// combinational ops ending in a data predecessor that finishes in the same cycle.
    fn arrival_in(&self, v: usize, t: i64, memo: &mut HashMap<usize, f64>) -> f64 {
        let mut a: f64 = 0.0;
        for &e in &self.ins[v] {
            let edge = &self.g.edges[e];
            let src = edge.from;
            if edge.kind != DepKind::Data || self.g.nodes[src].timing.latency != 0 {
                continue;
            }
            let Some(ts) = self.time[src] else { continue };
            if ts + self.weight(e) != t || edge.delay != 0 {
                continue;
            }
            let out = match memo.get(&src) {
                Some(x) => *x,
                None => {
                    let x = self.arrival_in(src, ts, memo) + self.g.nodes[src].timing.delay_ns;
                    memo.insert(src, x);
                    x
                }
            };
            a = a.max(out);
        }
        a
    }

    fn chain_ok(&self, v: usize, t: i64) -> bool {
        let a = self.arrival_in(v, t, &mut HashMap::new());
        // A path that starts at a register may take the whole period (as in the list
        // scheduler); only chained paths are bounded.
        a == 0.0 || a + self.g.nodes[v].timing.delay_ns <= self.period_ns + EPS_NS
    }

    fn place(&mut self, v: usize, t: i64) {
        for (r, s, u) in self.slots(v, t) {
            self.mrt.entry((r, s)).or_default().push((v, u));
        }
        self.time[v] = Some(t);
        self.last[v] = Some(t);
    }

    fn unplace(&mut self, v: usize) {
        if self.time[v].take().is_some() {
            for list in self.mrt.values_mut() {
                list.retain(|x| x.0 != v);
            }
        }
    }

    fn evict_resource_conflicts(&mut self, v: usize, t: i64) {
        for (r, s, _) in self.slots(v, t) {
            let holders: Vec<usize> = self
                .mrt
                .get(&(r, s))
                .map(|l| l.iter().map(|x| x.0).collect())
                .unwrap_or_default();
            for h in holders {
                if h != v {
                    self.unplace(h);
                }
            }
        }
    }

    fn evict_chained_preds(&mut self, v: usize, t: i64) {
        let chained: Vec<usize> = self.ins[v]
            .iter()
            .filter(|&&e| {
                let edge = &self.g.edges[e];
                edge.kind == DepKind::Data
                    && edge.delay == 0
                    && self.time[edge.from].is_some_and(|ts| ts + self.weight(e) == t)
            })
            .map(|&e| self.g.edges[e].from)
            .collect();
        for u in chained {
            if u != v {
                self.unplace(u);
            }
        }
    }

    /// After placing `v`: successors it now starts too late for, and ops downstream whose
    /// chain it made too long, go back to the unscheduled set.
    fn evict_violated_successors(&mut self, v: usize) {
        let tv = self.time[v].unwrap_or(0);
        let late: Vec<usize> = self.outs[v]
            .iter()
            .filter_map(|&e| {
                let dst = self.g.edges[e].to;
                let td = self.time[dst]?;
                (dst != v && td < tv + self.weight(e)).then_some(dst)
            })
            .collect();
        for w in late {
            self.unplace(w);
        }
        let n = self.g.nodes.len();
        let long: Vec<usize> = (0..n)
            .filter(|&w| w != v)
            .filter(|&w| self.time[w].is_some_and(|t| !self.chain_ok(w, t)))
            .collect();
        for w in long {
            self.unplace(w);
        }
    }
}
