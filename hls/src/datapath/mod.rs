//! The datapath and controller generator: a lowered NDRange kernel in group form becomes
//! a finite-state machine over its structured control with one register per value, wrapped
//! in the kernel core shell.

use crate::board::Board;
use crate::diag::{Diagnostic, Diagnostics, SourceMap};
use crate::ir::Kernel;
use crate::rtl::regmap::RegisterMap;
use crate::rtl::shell::ShellConfig;

/// A generated kernel core: its Verilog, the templates it needs and its register map.
#[derive(Clone, Debug)]
pub struct CoreRtl {
    /// Top module name (`KERNEL_core`).
    pub top: String,
    /// Generated Verilog files: (file name like "vadd_core.v", text), deterministic.
    pub files: Vec<(String, String)>,
    /// Template files the core instantiates (paths from rtl_templates::template).
    pub templates: Vec<std::path::PathBuf>,
    pub regmap: RegisterMap,
    /// Per-block schedule report and FSM size, serialisable into report.json.
    pub report: serde_json::Value,
}

/// Generates the kernel core for one lowered (NDRange) kernel: work-item loops, schedule,
/// datapath and controller, shell. Unsupported operations are errors naming the operation
/// or built-in and its source line.
pub fn generate(
    kernel: &Kernel,
    _sm: &SourceMap,
    _board: &Board,
    _cfg: &ShellConfig,
) -> Result<CoreRtl, Diagnostics> {
    // Interim: the signature is fixed first so the build command can be written against it.
    let mut d = Diagnostics::default();
    d.push(Diagnostic::error(
        kernel.span,
        format!("kernel {}: the datapath generator is not written yet", kernel.name),
    ));
    Err(d)
}
