//! `ocl-hls build`: compiles every kernel of a file (or the one named) into a kernel core
//! for a board and writes OUT (`rtl/`, `report.json`, the board project) all or nothing.

use std::path::PathBuf;

use clap::Args;

use super::SourceArgs;
use crate::board::{Board, BoardSet};
use crate::compile::{self, Compiled};
use crate::datapath::CoreRtl;
use crate::diag::{render, Diagnostic, Diagnostics, SourceMap};
use crate::estimate::{self, CoreInput, CoreSource, Estimates};
use crate::frontend::check_file;
use crate::ir::Kernel;
use crate::project::{self, CoreFiles, MARKER};
use crate::report::{self, BoardReport, BuildReport, Bus, KernelReport, Tool};
use crate::rtl::shell::ShellConfig;

pub const EXAMPLES: &str = "\
Examples:
  ocl-hls build vadd.cl --board sim -o out         cores for Verilator: out/rtl, out/report.json
  ocl-hls build vadd.cl --board de10 -o out        also out/quartus (DE10-Nano Quartus project;
                                                   compiled when quartus_sh is on PATH)
  ocl-hls build k.cl --board sim -o out --kernel k2 -D N=64   one kernel, with a macro
  ocl-hls build k.cl --board de10 -o out --explain-rewrites   the datapath rewrites kept
  ocl-hls build k.cl --board de10 -o out --no-opt             without the opt stage
  ocl-hls build k.cl --board de10 -o out --latency-weight 0    datapath chosen by area alone

OUT is written all or nothing; an existing OUT is replaced only when it holds an earlier
build's report.json (or is empty).";

#[derive(Args, Debug)]
pub struct BuildArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Target board, by name or alias (see `ocl-hls boards`)
    #[arg(long, value_name = "BOARD")]
    pub board: String,
    /// Output folder (rtl/, report.json, and the board project); written all or nothing
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    pub out: PathBuf,
    /// Build only this kernel (default: every kernel in the file)
    #[arg(long, value_name = "NAME")]
    pub kernel: Option<String>,
    /// Use the shell's stub datapath (no work, done after start) instead of the
    /// generator: for testing the output folder and the board project
    #[arg(long, hide = true)]
    pub stub_datapath: bool,
    /// Skip the Yosys resource estimates (and nextpnr's fmax on ECP5 boards)
    #[arg(long)]
    pub no_estimate: bool,
    /// Write the output even when the estimates say the design does not fit the device
    #[arg(long)]
    pub allow_overfit: bool,
    /// Do not run Quartus even when it is on PATH (the commands are printed instead)
    #[arg(long)]
    pub no_vendor: bool,
    /// Turn the opt stage off (no e-graph rewrites or bit-width narrowing of the datapath)
    #[arg(long)]
    pub no_opt: bool,
    /// Print the rewrites the opt stage kept: per block the rules that applied, per
    /// changed value its source line, the expression before and after, and the saving
    #[arg(long)]
    pub explain_rewrites: bool,
    #[command(flatten)]
    pub latency: super::LatencyArgs,
    #[command(flatten)]
    pub math: super::MathArgs,
}

fn fail(message: &str) -> u8 {
    eprintln!("ocl-hls: error: {message}");
    1
}

fn stage(what: &str) {
    eprintln!("ocl-hls: {what}");
}

fn print_diags(sm: &SourceMap, d: &Diagnostics) {
    for x in &d.list {
        eprint!("{}", render(sm, x));
    }
}

/// Exit code 0 on success, 1 on any error (OUT is untouched then).
pub fn run(args: &BuildArgs) -> u8 {
    // Refuse an unusable OUT before spending time.
    if let Err(e) = project::check_out_dir(&args.out, MARKER) {
        return fail(&e);
    }
    let boards = match BoardSet::builtin() {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                eprintln!("{e}");
            }
            return 1;
        }
    };
    let board = match boards.resolve(&args.board) {
        Ok(b) => b,
        Err(e) => return fail(&e),
    };
    let file = &args.source.file;
    stage(&format!("checking {}", file.display()));
    let checked = check_file(file, &args.math.front(args.source.options()));
    print_diags(&checked.sources, &checked.diags);
    let program = match (&checked.program, checked.has_errors()) {
        (Some(p), false) => p,
        _ => return fail("the source has errors; nothing was written"),
    };
    stage("lowering");
    let module = match compile::lower(program, &checked.sources) {
        Ok(m) => m,
        Err(d) => {
            print_diags(&checked.sources, &d);
            return fail("lowering failed; nothing was written");
        }
    };
    let kernels: Vec<&Kernel> = match &args.kernel {
        Some(name) => match module.kernels.iter().find(|k| &k.name == name) {
            Some(k) => vec![k],
            None => {
                let names: Vec<&str> = module.kernels.iter().map(|k| k.name.as_str()).collect();
                return fail(&format!(
                    "no kernel `{name}` in {}; kernels: {}",
                    file.display(),
                    names.join(", ")
                ));
            }
        },
        None => module.kernels.iter().collect(),
    };
    if kernels.is_empty() {
        return fail(&format!(
            "{} has no kernel; nothing was written",
            file.display()
        ));
    }
    let cfg = project::shell_config_for(board);
    let opt_options = crate::opt::Options {
        enabled: !args.no_opt,
        math: args.math.flags(),
        latency_weight: args.latency.latency_weight,
        ..crate::opt::Options::default()
    };
    let mut cores = Vec::new();
    let mut errors = Diagnostics::default();
    for k in &kernels {
        stage(&format!("generating kernel {} for {}", k.name, board.name));
        let built = if args.stub_datapath {
            stub_generate(k, &cfg).map(Built::Stub)
        } else {
            compile::compile_opt(k, &checked.sources, board, &cfg, &opt_options)
                .map(|c| Built::Compiled(Box::new(c)))
        };
        match built {
            Ok(c) => cores.push((*k, c)),
            Err(d) => errors.extend(d),
        }
    }
    if errors.has_errors() {
        print_diags(&checked.sources, &errors);
        return fail("a kernel cannot be built; nothing was written");
    }
    if args.explain_rewrites {
        for (_, b) in &cores {
            match b.compiled() {
                Some(c) => super::out(&crate::opt::explain::render(&c.opt, &checked.sources)),
                None => super::out("opt: the stub datapath has no opt stage\n"),
            }
        }
    }
    let estimates = estimate_cores(args, board, &cores);
    if let Some(e) = estimates.overfit_error(&board.name) {
        if !args.allow_overfit {
            // Lanes the tool added multiply the datapath: say which, and how to drop them.
            let chosen: Vec<String> = cores
                .iter()
                .filter_map(|(_, b)| {
                    let c = b.compiled()?;
                    let l = c.group.lanes.as_ref()?;
                    (l.from == crate::workitems::lanes::From::Tool).then(|| {
                        format!(
                            "; kernel {} has {} lanes the tool chose \
                             (__attribute__((num_simd_work_items(1))) keeps one)",
                            c.kernel.name, l.n
                        )
                    })
                })
                .collect();
            return fail(&format!("{e}{}; nothing was written", chosen.concat()));
        }
        stage("warning: the design does not fit the device; writing it (--allow-overfit)");
    }
    let report = match build_report(
        args,
        board,
        &cfg,
        &program.kernels,
        &checked.sources,
        &cores,
        estimates,
    ) {
        Ok(r) => r,
        Err(e) => return fail(&e),
    };
    stage(&format!("writing {}", args.out.display()));
    let result = report.to_text().and_then(|json| {
        let files: Vec<CoreFiles> = cores
            .iter()
            .map(|(k, b)| {
                let c = b.core();
                CoreFiles {
                    kernel: k,
                    regmap: &c.regmap,
                    top: &c.top,
                    files: &c.files,
                    templates: &c.templates,
                }
            })
            .collect();
        let mut tree = project::assemble(board, &project::project_name(file), &files, &json)?;
        let compiled: Vec<(&Kernel, &Compiled)> = cores
            .iter()
            .filter_map(|(k, b)| Some((*k, b.compiled()?)))
            .collect();
        let html = report::html::render(&report, &compiled, &checked.sources);
        tree.add("report.html", html)?;
        project::write_tree(&args.out, &tree, MARKER)
    });
    match result {
        Ok(()) => {
            super::out(&report::summary(&report, &args.out));
            let project = project::project_name(file);
            let mut err = std::io::stderr();
            let vendor = project::vendor::after_build(
                &args.out,
                &project,
                board.kernel_clock_mhz,
                args.no_vendor,
                &mut err,
            );
            match vendor {
                Ok(()) => 0,
                Err(e) => fail(&format!(
                    "vendor flow: {e} (the project in OUT is complete)"
                )),
            }
        }
        Err(e) => fail(&format!("{e}; nothing was written")),
    }
}

fn build_report(
    args: &BuildArgs,
    board: &Board,
    cfg: &ShellConfig,
    infos: &[crate::frontend::sema::summary::KernelInfo],
    sm: &SourceMap,
    cores: &[(&Kernel, Built)],
    estimates: Estimates,
) -> Result<BuildReport, String> {
    let mut kernels = Vec::new();
    for (k, b) in cores {
        let c = b.core();
        let info = infos.iter().find(|i| i.name == k.name);
        let templates = c
            .templates
            .iter()
            .map(|t| project::template_name(t))
            .collect::<Result<Vec<_>, _>>()?;
        let mut templates = templates;
        templates.sort();
        let loop_analysis = b.compiled().map(|x| x.loops.clone()).unwrap_or_default();
        kernels.push(KernelReport {
            name: k.name.clone(),
            location: info
                .map(|i| i.location.clone())
                .unwrap_or_else(|| sm.location(k.span)),
            top: c.top.clone(),
            files: c.files.iter().map(|(n, _)| n.clone()).collect(),
            templates,
            params: info.map(|i| i.params.clone()).unwrap_or_default(),
            attributes: info.map(|i| i.attrs.clone()).unwrap_or_default(),
            loops: info.map(|i| i.loops.clone()).unwrap_or_default(),
            loop_analysis,
            loop_transforms: b.compiled().map(|x| x.unroll.clone()),
            reassociated: b
                .compiled()
                .map(|x| {
                    x.relax
                        .interleaved
                        .iter()
                        .map(|i| report::json::SumSplit {
                            var: i.var.clone(),
                            location: sm.location(i.span),
                            partials: i.partials,
                        })
                        .collect()
                })
                .unwrap_or_default(),
            contracted: b
                .compiled()
                .map(|x| x.relax.contracted.iter().map(|s| sm.location(*s)).collect())
                .unwrap_or_default(),
            opt: b.compiled().map(|x| report::json::OptSummary::of(&x.opt)),
            lanes: b.compiled().and_then(|x| x.group.lanes.clone()),
            memories: b.compiled().map(|x| x.memories.clone()).unwrap_or_default(),
            units: b
                .compiled()
                .map(|x| x.binding.report(&x.group.kernel, sm))
                .unwrap_or_default(),
            register_map: c.regmap.clone(),
            schedule: c.report.clone(),
        });
    }
    Ok(BuildReport {
        format: report::json::FORMAT_VERSION,
        tool: Tool::this(),
        command: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        source: args.source.file.display().to_string(),
        board: BoardReport::of(board),
        bus: Bus::of(cfg),
        kernels,
        estimates,
    })
}

/// Yosys (and on ECP5 boards nextpnr) estimates of the cores, unless `--no-estimate`.
fn estimate_cores(args: &BuildArgs, board: &Board, cores: &[(&Kernel, Built)]) -> Estimates {
    if args.no_estimate {
        return Estimates::skipped();
    }
    let inputs: Vec<CoreInput> = cores
        .iter()
        .map(|(k, b)| {
            let c = b.core();
            CoreInput {
                kernel: &k.name,
                source: CoreSource {
                    top: &c.top,
                    files: &c.files,
                    templates: &c.templates,
                },
            }
        })
        .collect();
    estimate::run(board, &inputs, &mut std::io::stderr())
}

/// One kernel's build: the whole pipeline's result, or the stub core (`--stub-datapath`).
enum Built {
    Compiled(Box<Compiled>),
    Stub(CoreRtl),
}

impl Built {
    fn core(&self) -> &CoreRtl {
        match self {
            Built::Compiled(c) => &c.core,
            Built::Stub(c) => c,
        }
    }

    fn compiled(&self) -> Option<&Compiled> {
        match self {
            Built::Compiled(c) => Some(c),
            Built::Stub(_) => None,
        }
    }
}

/// A core around the shell's stub datapath, in the generator's shape.
fn stub_generate(k: &Kernel, cfg: &ShellConfig) -> Result<CoreRtl, Diagnostics> {
    let refuse = |message: String| {
        let mut d = Diagnostics::default();
        d.push(Diagnostic::error(k.span, message));
        d
    };
    let core = crate::rtl::shell::stub_core(k, cfg)
        .map_err(|e| refuse(format!("kernel {}: {e}", k.name)))?;
    let files = core
        .emit()
        .map_err(|e| refuse(format!("kernel {}: {e}", k.name)))?;
    let templates = core
        .templates()
        .map_err(|e| refuse(format!("kernel {}: {e}", k.name)))?;
    Ok(CoreRtl {
        top: core.top.name.clone(),
        files,
        templates,
        regmap: core.regmap,
        report: serde_json::json!({ "datapath": "stub" }),
    })
}
