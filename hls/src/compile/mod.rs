//! The compile pipeline: the one place that lists the middle- and back-end stages in order
//! and runs each once per kernel, with the IR verifier after every IR stage in debug
//! builds and tests (the shape of Cranelift's `Context::optimize` and Calyx's pass list).
//!
//! ```text
//! lower (per program) -> relax -> mathlib -> workitems -> loops -> opt -> memory
//!                     -> schedule -> modulo -> pipeline -> bind -> datapath -> shell
//!                     -> analysis
//! ```
//!
//! `loops` runs before `opt` (DESIGN.md lists it after): `opt`'s constant folding then
//! cleans the unrolled copies. Every stage's result is a typed value kept in [`Compiled`]; `build`,
//! `run --engine sim`, the loop analysis, `report.json` and `report.html` read it, and no
//! stage runs an earlier one again or reads another's results back from JSON.

mod timing;

use crate::analysis::{self, LoopReport};
use crate::bind::{self, Binding};
use crate::board::Board;
use crate::datapath::{self, CoreRtl};
use crate::diag::{Diagnostic, Diagnostics, SourceMap};
use crate::frontend::sema::Program;
use crate::ir::{self, Kernel, Module};
use crate::rtl::shell::ShellConfig;
use crate::schedule::loops::LoopSchedules;
use crate::schedule::{self, KernelSchedule};
use crate::workitems::{self, GroupForm};

pub use timing::{Stage, StageTimes};

/// Everything the pipeline decided for one kernel, stage by stage.
pub struct Compiled {
    /// The NDRange kernel with its math built-ins expanded (what the host sees: its
    /// parameters make the register map).
    pub kernel: Kernel,
    /// The kernel as loops over the work-items of a group: what the hardware runs.
    pub group: GroupForm,
    /// What the `relax` stage rewrote (float sums split, multiply-adds fused; only under
    /// the float build options).
    pub relax: crate::opt::Relaxed,
    /// What the `loops` stage unrolled, and the arrays it put in registers.
    pub unroll: crate::loops::LoopsReport,
    /// What the `opt` stage rewrote in the group form.
    pub opt: crate::opt::OptReport,
    /// Per block of the group form, its checked list schedule (a side table).
    pub schedule: KernelSchedule,
    /// Per innermost loop, its checked modulo schedule (a side table; the datapath does
    /// not pipeline yet, the reports show the II it will reach).
    pub pipelines: LoopSchedules,
    /// Per on-chip memory, its word, depth and read replicas.
    pub memory: crate::memory::MemoryPlan,
    /// Which loops run as pipelines, why the others keep the FSM, and each buffer's
    /// memory paths.
    pub plan: crate::pipeline::PipelinePlan,
    /// Which unit instance each multi-cycle op runs on (a side table, checked).
    pub binding: Binding,
    /// Controller facts of the generated datapath: its states, per block.
    pub datapath: datapath::Facts,
    /// The kernel core: Verilog files, templates, register map.
    pub core: CoreRtl,
    /// Per loop (work-item loops included): minimum II, depth, bounds, at its source line.
    pub loops: Vec<LoopReport>,
    /// Per on-chip memory: its RAM shape, ports, M10K estimate and the loops its ports
    /// slow down.
    pub memories: Vec<analysis::MemoryReport>,
    /// Wall-clock time of each stage.
    pub times: StageTimes,
}

/// The IR after each IR stage, for golden tests and `--emit`.
pub struct Snapshots {
    pub stages: Vec<(Stage, String)>,
}

fn one(d: Diagnostic) -> Diagnostics {
    let mut ds = Diagnostics::default();
    ds.push(d);
    ds
}

/// The IR verifier after an IR stage: on in debug builds and tests, where a broken rule is
/// a compiler bug reported with the stage that broke it.
fn verify(stage: Stage, k: &Kernel) -> Result<(), Diagnostics> {
    if !cfg!(debug_assertions) {
        return Ok(());
    }
    ir::verify::verify_kernel(k).map_err(|errs| {
        one(Diagnostic::error(
            k.span,
            format!(
                "internal error: the IR after stage `{}` breaks {} rule(s): {}",
                stage.name(),
                errs.len(),
                errs.join("; ")
            ),
        ))
    })
}

/// Lowers a checked program into kernel IR (the first stage; it works on every kernel of
/// the program at once).
pub fn lower(program: &Program, sm: &SourceMap) -> Result<Module, Diagnostics> {
    let m = crate::lower::lower(program, sm)?;
    for k in &m.kernels {
        verify(Stage::Lower, k)?;
    }
    Ok(m)
}

/// Runs every stage after lowering on one kernel for `board`, the core's bus shaped by
/// `cfg`. Unsupported operations are errors naming the operation and its source line.
pub fn compile(
    kernel: &Kernel,
    sm: &SourceMap,
    board: &Board,
    cfg: &ShellConfig,
) -> Result<Compiled, Diagnostics> {
    compile_with(kernel, sm, board, cfg, None)
}

/// [`compile`] with the opt stage's options (`--no-opt`).
pub fn compile_opt(
    kernel: &Kernel,
    sm: &SourceMap,
    board: &Board,
    cfg: &ShellConfig,
    opt: &crate::opt::Options,
) -> Result<Compiled, Diagnostics> {
    compile_full(kernel, sm, board, cfg, None, opt)
}

/// [`compile_opt`], also keeping the IR printed after each IR stage in `snap`.
pub fn compile_opt_with(
    kernel: &Kernel,
    sm: &SourceMap,
    board: &Board,
    cfg: &ShellConfig,
    opt: &crate::opt::Options,
    snap: &mut Snapshots,
) -> Result<Compiled, Diagnostics> {
    compile_full(kernel, sm, board, cfg, Some(snap), opt)
}

/// [`compile`], also keeping the IR printed after each IR stage in `snap`.
pub fn compile_with(
    kernel: &Kernel,
    sm: &SourceMap,
    board: &Board,
    cfg: &ShellConfig,
    snap: Option<&mut Snapshots>,
) -> Result<Compiled, Diagnostics> {
    compile_full(
        kernel,
        sm,
        board,
        cfg,
        snap,
        &crate::opt::Options::default(),
    )
}

fn compile_full(
    kernel: &Kernel,
    sm: &SourceMap,
    board: &Board,
    cfg: &ShellConfig,
    mut snap: Option<&mut Snapshots>,
    opt_options: &crate::opt::Options,
) -> Result<Compiled, Diagnostics> {
    let mut times = StageTimes::default();
    let lib = board.library();
    let mut keep = |s: Stage, k: &Kernel| {
        if let Some(x) = snap.as_deref_mut() {
            x.stages.push((s, ir::print::print_kernel(k, None)));
        }
    };

    // The loop-level float rewrites the build options allow, before anything else changes
    // the loops, as the interpreter makes them (`opt::relax_floats`).
    let relaxed = times.run(Stage::Relax, || crate::opt::relax(kernel, opt_options));
    let (kernel, relax_report) = match &relaxed {
        Some((k, r)) => (k, r.clone()),
        None => (kernel, crate::opt::Relaxed::default()),
    };
    verify(Stage::Relax, kernel)?;
    if relaxed.is_some() {
        keep(Stage::Relax, kernel);
    }

    let kernel = times.run(Stage::Mathlib, || {
        crate::mathlib::expand(kernel).map_err(one)
    })?;
    verify(Stage::Mathlib, &kernel)?;
    keep(Stage::Mathlib, &kernel);

    let mut group = times.run(Stage::Workitems, || {
        let lanes = workitems::lanes::choose(
            &kernel,
            (cfg.data_width / 8) as u64,
            crate::loops::Options::default().max_ops,
        );
        workitems::to_group_form_with(&kernel, lanes).map_err(one)
    })?;
    verify(Stage::Workitems, &group.kernel)?;
    keep(Stage::Workitems, &group.kernel);

    let unroll = times.run(Stage::Loops, || {
        crate::loops::run(&mut group.kernel, sm, &crate::loops::Options::default())
    })?;
    verify(Stage::Loops, &group.kernel)?;
    keep(Stage::Loops, &group.kernel);

    let opt = times.run(Stage::Opt, || {
        crate::opt::run_group(&mut group, board, opt_options).map_err(one)
    })?;
    verify(Stage::Opt, &group.kernel)?;
    keep(Stage::Opt, &group.kernel);

    let memory = times.run(Stage::Memory, || {
        let launch = crate::opt::ranges::Launch::of(&group);
        let ranges = crate::opt::ranges::analyze(&group.kernel, &launch);
        crate::memory::plan(
            &group.kernel,
            &ranges,
            cfg.local_max_bytes,
            cfg.data_width / 8,
        )
    });
    // The schedulers see each on-chip memory's read replicas and banks as ports.
    let mut lib = lib;
    memory.set_ports(&mut lib.limits);

    let schedule = times.run(Stage::Schedule, || {
        schedule::schedule_kernel(&group.kernel, &lib, &lib.limits)
            .map_err(|e| one(Diagnostic::error(group.kernel.span, e.message)))
    })?;

    let pipelines = times.run(Stage::Modulo, || {
        schedule::loops::schedule_loops(&group.kernel, sm, &lib, &memory.wide, Some(&memory.ranges))
            .map_err(|e| {
                one(Diagnostic::error(
                    group.kernel.span,
                    format!("internal error: {e}"),
                ))
            })
    })?;

    let plan = times.run(Stage::Pipeline, || {
        crate::pipeline::plan(&group.kernel, &pipelines, &lib, cfg.data_width / 8, &memory)
    });

    let binding = times.run(Stage::Bind, || {
        let b = bind::bind(&group.kernel, &lib, &schedule, &pipelines, &plan);
        match bind::check(&group.kernel, &schedule, &pipelines, &plan, &b).first() {
            Some(v) => Err(one(Diagnostic::error(
                group.kernel.span,
                format!("internal error: the binding breaks a rule: {v}"),
            ))),
            None => Ok(b),
        }
    })?;

    let dp = times.run(Stage::Datapath, || {
        datapath::generate(
            &kernel, &group, &schedule, &pipelines, &plan, &memory, &binding, sm, cfg,
        )
    })?;
    let facts = dp.facts.clone();

    let core = times.run(Stage::Shell, || {
        datapath::wrap(&kernel, cfg, dp, board, group.kernel.blocks.len()).map_err(one)
    })?;

    let mut c = Compiled {
        kernel,
        group,
        relax: relax_report,
        unroll,
        opt,
        schedule,
        pipelines,
        memory,
        plan,
        binding,
        datapath: facts,
        core,
        loops: Vec::new(),
        memories: Vec::new(),
        times: StageTimes::default(),
    };
    let (loops, memories) = times.run(Stage::Analysis, || {
        analysis::analyze_with_memories(&c.parts(), sm, board).map_err(|e| {
            one(Diagnostic::error(
                c.kernel.span,
                format!("kernel {}: loop analysis: {e}", c.kernel.name),
            ))
        })
    })?;
    c.loops = loops;
    c.memories = memories;
    c.times = times;
    Ok(c)
}

impl Compiled {
    /// The stage results the loop analysis reads.
    pub fn parts(&self) -> analysis::Parts<'_> {
        analysis::Parts {
            kernel: &self.kernel,
            group: &self.group.kernel,
            schedule: &self.schedule,
            pipelines: &self.pipelines,
            plan: &self.plan,
            memory: &self.memory,
            states: &self.datapath,
            unroll: &self.unroll,
        }
    }
}

/// Checks `path`, lowers it and compiles the kernel named `name` (or the only one) for
/// `board`: the whole pipeline from source, for tests and benchmarks. Errors are rendered.
pub fn compile_file(
    path: &std::path::Path,
    opts: &crate::frontend::Options,
    name: Option<&str>,
    board: &Board,
    cfg: &ShellConfig,
) -> Result<(Compiled, SourceMap), String> {
    let checked = crate::frontend::check_file(path, opts);
    let rendered = |sm: &SourceMap, d: &Diagnostics| -> String {
        d.list.iter().map(|x| crate::diag::render(sm, x)).collect()
    };
    if checked.has_errors() {
        return Err(rendered(&checked.sources, &checked.diags));
    }
    let program = checked
        .program
        .as_ref()
        .ok_or("the frontend made no program")?;
    let m = lower(program, &checked.sources).map_err(|d| rendered(&checked.sources, &d))?;
    let k = match name {
        Some(n) => m.kernels.iter().find(|k| k.name == n),
        None => m.kernels.first(),
    }
    .ok_or_else(|| format!("{}: no kernel {}", path.display(), name.unwrap_or("")))?;
    let c = compile(k, &checked.sources, board, cfg).map_err(|d| rendered(&checked.sources, &d))?;
    Ok((c, checked.sources))
}

/// For unit tests: the first kernel of `src` compiled for the built-in `sim` board
/// (panics with the diagnostics when it does not check or compile).
#[cfg(test)]
pub(crate) fn compile_for_sim(src: &str) -> Compiled {
    let c = crate::frontend::check_source("k.cl", src, &Default::default());
    assert!(!c.has_errors(), "{:?}", c.diags.list);
    let m = lower(c.program.as_ref().expect("a program"), &c.sources).expect("lowering");
    let boards = crate::board::BoardSet::builtin().expect("boards");
    let board = boards.get("sim").expect("the sim board");
    let cfg = crate::project::shell_config_for(board);
    compile(&m.kernels[0], &c.sources, board, &cfg).unwrap_or_else(|d| panic!("{:?}", d.list))
}
