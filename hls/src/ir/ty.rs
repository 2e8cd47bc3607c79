//! IR value types: integers of an explicit bit width, IEEE floats, vectors of them, and
//! pointers (an address space plus the object they point into).

use std::fmt;

use crate::frontend::types::AddrSpace;

/// A value type. Integers carry no signedness: operations that care say so (`SDiv`/`UDiv`,
/// `AShr`/`LShr`, signed/unsigned compares), as in LLVM, so width narrowing stays simple.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// An integer of 1 to 64 bits (`I(1)` is a condition bit).
    I(u8),
    /// binary16 (storage only: loads/stores of `half` convert at the memory boundary).
    F16,
    F32,
    F64,
    /// 2, 3, 4, 8 or 16 lanes of a scalar type.
    Vec(Box<Ty>, u8),
    /// A pointer into an address space; its value is an (object, byte offset) pair.
    Ptr(AddrSpace),
}

impl Ty {
    pub fn bits(&self) -> u32 {
        match self {
            Ty::I(n) => *n as u32,
            Ty::F16 => 16,
            Ty::F32 => 32,
            Ty::F64 => 64,
            Ty::Vec(e, n) => e.bits() * *n as u32,
            Ty::Ptr(_) => 64,
        }
    }

    /// Bytes this type occupies in memory (3-lane vectors take 4 lanes, like OpenCL C).
    pub fn store_size(&self) -> u64 {
        match self {
            Ty::I(n) => (*n as u64).div_ceil(8).max(1),
            Ty::Vec(e, 3) => e.store_size() * 4,
            Ty::Vec(e, n) => e.store_size() * *n as u64,
            other => other.bits() as u64 / 8,
        }
    }

    pub fn lanes(&self) -> u8 {
        match self {
            Ty::Vec(_, n) => *n,
            _ => 1,
        }
    }

    /// The lane type of a vector, or the type itself.
    pub fn elem(&self) -> &Ty {
        match self {
            Ty::Vec(e, _) => e,
            t => t,
        }
    }

    pub fn is_float(&self) -> bool {
        matches!(self.elem(), Ty::F16 | Ty::F32 | Ty::F64)
    }

    pub fn is_int(&self) -> bool {
        matches!(self.elem(), Ty::I(_))
    }

    pub fn is_ptr(&self) -> bool {
        matches!(self, Ty::Ptr(_))
    }

    pub fn vec(elem: Ty, lanes: u8) -> Ty {
        if lanes == 1 {
            elem
        } else {
            Ty::Vec(Box::new(elem), lanes)
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::I(n) => write!(f, "i{n}"),
            Ty::F16 => write!(f, "f16"),
            Ty::F32 => write!(f, "f32"),
            Ty::F64 => write!(f, "f64"),
            Ty::Vec(e, n) => write!(f, "<{n} x {e}>"),
            Ty::Ptr(s) => write!(f, "ptr {}", s.name().trim_start_matches("__")),
        }
    }
}
