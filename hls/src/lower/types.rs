//! Frontend types seen from the lowering: their IR value types, layouts and signedness.

use crate::frontend::layout::{type_layout, Layout};
use crate::frontend::sema::Program;
use crate::frontend::types::{Scalar, Type};
use crate::ir::Ty;

/// The IR type of a scalar.
pub fn scalar_ty(s: Scalar) -> Ty {
    match s {
        Scalar::Bool => Ty::I(1),
        Scalar::Half => Ty::F16,
        Scalar::Float => Ty::F32,
        Scalar::Double => Ty::F64,
        other => Ty::I(other.bits() as u8),
    }
}

/// The IR type of a value of frontend type `t`; `None` for types that are not values in
/// registers (arrays, records, void, opaque handles).
pub fn ir_ty(t: &Type) -> Option<Ty> {
    match t {
        Type::Scalar(s) => Some(scalar_ty(*s)),
        Type::Vector(s, n) => Some(Ty::vec(scalar_ty(*s), *n)),
        Type::Pointer(p) => Some(Ty::Ptr(p.space)),
        Type::Enum(_) => Some(Ty::I(32)),
        // An event of the async copies: they complete at wait_group_events, so its value
        // carries nothing.
        Type::Opaque("event_t") => Some(Ty::I(64)),
        _ => None,
    }
}

/// The element scalar of an arithmetic type (enums count as `int`).
pub fn elem(t: &Type) -> Option<Scalar> {
    match t {
        Type::Enum(_) => Some(Scalar::Int),
        other => other.elem(),
    }
}

pub fn is_signed(t: &Type) -> bool {
    elem(t).is_some_and(|s| s.is_signed())
}

pub fn is_float(t: &Type) -> bool {
    elem(t).is_some_and(|s| s.is_float())
}

/// Types lowered as memory, never as register values.
pub fn is_aggregate(t: &Type) -> bool {
    matches!(t, Type::Array(..) | Type::Record(_))
}

/// Size and alignment with the program's records.
pub fn layout(p: &Program, t: &Type) -> Option<Layout> {
    let recs = |r: crate::frontend::types::RecordId| {
        p.record(r).filter(|i| i.complete).map(|i| Layout {
            size: i.size,
            align: i.align,
        })
    };
    type_layout(t, &recs)
}

/// The largest power of two dividing `n` (0 counts as perfectly aligned).
pub fn pow2_factor(n: u64) -> u64 {
    if n == 0 {
        1 << 12
    } else {
        1 << n.trailing_zeros().min(12)
    }
}

/// The alignment known for an address `offset` bytes past one aligned to `align`.
pub fn align_after(align: u64, offset: u64) -> u64 {
    align.min(pow2_factor(offset)).max(1)
}
