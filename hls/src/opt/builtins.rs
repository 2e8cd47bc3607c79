//! Integer built-ins that are plain arithmetic, spelled as that arithmetic before the
//! e-graphs: `mul_hi(x, y)` of a scalar of at most 32 bits is the high half of the
//! product of the operands extended to twice the width, `mad_hi` adds to it, `mul24`
//! and `mad24` are the multiply (and add) at the operand width, which is what the
//! interpreter computes for them. As calls they are opaque to the e-graph; as arithmetic,
//! `mul_hi(x, y)` next to `(long)x * (long)y` is one multiplier (`cse.rs` then the
//! e-graph see the same product), and `mad24(x & 0x7FF, y & 0x7FF, z)` is narrowed to
//! the 22 bits its product needs (`rules/narrow.rs`).

use std::collections::HashMap;

use crate::frontend::types::Type;
use crate::ir::{BinOp, Block, BuiltinCall, Conv, OpId, OpKind, Ty};

/// What a call becomes: the multiply's high half or low half, plus the third operand.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Plan {
    /// `(x * y) >> w` at twice the width `w`, then `+ z` when `add`.
    High { add: bool },
    /// `x * y` at the width, then `+ z` when `add`.
    Low { add: bool },
}

/// The plan for a call, when its arguments and result are one scalar integer type narrow
/// enough for the IR's 64-bit integers to hold the full product.
fn plan(call: &BuiltinCall, width: u8) -> Option<Plan> {
    let scalar_int = |t: &Type| matches!(t, Type::Scalar(s) if s.is_integer());
    if !scalar_int(&call.ret) || !call.params.iter().all(scalar_int) {
        return None;
    }
    if call.params.iter().any(|p| *p != call.ret) {
        return None;
    }
    let p = match call.name.as_str() {
        "mul_hi" => Plan::High { add: false },
        "mad_hi" => Plan::High { add: true },
        "mul24" => Plan::Low { add: false },
        "mad24" => Plan::Low { add: true },
        _ => return None,
    };
    match p {
        Plan::High { .. } if width > 32 => None,
        _ => Some(p),
    }
}

/// Adds ops with one span at the end of a block's order.
struct Emit<'a> {
    b: &'a mut Block,
    span: crate::diag::Span,
}

impl Emit<'_> {
    fn op(&mut self, kind: OpKind, w: u8, args: &[OpId]) -> OpId {
        self.b.add(kind, Some(Ty::I(w)), self.span, args)
    }

    fn konst(&mut self, w: u8, v: u64) -> OpId {
        self.op(OpKind::Const(vec![v]), w, &[])
    }

    fn conv(&mut self, signed: bool, w: u8, x: OpId) -> OpId {
        let c = Conv::Int {
            from_signed: signed,
            to_signed: signed,
            sat: false,
        };
        self.op(OpKind::Conv(c), w, &[x])
    }

    fn bin(&mut self, op: BinOp, w: u8, x: OpId, y: OpId) -> OpId {
        self.op(OpKind::Binary(op), w, &[x, y])
    }
}

/// Rewrites the arithmetic built-ins of block `b`; returns each removed call with the op
/// now standing for it.
pub fn block(b: &mut Block) -> HashMap<OpId, OpId> {
    let mut map = HashMap::new();
    let calls: Vec<(OpId, Plan, u8, bool)> = b
        .order
        .iter()
        .filter_map(|&o| {
            let op = b.op(o);
            let (OpKind::Builtin(call), Some(Ty::I(w))) = (&op.kind, &op.ty) else {
                return None;
            };
            let signed = call.ret.scalar().is_some_and(|s| s.is_signed());
            Some((o, plan(call, *w)?, *w, signed))
        })
        .collect();
    for (call, p, w, signed) in calls {
        let args = b.operands(call);
        let span = b.op(call).span;
        let since = b.order.len();
        let mut e = Emit { b, span };
        let value = match p {
            Plan::High { add } => {
                let wide = 2 * w;
                let x = e.conv(signed, wide, args[0]);
                let y = e.conv(signed, wide, args[1]);
                let product = e.bin(BinOp::Mul, wide, x, y);
                let shift = e.konst(wide, w as u64);
                let high = e.bin(BinOp::LShr, wide, product, shift);
                let high = e.conv(false, w, high);
                if add {
                    e.bin(BinOp::Add, w, high, args[2])
                } else {
                    high
                }
            }
            Plan::Low { add } => {
                let product = e.bin(BinOp::Mul, w, args[0], args[1]);
                if add {
                    e.bin(BinOp::Add, w, product, args[2])
                } else {
                    product
                }
            }
        };
        super::forward::replace_with_appended(b, call, value, since);
        map.insert(call, value);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::types::Scalar;

    fn call(name: &str, t: Type, n: usize) -> OpKind {
        OpKind::Builtin(BuiltinCall {
            name: name.into(),
            params: vec![t.clone(); n],
            ret: t,
        })
    }

    #[test]
    fn only_scalar_calls_whose_product_fits_are_planned() {
        let int = Type::Scalar(Scalar::Int);
        let long = Type::Scalar(Scalar::Long);
        let int4 = Type::Vector(Scalar::Int, 4);
        let plan_of = |k: OpKind, w| match k {
            OpKind::Builtin(c) => plan(&c, w),
            _ => unreachable!(),
        };
        assert_eq!(
            plan_of(call("mul_hi", int.clone(), 2), 32),
            Some(Plan::High { add: false })
        );
        assert_eq!(plan_of(call("mul_hi", long.clone(), 2), 64), None);
        assert_eq!(
            plan_of(call("mad24", long, 3), 64),
            Some(Plan::Low { add: true })
        );
        assert_eq!(plan_of(call("mul_hi", int4, 2), 32), None);
        assert_eq!(plan_of(call("rotate", int, 2), 32), None);
    }
}
