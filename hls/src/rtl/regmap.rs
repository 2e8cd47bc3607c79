//! The control register map of a kernel core (the `ohls_axil_csr` layout plus where each
//! argument sits), serialisable for `report.json` and convertible to the Verilator
//! harness's core description so host code, harness and hardware share one map.

use super::RtlError;
use crate::frontend::types::AddrSpace;
use crate::ir::{Kernel, ParamKind};
use ocl_hls_sim::{ArgDesc, ArgKind, CoreDesc, MasterDesc, MasterId};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// First argument register of `ohls_axil_csr`.
pub const ARGS_BASE: u32 = 0x40;
/// Most argument words `ohls_axil_csr` takes (its NARGS range is 1..48).
pub const MAX_ARG_WORDS: u32 = 48;

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
    /// A `__global` or `__constant` buffer: its 64-bit base address, served by AXI master
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
                        2,
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
        };
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
                            name: a.name.clone(),
                            data_width,
                            addr_width,
                        });
                        ArgKind::Buffer {
                            master: MasterId(*master),
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
        }
    }
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
