//! The per-kernel summary printed by `check` and read by later stages: parameters with
//! their buffer kind and access, kernel attributes, and the loops with their hints.

use crate::frontend::ast::StmtId;
use crate::frontend::types::{AddrSpace, Endian};

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct UnrollInfo {
    /// `None`: unroll fully; `Some(1)`: do not unroll.
    pub factor: Option<u64>,
    pub spelling: String,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct IvdepInfo {
    pub safelen: Option<u64>,
    pub spelling: String,
}

/// Everything the source says about how one loop should be built.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LoopHints {
    pub unroll: Option<UnrollInfo>,
    pub ivdep: Option<IvdepInfo>,
    /// `#pragma ivdep array(name)`: the dependence promise covers only these arrays.
    pub ivdep_arrays: Vec<String>,
    /// `xcl_pipeline_loop`, with its II when given.
    pub pipeline: bool,
    pub pipeline_ii: Option<u64>,
    /// `#pragma ii N`
    pub ii: Option<u64>,
    /// `#pragma loop_coalesce [N]`
    pub coalesce: Option<Option<u64>>,
    /// `xcl_loop_tripcount(min, max[, avg])`: the designer's trip count, for reports
    /// where it cannot be computed.
    pub tripcount: Option<TripCountHint>,
    /// Not from the source: a work-item loop the `loops` stage flattened with the loop
    /// it held (`loops/flatten.rs`), so consecutive iterations may be one work-item's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub flattened: bool,
    /// Not from the source: a work-item loop over only the work-items whose local id in
    /// dimension `.0` is `.1` (`workitems/guards.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed_id: Option<(usize, u64)>,
}

/// `xcl_loop_tripcount(min, max[, avg])`; `avg` defaults to `(min + max) / 2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TripCountHint {
    pub min: u64,
    pub max: u64,
    pub avg: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LoopInfo {
    /// `for`, `while` or `do`.
    pub kind: String,
    pub function: String,
    pub location: String,
    pub line: u32,
    pub unroll: Option<UnrollInfo>,
    pub ivdep: Option<IvdepInfo>,
    pub pipeline: bool,
    pub tripcount: Option<TripCountHint>,
    #[serde(skip)]
    pub stmt: StmtId,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct KernelAttrs {
    pub reqd_work_group_size: Option<[u64; 3]>,
    pub work_group_size_hint: Option<[u64; 3]>,
    pub vec_type_hint: String,
    pub vec_type_hint_explicit: bool,
    pub required_num_sub_groups: Option<u64>,
    /// Intel takes one or three values; one value is stored as `[N, 1, 1]`.
    pub max_work_group_size: Option<[u64; 3]>,
    pub num_simd_work_items: Option<u64>,
    pub num_compute_units: Option<Vec<u64>>,
    pub xcl_pipeline_workitems: bool,
    /// Attributes on the kernel this checker does not know (each also drew a warning).
    pub unknown: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ParamInfo {
    pub name: String,
    pub ty: String,
    /// `global_buffer`, `constant_buffer`, `local_buffer`, `scalar`, `vector`, `struct`,
    /// `private_pointer` (an error for kernels) or `other`.
    pub kind: String,
    pub addr_space: AddrSpace,
    /// `read`, `write`, `read_write` or `none`: how the kernel uses a pointer's target.
    pub access: String,
    pub endian: Option<Endian>,
    pub max_size: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct KernelInfo {
    pub name: String,
    pub location: String,
    pub params: Vec<ParamInfo>,
    pub attrs: KernelAttrs,
    pub loops: Vec<LoopInfo>,
}

/// What a variable's memory-shaping attributes ask of its on-chip memory (`numbanks`,
/// `xcl_array_partition(cyclic | block | complete, ...)`, `max_replicates`); the `memory`
/// stage honours them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryHints {
    /// Banks over the array's elements (a power of two), laid out by `mapping`.
    pub banks: Option<u32>,
    pub mapping: BankMapping,
    /// The most read replicas.
    pub max_replicates: Option<u32>,
    /// `bankwidth(N)` where N is the element's size (sema warns about other widths): the
    /// word the report checks the plan built.
    pub bankwidth: Option<u32>,
}

/// Which bank a word of a banked memory lives in (`ohls_banked_ram`'s `MAPPING`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BankMapping {
    /// Word `a` in bank `a mod N`: neighbours in different banks.
    #[default]
    Cyclic,
    /// Word `a` in bank `a / (depth / N)`: N runs of consecutive words.
    Block,
}

impl BankMapping {
    pub fn name(self) -> &'static str {
        match self {
            BankMapping::Cyclic => "cyclic",
            BankMapping::Block => "block",
        }
    }

    /// The template's `MAPPING` parameter.
    pub fn param(self) -> i64 {
        match self {
            BankMapping::Cyclic => 0,
            BankMapping::Block => 1,
        }
    }
}
