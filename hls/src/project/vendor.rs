//! Running Quartus on a written project: when `quartus_sh` is on PATH, every step of
//! [`flow::steps`] in `OUT/quartus/` with progress on stderr (stage, elapsed time) and each
//! tool's output in `OUT/quartus/logs/`; then the `.sof` and `.rbf` copied to OUT and the
//! fitter's utilization and the timing analyser's fmax added to `report.json` under
//! `"vendor"`. Without Quartus, the exact commands are printed instead.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::flow::{self, Step};
use super::reports::{self, ClockFmax, FitSummary};
use super::system::PLL;

const PROGRESS_EVERY: Duration = Duration::from_secs(30);
const POLL: Duration = Duration::from_millis(100);

/// What Quartus gave, as it goes into `report.json`.
#[derive(Clone, Debug, Serialize)]
pub struct VendorReport {
    pub tool: String,
    pub seconds: f64,
    pub sof: String,
    pub rbf: String,
    pub utilization: FitSummary,
    pub fmax: Vec<ClockFmax>,
    /// The worst restricted fmax of the kernel clock (the PLL's output).
    pub kernel_clock_fmax_mhz: Option<f64>,
    pub kernel_clock_target_mhz: f64,
    pub meets_target: Option<bool>,
}

/// `program` found in a PATH directory.
pub fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// After OUT is written: runs the flow when Quartus is installed and `skip` is false,
/// else prints the commands. `OUT/quartus/build.sh` marks a complete project; without
/// it (no Quartus board, or a board file without HPS system data) nothing happens.
pub fn after_build(
    out: &Path,
    project: &str,
    kernel_clock_mhz: f64,
    skip: bool,
    log: &mut dyn Write,
) -> Result<(), String> {
    let dir = out.join("quartus");
    if !dir.join("build.sh").is_file() {
        return Ok(());
    }
    let system = super::system::system_name(project);
    let steps = flow::steps(project, &system);
    if skip || on_path("quartus_sh").is_none() {
        let why = if skip {
            "vendor flow skipped (--no-vendor)"
        } else {
            "quartus_sh is not on PATH"
        };
        let _ = writeln!(
            log,
            "ocl-hls: {why}; to build the FPGA image on a machine with Quartus, run in {}:",
            dir.display()
        );
        for s in &steps {
            let _ = writeln!(log, "  {}", s.shell());
        }
        let _ = writeln!(log, "(or `sh build.sh`; see {}/README.md)", dir.display());
        return Ok(());
    }
    let report = run(out, project, &steps, kernel_clock_mhz, log)?;
    add_to_report(&out.join(super::MARKER), &report)?;
    let _ = writeln!(
        log,
        "ocl-hls: quartus: {} and {} written; kernel clock fmax {}",
        report.sof,
        report.rbf,
        report
            .kernel_clock_fmax_mhz
            .map(|f| format!("{f:.1} MHz (target {kernel_clock_mhz} MHz)"))
            .unwrap_or_else(|| "not reported".into())
    );
    Ok(())
}

fn run(
    out: &Path,
    project: &str,
    steps: &[Step],
    target_mhz: f64,
    log: &mut dyn Write,
) -> Result<VendorReport, String> {
    let dir = out.join("quartus");
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
    let missing: Vec<&str> = steps
        .iter()
        .map(|s| s.program)
        .filter(|p| on_path(p).is_none())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "quartus_sh is on PATH but {} is not (put Quartus's bin and sopc_builder/bin \
             directories on PATH, or use --no-vendor)",
            missing.join(", ")
        ));
    }
    let all = Instant::now();
    for (i, s) in steps.iter().enumerate() {
        let t = Instant::now();
        let _ = writeln!(
            log,
            "ocl-hls: quartus [{}/{}] {}: {} ...",
            i + 1,
            steps.len(),
            s.stage,
            s.shell()
        );
        let log_path = logs.join(format!("{}_{}.log", i + 1, s.program));
        let file = std::fs::File::create(&log_path)
            .map_err(|e| format!("cannot create {}: {e}", log_path.display()))?;
        let err = file
            .try_clone()
            .map_err(|e| format!("cannot write {}: {e}", log_path.display()))?;
        let mut child = Command::new(s.program)
            .args(&s.args)
            .current_dir(&dir)
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(err)
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", s.program))?;
        // Quartus steps take minutes: a line every PROGRESS_EVERY shows it is alive.
        let mut next = PROGRESS_EVERY;
        let status = loop {
            match child.try_wait() {
                Ok(Some(st)) => break st,
                Ok(None) => {}
                Err(e) => return Err(format!("waiting for {}: {e}", s.program)),
            }
            if t.elapsed() >= next {
                let _ = writeln!(
                    log,
                    "ocl-hls: quartus [{}/{}] {} running, {:.0} s",
                    i + 1,
                    steps.len(),
                    s.stage,
                    t.elapsed().as_secs_f64()
                );
                next += PROGRESS_EVERY;
            }
            std::thread::sleep(POLL);
        };
        if !status.success() {
            return Err(format!(
                "{} failed ({status}) after {:.1} s; its output is in {}:\n{}",
                s.program,
                t.elapsed().as_secs_f64(),
                log_path.display(),
                tail(&log_path, 20)
            ));
        }
        let _ = writeln!(
            log,
            "ocl-hls: quartus [{}/{}] {} done in {:.1} s (total {:.1} s)",
            i + 1,
            steps.len(),
            s.stage,
            t.elapsed().as_secs_f64(),
            all.elapsed().as_secs_f64()
        );
    }

    let read = |rel: String| -> Result<String, String> {
        let p = dir.join(&rel);
        std::fs::read_to_string(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    let utilization =
        reports::parse_fit_summary(&read(format!("output_files/{project}.fit.summary"))?)
            .map_err(|e| format!("{project}.fit.summary: {e}"))?;
    let fmax = reports::parse_sta_fmax(&read(format!("output_files/{project}.sta.rpt"))?)
        .map_err(|e| format!("{project}.sta.rpt: {e}"))?;
    let kernel = fmax
        .iter()
        .filter(|c| c.clock.contains(PLL))
        .map(|c| c.restricted_fmax_mhz)
        .fold(None, |acc: Option<f64>, f| {
            Some(acc.map_or(f, |a| a.min(f)))
        });

    let mut copied = Vec::new();
    for rel in [flow::sof(project), flow::rbf(project)] {
        let from = dir.join(&rel);
        let name = from
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        std::fs::copy(&from, out.join(&name))
            .map_err(|e| format!("cannot copy {} to OUT: {e}", from.display()))?;
        copied.push(name);
    }
    Ok(VendorReport {
        tool: "quartus".into(),
        seconds: all.elapsed().as_secs_f64(),
        sof: copied[0].clone(),
        rbf: copied[1].clone(),
        utilization,
        fmax,
        kernel_clock_fmax_mhz: kernel,
        kernel_clock_target_mhz: target_mhz,
        meets_target: kernel.map(|f| f >= target_mhz),
    })
}

/// The last `n` lines of a log file.
fn tail(p: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(p).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// Adds `"vendor"` to the written report.json.
fn add_to_report(path: &Path, r: &VendorReport) -> Result<(), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let obj = v
        .as_object_mut()
        .ok_or_else(|| format!("{} is not a JSON object", path.display()))?;
    obj.insert(
        "vendor".into(),
        serde_json::to_value(r).map_err(|e| e.to_string())?,
    );
    let text = serde_json::to_string_pretty(&v).map_err(|e| e.to_string())? + "\n";
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
