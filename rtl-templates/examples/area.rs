//! Area table of the floating-point templates: synthesises each unit at its default
//! latency with Yosys for Cyclone V (`synth_intel_alm`) and prints a Markdown table.
//!
//! Run: `cargo run --release -p rtl-templates --example area`

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const INSTALL: &str =
    "yosys is not installed: run `bash scripts/install-deps.sh` (or `apt-get install -y yosys`)";

/// The units in the table, by module name; each file is `<module>.v`.
const UNITS: &[&str] = &[
    "ohls_fp_add",
    "ohls_fp_mul",
    "ohls_fp_fma",
    "ohls_fp_div",
    "ohls_fp_sqrt",
    "ohls_fp_cmp",
    "ohls_fp_minmax",
    "ohls_fp_to_int",
    "ohls_int_to_fp",
    "ohls_fp_to_half",
    "ohls_half_to_fp",
];

/// Extra rows at a non-default depth: the adder at its deepest, nearest the anchor's 9.
const EXTRA: &[(&str, u32)] = &[("ohls_fp_add", 7)];

/// Cell counts of one synthesised unit.
#[derive(Default, Debug)]
struct Cells {
    lut6: u64,
    lut_small: u64,
    arith: u64,
    ff: u64,
    dsp: u64,
    m10k: u64,
}

impl Cells {
    /// ALMs if Quartus packed perfectly: a 6-input LUT fills an ALM, two smaller LUTs share
    /// one, and an ALM in arithmetic mode holds two adder bits.
    fn alm_estimate(&self) -> u64 {
        self.lut6 + self.lut_small.div_ceil(2) + self.arith.div_ceil(2)
    }
}

/// The source files Yosys reads: every float template (the helpers come along).
fn sources(rtl: &Path) -> Vec<PathBuf> {
    rtl_templates::template_files()
        .into_iter()
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with("ohls_fp")
                    || n.starts_with("ohls_int_to_fp")
                    || n.starts_with("ohls_half_to_fp")
            })
        })
        .filter(|p| p.starts_with(rtl))
        .collect()
}

/// The default of `parameter LATENCY = N` in a unit's file.
fn default_latency(file: &Path) -> Result<u32, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    text.lines()
        .find_map(|l| l.trim().strip_prefix("parameter LATENCY = "))
        .and_then(|v| v.trim_end_matches(',').trim().parse().ok())
        .ok_or_else(|| format!("{}: no `parameter LATENCY = N` line", file.display()))
}

/// Runs Yosys with one synthesis command; returns the log.
fn yosys(files: &[PathBuf], top: &str, latency: u32, synth: &str) -> Result<String, String> {
    let reads: Vec<String> = files
        .iter()
        .map(|f| format!("read_verilog {};", f.display()))
        .collect();
    let script = format!(
        "{} chparam -set LATENCY {latency} {top}; {synth} -top {top}; stat",
        reads.join(" ")
    );
    let out = Command::new("yosys")
        .args(["-q", "-p", &script])
        .arg("-l")
        .arg("/dev/stdout")
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => INSTALL.to_string(),
            _ => format!("cannot run yosys: {e}"),
        })?;
    let log = String::from_utf8_lossy(&out.stdout).to_string();
    if !out.status.success() {
        return Err(format!(
            "yosys {synth} of {top} failed:\n{log}\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(log)
}

/// Reads the cell list of the last `stat` in a Yosys log.
fn parse_cells(log: &str) -> Cells {
    let start = log.rfind("Number of cells").unwrap_or(0);
    let mut c = Cells::default();
    for line in log[start..].lines().skip(1) {
        let mut parts = line.split_whitespace();
        let (Some(name), Some(n)) = (parts.next(), parts.next()) else {
            break;
        };
        let Ok(n) = n.parse::<u64>() else { break };
        match name {
            "MISTRAL_ALUT6" => c.lut6 += n,
            "MISTRAL_ALUT_ARITH" => c.arith += n,
            "MISTRAL_FF" => c.ff += n,
            "MISTRAL_M10K" => c.m10k += n,
            "MISTRAL_NOT" => c.lut_small += n,
            n_ if n_.starts_with("MISTRAL_ALUT") || n_.starts_with("MISTRAL_ALM") => {
                c.lut_small += n
            }
            n_ if n_.starts_with("MISTRAL_MUL") => c.dsp += n,
            // ECP5 fallback cells, counted in the same columns.
            "LUT4" => c.lut_small += n,
            "CCU2C" => c.arith += 2 * n,
            "TRELLIS_FF" => c.ff += n,
            "MULT18X18D" => c.dsp += n,
            "DP16KD" => c.m10k += n,
            _ => {}
        }
    }
    c
}

fn main() -> ExitCode {
    let rtl = rtl_templates::rtl_dir();
    let files = sources(&rtl);
    let mut rows = Vec::new();
    let mut jobs: Vec<(String, Option<u32>)> =
        UNITS.iter().map(|u| (u.to_string(), None)).collect();
    jobs.extend(EXTRA.iter().map(|(u, l)| (u.to_string(), Some(*l))));
    for (unit, lat) in jobs {
        let lat = match lat
            .map(Ok)
            .unwrap_or_else(|| default_latency(&rtl.join(format!("{unit}.v"))))
        {
            Ok(l) => l,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        eprintln!("synthesising {unit} (latency {lat}) ...");
        let (log, flow) = match yosys(&files, &unit, lat, "synth_intel_alm -family cyclonev") {
            Ok(log) => (log, "cyclonev"),
            Err(e) if e == INSTALL => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("{e}\nfalling back to synth_ecp5");
                match yosys(&files, &unit, lat, "synth_ecp5") {
                    Ok(log) => (log, "ecp5 (fallback)"),
                    Err(e) => {
                        eprintln!("{e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        };
        let c = parse_cells(&log);
        rows.push(format!(
            "| {unit} | {lat} | {} | {} | {} | {} | {} | {} | {flow} |",
            c.alm_estimate(),
            c.lut6 + c.lut_small,
            c.arith,
            c.ff,
            c.dsp,
            c.m10k
        ));
    }
    println!("Yosys 0.23 `synth_intel_alm -family cyclonev` per unit (`cargo run --release -p rtl-templates --example area`).");
    println!();
    println!("| unit | latency (cycles) | ALMs (est.) | LUT cells | carry cells | registers | DSPs | M10K | flow |");
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---|");
    for r in rows {
        println!("{r}");
    }
    println!();
    println!("LUT cells = MISTRAL_ALUT2..6 + MISTRAL_NOT; carry cells = MISTRAL_ALUT_ARITH (one adder bit each);");
    println!("ALMs (est.) = ALUT6 + ceil(smaller LUTs / 2) + ceil(carry cells / 2), i.e. perfect packing;");
    println!("registers = MISTRAL_FF, DSPs = MISTRAL_MUL*, M10K = MISTRAL_M10K.");
    ExitCode::SUCCESS
}
