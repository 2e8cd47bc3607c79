//! `OUT/rtl/NAME.core`: a FuseSoC (CAPI2) core file per kernel core, listing its Verilog
//! files (its own and the templates it uses) and its top module, for designs that pull
//! the core in through FuseSoC. Targets: `default` (the files and top) and `lint`
//! (Verilator lint of the core alone).

use std::fmt::Write as _;

/// The VLNV of kernel `name`'s core: `ocl-hls:kernels:NAME:0`.
pub fn vlnv(name: &str) -> String {
    format!("ocl-hls:kernels:{}:0", name.to_lowercase())
}

/// The core file of kernel `name` with top module `top` and Verilog `files` (names in
/// `rtl/`).
pub fn core_file(name: &str, top: &str, files: &[String]) -> String {
    let mut s = String::from("CAPI=2:\n");
    let _ = writeln!(
        s,
        "# Kernel core {top} of OpenCL kernel {name}, written by ocl-hls."
    );
    let _ = writeln!(s, "name: {}", vlnv(name));
    let _ = writeln!(
        s,
        "description: \"ocl-hls kernel core {top}: AXI4-Lite control, one AXI4 master per buffer\"\n"
    );
    s.push_str("filesets:\n  rtl:\n    files:\n");
    for f in files {
        let _ = writeln!(s, "      - {f}");
    }
    s.push_str("    file_type: verilogSource\n\ntargets:\n");
    let _ = writeln!(
        s,
        "  default:\n    filesets: [rtl]\n    toplevel: {top}\n  lint:\n    \
         default_tool: verilator\n    filesets: [rtl]\n    tools:\n      verilator:\n        \
         mode: lint-only\n    toplevel: {top}"
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_files_and_top() {
        let c = core_file(
            "vadd",
            "vadd_core",
            &["vadd_core.v".into(), "ohls_axil_csr.v".into()],
        );
        assert!(c.starts_with("CAPI=2:\n"));
        assert!(c.contains("name: ocl-hls:kernels:vadd:0"));
        assert!(c.contains("      - vadd_core.v\n      - ohls_axil_csr.v\n"));
        assert!(c.contains("toplevel: vadd_core"));
    }
}
