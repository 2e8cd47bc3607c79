//! Yosys cell counts to board resources: which cells of each synthesis library
//! (`synth_intel_alm`, `synth_ecp5`, `synth_ice40`) take logic, registers, DSPs and RAM
//! blocks, measured in the board file's units.

use rtl_templates::area::{CellCounts, Ecp5Cells, MistralCells};

use super::fit::{Amount, Usage};
use crate::board::types::{LogicUnit, Resources};

/// The cell library a Yosys synthesis command maps to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    /// Cyclone V (and other ALM devices): MISTRAL_* cells.
    IntelAlm,
    Ecp5,
    Ice40,
}

impl Library {
    /// The library of a board's `flow.estimate` command, by its first word.
    pub fn of_command(command: &str) -> Result<Library, String> {
        match command.split_whitespace().next() {
            Some("synth_intel_alm") => Ok(Library::IntelAlm),
            Some("synth_ecp5") => Ok(Library::Ecp5),
            Some("synth_ice40") => Ok(Library::Ice40),
            other => Err(format!(
                "the estimate command `{command}` is not one of synth_intel_alm, synth_ecp5, \
                 synth_ice40 (first word: {})",
                other.unwrap_or("none")
            )),
        }
    }

    /// The logic unit the board file must count in for this library.
    fn logic_unit(self) -> LogicUnit {
        match self {
            Library::IntelAlm => LogicUnit::Alm,
            Library::Ecp5 | Library::Ice40 => LogicUnit::Lut4,
        }
    }
}

fn count(c: &CellCounts, keep: impl Fn(&str) -> bool) -> u64 {
    c.iter().filter(|(n, _)| keep(n)).map(|(_, n)| *n).sum()
}

/// Resource use of one synthesised core on a board with `res`.
pub fn usage(lib: Library, c: &CellCounts, res: &Resources) -> Result<Usage, String> {
    if res.logic.unit != lib.logic_unit() {
        return Err(format!(
            "the board counts logic in {} but its estimate command maps to {}",
            res.logic.unit.name(),
            lib.logic_unit().name()
        ));
    }
    let (logic, registers, dsps, bram, large) = match lib {
        Library::IntelAlm => {
            let m = MistralCells::from_counts(c);
            (m.alms(), m.ff, m.dsp_blocks(), m.m10k, 0)
        }
        Library::Ecp5 => {
            let e = Ecp5Cells::from_counts(c);
            (e.lut4_sites(), e.ff, e.mult18, e.ebr, 0)
        }
        // SB_CARRY shares its LUT's site, so LUT4 cells are the logic.
        Library::Ice40 => (
            count(c, |n| n == "SB_LUT4"),
            count(c, |n| n.starts_with("SB_DFF")),
            count(c, |n| n == "SB_MAC16"),
            count(c, |n| n.starts_with("SB_RAM40_4K")),
            count(c, |n| n == "SB_SPRAM256KA"),
        ),
    };
    Ok(Usage {
        logic: Amount::new(res.logic.unit.name(), logic, res.logic.count),
        registers: Amount::new("registers", registers, res.registers),
        dsps: Amount::new("DSPs", dsps, res.dsps.count),
        block_ram: Amount::new(&res.block_ram.name, bram, res.block_ram.count),
        large_ram: res
            .large_ram
            .as_ref()
            .map(|r| Amount::new(&r.name, large, r.count)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSet;
    use rtl_templates::area::parse_stat_json;

    fn resources(board: &str) -> Resources {
        let set = BoardSet::builtin().unwrap();
        set.get(board).unwrap().resources.clone().unwrap()
    }

    /// `stat -json` counts of vadd_core after Yosys 0.23 `synth_intel_alm -family
    /// cyclonev -noiopad -noclkbuf` (the design section only).
    const VADD_DE10: &str = r#"{
      "design": {
         "num_cells":         18703,
         "num_cells_by_type": {
            "MISTRAL_ALUT2": 1102,
            "MISTRAL_ALUT3": 2944,
            "MISTRAL_ALUT4": 551,
            "MISTRAL_ALUT5": 1348,
            "MISTRAL_ALUT6": 500,
            "MISTRAL_ALUT_ARITH": 2799,
            "MISTRAL_FF": 9090,
            "MISTRAL_M10K": 26,
            "MISTRAL_MLAB": 227,
            "MISTRAL_NOT": 115
         }
      }
}"#;

    /// Yosys 0.23 `synth_ecp5` of vadd_core for the ULX3S.
    const VADD_ULX3S: &str = r#"{
      "design": {
         "num_cells":         12502,
         "num_cells_by_type": {
            "CCU2C": 1336,
            "L6MUX21": 86,
            "LUT4": 4460,
            "PFUMX": 443,
            "TRELLIS_DPR16X4": 87,
            "TRELLIS_FF": 6090
         }
      }
}"#;

    const ICE40: &str = r#"{ "design": { "num_cells_by_type": {
            "SB_CARRY": 40, "SB_DFF": 10, "SB_DFFE": 5, "SB_DFFESR": 2, "SB_LUT4": 300,
            "SB_MAC16": 3, "SB_RAM40_4K": 31, "SB_SPRAM256KA": 1 } } }"#;

    #[test]
    fn cyclone_v_alms_dsps_and_m10ks() {
        let c = parse_stat_json(VADD_DE10).unwrap();
        let u = usage(Library::IntelAlm, &c, &resources("de10-nano")).unwrap();
        // 500 + ceil(6060 / 2) + ceil(2799 / 2) = 4930 logic ALMs (above 9090 / 4), and
        // 227 LUT RAM cells in 12 MLABs of 10 ALMs.
        assert_eq!(u.logic.used, 4930 + 120);
        assert_eq!(u.logic.name, "ALMs");
        assert_eq!((u.logic.available, u.logic.percent), (41910, 12.0));
        assert_eq!(
            (u.registers.used, u.dsps.used, u.block_ram.used),
            (9090, 0, 26)
        );
        assert_eq!(u.block_ram.name, "M10K");
        assert!(u.large_ram.is_none());
    }

    #[test]
    fn ecp5_lut4_sites() {
        let c = parse_stat_json(VADD_ULX3S).unwrap();
        let u = usage(Library::Ecp5, &c, &resources("ulx3s")).unwrap();
        assert_eq!(u.logic.used, 4460 + 2 * 1336 + 6 * 87);
        assert_eq!((u.registers.used, u.block_ram.name.as_str()), (6090, "EBR"));
    }

    #[test]
    fn ice40_counts_every_flip_flop_kind_and_spram() {
        let c = parse_stat_json(ICE40).unwrap();
        let u = usage(Library::Ice40, &c, &resources("icebreaker")).unwrap();
        assert_eq!((u.logic.used, u.registers.used, u.dsps.used), (300, 17, 3));
        assert_eq!(u.block_ram.used, 31);
        assert!(!u.block_ram.fits());
        assert_eq!(
            u.large_ram.map(|a| (a.name, a.used)),
            Some(("SPRAM".into(), 1))
        );
    }

    #[test]
    fn library_and_board_must_agree() {
        assert_eq!(
            Library::of_command("synth_intel_alm -family cyclonev"),
            Ok(Library::IntelAlm)
        );
        assert!(Library::of_command("synth_xilinx").is_err());
        let c = CellCounts::new();
        assert!(usage(Library::Ecp5, &c, &resources("de10-nano")).is_err());
    }
}
