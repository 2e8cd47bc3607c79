//! The modulo schedule checker: from the loop graph alone (not the scheduler's tables) it
//! re-derives every rule a modulo schedule must meet and lists each one broken: every op
//! has a cycle; every edge `t[to] + distance * II >= t[from] + delay` (within an
//! iteration `distance` is 0); combinational chains, also those forwarded from one
//! iteration to a later one in the same absolute cycle, fit the clock period; per limited
//! resource and slot `cycle mod II`, the units of all ops stay within the board's limits;
//! `depth` covers every op and `stages` is `ceil(depth / II)`.

use std::collections::BTreeMap;
use std::fmt::{self, Debug};
use std::hash::Hash;

use crate::board::{Limits, OpLibrary};
use crate::ir::{Block, OpId};

use super::list::{capacity, ScheduleError, EPS_NS};
use super::loop_graph::{CarriedDep, DepKind, LoopGraph};
use super::modulo::ModuloSchedule;
use super::timing::{span, Resource};

/// One broken rule; ops are named by the graph's keys.
#[derive(Clone, Debug, PartialEq)]
pub enum ModuloViolation<K> {
    Unscheduled(K),
    /// A key the schedule has that the body does not.
    Unknown(K),
    ZeroIi,
    /// `to` (of an iteration `distance` later) starts before `from` allows.
    Dependence {
        from: K,
        to: K,
        distance: u32,
        /// `t[from] + delay - distance * II` and `t[to]`.
        earliest: i64,
        start: u32,
    },
    Chain {
        op: K,
        path_ns: f64,
        period_ns: f64,
    },
    /// More units of `resource` in use in slot `slot` (cycle mod II) than allowed.
    Resource {
        resource: Resource,
        slot: u32,
        used: u32,
        limit: u32,
    },
    Depth {
        op: K,
        end: u32,
        depth: u32,
    },
    Stages {
        stages: u32,
        expected: u32,
    },
}

impl<K: Debug> fmt::Display for ModuloViolation<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModuloViolation::Unscheduled(k) => write!(f, "op {k:?} has no cycle"),
            ModuloViolation::Unknown(k) => write!(f, "op {k:?} is not in the loop body"),
            ModuloViolation::ZeroIi => f.write_str("the II is 0"),
            ModuloViolation::Dependence {
                from,
                to,
                distance,
                earliest,
                start,
            } => write!(
                f,
                "op {to:?} starts in cycle {start} but op {from:?} of {distance} iteration(s) \
                 earlier allows cycle {earliest} at the earliest"
            ),
            ModuloViolation::Chain {
                op,
                path_ns,
                period_ns,
            } => write!(
                f,
                "the combinational path through op {op:?} takes {path_ns:.2} ns, over the \
                 {period_ns:.2} ns period"
            ),
            ModuloViolation::Resource {
                resource,
                slot,
                used,
                limit,
            } => write!(
                f,
                "slot {slot} (cycle mod II) uses {used} {resource}, the limit is {limit}"
            ),
            ModuloViolation::Depth { op, end, depth } => write!(
                f,
                "op {op:?} finishes at cycle {end}, after the depth {depth}"
            ),
            ModuloViolation::Stages { stages, expected } => {
                write!(f, "{stages} stages, but depth and II make {expected}")
            }
        }
    }
}

/// Checks a one-block body's schedule, rebuilding its graph from the block.
pub fn check_loop_block(
    block: &Block,
    carried: &[CarriedDep],
    lib: &OpLibrary,
    limits: &Limits,
    s: &ModuloSchedule<OpId>,
) -> Result<Vec<ModuloViolation<OpId>>, ScheduleError> {
    let g = LoopGraph::from_block(block, carried, lib, limits)?;
    Ok(check_modulo(&g, lib.period_ns, limits, s))
}

/// Every rule `s` breaks on `g`; empty means valid.
pub fn check_modulo<K: Copy + Eq + Hash + Ord>(
    g: &LoopGraph<K>,
    period_ns: f64,
    limits: &Limits,
    s: &ModuloSchedule<K>,
) -> Vec<ModuloViolation<K>> {
    let mut out = Vec::new();
    if s.ii == 0 {
        return vec![ModuloViolation::ZeroIi];
    }
    for n in &g.nodes {
        if !s.cycle.contains_key(&n.key) {
            out.push(ModuloViolation::Unscheduled(n.key));
        }
    }
    let known: std::collections::HashSet<K> = g.nodes.iter().map(|n| n.key).collect();
    let mut extra: Vec<K> = s
        .cycle
        .keys()
        .filter(|k| !known.contains(k))
        .copied()
        .collect();
    extra.sort();
    out.extend(extra.into_iter().map(ModuloViolation::Unknown));
    if !out.is_empty() {
        return out;
    }
    let t: Vec<i64> = g.nodes.iter().map(|n| s.cycle[&n.key] as i64).collect();
    let ii = s.ii as i64;
    for e in &g.edges {
        let earliest = t[e.from] + e.delay as i64 - e.distance as i64 * ii;
        if t[e.to] < earliest {
            out.push(ModuloViolation::Dependence {
                from: g.nodes[e.from].key,
                to: g.nodes[e.to].key,
                distance: e.distance,
                earliest,
                start: t[e.to] as u32,
            });
        }
    }
    // Chains: an edge chains when its source is combinational, it carries a value, and
    // both ends meet in one absolute cycle. Such edges cannot form a cycle (every cycle
    // crosses an iteration, which costs II > 0), so passes in node order converge.
    let chains = |e: &super::loop_graph::DepEdge| {
        e.kind == DepKind::Data
            && g.nodes[e.from].timing.latency == 0
            && t[e.to] + e.distance as i64 * ii == t[e.from]
    };
    let mut arrive = vec![0.0f64; g.nodes.len()];
    for _ in 0..=g.nodes.len() {
        let mut changed = false;
        for e in g.edges.iter().filter(|e| chains(e)) {
            let a = arrive[e.from] + g.nodes[e.from].timing.delay_ns;
            if a > arrive[e.to] + EPS_NS {
                arrive[e.to] = a;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for (i, n) in g.nodes.iter().enumerate() {
        let path = arrive[i] + n.timing.delay_ns;
        if arrive[i] > 0.0 && path > period_ns + EPS_NS {
            out.push(ModuloViolation::Chain {
                op: n.key,
                path_ns: path,
                period_ns,
            });
        }
    }
    let mut usage: BTreeMap<(Resource, u32), u32> = BTreeMap::new();
    for (i, n) in g.nodes.iter().enumerate() {
        for d in &n.timing.demands {
            for c in t[i]..t[i] + d.cycles as i64 {
                *usage
                    .entry((d.resource, c.rem_euclid(ii) as u32))
                    .or_default() += d.units;
            }
        }
    }
    for ((resource, slot), used) in usage {
        let limit = capacity(resource, limits);
        if used > limit {
            out.push(ModuloViolation::Resource {
                resource,
                slot,
                used,
                limit,
            });
        }
    }
    for (i, n) in g.nodes.iter().enumerate() {
        let end = t[i] as u32 + span(&n.timing);
        if end > s.depth {
            out.push(ModuloViolation::Depth {
                op: n.key,
                end,
                depth: s.depth,
            });
        }
    }
    let expected = s.depth.div_ceil(s.ii).max(1);
    if s.stages != expected {
        out.push(ModuloViolation::Stages {
            stages: s.stages,
            expected,
        });
    }
    out
}
