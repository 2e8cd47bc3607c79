//! The schedule checker: recomputes, from the block, the library and the limits, every
//! constraint a schedule must meet (operand latency, ordering edges, combinational
//! chains within the clock period, units and ports per cycle with their II, the block
//! length) and lists each one a schedule breaks.

use std::collections::{BTreeMap, HashMap};
use std::fmt;

use crate::board::{Limits, OpLibrary};
use crate::ir::{Block, OpId};

use super::list::{capacity, chained_arrival, edge_delay, preds, EPS_NS};
use super::timing::{block_timing, span, Resource};
use super::Schedule;

/// One broken rule; ops are named by their node index, like the IR printer's `%b.i`.
#[derive(Clone, Debug, PartialEq)]
pub enum Violation {
    Unscheduled(OpId),
    NotInBlock(OpId),
    /// `op` starts before operand `from` is ready.
    Dependence {
        from: OpId,
        op: OpId,
        ready: u32,
        start: u32,
    },
    /// `op` starts too soon after `from` across an ordering edge.
    Order {
        from: OpId,
        op: OpId,
        earliest: u32,
        start: u32,
    },
    /// The combinational path ending in `op` is longer than the clock period.
    Chain {
        op: OpId,
        path_ns: f64,
        period_ns: f64,
    },
    /// More units of `resource` in use in `cycle` than the limits allow.
    Resource {
        resource: Resource,
        cycle: u32,
        used: u32,
        limit: u32,
    },
    /// The schedule's length ends before op `op` has finished.
    Length {
        op: OpId,
        end: u32,
        length: u32,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = |o: &OpId| o.0.index();
        match self {
            Violation::Unscheduled(o) => write!(f, "op {} has no cycle", n(o)),
            Violation::NotInBlock(o) => write!(f, "op {} is not in the block", n(o)),
            Violation::Dependence { from, op, ready, start } => write!(
                f,
                "op {} starts in cycle {start} but its operand op {} is ready in cycle {ready}",
                n(op),
                n(from)
            ),
            Violation::Order { from, op, earliest, start } => write!(
                f,
                "op {} starts in cycle {start} but must follow op {} (not before cycle {earliest})",
                n(op),
                n(from)
            ),
            Violation::Chain { op, path_ns, period_ns } => write!(
                f,
                "the combinational path through op {} takes {path_ns:.2} ns, over the {period_ns:.2} ns period",
                n(op)
            ),
            Violation::Resource { resource, cycle, used, limit } => write!(
                f,
                "cycle {cycle} uses {used} {resource}, the limit is {limit}"
            ),
            Violation::Length { op, end, length } => write!(
                f,
                "op {} finishes at cycle {end}, after the block's length {length}",
                n(op)
            ),
        }
    }
}

/// Every rule the schedule breaks; empty means valid.
pub fn check(block: &Block, lib: &OpLibrary, limits: &Limits, s: &Schedule) -> Vec<Violation> {
    let mut out = Vec::new();
    for id in &block.order {
        if !s.cycle.contains_key(id) {
            out.push(Violation::Unscheduled(*id));
        }
    }
    let mut extra: Vec<OpId> = s
        .cycle
        .keys()
        .filter(|id| !block.order.contains(id))
        .copied()
        .collect();
    extra.sort();
    out.extend(extra.into_iter().map(Violation::NotInBlock));
    if !out.is_empty() {
        return out;
    }
    let timing = block_timing(block, lib, limits);
    let mut arrival: HashMap<OpId, f64> = HashMap::new();
    let mut usage: BTreeMap<(Resource, u32), u32> = BTreeMap::new();
    for id in &block.order {
        let start = s.cycle[id];
        let me = &timing[id];
        let ps = preds(block, *id);
        for p in &ps {
            let earliest = s.cycle[&p.op] + edge_delay(&timing[&p.op], me, p.data);
            if start < earliest {
                out.push(if p.data {
                    Violation::Dependence {
                        from: p.op,
                        op: *id,
                        ready: earliest,
                        start,
                    }
                } else {
                    Violation::Order {
                        from: p.op,
                        op: *id,
                        earliest,
                        start,
                    }
                });
            }
        }
        // Block order is topological, so operands' arrivals are known here.
        let arrive = chained_arrival(&ps, &s.cycle, &arrival, &timing, start);
        if arrive + me.delay_ns > lib.period_ns + EPS_NS {
            out.push(Violation::Chain {
                op: *id,
                path_ns: arrive + me.delay_ns,
                period_ns: lib.period_ns,
            });
        }
        arrival.insert(
            *id,
            if me.latency == 0 {
                arrive + me.delay_ns
            } else {
                0.0
            },
        );
        for d in &me.demands {
            for c in start..start + d.cycles {
                *usage.entry((d.resource, c)).or_default() += d.units;
            }
        }
        let end = start + span(me);
        if end > s.length {
            out.push(Violation::Length {
                op: *id,
                end,
                length: s.length,
            });
        }
    }
    for ((resource, cycle), used) in usage {
        let limit = capacity(resource, limits);
        if used > limit {
            out.push(Violation::Resource {
                resource,
                cycle,
                used,
                limit,
            });
        }
    }
    out
}
