//! The control register map of a kernel core (the `ohls_axil_csr` layout plus where each
//! argument sits), serialisable for `report.json` and convertible to the Verilator
//! harness's core description so host code, harness and hardware share one map.

use super::RtlError;
use crate::frontend::types::AddrSpace;
use crate::ir::{Kernel, ParamKind};
use ocl_hls_sim::{ArgDesc, ArgKind, CoreDesc, CounterDesc, MasterDesc, MasterId};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// First argument register of `ohls_axil_csr`.
pub const ARGS_BASE: u32 = 0x40;
/// Most argument words `ohls_axil_csr` takes (its NARGS range is 1..48).
pub const MAX_ARG_WORDS: u32 = 48;
/// Register words of a buffer argument: the base address (low, high), the size in bytes.
pub const BUFFER_WORDS: u32 = 3;
/// First performance counter register of `ohls_axil_csr` (read-only, after the arguments'
/// space; a core with counters has a 9-bit register address).
pub const COUNTERS_BASE: u32 = 0x100;
/// Most counter registers `ohls_axil_csr` takes.
pub const MAX_COUNTERS: u32 = 64;

/// The core's error codes (STATUS bits 15:8, sampled with DONE). The memory masters'
/// error responses are bits 0 and 1; a launch the hardware was not built for ends at
/// once, before any memory access, with a code of its own.
pub mod error_code {
    /// A read got an error response (RRESP) from memory.
    pub const READ_RESPONSE: u8 = 0x01;
    /// A write got an error response (BRESP) from memory.
    pub const WRITE_RESPONSE: u8 = 0x02;
    /// The local size differs from the kernel's `reqd_work_group_size`.
    pub const LOCAL_SIZE: u8 = 0x10;
    /// A global size is not a multiple of the required local size.
    pub const GLOBAL_SIZE: u8 = 0x11;

    /// Every code with what it means, for the harness, the host runtime and the report.
    pub const ALL: [(u8, &str); 5] = [
        (READ_RESPONSE, "a read got an error response from memory"),
        (WRITE_RESPONSE, "a write got an error response from memory"),
        (
            READ_RESPONSE | WRITE_RESPONSE,
            "reads and writes got error responses from memory",
        ),
        (
            LOCAL_SIZE,
            "the local size differs from the kernel's reqd_work_group_size",
        ),
        (
            GLOBAL_SIZE,
            "a global size is not a multiple of the required local size",
        ),
    ];
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterMap {
    /// Bit 0 START (self-clearing).
    pub control: u32,
    /// Bit 0 DONE, bit 1 BUSY, bits 15:8 the error code.
    pub status: u32,
    /// Bit 0 done interrupt, bit 1 error interrupt.
    pub irq_enable: u32,
    /// Write 1 to clear: bit 0 done event, bit 1 error event.
    pub irq_status: u32,
    pub global_size: [u32; 3],
    pub local_size: [u32; 3],
    /// Read-only: the number of argument words.
    pub nargs: u32,
    /// Read-only: 0x4F484C53 ("OHLS").
    pub magic: u32,
    /// Width of the AXI4-Lite address.
    pub addr_width: u32,
    pub args: Vec<RegArg>,
    /// Read-only performance counters from `COUNTERS_BASE`, one word each.
    #[serde(default)]
    pub counters: Vec<RegCounter>,
}

/// One performance counter of a pipelined loop: a 32-bit count, cleared at START,
/// wrapping.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegCounter {
    /// `L<loop>_<kind>`, the name the harness reports it by.
    pub name: String,
    #[serde(rename = "loop")]
    pub lp: u32,
    pub kind: CounterKind,
    pub offset: u32,
}

/// What a loop's counter counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CounterKind {
    /// Cycles the loop's controller state was active (fill, drain and stalls included).
    Cycles,
    /// Cycles it was taking iterations into its first stage, stalled or not.
    Issue,
    /// Cycles the pipeline stood stalled (a memory unit not ready).
    Stall,
    /// Cycles it stood stalled while taking iterations in.
    IssueStall,
    /// Iterations that entered the pipeline (the last one of each entry, or each
    /// work-group, only runs the exit test).
    Admitted,
    /// Iterations that passed the exit test: the loop's trip count over the run.
    Iterations,
}

impl CounterKind {
    pub const ALL: [CounterKind; 6] = [
        CounterKind::Cycles,
        CounterKind::Issue,
        CounterKind::Stall,
        CounterKind::IssueStall,
        CounterKind::Admitted,
        CounterKind::Iterations,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CounterKind::Cycles => "cycles",
            CounterKind::Issue => "issue",
            CounterKind::Stall => "stall",
            CounterKind::IssueStall => "issue_stall",
            CounterKind::Admitted => "admitted",
            CounterKind::Iterations => "iterations",
        }
    }
}

/// One kernel argument's registers: `words` consecutive 32-bit registers from `offset`,
/// low word first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegArg {
    pub name: String,
    pub offset: u32,
    pub words: u32,
    pub kind: RegArgKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RegArgKind {
    /// A `__global` or `__constant` buffer: its 64-bit base address (two words), then its
    /// size in bytes (one word: what the kernel may touch from the base; the core checks
    /// with it that buffers it pipelines as distinct do not overlap), served by AXI master
    /// number `master` (ports `m_NAME_*`).
    Buffer { master: usize, constant: bool },
    /// A scalar or vector value of `bytes` bytes, little-endian across the words.
    Scalar { bytes: u32 },
    /// A struct passed by value: its `bytes` bytes as the host lays them out.
    Struct { bytes: u32 },
    /// A `__local` pointer: the size in bytes the host asks for, at most `max_bytes`.
    Local { max_bytes: u64 },
}

impl RegisterMap {
    /// The map for `k`'s parameters in order. `local_max_bytes` bounds each `__local`
    /// pointer argument's memory.
    pub fn for_kernel(k: &Kernel, local_max_bytes: u64) -> Result<RegisterMap, RtlError> {
        let mut args = Vec::new();
        let mut offset = ARGS_BASE;
        let mut masters = 0;
        for p in &k.params {
            let (kind, words) = match &p.kind {
                ParamKind::Buffer { space } => {
                    masters += 1;
                    let constant = matches!(space, AddrSpace::Constant);
                    (
                        RegArgKind::Buffer {
                            master: masters - 1,
                            constant,
                        },
                        BUFFER_WORDS,
                    )
                }
                ParamKind::LocalBuffer => (
                    RegArgKind::Local {
                        max_bytes: local_max_bytes,
                    },
                    1,
                ),
                ParamKind::Value => {
                    let bytes = byte_count(k, &p.name, p.ty.store_size())?;
                    (RegArgKind::Scalar { bytes }, bytes.div_ceil(4))
                }
                ParamKind::Struct { object } => {
                    let size = k
                        .objects
                        .get(object.0 as usize)
                        .map(|o| o.size)
                        .ok_or_else(|| {
                            RtlError::new(&k.name, format!("parameter {}: no object", p.name))
                        })?;
                    let bytes = byte_count(k, &p.name, size)?;
                    (RegArgKind::Struct { bytes }, bytes.div_ceil(4))
                }
            };
            args.push(RegArg {
                name: p.name.clone(),
                offset,
                words,
                kind,
            });
            offset += 4 * words;
        }
        let map = RegisterMap {
            control: 0x00,
            status: 0x04,
            irq_enable: 0x08,
            irq_status: 0x0C,
            global_size: [0x10, 0x14, 0x18],
            local_size: [0x1C, 0x20, 0x24],
            nargs: 0x38,
            magic: 0x3C,
            addr_width: 8,
            args,
            counters: Vec::new(),
        };
        let buffers: Vec<&RegArg> = map
            .args
            .iter()
            .filter(|a| matches!(a.kind, RegArgKind::Buffer { .. }))
            .collect();
        for (i, a) in buffers.iter().enumerate() {
            if let Some(b) = buffers[..i]
                .iter()
                .find(|b| hw_name(&b.name) == hw_name(&a.name))
            {
                return Err(RtlError::new(
                    &k.name,
                    format!(
                        "buffers `{}` and `{}` would both get the AXI master `m_{}`; rename one",
                        b.name,
                        a.name,
                        hw_name(&a.name)
                    ),
                ));
            }
        }
        if map.arg_words() > MAX_ARG_WORDS {
            return Err(RtlError::new(
                &k.name,
                format!(
                    "the arguments take {} register words; the control block holds at most {}",
                    map.arg_words(),
                    MAX_ARG_WORDS
                ),
            ));
        }
        Ok(map)
    }

    /// The map with performance counters from `COUNTERS_BASE` (the register address
    /// grows to reach them).
    pub fn with_counters(mut self, counters: Vec<RegCounter>) -> RegisterMap {
        if !counters.is_empty() {
            self.addr_width = self.addr_width.max(9);
        }
        self.counters = counters;
        self
    }

    /// Words of all arguments together.
    pub fn arg_words(&self) -> u32 {
        self.args.iter().map(|a| a.words).sum()
    }

    /// The NARGS parameter of `ohls_axil_csr`: at least 1 (it refuses 0).
    pub fn csr_nargs(&self) -> u32 {
        self.arg_words().max(1)
    }

    /// The harness's description of a core with this map whose masters all have
    /// `data_width`-bit data and `addr_width`-bit addresses.
    pub fn core_desc(
        &self,
        top: &str,
        rtl: Vec<PathBuf>,
        data_width: u32,
        addr_width: u32,
    ) -> CoreDesc {
        let mut masters = Vec::new();
        let args = self
            .args
            .iter()
            .map(|a| {
                let kind = match &a.kind {
                    RegArgKind::Buffer { master, .. } => {
                        masters.push(MasterDesc {
                            name: hw_name(&a.name),
                            data_width,
                            addr_width,
                        });
                        ArgKind::Buffer {
                            master: MasterId(*master),
                            size_word: true,
                        }
                    }
                    RegArgKind::Scalar { bytes } | RegArgKind::Struct { bytes } => {
                        ArgKind::Scalar { bytes: *bytes }
                    }
                    RegArgKind::Local { max_bytes } => ArgKind::Local {
                        max_bytes: *max_bytes,
                    },
                };
                ArgDesc {
                    name: a.name.clone(),
                    kind,
                    offset: a.offset,
                    words: a.words,
                }
            })
            .collect();
        CoreDesc {
            top: top.into(),
            rtl,
            csr_addr_width: self.addr_width,
            args,
            masters,
            error_codes: error_code::ALL
                .iter()
                .map(|(c, m)| (*c, m.to_string()))
                .collect(),
            counters: self
                .counters
                .iter()
                .map(|c| CounterDesc {
                    name: c.name.clone(),
                    offset: c.offset,
                })
                .collect(),
        }
    }
}

/// A kernel or buffer name as it appears in the core's module and port names
/// (`NAME_core`, `m_NAME_arvalid`), which other tools paste into their own names
/// (Verilator into C++ members, where it escapes double and leading underscores). A plain
/// identifier (a letter first, then letters, digits and single underscores, no `_` at the
/// end) passes through; any other name becomes `x` followed by the name with each `_`
/// written `_u` and any other non-alphanumeric character `_xHEXx`, which is plain, and
/// different for different names that are not plain.
pub fn hw_name(name: &str) -> String {
    let mut chars = name.chars();
    let plain = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.contains("__")
        && !name.ends_with('_');
    if plain {
        return name.to_string();
    }
    let mut out = String::from("x");
    for c in name.chars() {
        match c {
            '_' => out.push_str("_u"),
            c if c.is_ascii_alphanumeric() => out.push(c),
            c => out.push_str(&format!("_x{:x}x", c as u32)),
        }
    }
    out
}

fn byte_count(k: &Kernel, name: &str, size: u64) -> Result<u32, RtlError> {
    match u32::try_from(size) {
        Ok(b) if b > 0 && b <= 4 * MAX_ARG_WORDS => Ok(b),
        _ => Err(RtlError::new(
            &k.name,
            format!("parameter {name}: {size} bytes cannot be passed in registers"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::{hw_name, RegisterMap};
    use crate::frontend::{check_source, Options};

    fn map_of(src: &str) -> Result<RegisterMap, String> {
        let c = check_source("k.cl", src, &Options::default());
        let program = c.program.as_ref().ok_or("no program")?;
        let lowered = crate::lower::lower(program, &c.sources).map_err(|_| "lowering failed")?;
        let k = lowered.kernels.first().ok_or("no kernel")?;
        RegisterMap::for_kernel(k, 1024).map_err(|e| e.to_string())
    }

    #[test]
    fn buffers_whose_port_names_collide_are_refused() {
        let ok = map_of("__kernel void k(__global int *a__b, __global int *a_b) { *a_b = *a__b; }");
        assert!(ok.is_ok(), "{ok:?}");
        let e = map_of(
            "__kernel void k(__global int *a__b, __global int *xa_u_ub) { *xa_u_ub = *a__b; }",
        )
        .expect_err("the masters would share a name");
        assert!(
            e.contains("`a__b` and `xa_u_ub`") && e.contains("m_xa_u_ub"),
            "{e}"
        );
    }

    #[test]
    fn plain_names_pass_through() {
        for n in ["a", "vadd", "in_0", "A1_b2"] {
            assert_eq!(hw_name(n), n);
        }
    }

    #[test]
    fn other_names_become_plain_and_stay_distinct() {
        let names = ["__a", "a__b", "a_", "_", "a___b", "a_ub", "x_ua__b", "é"];
        let mapped: Vec<String> = names.iter().map(|n| hw_name(n)).collect();
        assert_eq!(mapped[0], "x_u_ua");
        assert_eq!(mapped[1], "xa_u_ub");
        for m in &mapped {
            let ok = m.starts_with(|c: char| c.is_ascii_alphabetic())
                && m.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !m.contains("__")
                && !m.ends_with('_');
            assert!(ok, "{m} is not a plain identifier");
        }
        for (i, m) in mapped.iter().enumerate() {
            assert!(!mapped[..i].contains(m), "{m} appears twice in {mapped:?}");
        }
    }
}
