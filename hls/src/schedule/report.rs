//! Scheduling a whole kernel, block by block, with every schedule checked, and the
//! per-block summary (ops, length, critical path, ops per class) that `report.json`
//! will carry.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use crate::board::{Limits, OpClass, OpLibrary};
use crate::ir::{Block, Kernel, OpId};

use super::check::check;
use super::list::{edge_delay, preds, schedule_block, ScheduleError};
use super::timing::{block_timing, span};
use super::Schedule;

#[derive(Clone, Debug, Serialize)]
pub struct BlockReport {
    pub block: u32,
    pub ops: usize,
    /// Cycles under the library and limits.
    pub length: u32,
    /// Cycles the dependences alone need (no resource limits): the block's lower bound.
    pub critical_path: u32,
    /// Node indices of the ops on one critical path, first to last.
    pub critical_ops: Vec<u32>,
    /// How many ops of each class (wires and registers left out).
    pub classes: BTreeMap<OpClass, usize>,
}

#[derive(Clone, Debug, Serialize)]
pub struct KernelSchedule {
    pub kernel: String,
    pub library: String,
    #[serde(skip)]
    pub schedules: Vec<Schedule>,
    pub blocks: Vec<BlockReport>,
}

/// Schedules and checks every block of `kernel`; a checker violation is an error (it
/// would be a scheduler bug), so callers never see an invalid schedule.
pub fn schedule_kernel(
    kernel: &Kernel,
    lib: &OpLibrary,
    limits: &Limits,
) -> Result<KernelSchedule, ScheduleError> {
    let mut schedules = Vec::new();
    let mut blocks = Vec::new();
    for (i, block) in kernel.blocks.iter().enumerate() {
        let fail = |m: String| ScheduleError {
            message: format!("kernel `{}` block b{i}: {m}", kernel.name),
        };
        let s = schedule_block(block, lib, limits).map_err(|e| fail(e.message))?;
        let v = check(block, lib, limits, &s);
        if let Some(first) = v.first() {
            return Err(fail(format!(
                "invalid schedule ({} problems): {first}",
                v.len()
            )));
        }
        blocks.push(block_report(i as u32, block, lib, &s)?);
        schedules.push(s);
    }
    Ok(KernelSchedule {
        kernel: kernel.name.clone(),
        library: lib.name.clone(),
        schedules,
        blocks,
    })
}

fn block_report(
    index: u32,
    block: &Block,
    lib: &OpLibrary,
    s: &Schedule,
) -> Result<BlockReport, ScheduleError> {
    let free = Limits::unlimited();
    let asap = schedule_block(block, lib, &free)?;
    let mut classes = BTreeMap::new();
    for id in &block.order {
        let c = super::classify(*id, block);
        if !matches!(c, OpClass::Wire | OpClass::Register) {
            *classes.entry(c).or_default() += 1;
        }
    }
    Ok(BlockReport {
        block: index,
        ops: block.len(),
        length: s.length,
        critical_path: asap.length,
        critical_ops: critical_ops(block, lib, &free, &asap),
        classes,
    })
}

/// Walks back from the op that finishes last through operands or ordering edges that
/// are tight (the op starts exactly when that edge allows).
fn critical_ops(block: &Block, lib: &OpLibrary, limits: &Limits, s: &Schedule) -> Vec<u32> {
    let timing = block_timing(block, lib, limits);
    let end = |id: &OpId| s.cycle[id] + span(&timing[id]);
    let Some(mut at) = block
        .order
        .iter()
        .copied()
        .max_by_key(|id| (end(id), s.cycle[id]))
    else {
        return Vec::new();
    };
    let mut path = vec![at];
    let mut seen: HashMap<OpId, ()> = HashMap::new();
    while seen.insert(at, ()).is_none() {
        let tight = preds(block, at).into_iter().find(|p| {
            s.cycle[&p.op] + edge_delay(&timing[&p.op], &timing[&at], p.data) == s.cycle[&at]
        });
        match tight {
            Some(p) => {
                path.push(p.op);
                at = p.op;
            }
            None => break,
        }
    }
    path.reverse();
    path.into_iter().map(|id| id.0.index() as u32).collect()
}
