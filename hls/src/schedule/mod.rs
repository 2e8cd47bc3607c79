//! Scheduling of straight-line blocks: each op gets a start cycle in a side table
//! (`Schedule`), never a change to the IR. Ops are classified into the board's operator
//! classes, placed by a resource-constrained list scheduler that chains combinational
//! ops within the clock period, and every schedule can be validated by an independent
//! checker. A per-kernel report summarises length and critical path per block. Loop
//! bodies are modulo-scheduled (`modulo`) with their own checker (`modulo_check`).

pub mod check;
pub mod classify;
pub mod list;
pub mod loop_graph;
pub mod loops;
pub mod modulo;
pub mod modulo_check;
#[cfg(test)]
mod modulo_kernel_tests;
#[cfg(test)]
mod modulo_tests;
pub mod print;
pub mod report;
pub mod sink;
pub mod timing;

use std::collections::HashMap;

use crate::ir::OpId;

pub use check::{check, Violation};
pub use classify::{classify, shape, OpShape};
pub use list::{schedule_block, ScheduleError};
pub use loop_graph::{var_recurrences, CarriedDep, DepEdge, DepKind, LoopGraph, LoopNode};
pub use modulo::{modulo_schedule, schedule_loop_block, ModuloSchedule};
pub use modulo_check::{check_loop_block, check_modulo, ModuloViolation};
pub use report::{schedule_kernel, BlockReport, KernelSchedule};
pub use timing::{MemKey, Resource};

/// Start cycle of every op of one block; `length` is the number of cycles from the
/// block's first cycle until every op has finished (results ready, effects done).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schedule {
    pub cycle: HashMap<OpId, u32>,
    pub length: u32,
}
