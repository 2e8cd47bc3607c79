//! RTL: the netlist the scheduler's timed datapath is lowered into, its Verilog emitter,
//! and the kernel core shell (control registers, AXI masters) around a datapath.

pub mod emit;
pub mod expr;
pub mod fold;
pub mod netlist;
pub mod regmap;
pub mod shell;

pub use emit::emit;
pub use expr::{BinOp, Const, Expr, UnOp};
pub use netlist::{InstId, Instance, Lhs, Module, NetId, ProcId, SrcLoc};

/// A netlist the emitter refuses: a compiler bug, reported with the module it is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RtlError {
    pub module: String,
    pub message: String,
}

impl RtlError {
    pub fn new(module: &str, message: impl Into<String>) -> RtlError {
        RtlError {
            module: module.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for RtlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RTL module {}: {}", self.module, self.message)
    }
}

impl std::error::Error for RtlError {}
