//! Shared by the harness tests: descriptions of the hand-written cores and a seeded
//! random source.
#![allow(dead_code)]

use ocl_hls_sim::{ArgDesc, ArgKind, CoreDesc, MasterDesc, MasterId};
use std::path::PathBuf;

pub fn core_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cores")
        .join(name)
}

/// Templates used by the hand-written cores (an unused one costs nothing in Verilator).
const TEMPLATES: &[&str] = &[
    "ohls_axil_csr.v",
    "ohls_axi_rd.v",
    "ohls_axi_wr.v",
    "ohls_axi_burst_gen.v",
    "ohls_fifo.v",
    "ohls_fifo_reg.v",
    "ohls_fifo_ram.v",
    "ohls_skid_buffer.v",
    "ohls_fp_add.v",
    "ohls_fp_stage.v",
    "ohls_fp_lzc.v",
    "ohls_fp_shr_sticky.v",
    "ohls_fp_round.v",
];

fn sources(core: &str) -> Vec<PathBuf> {
    let mut v = vec![core_file(core)];
    v.extend(TEMPLATES.iter().map(|t| rtl_templates::template(t)));
    v
}

fn arg(name: &str, kind: ArgKind, offset: u32, words: u32) -> ArgDesc {
    ArgDesc {
        name: name.into(),
        kind,
        offset,
        words,
    }
}

fn master(name: &str, data_width: u32, addr_width: u32) -> MasterDesc {
    MasterDesc {
        name: name.into(),
        data_width,
        addr_width,
    }
}

/// `vadd_core.v`: c = a + b on floats, plus the `fault` test knob.
pub fn vadd_desc() -> CoreDesc {
    CoreDesc {
        error_codes: Vec::new(),
        counters: Vec::new(),
        top: "vadd_core".into(),
        rtl: sources("vadd_core.v"),
        csr_addr_width: 8,
        args: vec![
            arg(
                "a",
                ArgKind::Buffer {
                    master: MasterId(0),
                    size_word: false,
                },
                0x40,
                1,
            ),
            arg(
                "b",
                ArgKind::Buffer {
                    master: MasterId(1),
                    size_word: false,
                },
                0x44,
                1,
            ),
            arg(
                "c",
                ArgKind::Buffer {
                    master: MasterId(2),
                    size_word: false,
                },
                0x48,
                1,
            ),
            arg("fault", ArgKind::Scalar { bytes: 4 }, 0x4C, 1),
        ],
        masters: vec![
            master("a", 32, 32),
            master("b", 32, 32),
            master("c", 32, 32),
        ],
    }
}

/// `scale_core.v`: dst = src * k on 32-bit integers over 256-bit, 64-bit-address masters.
pub fn scale_desc() -> CoreDesc {
    CoreDesc {
        error_codes: Vec::new(),
        counters: Vec::new(),
        top: "scale_core".into(),
        rtl: sources("scale_core.v"),
        csr_addr_width: 8,
        args: vec![
            arg(
                "src",
                ArgKind::Buffer {
                    master: MasterId(0),
                    size_word: false,
                },
                0x40,
                2,
            ),
            arg(
                "dst",
                ArgKind::Buffer {
                    master: MasterId(1),
                    size_word: false,
                },
                0x48,
                2,
            ),
            arg("k", ArgKind::Scalar { bytes: 4 }, 0x50, 1),
        ],
        masters: vec![master("src", 256, 64), master("dst", 256, 64)],
    }
}

/// `raw_core.v`: writes x[0], reads it back (after the write's B when `wait` is nonzero)
/// and writes the word read to x[1].
pub fn raw_desc() -> CoreDesc {
    CoreDesc {
        error_codes: Vec::new(),
        counters: Vec::new(),
        top: "raw_core".into(),
        rtl: sources("raw_core.v"),
        csr_addr_width: 8,
        args: vec![
            arg(
                "x",
                ArgKind::Buffer {
                    master: MasterId(0),
                    size_word: false,
                },
                0x40,
                1,
            ),
            arg("wait", ArgKind::Scalar { bytes: 4 }, 0x44, 1),
        ],
        masters: vec![master("x", 32, 32)],
    }
}

/// xorshift64*, so test data is the same on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Floats of every kind: mostly normal numbers of nearby exponents (so sums round and
    /// cancel), some of any exponent, subnormals, zeros, infinities and NaNs.
    pub fn float(&mut self) -> f32 {
        let r = self.next();
        let bits = r as u32;
        match (r >> 32) % 16 {
            0 => f32::from_bits(bits & 0x807F_FFFF), // subnormal or zero
            1 => f32::from_bits((bits & 0x8000_0000) | 0x7F80_0000), // infinity
            2 => f32::from_bits(bits | 0x7F80_0001), // NaN
            3 => f32::from_bits(bits & 0x8000_0000), // signed zero
            4..=7 => f32::from_bits(bits),           // anything
            _ => f32::from_bits((bits & 0x807F_FFFF) | (((bits >> 23) % 8 + 124) << 23)),
        }
    }
}

pub fn le_bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn le_bytes_u32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
