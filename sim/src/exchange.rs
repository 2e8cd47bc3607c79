//! The files passed to and from the simulation executable in a temporary run directory:
//! `config.txt` and `in_<arg>.bin` going in, `result.txt` and `out_<arg>.bin` coming out.

use crate::launch::{MasterStats, MemConfig, SimArg, SimLaunch};
use crate::plan::Plan;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A temporary directory removed on drop (kept when `OHLS_SIM_KEEP` is set, for debugging).
pub struct RunDir {
    path: PathBuf,
}

impl RunDir {
    pub fn new() -> Result<RunDir, String> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("ohls-sim-{}-{n}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(RunDir { path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        if std::env::var_os("OHLS_SIM_KEEP").is_none() {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

/// Writes the config and the input buffers.
pub fn write_inputs(
    dir: &Path,
    launch: &SimLaunch,
    plan: &Plan,
    mem: &MemConfig,
    cycle_limit: u64,
    trace: Option<&Path>,
    reads: &[u32],
) -> Result<(), String> {
    let mut c = String::new();
    let _ = writeln!(c, "cycle_limit {cycle_limit}");
    let _ = writeln!(c, "read_latency {}", mem.read_latency);
    let _ = writeln!(c, "write_latency {}", mem.write_latency);
    let bw_milli = mem
        .bandwidth
        .map_or(0, |b| (b * 1000.0).round().max(1.0) as u64);
    let _ = writeln!(c, "bw_milli {bw_milli}");
    let _ = writeln!(c, "max_outstanding {}", mem.max_outstanding);
    let _ = writeln!(c, "max_burst {}", mem.max_burst);
    if let Some(s) = mem.stalls {
        let _ = writeln!(c, "stall_percent {}", s.percent);
        let _ = writeln!(c, "seed {}", s.seed);
    }
    for (i, (arg, place)) in launch.args.iter().zip(&plan.placements).enumerate() {
        if let (SimArg::Buffer(bytes), Some(p)) = (arg, place) {
            let _ = writeln!(c, "region {i} {} {}", p.base, p.len);
            let f = dir.join(format!("in_{i}.bin"));
            fs::write(&f, bytes).map_err(|e| format!("cannot write {}: {e}", f.display()))?;
        }
    }
    for (reg, value) in &plan.csr {
        let _ = writeln!(c, "csr {reg} {value}");
    }
    for reg in reads {
        let _ = writeln!(c, "read {reg}");
    }
    if let Some(t) = trace {
        let abs = std::path::absolute(t).map_err(|e| format!("{}: {e}", t.display()))?;
        let _ = writeln!(c, "trace {}", abs.display());
    }
    let f = dir.join("config.txt");
    fs::write(&f, c).map_err(|e| format!("cannot write {}: {e}", f.display()))
}

/// What `result.txt` says.
#[derive(Debug, Default)]
pub struct RunResult {
    pub done: bool,
    pub start_cycle: u64,
    pub done_cycle: u64,
    pub total_cycles: u64,
    pub error_code: u8,
    pub stats: Vec<MasterStats>,
    /// (register, value) of the registers read after DONE.
    pub reads: Vec<(u32, u32)>,
    pub message: String,
}

pub fn read_result(dir: &Path) -> Result<RunResult, String> {
    let f = dir.join("result.txt");
    let text = fs::read_to_string(&f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
    let mut r = RunResult::default();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let mut w = line.split_whitespace();
        let key = w.next().unwrap_or("");
        let mut num = || -> Result<u64, String> {
            w.next()
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("bad line in {}: {line}", f.display()))
        };
        match key {
            "status" => r.done = line.trim_end() == "status done",
            "start_cycle" => r.start_cycle = num()?,
            "done_cycle" => r.done_cycle = num()?,
            "total_cycles" => r.total_cycles = num()?,
            "error_code" => r.error_code = num()? as u8,
            "stats" => {
                let name = w.next().unwrap_or("").to_string();
                let mut n = || -> Result<u64, String> {
                    w.next()
                        .and_then(|v| v.parse().ok())
                        .ok_or_else(|| format!("bad line in {}: {line}", f.display()))
                };
                r.stats.push(MasterStats {
                    name,
                    read_bursts: n()?,
                    read_beats: n()?,
                    write_bursts: n()?,
                    write_beats: n()?,
                });
            }
            "read" => {
                let reg = num()? as u32;
                let value = num()? as u32;
                r.reads.push((reg, value));
            }
            "message" => {
                r.message = lines.by_ref().collect::<Vec<_>>().join("\n");
            }
            "" => {}
            _ => return Err(format!("unknown line in {}: {line}", f.display())),
        }
    }
    Ok(r)
}

/// The final contents of buffer argument `index`.
pub fn read_buffer(dir: &Path, index: usize) -> Result<Vec<u8>, String> {
    let f = dir.join(format!("out_{index}.bin"));
    fs::read(&f).map_err(|e| format!("cannot read {}: {e}", f.display()))
}
