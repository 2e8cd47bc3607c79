//! The ideal cycle count of a launch: what a core that pipelines every innermost loop at
//! its minimum II would need, against which the simulated cycles are compared.
//!
//! Definition (over the group form, see [`DEFINITION`]):
//! - an innermost loop (no loop inside) with N iterations: `N x II + depth`;
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
//! Unroll hints are not applied (the loops are counted as written): today's generator
//! does not unroll, and an unrolled loop would change both N and the II.

use crate::board::Board;
use crate::diag::SourceMap;
use crate::ir::{Kernel, LoopId, LoopKind, Node, Region};

use super::{Analysis, LaunchValues, LoopReport};

/// The definition in one line, for tables.
pub const DEFINITION: &str = "ideal = sum over the loop nest: innermost loops N x minII + \
depth, outer loops N x (own depth + inner ideals); the work-item loops of all groups form \
one loop of all work-items (groups x body with barriers); blocks outside loops their \
schedule length";

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

/// The ideal cycles of `kernel` (NDRange form) for a launch on `board`.
pub fn ideal_cycles(
    kernel: &Kernel,
    sm: &SourceMap,
    board: &Board,
    env: &LaunchValues,
) -> Result<Ideal, String> {
    let a = Analysis::new(kernel, sm, board, env)?;
    let (Some(global), Some(local)) = (a.env.global, a.env.local) else {
        return Err("the ideal needs the launch's global and local sizes".into());
    };
    let groups: u64 = (0..3)
        .map(|d| global[d].checked_div(local[d]).unwrap_or(0))
        .product();
    let items: u64 = local.iter().product();
    let cycles = if kernel.has_barrier() {
        region(&a, &a.group.body, items, Mode::Ideal).map(|c| c.saturating_mul(groups))
    } else {
        region(&a, &a.group.body, items.saturating_mul(groups), Mode::Ideal)
    };
    let fsm_estimate =
        region(&a, &a.group.body, items, Mode::Fsm).map(|c| c.saturating_mul(groups));
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

/// `items`: the work-items a work-item loop nest runs over.
fn region(a: &Analysis, r: &Region, items: u64, m: Mode) -> Result<u64, String> {
    let block = |b| {
        let c = a.costs.block(b);
        match m {
            Mode::Ideal => c.depth,
            Mode::Fsm => c.fsm_cycles,
        }
    };
    let mut total = 0u64;
    for n in &r.0 {
        total = total.saturating_add(match n {
            Node::Block(b) => block(*b),
            Node::If {
                cond, then, els, ..
            } => block(cond.0) + region(a, then, items, m)?.max(region(a, els, items, m)?),
            Node::Loop(id) => lp(a, *id, items, m)?,
            _ => 0,
        });
    }
    Ok(total)
}

fn lp(a: &Analysis, id: LoopId, items: u64, m: Mode) -> Result<u64, String> {
    let r = a
        .report(id)
        .ok_or_else(|| format!("internal: loop L{} was not analysed", id.0))?;
    let shape = a
        .shapes
        .iter()
        .find(|s| s.id == id)
        .ok_or_else(|| format!("internal: loop L{} has no shape", id.0))?;
    // A work-item nest: go down to its innermost work-item loop; N is all its items.
    let (inner_id, n) = if let (Some(d), Mode::Fsm) = (shape.work_item_dim, m) {
        // The generator runs every loop of the nest with its own control states.
        let n = a
            .env
            .local
            .map(|l| l[d])
            .ok_or("the local size is unknown")?;
        (id, n)
    } else if shape.work_item_dim.is_some() {
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
        (at.id, items)
    } else {
        let n = match a.group.lp(id).kind {
            LoopKind::Once => 1,
            _ => r.trip_count.ok_or_else(|| {
                format!(
                    "the trip count of the {} at {} is unknown",
                    r.name, r.location
                )
            })?,
        };
        (id, n)
    };
    let ir = a
        .report(inner_id)
        .ok_or_else(|| format!("internal: loop L{} was not analysed", inner_id.0))?;
    if let (Some(ii), Mode::Ideal) = (ir.min_ii, m) {
        return Ok(n.saturating_mul(ii as u64).saturating_add(ir.depth));
    }
    let l = a.group.lp(inner_id);
    // Own blocks (with the generator's control states in FSM mode) plus inner loops.
    let mut per = match m {
        Mode::Ideal => l.cond.map(|(b, _)| a.costs.block(b).depth).unwrap_or(0),
        Mode::Fsm => ir.fsm_cycles_per_iteration,
    };
    let inner = |r: &Region| -> Result<u64, String> {
        match m {
            Mode::Ideal => region(a, r, items, m),
            Mode::Fsm => inner_loops(a, r, items),
        }
    };
    per = per.saturating_add(inner(&l.body)?);
    per = per.saturating_add(inner(&l.latch)?);
    Ok(n.saturating_mul(per))
}

/// FSM cycles of the loops nested in `r` (its own blocks are already in the loop's
/// per-iteration FSM cycles).
fn inner_loops(a: &Analysis, r: &Region, items: u64) -> Result<u64, String> {
    let mut total = 0u64;
    for n in &r.0 {
        total = total.saturating_add(match n {
            Node::Loop(id) => lp(a, *id, items, Mode::Fsm)?,
            Node::If { then, els, .. } => {
                inner_loops(a, then, items)?.max(inner_loops(a, els, items)?)
            }
            _ => 0,
        });
    }
    Ok(total)
}
