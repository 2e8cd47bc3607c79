//! The `ocl-hls` command line: argument definitions and dispatch to one module per command.

mod boards;
mod build;
mod check;
mod run;
mod summary;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::frontend::preprocess::PpOptions;
use crate::frontend::Options;

const EXAMPLES: &str = "\
Examples:
  ocl-hls check kernel.cl                      check a kernel, print its summary
  ocl-hls check kernel.cl -D N=1024 -I include check with a macro and an include folder
  ocl-hls check kernel.cl --json               the same summary as JSON, for tools
  ocl-hls run kernel.cl --spec k.yaml --out o  run it in the reference interpreter
  ocl-hls build kernel.cl --board sim -o out   generate the kernel cores (Verilog) and report.json";

#[derive(Parser, Debug)]
#[command(
    name = "ocl-hls",
    version,
    about = "Compile OpenCL C kernels into FPGA hardware",
    long_about = "ocl-hls turns OpenCL C kernels into Verilog and board projects. Every kernel \
                  can be run three ways that must agree: on POCL, in the reference interpreter, \
                  and as the generated Verilog in Verilator.",
    after_help = EXAMPLES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse and check an OpenCL C file; print each kernel's parameters, attributes and loops
    #[command(after_help = EXAMPLES)]
    Check(check::CheckArgs),
    /// Run a kernel with a launch spec and write its buffers (DIR/PARAM.bin) and DIR/run.json
    #[command(after_help = RUN_EXAMPLES)]
    Run(run::RunArgs),
    /// List the target boards with their devices, resources, kernel clocks and flows
    #[command(after_help = boards::EXAMPLES)]
    Boards(boards::BoardsArgs),
    /// Compile kernels into kernel cores for a board: OUT/rtl, OUT/report.json, project
    #[command(after_help = build::EXAMPLES)]
    Build(build::BuildArgs),
}

const RUN_EXAMPLES: &str = "\
Examples:
  ocl-hls run vadd.cl --spec vadd.yaml --out out            run in the reference interpreter
  ocl-hls run k.cl --spec k.yaml --out out --check-hints    also check ivdep promises
  ocl-hls run vadd.cl --spec vadd.yaml --out out --engine sim --trace vadd.fst
                                      the generated Verilog in Verilator, cycles in run.json,
                                      and its waveform";

/// Options every command that reads OpenCL C shares.
#[derive(Args, Debug, Clone)]
pub struct SourceArgs {
    /// The OpenCL C source file
    pub file: PathBuf,
    /// Define a macro: -D NAME or -D NAME=VALUE (repeatable)
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Undefine a macro (repeatable)
    #[arg(short = 'U', value_name = "NAME")]
    pub undefine: Vec<String>,
    /// Add a folder to the `#include "..."` search path (repeatable)
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// Refuse any #include file outside DIR (for services compiling untrusted code);
    /// without it includes resolve as clang resolves them
    #[arg(long = "include-root", value_name = "DIR")]
    pub include_root: Option<PathBuf>,
}

impl SourceArgs {
    pub fn options(&self) -> Options {
        let defines = self
            .define
            .iter()
            .map(|d| match d.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (d.clone(), None),
            })
            .collect();
        Options {
            pp: PpOptions {
                defines,
                undefines: self.undefine.clone(),
                include_dirs: self.include.clone(),
                include_root: self.include_root.clone(),
            },
            ..Options::default()
        }
    }
}

/// The OpenCL floating-point build options, spelled as compilers take them
/// (`-cl-fast-relaxed-math`) or with two dashes. They reach the POCL reference
/// (`ocl-ref`) as build options; `-cl-fast-relaxed-math` defines `__FAST_RELAXED_MATH__`.
#[derive(Args, Debug, Clone, Default)]
pub struct MathArgs {
    /// -cl-fast-relaxed-math: every relaxation below, and __FAST_RELAXED_MATH__
    #[arg(long = "cl-fast-relaxed-math")]
    pub fast_relaxed: bool,
    /// -cl-unsafe-math-optimizations: reassociation allowed (implies the next two)
    #[arg(long = "cl-unsafe-math-optimizations")]
    pub unsafe_math: bool,
    /// -cl-mad-enable: a * b + c may be computed with reduced accuracy (fused)
    #[arg(long = "cl-mad-enable")]
    pub mad_enable: bool,
    /// -cl-finite-math-only: no argument or result is NaN or infinite
    #[arg(long = "cl-finite-math-only")]
    pub finite_only: bool,
    /// -cl-no-signed-zeros: the sign of a zero may be ignored
    #[arg(long = "cl-no-signed-zeros")]
    pub no_signed_zeros: bool,
}

impl MathArgs {
    pub fn flags(&self) -> crate::opt::fast_math::MathFlags {
        crate::opt::fast_math::MathFlags {
            fast_relaxed: self.fast_relaxed,
            unsafe_math: self.unsafe_math,
            mad_enable: self.mad_enable,
            finite_only: self.finite_only,
            no_signed_zeros: self.no_signed_zeros,
        }
    }

    /// `front` with the macros the options define.
    pub fn front(&self, mut front: Options) -> Options {
        front.pp.defines.extend(self.flags().defines());
        front
    }
}

/// The opt stage's weight of latency against area, taken by `build` and `run`.
#[derive(Args, Debug, Clone, Default)]
pub struct LatencyArgs {
    /// Logic units (ALMs on Intel boards, LUTs elsewhere) that one cycle on a block's
    /// critical path is worth when the opt stage chooses among equal computations: 0
    /// chooses by area alone; higher buys speed with area (default: the board's 32-bit
    /// adder, 16 on the DE10-Nano)
    #[arg(long, value_name = "UNITS", value_parser = parse_latency_weight)]
    pub latency_weight: Option<f64>,
}

/// `--latency-weight`: a finite number of logic units, zero or more.
fn parse_latency_weight(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(w) if w.is_finite() && w >= 0.0 => Ok(w),
        _ => Err(format!(
            "`{s}` is not a weight: give logic units per cycle, a number from 0 (area only) up"
        )),
    }
}

/// An argument spelled like an OpenCL build option this compiler does not take.
fn unknown_cl_option(args: &[std::ffi::OsString]) -> Option<String> {
    use crate::opt::fast_math::MathFlags;
    args.iter().filter_map(|a| a.to_str()).find_map(|s| {
        let known = MathFlags::spellings().any(|o| o == s || format!("-{o}") == s);
        (s.starts_with("-cl-") && !known).then(|| {
            let all: Vec<&str> = MathFlags::spellings().collect();
            format!(
                "unknown build option `{s}`; the floating-point options taken are {}",
                all.join(", ")
            )
        })
    })
}

/// Writes to stdout, ignoring a closed pipe (`ocl-hls check k.cl | head` must not panic).
pub(crate) fn out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}

/// Runs the command line; the process exit code is the result.
pub fn main() -> ExitCode {
    let args = crate::opt::fast_math::respell_args(std::env::args_os());
    if let Some(e) = unknown_cl_option(&args) {
        eprintln!("ocl-hls: error: {e}");
        return ExitCode::from(2);
    }
    let cli = Cli::parse_from(args);
    let code = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Run(args) => run::run(&args),
        Command::Boards(args) => boards::run(&args),
        Command::Build(args) => build::run(&args),
    };
    ExitCode::from(code)
}
