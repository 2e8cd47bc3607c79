//! `OUT/host/`: what drives the built cores from a program. The C runtime (fixed sources
//! under `c/`, two backends: the DE10-Nano's HPS Linux and the Verilator model), per
//! kernel a header and an example host program generated from the register map, a
//! Makefile and a README with the board steps.

mod header;
mod readme;

use crate::board::types::FlowKind;
use crate::board::Board;
use crate::ir::Kernel;
use crate::rtl::regmap::RegisterMap;

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
    /// The control bridge's HPS address, on boards with one.
    pub bridge_base: Option<u64>,
    /// Address width of the cores' memory masters.
    pub addr_bits: u32,
    pub board: &'a str,
}

/// The files of `OUT/host/` as (name inside it, text).
pub fn files(board: &Board, kernels: &[HostKernel]) -> Result<Vec<(String, String)>, String> {
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
    }
    out.push(("Makefile".into(), makefile(kernels)));
    let quartus = board.flow.kind == FlowKind::Quartus;
    out.push(("README.md".into(), readme::readme(board, kernels, quartus)));
    Ok(out)
}

fn makefile(kernels: &[HostKernel]) -> String {
    let names: Vec<&str> = kernels.iter().map(|k| k.kernel.name.as_str()).collect();
    format!(
        "# Host programs of {names}, written by ocl-hls (see README.md).\n\
         #   make        NAME_host: for the DE10-Nano's ARM (HPS Linux), cross-compiled\n\
         #   make sim    NAME_host_sim: for this machine, running the Verilator model\n\
         CROSS ?= arm-linux-gnueabihf-\n\
         CC_ARM ?= $(CROSS)gcc\n\
         CC_SIM ?= cc\n\
         CFLAGS ?= -O2\n\
         WARN = -std=c11 -Wall -Wextra\n\
         KERNELS = {list}\n\
         COMMON = ohls_runtime.c ohls_example.c\n\
         HEADERS = ohls_runtime.h ohls_backend.h ohls_example.h\n\n\
         all: $(KERNELS:%=%_host)\n\
         sim: $(KERNELS:%=%_host_sim)\n\n\
         %_host: %_main.c %.h $(COMMON) ohls_de10.c $(HEADERS)\n\
         \t$(CC_ARM) $(WARN) $(CFLAGS) -o $@ $< $(COMMON) ohls_de10.c\n\n\
         %_host_sim: %_main.c %.h $(COMMON) ohls_sim.c $(HEADERS)\n\
         \t$(CC_SIM) $(WARN) $(CFLAGS) -o $@ $< $(COMMON) ohls_sim.c\n\n\
         clean:\n\
         \trm -f $(KERNELS:%=%_host) $(KERNELS:%=%_host_sim)\n\n\
         .PHONY: all sim clean\n",
        names = names.join(", "),
        list = names.join(" ")
    )
}
