//! The Platform Designer system of a Quartus board as one description: its instances
//! (clock source, PLL, HPS, one component per kernel core with its control base address
//! and interrupt), its exported interfaces with the Verilog ports `qsys-generate` gives
//! them, and where each port goes in the top level. The system script, the top level and
//! the lint stub of the system are all written from this, so they cannot drift apart.

use std::fmt::Write as _;

use super::ports::Port;
use crate::board::types::{HpsSystem, PinDir};
use crate::board::Board;

/// Instance names inside the system.
pub const CLK: &str = "clk_0";
pub const PLL: &str = "pll_0";
pub const HPS: &str = "hps_0";

/// Smallest distance between two cores' control windows: one 4 KB page each, so a host
/// program can map every core on its own.
pub const CSR_STRIDE_MIN: u64 = 0x1000;

/// Where a system port goes in the top level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conn {
    /// A board pin (or one bit of a bus, `NET[i]`).
    Pin(String),
    /// A top-level wire of that name.
    Wire(String),
}

#[derive(Clone, Debug)]
pub struct SysPort {
    pub port: Port,
    pub conn: Conn,
}

/// One exported interface: its name, what it exports (`instance.interface`), its
/// Platform Designer type and direction (`clock sink`, `conduit end`, ...), its ports.
#[derive(Clone, Debug)]
pub struct Export {
    pub name: String,
    pub of: String,
    pub kind: &'static str,
    pub ports: Vec<SysPort>,
}

/// One kernel core in the system.
#[derive(Clone, Debug)]
pub struct KernelInst {
    /// The core's top module (`vadd_core`).
    pub core: String,
    /// The Platform Designer component wrapping it (`vadd_core_pd`).
    pub component: String,
    pub instance: String,
    /// The core's ports as emitted.
    pub ports: Vec<Port>,
    /// AXI4-Lite address bits of the control port.
    pub csr_addr_width: u32,
    /// Offset of the control registers inside the lightweight bridge's window.
    pub csr_offset: u64,
    /// Buffer arguments, one AXI4 master each (`m_NAME`).
    pub masters: Vec<String>,
    /// Interrupt number on the HPS's FPGA-to-HPS interrupts (`f2h_irq0`).
    pub irq: u32,
}

impl KernelInst {
    /// The control registers' address as the HPS sees it.
    pub fn csr_address(&self, board_bridge_base: u64) -> u64 {
        board_bridge_base + self.csr_offset
    }
}

#[derive(Clone, Debug)]
pub struct System {
    /// The module `qsys-generate` writes (and the `.qsys` file's stem).
    pub name: String,
    pub ref_clock_mhz: f64,
    pub kernel_clock_mhz: f64,
    /// The lightweight bridge's base address from the HPS side.
    pub bridge_base: u64,
    pub bridge_window: u64,
    /// Data width of the FPGA-to-SDRAM port.
    pub sdram_width: u32,
    pub hps: HpsSystem,
    pub kernels: Vec<KernelInst>,
    pub exports: Vec<Export>,
}

/// The board nets of the HPS DDR3 interface, by the `memory` conduit's signal; the
/// names of the Terasic reference designs.
const DDR3_NETS: &[(&str, &str)] = &[
    ("mem_a", "HPS_DDR3_ADDR"),
    ("mem_ba", "HPS_DDR3_BA"),
    ("mem_ck", "HPS_DDR3_CK_P"),
    ("mem_ck_n", "HPS_DDR3_CK_N"),
    ("mem_cke", "HPS_DDR3_CKE"),
    ("mem_cs_n", "HPS_DDR3_CS_N"),
    ("mem_ras_n", "HPS_DDR3_RAS_N"),
    ("mem_cas_n", "HPS_DDR3_CAS_N"),
    ("mem_we_n", "HPS_DDR3_WE_N"),
    ("mem_reset_n", "HPS_DDR3_RESET_N"),
    ("mem_dq", "HPS_DDR3_DQ"),
    ("mem_dqs", "HPS_DDR3_DQS_P"),
    ("mem_dqs_n", "HPS_DDR3_DQS_N"),
    ("mem_odt", "HPS_DDR3_ODT"),
    ("mem_dm", "HPS_DDR3_DM"),
    ("oct_rzqin", "HPS_DDR3_RZQ"),
];

/// Top-level wires the system drives or reads besides pins.
pub const WIRE_RESET_N: &str = "system_reset_n";
pub const WIRE_HPS_RESET_N: &str = "hps_fpga_reset_n";
pub const WIRE_PLL_LOCKED: &str = "pll_locked";

/// The top-level wire of kernel `instance`'s status signal `what` (`active`, `irq`).
pub fn status_wire(instance: &str, what: &str) -> String {
    format!("{instance}_{what}")
}

/// The system module's (and `.qsys` file's) name for `project`.
pub fn system_name(project: &str) -> String {
    format!("{project}_system")
}

/// The system of `project` on `board` with the cores `cores` (top module, ports as
/// emitted). An error names what the board file lacks or what does not fit.
pub fn describe(
    board: &Board,
    project: &str,
    cores: &[(String, Vec<Port>)],
) -> Result<System, String> {
    let hps = board.hps.as_ref().ok_or_else(|| {
        format!(
            "board {}: a Platform Designer system needs `hps`",
            board.name
        )
    })?;
    let sys = hps.system.clone().ok_or_else(|| {
        format!(
            "board {}: a Platform Designer system needs `hps.system` (SDRAM and pins)",
            board.name
        )
    })?;
    let clock = board
        .clocks
        .first()
        .ok_or_else(|| format!("board {}: no reference clock", board.name))?;
    check_hps(board, &sys)?;
    if hps.data_port.width_bits != board.memory.data_width {
        return Err(format!(
            "board {}: the FPGA-to-SDRAM port is {} bits but the kernel memory bus is {}",
            board.name, hps.data_port.width_bits, board.memory.data_width
        ));
    }

    let mut kernels = Vec::new();
    let mut offset = 0u64;
    for (i, (core, ports)) in cores.iter().enumerate() {
        let aw = ports
            .iter()
            .find(|p| p.name == "s_axil_awaddr")
            .map(|p| p.width)
            .ok_or_else(|| format!("core {core} has no AXI4-Lite control port"))?;
        for needed in ["clk", "rst", "irq"] {
            if !ports.iter().any(|p| p.name == needed) {
                return Err(format!("core {core} has no `{needed}` port"));
            }
        }
        let masters: Vec<String> = ports
            .iter()
            .filter_map(|p| {
                p.name
                    .strip_prefix("m_")
                    .and_then(|n| n.strip_suffix("_arvalid"))
                    .map(str::to_string)
            })
            .collect();
        let span = 1u64 << aw.min(32);
        let stride = span.max(CSR_STRIDE_MIN);
        offset = offset.div_ceil(stride) * stride;
        let irq = u32::try_from(i).unwrap_or(u32::MAX);
        if irq >= 32 {
            return Err("more than 32 kernel cores: the HPS has 32 FPGA interrupts".into());
        }
        kernels.push(KernelInst {
            core: core.clone(),
            component: format!("{core}_pd"),
            instance: format!("k_{core}"),
            ports: ports.clone(),
            csr_addr_width: aw,
            csr_offset: offset,
            masters,
            irq,
        });
        offset += stride;
    }
    if offset > hps.control_bridge.window_bytes {
        return Err(format!(
            "the cores' control registers need {offset:#x} bytes; the {} bridge maps {:#x}",
            hps.control_bridge.name, hps.control_bridge.window_bytes
        ));
    }

    let mut exports = vec![
        export(
            "clk",
            CLK,
            "clk_in",
            "clock sink",
            vec![("clk_clk", PinDir::In, 1, Conn::Pin(clock.name.clone()))],
        ),
        export(
            "reset",
            CLK,
            "clk_in_reset",
            "reset sink",
            vec![(
                "reset_reset_n",
                PinDir::In,
                1,
                Conn::Wire(WIRE_RESET_N.into()),
            )],
        ),
    ];
    exports.push(memory_export(&sys));
    exports.push(Export {
        name: format!("{HPS}_hps_io"),
        of: format!("{HPS}.hps_io"),
        kind: "conduit end",
        ports: sys
            .pins
            .iter()
            .map(|p| SysPort {
                port: Port::new(&format!("{HPS}_hps_io_hps_io_{}", p.signal), p.dir, 1),
                conn: Conn::Pin(p.net.clone()),
            })
            .collect(),
    });
    exports.push(export(
        &format!("{HPS}_h2f_reset"),
        HPS,
        "h2f_reset",
        "reset source",
        vec![(
            &format!("{HPS}_h2f_reset_reset_n"),
            PinDir::Out,
            1,
            Conn::Wire(WIRE_HPS_RESET_N.into()),
        )],
    ));
    exports.push(export(
        &format!("{PLL}_locked"),
        PLL,
        "locked",
        "conduit end",
        vec![(
            &format!("{PLL}_locked_export"),
            PinDir::Out,
            1,
            Conn::Wire(WIRE_PLL_LOCKED.into()),
        )],
    ));
    for k in &kernels {
        let name = format!("{}_status", k.instance);
        let ports = ["active", "irq"]
            .iter()
            .map(|what| {
                (
                    format!("{name}_{what}"),
                    PinDir::Out,
                    1,
                    Conn::Wire(status_wire(&k.instance, what)),
                )
            })
            .collect::<Vec<_>>();
        exports.push(Export {
            name: name.clone(),
            of: format!("{}.status", k.instance),
            kind: "conduit end",
            ports: ports
                .into_iter()
                .map(|(n, d, w, c)| SysPort {
                    port: Port::new(&n, d, w),
                    conn: c,
                })
                .collect(),
        });
    }
    Ok(System {
        name: system_name(project),
        ref_clock_mhz: clock.mhz,
        kernel_clock_mhz: board.kernel_clock_mhz,
        bridge_base: hps.control_bridge.base,
        bridge_window: hps.control_bridge.window_bytes,
        sdram_width: hps.data_port.width_bits,
        hps: sys,
        kernels,
        exports,
    })
}

fn export(
    name: &str,
    inst: &str,
    iface: &str,
    kind: &'static str,
    ports: Vec<(&str, PinDir, u32, Conn)>,
) -> Export {
    Export {
        name: name.to_string(),
        of: format!("{inst}.{iface}"),
        kind,
        ports: ports
            .into_iter()
            .map(|(n, d, w, c)| SysPort {
                port: Port::new(n, d, w),
                conn: c,
            })
            .collect(),
    }
}

fn memory_export(sys: &HpsSystem) -> Export {
    let d = &sys.ddr3;
    let lanes = d.dq_width / 8;
    let shape = |sig: &str| -> (PinDir, u32) {
        match sig {
            "mem_a" => (PinDir::Out, d.row_addr_width),
            "mem_ba" => (PinDir::Out, d.bank_addr_width),
            "mem_dq" => (PinDir::Inout, d.dq_width),
            "mem_dqs" | "mem_dqs_n" => (PinDir::Inout, lanes),
            "mem_dm" => (PinDir::Out, lanes),
            "oct_rzqin" => (PinDir::In, 1),
            _ => (PinDir::Out, 1),
        }
    };
    Export {
        name: "memory".into(),
        of: format!("{HPS}.memory"),
        kind: "conduit end",
        ports: DDR3_NETS
            .iter()
            .map(|(sig, net)| {
                let (dir, w) = shape(sig);
                SysPort {
                    port: Port::new(&format!("memory_{sig}"), dir, w),
                    conn: Conn::Pin(net.to_string()),
                }
            })
            .collect(),
    }
}

/// What serde cannot check in `hps.system`.
fn check_hps(board: &Board, s: &HpsSystem) -> Result<(), String> {
    let bad = |what: String| Err(format!("board {}: hps.system: {what}", board.name));
    let d = &s.ddr3;
    if d.dq_width == 0 || !d.dq_width.is_multiple_of(8) {
        return bad(format!(
            "ddr3.dq_width {} is not a multiple of 8",
            d.dq_width
        ));
    }
    if !(1..=16).contains(&d.row_addr_width) || !(1..=4).contains(&d.bank_addr_width) {
        return bad("ddr3 address widths out of range".into());
    }
    if !(d.clock_mhz.is_finite() && d.clock_mhz > 0.0 && s.osc_mhz > 0.0) {
        return bad("clock frequencies must be positive".into());
    }
    let mut seen = std::collections::BTreeSet::new();
    for p in &s.pins {
        let ident =
            |x: &str| !x.is_empty() && x.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        let (base, _) = split_net(&p.net);
        if !ident(&p.signal) || !ident(base) {
            return bad(format!(
                "pin `{}` -> `{}` is not a Verilog name",
                p.signal, p.net
            ));
        }
        if !seen.insert(p.net.clone()) {
            return bad(format!("net `{}` is named twice", p.net));
        }
    }
    if let Some(g) = s.gpio.iter().find(|g| **g >= GPIO_COUNT) {
        return bad(format!("GPIO{g} does not exist (the HPS has {GPIO_COUNT})"));
    }
    Ok(())
}

/// Entries of the `altera_hps` `GPIO_Enable` list.
pub const GPIO_COUNT: u32 = 100;

/// `NAME[3]` -> ("NAME", Some(3)); `NAME` -> ("NAME", None).
pub fn split_net(net: &str) -> (&str, Option<u32>) {
    if let Some((base, rest)) = net.split_once('[') {
        if let Some(i) = rest.strip_suffix(']').and_then(|i| i.parse().ok()) {
            return (base, Some(i));
        }
    }
    (net, None)
}

impl System {
    /// Every port of the generated system module, in export order.
    pub fn ports(&self) -> impl Iterator<Item = &SysPort> {
        self.exports.iter().flat_map(|e| e.ports.iter())
    }

    /// A module with the generated system's name and ports, for linting the top level
    /// without Quartus: outputs tied to zero, inouts released, inputs unused.
    pub fn lint_stub(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "// Lint stand-in for the Platform Designer system {}: ports only.",
            self.name
        );
        let _ = writeln!(s, "`default_nettype none");
        let _ = writeln!(s, "/* verilator lint_off UNUSED */");
        let _ = writeln!(s, "module {} (", self.name);
        let ports: Vec<&SysPort> = self.ports().collect();
        for (i, p) in ports.iter().enumerate() {
            let sep = if i + 1 == ports.len() { "" } else { "," };
            let _ = writeln!(s, "    {} {}{sep}", p.port.decl(), p.port.name);
        }
        let _ = writeln!(s, ");");
        for p in &ports {
            let w = p.port.width;
            match p.port.dir {
                PinDir::Out => {
                    let _ = writeln!(s, "    assign {} = {w}'d0;", p.port.name);
                }
                PinDir::Inout => {
                    let _ = writeln!(s, "    assign {} = {{{w}{{1'bz}}}};", p.port.name);
                }
                PinDir::In => {}
            }
        }
        let _ = writeln!(s, "endmodule");
        let _ = writeln!(s, "/* verilator lint_on UNUSED */");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSet;

    fn de10() -> Board {
        BoardSet::builtin()
            .unwrap()
            .get("de10-nano")
            .unwrap()
            .clone()
    }

    fn core(name: &str, aw: u32, bufs: &[&str]) -> (String, Vec<Port>) {
        let mut p = vec![
            Port::new("clk", PinDir::In, 1),
            Port::new("rst", PinDir::In, 1),
            Port::new("irq", PinDir::Out, 1),
            Port::new("s_axil_awaddr", PinDir::In, aw),
        ];
        for b in bufs {
            p.push(Port::new(&format!("m_{b}_arvalid"), PinDir::Out, 1));
        }
        (name.to_string(), p)
    }

    #[test]
    fn cores_get_page_aligned_windows_and_their_masters() {
        let s = describe(
            &de10(),
            "p",
            &[core("a_core", 8, &["x", "y"]), core("b_core", 13, &["z"])],
        )
        .unwrap();
        assert_eq!(s.name, "p_system");
        let k: Vec<(u64, u32, &[String])> = s
            .kernels
            .iter()
            .map(|k| (k.csr_offset, k.irq, k.masters.as_slice()))
            .collect();
        assert_eq!(k[0], (0, 0, &["x".to_string(), "y".to_string()][..]));
        assert_eq!((k[1].0, k[1].1), (0x2000, 1));
        assert_eq!(s.kernels[1].csr_address(s.bridge_base), 0xFF20_2000);
    }

    #[test]
    fn ports_follow_the_board() {
        let s = describe(&de10(), "p", &[core("a_core", 8, &["x"])]).unwrap();
        let find = |n: &str| s.ports().find(|p| p.port.name == n).cloned().unwrap();
        assert_eq!(find("memory_mem_a").port.width, 15);
        assert_eq!(find("memory_mem_dq").port.dir, PinDir::Inout);
        assert_eq!(find("memory_mem_dqs").port.width, 4);
        assert_eq!(find("clk_clk").conn, Conn::Pin("FPGA_CLK1_50".into()));
        assert_eq!(
            find("hps_0_hps_io_hps_io_uart0_inst_TX").conn,
            Conn::Pin("HPS_UART_TX".into())
        );
        assert_eq!(find("k_a_core_status_irq").port.dir, PinDir::Out);
        let stub = s.lint_stub();
        assert!(stub.contains("module p_system ("), "{stub}");
        assert!(
            stub.contains("inout  wire [31:0]    memory_mem_dq,"),
            "{stub}"
        );
    }

    #[test]
    fn a_board_without_system_data_is_refused_by_name() {
        let mut b = de10();
        if let Some(h) = b.hps.as_mut() {
            h.system = None;
        }
        let e = describe(&b, "p", &[core("a_core", 8, &[])]).unwrap_err();
        assert!(e.contains("hps.system"), "{e}");
        let mut b = de10();
        if let Some(s) = b.hps.as_mut().and_then(|h| h.system.as_mut()) {
            s.pins[0].net = "bad net".into();
        }
        let e = describe(&b, "p", &[core("a_core", 8, &[])]).unwrap_err();
        assert!(e.contains("bad net"), "{e}");
    }

    #[test]
    fn too_many_control_windows_are_refused() {
        let cores: Vec<_> = (0..3).map(|i| core(&format!("c{i}"), 20, &[])).collect();
        let e = describe(&de10(), "p", &cores).unwrap_err();
        assert!(e.contains("bridge maps"), "{e}");
    }
}
