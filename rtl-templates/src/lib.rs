//! The RTL template library: where the Verilog files live, a Verilator driver that
//! builds a template with a C++ testbench once per (sources, parameters) and caches it,
//! and area from Yosys cell counts ([`area`]).

pub mod area;
pub mod verilator;

use std::path::PathBuf;

/// The folder holding the `.v` templates.
pub fn rtl_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("rtl")
}

/// Every template file, sorted by name.
pub fn template_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(rtl_dir())
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "v" || x == "sv"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// The path of one template by file name (`"fifo.v"`).
pub fn template(name: &str) -> PathBuf {
    rtl_dir().join(name)
}
