//! Float sums reassociated into interleaved partial sums, under
//! `-cl-unsafe-math-optimizations` (or `-cl-fast-relaxed-math`), which allow a compiler to
//! change the order of float additions. A loop that accumulates `acc += x` waits for the
//! float adder every iteration (II 6 on the boards' libraries); with `P` partial sums,
//! iteration `i` adds into partial `i mod P`, the recurrence spans `P` iterations and the
//! loop pipelines at II 1. The partials are added up after the loop.
//!
//! The rewrite fixes which partial each term goes to, so every engine computes the same
//! bits: it runs on the lowered kernel (before the math library, work-item loops and
//! unrolling) in `compile` and in `run --engine interp` alike, and `P` depends on the
//! source alone (8, enough for the binary32 and binary64 adders of every board; 8 per
//! copy when the loop asks for partial unrolling), never on the board.
//!
//! In IR terms, for an innermost loop whose only access to a float variable `acc` is
//! `acc = acc + x` (or `acc - x`, `fma(a, b, acc)`, `mad(a, b, acc)`) in one block, with
//! the sum used by that write alone:
//! - before the loop, partials `acc.1 .. acc.{P-1}` are set to -0.0 (the identity of
//!   float addition, `-0.0 + y == y` for every `y`);
//! - in the block, the sum goes to `acc.{P-1}` while `acc <- acc.1 <- ... <- acc.{P-1}`
//!   rotate, so the next iteration adds into the next partial;
//! - after the loop, `acc = ((acc + acc.1) + acc.2) + ...` in that order (a chain: the
//!   FSM runs it on one adder).

use crate::diag::Span;
use crate::ir::{
    BinOp, Block, BlockId, Kernel, Loop, LoopId, Node, OpId, OpKind, Region, Ty, VarId,
};
use petgraph::Direction;

/// Partial sums per accumulator (per copy of a partially unrolled loop).
pub const PARTIALS: u32 = 8;

/// At most this many partials for one accumulator, whatever the unroll factor.
const MAX_PARTIALS: u32 = 64;

/// One accumulator split into partial sums.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Interleaved {
    /// The variable's name in the source.
    pub var: String,
    pub partials: u32,
    /// Where the accumulating add is.
    #[serde(skip)]
    pub span: Span,
}

/// Splits every float accumulator of `k`'s innermost loops that qualifies (see the module
/// documentation); returns what it split, in loop order.
pub fn kernel(k: &mut Kernel) -> Vec<Interleaved> {
    let mut out = Vec::new();
    for l in 0..k.loops.len() {
        let id = LoopId(l as u32);
        let lp = k.lp(id);
        if has_loop(&lp.body) || has_loop(&lp.latch) {
            continue;
        }
        if !overlaps(k, id) {
            continue;
        }
        let partials = match lp.hints.unroll.as_ref().map(|u| u.factor) {
            Some(Some(n)) if n > 1 => {
                (PARTIALS as u64).saturating_mul(n).min(MAX_PARTIALS as u64) as u32
            }
            _ => PARTIALS,
        };
        for acc in accumulators(k, id) {
            out.push(split(k, id, acc, partials));
        }
    }
    out
}

/// Whether loop `l`'s iterations may overlap in hardware, where a shorter recurrence pays:
/// not when the source asks to unroll it fully, nor when it touches only private arrays
/// and `__constant` tables (the `loops` stage unrolls those fully when their trip count
/// is small, and a loop like that rarely runs long), nor when it holds a barrier. The
/// rewrites of the `relax` stage touch only such loops: in a fully unrolled one they
/// would only add area.
pub(super) fn overlaps(k: &Kernel, l: LoopId) -> bool {
    let lp = k.lp(l);
    let full = matches!(lp.hints.unroll, Some(ref u) if u.factor.is_none());
    // A barrier makes the loop's body work-item loops of its own: its iterations never
    // overlap, and the partials would be arrays, one value per work-item.
    let mut bs = Vec::new();
    crate::analysis::loops::all_blocks(k, &lp.body, &mut bs);
    let barrier = bs.iter().any(|b| {
        k.block(*b)
            .graph
            .node_weights()
            .any(|o| matches!(o.kind, OpKind::Barrier { .. }))
    });
    !full && !barrier && !crate::loops::unroll::private_only(k, &lp.body)
}

/// An accumulation `write acc (fadd|fsub|fma|mad ... (read acc) ...)` in block `block`.
#[derive(Clone, Copy, Debug)]
struct Acc {
    var: VarId,
    block: BlockId,
    read: OpId,
    sum: OpId,
    write: OpId,
}

fn has_loop(r: &Region) -> bool {
    r.0.iter().any(|n| match n {
        Node::Loop(_) => true,
        Node::If { then, els, .. } => has_loop(then) || has_loop(els),
        _ => false,
    })
}

/// The blocks of a loop's body and latch, with the condition blocks of their ifs (not
/// those of nested loops).
pub(super) fn loop_blocks(lp: &Loop) -> Vec<BlockId> {
    fn walk(r: &Region, out: &mut Vec<BlockId>) {
        for n in &r.0 {
            match n {
                Node::Block(b) => out.push(*b),
                Node::If {
                    cond, then, els, ..
                } => {
                    out.push(cond.0);
                    walk(then, out);
                    walk(els, out);
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(&lp.body, &mut out);
    walk(&lp.latch, &mut out);
    out
}

pub(super) fn data_users(b: &Block, o: OpId) -> Vec<OpId> {
    b.graph
        .edges_directed(o.0, Direction::Outgoing)
        .filter(|e| matches!(e.weight(), crate::ir::Edge::Data(_)))
        .map(|e| OpId(petgraph::visit::EdgeRef::target(&e)))
        .collect()
}

/// The loop's float accumulators: variables read once and written once in the whole
/// loop, in one block of its body or latch, the write's value the sum of the read and
/// something else, and neither the read nor the sum used by anything else.
fn accumulators(k: &Kernel, l: LoopId) -> Vec<Acc> {
    let lp = k.lp(l);
    let mut bs = loop_blocks(lp);
    bs.extend(lp.cond.map(|c| c.0));
    // Per variable: its reads and writes in the loop, as (block, op).
    let mut reads: std::collections::BTreeMap<VarId, Vec<(BlockId, OpId)>> = Default::default();
    let mut writes: std::collections::BTreeMap<VarId, Vec<(BlockId, OpId)>> = Default::default();
    for &b in &bs {
        let blk = k.block(b);
        for &o in &blk.order {
            match blk.op(o).kind {
                OpKind::ReadVar(v) => reads.entry(v).or_default().push((b, o)),
                OpKind::WriteVar(v) => writes.entry(v).or_default().push((b, o)),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for (v, ws) in &writes {
        if !matches!(k.var(*v).ty, Ty::F32 | Ty::F64) {
            continue;
        }
        let (Some(rs), [(wb, w)]) = (reads.get(v), ws.as_slice()) else {
            continue;
        };
        let [(rb, r)] = rs.as_slice() else {
            continue;
        };
        if rb != wb {
            continue;
        }
        let blk = k.block(*wb);
        let [sum] = blk.operands(*w)[..] else {
            continue;
        };
        let args = blk.operands(sum);
        let is_acc = match &blk.op(sum).kind {
            OpKind::Binary(BinOp::FAdd) => args.contains(r) && args[0] != args[1],
            OpKind::Binary(BinOp::FSub) => args[0] == *r && args[1] != *r,
            // `acc = fma(a, b, acc)`: a dot product's accumulator.
            OpKind::Builtin(call) if matches!(call.name.as_str(), "fma" | "mad") => {
                args.len() == 3 && args[2] == *r && args[0] != *r && args[1] != *r
            }
            _ => false,
        };
        if is_acc && data_users(blk, *r) == [sum] && data_users(blk, sum) == [*w] {
            out.push(Acc {
                var: *v,
                block: *wb,
                read: *r,
                sum,
                write: *w,
            });
        }
    }
    out
}

/// Splits one accumulator into `p` partial sums.
fn split(k: &mut Kernel, l: LoopId, acc: Acc, p: u32) -> Interleaved {
    let ty = k.var(acc.var).ty.clone();
    let name = k.var(acc.var).name.clone();
    let span = k.block(acc.block).op(acc.sum).span;
    let parts: Vec<VarId> = std::iter::once(acc.var)
        .chain((1..p).map(|i| k.new_var(&format!("{name}.{i}"), ty.clone(), span)))
        .collect();
    let neg_zero = match ty {
        Ty::F32 => (-0.0f32).to_bits() as u64,
        _ => (-0.0f64).to_bits(),
    };

    // Before the loop: the other partials start at -0.0.
    let init = k.new_block();
    {
        let b = k.block_mut(init);
        let z = b.add(OpKind::Const(vec![neg_zero]), Some(ty.clone()), span, &[]);
        for v in &parts[1..] {
            b.add(OpKind::WriteVar(*v), None, span, &[z]);
        }
    }
    k.insert_beside_loop(l, init, false);

    // In the accumulating block, after the sum: acc <- acc.1 <- ... <- acc.{p-1} <- the
    // sum, in place of `acc <- the sum` (in one block, so the recurrence the scheduler
    // sees runs through all `p` variables).
    {
        let b = k.block_mut(acc.block);
        let vals: Vec<OpId> = parts[1..]
            .iter()
            .map(|v| b.add(OpKind::ReadVar(*v), Some(ty.clone()), span, &[]))
            .chain(std::iter::once(acc.sum))
            .collect();
        let writes: Vec<OpId> = parts
            .iter()
            .zip(vals)
            .map(|(v, x)| b.add(OpKind::WriteVar(*v), None, span, &[x]))
            .collect();
        // The old write goes with nothing in its place: `forward::remove` would order the
        // new write of `acc` after the sum, a recurrence of one iteration again. The new
        // write follows the read of `acc` it overwrites.
        b.graph
            .add_edge(acc.read.0, writes[0].0, crate::ir::Edge::Order);
        b.graph.remove_node(acc.write.0);
        b.order.retain(|o| *o != acc.write);
    }

    // After the loop: the partials added up in order.
    let combine = k.new_block();
    {
        let b = k.block_mut(combine);
        let mut s = b.add(OpKind::ReadVar(parts[0]), Some(ty.clone()), span, &[]);
        for v in &parts[1..] {
            let x = b.add(OpKind::ReadVar(*v), Some(ty.clone()), span, &[]);
            s = b.add(OpKind::Binary(BinOp::FAdd), Some(ty.clone()), span, &[s, x]);
        }
        b.add(OpKind::WriteVar(parts[0]), None, span, &[s]);
    }
    k.insert_beside_loop(l, combine, true);
    Interleaved {
        var: name,
        partials: p,
        span,
    }
}

#[cfg(test)]
mod tests {
    use crate::frontend::{check_source, Options};
    use crate::ir::Kernel;

    fn lowered(body: &str) -> Kernel {
        let src = format!(
            "__kernel void k(__global const float *x, __global const int *q, \
             __global float *out, int n) {{ {body} }}"
        );
        let c = check_source("k.cl", &src, &Options::default());
        assert!(!c.has_errors(), "{:?}", c.diags.list);
        let m = crate::lower::lower(c.program.as_ref().unwrap(), &c.sources).unwrap();
        m.kernels[0].clone()
    }

    /// The accumulators split in `body`, as (name, partials); the kernel still verifies.
    fn split(body: &str) -> Vec<(String, u32)> {
        let mut k = lowered(body);
        let r = super::kernel(&mut k);
        crate::ir::verify::verify_kernel(&k).expect("verifies");
        r.into_iter().map(|i| (i.var, i.partials)).collect()
    }

    #[test]
    fn sums_differences_and_fma_accumulators_are_split() {
        let s = |v: &str| vec![(v.to_string(), super::PARTIALS)];
        assert_eq!(
            split("float s = 0; for (int i = 0; i < n; i++) s += x[i]; out[0] = s;"),
            s("s")
        );
        assert_eq!(
            split("float s = 0; for (int i = 0; i < n; i++) s = x[i] + s; out[0] = s;"),
            s("s")
        );
        assert_eq!(
            split("float d = 1; for (int i = 0; i < n; i++) d -= x[i]; out[0] = d;"),
            s("d")
        );
        assert_eq!(
            split("float f = 0; for (int i = 0; i < n; i++) f = fma(x[i], x[i], f); out[0] = f;"),
            s("f")
        );
        assert_eq!(
            split("double e = 0; for (int i = 0; i < n; i++) e += x[i]; out[0] = (float)e;"),
            s("e")
        );
        // Under an `if`, and with a `break`: any split of the terms is a reordering.
        assert_eq!(
            split("float s = 0; for (int i = 0; i < n; i++) { if (q[i]) s += x[i]; } out[0] = s;"),
            s("s")
        );
        assert_eq!(
            split(
                "float s = 0; for (int i = 0; i < n; i++) { if (q[i] < 0) break; s += x[i]; } \
                 out[0] = s;"
            ),
            s("s")
        );
        // Unrolled by 4: eight partials per copy.
        assert_eq!(
            split(
                "float s = 0; __attribute__((opencl_unroll_hint(4))) \
                 for (int i = 0; i < n; i++) s += x[i]; out[0] = s;"
            ),
            vec![("s".to_string(), 4 * super::PARTIALS)]
        );
        // In the inner loop (the outer one holds it, and adds to `s` after it).
        assert_eq!(
            split(
                "float s = 0; for (int j = 0; j < n; j++) { for (int i = 0; i < n; i++) \
                 s += x[i]; s += x[j]; } out[0] = s;"
            ),
            s("s")
        );
    }

    #[test]
    fn sums_whose_partial_results_are_seen_are_kept_in_order() {
        let none: Vec<(String, u32)> = vec![];
        // Stored every iteration (a prefix sum).
        assert_eq!(
            split("float s = 0; for (int i = 0; i < n; i++) { s += x[i]; out[i] = s; }"),
            none
        );
        // Read again in the loop, or in its exit test.
        assert_eq!(
            split("float s = 0; for (int i = 0; i < n; i++) { s += x[i]; if (s > 9) out[1] = 1; }"),
            none
        );
        assert_eq!(
            split("float s = 0; for (int i = 0; s < 100 && i < n; i++) s += x[i]; out[0] = s;"),
            none
        );
        // Not a sum of the accumulator: x - s, s * x, an integer.
        assert_eq!(
            split("float s = 0; for (int i = 0; i < n; i++) s = x[i] - s; out[0] = s;"),
            none
        );
        assert_eq!(
            split("float s = 1; for (int i = 0; i < n; i++) s *= x[i]; out[0] = s;"),
            none
        );
        assert_eq!(
            split("int t = 0; for (int i = 0; i < n; i++) t += q[i]; out[0] = t;"),
            none
        );
        // s + s doubles: not a sum of terms.
        assert_eq!(
            split("float s = 1; for (int i = 0; i < n; i++) s = s + s; out[0] = s;"),
            none
        );
        // Fully unrolled, or over private arrays only: no iterations to overlap.
        assert_eq!(
            split(
                "float s = 0; __attribute__((opencl_unroll_hint)) \
                 for (int i = 0; i < 8; i++) s += x[i]; out[0] = s;"
            ),
            none
        );
        assert_eq!(
            split(
                "float w[8]; for (int i = 0; i < 8; i++) w[i] = x[i]; float s = 0; \
                 for (int i = 0; i < 8; i++) s += w[i]; out[0] = s;"
            ),
            none
        );
    }
}
