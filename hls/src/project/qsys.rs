//! The Platform Designer system script (`NAME_system.tcl`, for `qsys-script`): clock
//! source, a PLL for the kernel clock, the Cyclone V HPS configured from the board file,
//! and the kernel cores as components with their control slaves behind the lightweight
//! HPS-to-FPGA bridge and their AXI4 masters on the FPGA-to-SDRAM port. Platform Designer
//! builds the interconnect: AXI4 to the port's AXI3, burst and width adaptation,
//! arbitration between the masters, reset synchronisers.

use std::fmt::Write as _;

use super::flow;
use super::system::{Export, System, CLK, GPIO_COUNT, HPS, PLL};

/// The `altera_hps` peripherals a board may route; every one not named by the board is
/// switched off explicitly, so the system does not depend on the IP's defaults.
const PERIPHERALS: &[&str] = &[
    "EMAC0", "EMAC1", "NAND", "QSPI", "SDIO", "USB0", "USB1", "SPIM0", "SPIM1", "SPIS0", "SPIS1",
    "UART0", "UART1", "I2C0", "I2C1", "I2C2", "I2C3", "CAN0", "CAN1", "TRACE",
];

/// A Tcl brace word; the board and kernel names in it are identifiers or plain text
/// checked by the board loader, so only braces need care.
fn brace(v: &str) -> String {
    format!("{{{}}}", v.replace(['{', '}'], ""))
}

fn param(s: &mut String, inst: &str, name: &str, value: impl ToString) {
    let _ = writeln!(
        s,
        "set_instance_parameter_value {inst} {{{name}}} {}",
        brace(&value.to_string())
    );
}

/// The script of `project`'s system; `device`/`family` name the FPGA for the project
/// properties.
pub fn script(sys: &System, project: &str, family: &str, device: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Platform Designer system {}, written by ocl-hls. Run in this folder:",
        sys.name
    );
    for st in flow::steps(project, &sys.name).iter().take(2) {
        let _ = writeln!(s, "#   {}", st.shell());
    }
    let _ = writeln!(
        s,
        "package require -exact qsys 16.1\n\n\
         create_system {name}\n\
         set_project_property DEVICE_FAMILY {}\n\
         set_project_property DEVICE {}\n",
        brace(family),
        brace(device),
        name = sys.name
    );

    let _ = writeln!(s, "# Reference clock from the board.");
    let _ = writeln!(s, "add_instance {CLK} clock_source");
    param(
        &mut s,
        CLK,
        "clockFrequency",
        format!("{:.1}", sys.ref_clock_mhz * 1e6),
    );
    param(&mut s, CLK, "clockFrequencyKnown", 1);
    param(&mut s, CLK, "resetSynchronousEdges", "NONE");

    let _ = writeln!(
        s,
        "\n# Kernel clock: the frequency the cores were scheduled for."
    );
    let _ = writeln!(s, "add_instance {PLL} altera_pll");
    param(
        &mut s,
        PLL,
        "gui_reference_clock_frequency",
        sys.ref_clock_mhz,
    );
    param(&mut s, PLL, "gui_number_of_clocks", 1);
    param(
        &mut s,
        PLL,
        "gui_output_clock_frequency0",
        sys.kernel_clock_mhz,
    );
    param(&mut s, PLL, "gui_operation_mode", "direct");
    param(&mut s, PLL, "gui_use_locked", "true");

    hps(&mut s, sys);

    for k in &sys.kernels {
        let _ = writeln!(s, "\n# Kernel core {}.", k.core);
        let _ = writeln!(s, "add_instance {} {} 1.0", k.instance, k.component);
    }

    let _ = writeln!(s, "\n# Clocks and resets.");
    let kclk = format!("{PLL}.outclk0");
    conn(&mut s, &format!("{CLK}.clk"), &format!("{PLL}.refclk"));
    conn(&mut s, &format!("{CLK}.clk_reset"), &format!("{PLL}.reset"));
    conn(&mut s, &kclk, &format!("{HPS}.h2f_lw_axi_clock"));
    conn(&mut s, &kclk, &format!("{HPS}.f2h_sdram0_clock"));
    for k in &sys.kernels {
        conn(&mut s, &kclk, &format!("{}.clock", k.instance));
        conn(
            &mut s,
            &format!("{CLK}.clk_reset"),
            &format!("{}.reset", k.instance),
        );
        conn(
            &mut s,
            &format!("{HPS}.h2f_reset"),
            &format!("{}.reset", k.instance),
        );
    }

    let _ = writeln!(
        s,
        "\n# Control: lightweight HPS-to-FPGA bridge, seen by the HPS at {:#010X}.",
        sys.bridge_base
    );
    for k in &sys.kernels {
        let from = format!("{HPS}.h2f_lw_axi_master");
        let to = format!("{}.s_axil", k.instance);
        let _ = writeln!(
            s,
            "# {}: control registers at {:#010X} from the HPS.",
            k.core,
            k.csr_address(sys.bridge_base)
        );
        conn(&mut s, &from, &to);
        let _ = writeln!(
            s,
            "set_connection_parameter_value {from}/{to} baseAddress {{{:#010x}}}",
            k.csr_offset
        );
    }

    let _ = writeln!(
        s,
        "\n# Data: every buffer master on the {}-bit FPGA-to-SDRAM port; SDRAM byte \
         addresses as the HPS sees them.",
        sys.sdram_width
    );
    for k in &sys.kernels {
        for m in &k.masters {
            let from = format!("{}.m_{m}", k.instance);
            let to = format!("{HPS}.f2h_sdram0_data");
            conn(&mut s, &from, &to);
            let _ = writeln!(
                s,
                "set_connection_parameter_value {from}/{to} baseAddress {{0x00000000}}"
            );
        }
    }

    let _ = writeln!(s, "\n# Interrupts: core i on FPGA-to-HPS interrupt i.");
    for k in &sys.kernels {
        let from = format!("{HPS}.f2h_irq0");
        let to = format!("{}.irq", k.instance);
        conn(&mut s, &from, &to);
        let _ = writeln!(
            s,
            "set_connection_parameter_value {from}/{to} irqNumber {{{}}}",
            k.irq
        );
    }

    let _ = writeln!(
        s,
        "\n# Exported interfaces (the ports of module {}).",
        sys.name
    );
    for e in &sys.exports {
        export(&mut s, e);
    }
    let _ = writeln!(
        s,
        "\nset_interconnect_requirement {{$system}} {{qsys_mm.clockCrossingAdapter}} {{HANDSHAKE}}\n\
         save_system {}.qsys",
        sys.name
    );
    s
}

fn conn(s: &mut String, from: &str, to: &str) {
    let _ = writeln!(s, "add_connection {from} {to}");
}

fn export(s: &mut String, e: &Export) {
    let _ = writeln!(s, "add_interface {} {}", e.name, e.kind);
    let _ = writeln!(s, "set_interface_property {} EXPORT_OF {}", e.name, e.of);
}

fn hps(s: &mut String, sys: &System) {
    let h = &sys.hps;
    let d = &h.ddr3;
    let _ = writeln!(
        s,
        "\n# Hard processor system: SDRAM, peripherals, bridges (board file `hps.system`)."
    );
    let _ = writeln!(s, "add_instance {HPS} altera_hps");
    // Bridges: only the lightweight HPS-to-FPGA bridge (control) and one FPGA-to-SDRAM
    // AXI-3 port (data); the full-width bridges are off.
    param(s, HPS, "S2F_Width", 0);
    param(s, HPS, "F2S_Width", 0);
    param(s, HPS, "LWH2F_Enable", "true");
    param(s, HPS, "F2SDRAM_Type", "AXI-3");
    param(s, HPS, "F2SDRAM_Width", sys.sdram_width);
    param(s, HPS, "F2SINTERRUPT_Enable", 1);
    param(s, HPS, "MPU_EVENTS_Enable", 0);
    param(s, HPS, "GP_Enable", 0);
    param(s, HPS, "eosc1_clk_mhz", h.osc_mhz);
    param(s, HPS, "REF_CLK_FREQ", h.osc_mhz);
    // The SDRAM.
    param(s, HPS, "HPS_PROTOCOL", "DDR3");
    param(s, HPS, "MEM_VENDOR", "Other");
    param(s, HPS, "MEM_VOLTAGE", "1.5V DDR3");
    param(s, HPS, "MEM_FORMAT", "DISCRETE");
    param(s, HPS, "MEM_CLK_FREQ", format!("{:.1}", d.clock_mhz));
    param(s, HPS, "MEM_DQ_WIDTH", d.dq_width);
    param(s, HPS, "MEM_DQ_PER_DQS", 8);
    param(s, HPS, "MEM_ROW_ADDR_WIDTH", d.row_addr_width);
    param(s, HPS, "MEM_COL_ADDR_WIDTH", d.col_addr_width);
    param(s, HPS, "MEM_BANKADDR_WIDTH", d.bank_addr_width);
    param(s, HPS, "MEM_TCL", d.tcl);
    param(s, HPS, "MEM_WTCL", d.tcwl);
    param(s, HPS, "MEM_DRV_STR", &d.drive_strength);
    param(s, HPS, "MEM_RTT_NOM", &d.rtt_nom);
    for (name, v) in [
        ("MEM_TRCD_NS", d.trcd_ns),
        ("MEM_TRP_NS", d.trp_ns),
        ("MEM_TRAS_NS", d.tras_ns),
        ("MEM_TRFC_NS", d.trfc_ns),
        ("MEM_TREFI_US", d.trefi_us),
        ("MEM_TWR_NS", d.twr_ns),
        ("MEM_TRRD_NS", d.trrd_ns),
        ("MEM_TFAW_NS", d.tfaw_ns),
        ("MEM_TRTP_NS", d.trtp_ns),
    ] {
        param(s, HPS, name, v);
    }
    param(s, HPS, "MEM_TWTR", d.twtr_ck);
    param(s, HPS, "MEM_TMRD_CK", d.tmrd_ck);
    // Peripherals on HPS pins.
    for p in PERIPHERALS {
        let (mode, mux) = match h.peripherals.iter().find(|x| x.name == *p) {
            Some(x) => (x.mode.as_str(), x.pin_mux.as_str()),
            None => ("N/A", "Unused"),
        };
        param(s, HPS, &format!("{p}_Mode"), mode);
        param(s, HPS, &format!("{p}_PinMuxing"), mux);
    }
    let gpio: Vec<&str> = (0..GPIO_COUNT)
        .map(|i| if h.gpio.contains(&i) { "Yes" } else { "No" })
        .collect();
    param(s, HPS, "GPIO_Enable", gpio.join(" "));
}
