//! Unsigned upper bounds of integer values: the transfer function of every e-node (the
//! largest value its result can take, read as unsigned at its width, from its operands'
//! bounds). The e-class analysis (`facts.rs`) and the kernel-wide range analysis
//! (`ranges.rs`) share it, so a value is bounded the same way in and out of the e-graph.
//! Every bound is sound for the interpreter's definitions in `lang.rs` (division by zero
//! gives all ones, `x % 0` is `x`, shift counts are taken modulo the width).

use super::lang::{mask, Bin, Node};

/// What the transfer function knows of an operand: its bound, width and constant value.
#[derive(Clone, Copy, Debug)]
pub struct Operand {
    pub hi: u64,
    pub bits: u32,
    pub konst: Option<u64>,
}

/// The smallest all-ones value at least `x` (an `or` or `xor` of values up to `x` stays
/// below it).
pub fn fill(x: u64) -> u64 {
    if x == 0 {
        0
    } else {
        u64::MAX >> x.leading_zeros()
    }
}

/// The bound of `node` (of result width `bits`) from its operands'; all ones at the width
/// when nothing better is known. Leaves and pointers are the caller's to bound.
pub fn hi(node: &Node, bits: u32, arg: impl Fn(usize) -> Operand) -> u64 {
    let top = mask(bits);
    let within = |x: Option<u64>| x.filter(|v| *v <= top).unwrap_or(top);
    let b = match node {
        Node::Const(_, v) => *v & top,
        Node::Leaf(_) | Node::PtrAdd(_) => top,
        Node::Cmp(..) => 1,
        Node::Bin(op, _) => bin(*op, arg(0), arg(1), top),
        // -x and !x of a bounded x can be anything up to all ones.
        Node::Neg(_) | Node::Not(_) => top,
        Node::Select(_) => arg(1).hi.max(arg(2).hi),
        Node::ZExt(..) => arg(0).hi,
        Node::Trunc(..) => arg(0).hi.min(top),
        Node::SExt(..) => {
            let a = arg(0);
            // The sign bit is clear when the bound is below it: the value is kept as is.
            if a.hi <= mask(a.bits.saturating_sub(1)) {
                a.hi
            } else {
                top
            }
        }
    };
    within(Some(b))
}

/// The low bits of `node`'s values known to be zero (every value is a multiple of
/// `2^tz`; all `bits` for a value that is always zero), from its operands' known trailing
/// zeros and constant values (`arg(i)`). Leaves and pointers know none. Sound for the
/// interpreter's definitions in `lang.rs`: multiples of `2^t` stay multiples under sums,
/// products and negation modulo `2^bits`, and shift counts are taken modulo the width.
pub fn tz(node: &Node, bits: u32, arg: impl Fn(usize) -> (u32, Option<u64>)) -> u32 {
    let t = |i: usize| arg(i).0;
    let count = || arg(1).1.map(|k| (k % bits.max(1) as u64) as u32);
    let z = match node {
        Node::Const(_, v) => match v & mask(bits) {
            0 => bits,
            v => v.trailing_zeros(),
        },
        Node::Leaf(_) | Node::PtrAdd(_) | Node::Cmp(..) | Node::Not(_) => 0,
        Node::Neg(_) | Node::ZExt(..) | Node::SExt(..) | Node::Trunc(..) => t(0),
        Node::Select(_) => t(1).min(t(2)),
        Node::Bin(op, _) => match op {
            Bin::Add | Bin::Sub | Bin::Or | Bin::Xor => t(0).min(t(1)),
            Bin::And => t(0).max(t(1)),
            Bin::Mul => t(0).saturating_add(t(1)),
            Bin::Shl => count().map_or(0, |k| t(0).saturating_add(k)),
            Bin::LShr | Bin::AShr => count().map_or(0, |k| t(0).saturating_sub(k)),
            Bin::UDiv | Bin::SDiv | Bin::URem | Bin::SRem => 0,
        },
    };
    z.min(bits)
}

/// The bits a value may have set: below its bound's length and above its known trailing
/// zeros. Two values with none in common add without a carry: their sum is their `or`.
pub fn may_set(hi: u64, tz: u32) -> u64 {
    fill(hi) & !mask(tz)
}

fn bin(op: Bin, a: Operand, b: Operand, top: u64) -> u64 {
    let count = |b: Operand| b.konst.map(|k| k % a.bits.max(1) as u64);
    let sum = |x: u64, y: u64| x.checked_add(y).filter(|s| *s <= top).unwrap_or(top);
    match op {
        Bin::Add => sum(a.hi, b.hi),
        Bin::Mul => a.hi.checked_mul(b.hi).filter(|p| *p <= top).unwrap_or(top),
        // Division by zero gives all ones; by a known non-zero constant at most a / c.
        Bin::UDiv => match b.konst {
            Some(c) if c != 0 => a.hi / c,
            _ => top,
        },
        // x % y is below y when y is not 0, and x itself when it is: never above x.
        Bin::URem => match b.konst {
            Some(c) if c != 0 => a.hi.min(c - 1),
            _ => a.hi,
        },
        Bin::Shl => match count(b) {
            Some(k) if a.hi.leading_zeros() as u64 >= k => (a.hi << k).min(top),
            _ => top,
        },
        Bin::LShr => match count(b) {
            Some(k) => a.hi >> k,
            None => a.hi,
        },
        // With the sign bit clear an arithmetic shift is a logical one.
        Bin::AShr if a.hi <= mask(a.bits.saturating_sub(1)) => match count(b) {
            Some(k) => a.hi >> k,
            None => a.hi,
        },
        Bin::And => a.hi.min(b.hi),
        // No carry: never above the sum either (the bound of an `or` of disjoint bits).
        Bin::Or | Bin::Xor => fill(a.hi.max(b.hi)).min(sum(a.hi, b.hi)),
        Bin::Sub | Bin::SDiv | Bin::SRem | Bin::AShr => top,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opt::lang::eval_bin;

    fn var(hi: u64, bits: u32) -> Operand {
        Operand {
            hi,
            bits,
            konst: None,
        }
    }

    fn k(v: u64, bits: u32) -> Operand {
        Operand {
            hi: v,
            bits,
            konst: Some(v),
        }
    }

    /// Every binary op's bound holds for operands at and below their bounds (edges and a
    /// spread of values), at 8 and 32 bits, with constant and variable right operands.
    #[test]
    fn binary_bounds_hold_on_every_operand_below_them() {
        let ops = [
            Bin::Add,
            Bin::Sub,
            Bin::Mul,
            Bin::UDiv,
            Bin::SDiv,
            Bin::URem,
            Bin::SRem,
            Bin::Shl,
            Bin::LShr,
            Bin::AShr,
            Bin::And,
            Bin::Or,
            Bin::Xor,
        ];
        for bits in [8u32, 32] {
            let his = [0u64, 1, 3, 7, 12, 100, 127, 128, 255, 0xFFFF, mask(bits)];
            for &op in &ops {
                for &ha in &his {
                    for &hb in &his {
                        let (ha, hb) = (ha & mask(bits), hb & mask(bits));
                        let vals = |h: u64| [0, h / 3, h / 2, h.saturating_sub(1), h];
                        for (bconst, b) in [(false, var(hb, bits)), (true, k(hb, bits))] {
                            let bound = bin(op, var(ha, bits), b, mask(bits));
                            for x in vals(ha) {
                                let ys = if bconst { vec![hb] } else { vals(hb).to_vec() };
                                for y in ys {
                                    let r = eval_bin(op, bits, x, y);
                                    assert!(
                                        r <= bound,
                                        "{op:?} {x} {y} at {bits} bits = {r} > bound {bound} \
                                         (bounds {ha}, {hb}, constant rhs {bconst})"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Every binary op's known trailing zeros hold for multiples of them (and constant
    /// counts), at 8 and 32 bits.
    #[test]
    fn trailing_zeros_hold_for_every_multiple() {
        let ops = [
            Bin::Add,
            Bin::Sub,
            Bin::Mul,
            Bin::Shl,
            Bin::LShr,
            Bin::AShr,
            Bin::And,
            Bin::Or,
            Bin::Xor,
        ];
        let id = egg::Id::from(0usize);
        for bits in [8u32, 32] {
            for &op in &ops {
                for ta in 0..5u32 {
                    for tb in 0..5u32 {
                        for (x, y) in [(1u64, 1u64), (3, 5), (0x7F, 3), (0xFF, 0xFF), (0, 7)] {
                            let (x, y) = ((x << ta) & mask(bits), (y << tb) & mask(bits));
                            // A shift's count is the constant `tb`.
                            let shift = matches!(op, Bin::Shl | Bin::LShr | Bin::AShr);
                            let (y, kb) = if shift {
                                (tb as u64, Some(tb as u64))
                            } else {
                                (y, None)
                            };
                            let n = Node::Bin(op, [id, id]);
                            let z = tz(&n, bits, |i| if i == 0 { (ta, None) } else { (tb, kb) });
                            let r = eval_bin(op, bits, x, y);
                            assert!(
                                r & mask(z) == 0,
                                "{op:?} {x:#x} {y:#x} at {bits} bits = {r:#x}: not a multiple of 2^{z}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_sign_extension_keeps_a_bound_below_the_sign_bit() {
        let n = Node::SExt(32, egg::Id::from(0usize));
        assert_eq!(hi(&n, 32, |_| var(0x7F, 8)), 0x7F);
        assert_eq!(hi(&n, 32, |_| var(0x80, 8)), 0xFFFF_FFFF);
    }

    #[test]
    fn fill_covers_every_value_of_the_same_bit_length() {
        assert_eq!(fill(0), 0);
        assert_eq!(fill(1), 1);
        assert_eq!(fill(5), 7);
        assert_eq!(fill(64), 127);
        assert_eq!(fill(u64::MAX), u64::MAX);
    }
}
