//! Compares with a constant that a bit test decides, lowered after extraction: a signed
//! compare with zero is the sign bit (`x > 0` is `!x[31] && x != 0`), and a compare with
//! a power of two, or one below it, tests the bits from that power up for zero
//! (`x < 16` is `x >> 4 == 0`). Yosys builds every `<` as a carry chain as wide as its
//! operands, even against a constant (a 32-bit `x > 0` is 33 arithmetic cells and nine
//! LUTs, `x != 0` nine LUTs), while a test for zero is a tree of LUTs and the sign bit a
//! wire. The e-graph prices a compare as its unit and would gain nothing from the
//! spelled-out form, so this runs on its result. A loop exit test on a variable stays a
//! compare: the analyses after this stage read the loop's counter from it
//! (`ranges::counter`).

use std::collections::{HashMap, HashSet};

use crate::diag::Span;
use crate::ir::{BinOp, Block, CmpOp, Conv, OpId, OpKind, Ty, UnOp};

/// How a compare of a `w`-bit value with a constant reads its bits: `sign` is the sign
/// bit's part (it alone decides, or it is and-ed or or-ed with the high-bits test), and
/// `high` tests whether the bits from `k` up are all zero (`Some((k, zero))`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Test {
    /// The sign bit, or its complement.
    Sign { negated: bool },
    /// Bits `k..w` are all zero (`zero`) or not.
    High { k: u32, zero: bool },
    /// Negative, or bits `k..w` all zero (`x <= 2^k - 1`, signed).
    SignOrZero { k: u32 },
    /// Not negative, and some bit from `k` up set (`x > 2^k - 1`, signed).
    NotSignAndSet { k: u32 },
}

/// The exponent of `c` if it is a power of two below `2^w`.
fn log2(c: u64, w: u32) -> Option<u32> {
    (c.is_power_of_two() && c.trailing_zeros() < w).then(|| c.trailing_zeros())
}

/// The bit test compare `op` of a `w`-bit value with constant `c` is, if any.
fn test(op: CmpOp, w: u32, c: u64) -> Option<Test> {
    let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    let c = c & mask;
    let sign_bit = 1u64 << (w - 1);
    // A power of two the signed values reach (below the sign bit).
    let spow = |c: u64| log2(c, w - 1);
    use CmpOp::*;
    Some(match op {
        ULt => Test::High {
            k: log2(c, w)?,
            zero: true,
        },
        UGe => Test::High {
            k: log2(c, w)?,
            zero: false,
        },
        ULe => Test::High {
            k: log2(c.wrapping_add(1) & mask, w)?,
            zero: true,
        },
        UGt => Test::High {
            k: log2(c.wrapping_add(1) & mask, w)?,
            zero: false,
        },
        SLt if c == 0 => Test::Sign { negated: false },
        SGe if c == 0 => Test::Sign { negated: true },
        SLe if c == mask => Test::Sign { negated: false },
        SGt if c == mask => Test::Sign { negated: true },
        SLt => Test::SignOrZero { k: spow(c)? },
        SLe if c < sign_bit => Test::SignOrZero { k: spow(c + 1)? },
        SGe => Test::NotSignAndSet { k: spow(c)? },
        SGt if c < sign_bit => Test::NotSignAndSet { k: spow(c + 1)? },
        _ => return None,
    })
}

const TRUNC: Conv = Conv::Int {
    from_signed: false,
    to_signed: false,
    sat: false,
};

/// Appends the ops of test `t` on `x` (`w` bits) to `b`; the op with its answer.
fn build(b: &mut Block, x: OpId, w: u8, t: Test, span: Span) -> OpId {
    let add = |b: &mut Block, kind: OpKind, bits: u8, args: &[OpId]| {
        b.add(kind, Some(Ty::I(bits)), span, args)
    };
    let sign = |b: &mut Block| {
        let top = add(b, OpKind::Const(vec![u64::from(w) - 1]), w, &[]);
        let shifted = add(b, OpKind::Binary(BinOp::LShr), w, &[x, top]);
        add(b, OpKind::Conv(TRUNC), 1, &[shifted])
    };
    let high = |b: &mut Block, k: u32, zero: bool| {
        let v = if k == 0 {
            x
        } else {
            let s = add(b, OpKind::Const(vec![u64::from(k)]), w, &[]);
            add(b, OpKind::Binary(BinOp::LShr), w, &[x, s])
        };
        let z = add(b, OpKind::Const(vec![0]), w, &[]);
        let op = if zero { CmpOp::Eq } else { CmpOp::Ne };
        add(b, OpKind::Cmp(op), 1, &[v, z])
    };
    match t {
        Test::Sign { negated: false } => sign(b),
        Test::Sign { negated: true } => {
            let s = sign(b);
            add(b, OpKind::Unary(UnOp::Not), 1, &[s])
        }
        Test::High { k, zero } => high(b, k, zero),
        Test::SignOrZero { k } => {
            let s = sign(b);
            let h = high(b, k, true);
            add(b, OpKind::Binary(BinOp::Or), 1, &[s, h])
        }
        Test::NotSignAndSet { k } => {
            let s = sign(b);
            let n = add(b, OpKind::Unary(UnOp::Not), 1, &[s]);
            let h = high(b, k, false);
            add(b, OpKind::Binary(BinOp::And), 1, &[n, h])
        }
    }
}

/// The compare `o` of `b` as a bit test, if it is one: its operand, width and test.
fn candidate(b: &Block, o: OpId) -> Option<(OpId, u8, Test)> {
    let OpKind::Cmp(op) = b.op(o).kind else {
        return None;
    };
    let args = b.operands(o);
    let Some(Ty::I(w)) = b.op(args[0]).ty else {
        return None;
    };
    if w < 2 {
        return None;
    }
    let OpKind::Const(v) = &b.op(args[1]).kind else {
        return None;
    };
    if v.len() != 1 {
        return None;
    }
    Some((args[0], w, test(op, u32::from(w), v[0])?))
}

/// Lowers the compares of block `b` that a bit test decides, except `keep` (loop exit
/// tests on a variable); returns each replaced compare with the op now standing for it. The constants
/// left unread are for `dead.rs`.
pub fn block(b: &mut Block, keep: &HashSet<OpId>) -> HashMap<OpId, OpId> {
    let mut map = HashMap::new();
    let todo: Vec<OpId> = b
        .order
        .iter()
        .copied()
        .filter(|o| !keep.contains(o))
        .collect();
    for o in todo {
        let Some((x, w, t)) = candidate(b, o) else {
            continue;
        };
        let span = b.op(o).span;
        let since = b.order.len();
        let new = build(b, x, w, t, span);
        super::forward::replace_with_appended(b, o, new, since);
        map.insert(o, new);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opt::lang::{eval_cmp, mask};

    fn cmp(op: CmpOp, w: u32, x: u64, c: u64) -> bool {
        eval_cmp(crate::opt::region::cmp(op).expect("integer"), w, x, c)
    }

    /// Block `x <op> c` on `w` bits, lowered; `None` when it is no bit test.
    fn lowered(op: CmpOp, w: u8, c: u64) -> Option<(Block, OpId, OpId)> {
        let mut b = Block::default();
        let span = Span::default();
        let x = b.add(OpKind::Param(0), Some(Ty::I(w)), span, &[]);
        let k = b.add(OpKind::Const(vec![c]), Some(Ty::I(w)), span, &[]);
        let o = b.add(OpKind::Cmp(op), Some(Ty::I(1)), span, &[x, k]);
        let map = block(&mut b, &HashSet::new());
        Some((b, x, *map.get(&o)?))
    }

    /// The value of `out` in `b` when `x` is `v`, by the ops the lowering builds.
    fn run(b: &Block, x: OpId, v: u64, out: OpId) -> u64 {
        let mut val: HashMap<OpId, u64> = HashMap::new();
        for &o in &b.order {
            let w = match b.op(o).ty {
                Some(Ty::I(w)) => u32::from(w),
                _ => 64,
            };
            let a: Vec<u64> = b.operands(o).iter().map(|a| val[a]).collect();
            let aw = b
                .operands(o)
                .first()
                .and_then(|a| match b.op(*a).ty {
                    Some(Ty::I(w)) => Some(u32::from(w)),
                    _ => None,
                })
                .unwrap_or(w);
            let r = match &b.op(o).kind {
                _ if o == x => v,
                OpKind::Const(c) => c[0],
                OpKind::Binary(BinOp::LShr) => a[0] >> a[1],
                OpKind::Binary(BinOp::And) => a[0] & a[1],
                OpKind::Binary(BinOp::Or) => a[0] | a[1],
                OpKind::Unary(UnOp::Not) => !a[0],
                OpKind::Conv(_) => a[0],
                OpKind::Cmp(c) => cmp(*c, aw, a[0], a[1]) as u64,
                k => panic!("the lowering built {k:?}"),
            };
            val.insert(o, r & mask(w));
        }
        val[&out]
    }

    #[test]
    fn every_bit_test_agrees_with_its_compare_on_every_8_bit_value() {
        use CmpOp::*;
        let mut found = 0;
        for op in [ULt, ULe, UGt, UGe, SLt, SLe, SGt, SGe, Eq, Ne] {
            for c in 0..=255u64 {
                let Some((b, x, out)) = lowered(op, 8, c) else {
                    continue;
                };
                found += 1;
                assert!(!b
                    .order
                    .iter()
                    .any(|o| matches!(b.op(*o).kind, OpKind::Cmp(c) if c != Eq && c != Ne)));
                for v in 0..=255u64 {
                    assert_eq!(
                        run(&b, x, v, out),
                        cmp(op, 8, v, c) as u64,
                        "{op:?} {v} {c}"
                    );
                }
            }
        }
        // 8 powers of two and 8 masks for each unsigned compare; signed: zero or -1 and
        // 7 powers of two each; equality none.
        assert_eq!(found, 4 * 8 + 4 * 8);
    }

    #[test]
    fn wide_compares_with_zero_and_powers_of_two_are_bit_tests() {
        use CmpOp::*;
        let edges = [
            0u64,
            1,
            2,
            7,
            8,
            9,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_ffff,
            0x1234_5678,
        ];
        for (op, c) in [
            (SGt, 0u64),
            (SLt, 0),
            (SGe, 0),
            (SLe, 0),
            (SGt, 7),
            (SLt, 8),
            (ULt, 16),
        ] {
            let (b, x, out) = lowered(op, 32, c).expect("a bit test");
            for v in edges {
                assert_eq!(
                    run(&b, x, v, out),
                    cmp(op, 32, v, c) as u64,
                    "{op:?} {v:#x} {c}"
                );
            }
        }
        assert_eq!(test(SGt, 32, 0), Some(Test::NotSignAndSet { k: 0 }));
        assert_eq!(test(SGt, 32, 5), None);
        assert!(lowered(SGt, 32, 5).is_none());
    }

    #[test]
    fn loop_exit_tests_stay_compares() {
        let mut b = Block::default();
        let span = Span::default();
        let x = b.add(OpKind::Param(0), Some(Ty::I(8)), span, &[]);
        let k = b.add(OpKind::Const(vec![16]), Some(Ty::I(8)), span, &[]);
        let o = b.add(OpKind::Cmp(CmpOp::ULt), Some(Ty::I(1)), span, &[x, k]);
        assert!(block(&mut b, &HashSet::from([o])).is_empty());
        assert!(matches!(b.op(o).kind, OpKind::Cmp(CmpOp::ULt)));
    }
}
