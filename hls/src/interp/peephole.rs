//! Rewrites a compiled program into fewer, larger instructions: every dispatch of the
//! instruction loop costs about as much as a simple op, so the IR's one-op-per-step
//! patterns (copy a variable into a temporary, extend, scale, add to a pointer) are
//! folded. Only a temporary read exactly once, by the adjacent instruction, is folded
//! away, and no folded instruction but the first may be a jump target, so every
//! remaining instruction sees the same values as before. Memory accesses, built-ins that
//! can fail and barriers are never removed, so every error is still reported, at the
//! same instruction's span.

use super::builtins::Func;
use super::inst::{Ext, Inst, Program, Slot};
use super::math;
use super::value::{Ek, Shape};
use crate::ir::{BinOp, Conv};

/// Calls `f(slot, words)` for every frame range `inst` reads (`&mut` so a caller can
/// redirect a read).
fn each_read(inst: &mut Inst, mut f: impl FnMut(&mut Slot, usize)) {
    match inst {
        Inst::Un { lanes, a, .. } | Inst::Conv { lanes, a, .. } => f(a, *lanes as usize),
        Inst::Bin { lanes, a, b, .. } => {
            f(a, *lanes as usize);
            f(b, *lanes as usize);
        }
        Inst::Cmp {
            ek, lanes, a, b, ..
        } => {
            // Pointer compares read the base word too.
            let n = if *ek == Ek::Ptr { 2 } else { *lanes as usize };
            f(a, n);
            f(b, n);
        }
        Inst::Select {
            words,
            c_lanes,
            c,
            a,
            b,
            ..
        } => {
            f(c, *c_lanes as usize);
            f(a, *words as usize);
            f(b, *words as usize);
        }
        Inst::Bitcast { from, a, .. } => f(a, from.words()),
        Inst::Move { src, n, .. } => f(src, *n as usize),
        Inst::Gather { srcs, .. } => srcs.iter_mut().for_each(|s| f(s, 1)),
        Inst::PtrAdd { p, off, .. } => {
            f(p, 2);
            f(off, 1);
        }
        Inst::IdxPtr { p, idx, .. } => {
            f(p, 2);
            f(idx, 1);
        }
        Inst::PtrDiff { a, b, .. } => {
            f(a, 2);
            f(b, 2);
        }
        Inst::Load { p, .. } => f(p, 2),
        Inst::LoadIdx { p, idx, .. } => {
            f(p, 2);
            f(idx, 1);
        }
        Inst::LoadIdx2 { p, i1, i2, .. } => {
            f(p, 2);
            f(i1, 1);
            f(i2, 1);
        }
        Inst::Store { p, v, shape } => {
            f(p, 2);
            f(v, shape.words());
        }
        Inst::Atomic { p, a, b, .. } => {
            f(p, 2);
            f(a, 1);
            f(b, 1);
        }
        Inst::WorkItem { dim, .. } => {
            if let Some(d) = dim {
                f(d, 1);
            }
        }
        Inst::Builtin(bi) => bi
            .args
            .iter_mut()
            .for_each(|x| f(&mut x.slot, x.sh.words())),
        Inst::Fma32 { a, b, c, .. } => {
            f(a, 1);
            f(b, 1);
            f(c, 1);
        }
        Inst::Branch { c, .. } => f(c, 1),
        Inst::CmpBranch { a, b, .. } => {
            f(a, 1);
            f(b, 1);
        }
        Inst::Barrier { .. }
        | Inst::Jump { .. }
        | Inst::Return
        | Inst::LoopEnter { .. }
        | Inst::LoopIter { .. }
        | Inst::LoopExit { .. } => {}
    }
}

/// The one-word destination of an instruction that only computes it (no memory, no
/// error, no control flow): such an instruction may write elsewhere or be dropped.
fn pure_dst(inst: &mut Inst) -> Option<&mut Slot> {
    match inst {
        Inst::Un { lanes: 1, dst, .. }
        | Inst::Bin { lanes: 1, dst, .. }
        | Inst::Conv { lanes: 1, dst, .. }
        | Inst::Move { n: 1, dst, .. }
        | Inst::Fma32 { dst, .. }
        | Inst::WorkItem { dst, .. } => Some(dst),
        Inst::Cmp {
            lanes: 1, ek, dst, ..
        } if *ek != Ek::Ptr => Some(dst),
        _ => None,
    }
}

/// Frame words written by a pure instruction (for dead-code removal).
fn pure_writes(inst: &Inst) -> Option<(Slot, usize)> {
    match inst {
        Inst::Un { dst, lanes, .. }
        | Inst::Bin { dst, lanes, .. }
        | Inst::Cmp { dst, lanes, .. }
        | Inst::Conv { dst, lanes, .. } => Some((*dst, *lanes as usize)),
        Inst::Select { dst, words, .. } => Some((*dst, *words as usize)),
        Inst::Bitcast { dst, to, .. } => Some((*dst, to.words())),
        Inst::Move { dst, n, .. } => Some((*dst, *n as usize)),
        Inst::Gather { dst, srcs } => Some((*dst, srcs.len())),
        Inst::PtrAdd { dst, .. } | Inst::IdxPtr { dst, .. } => Some((*dst, 2)),
        Inst::Fma32 { dst, .. } | Inst::WorkItem { dst, .. } => Some((*dst, 1)),
        _ => None,
    }
}

fn written_slots(inst: &Inst) -> Option<(Slot, usize)> {
    match inst {
        Inst::Load { dst, shape, .. }
        | Inst::LoadIdx { dst, shape, .. }
        | Inst::LoadIdx2 { dst, shape, .. } => Some((*dst, shape.words())),
        Inst::Atomic { dst, .. } => Some((*dst, 1)),
        Inst::Builtin(b) => b.ret.map(|r| (b.dst, r.words())),
        i => pure_writes(i),
    }
}

struct Facts {
    /// How often each frame word is read.
    reads: Vec<u32>,
    /// Whether each frame word is written by some instruction.
    written: Vec<bool>,
    /// Whether each instruction is a jump target.
    target: Vec<bool>,
}

fn facts(insts: &mut [Inst], words: usize) -> Facts {
    let mut reads = vec![0u32; words];
    let mut written = vec![false; words];
    let mut target = vec![false; insts.len() + 1];
    for i in insts.iter_mut() {
        each_read(i, |s: &mut Slot, n: usize| {
            for w in (*s as usize..*s as usize + n).filter(|&w| w < words) {
                reads[w] += 1;
            }
        });
        if let Some((s, n)) = written_slots(i) {
            for w in (s as usize..s as usize + n).filter(|&w| w < words) {
                written[w] = true;
            }
        }
        if let Inst::Jump { to } | Inst::Branch { to, .. } | Inst::CmpBranch { to, .. } = i {
            if let Some(t) = target.get_mut(*to as usize) {
                *t = true;
            }
        }
    }
    Facts {
        reads,
        written,
        target,
    }
}

/// Drops the instructions marked in `gone`, retargeting jumps (a jump to a dropped
/// instruction goes to the next kept one, which is where the dropped one would lead).
fn compact(p: &mut Program, gone: &[bool]) {
    let mut new_index = Vec::with_capacity(p.insts.len() + 1);
    let mut n = 0u32;
    for g in gone {
        new_index.push(n);
        n += u32::from(!g);
    }
    new_index.push(n);
    let insts = std::mem::take(&mut p.insts);
    let spans = std::mem::take(&mut p.spans);
    for ((mut i, s), g) in insts.into_iter().zip(spans).zip(gone) {
        if *g {
            continue;
        }
        if let Inst::Jump { to } | Inst::Branch { to, .. } | Inst::CmpBranch { to, .. } = &mut i {
            *to = new_index.get(*to as usize).copied().unwrap_or(n);
        }
        p.insts.push(i);
        p.spans.push(s);
    }
}

/// The word of a slot no instruction writes (a constant or parameter value).
fn constant(p: &Program, f: &Facts, s: Slot) -> Option<u64> {
    let s = s as usize;
    (s >= p.var_words && !f.written.get(s).copied().unwrap_or(true))
        .then(|| p.frame.get(s).copied())
        .flatten()
}

/// Whether `s` is a one-word temporary read only once.
fn once(p: &Program, f: &Facts, s: Slot) -> bool {
    s as usize >= p.var_words && f.reads.get(s as usize) == Some(&1)
}

/// Reads of a temporary that a `Move` just filled from another slot read that slot.
fn forward_moves(p: &mut Program) {
    let f = facts(&mut p.insts, p.frame.len());
    let mut gone = vec![false; p.insts.len()];
    // Indexing: each step reads one instruction and rewrites the next.
    #[allow(clippy::needless_range_loop)]
    for i in 0..p.insts.len().saturating_sub(1) {
        let Inst::Move { dst, src, n: 1 } = p.insts[i] else {
            continue;
        };
        if !once(p, &f, dst) || f.target[i + 1] || src == dst {
            continue;
        }
        let mut hit = false;
        each_read(&mut p.insts[i + 1], |s, n| {
            if n == 1 && *s == dst {
                *s = src;
                hit = true;
            }
        });
        gone[i] = hit;
    }
    compact(p, &gone);
}

/// An instruction whose result is only copied by the next `Move` writes it directly.
fn forward_dsts(p: &mut Program) {
    let f = facts(&mut p.insts, p.frame.len());
    let mut gone = vec![false; p.insts.len()];
    let mut i = 0;
    while i + 1 < p.insts.len() {
        let Inst::Move { dst: to, src, n: 1 } = p.insts[i + 1] else {
            i += 1;
            continue;
        };
        if !once(p, &f, src) || f.target[i + 1] {
            i += 1;
            continue;
        }
        if let Some(d) = pure_dst(&mut p.insts[i]).filter(|d| **d == src) {
            *d = to;
            gone[i + 1] = true;
            i += 2;
        } else {
            i += 1;
        }
    }
    compact(p, &gone);
}

/// Drops pure instructions whose temporaries nobody reads.
fn drop_dead(p: &mut Program) {
    let f = facts(&mut p.insts, p.frame.len());
    let gone: Vec<bool> = p
        .insts
        .iter()
        .map(|i| {
            pure_writes(i).is_some_and(|(s, n)| {
                s as usize >= p.var_words
                    && (s as usize..s as usize + n).all(|w| f.reads.get(w) == Some(&0))
            })
        })
        .collect();
    compact(p, &gone);
}

/// `conv(idx)` from 32 to 64 bits (no saturation) as an `Ext`.
fn ext_of(inst: &Inst) -> Option<(Slot, Slot, Ext)> {
    match inst {
        Inst::Conv {
            conv:
                Conv::Int {
                    from_signed,
                    sat: false,
                    ..
                },
            from: Ek::I(32),
            to: Ek::I(64),
            lanes: 1,
            dst,
            a,
        } => Some((
            *dst,
            *a,
            if *from_signed {
                Ext::Sext32
            } else {
                Ext::Zext32
            },
        )),
        _ => None,
    }
}

/// `ptradd(p, mul(ext(idx), const))` and `ptradd(p, mul(idx, const))` as one `IdxPtr`;
/// a compare feeding only the next branch as one `CmpBranch`; scalar float `fma` as
/// `Fma32`.
fn fuse(p: &mut Program) {
    let f = facts(&mut p.insts, p.frame.len());
    let mut gone = vec![false; p.insts.len()];
    let mut i = 0;
    while i < p.insts.len() {
        // Index scaling: [conv] mul ptradd.
        let (start, idx, ext) = match ext_of(&p.insts[i]) {
            Some((t, a, e)) if !f.target[i + 1] && once(p, &f, t) => (i + 1, (t, a), e),
            _ => (i, (Slot::MAX, Slot::MAX), Ext::None),
        };
        if let (
            Some(Inst::Bin {
                op: BinOp::Mul,
                ek: Ek::I(64),
                lanes: 1,
                dst: m,
                a,
                b,
            }),
            Some(Inst::PtrAdd { dst, p: base, off }),
        ) = (p.insts.get(start), p.insts.get(start + 1))
        {
            let (m, a, b, dst, base, off) = (*m, *a, *b, *dst, *base, *off);
            let scale = constant(p, &f, b).and_then(|k| u32::try_from(k).ok());
            let ext_ok = ext == Ext::None || a == idx.0;
            if let (Some(scale), true, true, true, false) = (
                scale,
                ext_ok,
                off == m && once(p, &f, m),
                base != m,
                f.target[start + 1] || (start > i && f.target[start]),
            ) {
                let idx = if ext == Ext::None { a } else { idx.1 };
                p.insts[i] = Inst::IdxPtr {
                    dst,
                    p: base,
                    idx,
                    scale,
                    ext,
                };
                for g in &mut gone[i + 1..=start + 1] {
                    *g = true;
                }
                i = start + 2;
                continue;
            }
        }
        match (&p.insts[i], p.insts.get(i + 1)) {
            (
                Inst::Cmp {
                    op,
                    ek,
                    lanes: 1,
                    dst,
                    a,
                    b,
                },
                Some(Inst::Branch { c, when, to }),
            ) if *ek != Ek::Ptr && c == dst && once(p, &f, *dst) && !f.target[i + 1] => {
                p.insts[i] = Inst::CmpBranch {
                    op: *op,
                    ek: *ek,
                    a: *a,
                    b: *b,
                    when: *when,
                    to: *to,
                };
                gone[i + 1] = true;
                i += 2;
                continue;
            }
            (Inst::Builtin(bi), _) => {
                let f32s = Shape {
                    ek: Ek::F32,
                    lanes: 1,
                };
                if matches!(bi.f, Func::Math(math::F::Fma))
                    && bi.ret == Some(f32s)
                    && bi.out.is_none()
                    && bi.args.len() == 3
                    && bi.args.iter().all(|x| x.sh == f32s)
                {
                    p.insts[i] = Inst::Fma32 {
                        dst: bi.dst,
                        a: bi.args[0].slot,
                        b: bi.args[1].slot,
                        c: bi.args[2].slot,
                    };
                }
            }
            _ => {}
        }
        i += 1;
    }
    compact(p, &gone);
}

/// A load through an `IdxPtr`'s pointer, which nothing else reads, computes the address
/// itself; the fused instruction takes the load's span, since only the load can fail.
fn fuse_loads(p: &mut Program) {
    let f = facts(&mut p.insts, p.frame.len());
    let mut gone = vec![false; p.insts.len()];
    let mut i = 0;
    while i + 1 < p.insts.len() {
        if let (
            Inst::IdxPtr {
                dst: t,
                p: base,
                idx,
                scale,
                ext,
            },
            Inst::Load { dst, p: lp, shape },
        ) = (&p.insts[i], &p.insts[i + 1])
        {
            let two_once = once(p, &f, *t) && once(p, &f, *t + 1);
            if *lp == *t && two_once && !f.target[i + 1] {
                // A preceding IdxPtr making this one's pointer folds in too.
                if let Some(&Inst::IdxPtr {
                    dst: t0,
                    p: p0,
                    idx: i0,
                    scale: s0,
                    ext: e0,
                }) = i.checked_sub(1).map(|j| &p.insts[j])
                {
                    let ok = t0 == *base && once(p, &f, t0) && once(p, &f, t0 + 1);
                    if ok && !f.target[i] && !gone[i - 1] {
                        p.insts[i - 1] = Inst::LoadIdx2 {
                            dst: *dst,
                            p: p0,
                            i1: i0,
                            i2: *idx,
                            s1: s0,
                            s2: *scale,
                            e1: e0,
                            e2: *ext,
                            shape: *shape,
                        };
                        p.spans[i - 1] = p.spans[i + 1];
                        gone[i] = true;
                        gone[i + 1] = true;
                        i += 2;
                        continue;
                    }
                }
                p.insts[i] = Inst::LoadIdx {
                    dst: *dst,
                    p: *base,
                    idx: *idx,
                    scale: *scale,
                    ext: *ext,
                    shape: *shape,
                };
                p.spans[i] = p.spans[i + 1];
                gone[i + 1] = true;
                i += 2;
                continue;
            }
        }
        i += 1;
    }
    compact(p, &gone);
}

/// A loop's back jump to its head test, when the test's exit is just after the jump,
/// becomes the test itself (inverted, continuing at the body): one dispatch less per
/// iteration. No instruction is removed, so no jump moves.
fn rotate_loops(p: &mut Program) {
    for i in 0..p.insts.len() {
        let Inst::Jump { to: h } = p.insts[i] else {
            continue;
        };
        if let Some(&Inst::CmpBranch {
            op,
            ek,
            a,
            b,
            when,
            to,
        }) = p.insts.get(h as usize)
        {
            if to as usize == i + 1 && (h as usize) < i {
                p.insts[i] = Inst::CmpBranch {
                    op,
                    ek,
                    a,
                    b,
                    when: !when,
                    to: h + 1,
                };
                // The test's span: it is the loop's, like the jump's.
                p.spans[i] = p.spans[h as usize];
            }
        }
    }
}

/// Runs every rewrite; the order matters: forwarding first exposes the adjacent
/// patterns that fusion folds, and fusion may leave dead values behind.
pub fn optimize(p: &mut Program) {
    forward_moves(p);
    drop_dead(p);
    fuse(p);
    fuse_loads(p);
    forward_dsts(p);
    drop_dead(p);
    rotate_loops(p);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::ir::CmpOp;

    fn at(lo: u32) -> Span {
        Span {
            lo,
            ..Span::default()
        }
    }

    /// `for (;;) x = p[i]` as the compiler emits it: the loop test, then
    /// move/conv/mul/ptradd/load, then the back jump. Frame: 0 = i (variable), 1 = x
    /// (variable), 2..4 = p, 4 = the constant 4, 5 = n, then temporaries.
    fn indexing_loop() -> Program {
        let insts = vec![
            Inst::Cmp {
                op: CmpOp::SLt,
                ek: Ek::I(32),
                lanes: 1,
                dst: 6,
                a: 0,
                b: 5,
            },
            Inst::Branch {
                c: 6,
                when: false,
                to: 8,
            },
            Inst::Move {
                dst: 7,
                src: 0,
                n: 1,
            },
            Inst::Conv {
                conv: Conv::Int {
                    from_signed: true,
                    to_signed: true,
                    sat: false,
                },
                from: Ek::I(32),
                to: Ek::I(64),
                lanes: 1,
                dst: 8,
                a: 7,
            },
            Inst::Bin {
                op: BinOp::Mul,
                ek: Ek::I(64),
                lanes: 1,
                dst: 9,
                a: 8,
                b: 4,
            },
            Inst::PtrAdd {
                dst: 10,
                p: 2,
                off: 9,
            },
            Inst::Load {
                dst: 1,
                p: 10,
                shape: Shape {
                    ek: Ek::F32,
                    lanes: 1,
                },
            },
            Inst::Jump { to: 0 },
            Inst::Return,
        ];
        let spans = (0..insts.len() as u32).map(at).collect();
        let mut frame = vec![0u64; 12];
        frame[4] = 4;
        Program {
            insts,
            spans,
            frame,
            var_words: 2,
            barrier_spans: Vec::new(),
        }
    }

    #[test]
    fn indexing_folds_into_one_load_and_jumps_follow() {
        let mut p = indexing_loop();
        optimize(&mut p);
        let kinds: Vec<String> = p
            .insts
            .iter()
            .map(|i| {
                format!("{i:?}")
                    .split([' ', '{'])
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
        assert_eq!(kinds, ["CmpBranch", "LoadIdx", "CmpBranch", "Return"]);
        // The exit test jumps to the (moved) return; the rotated back test to the body.
        assert!(matches!(
            p.insts[0],
            Inst::CmpBranch {
                to: 3,
                when: false,
                ..
            }
        ));
        assert!(matches!(
            p.insts[2],
            Inst::CmpBranch {
                to: 1,
                when: true,
                ..
            }
        ));
        assert!(matches!(
            p.insts[1],
            Inst::LoadIdx {
                dst: 1,
                p: 2,
                idx: 0,
                scale: 4,
                ext: Ext::Sext32,
                ..
            }
        ));
        // A load error points at the load, not at the folded index arithmetic.
        assert_eq!(p.spans[1], at(6));
        assert_eq!(p.spans.len(), p.insts.len());
    }

    #[test]
    fn a_jump_target_inside_a_pattern_keeps_what_it_needs() {
        let mut p = indexing_loop();
        // Something jumps to the mul: the conv before it must stay, and the fold may
        // only start at the mul (reading the conv's result, already 64 bits).
        p.insts.insert(0, Inst::Jump { to: 5 });
        p.spans.insert(0, at(99));
        for i in &mut p.insts[1..] {
            if let Inst::Jump { to } | Inst::Branch { to, .. } = i {
                *to += 1;
            }
        }
        optimize(&mut p);
        let Inst::Jump { to } = p.insts[0] else {
            panic!("the first jump stays: {:?}", p.insts);
        };
        assert!(matches!(
            p.insts[to as usize - 1],
            Inst::Conv { dst: 8, .. }
        ));
        assert!(matches!(
            p.insts[to as usize],
            Inst::LoadIdx {
                idx: 8,
                ext: Ext::None,
                ..
            }
        ));
    }
}
