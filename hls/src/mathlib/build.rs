//! A small IR builder for the expansions: typed ops appended to one block, every value
//! with the lane count of the call being replaced.

use crate::diag::Span;
use crate::ir::{BinOp, Block, CmpOp, Conv, OpId, OpKind, Round, Ty, UnOp};

pub(super) struct B<'a> {
    pub blk: &'a mut Block,
    pub span: Span,
    pub lanes: u8,
}

pub(super) const F64: Ty = Ty::F64;
pub(super) const F32: Ty = Ty::F32;
pub(super) const I64: Ty = Ty::I(64);
pub(super) const I32: Ty = Ty::I(32);

impl B<'_> {
    fn op(&mut self, k: OpKind, elem: Ty, args: &[OpId]) -> OpId {
        let ty = Ty::vec(elem, self.lanes);
        self.blk.add(k, Some(ty), self.span, args)
    }

    pub fn bits(&mut self, elem: Ty, v: u64) -> OpId {
        self.op(OpKind::Const(vec![v; self.lanes as usize]), elem, &[])
    }

    pub fn f(&mut self, v: f64) -> OpId {
        self.bits(F64, v.to_bits())
    }

    pub fn i(&mut self, v: i64) -> OpId {
        self.bits(I64, v as u64)
    }

    pub fn bin(&mut self, op: BinOp, elem: Ty, a: OpId, b: OpId) -> OpId {
        self.op(OpKind::Binary(op), elem, &[a, b])
    }

    pub fn fadd(&mut self, a: OpId, b: OpId) -> OpId {
        self.bin(BinOp::FAdd, F64, a, b)
    }

    pub fn fsub(&mut self, a: OpId, b: OpId) -> OpId {
        self.bin(BinOp::FSub, F64, a, b)
    }

    pub fn fmul(&mut self, a: OpId, b: OpId) -> OpId {
        self.bin(BinOp::FMul, F64, a, b)
    }

    /// `a * c` for a constant `c`.
    pub fn fmulc(&mut self, a: OpId, c: f64) -> OpId {
        let c = self.f(c);
        self.fmul(a, c)
    }

    pub fn fneg(&mut self, elem: Ty, a: OpId) -> OpId {
        self.op(OpKind::Unary(UnOp::FNeg), elem, &[a])
    }

    /// A 64-bit integer op with a constant right operand.
    pub fn ic(&mut self, op: BinOp, a: OpId, c: i64) -> OpId {
        let c = self.i(c);
        self.bin(op, I64, a, c)
    }

    pub fn cmp(&mut self, op: CmpOp, a: OpId, b: OpId) -> OpId {
        self.op(OpKind::Cmp(op), Ty::I(1), &[a, b])
    }

    /// `a op c` for an f64 constant `c`.
    pub fn fcmpc(&mut self, op: CmpOp, a: OpId, c: f64) -> OpId {
        let c = self.f(c);
        self.cmp(op, a, c)
    }

    pub fn icmpc(&mut self, op: CmpOp, a: OpId, c: i64) -> OpId {
        let c = self.i(c);
        self.cmp(op, a, c)
    }

    pub fn and1(&mut self, a: OpId, b: OpId) -> OpId {
        self.bin(BinOp::And, Ty::I(1), a, b)
    }

    pub fn or1(&mut self, a: OpId, b: OpId) -> OpId {
        self.bin(BinOp::Or, Ty::I(1), a, b)
    }

    pub fn not1(&mut self, a: OpId) -> OpId {
        self.op(OpKind::Unary(UnOp::Not), Ty::I(1), &[a])
    }

    pub fn sel(&mut self, elem: Ty, c: OpId, a: OpId, b: OpId) -> OpId {
        self.op(OpKind::Select, elem, &[c, a, b])
    }

    pub fn cast(&mut self, elem: Ty, a: OpId) -> OpId {
        self.op(OpKind::Bitcast, elem, &[a])
    }

    pub fn f32_to_f64(&mut self, a: OpId) -> OpId {
        self.op(OpKind::Conv(Conv::Float { round: Round::Rte }), F64, &[a])
    }

    pub fn f64_to_f32(&mut self, a: OpId) -> OpId {
        self.op(OpKind::Conv(Conv::Float { round: Round::Rte }), F32, &[a])
    }

    /// Signed i64 to f64, to nearest.
    pub fn i_to_f(&mut self, a: OpId) -> OpId {
        let k = Conv::IntToFloat {
            from_signed: true,
            round: Round::Rte,
        };
        self.op(OpKind::Conv(k), F64, &[a])
    }

    /// f64 to signed i64 toward zero (only called on values in range).
    pub fn f_to_i(&mut self, a: OpId) -> OpId {
        let k = Conv::FloatToInt {
            to_signed: true,
            round: Round::Rtz,
            sat: false,
        };
        self.op(OpKind::Conv(k), I64, &[a])
    }

    /// Zero-extends an i32 to i64.
    pub fn zext(&mut self, a: OpId) -> OpId {
        let k = Conv::Int {
            from_signed: false,
            to_signed: false,
            sat: false,
        };
        self.op(OpKind::Conv(k), I64, &[a])
    }

    /// `c[0] + x * (c[1] + x * (...))` in f64 (Horner).
    pub fn poly(&mut self, x: OpId, c: &[f64]) -> OpId {
        let mut acc = self.f(c[c.len() - 1]);
        for &k in c[..c.len() - 1].iter().rev() {
            let m = self.fmul(acc, x);
            let c = self.f(k);
            acc = self.fadd(m, c);
        }
        acc
    }

    /// `|a|` of an f64 by clearing its sign bit.
    pub fn fabs(&mut self, a: OpId) -> OpId {
        let b = self.cast(I64, a);
        let m = self.ic(BinOp::And, b, i64::MAX);
        self.cast(F64, m)
    }

    /// Whether a binary32 value is a NaN (`x != x`).
    pub fn is_nan32(&mut self, x: OpId) -> OpId {
        self.cmp(CmpOp::FNe, x, x)
    }
}
