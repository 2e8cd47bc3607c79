//! Area table of the AXI memory units: the streaming load and store units next to the
//! read and write masters they would replace, then the units at 16- and 32-byte elements,
//! aligned and aligned to 4 bytes (spanning two beats), and the store unit with per-store
//! byte masks (STRB=1) at each of those shapes, each synthesised alone with Yosys for
//! Cyclone V (`synth_intel_alm`) at a 256-bit bus, printed as a Markdown table.
//!
//! Run: `cargo run --release -p rtl-templates --example mem_area`

use std::path::PathBuf;
use std::process::{Command, ExitCode};

use rtl_templates::area::{parse_stat_json, MistralCells};

/// A row: its name, the module, parameter overrides, files besides the FIFOs.
type Unit = (
    &'static str,
    &'static str,
    &'static [(&'static str, u32)],
    &'static [&'static str],
);

const UNITS: &[Unit] = &[
    (
        "ohls_mem_load (STREAM=1)",
        "ohls_mem_load",
        &[],
        &["ohls_mem_load.v"],
    ),
    (
        "ohls_mem_load (STREAM=0)",
        "ohls_mem_load",
        &[("STREAM", 0)],
        &["ohls_mem_load.v"],
    ),
    (
        "ohls_mem_store",
        "ohls_mem_store",
        &[],
        &["ohls_mem_store.v"],
    ),
    (
        "ohls_mem_store (STRB=1)",
        "ohls_mem_store",
        &[("STRB", 1)],
        &["ohls_mem_store.v"],
    ),
    (
        "ohls_axi_rd (256-bit)",
        "ohls_axi_rd",
        &[("DATA_WIDTH", 256)],
        &["ohls_axi_rd.v", "ohls_axi_burst_gen.v"],
    ),
    (
        "ohls_axi_wr (256-bit)",
        "ohls_axi_wr",
        &[("DATA_WIDTH", 256)],
        &[
            "ohls_axi_wr.v",
            "ohls_axi_burst_gen.v",
            "ohls_skid_buffer.v",
        ],
    ),
];

/// A row as synthesised: its name, the module, parameter overrides, files besides the FIFOs.
type Row = (
    String,
    &'static str,
    Vec<(&'static str, u32)>,
    &'static [&'static str],
);

/// The memory units at wider elements and below their natural alignment (elements that
/// span two beats): (ELEM_BYTES, ALIGN_BYTES).
const SHAPES: &[(u32, u32)] = &[(16, 16), (32, 32), (16, 4), (32, 4)];

/// Every row: the units above, then the load unit (both STREAM settings) and the store
/// unit (both STRB settings) in each of `SHAPES`.
fn rows() -> Vec<Row> {
    let mut out: Vec<_> = UNITS
        .iter()
        .map(|(name, top, params, own)| (name.to_string(), *top, params.to_vec(), *own))
        .collect();
    for &(elem, align) in SHAPES {
        let shape = [("ELEM_BYTES", elem), ("ALIGN_BYTES", align)];
        for stream in [1, 0] {
            let mut p = shape.to_vec();
            p.push(("STREAM", stream));
            out.push((
                format!("ohls_mem_load (STREAM={stream}, {elem} B aligned to {align})"),
                "ohls_mem_load",
                p,
                &["ohls_mem_load.v"],
            ));
        }
        out.push((
            format!("ohls_mem_store ({elem} B aligned to {align})"),
            "ohls_mem_store",
            shape.to_vec(),
            &["ohls_mem_store.v"],
        ));
        let mut p = shape.to_vec();
        p.push(("STRB", 1));
        out.push((
            format!("ohls_mem_store (STRB=1, {elem} B aligned to {align})"),
            "ohls_mem_store",
            p,
            &["ohls_mem_store.v"],
        ));
    }
    out
}

fn synth(top: &str, params: &[(&str, u32)], files: &[PathBuf]) -> Result<MistralCells, String> {
    let stat =
        std::env::temp_dir().join(format!("ohls-mem-area-{}-{top}.json", std::process::id()));
    let reads: Vec<String> = files
        .iter()
        .map(|f| format!("read_verilog {};", f.display()))
        .collect();
    let chparam: String = params
        .iter()
        .map(|(k, v)| format!("chparam -set {k} {v} {top}; "))
        .collect();
    let script = format!(
        "{} {chparam}synth_intel_alm -family cyclonev -top {top}; tee -q -o {} stat -json",
        reads.join(" "),
        stat.display()
    );
    let out = Command::new("yosys")
        .args(["-q", "-p", &script])
        .output()
        .map_err(|_| {
            "yosys is not installed: run `bash scripts/install-deps.sh` (or `apt-get install -y yosys`)"
                .to_string()
        })?;
    if !out.status.success() {
        return Err(format!(
            "yosys of {top} failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = std::fs::read_to_string(&stat);
    let _ = std::fs::remove_file(&stat);
    let text = text.map_err(|e| format!("{}: {e}", stat.display()))?;
    Ok(MistralCells::from_counts(&parse_stat_json(&text)?))
}

fn main() -> ExitCode {
    println!("| unit | ALMs (est.) | LUT cells | carry cells | registers | M10K | MLAB cells |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (name, top, params, own) in rows() {
        let files: Vec<PathBuf> = own
            .iter()
            .chain(&["ohls_fifo.v", "ohls_fifo_reg.v", "ohls_fifo_ram.v"])
            .map(|f| rtl_templates::template(f))
            .collect();
        eprintln!("synthesising {name} ...");
        match synth(top, &params, &files) {
            Ok(c) => println!(
                "| {name} | {} | {} | {} | {} | {} | {} |",
                c.alms(),
                c.lut6 + c.lut_small,
                c.arith,
                c.ff,
                c.m10k,
                c.mlab
            ),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
