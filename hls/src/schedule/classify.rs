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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::ir::{CmpOp, Round};

    fn add(b: &mut Block, kind: OpKind, ty: Option<Ty>, ops: &[OpId]) -> OpId {
        b.add(kind, ty, Span::default(), ops)
    }

    #[test]
    fn ops_map_to_their_units() {
        let mut b = Block::default();
        let i32t = Some(Ty::I(32));
        let f32t = Some(Ty::F32);
        let x = add(&mut b, OpKind::Param(0), i32t.clone(), &[]);
        let four = add(&mut b, OpKind::Const(vec![4]), i32t.clone(), &[]);
        let three = add(&mut b, OpKind::Const(vec![3]), i32t.clone(), &[]);
        let f = add(&mut b, OpKind::Param(1), f32t.clone(), &[]);
        let cases = [
            (
                OpKind::Binary(BinOp::Mul),
                i32t.clone(),
                vec![x, four],
                OpClass::Wire,
            ),
            (
                OpKind::Binary(BinOp::Mul),
                i32t.clone(),
                vec![x, three],
                OpClass::IntMul,
            ),
            (
                OpKind::Binary(BinOp::UDiv),
                i32t.clone(),
                vec![x, four],
                OpClass::Wire,
            ),
            (
                OpKind::Binary(BinOp::SDiv),
                i32t.clone(),
                vec![x, four],
                OpClass::IntDiv,
            ),
            (
                OpKind::Binary(BinOp::Shl),
                i32t.clone(),
                vec![x, three],
                OpClass::Wire,
            ),
            (
                OpKind::Binary(BinOp::Shl),
                i32t.clone(),
                vec![x, x],
                OpClass::Shift,
            ),
            (
                OpKind::Cmp(CmpOp::FLt),
                Some(Ty::I(1)),
                vec![f, f],
                OpClass::FpCmp,
            ),
            (
                OpKind::Cmp(CmpOp::SLt),
                Some(Ty::I(1)),
                vec![x, x],
                OpClass::IntCmp,
            ),
            (
                OpKind::Conv(Conv::Float { round: Round::Rte }),
                Some(Ty::F16),
                vec![f],
                OpClass::FpToHalf,
            ),
            (
                OpKind::Load {
                    space: AddrSpace::Constant,
                    base: Some(Base::Object(crate::ir::ObjectId(0))),
                    align: 4,
                },
                i32t.clone(),
                vec![x],
                OpClass::LocalRead,
            ),
            (
                OpKind::Load {
                    space: AddrSpace::Constant,
                    base: Some(Base::Param(2)),
                    align: 4,
                },
                i32t.clone(),
                vec![x],
                OpClass::GlobalLoad,
            ),
        ];
        for (kind, ty, ops, want) in cases {
            let id = add(&mut b, kind.clone(), ty, &ops);
            assert_eq!(classify(id, &b), want, "{kind:?}");
        }
    }

    #[test]
    fn shape_takes_the_widest_lane_and_the_lane_count() {
        let mut b = Block::default();
        let v = add(&mut b, OpKind::Param(0), Some(Ty::vec(Ty::I(16), 8)), &[]);
        let c = add(
            &mut b,
            OpKind::Cmp(crate::ir::CmpOp::Eq),
            Some(Ty::vec(Ty::I(1), 8)),
            &[v, v],
        );
        let s = shape(c, &b);
        assert_eq!((s.class, s.width, s.lanes), (OpClass::IntCmp, 16, 8));
    }

    #[test]
    fn builtins_use_existing_units_or_math_fn() {
        assert_eq!(builtin("fma", true), OpClass::FpFma);
        assert_eq!(builtin("max", true), OpClass::FpMinMax);
        assert_eq!(builtin("max", false), OpClass::IntCmp);
        assert_eq!(builtin("mul_hi", false), OpClass::IntMul);
        assert_eq!(builtin("sin", true), OpClass::MathFn);
    }
}
