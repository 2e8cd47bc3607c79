//! Boards: the typed board files of `boards/*.yaml` (device, resources, clocks, memory,
//! flow, pins, HPS) and each board's operator library, which scheduling and the cost
//! model read latencies, delays, areas and unit limits from.

pub mod builtin;
pub mod load;
pub mod opclass;
pub mod oplib;
pub mod set;
pub mod types;
pub mod validate;

pub use load::BoardError;
pub use opclass::OpClass;
pub use oplib::{Area, Limits, OpCost, OpLibrary};
pub use set::BoardSet;
pub use types::Board;

impl Board {
    /// The board's operator library at its kernel clock.
    pub fn library(&self) -> OpLibrary {
        OpLibrary::from_operators(&self.name, self.period_ns(), &self.operators)
    }
}
