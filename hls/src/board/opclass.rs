//! Operator classes: the kinds of hardware unit an IR op needs, the keys of a board's
//! operator library (`operators:` in `boards/*.yaml`).

use std::fmt;

use serde::{Deserialize, Serialize};

/// One kind of hardware operator. `Wire` and `Register` cost nothing in the library: they
/// are routing (constants, bit slices, casts) and the input of a variable's register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OpClass {
    Wire,
    Register,
    IntAdd,
    IntCmp,
    IntLogic,
    IntMul,
    IntDiv,
    Shift,
    Mux,
    FpAdd,
    FpMul,
    FpFma,
    FpDiv,
    FpSqrt,
    FpCmp,
    FpMinMax,
    FpToInt,
    IntToFp,
    FpToHalf,
    HalfToFp,
    /// A math built-in without a unit of its own yet (sin, exp, ...).
    MathFn,
    LocalRead,
    LocalWrite,
    LocalAtomic,
    GlobalLoad,
    GlobalStore,
    GlobalAtomic,
    Barrier,
    WorkItem,
}

impl OpClass {
    /// Every class the library files describe (all but `Wire` and `Register`).
    pub const LIBRARY: [OpClass; 27] = [
        OpClass::IntAdd,
        OpClass::IntCmp,
        OpClass::IntLogic,
        OpClass::IntMul,
        OpClass::IntDiv,
        OpClass::Shift,
        OpClass::Mux,
        OpClass::FpAdd,
        OpClass::FpMul,
        OpClass::FpFma,
        OpClass::FpDiv,
        OpClass::FpSqrt,
        OpClass::FpCmp,
        OpClass::FpMinMax,
        OpClass::FpToInt,
        OpClass::IntToFp,
        OpClass::FpToHalf,
        OpClass::HalfToFp,
        OpClass::MathFn,
        OpClass::LocalRead,
        OpClass::LocalWrite,
        OpClass::LocalAtomic,
        OpClass::GlobalLoad,
        OpClass::GlobalStore,
        OpClass::GlobalAtomic,
        OpClass::Barrier,
        OpClass::WorkItem,
    ];

    /// The name used in board files and reports.
    pub fn name(self) -> &'static str {
        match self {
            OpClass::Wire => "wire",
            OpClass::Register => "register",
            OpClass::IntAdd => "int_add",
            OpClass::IntCmp => "int_cmp",
            OpClass::IntLogic => "int_logic",
            OpClass::IntMul => "int_mul",
            OpClass::IntDiv => "int_div",
            OpClass::Shift => "shift",
            OpClass::Mux => "mux",
            OpClass::FpAdd => "fp_add",
            OpClass::FpMul => "fp_mul",
            OpClass::FpFma => "fp_fma",
            OpClass::FpDiv => "fp_div",
            OpClass::FpSqrt => "fp_sqrt",
            OpClass::FpCmp => "fp_cmp",
            OpClass::FpMinMax => "fp_minmax",
            OpClass::FpToInt => "fp_to_int",
            OpClass::IntToFp => "int_to_fp",
            OpClass::FpToHalf => "fp_to_half",
            OpClass::HalfToFp => "half_to_fp",
            OpClass::MathFn => "math_fn",
            OpClass::LocalRead => "local_read",
            OpClass::LocalWrite => "local_write",
            OpClass::LocalAtomic => "local_atomic",
            OpClass::GlobalLoad => "global_load",
            OpClass::GlobalStore => "global_store",
            OpClass::GlobalAtomic => "global_atomic",
            OpClass::Barrier => "barrier",
            OpClass::WorkItem => "work_item",
        }
    }

    /// Ops that go through a memory port (a RAM port or an AXI unit).
    pub fn is_memory(self) -> bool {
        self.reads_memory() || self.writes_memory()
    }

    pub fn reads_memory(self) -> bool {
        matches!(
            self,
            OpClass::LocalRead | OpClass::LocalAtomic | OpClass::GlobalLoad | OpClass::GlobalAtomic
        )
    }

    pub fn writes_memory(self) -> bool {
        matches!(
            self,
            OpClass::LocalWrite
                | OpClass::LocalAtomic
                | OpClass::GlobalStore
                | OpClass::GlobalAtomic
        )
    }
}

impl fmt::Display for OpClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
