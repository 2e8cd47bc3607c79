//! Runs a kernel file with a launch spec on an engine: the pipeline `ocl-hls run` and the
//! differential tests share (spec -> frontend -> lowering -> launch -> engine -> buffers).

pub mod measured;

use std::path::{Path, PathBuf};

use crate::diag::{render, Diagnostics, SourceMap};
use crate::frontend::{check_file, Options as FrontOptions};
use crate::interp;
use crate::launch::{self, output::RunRecord, KernelSig, LaunchSpec};

/// Which implementation executes the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The reference interpreter.
    Interp,
    /// The generated kernel core in the Verilator harness (`sim` board).
    Sim,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Interp => "interp",
            Engine::Sim => "sim",
        }
    }
}

/// What a run needs besides the kernel file and the spec.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub engine: Engine,
    /// `-D`/`-I` from the command line; the spec's `defines` are added to these.
    pub front: FrontOptions,
    /// Check `ivdep` promises while running (interpreter only).
    pub check_hints: bool,
    /// Work-group size limit when neither the spec nor the kernel fixes one.
    pub max_group: u64,
    /// A waveform of the simulated core (sim only): FST for `.fst`, else VCD.
    pub trace: Option<PathBuf>,
    /// Reads of never-written private memory stop the run instead of warning (interp).
    pub strict: bool,
    /// The opt stage's options for the generated core (`--no-opt`, the floating-point
    /// build options); the interpreter follows the float options' rewrites.
    pub opt: crate::opt::Options,
    /// Random stalls on every channel of the memory model (sim only); `None` takes them
    /// from `OCL_HLS_SIM_STALLS=PERCENT[:SEED]`, if set.
    pub stalls: Option<ocl_hls_sim::Stalls>,
    /// Build the Verilator model without C++ optimization (sim only): about half the
    /// build time for a slower simulation; for short launches.
    pub quick_model: bool,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            engine: Engine::Interp,
            front: FrontOptions::default(),
            check_hints: false,
            max_group: 256,
            trace: None,
            strict: false,
            opt: crate::opt::Options::default(),
            stalls: None,
            quick_model: false,
        }
    }
}

/// A finished run: the resolved launch, the final bytes of each buffer argument (by
/// parameter name, in order), and the record `run.json` holds.
pub struct RunResult {
    pub launch: launch::Launch,
    pub buffers: Vec<(String, Vec<u8>)>,
    pub record: RunRecord,
    pub work_items: u64,
    /// Warnings of the run, rendered (reads of never-written private memory).
    pub warnings: Vec<String>,
}

/// Why a run stopped; `message` is ready to print (diagnostics already rendered).
#[derive(Debug)]
pub struct RunError {
    pub message: String,
}

impl RunError {
    fn rendered(sm: &SourceMap, d: &Diagnostics) -> RunError {
        RunError {
            message: d.list.iter().map(|x| render(sm, x)).collect(),
        }
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message.trim_end())
    }
}

fn err(message: impl Into<String>) -> RunError {
    RunError {
        message: message.into(),
    }
}

/// Runs `cl` with the launch spec at `spec_path`. Writes nothing: see [`write_outputs`].
pub fn run_file(cl: &Path, spec_path: &Path, opts: &RunOptions) -> Result<RunResult, RunError> {
    let spec = LaunchSpec::load(spec_path).map_err(|e| err(e.to_string()))?;
    let mut front = opts.front.clone();
    for (name, value) in &spec.defines {
        front.pp.defines.push((name.clone(), value.0.clone()));
    }
    let checked = check_file(cl, &front);
    if checked.has_errors() {
        return Err(RunError::rendered(&checked.sources, &checked.diags));
    }
    let program = checked
        .program
        .as_ref()
        .ok_or_else(|| err("the frontend produced no program"))?;
    let sigs: Vec<KernelSig> = program.kernels.iter().map(KernelSig::from_info).collect();
    let l = launch::resolve(&spec, &sigs, opts.max_group).map_err(|e| err(e.to_string()))?;
    let module = crate::lower::lower(program, &checked.sources)
        .map_err(|d| RunError::rendered(&checked.sources, &d))?;
    let kernel = module
        .kernels
        .iter()
        .find(|k| k.name == l.kernel)
        .ok_or_else(|| err(format!("kernel `{}` was not lowered", l.kernel)))?;
    let mut cycles = None;
    let mut loops = Vec::new();
    let mut warnings = Vec::new();
    let (finals, work_items) = match opts.engine {
        Engine::Sim => {
            let (bufs, c, measured) = sim_run(kernel, &checked.sources, &l, opts)?;
            cycles = Some(c);
            loops = measured;
            let items = l.global.iter().product();
            (bufs, items)
        }
        Engine::Interp => {
            // Under the float build options that change results, the interpreter runs the
            // rewrites the opt stage makes for them, as the generated core does.
            let relaxed =
                (opts.opt.math != crate::opt::fast_math::MathFlags::default()).then(|| {
                    let mut k = kernel.clone();
                    crate::opt::relax_floats(&mut k, &opts.opt);
                    k
                });
            let out = interp::run(
                relaxed.as_ref().unwrap_or(kernel),
                &interp_launch(&l),
                &interp::Options {
                    check_hints: opts.check_hints,
                    strict: opts.strict,
                    ..interp::Options::default()
                },
            )
            .map_err(|e| err(render(&checked.sources, &e.to_diagnostic())))?;
            let warn = |w: &interp::InterpError| render(&checked.sources, &w.to_warning());
            warnings = out.warnings.iter().map(warn).collect();
            (out.buffers, out.work_items)
        }
    };
    let buffers = l
        .args
        .iter()
        .zip(l.with_aliases(finals))
        .filter_map(|(a, b)| b.map(|bytes| (a.name.clone(), bytes)))
        .collect();
    let record = RunRecord {
        kernel: l.kernel.clone(),
        engine: opts.engine.name().to_string(),
        global: l.global.clone(),
        local: l.local.clone(),
        args: l.args.iter().map(|a| a.name.clone()).collect(),
        cycles,
        loops,
    };
    Ok(RunResult {
        launch: l,
        buffers,
        record,
        work_items,
        warnings,
    })
}

/// Where generated cores are written for Verilator: `OCL_HLS_SIM_DIR`, else
/// `target/ocl-hls-sim`, one folder per content hash.
fn sim_dir(files: &[(String, String)]) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let root = std::env::var_os("OCL_HLS_SIM_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/ocl-hls-sim"));
    let mut h = std::collections::hash_map::DefaultHasher::new();
    files.hash(&mut h);
    root.join(format!("{:016x}", h.finish()))
}

/// The Verilator model of `core` (built once per content, in a cache folder).
pub fn sim_model(
    core: &crate::datapath::CoreRtl,
    cfg: &crate::rtl::shell::ShellConfig,
    quick: bool,
) -> Result<ocl_hls_sim::SimModel, RunError> {
    let dir = sim_dir(&core.files);
    std::fs::create_dir_all(&dir).map_err(|e| err(format!("{}: {e}", dir.display())))?;
    let mut rtl = Vec::new();
    for (name, text) in &core.files {
        let p = dir.join(name);
        // Content-named, so a file already there is this one; tests build cores on
        // several threads, and a reader must never see a file half written.
        rtl_templates::verilator::write_once(&p, text).map_err(err)?;
        rtl.push(p);
    }
    rtl.extend(core.templates.iter().cloned());
    let desc = core
        .regmap
        .core_desc(&core.top, rtl, cfg.data_width, cfg.addr_width);
    if quick {
        ocl_hls_sim::SimModel::build_quick(&desc).map_err(err)
    } else {
        ocl_hls_sim::SimModel::build(&desc).map_err(err)
    }
}

/// Per argument the final buffer (`None` for non-buffers), the cycle count and the
/// pipelined loops as measured.
type SimFinals = (Vec<Option<Vec<u8>>>, u64, Vec<measured::MeasuredLoop>);

/// Generates the core of `kernel` for the `sim` board, builds it (cached by content) and
/// runs the launch (writing a waveform to `opts.trace` when given); returns the final buffers
/// and the cycle count.
fn sim_run(
    kernel: &crate::ir::Kernel,
    sm: &SourceMap,
    l: &launch::Launch,
    opts: &RunOptions,
) -> Result<SimFinals, RunError> {
    use ocl_hls_sim::{SimArg, SimLaunch};
    let boards = crate::board::BoardSet::builtin().map_err(|e| err(format!("{e:?}")))?;
    let board = boards
        .get("sim")
        .ok_or_else(|| err("the built-in boards have no `sim` board"))?;
    let cfg = crate::project::shell_config_for(board);
    let compiled = crate::compile::compile_opt(kernel, sm, board, &cfg, &opts.opt)
        .map_err(|d| RunError::rendered(sm, &d))?;
    let model = sim_model(&compiled.core, &cfg, opts.quick_model)?;
    let u32s = |v: &[u64]| [0, 1, 2].map(|d| v.get(d).copied().unwrap_or(1) as u32);
    let args = l
        .args
        .iter()
        .map(|a| match &a.value {
            launch::ArgValue::Buffer(launch::BufferArg {
                same_as: Some(s), ..
            }) => SimArg::SameAs {
                arg: s.arg,
                offset: s.offset,
            },
            launch::ArgValue::Buffer(b) => SimArg::Buffer(b.bytes.clone()),
            launch::ArgValue::Scalar { bytes, .. } => SimArg::Scalar(bytes.clone()),
            launch::ArgValue::Local { ty, count } => SimArg::Local(ty.size() as u64 * count),
        })
        .collect();
    let launch = SimLaunch {
        global: u32s(&l.global),
        local: u32s(&l.local),
        args,
    };
    let out = model
        .run(
            &launch,
            &mem_config(opts.stalls)?,
            50_000_000,
            opts.trace.as_deref(),
        )
        .map_err(err)?;
    let loops = measured::measure(
        &out.counters,
        &compiled.core.regmap.counters,
        &compiled.loops,
    );
    Ok((out.buffers, out.cycles, loops))
}

/// The memory model's timing: the default, with random stalls on every channel when
/// asked for or `OCL_HLS_SIM_STALLS=PERCENT[:SEED]` is set (a stalled run must give the
/// same bytes).
fn mem_config(stalls: Option<ocl_hls_sim::Stalls>) -> Result<ocl_hls_sim::MemConfig, RunError> {
    let mut c = ocl_hls_sim::MemConfig::default();
    if stalls.is_some() {
        c.stalls = stalls;
    } else if let Some(v) = std::env::var_os("OCL_HLS_SIM_STALLS") {
        let v = v.to_string_lossy();
        let (p, seed) = v.split_once(':').unwrap_or((&v, "1"));
        let bad = || {
            err(format!(
                "OCL_HLS_SIM_STALLS={v}: expected PERCENT[:SEED], e.g. 30:7"
            ))
        };
        let percent: u8 = p.parse().map_err(|_| bad())?;
        if percent >= 100 {
            return Err(bad());
        }
        let seed: u64 = seed.parse().map_err(|_| bad())?;
        c.stalls = Some(ocl_hls_sim::Stalls { seed, percent });
    }
    Ok(c)
}

/// The interpreter's view of a resolved launch.
pub fn interp_launch(l: &launch::Launch) -> interp::Launch {
    let args = l
        .args
        .iter()
        .map(|a| match &a.value {
            launch::ArgValue::Buffer(launch::BufferArg {
                same_as: Some(s), ..
            }) => interp::ArgValue::SameAs {
                arg: s.arg as u32,
                offset: s.offset,
            },
            launch::ArgValue::Buffer(b) => interp::ArgValue::Buffer(b.bytes.clone()),
            launch::ArgValue::Scalar { bytes, .. } => interp::ArgValue::Value(bytes.clone()),
            launch::ArgValue::Local { ty, count } => {
                interp::ArgValue::Local(ty.size() as u64 * count)
            }
        })
        .collect();
    let dims = |v: &[u64]| [0, 1, 2].map(|d| v.get(d).copied().unwrap_or(1));
    interp::Launch {
        work_dim: l.global.len() as u32,
        global: dims(&l.global),
        local: dims(&l.local),
        args,
    }
}

/// Writes `DIR/PARAM.bin` and `DIR/run.json` all or nothing.
pub fn write_outputs(dir: &Path, r: &RunResult) -> Result<Vec<PathBuf>, RunError> {
    let bufs: Vec<(&str, &[u8])> = r
        .buffers
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    launch::output::write_run(dir, &r.record, &bufs).map_err(err)?;
    let mut files: Vec<PathBuf> = r
        .buffers
        .iter()
        .map(|(n, _)| dir.join(format!("{n}.bin")))
        .collect();
    files.push(dir.join("run.json"));
    Ok(files)
}
