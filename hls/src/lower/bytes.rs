//! Byte-level memory work the lowering generates itself: struct copies and zero fills,
//! unrolled into wide chunks when short and run as a loop over 8-byte words when long.

use crate::diag::Span;
use crate::frontend::sema::LoopHints;
use crate::frontend::types::AddrSpace;
use crate::ir::{BinOp, CmpOp, LoopKind, Node, OpKind, Ty};

use super::types::align_after;
use super::{Lowerer, Val, R};

/// Copies and fills up to this many bytes are unrolled.
const UNROLL_LIMIT: u64 = 128;

impl Lowerer<'_> {
    /// Copies `size` bytes from `src` to `dst` (a struct assignment or argument copy).
    pub fn copy_bytes(
        &mut self,
        dst: &Val,
        dst_space: AddrSpace,
        src: &Val,
        size: u64,
        align: u64,
        span: Span,
    ) -> R<()> {
        let Ty::Ptr(src_space) = src.ty else {
            return self.fail(span, "internal error: copy from a non-pointer");
        };
        let bulk = if size > UNROLL_LIMIT { size / 8 * 8 } else { 0 };
        let word = align.min(8) as u32;
        if bulk > 0 {
            self.counted_loop(bulk, 8, span, &mut |l, off| {
                let s = l.op(OpKind::PtrAdd, src.ty.clone(), span, &[src, off]);
                let load = OpKind::Load {
                    space: src_space,
                    base: None,
                    align: word,
                };
                let v = l.op(load, Ty::I(64), span, &[&s]);
                let d = l.op(OpKind::PtrAdd, dst.ty.clone(), span, &[dst, off]);
                l.effect(
                    OpKind::Store {
                        space: dst_space,
                        base: None,
                        align: word,
                    },
                    span,
                    &[&d, &v],
                );
                Ok(())
            })?;
        }
        for (off, n) in chunks(bulk, size) {
            let a = align_after(align, off).min(n) as u32;
            let s = self.ptr_add_const(src, off as i64, span);
            let v = self.op(
                OpKind::Load {
                    space: src_space,
                    base: None,
                    align: a,
                },
                Ty::I(8 * n as u8),
                span,
                &[&s],
            );
            let d = self.ptr_add_const(dst, off as i64, span);
            self.effect(
                OpKind::Store {
                    space: dst_space,
                    base: None,
                    align: a,
                },
                span,
                &[&d, &v],
            );
        }
        Ok(())
    }

    /// Writes zeros to bytes `start..start + len` past `ptr` (aligned to `align`).
    pub fn zero_fill(
        &mut self,
        ptr: &Val,
        space: AddrSpace,
        start: u64,
        len: u64,
        align: u64,
        span: Span,
    ) -> R<()> {
        let base = self.ptr_add_const(ptr, start as i64, span);
        let align = align_after(align, start);
        let bulk = if len > UNROLL_LIMIT { len / 8 * 8 } else { 0 };
        if bulk > 0 {
            let word = align.min(8) as u32;
            self.counted_loop(bulk, 8, span, &mut |l, off| {
                let d = l.op(OpKind::PtrAdd, base.ty.clone(), span, &[&base, off]);
                let z = l.konst(Ty::I(64), 0, span);
                l.effect(
                    OpKind::Store {
                        space,
                        base: None,
                        align: word,
                    },
                    span,
                    &[&d, &z],
                );
                Ok(())
            })?;
        }
        for (off, n) in chunks(bulk, len) {
            let d = self.ptr_add_const(&base, off as i64, span);
            let z = self.konst(Ty::I(8 * n as u8), 0, span);
            let a = align_after(align, off).min(n) as u32;
            self.effect(
                OpKind::Store {
                    space,
                    base: None,
                    align: a,
                },
                span,
                &[&d, &z],
            );
        }
        Ok(())
    }

    /// `for (off = 0; off < total; off += step) body(off)` with `off` an i64.
    pub fn counted_loop(
        &mut self,
        total: u64,
        step: u64,
        span: Span,
        body: &mut dyn FnMut(&mut Self, &Val) -> R<()>,
    ) -> R<()> {
        let i = self.k.new_var("off", Ty::I(64), span);
        let zero = self.konst(Ty::I(64), 0, span);
        self.write_var(i, &zero, span);
        let lid = self.new_loop(LoopKind::While, LoopHints::default(), span);
        let cb = self.start_detached();
        let iv = self.read_var(i, span);
        let lim = self.konst(Ty::I(64), total, span);
        let c = self.op(OpKind::Cmp(CmpOp::ULt), Ty::I(1), span, &[&iv, &lim]);
        self.end_detached();
        self.open_region();
        let off = self.read_var(i, span);
        body(self, &off)?;
        let b = self.close_region();
        self.open_region();
        let iv = self.read_var(i, span);
        let st = self.konst(Ty::I(64), step, span);
        let next = self.op(OpKind::Binary(BinOp::Add), Ty::I(64), span, &[&iv, &st]);
        self.write_var(i, &next, span);
        let latch = self.close_region();
        let l = self.loop_mut(lid);
        l.cond = Some((cb, c.op));
        l.body = b;
        l.latch = latch;
        self.push_node(Node::Loop(lid));
        Ok(())
    }
}

/// Byte ranges `(offset, size)` covering `start..end` in chunks of 8, 4, 2 and 1 bytes.
fn chunks(start: u64, end: u64) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut off = start;
    while off < end {
        let left = end - off;
        let n = [8, 4, 2, 1].into_iter().find(|n| *n <= left).unwrap_or(1);
        out.push((off, n));
        off += n;
    }
    out
}
