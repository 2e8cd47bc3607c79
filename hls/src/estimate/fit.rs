//! Resource use against the board: used / available / percent per resource, totals over
//! the cores, and the fit check that stops a build before any vendor step.

use serde::Serialize;

/// One resource: how much the design uses of what the device has.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Amount {
    /// The unit, as the device's data sheet names it (ALMs, LUT4s, registers, DSPs,
    /// M10K, EBR, SPRAM).
    pub name: String,
    pub used: u64,
    pub available: u64,
    /// `used / available` in percent, one decimal.
    pub percent: f64,
}

impl Amount {
    pub fn new(name: &str, used: u64, available: u64) -> Amount {
        let percent = if available == 0 {
            if used == 0 {
                0.0
            } else {
                f64::INFINITY
            }
        } else {
            (used as f64 * 1000.0 / available as f64).round() / 10.0
        };
        Amount {
            name: name.to_string(),
            used,
            available,
            percent,
        }
    }

    pub fn fits(&self) -> bool {
        self.used <= self.available
    }
}

/// A design's resource use on a board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Usage {
    pub logic: Amount,
    pub registers: Amount,
    pub dsps: Amount,
    pub block_ram: Amount,
    /// The second RAM kind (iCE40 SPRAM) on boards that have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub large_ram: Option<Amount>,
}

impl Usage {
    /// Every resource, in report order.
    pub fn amounts(&self) -> Vec<&Amount> {
        let mut v = vec![&self.logic, &self.registers, &self.dsps, &self.block_ram];
        v.extend(self.large_ram.as_ref());
        v
    }

    /// The sum of several cores' use (each core is synthesised alone, so the sum is what
    /// the project needs).
    pub fn total(parts: &[&Usage]) -> Option<Usage> {
        let first = parts.first()?;
        let add = |pick: &dyn Fn(&Usage) -> Option<&Amount>| -> Option<Amount> {
            let a = pick(first)?;
            let used = parts.iter().filter_map(|u| pick(u)).map(|x| x.used).sum();
            Some(Amount::new(&a.name, used, a.available))
        };
        Some(Usage {
            logic: add(&|u| Some(&u.logic))?,
            registers: add(&|u| Some(&u.registers))?,
            dsps: add(&|u| Some(&u.dsps))?,
            block_ram: add(&|u| Some(&u.block_ram))?,
            large_ram: add(&|u| u.large_ram.as_ref()),
        })
    }

    /// The resources over capacity, or nothing when the design fits.
    pub fn overfull(&self) -> Vec<&Amount> {
        self.amounts().into_iter().filter(|a| !a.fits()).collect()
    }
}

/// The build's error when `usage` does not fit `board`, naming each resource over
/// capacity with its numbers; `None` when it fits.
pub fn check(board: &str, usage: &Usage) -> Option<String> {
    let over = usage.overfull();
    if over.is_empty() {
        return None;
    }
    let list: Vec<String> = over
        .iter()
        .map(|a| {
            format!(
                "{} {} used of {} available ({}%)",
                a.name, a.used, a.available, a.percent
            )
        })
        .collect();
    Some(format!(
        "the design does not fit {board}: {} (Yosys estimate); pass --allow-overfit to write it anyway",
        list.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(logic: u64, ram: u64) -> Usage {
        Usage {
            logic: Amount::new("LUT4s", logic, 5280),
            registers: Amount::new("registers", 10, 5280),
            dsps: Amount::new("DSPs", 0, 8),
            block_ram: Amount::new("EBR", ram, 30),
            large_ram: Some(Amount::new("SPRAM", 0, 4)),
        }
    }

    #[test]
    fn percent_has_one_decimal() {
        assert_eq!(Amount::new("ALMs", 1, 3).percent, 33.3);
        assert_eq!(Amount::new("ALMs", 0, 0).percent, 0.0);
        assert!(Amount::new("ALMs", 1, 0).percent.is_infinite());
    }

    #[test]
    fn totals_add_cores() {
        let t = Usage::total(&[&usage(100, 2), &usage(50, 29)]).unwrap();
        assert_eq!((t.logic.used, t.block_ram.used), (150, 31));
        assert_eq!(t.logic.available, 5280);
        assert_eq!(t.large_ram.map(|a| a.used), Some(0));
        assert!(Usage::total(&[]).is_none());
    }

    #[test]
    fn the_check_names_what_overflows() {
        assert_eq!(check("icebreaker", &usage(5280, 30)), None);
        let e = check("icebreaker", &usage(6000, 31)).unwrap();
        assert!(
            e.contains("LUT4s 6000 used of 5280 available (113.6%)"),
            "{e}"
        );
        assert!(e.contains("EBR 31 used of 30"), "{e}");
        assert!(e.contains("--allow-overfit"), "{e}");
        assert!(!e.contains("registers"), "{e}");
    }
}
