//! `a * b + c` contracted into `fma(a, b, c)` under `-cl-mad-enable` (or the options that
//! imply it: `-cl-unsafe-math-optimizations`, `-cl-fast-relaxed-math`), which let a
//! compiler compute a multiply-add with one rounding instead of two. Contracted only on
//! a loop-carried recurrence: a variable read, the multiply-add, and a write of the same
//! variable in one block of a loop whose iterations overlap (`reassociate::overlaps`),
//! as in `y = y * a + x` or `acc = acc + a * b`. There the fused unit's latency (5 cycles
//! on the boards' libraries, against 4 + 6 for a multiplier then an adder) is the loop's
//! II. Elsewhere an fma is only bigger (a binary32 fma is about 1.5 times a multiplier
//! and an adder on the DE10-Nano), so the source's two roundings stay. Single precision
//! only: the hardware has no binary64 fma.
//!
//! The rule reads the IR alone, never the board, and runs on the lowered kernel in
//! `compile` and in `run --engine interp` alike (the `relax` stage), so both engines fuse
//! the same operations and give the same bits.

use std::collections::{HashMap, HashSet};

use super::reassociate::{data_users, loop_blocks, overlaps};
use crate::diag::Span;
use crate::frontend::types::{Scalar, Type};
use crate::ir::{BinOp, Block, BlockId, BuiltinCall, Kernel, OpId, OpKind, Ty, UnOp, VarId};

/// Contracts the multiply-adds on loop-carried recurrences of every loop of `k`; returns
/// where each fused add is.
pub fn kernel(k: &mut Kernel) -> Vec<Span> {
    let mut in_loops: Vec<BlockId> = Vec::new();
    for (i, l) in k.loops.iter().enumerate() {
        if overlaps(k, crate::ir::LoopId(i as u32)) {
            in_loops.extend(loop_blocks(l));
        }
    }
    in_loops.sort();
    in_loops.dedup();
    let mut out = Vec::new();
    for b in in_loops {
        out.extend(block(k.block_mut(b)));
    }
    out
}

/// The ops `from` reaches through data edges (itself included).
fn reach(b: &Block, from: OpId) -> HashSet<OpId> {
    let mut seen = HashSet::from([from]);
    let mut todo = vec![from];
    while let Some(o) = todo.pop() {
        for u in data_users(b, o) {
            if seen.insert(u) {
                todo.push(u);
            }
        }
    }
    seen
}

/// The scalar float types whose `fma` the hardware builds: binary32 (a binary64 fma has
/// no template yet, so a double multiply-add keeps its multiplier and adder).
fn scalar(ty: &Option<Ty>) -> Option<Scalar> {
    match ty {
        Some(Ty::F32) => Some(Scalar::Float),
        _ => None,
    }
}

/// Contracts the multiply-adds of one block that lie between a read of a variable (before
/// the block writes it) and a write of it.
fn block(b: &mut Block) -> Vec<Span> {
    // Per variable, its read before any write of it in the block.
    let mut first_reads: HashMap<VarId, OpId> = HashMap::new();
    let mut written: HashSet<VarId> = HashSet::new();
    for &o in &b.order {
        match b.op(o).kind {
            OpKind::ReadVar(v) if !written.contains(&v) => {
                first_reads.entry(v).or_insert(o);
            }
            OpKind::WriteVar(v) => {
                written.insert(v);
            }
            _ => {}
        }
    }
    // The ops on a recurrence: reached from a variable's first read, and reaching a
    // write of it.
    let mut on_cycle: HashSet<OpId> = HashSet::new();
    for (v, r) in &first_reads {
        let fwd = reach(b, *r);
        for &w in &b.order {
            if b.op(w).kind == OpKind::WriteVar(*v) && fwd.contains(&w) {
                on_cycle.extend(fwd.iter().filter(|o| reach(b, **o).contains(&w)));
            }
        }
    }
    let mut out = Vec::new();
    let adds: Vec<OpId> = b
        .order
        .iter()
        .copied()
        .filter(|o| on_cycle.contains(o))
        .collect();
    for s in adds {
        let op = b.op(s);
        let sub = match op.kind {
            OpKind::Binary(BinOp::FAdd) => false,
            OpKind::Binary(BinOp::FSub) => true,
            _ => continue,
        };
        let Some(sc) = scalar(&op.ty) else { continue };
        let (ty, span) = (op.ty.clone(), op.span);
        let args = b.operands(s);
        // The multiply: an operand of the add used by it alone (the first one when both
        // are).
        let is_mul = |m: OpId| {
            matches!(b.op(m).kind, OpKind::Binary(BinOp::FMul)) && data_users(b, m) == [s]
        };
        let Some(i) = (0..2).find(|&i| is_mul(args[i])) else {
            continue;
        };
        let (m, c) = (args[i], args[1 - i]);
        let [x, y] = b.operands(m)[..] else { continue };
        let since = b.order.len();
        // a*b - c = fma(a, b, -c); c - a*b = fma(-a, b, c): negation is exact.
        let neg = |b: &mut Block, v: OpId| b.add(OpKind::Unary(UnOp::FNeg), ty.clone(), span, &[v]);
        let (x, c) = match (sub, i) {
            (true, 0) => (x, neg(b, c)),
            (true, _) => (neg(b, x), c),
            _ => (x, c),
        };
        let call = BuiltinCall {
            name: "fma".into(),
            params: vec![Type::Scalar(sc); 3],
            ret: Type::Scalar(sc),
        };
        let f = b.add(OpKind::Builtin(call), ty.clone(), span, &[x, y, c]);
        super::forward::replace_with_appended(b, s, f, since);
        super::forward::remove(b, m);
        out.push(span);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::frontend::{check_source, Options};

    /// How many multiply-adds of `body` are fused; the kernel still verifies.
    fn fused(body: &str) -> usize {
        let src = format!(
            "__kernel void k(__global const float *x, __global float *out, float a, int n) \
             {{ {body} }}"
        );
        let c = check_source("k.cl", &src, &Options::default());
        assert!(!c.has_errors(), "{:?}", c.diags.list);
        let m = crate::lower::lower(c.program.as_ref().unwrap(), &c.sources).unwrap();
        let mut k = m.kernels[0].clone();
        let n = super::kernel(&mut k).len();
        crate::ir::verify::verify_kernel(&k).expect("verifies");
        let fmas = k
            .blocks
            .iter()
            .flat_map(|b| b.graph.node_weights())
            .filter(|o| matches!(&o.kind, crate::ir::OpKind::Builtin(c) if c.name == "fma"))
            .count();
        assert_eq!(fmas, n, "one fma per contraction");
        n
    }

    #[test]
    fn multiply_adds_on_a_recurrence_are_fused() {
        let run = |e: &str| {
            fused(&format!(
                "float y = 0; for (int i = 0; i < n; i++) y = {e}; out[0] = y;"
            ))
        };
        assert_eq!(run("y * a + x[i]"), 1);
        assert_eq!(run("x[i] + a * y"), 1);
        assert_eq!(run("y * a - x[i]"), 1);
        assert_eq!(run("x[i] - y * a"), 1);
        // The accumulator is the addend.
        assert_eq!(run("y + x[i] * a"), 1);
        // Two multiply-adds in a chain, both on the recurrence.
        assert_eq!(run("(y * a + x[i]) * a + x[i + 1]"), 2);
    }

    #[test]
    fn multiply_adds_off_a_recurrence_keep_two_roundings() {
        // Outside any loop, in a loop but not on the recurrence, a product used twice,
        // a loop over private arrays only (unrolled fully by the loops stage).
        assert_eq!(fused("out[0] = x[0] * a + x[1];"), 0);
        // A double one: the hardware has no binary64 fma.
        assert_eq!(
            fused("double y = 0; for (int i = 0; i < n; i++) y = y * a + x[i]; out[0] = y;"),
            0
        );
        assert_eq!(
            fused("for (int i = 0; i < n; i++) out[i] = x[i] * a + x[i + 1];"),
            0
        );
        assert_eq!(
            fused(
                "float y = 0; for (int i = 0; i < n; i++) { float p = x[i] * a; y = y + p; \
                 out[i] = p; } out[0] = y;"
            ),
            0
        );
        assert_eq!(
            fused(
                "float w[4] = {1, 2, 3, 4}; float y = 0; for (int i = 0; i < 4; i++) \
                 y = y * a + w[i]; out[0] = y;"
            ),
            0
        );
    }
}
