//! `ocl-hls run`: runs a kernel with a launch spec and writes its buffers and `run.json`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::SourceArgs;
use crate::engine::{self, Engine, RunOptions};
use crate::launch::output::check_out_dir;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum EngineArg {
    /// The reference interpreter
    Interp,
    /// The generated core in Verilator (the `sim` board)
    Sim,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// The launch spec (YAML; see the README for the format)
    #[arg(long, value_name = "FILE.yaml")]
    pub spec: PathBuf,
    /// Folder for PARAM.bin per buffer and run.json; written all or nothing
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// What runs the kernel
    #[arg(long, value_enum, default_value = "interp")]
    pub engine: EngineArg,
    /// Check ivdep promises while running and report the first broken one
    #[arg(long)]
    pub check_hints: bool,
    /// With --engine sim: write the core's waveform here (FST for .fst, else VCD; the
    /// first traced run builds a traced model)
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Stop at a read of never-written private memory (by default: a warning, and the
    /// interpreter reads zero bytes)
    #[arg(long)]
    pub strict: bool,
    /// With --engine sim: compile the Verilator model without C++ optimization, about
    /// half the build time for a slower simulation (for short launches, as in CI)
    #[arg(long)]
    pub quick_model: bool,
    /// Without the opt stage: the simulated core is generated as by `build --no-opt`, and
    /// the interpreter leaves out the rewrites the float options allow (-cl-fast-relaxed-math
    /// and -cl-unsafe-math-optimizations divide by constants as multiplies otherwise)
    #[arg(long)]
    pub no_opt: bool,
    #[command(flatten)]
    pub latency: super::LatencyArgs,
    #[command(flatten)]
    pub math: super::MathArgs,
}

/// Exit code 0 on success, 1 on any error (nothing is written then).
pub fn run(args: &RunArgs) -> u8 {
    // Refuse an unusable output folder before spending time on the run.
    if let Err(e) = check_out_dir(&args.out) {
        eprintln!("ocl-hls: error: {e}");
        return 1;
    }
    if args.trace.is_some() && !matches!(args.engine, EngineArg::Sim) {
        eprintln!("ocl-hls: error: --trace needs --engine sim (the interpreter has no waveform)");
        return 1;
    }
    if args.quick_model && !matches!(args.engine, EngineArg::Sim) {
        eprintln!("ocl-hls: error: --quick-model needs --engine sim (it is how the Verilator model is compiled)");
        return 1;
    }
    let opts = RunOptions {
        engine: match args.engine {
            EngineArg::Interp => Engine::Interp,
            EngineArg::Sim => Engine::Sim,
        },
        front: args.math.front(args.source.options()),
        check_hints: args.check_hints,
        trace: args.trace.clone(),
        strict: args.strict,
        quick_model: args.quick_model,
        opt: crate::opt::Options {
            enabled: !args.no_opt,
            math: args.math.flags(),
            latency_weight: args.latency.latency_weight,
            ..crate::opt::Options::default()
        },
        ..RunOptions::default()
    };
    let result = match engine::run_file(&args.source.file, &args.spec, &opts) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{}", e.message.trim_end());
            if !e.message.contains("error:") {
                eprintln!("ocl-hls: error: the run stopped; nothing was written");
            }
            return 1;
        }
    };
    for w in &result.warnings {
        eprintln!("{}", w.trim_end());
    }
    match engine::write_outputs(&args.out, &result) {
        Ok(files) => {
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            let mut text = format!(
                "ran {} on {}: {} work-items, global {:?}, local {:?}\n",
                result.record.kernel,
                result.record.engine,
                result.work_items,
                result.record.global,
                result.record.local,
            );
            if let Some(c) = result.record.cycles {
                text.push_str(&format!("  {c} cycles from START to DONE\n"));
            }
            for l in &result.record.loops {
                text.push_str(&format!(
                    "  L{} {}{} at {}: II {} built, {:.2} run, {:.2} achieved with stalls; {} iterations in {} cycles \
                     ({:.2} per iteration, {} stalled)\n",
                    l.lp,
                    l.name,
                    l.unroll
                        .map_or(String::new(), |f| format!(" (unrolled x{f})")),
                    l.location,
                    l.ii,
                    l.unstalled_ii,
                    l.achieved_ii,
                    l.iterations,
                    l.cycles,
                    l.cycles_per_iteration,
                    l.stall_cycles
                ));
            }
            text.push_str(&format!("wrote {}\n", names.join(", ")));
            super::out(&text);
            0
        }
        Err(e) => {
            eprintln!("ocl-hls: error: {e}");
            1
        }
    }
}
