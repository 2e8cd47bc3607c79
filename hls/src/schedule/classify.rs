//! Which operator class an IR op needs, at which width and how many lanes: the key the
//! scheduler looks costs up with in the board's operator library.

use crate::board::OpClass;
use crate::frontend::types::AddrSpace;
use crate::ir::{Base, BinOp, Block, Conv, Op, OpId, OpKind, Ty, UnOp};

/// An op's class, its widest lane in bits (operands or result) and its lane count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpShape {
    pub class: OpClass,
    pub width: u32,
    pub lanes: u32,
}

/// The class of `op` in `block`.
pub fn classify(op: OpId, block: &Block) -> OpClass {
    shape(op, block).class
}

/// Class, width and lanes of `op` in `block`.
pub fn shape(id: OpId, block: &Block) -> OpShape {
    let op = block.op(id);
    let operands = block.operands(id);
    let tys: Vec<&Ty> = op
        .ty
        .iter()
        .chain(operands.iter().filter_map(|o| block.op(*o).ty.as_ref()))
        .collect();
    let width = tys
        .iter()
        .filter(|t| !t.is_ptr())
        .map(|t| t.elem().bits())
        .max()
        .unwrap_or(0);
    let lanes = tys.iter().map(|t| t.lanes() as u32).max().unwrap_or(1);
    OpShape {
        class: class_of(op, &operands, block),
        width,
        lanes,
    }
}

fn class_of(op: &Op, operands: &[OpId], block: &Block) -> OpClass {
    let float = |i: usize| {
        operands
            .get(i)
            .and_then(|o| block.op(*o).ty.as_ref())
            .is_some_and(Ty::is_float)
    };
    let const_pow2 = |i: usize| operands.get(i).is_some_and(|o| is_const_pow2(block.op(*o)));
    let constant = |i: usize| {
        operands
            .get(i)
            .is_some_and(|o| matches!(block.op(*o).kind, OpKind::Const(_)))
    };
    match &op.kind {
        OpKind::Const(_)
        | OpKind::Param(_)
        | OpKind::ReadVar(_)
        | OpKind::ObjectAddr(_)
        | OpKind::Bitcast
        | OpKind::Extract(_)
        | OpKind::Insert(_)
        | OpKind::Shuffle(_)
        | OpKind::Splat
        | OpKind::Build => OpClass::Wire,
        OpKind::WriteVar(_) => OpClass::Register,
        OpKind::PtrAdd | OpKind::PtrDiff => OpClass::IntAdd,
        OpKind::Unary(UnOp::Neg) => OpClass::IntAdd,
        OpKind::Unary(UnOp::Not) => OpClass::IntLogic,
        // Flipping the sign bit.
        OpKind::Unary(UnOp::FNeg) => OpClass::Wire,
        OpKind::Binary(b) => binary(*b, const_pow2(1), constant(1)),
        OpKind::Cmp(_) if float(0) => OpClass::FpCmp,
        OpKind::Cmp(_) => OpClass::IntCmp,
        OpKind::Select => OpClass::Mux,
        OpKind::Conv(c) => conversion(*c, op.ty.as_ref(), operands, block),
        OpKind::Load { space, base, .. } => {
            memory(*space, *base, OpClass::LocalRead, OpClass::GlobalLoad)
        }
        OpKind::Store { space, base, .. } => {
            memory(*space, *base, OpClass::LocalWrite, OpClass::GlobalStore)
        }
        OpKind::Atomic { space, base, .. } => {
            memory(*space, *base, OpClass::LocalAtomic, OpClass::GlobalAtomic)
        }
        // A fence orders memory like a barrier does, and costs the same wait.
        OpKind::Barrier { .. } | OpKind::MemFence { .. } => OpClass::Barrier,
        OpKind::WorkItem(_) => OpClass::WorkItem,
        OpKind::Builtin(call) => builtin(&call.name, op.ty.as_ref().is_some_and(Ty::is_float)),
    }
}

/// Multiplying or dividing by a power of two and shifting by a constant are wiring, so
/// they never take a DSP or a divider.
fn binary(b: BinOp, rhs_pow2: bool, rhs_const: bool) -> OpClass {
    match b {
        BinOp::Add | BinOp::Sub => OpClass::IntAdd,
        BinOp::Mul if rhs_pow2 => OpClass::Wire,
        BinOp::Mul => OpClass::IntMul,
        BinOp::UDiv | BinOp::URem if rhs_pow2 => OpClass::Wire,
        BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem => OpClass::IntDiv,
        BinOp::Shl | BinOp::LShr | BinOp::AShr if rhs_const => OpClass::Wire,
        BinOp::Shl | BinOp::LShr | BinOp::AShr => OpClass::Shift,
        BinOp::And | BinOp::Or | BinOp::Xor => OpClass::IntLogic,
        BinOp::FAdd | BinOp::FSub => OpClass::FpAdd,
        BinOp::FMul => OpClass::FpMul,
        BinOp::FDiv => OpClass::FpDiv,
    }
}

fn is_const_pow2(op: &Op) -> bool {
    match &op.kind {
        OpKind::Const(lanes) => !lanes.is_empty() && lanes.iter().all(|v| v.is_power_of_two()),
        _ => false,
    }
}

fn conversion(c: Conv, to: Option<&Ty>, operands: &[OpId], block: &Block) -> OpClass {
    let from = operands.first().and_then(|o| block.op(*o).ty.as_ref());
    let bits = |t: Option<&Ty>| t.map(|t| t.elem().bits()).unwrap_or(0);
    match c {
        // Truncation and extension are wiring; saturation compares and selects.
        Conv::Int { sat: false, .. } => OpClass::Wire,
        Conv::Int { sat: true, .. } => OpClass::IntCmp,
        Conv::FloatToInt { .. } => OpClass::FpToInt,
        Conv::IntToFloat { .. } => OpClass::IntToFp,
        Conv::Float { .. } => match (bits(from), bits(to)) {
            (32, 16) => OpClass::FpToHalf,
            (16, 32) => OpClass::HalfToFp,
            (a, b) if a == b => OpClass::Wire,
            // f64 <-> f32/f16: no template yet; the half units are the nearest shape.
            (a, b) if a > b => OpClass::FpToHalf,
            _ => OpClass::HalfToFp,
        },
    }
}

/// On-chip objects (local, private, program-scope constant tables) are RAMs; buffer
/// arguments are behind the AXI units. A `__local` pointer argument is on-chip too.
fn memory(space: AddrSpace, base: Option<Base>, on_chip: OpClass, global: OpClass) -> OpClass {
    match (space, base) {
        (AddrSpace::Local | AddrSpace::Private, _) | (_, Some(Base::Object(_))) => on_chip,
        _ => global,
    }
}

/// Built-ins by name: those that map onto an existing unit take its class; the rest of
/// the math library is `MathFn` until it has units of its own.
fn builtin(name: &str, float: bool) -> OpClass {
    match name {
        "fma" | "mad" => OpClass::FpFma,
        "sqrt" | "native_sqrt" | "half_sqrt" => OpClass::FpSqrt,
        "fmin" | "fmax" => OpClass::FpMinMax,
        "min" | "max" | "clamp" if float => OpClass::FpMinMax,
        "min" | "max" | "clamp" => OpClass::IntCmp,
        "fdim" => OpClass::FpAdd,
        // Rounding to an integral value is the float-to-int datapath's rounding step.
        "floor" | "ceil" | "trunc" | "round" | "rint" => OpClass::FpToInt,
        "fabs" | "copysign" | "isnan" | "isinf" | "isfinite" | "isnormal" | "signbit" | "any"
        | "all" | "bitselect" | "popcount" | "clz" | "ctz" => OpClass::IntLogic,
        "select" => OpClass::Mux,
        "upsample" => OpClass::Wire,
        "rotate" => OpClass::Shift,
        "isequal" | "isnotequal" | "isgreater" | "isgreaterequal" | "isless" | "islessequal"
        | "islessgreater" | "isordered" | "isunordered" => OpClass::FpCmp,
        "mul_hi" | "mad_hi" | "mul24" | "mad24" | "mad_sat" => OpClass::IntMul,
        "add_sat" | "sub_sat" | "hadd" | "rhadd" | "abs" | "abs_diff" => OpClass::IntAdd,
        _ => OpClass::MathFn,
    }
}
