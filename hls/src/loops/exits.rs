//! Early exits as flags: an innermost `while` loop whose body leaves by `break` or
//! `continue` becomes one whose body always runs to its end, so that if-conversion can
//! make it one predicated region and the modulo scheduler can pipeline it. A `break`
//! clears the loop's `go` flag (which the exit test now also needs) and a `continue` or
//! `break` sets `skip`, which guards everything after it in the iteration; the latch runs
//! only while `go` holds, as it ran only after an iteration that did not break.
//!
//! The exit test runs once more after a `break` than before (it reads `go` there), so the
//! pass leaves loops whose test block reads memory or divides alone: that extra run must
//! not touch anything the program did not. Loops holding loops, `return`, or exits to an
//! outer loop keep their control flow.

use crate::diag::Span;
use crate::ir::{BinOp, BlockId, Kernel, LoopId, LoopKind, Node, OpKind, Region, Ty, VarId};

/// Rewrites every loop of `k` it can; returns how many.
pub fn run(k: &mut Kernel) -> usize {
    let mut n = 0;
    for i in 0..k.loops.len() {
        let id = LoopId(i as u32);
        if placed(k, id) && rewritable(k, id) {
            rewrite(k, id);
            n += 1;
        }
    }
    n
}

/// Whether loop `id` is still part of the kernel's control tree.
pub(super) fn placed(k: &Kernel, id: LoopId) -> bool {
    fn find(k: &Kernel, r: &Region, id: LoopId) -> bool {
        r.0.iter().any(|n| match n {
            Node::Loop(l) if *l == id => true,
            Node::Loop(l) => {
                let lp = k.lp(*l);
                find(k, &lp.body, id) || find(k, &lp.latch, id)
            }
            Node::If { then, els, .. } => find(k, then, id) || find(k, els, id),
            _ => false,
        })
    }
    find(k, &k.body, id)
}

/// An innermost `while` loop leaving only itself, by `break` or `continue` in its body,
/// with a test block free of memory accesses and division.
fn rewritable(k: &Kernel, id: LoopId) -> bool {
    let l = k.lp(id);
    let (LoopKind::While, Some((cb, _))) = (l.kind, l.cond) else {
        return false;
    };
    let (mut exits, mut latch_exits) = (false, false);
    harmless_test(k, cb)
        && only_own_exits(&l.body, id, &mut exits)
        && exits
        && only_own_exits(&l.latch, id, &mut latch_exits)
        && !latch_exits
}

/// A test block that may run once more than the program runs it: no memory access, no
/// variable write, no division (which could trap on values the program never divides
/// by), no built-in call.
pub(super) fn harmless_test(k: &Kernel, cb: BlockId) -> bool {
    let blk = k.block(cb);
    blk.order.iter().all(|o| match &blk.op(*o).kind {
        OpKind::Load { .. }
        | OpKind::Store { .. }
        | OpKind::Atomic { .. }
        | OpKind::Barrier { .. }
        | OpKind::WriteVar(_) => false,
        OpKind::Binary(b) => !matches!(b, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem),
        OpKind::Builtin(_) => false,
        _ => true,
    })
}

/// No nested loop, no `return`, no exit of another loop; notes whether `id` is left.
fn only_own_exits(r: &Region, id: LoopId, exits: &mut bool) -> bool {
    r.0.iter().all(|n| match n {
        Node::Block(_) => true,
        Node::If { then, els, .. } => {
            only_own_exits(then, id, exits) && only_own_exits(els, id, exits)
        }
        Node::Break(l) | Node::Continue(l) if *l == id => {
            *exits = true;
            true
        }
        _ => false,
    })
}

/// The flags of one rewritten loop.
struct Flags {
    go: VarId,
    skip: VarId,
    span: Span,
    brk: bool,
}

fn rewrite(k: &mut Kernel, id: LoopId) {
    let span = k.lp(id).span;
    let go = k.new_var(&format!("L{}.go", id.0), Ty::I(1), span);
    let skip = k.new_var(&format!("L{}.skip", id.0), Ty::I(1), span);
    let mut f = Flags {
        go,
        skip,
        span,
        brk: false,
    };
    // go = 1 before the loop.
    let pre = write_const(k, span, go, 1);
    k.insert_beside_loop(id, pre, false);
    // The test: the source's, and go.
    let (cb, test) = k.lp(id).cond.expect("a while loop's test");
    let blk = k.block_mut(cb);
    let g = blk.add(OpKind::ReadVar(go), Some(Ty::I(1)), span, &[]);
    let both = blk.add(OpKind::Binary(BinOp::And), Some(Ty::I(1)), span, &[test, g]);
    k.loops[id.0 as usize].cond = Some((cb, both));
    // The body: skip = 0 first, then the exits as flag writes.
    let body = std::mem::take(&mut k.loops[id.0 as usize].body);
    let start = write_const(k, span, skip, 0);
    let mut nodes = vec![Node::Block(start)];
    nodes.extend(flagged(k, &mut f, id, body.0).0);
    k.loops[id.0 as usize].body = Region(nodes);
    // The latch ran only after an iteration that did not break.
    if f.brk {
        let latch = std::mem::take(&mut k.loops[id.0 as usize].latch);
        if !latch.0.is_empty() {
            let (tb, t) = read_flag(k, &f, go, false);
            k.loops[id.0 as usize].latch = Region(vec![Node::If {
                cond: (tb, t),
                then: latch,
                els: Region::default(),
                span,
            }]);
        }
    }
}

/// `nodes` with loop `id`'s exits as flag writes and whatever follows a possible exit
/// guarded by `!skip`; also whether the region may exit.
fn flagged(k: &mut Kernel, f: &mut Flags, id: LoopId, nodes: Vec<Node>) -> (Vec<Node>, bool) {
    let mut out = Vec::new();
    let mut rest = nodes.into_iter();
    while let Some(n) = rest.next() {
        let exits = match n {
            Node::Break(l) if l == id => {
                f.brk = true;
                let b = k.new_block();
                write_into(k, f.span, b, f.go, 0);
                write_into(k, f.span, b, f.skip, 1);
                out.push(Node::Block(b));
                true
            }
            Node::Continue(l) if l == id => {
                let b = write_const(k, f.span, f.skip, 1);
                out.push(Node::Block(b));
                true
            }
            Node::If {
                cond,
                then,
                els,
                span,
            } => {
                let (then, a) = flagged(k, f, id, then.0);
                let (els, b) = flagged(k, f, id, els.0);
                out.push(Node::If {
                    cond,
                    then: Region(then),
                    els: Region(els),
                    span,
                });
                a || b
            }
            other => {
                out.push(other);
                false
            }
        };
        if exits {
            let tail: Vec<Node> = rest.collect();
            if !tail.is_empty() {
                let (tail, _) = flagged(k, f, id, tail);
                let (tb, t) = read_flag(k, f, f.skip, true);
                out.push(Node::If {
                    cond: (tb, t),
                    then: Region(tail),
                    els: Region::default(),
                    span: f.span,
                });
            }
            return (out, true);
        }
    }
    (out, false)
}

/// A new block writing `value` to flag `v`.
pub(super) fn write_const(k: &mut Kernel, span: Span, v: VarId, value: u64) -> BlockId {
    let b = k.new_block();
    write_into(k, span, b, v, value);
    b
}

fn write_into(k: &mut Kernel, span: Span, b: BlockId, v: VarId, value: u64) {
    let blk = k.block_mut(b);
    let c = blk.add(OpKind::Const(vec![value]), Some(Ty::I(1)), span, &[]);
    blk.add(OpKind::WriteVar(v), None, span, &[c]);
}

/// A new block testing flag `v` (`negate`: that it is clear).
fn read_flag(k: &mut Kernel, f: &Flags, v: VarId, negate: bool) -> (BlockId, crate::ir::OpId) {
    let b = k.new_block();
    let blk = k.block_mut(b);
    let r = blk.add(OpKind::ReadVar(v), Some(Ty::I(1)), f.span, &[]);
    if !negate {
        return (b, r);
    }
    let one = blk.add(OpKind::Const(vec![1]), Some(Ty::I(1)), f.span, &[]);
    let t = blk.add(
        OpKind::Binary(BinOp::Xor),
        Some(Ty::I(1)),
        f.span,
        &[r, one],
    );
    (b, t)
}

#[cfg(test)]
mod tests {

    /// Collatz steps with a `break` and a `continue`: the loop loses both and is
    /// pipelined; a loop whose test reads memory keeps its `break`.
    #[test]
    fn a_loop_with_break_and_continue_is_pipelined_and_one_testing_memory_is_left_alone() {
        let src = "__kernel void k(__global const uint *in, __global int *out, int limit) {
            uint v = in[get_global_id(0)];
            int steps = 0;
            while (v != 1) {
                if (steps >= limit)
                    break;
                steps++;
                if ((v & 1) == 0) {
                    v >>= 1;
                    continue;
                }
                v = 3 * v + 1;
            }
            int j = 0;
            while (in[j] != 0) {
                if (j == limit)
                    break;
                j++;
            }
            out[get_global_id(0)] = steps + j;
        }";
        let out = crate::compile::compile_for_sim(src);
        let k = &out.group.kernel;
        let flagged: Vec<_> = k.vars.iter().filter(|v| v.name.ends_with(".go")).collect();
        assert_eq!(flagged.len(), 1, "{:?}", k.vars);
        let collatz = crate::analysis::loops::shapes(k)
            .into_iter()
            .find(|s| s.work_item_dim.is_none() && !s.early_exit && s.inner.is_empty())
            .expect("a loop without exits");
        assert!(
            out.plan.loops.contains_key(&collatz.id),
            "not pipelined: {:?}",
            out.plan.fallback
        );
        let left = out
            .plan
            .fallback
            .values()
            .any(|why| why.contains("leaves early"));
        assert!(left, "{:?}", out.plan.fallback);
    }
}
