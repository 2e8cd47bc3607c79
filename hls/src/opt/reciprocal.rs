//! Division by a constant as multiplication by its reciprocal: a divider is about four
//! times a multiplier's logic and three times its latency on the boards' libraries.
//! When the reciprocal of the constant is a power of two that is a normal float, `x / c`
//! and `x * (1 / c)` are the correctly rounded results of the same real number, so they
//! are the same bits for every `x` (infinities, zeros, subnormals and NaNs included);
//! this is done always, as LLVM's InstCombine does without fast-math flags. The
//! reciprocal of any other constant is rounded, so `x * fl(1 / c)` may differ from
//! `x / c` in the last place: only under `-cl-unsafe-math-optimizations` or
//! `-cl-fast-relaxed-math`, which allow it.

use std::collections::HashMap;

use super::fast_math::MathFlags;
use crate::ir::{BinOp, Block, OpId, OpKind, Ty};

/// The reciprocal of `c` when `x * r` gives `x / c`'s bits for every `x` (`exact`), or,
/// with `inexact` allowed, when it is a finite normal float.
fn reciprocal(c: f32, inexact: bool) -> Option<f32> {
    if !c.is_normal() {
        return None;
    }
    let r = 1.0 / c;
    if !r.is_normal() {
        return None;
    }
    let exact = c.abs().to_bits() & 0x007f_ffff == 0;
    (exact || inexact).then_some(r)
}

/// Rewrites the scalar single-precision divisions by constants of block `b`; returns
/// each removed division with the multiply now standing for it.
pub fn block(b: &mut Block, flags: &MathFlags) -> HashMap<OpId, OpId> {
    let inexact = flags.effective().unsafe_math;
    let mut map = HashMap::new();
    let divs: Vec<(OpId, OpId, f32)> = b
        .order
        .iter()
        .filter_map(|&o| {
            let op = b.op(o);
            if !matches!(op.kind, OpKind::Binary(BinOp::FDiv)) || op.ty != Some(Ty::F32) {
                return None;
            }
            let args = b.operands(o);
            let c = match &b.op(args[1]).kind {
                OpKind::Const(v) if v.len() == 1 => f32::from_bits(v[0] as u32),
                _ => return None,
            };
            Some((o, args[0], reciprocal(c, inexact)?))
        })
        .collect();
    for (div, x, r) in divs {
        let span = b.op(div).span;
        let since = b.order.len();
        let k = b.add(
            OpKind::Const(vec![r.to_bits() as u64]),
            Some(Ty::F32),
            span,
            &[],
        );
        let m = b.add(OpKind::Binary(BinOp::FMul), Some(Ty::F32), span, &[x, k]);
        super::forward::replace_with_appended(b, div, m, since);
        map.insert(div, m);
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every power of two whose reciprocal is normal gives the division's bits on edge
    /// and sampled inputs; the others only when rounding is allowed.
    #[test]
    fn exact_reciprocals_give_the_division_s_bits() {
        let mut inputs: Vec<f32> = vec![
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            f32::from_bits(1),
            f32::from_bits(0x007f_ffff),
            f32::MAX,
            -f32::MAX,
            1.0,
            3.0,
        ];
        let mut s = 0x1234_5678u32;
        for _ in 0..20_000 {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            inputs.push(f32::from_bits(s));
        }
        let mut exact = 0;
        for e in -130..130 {
            for sign in [1.0f32, -1.0] {
                let c = sign * 2f32.powi(e);
                let Some(r) = reciprocal(c, false) else {
                    assert!(!c.is_normal() || !(1.0 / c).is_normal(), "{c}");
                    continue;
                };
                exact += 1;
                for x in &inputs {
                    let (d, m) = (x / c, x * r);
                    assert!(
                        d.to_bits() == m.to_bits() || (d.is_nan() && m.is_nan()),
                        "{x} / {c}: {d} but {x} * {r}: {m}"
                    );
                }
            }
        }
        // 2^-126 .. 2^126 and their negatives.
        assert_eq!(exact, 2 * 253);
        assert_eq!(reciprocal(3.0, false), None);
        assert_eq!(reciprocal(3.0, true), Some(1.0 / 3.0));
        assert_eq!(reciprocal(f32::from_bits(1), true), None);
        assert_eq!(reciprocal(0.0, true), None);
    }
}
