//! Operator libraries: per operator class, the latency, initiation interval, in-cycle
//! delay and area of the unit that implements it, as a board file gives them, plus the
//! unit-delay library (every op one cycle) that tests schedule against.

use std::collections::BTreeMap;
use std::ops::{Add, Mul};

use serde::{Deserialize, Serialize};

use super::opclass::OpClass;

/// Area of one unit in the board's own units (`logic` in ALMs or LUT4s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    #[serde(default)]
    pub logic: u64,
    #[serde(default)]
    pub registers: u64,
    #[serde(default)]
    pub dsps: u64,
    /// Block RAMs (M10K, EBR).
    #[serde(default)]
    pub rams: u64,
}

impl Add for Area {
    type Output = Area;
    fn add(self, o: Area) -> Area {
        Area {
            logic: self.logic + o.logic,
            registers: self.registers + o.registers,
            dsps: self.dsps + o.dsps,
            rams: self.rams + o.rams,
        }
    }
}

impl Mul<u64> for Area {
    type Output = Area;
    fn mul(self, n: u64) -> Area {
        Area {
            logic: self.logic * n,
            registers: self.registers * n,
            dsps: self.dsps * n,
            rams: self.rams * n,
        }
    }
}

/// One width range of an operator class: applies to operand widths up to `max_width`
/// (the last tier of a class has none and covers every wider op).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Tier {
    pub max_width: Option<u32>,
    /// Cycles from issue to result; 0 is combinational (chained within the cycle).
    pub latency: u32,
    /// Cycles between two issues on one unit.
    #[serde(default = "one")]
    pub ii: u32,
    /// Combinational delay before the unit's first register (all of it when latency 0),
    /// used to chain ops within the clock period.
    pub delay_ns: f64,
    #[serde(default)]
    pub area: Area,
}

fn one() -> u32 {
    1
}

/// What one op of a class and width costs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct OpCost {
    pub latency: u32,
    pub ii: u32,
    pub delay_ns: f64,
    pub area: Area,
}

impl OpCost {
    const FREE: OpCost = OpCost {
        latency: 0,
        ii: 1,
        delay_ns: 0.0,
        area: Area {
            logic: 0,
            registers: 0,
            dsps: 0,
            rams: 0,
        },
    };
}

/// How many units of a class one block may use at once, and ports per memory.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Classes not named are unlimited.
    #[serde(default)]
    pub units: BTreeMap<OpClass, u32>,
    /// Read ports of each buffer or on-chip object (AXI read units, RAM read ports).
    pub read_ports: u32,
    pub write_ports: u32,
    /// Per on-chip memory of the kernel at hand, its read ports where the `memory` stage
    /// gave it more than `read_ports` (read replicas); not part of a board file.
    #[serde(skip)]
    pub memory_read_ports: BTreeMap<crate::ir::Base, u32>,
    /// Per banked on-chip memory of the kernel at hand, its banks: as many write lanes,
    /// and an access outside a bank group takes them all (`memory::banks`).
    #[serde(skip)]
    pub memory_banks: BTreeMap<crate::ir::Base, u32>,
    /// The accesses of banked memories in their loop's bank group (one lane each).
    #[serde(skip)]
    pub memory_bank_groups: std::collections::BTreeSet<crate::memory::banks::At>,
}

impl Limits {
    pub fn unlimited() -> Limits {
        Limits {
            units: BTreeMap::new(),
            read_ports: u32::MAX,
            write_ports: u32::MAX,
            memory_read_ports: BTreeMap::new(),
            memory_banks: BTreeMap::new(),
            memory_bank_groups: Default::default(),
        }
    }

    /// The units of `class` available per cycle (`u32::MAX` when unlimited).
    pub fn units_of(&self, class: OpClass) -> u32 {
        self.units.get(&class).copied().unwrap_or(u32::MAX)
    }
}

/// The `operators:` section of a board file: one list of tiers per class. Fields rather
/// than a map, so a missing class is reported by serde with its line like any field.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Operators {
    pub limits: Limits,
    pub int_add: Vec<Tier>,
    pub int_cmp: Vec<Tier>,
    pub int_logic: Vec<Tier>,
    pub int_mul: Vec<Tier>,
    pub int_div: Vec<Tier>,
    pub shift: Vec<Tier>,
    pub mux: Vec<Tier>,
    pub fp_add: Vec<Tier>,
    pub fp_mul: Vec<Tier>,
    pub fp_fma: Vec<Tier>,
    pub fp_div: Vec<Tier>,
    pub fp_sqrt: Vec<Tier>,
    pub fp_cmp: Vec<Tier>,
    pub fp_minmax: Vec<Tier>,
    pub fp_to_int: Vec<Tier>,
    pub int_to_fp: Vec<Tier>,
    pub fp_to_half: Vec<Tier>,
    pub half_to_fp: Vec<Tier>,
    pub math_fn: Vec<Tier>,
    pub local_read: Vec<Tier>,
    pub local_write: Vec<Tier>,
    pub local_atomic: Vec<Tier>,
    pub global_load: Vec<Tier>,
    pub global_store: Vec<Tier>,
    pub global_atomic: Vec<Tier>,
    pub barrier: Vec<Tier>,
    pub work_item: Vec<Tier>,
}

impl Operators {
    /// The tiers of a library class (empty for `Wire` and `Register`).
    pub fn tiers(&self, c: OpClass) -> &[Tier] {
        match c {
            OpClass::Wire | OpClass::Register => &[],
            OpClass::IntAdd => &self.int_add,
            OpClass::IntCmp => &self.int_cmp,
            OpClass::IntLogic => &self.int_logic,
            OpClass::IntMul => &self.int_mul,
            OpClass::IntDiv => &self.int_div,
            OpClass::Shift => &self.shift,
            OpClass::Mux => &self.mux,
            OpClass::FpAdd => &self.fp_add,
            OpClass::FpMul => &self.fp_mul,
            OpClass::FpFma => &self.fp_fma,
            OpClass::FpDiv => &self.fp_div,
            OpClass::FpSqrt => &self.fp_sqrt,
            OpClass::FpCmp => &self.fp_cmp,
            OpClass::FpMinMax => &self.fp_minmax,
            OpClass::FpToInt => &self.fp_to_int,
            OpClass::IntToFp => &self.int_to_fp,
            OpClass::FpToHalf => &self.fp_to_half,
            OpClass::HalfToFp => &self.half_to_fp,
            OpClass::MathFn => &self.math_fn,
            OpClass::LocalRead => &self.local_read,
            OpClass::LocalWrite => &self.local_write,
            OpClass::LocalAtomic => &self.local_atomic,
            OpClass::GlobalLoad => &self.global_load,
            OpClass::GlobalStore => &self.global_store,
            OpClass::GlobalAtomic => &self.global_atomic,
            OpClass::Barrier => &self.barrier,
            OpClass::WorkItem => &self.work_item,
        }
    }
}

/// A validated library ready for lookups: every class has tiers ending in a catch-all.
#[derive(Clone, Debug)]
pub struct OpLibrary {
    pub name: String,
    /// The clock period the latencies hold at; the chaining budget.
    pub period_ns: f64,
    pub limits: Limits,
    tiers: BTreeMap<OpClass, Vec<Tier>>,
    /// Every op one cycle, whatever the tiers say (the unit-delay model).
    unit_delay: bool,
}

impl OpLibrary {
    /// Builds the library of a board's operators; the board loader has already checked
    /// that every class ends in a catch-all tier (see `validate`).
    pub fn from_operators(name: &str, period_ns: f64, ops: &Operators) -> OpLibrary {
        let tiers = OpClass::LIBRARY
            .iter()
            .map(|&c| (c, ops.tiers(c).to_vec()))
            .collect();
        OpLibrary {
            name: name.to_string(),
            period_ns,
            limits: ops.limits.clone(),
            tiers,
            unit_delay: false,
        }
    }

    /// The unit-delay library for tests: every op, wires included, takes one cycle with
    /// II 1, nothing chains and nothing is limited.
    pub fn unit_delay() -> OpLibrary {
        OpLibrary {
            name: "unit-delay".to_string(),
            period_ns: f64::INFINITY,
            limits: Limits::unlimited(),
            tiers: BTreeMap::new(),
            unit_delay: true,
        }
    }

    /// The cost of an op of `class` whose widest operand or result lane has `width` bits.
    pub fn cost(&self, class: OpClass, width: u32) -> OpCost {
        if self.unit_delay {
            return OpCost {
                latency: 1,
                ..OpCost::FREE
            };
        }
        let tiers = self.tiers.get(&class).map(Vec::as_slice).unwrap_or(&[]);
        let tier = tiers
            .iter()
            .find(|t| t.max_width.is_none_or(|m| width <= m))
            .or(tiers.last());
        match tier {
            Some(t) => OpCost {
                latency: t.latency,
                ii: t.ii.max(1),
                delay_ns: t.delay_ns,
                area: t.area,
            },
            // Wires and registers, which the library does not list.
            None => OpCost::FREE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tier(max_width: Option<u32>, latency: u32) -> Tier {
        Tier {
            max_width,
            latency,
            ii: 1,
            delay_ns: 1.0,
            area: Area::default(),
        }
    }

    fn lib() -> OpLibrary {
        let mut l = OpLibrary::unit_delay();
        l.unit_delay = false;
        l.tiers.insert(
            OpClass::IntMul,
            vec![tier(Some(16), 1), tier(Some(32), 2), tier(None, 4)],
        );
        l
    }

    #[test]
    fn the_first_tier_wide_enough_applies() {
        let l = lib();
        let lat = |w| l.cost(OpClass::IntMul, w).latency;
        assert_eq!(
            [lat(1), lat(16), lat(17), lat(32), lat(33), lat(64)],
            [1, 1, 2, 2, 4, 4]
        );
    }

    #[test]
    fn wires_are_free_and_unit_delay_is_one_cycle_for_everything() {
        assert_eq!(lib().cost(OpClass::Wire, 32).latency, 0);
        let u = OpLibrary::unit_delay();
        for c in OpClass::LIBRARY
            .iter()
            .chain(&[OpClass::Wire, OpClass::Register])
        {
            let cost = u.cost(*c, 32);
            assert_eq!((cost.latency, cost.ii, cost.delay_ns), (1, 1, 0.0), "{c}");
        }
    }

    #[test]
    fn unnamed_classes_are_unlimited() {
        let mut l = Limits::unlimited();
        l.units.insert(OpClass::FpDiv, 2);
        assert_eq!(l.units_of(OpClass::FpDiv), 2);
        assert_eq!(l.units_of(OpClass::FpAdd), u32::MAX);
    }
}
