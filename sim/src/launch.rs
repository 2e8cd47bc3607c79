//! What a run takes (the NDRange, the argument values, the memory's timing) and what it
//! gives back (the buffers, the cycle count, per-master traffic).

use serde::{Deserialize, Serialize};

/// One kernel launch.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimLaunch {
    pub global: [u32; 3],
    pub local: [u32; 3],
    /// One value per [`crate::CoreDesc::args`] entry, same order and kind.
    pub args: Vec<SimArg>,
}

/// The value of one argument.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SimArg {
    /// The buffer's initial contents; the harness places it in memory and reads it back.
    Buffer(Vec<u8>),
    /// The buffer of argument `arg` (a `Buffer`), seen from `offset` bytes on: the host
    /// passed one buffer twice. Read back as part of `arg`'s buffer.
    SameAs { arg: usize, offset: u64 },
    /// The value's bytes, little-endian.
    Scalar(Vec<u8>),
    /// The size in bytes of a `__local` buffer.
    Local(u64),
}

/// Random stalls on every channel of every master and of the control port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stalls {
    pub seed: u64,
    /// Chance in percent that a channel holds back (READY or VALID low) in a given cycle.
    pub percent: u8,
}

/// Timing of the memory behind the masters.
///
/// The defaults approximate the DE10-Nano, whose kernels reach the HPS DDR3 through the
/// FPGA-to-SDRAM bridge: a read takes roughly 300-400 ns there, which is about 40 cycles at
/// a 100-150 MHz kernel clock (Intel's OpenCL BSP budgets ~240 cycles, but at a faster
/// kernel clock and with deep request FIFOs; 40 keeps latency visible without making every
/// test slow). One 256-bit beat per cycle at 100 MHz is 3.2 GB/s, the DDR3's peak, so the
/// bridge is modelled as one shared port moving at most one beat per cycle. Its ports
/// take bursts of up to 16 beats.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemConfig {
    /// Cycles from an accepted AR to its first R beat (at least 1).
    pub read_latency: u32,
    /// Cycles from a burst's last W beat to its B response (at least 1). The burst's
    /// bytes reach memory when the B is taken: a read accepted earlier returns the old
    /// bytes, as AXI allows.
    pub write_latency: u32,
    /// Beats per cycle across all masters, reads and writes together (`None`: unlimited).
    pub bandwidth: Option<f64>,
    /// Bursts a master may have in flight per direction before ARREADY/AWREADY drop.
    pub max_outstanding: u32,
    /// Longest burst the memory takes; a longer one is a protocol error.
    pub max_burst: u32,
    pub stalls: Option<Stalls>,
}

impl Default for MemConfig {
    fn default() -> MemConfig {
        MemConfig {
            read_latency: 40,
            write_latency: 20,
            bandwidth: Some(1.0),
            max_outstanding: 8,
            max_burst: 16,
            stalls: None,
        }
    }
}

impl MemConfig {
    /// An ideal memory: one cycle of latency, no bandwidth limit, AXI4's longest bursts.
    pub fn ideal() -> MemConfig {
        MemConfig {
            read_latency: 1,
            write_latency: 1,
            bandwidth: None,
            max_outstanding: 64,
            max_burst: 256,
            stalls: None,
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        if self.read_latency == 0 || self.write_latency == 0 {
            return Err("memory latencies must be at least 1 cycle".into());
        }
        if let Some(bw) = self.bandwidth {
            if !(bw.is_finite() && bw >= 0.001) {
                return Err(format!(
                    "bandwidth {bw} beats/cycle is not a positive number"
                ));
            }
        }
        if self.max_outstanding == 0 {
            return Err("max_outstanding must be at least 1".into());
        }
        if !(1..=256).contains(&self.max_burst) {
            return Err(format!("max_burst {} is not in 1..=256", self.max_burst));
        }
        if let Some(s) = self.stalls {
            if s.percent >= 100 {
                return Err(format!(
                    "stall chance {}% would never let a beat through",
                    s.percent
                ));
            }
        }
        Ok(())
    }
}

/// Traffic seen on one master.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MasterStats {
    pub name: String,
    pub read_bursts: u64,
    pub read_beats: u64,
    pub write_bursts: u64,
    pub write_beats: u64,
}

/// The result of a run that reached DONE with error code 0.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimOutcome {
    /// Per argument: the buffer's final contents, `None` for other kinds.
    pub buffers: Vec<Option<Vec<u8>>>,
    /// Cycles from the START write's handshake to the `irq` that signals DONE.
    pub cycles: u64,
    /// STATUS bits 15:8 at DONE (always 0 here: a nonzero code is returned as an error).
    pub error_code: u8,
    pub stats: Vec<MasterStats>,
    /// The core's counters (`CoreDesc::counters`), read after DONE: (name, value).
    #[serde(default)]
    pub counters: Vec<(String, u32)>,
}
