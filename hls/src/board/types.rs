//! The typed form of a board file (`boards/NAME.yaml`): device, resources, clocks,
//! memory interface, vendor flow, pins, HPS facts and the operator library. Every struct
//! rejects unknown fields, so a typo is an error with its line instead of a silent default.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::oplib::Operators;

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    /// The canonical name; must equal the file name without `.yaml`.
    pub name: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub description: String,
    /// Absent for the `sim` board (Verilator only).
    pub device: Option<Device>,
    /// Required with a device; absent means unlimited (simulation).
    pub resources: Option<Resources>,
    #[serde(default)]
    pub clocks: Vec<Clock>,
    /// The clock the kernel core is scheduled for; the operator library's latencies
    /// and chaining budget hold at this frequency.
    pub kernel_clock_mhz: f64,
    pub memory: Memory,
    pub flow: Flow,
    #[serde(default)]
    pub pins: Pins,
    pub hps: Option<Hps>,
    pub operators: Operators,
    /// The file the board was read from (`<builtin>/NAME.yaml` for embedded boards).
    #[serde(skip)]
    pub path: PathBuf,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Device {
    pub vendor: String,
    pub family: String,
    pub part: String,
    pub package: String,
    pub speed_grade: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LogicUnit {
    /// Intel adaptive logic module (two 6-input LUT halves, adders, four registers).
    Alm,
    /// A 4-input LUT (Lattice ECP5 and iCE40).
    Lut4,
}

impl LogicUnit {
    pub fn name(self) -> &'static str {
        match self {
            LogicUnit::Alm => "ALMs",
            LogicUnit::Lut4 => "LUT4s",
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Resources {
    pub logic: Logic,
    pub registers: u64,
    pub dsps: Dsps,
    pub block_ram: RamBlocks,
    /// A second kind of RAM block (iCE40 SPRAM), if the device has one.
    pub large_ram: Option<RamBlocks>,
    pub plls: u32,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Logic {
    pub unit: LogicUnit,
    pub count: u64,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Dsps {
    pub count: u64,
    /// What one block multiplies (e.g. "27x27 or 2x 18x19 or 3x 9x9").
    pub kind: String,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RamBlocks {
    /// The vendor's name for the block (M10K, EBR, SPRAM).
    pub name: String,
    pub count: u64,
    pub bits_each: u64,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    pub name: String,
    pub pin: String,
    pub mhz: f64,
    pub io_standard: String,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// What the kernel's AXI masters talk to.
    pub description: String,
    /// Bits per beat of the kernel's memory port.
    pub data_width: u32,
    pub burst_beats: u32,
    /// Cycles of the kernel clock from a read request to its first data beat, as the
    /// simulator models it and the scheduler assumes.
    pub latency_cycles: u32,
    pub size_bytes: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FlowKind {
    Quartus,
    YosysNextpnrEcp5,
    YosysNextpnrIce40,
    Verilator,
}

impl FlowKind {
    pub fn name(self) -> &'static str {
        match self {
            FlowKind::Quartus => "quartus",
            FlowKind::YosysNextpnrEcp5 => "yosys+nextpnr-ecp5",
            FlowKind::YosysNextpnrIce40 => "yosys+nextpnr-ice40",
            FlowKind::Verilator => "verilator",
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Flow {
    pub kind: FlowKind,
    /// Programs the flow runs, in order.
    pub tools: Vec<String>,
    /// The Yosys command that estimates resources before the vendor tools (absent for
    /// `sim`).
    pub estimate: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Pins {
    pub leds: Option<PinGroup>,
    pub keys: Option<PinGroup>,
    pub switches: Option<PinGroup>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PinGroup {
    pub io_standard: String,
    #[serde(default)]
    pub active_low: bool,
    /// Pin names in bit order (LED0, LED1, ...).
    pub pins: Vec<String>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Hps {
    pub cpu: String,
    pub sdram: HpsSdram,
    /// Where the kernel's control registers are mapped.
    pub control_bridge: Bridge,
    /// The port the kernel's AXI masters use for data.
    pub data_port: DataPort,
    /// What a Platform Designer system needs to configure the HPS for this board (SDRAM
    /// geometry and timing, peripherals, HPS pins); without it the Quartus project has
    /// no system and says so.
    pub system: Option<HpsSystem>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HpsSystem {
    /// The HPS oscillator (HPS_CLK1) in MHz.
    pub osc_mhz: f64,
    /// I/O standard of the HPS peripheral pins.
    pub io_standard: String,
    pub ddr3: Ddr3,
    /// Peripherals routed to HPS pins, as the `altera_hps` parameters name them.
    #[serde(default)]
    pub peripherals: Vec<HpsPeripheral>,
    /// HPS GPIO numbers routed to pins (`GPIO_Enable`).
    #[serde(default)]
    pub gpio: Vec<u32>,
    /// Every HPS peripheral pin the system exports and the board net it goes to.
    #[serde(default)]
    pub pins: Vec<HpsPin>,
}

/// The HPS SDRAM controller's memory: geometry and the memory part's timing.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Ddr3 {
    pub clock_mhz: f64,
    pub dq_width: u32,
    pub row_addr_width: u32,
    pub col_addr_width: u32,
    pub bank_addr_width: u32,
    /// CAS latency and CAS write latency, in memory clocks.
    pub tcl: u32,
    pub tcwl: u32,
    pub trcd_ns: f64,
    pub trp_ns: f64,
    pub tras_ns: f64,
    pub trfc_ns: f64,
    pub trefi_us: f64,
    pub twr_ns: f64,
    pub trrd_ns: f64,
    pub tfaw_ns: f64,
    pub trtp_ns: f64,
    pub twtr_ck: u32,
    pub tmrd_ck: u32,
    /// Output drive strength and nominal on-die termination (e.g. "RZQ/6").
    pub drive_strength: String,
    pub rtt_nom: String,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HpsPeripheral {
    /// `altera_hps` name: EMAC1, SDIO, USB1, UART0, SPIM1, I2C0, ...
    pub name: String,
    pub mode: String,
    /// e.g. "HPS I/O Set 0".
    pub pin_mux: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PinDir {
    In,
    Out,
    Inout,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HpsPin {
    /// The signal inside the `hps_io` conduit, e.g. `emac1_inst_TX_CLK`.
    pub signal: String,
    /// The board's net name, used as the top-level port.
    pub net: String,
    pub dir: PinDir,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HpsSdram {
    pub kind: String,
    pub size_bytes: u64,
    pub width_bits: u32,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Bridge {
    pub name: String,
    pub base: u64,
    pub width_bits: u32,
    pub window_bytes: u64,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DataPort {
    pub name: String,
    pub width_bits: u32,
    pub burst_beats: u32,
}

impl Board {
    /// The target kernel clock period in nanoseconds.
    pub fn period_ns(&self) -> f64 {
        1000.0 / self.kernel_clock_mhz
    }
}

#[cfg(test)]
mod tests {
    use crate::board::load::parse;
    use std::path::Path;

    const DE10: &str = include_str!("../../../boards/de10-nano.yaml");

    #[test]
    fn hps_system_data_is_read() {
        let b = parse(DE10, Path::new("de10-nano.yaml")).unwrap_or_else(|e| panic!("{e:?}"));
        let s = b
            .hps
            .and_then(|h| h.system)
            .unwrap_or_else(|| panic!("no hps.system"));
        assert_eq!((s.ddr3.dq_width, s.ddr3.row_addr_width), (32, 15));
        assert_eq!(s.ddr3.clock_mhz, 400.0);
        assert!(s.peripherals.iter().any(|p| p.name == "UART0"));
        assert_eq!(s.gpio, [9, 35, 40, 53, 54, 61]);
        assert!(s.pins.iter().any(|p| p.net == "HPS_ENET_TX_DATA[3]"));
    }

    #[test]
    fn a_typo_in_hps_system_names_field_and_line() {
        let text = DE10.replace("      tcwl: 7", "      tcwll: 7");
        let line = text
            .lines()
            .position(|l| l.contains("tcwll"))
            .map(|i| i + 1)
            .unwrap_or(0);
        let e = parse(&text, Path::new("de10-nano.yaml")).unwrap_err();
        assert!(e[0].message.contains("tcwll"), "{}", e[0]);
        assert_eq!(e[0].line_col.map(|(l, _)| l), Some(line), "{}", e[0]);
        let text = DE10.replace("dir: out}", "dir: sideways}");
        let e = parse(&text, Path::new("de10-nano.yaml")).unwrap_err();
        assert!(e[0].message.contains("sideways"), "{}", e[0]);
    }
}
