//! The Verilator harness: builds a kernel core (see `sim/README.md` for the interface) into
//! a simulation, places the launch's buffers in a modelled AXI memory, drives the control
//! registers, runs to DONE under a cycle limit and reads the buffers back.

pub mod binding;
pub mod desc;
pub mod exchange;
pub mod launch;
pub mod layout;
pub mod model;
pub mod plan;

pub use desc::{ArgDesc, ArgKind, CoreDesc, CounterDesc, MasterDesc, MasterId};
pub use launch::{MasterStats, MemConfig, SimArg, SimLaunch, SimOutcome, Stalls};
pub use layout::Placement;
pub use model::{SimModel, TraceFormat};
pub use plan::{plan, Plan};
