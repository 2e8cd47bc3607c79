//! Area table of the floating-point templates (binary32 and binary64): synthesises each
//! unit at its default latency with Yosys for Cyclone V (`synth_intel_alm`) and prints a Markdown table.
//!
//! Run: `cargo run --release -p rtl-templates --example area`

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use rtl_templates::area::{parse_stat_json, CellCounts, Ecp5Cells, MistralCells};

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
    "ohls_dp_add",
    "ohls_dp_mul",
    "ohls_dp_div",
    "ohls_dp_cmp",
    "ohls_dp_from_int",
    "ohls_dp_to_int",
    "ohls_dp_to_fp32",
    "ohls_dp_from_fp32",
    "ohls_dp_to_half",
];

/// Extra rows at a non-default depth: the adder at its deepest, nearest the anchor's 9.
const EXTRA: &[(&str, u32)] = &[("ohls_fp_add", 7)];

/// The source files Yosys reads: every float template (the helpers come along).
fn sources(rtl: &Path) -> Vec<PathBuf> {
    rtl_templates::template_files()
        .into_iter()
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with("ohls_fp")
                    || n.starts_with("ohls_dp_")
                    || n.starts_with("ohls_int_to_fp")
                    || n.starts_with("ohls_half_to_fp")
            })
        })
        .filter(|p| p.starts_with(rtl))
        .collect()
}

/// The default of `parameter LATENCY = N` in a unit's file, or the `// Latency: N cycles`
/// of its header for a unit with a fixed latency (`fixed` is then true: no parameter).
fn default_latency(file: &Path) -> Result<(u32, bool), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let param = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("parameter LATENCY = "))
        .and_then(|v| v.trim_end_matches(',').trim().parse().ok());
    if let Some(l) = param {
        return Ok((l, false));
    }
    text.lines()
        .find_map(|l| l.trim().strip_prefix("// Latency: "))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .map(|l| (l, true))
        .ok_or_else(|| {
            format!(
                "{}: no `parameter LATENCY = N` or `// Latency: N` line",
                file.display()
            )
        })
}

/// Runs Yosys with one synthesis command; returns the cell counts of its `stat -json`.
fn yosys(
    files: &[PathBuf],
    top: &str,
    latency: u32,
    fixed: bool,
    synth: &str,
) -> Result<CellCounts, String> {
    let stat = std::env::temp_dir().join(format!(
        "ohls-area-{}-{top}-{latency}.json",
        std::process::id()
    ));
    let reads: Vec<String> = files
        .iter()
        .map(|f| format!("read_verilog {};", f.display()))
        .collect();
    let chparam = if fixed {
        String::new()
    } else {
        format!("chparam -set LATENCY {latency} {top}; ")
    };
    let script = format!(
        "{} {chparam}{synth} -top {top}; tee -q -o {} stat -json",
        reads.join(" "),
        stat.display()
    );
    let out = Command::new("yosys")
        .args(["-q", "-p", &script])
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => INSTALL.to_string(),
            _ => format!("cannot run yosys: {e}"),
        })?;
    if !out.status.success() {
        return Err(format!(
            "yosys {synth} of {top} failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = std::fs::read_to_string(&stat);
    let _ = std::fs::remove_file(&stat);
    let text = text.map_err(|e| format!("{}: {e}", stat.display()))?;
    parse_stat_json(&text).map_err(|e| format!("{top}: {e}"))
}

fn main() -> ExitCode {
    let rtl = rtl_templates::rtl_dir();
    let files = sources(&rtl);
    let mut rows = Vec::new();
    let mut jobs: Vec<(String, Option<u32>)> =
        UNITS.iter().map(|u| (u.to_string(), None)).collect();
    jobs.extend(EXTRA.iter().map(|(u, l)| (u.to_string(), Some(*l))));
    for (unit, lat) in jobs {
        let (lat, fixed) = match lat
            .map(|l| Ok((l, false)))
            .unwrap_or_else(|| default_latency(&rtl.join(format!("{unit}.v"))))
        {
            Ok(l) => l,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        eprintln!("synthesising {unit} (latency {lat}) ...");
        let row = match yosys(
            &files,
            &unit,
            lat,
            fixed,
            "synth_intel_alm -family cyclonev",
        ) {
            Ok(counts) => {
                let c = MistralCells::from_counts(&counts);
                format!(
                    "| {unit} | {lat} | {} | {} | {} | {} | {} | {} | cyclonev |",
                    c.logic_alms(),
                    c.lut6 + c.lut_small,
                    c.arith,
                    c.ff,
                    c.dsp_blocks(),
                    c.m10k
                )
            }
            Err(e) if e == INSTALL => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("{e}\nfalling back to synth_ecp5");
                match yosys(&files, &unit, lat, fixed, "synth_ecp5") {
                    // ECP5 LUT4 sites in the ALM column: a different unit, marked so.
                    Ok(counts) => {
                        let c = Ecp5Cells::from_counts(&counts);
                        format!(
                            "| {unit} | {lat} | {} LUT4 | {} | {} | {} | {} | {} | ecp5 (fallback) |",
                            c.lut4_sites(),
                            c.lut4,
                            2 * c.ccu2c,
                            c.ff,
                            c.mult18,
                            c.ebr
                        )
                    }
                    Err(e) => {
                        eprintln!("{e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        };
        rows.push(row);
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
    println!("registers = MISTRAL_FF, DSPs = DSP blocks (one 27x27, two 18x18 or three 9x9 MISTRAL_MUL* each), M10K = MISTRAL_M10K.");
    ExitCode::SUCCESS
}
