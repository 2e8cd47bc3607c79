//! Constant evaluation inside one block: the value of every integer op whose operands
//! reduce to constants, and the (object, byte offset) of every pointer that does. The
//! loops stage asks it which accesses sit at fixed addresses after unrolling and folds
//! the ops its own substitutions made constant; general folding stays the `opt` stage's.
//!
//! One forward sweep over the block's order (a topological order), so evaluation never
//! recurses and costs one visit per op however deep the expressions are.

use std::collections::HashMap;

use crate::ir::{BinOp, Block, CmpOp, Conv, ObjectId, OpId, OpKind, Ty, UnOp};

/// The known values of one block.
#[derive(Clone, Debug, Default)]
pub struct Consts {
    /// Integer scalars: the value's bits, masked to the op's width.
    pub ints: HashMap<OpId, u64>,
    /// Pointers into a kernel object at a constant byte offset.
    pub ptrs: HashMap<OpId, (ObjectId, i64)>,
}

impl Consts {
    /// Evaluates every op of `b` that folds.
    pub fn of(b: &Block) -> Consts {
        let mut c = Consts::default();
        for &id in &b.order {
            let op = b.op(id);
            let args = b.operands(id);
            match &op.kind {
                OpKind::ObjectAddr(o) => {
                    c.ptrs.insert(id, (*o, 0));
                }
                OpKind::PtrAdd => {
                    let base = args.first().and_then(|a| c.ptrs.get(a)).copied();
                    let off = args.get(1).and_then(|a| c.ints.get(a)).copied();
                    if let (Some((o, at)), Some(off)) = (base, off) {
                        if let Some(sum) = at.checked_add(off as i64) {
                            c.ptrs.insert(id, (o, sum));
                        }
                    }
                }
                kind => {
                    let Some(ty) = &op.ty else { continue };
                    let vals: Option<Vec<(u64, &Ty)>> = args
                        .iter()
                        .map(|a| Some((*c.ints.get(a)?, b.op(*a).ty.as_ref()?)))
                        .collect();
                    if let Some(v) = vals.and_then(|v| eval(kind, ty, &v)) {
                        c.ints.insert(id, v);
                    }
                }
            }
        }
        c
    }
}

/// The integer width of a scalar integer type.
pub fn width(t: &Ty) -> Option<u32> {
    match t {
        Ty::I(n) if *n >= 1 => Some(*n as u32),
        _ => None,
    }
}

pub fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 {
        v
    } else {
        v & ((1u64 << w) - 1)
    }
}

pub fn sext(v: u64, w: u32) -> i64 {
    if w >= 64 || w == 0 {
        v as i64
    } else {
        let s = 64 - w;
        ((v << s) as i64) >> s
    }
}

/// The value of one scalar integer op on constant operands (`args`: value and type per
/// operand), or `None` when it does not fold (floats, vectors, division by zero...).
pub fn eval(kind: &OpKind, ty: &Ty, args: &[(u64, &Ty)]) -> Option<u64> {
    let w = width(ty)?;
    let arg = |i: usize| args.get(i).map(|a| a.0);
    let arg_w = |i: usize| args.get(i).and_then(|a| width(a.1));
    let v = match kind {
        OpKind::Const(l) if l.len() == 1 => l[0],
        OpKind::Conv(Conv::Int {
            from_signed,
            sat: false,
            ..
        }) => {
            let (x, fw) = (arg(0)?, arg_w(0)?);
            if *from_signed {
                sext(x, fw) as u64
            } else {
                x
            }
        }
        OpKind::Unary(UnOp::Neg) => arg(0)?.wrapping_neg(),
        OpKind::Unary(UnOp::Not) => !arg(0)?,
        OpKind::Binary(op) => binary(*op, arg(0)?, arg(1)?, arg_w(0)?)?,
        OpKind::Cmp(op) => cmp(*op, arg(0)?, arg(1)?, arg_w(0)?)? as u64,
        OpKind::Select => {
            if arg(0)? & 1 == 1 {
                arg(1)?
            } else {
                arg(2)?
            }
        }
        _ => return None,
    };
    Some(mask(v, w))
}

/// An integer binary op at width `w` (operands already masked to it); the result is
/// masked by the caller. Division by zero and the one overflowing signed division do not
/// fold (the program's behaviour there is the hardware's, not ours to choose).
pub fn binary(op: BinOp, x: u64, y: u64, w: u32) -> Option<u64> {
    let (sx, sy) = (sext(x, w), sext(y, w));
    Some(match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::UDiv => x.checked_div(y)?,
        BinOp::URem => x.checked_rem(y)?,
        BinOp::SDiv if sy == -1 && sx == sext(1u64 << (w - 1), w) => return None,
        BinOp::SRem if sy == -1 && sx == sext(1u64 << (w - 1), w) => return None,
        BinOp::SDiv => sx.checked_div(sy)? as u64,
        BinOp::SRem => sx.checked_rem(sy)? as u64,
        // Lowering reduces shift counts below the width; a larger one is left alone.
        BinOp::Shl if y < w as u64 => x << y,
        BinOp::LShr if y < w as u64 => x >> y,
        BinOp::AShr if y < w as u64 => (sx >> y) as u64,
        BinOp::And => x & y,
        BinOp::Or => x | y,
        BinOp::Xor => x ^ y,
        _ => return None,
    })
}

/// An integer comparison at width `w`.
pub fn cmp(op: CmpOp, x: u64, y: u64, w: u32) -> Option<bool> {
    let (x, y) = (mask(x, w), mask(y, w));
    let (sx, sy) = (sext(x, w), sext(y, w));
    Some(match op {
        CmpOp::Eq => x == y,
        CmpOp::Ne => x != y,
        CmpOp::SLt => sx < sy,
        CmpOp::SLe => sx <= sy,
        CmpOp::SGt => sx > sy,
        CmpOp::SGe => sx >= sy,
        CmpOp::ULt => x < y,
        CmpOp::ULe => x <= y,
        CmpOp::UGt => x > y,
        CmpOp::UGe => x >= y,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;

    #[test]
    fn an_address_of_constant_index_folds_to_its_byte_offset() {
        let mut b = Block::default();
        let s = Span::default();
        let base = b.add(
            OpKind::ObjectAddr(ObjectId(2)),
            Some(Ty::Ptr(crate::frontend::types::AddrSpace::Private)),
            s,
            &[],
        );
        let k = b.add(OpKind::Const(vec![0xffff_fffd]), Some(Ty::I(32)), s, &[]);
        let wide = b.add(
            OpKind::Conv(Conv::Int {
                from_signed: true,
                to_signed: true,
                sat: false,
            }),
            Some(Ty::I(64)),
            s,
            &[k],
        );
        let four = b.add(OpKind::Const(vec![4]), Some(Ty::I(64)), s, &[]);
        let off = b.add(
            OpKind::Binary(BinOp::Mul),
            Some(Ty::I(64)),
            s,
            &[wide, four],
        );
        let p = b.add(
            OpKind::PtrAdd,
            Some(Ty::Ptr(crate::frontend::types::AddrSpace::Private)),
            s,
            &[base, off],
        );
        let c = Consts::of(&b);
        assert_eq!(c.ints[&off], (-12i64) as u64);
        assert_eq!(c.ptrs[&p], (ObjectId(2), -12));
    }

    #[test]
    fn division_by_zero_and_signed_overflow_do_not_fold() {
        assert_eq!(binary(BinOp::UDiv, 7, 0, 32), None);
        assert_eq!(binary(BinOp::SDiv, 0x8000_0000, 0xffff_ffff, 32), None);
        assert_eq!(
            binary(BinOp::SDiv, mask(-7i64 as u64, 32), 2, 32).map(|v| mask(v, 32)),
            Some(mask(-3i64 as u64, 32))
        );
        assert_eq!(cmp(CmpOp::SLt, 0xffff_ffff, 0, 32), Some(true));
        assert_eq!(cmp(CmpOp::ULt, 0xffff_ffff, 0, 32), Some(false));
    }
}
