//! The resource-constrained list scheduler: cycle by cycle, the ready op with the
//! longest path to the block's end goes first; ops whose operands are ready in the same
//! cycle chain combinationally while the summed delay stays within the clock period.

use std::collections::HashMap;
use std::fmt;

use petgraph::visit::EdgeRef;
use petgraph::Direction;

use crate::board::{Limits, OpLibrary};
use crate::ir::{Block, Edge, OpId};

use super::timing::{block_timing, order_gap, span, Demand, OpTiming, Resource};
use super::Schedule;

/// Why a block could not be scheduled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleError {
    pub message: String,
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ScheduleError {}

/// Tolerance for summed float delays.
pub(crate) const EPS_NS: f64 = 1e-9;

/// An incoming constraint of an op: from `pred`, data or order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pred {
    pub op: OpId,
    pub data: bool,
}

pub(crate) fn preds(block: &Block, id: OpId) -> Vec<Pred> {
    block
        .graph
        .edges_directed(id.0, Direction::Incoming)
        .map(|e| Pred {
            op: OpId(e.source()),
            data: matches!(e.weight(), Edge::Data(_)),
        })
        .collect()
}

/// Cycles `dst` must start after `src` starts along one edge.
pub(crate) fn edge_delay(src: &OpTiming, dst: &OpTiming, data: bool) -> u32 {
    if data {
        src.latency
    } else {
        order_gap(src, dst)
    }
}

/// The units of `r` available in one cycle.
pub(crate) fn capacity(r: Resource, limits: &Limits) -> u32 {
    match r {
        Resource::Unit(c) => limits.units_of(c),
        Resource::ReadPort(super::MemKey::Base(b)) => limits
            .memory_read_ports
            .get(&b)
            .copied()
            .unwrap_or(limits.read_ports),
        Resource::ReadPort(_) => limits.read_ports,
        Resource::WritePort(super::MemKey::Base(b)) => limits
            .memory_banks
            .get(&b)
            .copied()
            .unwrap_or(limits.write_ports),
        Resource::WritePort(_) => limits.write_ports,
    }
}

/// Units in use per resource per cycle.
#[derive(Default)]
struct Table(HashMap<Resource, Vec<u32>>);

impl Table {
    fn fits(&self, demands: &[Demand], at: u32, limits: &Limits) -> bool {
        demands.iter().all(|d| {
            let cap = capacity(d.resource, limits);
            let used = self.0.get(&d.resource);
            (at..at + d.cycles).all(|c| {
                let u = used.and_then(|v| v.get(c as usize)).copied().unwrap_or(0);
                u.saturating_add(d.units) <= cap
            })
        })
    }

    fn take(&mut self, demands: &[Demand], at: u32) {
        for d in demands {
            let v = self.0.entry(d.resource).or_default();
            let end = (at + d.cycles) as usize;
            if v.len() < end {
                v.resize(end, 0);
            }
            for u in &mut v[at as usize..end] {
                *u += d.units;
            }
        }
    }
}

/// Schedules one block under a library and limits.
pub fn schedule_block(
    block: &Block,
    lib: &OpLibrary,
    limits: &Limits,
) -> Result<Schedule, ScheduleError> {
    let timing = block_timing(block, lib, limits);
    let t = |id: &OpId| &timing[id];
    let all_preds: HashMap<OpId, Vec<Pred>> = block
        .order
        .iter()
        .map(|&id| (id, preds(block, id)))
        .collect();
    let height = heights(block, &timing, &all_preds);
    let mut remaining: Vec<OpId> = block.order.clone();
    let position: HashMap<OpId, usize> = block
        .order
        .iter()
        .enumerate()
        .map(|(i, &id)| (id, i))
        .collect();
    remaining.sort_by_key(|id| (std::cmp::Reverse(height[id]), position[id]));

    let bound: u64 = timing
        .values()
        .map(|x| span(x) as u64 + x.demands.iter().map(|d| d.cycles as u64).max().unwrap_or(0))
        .sum::<u64>()
        + 1;
    let mut start: HashMap<OpId, u32> = HashMap::new();
    let mut arrival: HashMap<OpId, f64> = HashMap::new();
    let mut table = Table::default();
    let mut cycle: u32 = 0;
    while !remaining.is_empty() {
        if cycle as u64 > bound {
            return Err(ScheduleError {
                message: format!(
                    "no progress after {cycle} cycles ({} ops left): the library or limits \
                     make some op unschedulable",
                    remaining.len()
                ),
            });
        }
        loop {
            let mut placed = Vec::new();
            for &id in &remaining {
                let ps = &all_preds[&id];
                if ps.iter().any(|p| !start.contains_key(&p.op)) {
                    continue;
                }
                let earliest = ps
                    .iter()
                    .map(|p| start[&p.op] + edge_delay(t(&p.op), t(&id), p.data))
                    .max()
                    .unwrap_or(0);
                if earliest > cycle {
                    continue;
                }
                let arrive = chained_arrival(ps, &start, &arrival, &timing, cycle);
                let me = t(&id);
                // A path that starts at a register may take the whole period.
                if arrive > 0.0 && arrive + me.delay_ns > lib.period_ns + EPS_NS {
                    continue;
                }
                if !table.fits(&me.demands, cycle, limits) {
                    continue;
                }
                table.take(&me.demands, cycle);
                start.insert(id, cycle);
                let out = if me.latency == 0 {
                    arrive + me.delay_ns
                } else {
                    0.0
                };
                arrival.insert(id, out);
                placed.push(id);
            }
            if placed.is_empty() {
                break;
            }
            remaining.retain(|id| !placed.contains(id));
        }
        cycle = next_cycle(cycle, &remaining, &all_preds, &start, &timing);
    }
    let length = start
        .iter()
        .map(|(id, s)| s + span(&timing[id]))
        .max()
        .unwrap_or(0);
    Ok(Schedule {
        cycle: start,
        length,
    })
}

/// The latest in-cycle arrival (ns) among the data operands that become ready exactly in
/// `cycle`; operands ready earlier come from registers (arrival 0).
pub(crate) fn chained_arrival(
    preds: &[Pred],
    start: &HashMap<OpId, u32>,
    arrival: &HashMap<OpId, f64>,
    timing: &HashMap<OpId, OpTiming>,
    cycle: u32,
) -> f64 {
    preds
        .iter()
        .filter(|p| p.data)
        .filter(|p| {
            let lat = timing[&p.op].latency;
            lat == 0 && start.get(&p.op) == Some(&cycle)
        })
        .map(|p| arrival.get(&p.op).copied().unwrap_or(0.0))
        .fold(0.0, f64::max)
}

/// The next cycle worth trying: one later, or straight to the earliest start of an op
/// whose predecessors are all placed when everything is waiting on latency.
fn next_cycle(
    cycle: u32,
    remaining: &[OpId],
    preds: &HashMap<OpId, Vec<Pred>>,
    start: &HashMap<OpId, u32>,
    timing: &HashMap<OpId, OpTiming>,
) -> u32 {
    let soonest = remaining
        .iter()
        .filter(|id| preds[id].iter().all(|p| start.contains_key(&p.op)))
        .map(|id| {
            preds[id]
                .iter()
                .map(|p| start[&p.op] + edge_delay(&timing[&p.op], &timing[id], p.data))
                .max()
                .unwrap_or(0)
        })
        .min();
    soonest.map_or(cycle + 1, |s| s.max(cycle + 1))
}

/// Longest path (in cycles) from each op to the end of the block: the list priority.
fn heights(
    block: &Block,
    timing: &HashMap<OpId, OpTiming>,
    preds: &HashMap<OpId, Vec<Pred>>,
) -> HashMap<OpId, u32> {
    let mut h: HashMap<OpId, u32> = block
        .order
        .iter()
        .map(|id| (*id, span(&timing[id])))
        .collect();
    for id in block.order.iter().rev() {
        let mine = h[id];
        for p in &preds[id] {
            let d = edge_delay(&timing[&p.op], &timing[id], p.data) + mine;
            if let Some(x) = h.get_mut(&p.op) {
                *x = (*x).max(d);
            }
        }
    }
    h
}
