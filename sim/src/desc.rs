//! The description of a kernel core: its Verilog, its AXI masters and where each kernel
//! argument sits in its control registers. The compiler writes it into `report.json`.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Byte offsets of the fixed control registers (see `rtl-templates/rtl/ohls_axil_csr.v`).
pub mod regs {
    /// Bit 0 START.
    pub const CONTROL: u32 = 0x00;
    /// Bit 0 DONE, bit 1 BUSY, bits 15:8 the error code.
    pub const STATUS: u32 = 0x04;
    /// Bit 0 enables the done interrupt.
    pub const IRQ_ENABLE: u32 = 0x08;
    /// GLOBAL_SIZE0..2 follow each other from here.
    pub const GLOBAL_SIZE0: u32 = 0x10;
    /// LOCAL_SIZE0..2 follow each other from here.
    pub const LOCAL_SIZE0: u32 = 0x1C;
    /// Where argument registers start in the default map (`0x40 + 4*i`).
    pub const ARGS: u32 = 0x40;
}

/// Index of an AXI master in [`CoreDesc::masters`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MasterId(pub usize);

/// One kernel core: a Verilog top module with the interface described in `sim/README.md`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreDesc {
    /// The top module's name.
    pub top: String,
    /// Every Verilog file the core needs (its own and the templates it instantiates).
    pub rtl: Vec<PathBuf>,
    /// Width of `s_axil_awaddr`/`s_axil_araddr`.
    pub csr_addr_width: u32,
    /// The kernel arguments in declaration order.
    pub args: Vec<ArgDesc>,
    /// One AXI4 master per buffer argument, ports `m_NAME_*`.
    pub masters: Vec<MasterDesc>,
    /// What each nonzero error code of the core means.
    #[serde(default)]
    pub error_codes: Vec<(u8, String)>,
    /// Read-only registers the harness reads after DONE (the core's performance
    /// counters), reported by name in the outcome.
    #[serde(default)]
    pub counters: Vec<CounterDesc>,
}

/// A read-only 32-bit register of the core read after every run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterDesc {
    pub name: String,
    pub offset: u32,
}

/// One kernel argument and its control registers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArgDesc {
    pub name: String,
    pub kind: ArgKind,
    /// Byte offset of the first register.
    pub offset: u32,
    /// Number of consecutive 32-bit registers, low word first (0: the value is not passed).
    pub words: u32,
}

/// What an argument holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArgKind {
    /// A global or constant buffer served by one master; its registers hold the base
    /// address, then (with `size_word`) one word with the bytes the argument sees.
    Buffer {
        master: MasterId,
        #[serde(default)]
        size_word: bool,
    },
    /// A value of this many bytes, little-endian across the registers.
    Scalar { bytes: u32 },
    /// A `__local` buffer inside the core, of at most `max_bytes`; its register (if any)
    /// receives the size in bytes given at launch.
    Local { max_bytes: u64 },
}

/// One AXI4 master of the core.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MasterDesc {
    /// Port prefix is `m_NAME_`.
    pub name: String,
    /// `*data` width in bits: a power of two from 32 to 512.
    pub data_width: u32,
    /// `*addr` width in bits: 32 or 64.
    pub addr_width: u32,
}

impl MasterDesc {
    pub fn data_bytes(&self) -> u32 {
        self.data_width / 8
    }
}

impl CoreDesc {
    /// Checks everything the harness relies on, so a bad description fails before Verilator.
    pub fn validate(&self) -> Result<(), String> {
        plain_identifier(&self.top, "top module")?;
        if self.rtl.is_empty() {
            return Err(format!("core {}: no Verilog sources", self.top));
        }
        if !(4..=32).contains(&self.csr_addr_width) {
            return Err(format!(
                "core {}: csr_addr_width {} is not in 4..=32",
                self.top, self.csr_addr_width
            ));
        }
        for m in &self.masters {
            plain_identifier(&m.name, "master")?;
            if !(32..=512).contains(&m.data_width) || !m.data_width.is_power_of_two() {
                return Err(format!(
                    "master {}: data width {} is not a power of two from 32 to 512",
                    m.name, m.data_width
                ));
            }
            if m.addr_width != 32 && m.addr_width != 64 {
                return Err(format!(
                    "master {}: address width {} is neither 32 nor 64",
                    m.name, m.addr_width
                ));
            }
        }
        for (i, m) in self.masters.iter().enumerate() {
            if self.masters[..i].iter().any(|o| o.name == m.name) {
                return Err(format!("two masters are named {}", m.name));
            }
        }
        for a in &self.args {
            self.validate_arg(a)?;
        }
        for c in &self.counters {
            if c.offset & 3 != 0 || u64::from(c.offset) + 4 > 1u64 << self.csr_addr_width {
                return Err(format!(
                    "counter {}: register offset {:#x} is not a word of the {}-bit register space",
                    c.name, c.offset, self.csr_addr_width
                ));
            }
        }
        Ok(())
    }

    fn validate_arg(&self, a: &ArgDesc) -> Result<(), String> {
        if a.offset & 3 != 0 {
            return Err(format!(
                "argument {}: register offset {:#x} is not word aligned",
                a.name, a.offset
            ));
        }
        let end = u64::from(a.offset) + 4 * u64::from(a.words);
        if end > 1u64 << self.csr_addr_width {
            return Err(format!(
                "argument {}: registers end at {end:#x}, past the {}-bit register space",
                a.name, self.csr_addr_width
            ));
        }
        match &a.kind {
            ArgKind::Buffer { master, size_word } => {
                let m = self.masters.get(master.0).ok_or_else(|| {
                    format!("argument {}: master {} does not exist", a.name, master.0)
                })?;
                let words = a.words.saturating_sub(u32::from(*size_word));
                if words == 0 || words > 2 || words * 32 < m.addr_width {
                    return Err(format!(
                        "argument {}: a {}-bit address cannot take {} registers",
                        a.name, m.addr_width, words
                    ));
                }
            }
            ArgKind::Scalar { bytes } => {
                if *bytes == 0 || u64::from(*bytes) > 4 * u64::from(a.words) {
                    return Err(format!(
                        "argument {}: {} bytes do not fit {} registers",
                        a.name, bytes, a.words
                    ));
                }
            }
            ArgKind::Local { .. } => {
                if a.words > 2 {
                    return Err(format!(
                        "argument {}: a local size takes at most 2 registers",
                        a.name
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Port names are pasted into C++ member names: Verilator keeps plain names as they are, but
/// escapes double underscores and leading underscores, so those are refused here.
fn plain_identifier(name: &str, what: &str) -> Result<(), String> {
    let mut chars = name.chars();
    let ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.contains("__")
        && !name.ends_with('_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{what} name `{name}` is not a plain identifier (letters, digits, single underscores)"
        ))
    }
}
