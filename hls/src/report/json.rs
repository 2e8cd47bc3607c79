//! The structure of `report.json`: what was built from what, with which tool and command,
//! for which board, and per kernel its interface (parameters, attributes, register map),
//! its loop hints and the datapath generator's schedule report, and the resource and
//! timing estimates.

use serde::Serialize;

use crate::board::types::{Device, Flow, Memory, Resources};
use crate::board::Board;
use crate::frontend::sema::summary::{KernelAttrs, LoopInfo, ParamInfo};
use crate::rtl::regmap::RegisterMap;
use crate::rtl::shell::ShellConfig;

/// Bumped when a field changes meaning, so tools reading reports can tell.
pub const FORMAT_VERSION: u32 = 1;

#[derive(Clone, Debug, Serialize)]
pub struct BuildReport {
    pub format: u32,
    pub tool: Tool,
    /// The command line exactly as given (program name first).
    pub command: Vec<String>,
    /// The OpenCL C file as named on the command line.
    pub source: String,
    pub board: BoardReport,
    /// The AXI bus the cores were generated for.
    pub bus: Bus,
    pub kernels: Vec<KernelReport>,
    /// Yosys resource estimates per core and in total, against the board (and nextpnr's
    /// fmax on ECP5 boards); says "skipped" or "not run" (with how to install Yosys)
    /// when there are none.
    pub estimates: crate::estimate::Estimates,
}

#[derive(Clone, Debug, Serialize)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

impl Tool {
    pub fn this() -> Tool {
        Tool {
            name: "ocl-hls".into(),
            version: env!("CARGO_PKG_VERSION").into(),
        }
    }
}

/// The board facts a reader of the report needs (the operator library is left out: it
/// is in the board file, and the schedule report carries the latencies used).
#[derive(Clone, Debug, Serialize)]
pub struct BoardReport {
    pub name: String,
    pub description: String,
    pub device: Option<Device>,
    pub resources: Option<Resources>,
    pub kernel_clock_mhz: f64,
    pub memory: Memory,
    pub flow: Flow,
}

impl BoardReport {
    pub fn of(b: &Board) -> BoardReport {
        BoardReport {
            name: b.name.clone(),
            description: b.description.clone(),
            device: b.device.clone(),
            resources: b.resources.clone(),
            kernel_clock_mhz: b.kernel_clock_mhz,
            memory: b.memory.clone(),
            flow: b.flow.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bus {
    pub data_width: u32,
    pub addr_width: u32,
    pub max_burst: u32,
    pub max_outstanding: u32,
    pub local_max_bytes: u64,
}

impl Bus {
    pub fn of(c: &ShellConfig) -> Bus {
        Bus {
            data_width: c.data_width,
            addr_width: c.addr_width,
            max_burst: c.max_burst,
            max_outstanding: c.max_outstanding,
            local_max_bytes: c.local_max_bytes,
        }
    }
}

/// A float accumulator split into partial sums (`opt/reassociate.rs`).
#[derive(Clone, Debug, Serialize)]
pub struct SumSplit {
    /// The variable's name in the source.
    pub var: String,
    /// `file:line:col` of the accumulating add.
    pub location: String,
    pub partials: u32,
}

/// What the opt stage did (`--explain-rewrites` prints each rewrite; times are left out
/// so that equal builds give equal reports).
#[derive(Clone, Debug, Serialize)]
pub struct OptSummary {
    /// False under `--no-opt`.
    pub enabled: bool,
    /// Logic units one cycle on a block's critical path was worth (`--latency-weight`).
    pub latency_weight: f64,
    /// Blocks with a pure region, and those replaced by a cheaper choice.
    pub blocks: usize,
    pub blocks_rewritten: usize,
    /// Roots whose expression changed, values forwarded, dead ops removed, divisions by
    /// a constant made multiplies by its reciprocal.
    pub rewrites: usize,
    pub forwarded: usize,
    pub removed: usize,
    pub reciprocals: usize,
    /// Truncations pushed below the arithmetic only they read.
    pub truncations: usize,
    /// Compares with a constant lowered to bit tests.
    pub bit_tests: usize,
    /// Late accesses given their own copy of an earlier access's address.
    pub readdressed: usize,
    /// The datapath's ops priced by the board's operator library, before and after.
    pub before: crate::opt::cost::Price,
    pub after: crate::opt::cost::Price,
    /// Why saturation stopped, per block.
    pub stops: std::collections::BTreeMap<String, usize>,
}

impl OptSummary {
    pub fn of(r: &crate::opt::OptReport) -> OptSummary {
        OptSummary {
            enabled: !r.disabled,
            latency_weight: r.latency_weight,
            blocks: r.regions,
            blocks_rewritten: r.replaced,
            rewrites: r.rewrites.len(),
            forwarded: r.forwarded,
            removed: r.removed,
            reciprocals: r.reciprocals,
            truncations: r.truncations,
            bit_tests: r.bit_tests,
            readdressed: r.readdressed,
            before: r.before,
            after: r.after,
            stops: r.stops.clone(),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct KernelReport {
    pub name: String,
    /// `file:line:col` of the kernel's name.
    pub location: String,
    /// The core's top module.
    pub top: String,
    /// The core's own files in `rtl/`.
    pub files: Vec<String>,
    /// The template files in `rtl/` it instantiates, sorted.
    pub templates: Vec<String>,
    pub params: Vec<ParamInfo>,
    pub attributes: KernelAttrs,
    /// Every loop with its hints (unroll, ivdep, pipeline), in source order.
    pub loops: Vec<LoopInfo>,
    /// Per loop of the group form (work-item loops included): trip count, minimum II on
    /// the board with its reason, pipeline depth, and today's FSM cycles per iteration.
    pub loop_analysis: Vec<crate::analysis::LoopReport>,
    /// What the `loops` stage did: per source loop the unroll factor asked for and
    /// applied (and why they differ), the private arrays now in registers (and those
    /// kept in memory, with why), the `__constant` tables whose loads became constants.
    pub loop_transforms: Option<crate::loops::LoopsReport>,
    /// Float accumulators split into interleaved partial sums, which the build options
    /// allow (`-cl-unsafe-math-optimizations`, `-cl-fast-relaxed-math`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reassociated: Vec<SumSplit>,
    /// `file:line:col` of each multiply-add on a loop recurrence fused into an fma, which
    /// the build options allow (`-cl-mad-enable` or the options implying it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub contracted: Vec<String>,
    /// The opt stage's rewrites in numbers (absent for the stub datapath).
    pub opt: Option<OptSummary>,
    /// Work-items per cycle (SIMD lanes): how many, asked by the source or chosen by the
    /// tool, and why; absent when nothing asked for lanes and the tool chose none.
    pub lanes: Option<crate::workitems::lanes::Lanes>,
    /// Per on-chip memory (arrays, `__local` arguments, private arrays kept in RAM,
    /// `__constant` tables): word, depth, replicas, ports, bits, an M10K estimate, and
    /// the pipelined loops whose II its ports bound.
    pub memories: Vec<crate::analysis::MemoryReport>,
    /// Every multi-cycle unit instance (dividers, float units, math functions) and the
    /// ops bound to it.
    pub units: Vec<crate::bind::UnitReport>,
    pub register_map: RegisterMap,
    /// The datapath generator's per-block schedule and FSM report, as it gives it.
    pub schedule: serde_json::Value,
}

impl BuildReport {
    /// Pretty JSON with a final newline; deterministic for equal reports.
    pub fn to_text(&self) -> Result<String, String> {
        serde_json::to_string_pretty(self)
            .map(|s| s + "\n")
            .map_err(|e| format!("cannot write report.json: {e}"))
    }
}
