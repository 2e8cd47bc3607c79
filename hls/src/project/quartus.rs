//! The Quartus project for Intel boards: `.qpf`, `.qsf` (device, top level, files, pins and
//! I/O standards), `.sdc`, and, when the board file describes its HPS system, the
//! Platform Designer system script, the kernel components under `ip/`, the top level
//! `ohls_top.v`, a `build.sh` with the vendor flow, and a README with the address map.

use std::fmt::Write as _;

use super::ports::Port;
use super::system::{self, System, CLK, HPS, PLL};
use super::{component, flow, qsys, top};
use crate::board::types::FlowKind;
use crate::board::Board;

/// The top-level entity the `.qsf` names.
pub const TOP_ENTITY: &str = "ohls_top";

/// The top-level Verilog file in `OUT/quartus/`.
pub const TOP_FILE: &str = "ohls_top.v";

/// The Quartus files as (name inside `OUT/quartus/`, text), for `project` (a plain
/// identifier) whose kernel RTL files are `rtl` (file names inside `OUT/rtl/`) and whose
/// cores are `cores` (top module, ports as emitted). `None` when the board's flow is not
/// Quartus; an error when the board file lacks what a Quartus project needs.
pub fn files(
    board: &Board,
    project: &str,
    rtl: &[String],
    cores: &[(String, Vec<Port>)],
) -> Result<Option<Vec<(String, String)>>, String> {
    if board.flow.kind != FlowKind::Quartus {
        return Ok(None);
    }
    let device = board
        .device
        .as_ref()
        .ok_or_else(|| format!("board {}: a Quartus flow needs a `device`", board.name))?;
    let clock = board.clocks.first().ok_or_else(|| {
        format!(
            "board {}: a Quartus project needs a reference clock in `clocks`",
            board.name
        )
    })?;
    if !(clock.mhz.is_finite() && clock.mhz > 0.0) {
        return Err(format!(
            "board {}: clock {} has no usable frequency",
            board.name, clock.name
        ));
    }
    let has_system = board.hps.as_ref().is_some_and(|h| h.system.is_some());
    let sys = if has_system {
        Some(system::describe(board, project, cores)?)
    } else {
        None
    };
    let qpf = format!(
        "# Quartus project of {project}, written by ocl-hls.\n\
         QUARTUS_VERSION = \"21.1\"\n\
         PROJECT_REVISION = \"{project}\"\n"
    );

    let mut qsf = String::new();
    let _ = writeln!(
        qsf,
        "# Quartus settings of {project}, written by ocl-hls for board {}.",
        board.name
    );
    let _ = writeln!(
        qsf,
        "set_global_assignment -name FAMILY \"{}\"",
        device.family
    );
    let _ = writeln!(qsf, "set_global_assignment -name DEVICE {}", device.part);
    let _ = writeln!(
        qsf,
        "set_global_assignment -name TOP_LEVEL_ENTITY {TOP_ENTITY}"
    );
    let _ = writeln!(
        qsf,
        "set_global_assignment -name PROJECT_OUTPUT_DIRECTORY output_files"
    );
    let _ = writeln!(qsf, "set_global_assignment -name SDC_FILE {project}.sdc");
    if let Some(sys) = &sys {
        let _ = writeln!(qsf, "set_global_assignment -name VERILOG_FILE {TOP_FILE}");
        let _ = writeln!(
            qsf,
            "set_global_assignment -name QIP_FILE {n}/synthesis/{n}.qip",
            n = sys.name
        );
    }
    for f in rtl {
        let _ = writeln!(qsf, "set_global_assignment -name VERILOG_FILE ../rtl/{f}");
    }
    match &sys {
        Some(sys) => pin_assignments(&mut qsf, board, sys)?,
        None => {
            let _ = writeln!(qsf, "\n# Reference clock: {} MHz.", fmt_num(clock.mhz));
            let _ = writeln!(
                qsf,
                "set_location_assignment {} -to {}",
                clock.pin, clock.name
            );
            let _ = writeln!(
                qsf,
                "set_instance_assignment -name IO_STANDARD \"{}\" -to {}",
                clock.io_standard, clock.name
            );
        }
    }

    let mut sdc = format!(
        "# Timing constraints of {project}, written by ocl-hls.\n\
         create_clock -name {name} -period {period:.3} [get_ports {{{name}}}]\n\
         derive_pll_clocks\n\
         derive_clock_uncertainty\n",
        name = clock.name,
        period = 1000.0 / clock.mhz,
    );
    if sys.is_some() {
        sdc.push_str(
            "# Kernel status for the LEDs enters the board-clock domain through two flip-flops.\n\
             set_false_path -to [get_registers {*ohls_led_sync_*[0]}]\n",
        );
    }

    let mut out = vec![
        (format!("{project}.qpf"), qpf),
        (format!("{project}.qsf"), qsf),
        (format!("{project}.sdc"), sdc),
    ];
    match &sys {
        Some(sys) => {
            let outstanding = super::shell_config_for(board).max_outstanding;
            out.push((
                format!("{}.tcl", sys.name),
                qsys::script(sys, project, &device.family, &device.part),
            ));
            out.push((TOP_FILE.to_string(), top::verilog(board, sys)?));
            for k in &sys.kernels {
                let dir = format!("ip/{}", k.component);
                out.push((
                    format!("{dir}/{}.v", k.component),
                    component::wrapper_verilog(k),
                ));
                out.push((
                    format!("{dir}/{}_hw.tcl", k.component),
                    component::hw_tcl(k, outstanding),
                ));
            }
            out.push(("build.sh".to_string(), flow::script(project, &sys.name)));
            out.push(("README.md".to_string(), readme(board, project, sys)));
        }
        None => {
            let names: Vec<String> = cores.iter().map(|(n, _)| n.clone()).collect();
            out.push((
                "README.md".to_string(),
                skeleton_readme(board, project, &names, &clock.name),
            ));
        }
    }
    Ok(Some(out))
}

/// Pins of the top level: board pins with their locations and I/O standards, HPS
/// peripheral pins with their I/O standard (their locations are fixed by the HPS), and
/// the DDR3 pins left to the HPS's own pin-assignment script.
fn pin_assignments(qsf: &mut String, board: &Board, sys: &System) -> Result<(), String> {
    let _ = writeln!(qsf, "\n# Board pins.");
    for p in top::top_ports(board, sys)? {
        let bits = |i: usize| {
            if p.port.width > 1 {
                format!("{}[{i}]", p.port.name)
            } else {
                p.port.name.clone()
            }
        };
        match (&p.pins, &p.io_standard) {
            (Some(pins), io) => {
                for (i, pin) in pins.iter().enumerate() {
                    let _ = writeln!(qsf, "set_location_assignment {pin} -to {}", bits(i));
                    if let Some(io) = io {
                        let _ = writeln!(
                            qsf,
                            "set_instance_assignment -name IO_STANDARD \"{io}\" -to {}",
                            bits(i)
                        );
                    }
                }
            }
            (None, Some(io)) => {
                for i in 0..p.port.width as usize {
                    let _ = writeln!(
                        qsf,
                        "set_instance_assignment -name IO_STANDARD \"{io}\" -to {}",
                        bits(i)
                    );
                }
            }
            (None, None) => {}
        }
    }
    let _ = writeln!(
        qsf,
        "# HPS DDR3 pins (HPS_DDR3_*): I/O standards and terminations come from \
         {} after analysis (see build.sh).",
        flow::ddr_pin_script(&sys.name)
    );
    Ok(())
}

/// `50` rather than `50.0`, `12.5` as is.
fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x}")
    }
}

fn skeleton_readme(board: &Board, project: &str, cores: &[String], clock: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Quartus project skeleton: {project} on {}\n",
        board.name
    );
    let _ = writeln!(
        s,
        "Written by ocl-hls. The kernel cores ({}) are in `../rtl/`; their register maps are in \
         `../report.json`.\n",
        cores.join(", ")
    );
    let _ = writeln!(s, "## Present\n");
    let _ = writeln!(s, "- `{project}.qpf`: the project.");
    let _ = writeln!(
        s,
        "- `{project}.qsf`: device, top-level entity name, the kernel RTL, the reference clock \
         `{clock}` with its pin and I/O standard."
    );
    let _ = writeln!(s, "- `{project}.sdc`: the reference clock.\n");
    let _ = writeln!(s, "## Missing\n");
    let _ = writeln!(
        s,
        "The board file `{}` has no `hps.system` (HPS SDRAM and pins), so no Platform \
         Designer system, top level `{TOP_ENTITY}` or vendor flow was generated. Add it as \
         in `boards/de10-nano.yaml` to get the complete project; until then Quartus stops \
         at analysis with a missing top-level entity, and the kernel clock ({} MHz from \
         `{clock}`) needs a PLL of your own.",
        board.path.display(),
        fmt_num(board.kernel_clock_mhz)
    );
    s
}

/// The README of a complete project: files, address map, LEDs, the design choices and
/// the commands.
fn readme(board: &Board, project: &str, sys: &System) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Quartus project: {project} on {}\n", board.name);
    let _ = writeln!(
        s,
        "Written by ocl-hls. The kernel cores are in `../rtl/`; their register maps (offsets \
         inside each core's window) are in `../report.json`.\n"
    );
    let _ = writeln!(s, "## Files\n");
    let _ = writeln!(
        s,
        "- `{project}.qpf`, `{project}.qsf`: project, device, files, pins."
    );
    let _ = writeln!(
        s,
        "- `{project}.sdc`: the board clock; the PLL clocks are derived."
    );
    let _ = writeln!(
        s,
        "- `{}.tcl`: the Platform Designer system (run by `qsys-script`).",
        sys.name
    );
    let _ = writeln!(
        s,
        "- `ip/CORE_pd/`: each kernel core as a Platform Designer component (`_hw.tcl`) \
         and its wrapper."
    );
    let _ = writeln!(s, "- `{TOP_FILE}`: the top level `{TOP_ENTITY}`.");
    let _ = writeln!(s, "- `build.sh`: the vendor flow below.\n");
    let _ = writeln!(s, "## System\n");
    let _ = writeln!(
        s,
        "`{CLK}` takes `{}` ({} MHz); `{PLL}` makes the {} MHz kernel clock, which also \
         clocks the HPS's lightweight HPS-to-FPGA bridge and its FPGA-to-SDRAM port. The \
         cores are reset by the keys (held) and by the HPS's `h2f_reset`.",
        board.clocks.first().map(|c| c.name.as_str()).unwrap_or("?"),
        fmt_num(sys.ref_clock_mhz),
        fmt_num(sys.kernel_clock_mhz)
    );
    let _ = writeln!(
        s,
        "\nEach core is a component with an AXI4-Lite control slave, one AXI4 master per \
         buffer argument and a level interrupt. Platform Designer builds the interconnect: \
         the control slaves are decoded behind `{HPS}.h2f_lw_axi_master`, and every master \
         goes to `{HPS}.f2h_sdram0_data` (AXI-3, {} bits), with the AXI4-to-AXI3 and burst \
         adaptation and the arbitration between masters generated for it. Buffers are \
         SDRAM byte addresses as the HPS sees them (physical addresses).\n",
        sys.sdram_width
    );
    let _ = writeln!(
        s,
        "| core | control registers (HPS physical) | window | masters | interrupt |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    for k in &sys.kernels {
        let _ = writeln!(
            s,
            "| {} | {:#010X} | {} bytes | {} | f2h_irq0 {} (GIC SPI {}) |",
            k.core,
            k.csr_address(sys.bridge_base),
            1u64 << k.csr_addr_width.min(32),
            if k.masters.is_empty() {
                "-".to_string()
            } else {
                k.masters.join(", ")
            },
            k.irq,
            40 + k.irq
        );
    }
    let _ = writeln!(s, "\n## LEDs\n");
    for (i, r) in top::LED_ROLES.iter().enumerate() {
        let _ = writeln!(s, "- LED{i}: {r}");
    }
    let _ = writeln!(s, "\n## Commands\n");
    let _ = writeln!(
        s,
        "`ocl-hls build` runs these itself when `quartus_sh` is on PATH; otherwise run \
         `sh build.sh` here, or the commands one by one:\n"
    );
    let _ = writeln!(s, "```sh");
    for st in flow::steps(project, &sys.name) {
        let _ = writeln!(s, "{}", st.shell());
    }
    let _ = writeln!(s, "```\n");
    let _ = writeln!(
        s,
        "The image is `{}` (JTAG) and `{}` (for the HPS's FPGA manager or U-Boot); when \
         ocl-hls runs the flow it copies both to the output folder and adds fmax and \
         utilization to `report.json` under `vendor` (tool logs in `logs/`).",
        flow::sof(project),
        flow::rbf(project)
    );
    s
}
