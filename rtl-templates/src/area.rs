//! Area from Yosys cell counts: reading the counts out of `stat -json`, and turning
//! Cyclone V (`synth_intel_alm`) and ECP5 (`synth_ecp5`) cells into the units the
//! devices are sized in. Shared by the `area` example and the compiler's estimates.

use std::collections::BTreeMap;

/// Cell counts by cell type, as Yosys's `stat` reports them.
pub type CellCounts = BTreeMap<String, u64>;

/// Reads `num_cells_by_type` out of Yosys's `stat -json` output. The last such object
/// is taken: it is the `design` total (the whole hierarchy) when Yosys prints one, else
/// the last module's. A hand parser because the object is flat and this crate has no
/// dependencies; anything it does not understand is an error, never a silent zero.
pub fn parse_stat_json(text: &str) -> Result<CellCounts, String> {
    const KEY: &str = "\"num_cells_by_type\"";
    let start = text
        .rfind(KEY)
        .ok_or("no num_cells_by_type in the Yosys statistics")?;
    let rest = &text[start + KEY.len()..];
    let open = rest
        .find('{')
        .ok_or("num_cells_by_type is not followed by an object")?;
    let body = &rest[open + 1..];
    let close = body.find('}').ok_or("num_cells_by_type is not closed")?;
    let mut counts = CellCounts::new();
    for entry in body[..close].split(',') {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        let (name, n) = entry
            .rsplit_once(':')
            .ok_or_else(|| format!("cannot read the cell count `{entry}`"))?;
        let name = name.trim();
        let name = name
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .ok_or_else(|| format!("cannot read the cell name in `{entry}`"))?;
        let n: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("cannot read the cell count in `{entry}`"))?;
        *counts.entry(name.replace("\\\\", "\\")).or_default() += n;
    }
    Ok(counts)
}

/// The sum of the counts of every cell type `keep` accepts.
fn sum(counts: &CellCounts, keep: impl Fn(&str) -> bool) -> u64 {
    counts
        .iter()
        .filter(|(name, _)| keep(name))
        .map(|(_, n)| *n)
        .sum()
}

/// Cyclone V cells from `synth_intel_alm`, grouped by what they occupy.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MistralCells {
    /// MISTRAL_ALUT6: fills an ALM.
    pub lut6: u64,
    /// MISTRAL_ALUT2..5 and MISTRAL_NOT: two share an ALM.
    pub lut_small: u64,
    /// MISTRAL_ALUT_ARITH: one adder bit; an ALM in arithmetic mode holds two.
    pub arith: u64,
    pub ff: u64,
    /// MISTRAL_MLAB: 32 x 1 bits of LUT RAM; an MLAB (a LAB of 10 ALMs) holds 20.
    pub mlab: u64,
    pub m10k: u64,
    pub mul27: u64,
    pub mul18: u64,
    pub mul9: u64,
}

/// ALMs per LAB, and MISTRAL_MLAB cells (32 x 1) per MLAB (640 bits).
const ALMS_PER_LAB: u64 = 10;
const MLAB_CELLS_PER_LAB: u64 = 20;
/// Registers in one Cyclone V ALM.
const FFS_PER_ALM: u64 = 4;

impl MistralCells {
    pub fn from_counts(c: &CellCounts) -> MistralCells {
        MistralCells {
            lut6: sum(c, |n| n == "MISTRAL_ALUT6"),
            lut_small: sum(c, |n| {
                n == "MISTRAL_NOT"
                    || (n.starts_with("MISTRAL_ALUT")
                        && n != "MISTRAL_ALUT6"
                        && n != "MISTRAL_ALUT_ARITH")
            }),
            arith: sum(c, |n| n == "MISTRAL_ALUT_ARITH"),
            ff: sum(c, |n| n == "MISTRAL_FF"),
            mlab: sum(c, |n| n == "MISTRAL_MLAB"),
            m10k: sum(c, |n| n == "MISTRAL_M10K"),
            mul27: sum(c, |n| n == "MISTRAL_MUL27X27"),
            mul18: sum(c, |n| n == "MISTRAL_MUL18X18"),
            mul9: sum(c, |n| n == "MISTRAL_MUL9X9"),
        }
    }

    /// ALMs of the logic alone if Quartus packed perfectly: a 6-input LUT fills an ALM,
    /// two smaller LUTs share one, an ALM in arithmetic mode holds two adder bits.
    pub fn logic_alms(&self) -> u64 {
        self.lut6 + self.lut_small.div_ceil(2) + self.arith.div_ceil(2)
    }

    /// ALMs of the whole design: the logic, or the registers when they need more ALMs
    /// than the logic (4 per ALM), plus whole LABs for the LUT RAM.
    pub fn alms(&self) -> u64 {
        self.logic_alms().max(self.ff.div_ceil(FFS_PER_ALM))
            + self.mlab.div_ceil(MLAB_CELLS_PER_LAB) * ALMS_PER_LAB
    }

    /// Variable-precision DSP blocks: one holds a 27x27, two 18x19 or three 9x9
    /// multipliers.
    pub fn dsp_blocks(&self) -> u64 {
        self.mul27 + self.mul18.div_ceil(2) + self.mul9.div_ceil(3)
    }

    /// Multiplier cells of any size (one per MISTRAL_MUL* cell).
    pub fn multipliers(&self) -> u64 {
        self.mul27 + self.mul18 + self.mul9
    }
}

/// ECP5 cells from `synth_ecp5`, in LUT4 sites.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ecp5Cells {
    pub lut4: u64,
    /// CCU2C: two adder bits, each in one LUT4 site.
    pub ccu2c: u64,
    /// TRELLIS_DPR16X4: 16 x 4 LUT RAM, three slices (six LUT4 sites) with its write port.
    pub dpram: u64,
    pub ff: u64,
    pub mult18: u64,
    pub ebr: u64,
}

impl Ecp5Cells {
    pub fn from_counts(c: &CellCounts) -> Ecp5Cells {
        Ecp5Cells {
            lut4: sum(c, |n| n == "LUT4"),
            ccu2c: sum(c, |n| n == "CCU2C"),
            dpram: sum(c, |n| n == "TRELLIS_DPR16X4"),
            ff: sum(c, |n| n == "TRELLIS_FF"),
            mult18: sum(c, |n| n == "MULT18X18D"),
            ebr: sum(c, |n| n == "DP16KD" || n == "PDPW16KD"),
        }
    }

    /// LUT4 sites: LUT4 cells, two per carry cell, six per LUT RAM (PFUMX and L6MUX21
    /// are the slices' own muxes and take no LUT).
    pub fn lut4_sites(&self) -> u64 {
        self.lut4 + 2 * self.ccu2c + 6 * self.dpram
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `stat -json` of a 16x16 multiply-accumulate, as Yosys 0.23 printed it.
    const MAC: &str = r#"{
   "creator": "Yosys 0.23 (git sha1 7ce5011c24b)",
   "invocation": "stat -json ",
   "modules": {
      "\\t": {
         "num_cells":         66,
         "num_cells_by_type": {
            "MISTRAL_ALUT_ARITH": 32,
            "MISTRAL_FF": 32,
            "MISTRAL_MUL18X18": 1
         }
      }
   },
      "design": {
         "num_cells":         65,
         "num_cells_by_type": {
            "MISTRAL_ALUT_ARITH": 31,
            "MISTRAL_FF": 32,
            "MISTRAL_MUL18X18": 1
         }
      }
}
"#;

    #[test]
    fn the_design_total_is_read() {
        let c = parse_stat_json(MAC).unwrap();
        assert_eq!(c.get("MISTRAL_ALUT_ARITH"), Some(&31));
        assert_eq!(c.get("MISTRAL_FF"), Some(&32));
        assert_eq!(c.len(), 3);
    }

    #[test]
    fn garbage_is_an_error() {
        assert!(parse_stat_json("Number of cells: 3").is_err());
        assert!(parse_stat_json(r#""num_cells_by_type": { "A": x }"#).is_err());
        assert!(parse_stat_json(r#""num_cells_by_type": { "A": 1 "#).is_err());
    }

    #[test]
    fn empty_design_has_no_cells() {
        assert!(parse_stat_json(r#""num_cells_by_type": { }"#)
            .unwrap()
            .is_empty());
    }

    fn counts(list: &[(&str, u64)]) -> CellCounts {
        list.iter().map(|(n, c)| (n.to_string(), *c)).collect()
    }

    #[test]
    fn alms_pack_luts_adders_registers_and_lut_ram() {
        let m = MistralCells::from_counts(&counts(&[
            ("MISTRAL_ALUT6", 10),
            ("MISTRAL_ALUT3", 5),
            ("MISTRAL_NOT", 1),
            ("MISTRAL_ALUT_ARITH", 7),
            ("MISTRAL_FF", 20),
            ("MISTRAL_MLAB", 21),
        ]));
        assert_eq!(m.logic_alms(), 10 + 3 + 4);
        // 21 LUT RAM cells need two LABs.
        assert_eq!(m.alms(), 17 + 20);
        let regs = MistralCells::from_counts(&counts(&[("MISTRAL_ALUT6", 1), ("MISTRAL_FF", 9)]));
        assert_eq!(regs.alms(), 3);
    }

    #[test]
    fn dsp_blocks_pack_small_multipliers() {
        let m = MistralCells::from_counts(&counts(&[
            ("MISTRAL_MUL27X27", 2),
            ("MISTRAL_MUL18X18", 3),
            ("MISTRAL_MUL9X9", 1),
        ]));
        assert_eq!((m.dsp_blocks(), m.multipliers()), (2 + 2 + 1, 6));
    }

    #[test]
    fn ecp5_sites_count_carries_and_lut_ram() {
        let e = Ecp5Cells::from_counts(&counts(&[
            ("LUT4", 100),
            ("CCU2C", 10),
            ("TRELLIS_DPR16X4", 2),
            ("PFUMX", 40),
            ("TRELLIS_FF", 7),
            ("DP16KD", 1),
            ("PDPW16KD", 1),
        ]));
        assert_eq!(e.lut4_sites(), 132);
        assert_eq!((e.ff, e.ebr, e.mult18), (7, 2, 0));
    }
}
