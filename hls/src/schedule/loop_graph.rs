//! A loop body as the modulo scheduler and its checker see it: ops with their timing on
//! the board library, and dependence edges, each with the cycles it demands and the
//! number of iterations it crosses (0 within an iteration). Built from one block plus its
//! loop-carried dependences, or by the loop analysis from a multi-block iteration
//! (`analysis::mii::Iteration::graph`), so both share the same dependence facts. Also the
//! two lower bounds on the II: ResMII and RecMII (exact, over every cycle of the graph).

use std::collections::BTreeMap;
use std::fmt;

use crate::board::{Limits, OpLibrary};
use crate::ir::{Block, OpId, OpKind};

use super::list::{capacity, edge_delay, preds, ScheduleError};
use super::timing::{block_timing, OpTiming, Resource};

/// How a dependence constrains its target beyond the cycle count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepKind {
    /// The target uses the source's value: when the source is combinational (latency 0)
    /// and the target starts in the same absolute cycle, the two chain within the clock
    /// period (a variable written by one iteration and read by a later one in the same
    /// cycle is forwarded, so it chains too).
    Data,
    /// Only ordering (memory, variable write-after-read): never chains.
    Order,
}

/// `to` of iteration `i + distance` starts at least `delay` cycles after `from` of
/// iteration `i` starts: `t[to] + distance * II >= t[from] + delay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DepEdge {
    pub from: usize,
    pub to: usize,
    pub delay: u32,
    pub distance: u32,
    pub kind: DepKind,
}

/// One op of the body.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopNode<K> {
    /// How the caller names the op (an `OpId` of the body block, or `(BlockId, OpId)`).
    pub key: K,
    pub timing: OpTiming,
}

/// The loop body: nodes in program order (intra-iteration edges go forward) and every
/// dependence edge.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopGraph<K> {
    pub nodes: Vec<LoopNode<K>>,
    pub edges: Vec<DepEdge>,
}

/// A loop-carried dependence of a one-block body, as the caller's analysis found it:
/// `to` of iteration `i + distance` (`distance >= 1`) waits `latency` cycles after `from`
/// of iteration `i` starts. Variable recurrences are `Data` with the write's latency
/// (see [`var_recurrences`]); memory dependences are `Order` with
/// [`super::timing::order_gap`] as latency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CarriedDep {
    pub from: OpId,
    pub to: OpId,
    pub distance: u32,
    pub latency: u32,
    pub kind: DepKind,
}

impl LoopGraph<OpId> {
    /// The graph of a one-block loop body: the block's data and order edges with the
    /// list scheduler's delays, plus `carried`. Fails on a carried dependence that names
    /// an op outside the block or has distance 0.
    pub fn from_block(
        block: &Block,
        carried: &[CarriedDep],
        lib: &OpLibrary,
        limits: &Limits,
    ) -> Result<LoopGraph<OpId>, ScheduleError> {
        let mut timing = block_timing(block, lib, limits);
        let index: std::collections::HashMap<OpId, usize> = block
            .order
            .iter()
            .enumerate()
            .map(|(i, &id)| (id, i))
            .collect();
        let nodes: Vec<LoopNode<OpId>> = block
            .order
            .iter()
            .map(|&id| LoopNode {
                key: id,
                timing: timing.remove(&id).unwrap_or_else(|| unreachable!()),
            })
            .collect();
        let mut edges = Vec::new();
        for (i, &id) in block.order.iter().enumerate() {
            for p in preds(block, id) {
                let j = index[&p.op];
                edges.push(DepEdge {
                    from: j,
                    to: i,
                    delay: edge_delay(&nodes[j].timing, &nodes[i].timing, p.data),
                    distance: 0,
                    kind: if p.data {
                        DepKind::Data
                    } else {
                        DepKind::Order
                    },
                });
            }
        }
        for c in carried {
            let (Some(&from), Some(&to)) = (index.get(&c.from), index.get(&c.to)) else {
                return Err(ScheduleError {
                    message: format!(
                        "carried dependence {} -> {} names an op outside the loop body",
                        c.from.0.index(),
                        c.to.0.index()
                    ),
                });
            };
            if c.distance == 0 {
                return Err(ScheduleError {
                    message: format!(
                        "carried dependence {} -> {} has distance 0",
                        c.from.0.index(),
                        c.to.0.index()
                    ),
                });
            }
            edges.push(DepEdge {
                from,
                to,
                delay: c.latency,
                distance: c.distance,
                kind: c.kind,
            });
        }
        Ok(LoopGraph { nodes, edges })
    }
}

/// The variable recurrences of a one-block body: every write of a variable to each read
/// of it that comes before the block's first write (distance 1, the write's latency).
pub fn var_recurrences(block: &Block, lib: &OpLibrary, limits: &Limits) -> Vec<CarriedDep> {
    let timing = block_timing(block, lib, limits);
    let mut written = std::collections::HashSet::new();
    let mut reads = Vec::new();
    for &id in &block.order {
        match block.op(id).kind {
            OpKind::ReadVar(v) if !written.contains(&v) => reads.push((id, v)),
            OpKind::WriteVar(v) => {
                written.insert(v);
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (r, v) in reads {
        for &w in &block.order {
            if matches!(block.op(w).kind, OpKind::WriteVar(x) if x == v) {
                out.push(CarriedDep {
                    from: w,
                    to: r,
                    distance: 1,
                    latency: timing[&w].latency,
                    kind: DepKind::Data,
                });
            }
        }
    }
    out
}

/// Why no II exists at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unschedulable {
    /// An op needs more units of a resource at once than the board has.
    Capacity { node: usize, resource: Resource },
    /// A cycle of dependences within one iteration.
    ZeroDistanceCycle,
}

impl fmt::Display for Unschedulable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unschedulable::Capacity { node, resource } => write!(
                f,
                "op #{node} needs more {resource} at once than the board has"
            ),
            Unschedulable::ZeroDistanceCycle => {
                f.write_str("the dependences within one iteration form a cycle")
            }
        }
    }
}

impl<K> LoopGraph<K> {
    /// ResMII: per limited resource, the unit-cycles one iteration holds it over the
    /// units available.
    pub fn res_mii(&self, limits: &Limits) -> Result<u32, Unschedulable> {
        let mut use_: BTreeMap<Resource, u64> = BTreeMap::new();
        for (i, n) in self.nodes.iter().enumerate() {
            for d in &n.timing.demands {
                let cap = capacity(d.resource, limits);
                if d.units > cap {
                    return Err(Unschedulable::Capacity {
                        node: i,
                        resource: d.resource,
                    });
                }
                *use_.entry(d.resource).or_default() += d.units as u64 * d.cycles as u64;
            }
        }
        Ok(use_
            .into_iter()
            .filter_map(|(r, c)| {
                let cap = capacity(r, limits);
                (cap != u32::MAX && cap > 0).then(|| c.div_ceil(cap as u64))
            })
            .max()
            .unwrap_or(1)
            .clamp(1, u32::MAX as u64) as u32)
    }

    /// Whether the dependences alone allow `ii`: no cycle whose delays exceed its
    /// distance times `ii` (Bellman-Ford on `delay - distance * ii`, longest paths).
    pub fn dependences_allow(&self, ii: u32) -> bool {
        let n = self.nodes.len();
        let mut dist = vec![0i64; n];
        for _ in 0..=n {
            let mut changed = false;
            for e in &self.edges {
                let w = e.delay as i64 - e.distance as i64 * ii as i64;
                if dist[e.from] + w > dist[e.to] {
                    dist[e.to] = dist[e.from] + w;
                    changed = true;
                }
            }
            if !changed {
                return true;
            }
        }
        false
    }

    /// RecMII: the least II the dependence cycles allow (1 without any).
    pub fn rec_mii(&self) -> Result<u32, Unschedulable> {
        // Every cycle crosses at least one iteration, so the sum of all delays is enough.
        let total: u64 = self.edges.iter().map(|e| e.delay as u64).sum::<u64>() + 1;
        let hi0 = total.min(u32::MAX as u64) as u32;
        if !self.dependences_allow(hi0) {
            return Err(Unschedulable::ZeroDistanceCycle);
        }
        let (mut lo, mut hi) = (1u32, hi0);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.dependences_allow(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Ok(lo)
    }

    /// max(ResMII, RecMII).
    pub fn mii(&self, limits: &Limits) -> Result<u32, Unschedulable> {
        Ok(self.res_mii(limits)?.max(self.rec_mii()?))
    }
}
