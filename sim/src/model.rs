//! A core built into a simulation executable (once per core, sources and harness, through
//! the cached Verilator driver of `rtl-templates`) and run against the memory model.

use crate::binding;
use crate::desc::CoreDesc;
use crate::exchange::{self, RunDir};
use crate::launch::{MemConfig, SimArg, SimLaunch, SimOutcome};
use crate::plan::plan;
use rtl_templates::verilator::{cache_dir, Build};
use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The harness sources compiled with every binding.
const HARNESS_CPP: &[&str] = &[
    "run_loop.cpp",
    "run_io.cpp",
    "axi_slave.cpp",
    "axil_master.cpp",
    "memory.cpp",
];

/// Waveform formats; chosen from the trace file's extension (`.fst`, else VCD).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceFormat {
    Vcd,
    Fst,
}

impl TraceFormat {
    pub fn of(path: &Path) -> TraceFormat {
        match path.extension() {
            Some(e) if e == "fst" => TraceFormat::Fst,
            _ => TraceFormat::Vcd,
        }
    }

    fn flag(self) -> &'static str {
        match self {
            TraceFormat::Vcd => "--trace",
            TraceFormat::Fst => "--trace-fst",
        }
    }
}

/// A built simulation of one core.
#[derive(Clone, Debug)]
pub struct SimModel {
    desc: CoreDesc,
    binding: PathBuf,
    exe: PathBuf,
    traced: Option<TraceFormat>,
    quick: bool,
}

/// Where the harness sources live.
pub fn cpp_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("cpp")
}

impl SimModel {
    /// Validates `desc`, generates its binding and builds the model without tracing.
    pub fn build(desc: &CoreDesc) -> Result<SimModel, String> {
        SimModel::build_with(desc, None)
    }

    /// Like [`SimModel::build`], the C++ compiled without optimization: about half the
    /// build time, a slower simulation (for a launch or two of a short kernel).
    pub fn build_quick(desc: &CoreDesc) -> Result<SimModel, String> {
        SimModel::new(desc, None, true)
    }

    /// Like [`SimModel::build`], with tracing compiled in (slower to build and to run,
    /// but every run may then write a trace of this format without another build).
    pub fn build_with(desc: &CoreDesc, trace: Option<TraceFormat>) -> Result<SimModel, String> {
        SimModel::new(desc, trace, false)
    }

    fn new(desc: &CoreDesc, trace: Option<TraceFormat>, quick: bool) -> Result<SimModel, String> {
        desc.validate()?;
        let binding = write_binding(desc)?;
        let exe = verilate(desc, &binding, trace, quick)?;
        Ok(SimModel {
            desc: desc.clone(),
            binding,
            exe,
            traced: trace,
            quick,
        })
    }

    pub fn desc(&self) -> &CoreDesc {
        &self.desc
    }

    /// The simulation executable (untraced unless built with tracing): what a host
    /// program's simulation backend runs, one run directory per launch.
    pub fn exe(&self) -> &Path {
        &self.exe
    }

    /// Runs one launch for at most `cycle_limit` cycles after reset. A trace file, if asked
    /// for, needs a traced build of the model, which is made (and cached) on first use.
    pub fn run(
        &self,
        launch: &SimLaunch,
        mem: &MemConfig,
        cycle_limit: u64,
        trace: Option<&Path>,
    ) -> Result<SimOutcome, String> {
        mem.validate()?;
        let plan = plan(&self.desc, launch)?;
        let exe = match trace.map(TraceFormat::of) {
            Some(f) if self.traced != Some(f) => {
                verilate(&self.desc, &self.binding, Some(f), self.quick)?
            }
            _ => self.exe.clone(),
        };
        let dir = RunDir::new()?;
        let reads: Vec<u32> = self.desc.counters.iter().map(|c| c.offset).collect();
        exchange::write_inputs(dir.path(), launch, &plan, mem, cycle_limit, trace, &reads)?;
        let out = Command::new(&exe)
            .arg(dir.path())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
        if !out.status.success() {
            return Err(format!(
                "simulation of {} failed ({}):\n{}{}",
                self.desc.top,
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let r = exchange::read_result(dir.path())?;
        if !r.done {
            return Err(format!("simulation of {}: {}", self.desc.top, r.message));
        }
        let cycles = r.done_cycle.saturating_sub(r.start_cycle);
        if r.error_code != 0 {
            let what = self
                .desc
                .error_codes
                .iter()
                .find(|(c, _)| *c == r.error_code)
                .map(|(_, m)| m.as_str())
                .unwrap_or("a code the core's description does not list");
            return Err(format!(
                "kernel {} finished with error code {:#x} after {cycles} cycles: {what}",
                self.desc.top, r.error_code
            ));
        }
        let mut buffers = Vec::with_capacity(launch.args.len());
        for (i, a) in launch.args.iter().enumerate() {
            buffers.push(match a {
                SimArg::Buffer(_) => Some(exchange::read_buffer(dir.path(), i)?),
                _ => None,
            });
        }
        let mut counters = Vec::with_capacity(self.desc.counters.len());
        for c in &self.desc.counters {
            let v = r
                .reads
                .iter()
                .find(|(reg, _)| *reg == c.offset)
                .map(|(_, v)| *v)
                .ok_or_else(|| {
                    format!(
                        "simulation of {}: counter {} was not read",
                        self.desc.top, c.name
                    )
                })?;
            counters.push((c.name.clone(), v));
        }
        Ok(SimOutcome {
            buffers,
            cycles,
            error_code: r.error_code,
            stats: r.stats,
            counters,
        })
    }
}

/// Writes the binding under the Verilator cache, named by its content so that concurrent
/// builds of different cores never share a file.
fn write_binding(desc: &CoreDesc) -> Result<PathBuf, String> {
    let text = binding::generate(desc);
    let mut h = DefaultHasher::new();
    text.hash(&mut h);
    let dir = cache_dir().join("sim-bindings");
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(format!("bind_{}_{:016x}.cpp", desc.top, h.finish()));
    rtl_templates::verilator::write_once(&path, &text)?;
    Ok(path)
}

/// Builds (or finds in the cache) the executable for `desc` with its binding.
fn verilate(
    desc: &CoreDesc,
    binding: &Path,
    trace: Option<TraceFormat>,
    quick: bool,
) -> Result<PathBuf, String> {
    let cpp = cpp_dir();
    // Headers are not hashed by the driver, so their contents go into a flag.
    let mut h = DefaultHasher::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(&cpp)
        .map_err(|e| format!("cannot read {}: {e}", cpp.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "h"))
        .collect();
    entries.sort();
    for p in &entries {
        fs::read(p)
            .map_err(|e| format!("cannot read {}: {e}", p.display()))?
            .hash(&mut h);
    }
    let mut b = Build::new(&desc.top)
        .quick(quick)
        .flag("-CFLAGS")
        .flag(&format!("-I{}", cpp.display()))
        .flag("-CFLAGS")
        .flag(&format!("-DOHLS_SIM_HEADERS={:x}", h.finish()));
    if let Some(t) = trace {
        b = b.flag(t.flag());
    }
    for src in &desc.rtl {
        b = b.source(src);
    }
    b = b.testbench(binding);
    for f in HARNESS_CPP {
        b = b.testbench(cpp.join(f));
    }
    b.build()
}
