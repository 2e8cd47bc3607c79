//! Do-while loops as while loops: `do B while (c)` runs as `first = 1; while (first || c)
//! { first = 0; B }`, so the exit test comes at the start of an iteration, where a
//! pipeline needs it (it reads the values the previous iteration left, as the source's
//! test did). The test then also runs once before the first iteration, its value unused:
//! only loops whose test block is harmless there (`exits::harmless_test`: no memory, no
//! division) and that hold no loop are rewritten; `exits` runs after and turns a
//! `continue` in them into a flag like any while loop's.

use super::exits::{harmless_test, placed, write_const};
use crate::ir::{BinOp, Kernel, LoopId, LoopKind, Node, OpKind, Region, Ty};

/// Rewrites every do-while loop of `k` it can; returns how many.
pub fn run(k: &mut Kernel) -> usize {
    let mut n = 0;
    for i in 0..k.loops.len() {
        let id = LoopId(i as u32);
        let l = k.lp(id);
        let (LoopKind::DoWhile, Some((cb, _))) = (l.kind, l.cond) else {
            continue;
        };
        let innermost = !holds_loop(&l.body) && !holds_loop(&l.latch);
        if placed(k, id) && innermost && harmless_test(k, cb) {
            rewrite(k, id);
            n += 1;
        }
    }
    n
}

fn holds_loop(r: &Region) -> bool {
    r.0.iter().any(|n| match n {
        Node::Loop(_) => true,
        Node::If { then, els, .. } => holds_loop(then) || holds_loop(els),
        _ => false,
    })
}

fn rewrite(k: &mut Kernel, id: LoopId) {
    let span = k.lp(id).span;
    let first = k.new_var(&format!("L{}.first", id.0), Ty::I(1), span);
    let pre = write_const(k, span, first, 1);
    k.insert_beside_loop(id, pre, false);
    let (cb, test) = k.lp(id).cond.expect("a do-while loop's test");
    let blk = k.block_mut(cb);
    let f = blk.add(OpKind::ReadVar(first), Some(Ty::I(1)), span, &[]);
    let either = blk.add(OpKind::Binary(BinOp::Or), Some(Ty::I(1)), span, &[f, test]);
    let start = write_const(k, span, first, 0);
    let l = &mut k.loops[id.0 as usize];
    l.cond = Some((cb, either));
    l.kind = LoopKind::While;
    l.body.0.insert(0, Node::Block(start));
}

#[cfg(test)]
mod tests {
    /// Whether the kernel's loop at `line` is pipelined on the `sim` board.
    fn pipelined_at(src: &str, line: u32) -> bool {
        let comp = crate::compile::compile_for_sim(src);
        let l = comp
            .loops
            .iter()
            .find(|l| l.location.contains(&format!(":{line}:")))
            .unwrap_or_else(|| panic!("no loop at line {line}"));
        l.pipelined
    }

    #[test]
    fn a_do_while_loop_with_a_plain_test_is_pipelined_and_one_dividing_in_its_test_is_not() {
        let src = "__kernel void k(__global const uint *in, __global uint *out) {
            uint i = 0, s = 0;
            do {
                s = s * 3u + in[i];
                i++;
            } while (i < 100u);
            uint j = 0;
            do {
                s ^= in[j];
                j++;
            } while (j < 100u / (s | 1u));
            out[0] = s;
        }";
        assert!(pipelined_at(src, 3));
        assert!(!pipelined_at(src, 8));
    }
}
