//! nextpnr-ecp5 out of context on Yosys's netlist of one core (no I/O buffers, no global
//! clock routing): the board's device, package and speed grade, the kernel clock as the
//! target, and the achieved fmax of the core's clock read back from `--report`.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use serde::Serialize;

use super::tools::ToolInfo;
use crate::board::Board;

/// The clock port of every kernel core.
const CORE_CLOCK: &str = "clk";

/// The `timing` of one core's estimate.
#[derive(Clone, Debug, Serialize)]
pub struct Timing {
    /// "done", "not run" or "failed".
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<ToolInfo>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    pub seconds: f64,
    pub target_mhz: f64,
    /// The clock net the figure is for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fmax_mhz: Option<f64>,
    /// Placed cells by nextpnr's cell type (TRELLIS_COMB, TRELLIS_FF, ...) as used.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub placed: std::collections::BTreeMap<String, u64>,
}

impl Timing {
    pub fn not_run(board: &Board, note: String) -> Timing {
        Timing {
            status: "not run".into(),
            note: Some(note),
            tool: None,
            command: Vec::new(),
            seconds: 0.0,
            target_mhz: board.kernel_clock_mhz,
            clock: None,
            fmax_mhz: None,
            placed: Default::default(),
        }
    }
}

/// nextpnr-ecp5's device flag for a part number (`LFE5U-85F-6BG381C` -> `--85k`).
pub fn device_flag(part: &str) -> Result<&'static str, String> {
    let p = part.to_ascii_uppercase();
    let table: &[(&str, &str)] = &[
        ("LFE5UM5G-25F", "--um5g-25k"),
        ("LFE5UM5G-45F", "--um5g-45k"),
        ("LFE5UM5G-85F", "--um5g-85k"),
        ("LFE5UM-25F", "--um-25k"),
        ("LFE5UM-45F", "--um-45k"),
        ("LFE5UM-85F", "--um-85k"),
        ("LFE5U-12F", "--12k"),
        ("LFE5U-25F", "--25k"),
        ("LFE5U-45F", "--45k"),
        ("LFE5U-85F", "--85k"),
    ];
    table
        .iter()
        .find(|(prefix, _)| p.starts_with(prefix))
        .map(|(_, flag)| *flag)
        .ok_or_else(|| format!("nextpnr-ecp5 knows no device for part {part}"))
}

/// What nextpnr's `--report` says: the core clock's fmax (or the slowest clock's when
/// the core clock is not named) and the used cells.
pub fn parse_report(
    text: &str,
) -> Result<(String, f64, std::collections::BTreeMap<String, u64>), String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("nextpnr report: {e}"))?;
    let fmax = v
        .get("fmax")
        .and_then(|f| f.as_object())
        .ok_or("nextpnr report has no fmax")?;
    let achieved = |c: &serde_json::Value| c.get("achieved").and_then(|a| a.as_f64());
    let (clock, mhz) = match fmax.get(CORE_CLOCK).and_then(achieved) {
        Some(m) => (CORE_CLOCK.to_string(), m),
        None => fmax
            .iter()
            .filter_map(|(k, c)| achieved(c).map(|m| (k.clone(), m)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .ok_or("nextpnr report names no clock with an achieved fmax")?,
    };
    let placed = v
        .get("utilization")
        .and_then(|u| u.as_object())
        .map(|u| {
            u.iter()
                .filter_map(|(k, x)| Some((k.clone(), x.get("used")?.as_u64()?)))
                .filter(|(_, n)| *n > 0)
                .collect()
        })
        .unwrap_or_default();
    Ok((clock, (mhz * 100.0).round() / 100.0, placed))
}

/// Places and routes `netlist` in `dir`; failures land in the result, not as errors:
/// a missing fmax never stops a build.
pub fn place_and_route(tool: &ToolInfo, board: &Board, netlist: &Path, dir: &Path) -> Timing {
    let mut t = Timing::not_run(board, String::new());
    t.tool = Some(tool.clone());
    let Some(device) = &board.device else {
        t.note = Some("the board has no device".into());
        return t;
    };
    let flag = match device_flag(&device.part) {
        Ok(f) => f,
        Err(e) => {
            t.status = "failed".into();
            t.note = Some(e);
            return t;
        }
    };
    // The YoWASP build sees only its working folder, so paths are relative to `dir`.
    let relative = netlist
        .strip_prefix(dir)
        .unwrap_or(netlist)
        .display()
        .to_string();
    let args: Vec<String> = [
        "--out-of-context",
        flag,
        "--package",
        &device.package,
        "--speed",
        &device.speed_grade,
        "--json",
        &relative,
        "--freq",
        &board.kernel_clock_mhz.to_string(),
        "--timing-allow-fail",
        "--report",
        "nextpnr-report.json",
        "-q",
        "-l",
        "nextpnr.log",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    t.command = std::iter::once(tool.path.clone())
        .chain(args.iter().cloned())
        .collect();
    let started = Instant::now();
    let out = Command::new(&tool.path)
        .current_dir(dir)
        .args(&args)
        .output();
    t.seconds = started.elapsed().as_secs_f64();
    let out = match out {
        Ok(o) => o,
        Err(e) => {
            t.status = "failed".into();
            t.note = Some(format!("cannot run {}: {e}", tool.path));
            return t;
        }
    };
    if !out.status.success() {
        let log = std::fs::read_to_string(dir.join("nextpnr.log")).unwrap_or_default();
        let last: Vec<&str> = log.lines().rev().take(8).collect();
        t.status = "failed".into();
        // The log has the error too when nextpnr got as far as opening it.
        let said = if last.is_empty() {
            String::from_utf8_lossy(&out.stderr).trim().to_string()
        } else {
            last.into_iter().rev().collect::<Vec<_>>().join("\n")
        };
        t.note = Some(format!("nextpnr-ecp5 failed ({}): {said}", out.status));
        return t;
    }
    match std::fs::read_to_string(dir.join("nextpnr-report.json"))
        .map_err(|e| format!("nextpnr wrote no report: {e}"))
        .and_then(|text| parse_report(&text))
    {
        Ok((clock, mhz, placed)) => {
            t.status = "done".into();
            t.note = None;
            t.clock = Some(clock);
            t.fmax_mhz = Some(mhz);
            t.placed = placed;
        }
        Err(e) => {
            t.status = "failed".into();
            t.note = Some(e);
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_map_to_device_flags() {
        assert_eq!(device_flag("LFE5U-85F-6BG381C"), Ok("--85k"));
        assert_eq!(device_flag("LFE5UM5G-45F-8BG381C"), Ok("--um5g-45k"));
        assert_eq!(device_flag("lfe5um-25f-6bg381c"), Ok("--um-25k"));
        assert!(device_flag("iCE40UP5K-SG48I").is_err());
    }

    /// The parts of nextpnr 0.11.1's `--report` for vadd_core on the ULX3S that are read.
    const REPORT: &str = r#"{
      "critical_paths": [],
      "fmax": { "clk": { "achieved": 49.897708892822266, "constraint": 50 } },
      "utilization": {
        "DP16KD": { "available": 208, "used": 0 },
        "TRELLIS_COMB": { "available": 83640, "used": 8096 },
        "TRELLIS_FF": { "available": 83640, "used": 6090 },
        "TRELLIS_RAMW": { "available": 10455, "used": 87 }
      }
    }"#;

    #[test]
    fn the_core_clock_fmax_is_read() {
        let (clock, mhz, placed) = parse_report(REPORT).unwrap();
        assert_eq!((clock.as_str(), mhz), ("clk", 49.9));
        assert_eq!(placed.get("TRELLIS_COMB"), Some(&8096));
        assert!(!placed.contains_key("DP16KD"));
    }

    #[test]
    fn without_the_core_clock_the_slowest_counts() {
        let r = r#"{"fmax": {"a": {"achieved": 80.0}, "b": {"achieved": 60.5}}}"#;
        assert_eq!(parse_report(r).unwrap().1, 60.5);
        assert!(parse_report(r#"{"fmax": {}}"#).is_err());
        assert!(parse_report("not json").is_err());
    }
}
