//! The output folder of `ocl-hls build`: `rtl/` (the generated cores and exactly the
//! templates they use, copied, and a FuseSoC core file per core), `report.json`, `host/`
//! (the C runtime, headers and example programs), and for Quartus boards `quartus/`; put
//! together in memory and written all or nothing.

pub mod component;
pub mod flow;
pub mod fusesoc;
pub mod host;
pub mod ports;
pub mod qsys;
pub mod quartus;
pub mod reports;
pub mod system;
pub mod top;
pub mod vendor;

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::board::types::FlowKind;
use crate::board::Board;
use crate::ir::Kernel;
use crate::rtl::regmap::RegisterMap;
use crate::rtl::shell::ShellConfig;

pub use crate::outdir::{check_out_dir, write_tree, Tree};

/// The file whose presence marks a folder as an earlier build's output.
pub const MARKER: &str = "report.json";

/// The bus the kernel cores get on `board`: the board's memory port (data width, burst
/// length) with 32-bit addresses. The `sim` board's port is the 256-bit one its memory
/// model describes, so simulated cycle counts are those of the DE10-Nano's bus.
pub fn shell_config_for(board: &Board) -> ShellConfig {
    let sim = ShellConfig::sim();
    ShellConfig {
        data_width: board.memory.data_width,
        addr_width: 32,
        max_burst: board.memory.burst_beats,
        ..sim
    }
}

/// One generated core as the output folder needs it.
pub struct CoreFiles<'a> {
    pub kernel: &'a Kernel,
    pub regmap: &'a RegisterMap,
    pub top: &'a str,
    pub files: &'a [(String, String)],
    pub templates: &'a [PathBuf],
}

/// The template files' names in `rtl/`, by their source path.
pub fn template_name(path: &std::path::Path) -> Result<String, String> {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| format!("template path {} has no file name", path.display()))
}

/// The whole output folder: every core's files and the union of their templates under
/// `rtl/`, `report.json`, and the Quartus skeleton when the board's flow is Quartus.
/// `project` names the Quartus project (a plain identifier).
pub fn assemble(
    board: &Board,
    project: &str,
    cores: &[CoreFiles],
    report_json: &str,
) -> Result<Tree, String> {
    let mut tree = Tree::default();
    let mut rtl = Vec::new();
    for c in cores {
        for (name, text) in c.files {
            tree.add(&format!("rtl/{name}"), text.as_bytes())?;
            rtl.push(name.clone());
        }
    }
    let mut templates = BTreeMap::new();
    for c in cores {
        for t in c.templates {
            templates.insert(template_name(t)?, t.clone());
        }
    }
    for (name, path) in &templates {
        let bytes = std::fs::read(path)
            .map_err(|e| format!("cannot read template {}: {e}", path.display()))?;
        tree.add(&format!("rtl/{name}"), bytes)?;
        rtl.push(name.clone());
    }
    tree.add(MARKER, report_json.as_bytes())?;
    let mut tops = Vec::new();
    for c in cores
        .iter()
        .filter(|_| board.flow.kind == FlowKind::Quartus)
    {
        let file = format!("{}.v", c.top);
        let text = c
            .files
            .iter()
            .find(|(n, _)| *n == file)
            .map(|(_, t)| t)
            .ok_or_else(|| format!("core {}: no file {file}", c.top))?;
        tops.push((c.top.to_string(), ports::parse(text, c.top)?));
    }
    if let Some(files) = quartus::files(board, project, &rtl, &tops)? {
        for (name, text) in files {
            tree.add(&format!("quartus/{name}"), text.into_bytes())?;
        }
    }
    for c in cores {
        let mut own: Vec<String> = c.files.iter().map(|(n, _)| n.clone()).collect();
        for t in c.templates {
            own.push(template_name(t)?);
        }
        let core = fusesoc::core_file(&c.kernel.name, c.top, &own);
        tree.add(&format!("rtl/{}.core", c.kernel.name), core.into_bytes())?;
    }
    for (name, text) in host_files(board, project, cores, &tops)? {
        tree.add(&format!("host/{name}"), text.into_bytes())?;
    }
    Ok(tree)
}

/// `host/`: each core's control window from the Platform Designer system on boards that
/// have one (0 elsewhere: the simulation runs one core per model).
fn host_files(
    board: &Board,
    project: &str,
    cores: &[CoreFiles],
    tops: &[(String, Vec<ports::Port>)],
) -> Result<Vec<(String, String)>, String> {
    let hps = board.hps.as_ref().filter(|h| h.system.is_some());
    let sys = match hps {
        Some(_) if board.flow.kind == FlowKind::Quartus => {
            Some(system::describe(board, project, tops)?)
        }
        _ => None,
    };
    let bus = shell_config_for(board);
    let mut kernels = Vec::new();
    for c in cores {
        let mut rtl: Vec<String> = c.files.iter().map(|(n, _)| n.clone()).collect();
        let mut templates = c
            .templates
            .iter()
            .map(|t| template_name(t))
            .collect::<Result<Vec<_>, _>>()?;
        templates.sort();
        rtl.extend(templates);
        let inst = sys
            .as_ref()
            .and_then(|s| s.kernels.iter().find(|k| k.core == c.top));
        kernels.push(host::HostKernel {
            kernel: c.kernel,
            regmap: c.regmap,
            top: c.top,
            csr_offset: inst.map(|k| k.csr_offset).unwrap_or(0),
            irq: inst.map(|k| k.irq),
            bridge_base: sys.as_ref().map(|s| s.bridge_base),
            addr_bits: bus.addr_width,
            data_bits: bus.data_width,
            rtl,
            board: &board.name,
        });
    }
    host::files(board, project, &kernels)
}

/// A Quartus project name from the source file's stem: identifier characters only.
pub fn project_name(source: &std::path::Path) -> String {
    let stem = source
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        name.insert_str(0, "k_");
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSet;

    fn board(name: &str) -> Board {
        BoardSet::builtin().unwrap().get(name).unwrap().clone()
    }

    /// A one-buffer kernel `k` and its register map.
    fn kernel_k() -> (Kernel, RegisterMap) {
        let src = "__kernel void k(__global int *a) { *a = 1; }";
        let c = crate::frontend::check_source("k.cl", src, &crate::frontend::Options::default());
        let lowered = crate::lower::lower(c.program.as_ref().unwrap(), &c.sources).unwrap();
        let k = lowered.kernels.into_iter().next().unwrap();
        let map = RegisterMap::for_kernel(&k, 1024).unwrap();
        (k, map)
    }

    #[test]
    fn bus_follows_the_board() {
        let sim = shell_config_for(&board("sim"));
        assert_eq!((sim.data_width, sim.addr_width), (256, 32));
        let de10 = shell_config_for(&board("de10"));
        assert_eq!(
            (de10.data_width, de10.addr_width, de10.max_burst),
            (256, 32, 16)
        );
    }

    #[test]
    fn project_names_are_identifiers() {
        assert_eq!(project_name(std::path::Path::new("a/vadd.cl")), "vadd");
        assert_eq!(project_name(std::path::Path::new("2-x.cl")), "k_2_x");
    }

    #[test]
    fn quartus_skeleton_only_for_quartus_boards() {
        let files = [(
            "k_core.v".to_string(),
            "module k_core (\n    input  wire clk,\n    input  wire rst,\n    output wire irq,\n    \
             input  wire [7:0] s_axil_awaddr\n);\nendmodule\n"
                .to_string(),
        )];
        let (kernel, regmap) = kernel_k();
        let core = CoreFiles {
            kernel: &kernel,
            regmap: &regmap,
            top: "k_core",
            files: &files,
            templates: &[],
        };
        let sim = assemble(&board("sim"), "k", &[core], "{}\n").unwrap();
        let names: Vec<&str> = sim
            .files
            .keys()
            .map(String::as_str)
            .filter(|n| !n.starts_with("host/"))
            .collect();
        assert_eq!(names, vec!["report.json", "rtl/k.core", "rtl/k_core.v"]);
        for f in [
            "host/k.h",
            "host/k_main.c",
            "host/ohls_runtime.c",
            "host/Makefile",
        ] {
            assert!(sim.files.contains_key(f), "{f}");
        }
        let core = CoreFiles {
            kernel: &kernel,
            regmap: &regmap,
            top: "k_core",
            files: &files,
            templates: &[],
        };
        let de10 = assemble(&board("de10"), "k", &[core], "{}\n").unwrap();
        let qsf = String::from_utf8(de10.files["quartus/k.qsf"].clone()).unwrap();
        assert!(qsf.contains("DEVICE 5CSEBA6U23I7"), "{qsf}");
        assert!(
            qsf.contains("set_location_assignment PIN_V11 -to FPGA_CLK1_50"),
            "{qsf}"
        );
        assert!(
            qsf.contains("IO_STANDARD \"3.3-V LVTTL\" -to FPGA_CLK1_50"),
            "{qsf}"
        );
        assert!(qsf.contains("VERILOG_FILE ../rtl/k_core.v"), "{qsf}");
        let sdc = String::from_utf8(de10.files["quartus/k.sdc"].clone()).unwrap();
        assert!(
            sdc.contains("-period 20.000 [get_ports {FPGA_CLK1_50}]"),
            "{sdc}"
        );
        assert!(qsf.contains("TOP_LEVEL_ENTITY ohls_top"), "{qsf}");
        assert!(
            qsf.contains("QIP_FILE k_system/synthesis/k_system.qip"),
            "{qsf}"
        );
        assert!(
            qsf.contains("set_location_assignment PIN_W15 -to LED[0]"),
            "{qsf}"
        );
        for f in [
            "quartus/k_system.tcl",
            "quartus/ohls_top.v",
            "quartus/build.sh",
            "quartus/ip/k_core_pd/k_core_pd.v",
            "quartus/ip/k_core_pd/k_core_pd_hw.tcl",
        ] {
            assert!(de10.files.contains_key(f), "{f}");
        }
        assert!(de10.files.contains_key("quartus/k.qpf"));
        let h = String::from_utf8(de10.files["host/k.h"].clone()).unwrap();
        assert!(h.contains("#define K_CSR_ADDRESS 0xff200000u"), "{h}");
        let readme = String::from_utf8(de10.files["host/README.md"].clone()).unwrap();
        assert!(readme.contains("| k | k_core | 0xFF200000 |"), "{readme}");
        assert!(de10.files.contains_key("quartus/README.md"));
    }
}
