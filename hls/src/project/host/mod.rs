//! `OUT/host/`: what drives the built cores from a program. The C runtime (fixed sources
//! under `c/`, two backends: the DE10-Nano's HPS Linux and the Verilator model), per
//! kernel a header and an example host program generated from the register map, the
//! harness sources and per-core bindings under `sim/` (so `make model` builds the
//! Verilator model the simulation backend runs), a Makefile and a README with the board
//! steps.

mod header;
mod readme;

use crate::board::types::FlowKind;
use crate::board::Board;
use crate::ir::Kernel;
use crate::rtl::regmap::RegisterMap;
use std::path::PathBuf;

/// The runtime's fixed sources, as they go into `OUT/host/`.
pub const RUNTIME: &[(&str, &str)] = &[
    ("ohls_runtime.h", include_str!("c/ohls_runtime.h")),
    ("ohls_runtime.c", include_str!("c/ohls_runtime.c")),
    ("ohls_backend.h", include_str!("c/ohls_backend.h")),
    ("ohls_de10.c", include_str!("c/ohls_de10.c")),
    ("ohls_sim.c", include_str!("c/ohls_sim.c")),
    ("ohls_example.h", include_str!("c/ohls_example.h")),
    ("ohls_example.c", include_str!("c/ohls_example.c")),
];

/// One kernel core as the host side sees it.
pub struct HostKernel<'a> {
    pub kernel: &'a Kernel,
    pub regmap: &'a RegisterMap,
    pub top: &'a str,
    /// Offset of the core's registers inside the control bridge's window.
    pub csr_offset: u64,
    /// The control bridge's HPS address and the core's interrupt, on boards with them.
    pub bridge_base: Option<u64>,
    pub irq: Option<u32>,
    /// Address and data width of the cores' memory masters.
    pub addr_bits: u32,
    pub data_bits: u32,
    /// The core's Verilog files in `rtl/` (its own, then the templates it uses).
    pub rtl: Vec<String>,
    pub board: &'a str,
}

/// The files of `OUT/host/` as (name inside it, text).
pub fn files(
    board: &Board,
    project: &str,
    kernels: &[HostKernel],
) -> Result<Vec<(String, String)>, String> {
    let mut out: Vec<(String, String)> = RUNTIME
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    for k in kernels {
        let name = &k.kernel.name;
        if RUNTIME
            .iter()
            .any(|(n, _)| n.strip_suffix(".h") == Some(name) || n.strip_suffix(".c") == Some(name))
        {
            return Err(format!(
                "kernel {name}: its host header would replace a runtime file; rename the kernel"
            ));
        }
        out.push((format!("{name}.h"), header::header(k)?));
        out.push((format!("{name}_main.c"), header::example(k)?));
        let desc = k.regmap.core_desc(
            k.top,
            k.rtl.iter().map(PathBuf::from).collect(),
            k.data_bits,
            k.addr_bits,
        );
        desc.validate()?;
        out.push((
            format!("sim/bind_{name}.cpp"),
            ocl_hls_sim::binding::generate(&desc),
        ));
    }
    let harness = harness()?;
    let cpp: Vec<&str> = harness
        .iter()
        .map(|(n, _)| n.as_str())
        .filter(|n| n.ends_with(".cpp"))
        .collect();
    let make = makefile(kernels, &cpp);
    out.extend(harness);
    out.push(("Makefile".into(), make));
    let quartus = board.flow.kind == FlowKind::Quartus;
    out.push((
        "README.md".into(),
        readme::readme(board, project, kernels, quartus),
    ));
    Ok(out)
}

/// The harness's C++ sources (`sim/cpp` of the `ocl-hls-sim` crate) as `sim/NAME`.
fn harness() -> Result<Vec<(String, String)>, String> {
    let dir = ocl_hls_sim::model::cpp_dir();
    let mut files = Vec::new();
    let entries =
        std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for e in entries {
        let p = e.map_err(|e| e.to_string())?.path();
        if !p.extension().is_some_and(|x| x == "cpp" || x == "h") {
            continue;
        }
        let text =
            std::fs::read_to_string(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        files.push((format!("sim/{}", name.unwrap_or_default()), text));
    }
    files.sort();
    Ok(files)
}

/// Per kernel the Verilator model's rule: its top module, RTL and binding.
fn model_rules(kernels: &[HostKernel]) -> String {
    let mut s = String::new();
    for k in kernels {
        let name = &k.kernel.name;
        let rtl: Vec<String> = k.rtl.iter().map(|f| format!("../rtl/{f}")).collect();
        s.push_str(&format!(
            "{name}_model: sim/bind_{name}.cpp $(HARNESS) {rtl}\n\
             \t$(VERILATOR) --cc --exe --build -j 2 --x-assign unique -CFLAGS \"-O2 -std=c++17 -I$(CURDIR)/sim\" \\\n\
             \t  --top-module {top} -Mdir obj_{name} -o {name}_model {rtl} \\\n\
             \t  $(CURDIR)/sim/bind_{name}.cpp $(addprefix $(CURDIR)/,$(HARNESS))\n\
             \tcp obj_{name}/{name}_model $@\n\n",
            top = k.top,
            rtl = rtl.join(" ")
        ));
    }
    s
}

fn makefile(kernels: &[HostKernel], harness_cpp: &[&str]) -> String {
    let names: Vec<&str> = kernels.iter().map(|k| k.kernel.name.as_str()).collect();
    format!(
        "# Host programs of {names}, written by ocl-hls (see README.md).\n\
         #   make        NAME_host: for the DE10-Nano's ARM (HPS Linux), cross-compiled\n\
         #   make sim    NAME_host_sim: for this machine, running the Verilator model\n\
         #   make model  NAME_model: the Verilator model of each core (needs verilator)\n\
         CROSS ?= arm-linux-gnueabihf-\n\
         VERILATOR ?= verilator\n\
         CC_ARM ?= $(CROSS)gcc\n\
         CC_SIM ?= cc\n\
         CFLAGS ?= -O2\n\
         WARN = -std=c11 -Wall -Wextra\n\
         KERNELS = {list}\n\
         COMMON = ohls_runtime.c ohls_example.c\n\
         HEADERS = ohls_runtime.h ohls_backend.h ohls_example.h\n\
         HARNESS = {harness}\n\n\
         all: $(KERNELS:%=%_host)\n\
         sim: $(KERNELS:%=%_host_sim)\n\
         model: $(KERNELS:%=%_model)\n\n\
         %_host: %_main.c %.h $(COMMON) ohls_de10.c $(HEADERS)\n\
         \t$(CC_ARM) $(WARN) $(CFLAGS) -o $@ $< $(COMMON) ohls_de10.c\n\n\
         %_host_sim: %_main.c %.h $(COMMON) ohls_sim.c $(HEADERS)\n\
         \t$(CC_SIM) $(WARN) $(CFLAGS) -o $@ $< $(COMMON) ohls_sim.c\n\n\
         {models}\
         clean:\n\
         \trm -rf $(KERNELS:%=%_host) $(KERNELS:%=%_host_sim) $(KERNELS:%=%_model) $(KERNELS:%=obj_%)\n\n\
         .PHONY: all sim model clean\n",
        names = names.join(", "),
        list = names.join(" "),
        models = model_rules(kernels),
        harness = harness_cpp.join(" ")
    )
}
