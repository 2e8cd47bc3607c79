//! The OpenCL C built-in functions (chapter 6.12 of OpenCL C 1.2, plus the 2.0 names we
//! support) and clang-compatible overload resolution over them.
//!
//! Fixed-name families are expanded once into a table indexed by name (`OnceLock`); the
//! open-ended name families (`convert_<T>[_sat][_rX]`, `as_<T>`) are parsed from the name
//! on each call. Each family lives in its own file and only says which overloads exist;
//! `resolve.rs` picks among them.

mod atomic;
mod common;
mod convert;
mod geometric;
mod integer;
mod math;
mod misc;
mod relational;
mod resolve;
mod sync;
mod vload;
mod workitem;

#[cfg(test)]
mod clang_tests;
#[cfg(test)]
mod conformance_tests;

use super::types::{AddrSpace, Pointer, Quals, Scalar, Type};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Family of a built-in, for later stages (the interpreter and the hardware library dispatch on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    WorkItem,
    Math,
    Integer,
    Common,
    Geometric,
    Relational,
    VectorLoadStore,
    Sync,
    Atomic,
    Convert,
    Reinterpret,
    Misc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BuiltinSig {
    /// The name as called (`convert_int_sat_rte`, `vload4`, `atomic_add`).
    pub name: String,
    pub family: Family,
    pub ret: Type,
    /// Parameter types of the chosen overload; each argument converts implicitly to these.
    pub params: Vec<Type>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum BuiltinError {
    Unknown,
    /// No overload accepts these arguments: a message for the user naming the candidates (a few) like clang does.
    NoMatch(String),
    Ambiguous(String),
}

/// True when `name` is a built-in function (any overload; `convert_float_sat` and its like
/// count too, so that `resolve` can say why no overload exists).
pub fn is_builtin(name: &str) -> bool {
    table().contains_key(name) || convert::parses(name)
}

/// Picks the overload of built-in `name` that clang would pick for arguments of types `args`
/// (after array-to-pointer decay and lvalue conversion).
pub fn resolve(name: &str, args: &[Type]) -> Result<BuiltinSig, BuiltinError> {
    if let Some(cands) = table().get(name) {
        return resolve::best(name, cands, args).map(|o| o.to_sig(name));
    }
    convert::resolve(name, args)
}

/// One declared overload of a built-in.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Overload {
    pub family: Family,
    pub ret: Type,
    pub params: Vec<Type>,
}

impl Overload {
    fn to_sig(&self, name: &str) -> BuiltinSig {
        BuiltinSig {
            name: name.to_string(),
            family: self.family,
            ret: self.ret.clone(),
            params: self.params.clone(),
        }
    }
}

/// The fixed-name overloads, grouped by name. Families add to it through `add`.
#[derive(Default)]
pub(crate) struct Table {
    map: HashMap<String, Vec<Overload>>,
}

impl Table {
    fn add(&mut self, name: &str, family: Family, ret: Type, params: Vec<Type>) {
        let o = Overload {
            family,
            ret,
            params,
        };
        match self.map.get_mut(name) {
            Some(v) => v.push(o),
            None => {
                self.map.insert(name.to_string(), vec![o]);
            }
        }
    }
}

fn table() -> &'static HashMap<String, Vec<Overload>> {
    static TABLE: OnceLock<HashMap<String, Vec<Overload>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Table::default();
        workitem::add(&mut t);
        math::add(&mut t);
        integer::add(&mut t);
        common::add(&mut t);
        geometric::add(&mut t);
        relational::add(&mut t);
        vload::add(&mut t);
        sync::add(&mut t);
        atomic::add(&mut t);
        misc::add(&mut t);
        t.map
    })
}

// ---- helpers the family files share: the gentype vocabularies and type constructors ----

/// Lane counts of `gentype`: scalar (1) and the five vector widths.
const WIDTHS: [u8; 6] = [1, 2, 3, 4, 8, 16];
/// The vector widths only (for the mixed vector/scalar `sgentype` forms).
const VEC_WIDTHS: [u8; 5] = [2, 3, 4, 8, 16];
/// Element types of floating `gentype` (half is storage only here).
const FLOATS: [Scalar; 2] = [Scalar::Float, Scalar::Double];
/// Element types of `igentype`/`ugentype`.
const INTS: [Scalar; 8] = [
    Scalar::Char,
    Scalar::UChar,
    Scalar::Short,
    Scalar::UShort,
    Scalar::Int,
    Scalar::UInt,
    Scalar::Long,
    Scalar::ULong,
];
/// Every arithmetic element type a value may have (no bool, no half).
const ALL_ELEMS: [Scalar; 10] = [
    Scalar::Char,
    Scalar::UChar,
    Scalar::Short,
    Scalar::UShort,
    Scalar::Int,
    Scalar::UInt,
    Scalar::Long,
    Scalar::ULong,
    Scalar::Float,
    Scalar::Double,
];

/// `k` with `n` lanes: the scalar itself for n == 1.
fn vt(k: Scalar, n: u8) -> Type {
    if n == 1 {
        Type::Scalar(k)
    } else {
        Type::Vector(k, n)
    }
}

fn st(k: Scalar) -> Type {
    Type::Scalar(k)
}

/// `size_t` (and the `cl_mem_fence_flags`/`uint` index arguments use `uint`).
fn size_t() -> Type {
    Type::Scalar(Scalar::ULong)
}

fn ptr(pointee: Type, space: AddrSpace, is_const: bool, is_volatile: bool) -> Type {
    Type::Pointer(Box::new(Pointer {
        pointee,
        space,
        pointee_quals: Quals {
            is_const,
            is_volatile,
            is_restrict: false,
        },
        endian: Default::default(),
    }))
}

/// The address spaces a pointer argument of a math or store built-in may point into
/// (the three named writable ones, and the 2.0 generic space).
const WRITABLE_SPACES: [AddrSpace; 4] = [
    AddrSpace::Global,
    AddrSpace::Local,
    AddrSpace::Private,
    AddrSpace::Generic,
];
