//! The compiled form of a kernel: one linear list of instructions over frame word offsets
//! ("slots"), with control flow as jumps, so a work-item is just a program counter and a
//! frame and can be stopped at a barrier and resumed.

use super::builtins::BuiltinInst;
use super::value::{Ek, Shape};
use crate::diag::Span;
use crate::ir::{AtomicOp, BinOp, CmpOp, Conv, LoopId, UnOp, WorkItemFn};

/// A word offset into a work-item's frame.
pub type Slot = u32;

#[derive(Clone, Debug)]
pub enum Inst {
    Un {
        op: UnOp,
        ek: Ek,
        lanes: u8,
        dst: Slot,
        a: Slot,
    },
    Bin {
        op: BinOp,
        ek: Ek,
        lanes: u8,
        dst: Slot,
        a: Slot,
        b: Slot,
    },
    Cmp {
        op: CmpOp,
        ek: Ek,
        lanes: u8,
        dst: Slot,
        a: Slot,
        b: Slot,
    },
    /// `c` has one lane (`c_lanes == 1`, broadcast) or one per value lane; `words` is the
    /// value's frame width.
    Select {
        words: u8,
        c_lanes: u8,
        dst: Slot,
        c: Slot,
        a: Slot,
        b: Slot,
    },
    Conv {
        conv: Conv,
        from: Ek,
        to: Ek,
        lanes: u8,
        dst: Slot,
        a: Slot,
    },
    Bitcast {
        from: Shape,
        to: Shape,
        dst: Slot,
        a: Slot,
    },
    /// Copies `n` words (variable reads and writes, extract of a lane).
    Move {
        dst: Slot,
        src: Slot,
        n: u8,
    },
    /// Result lane `i` is the word at `srcs[i]` (shuffle, build, splat, insert).
    Gather {
        dst: Slot,
        srcs: Box<[Slot]>,
    },
    PtrAdd {
        dst: Slot,
        p: Slot,
        off: Slot,
    },
    /// `p` plus `ext(f[idx]) * scale` (the base word copied): array indexing
    /// `ptradd(p, mul(conv(idx), const))` in one dispatch (made by `peephole.rs`).
    IdxPtr {
        dst: Slot,
        p: Slot,
        idx: Slot,
        scale: u32,
        ext: Ext,
    },
    /// `Load` through the pointer an `IdxPtr` would make (the `IdxPtr`'s result read by
    /// nothing else); errors point at the load.
    LoadIdx {
        dst: Slot,
        p: Slot,
        idx: Slot,
        scale: u32,
        ext: Ext,
        shape: Shape,
    },
    /// `LoadIdx` whose pointer is itself an `IdxPtr` nothing else reads (a 2-D array
    /// element: `p + ext(i1) * s1 + ext(i2) * s2`).
    LoadIdx2 {
        dst: Slot,
        p: Slot,
        i1: Slot,
        i2: Slot,
        s1: u32,
        s2: u32,
        e1: Ext,
        e2: Ext,
        shape: Shape,
    },
    PtrDiff {
        dst: Slot,
        a: Slot,
        b: Slot,
    },
    Load {
        dst: Slot,
        p: Slot,
        shape: Shape,
    },
    Store {
        p: Slot,
        v: Slot,
        shape: Shape,
    },
    Atomic {
        op: AtomicOp,
        ek: Ek,
        dst: Slot,
        p: Slot,
        a: Slot,
        b: Slot,
    },
    /// Every work-item of the group waits here; `id` tells barriers apart.
    Barrier {
        id: u32,
    },
    WorkItem {
        f: WorkItemFn,
        bits: u8,
        dst: Slot,
        dim: Option<Slot>,
    },
    Builtin(Box<BuiltinInst>),
    Jump {
        to: u32,
    },
    /// Jumps when the `i1` at `c` equals `when`.
    Branch {
        c: Slot,
        when: bool,
        to: u32,
    },
    /// A one-lane, non-pointer `Cmp` whose result only this jump reads.
    CmpBranch {
        op: CmpOp,
        ek: Ek,
        a: Slot,
        b: Slot,
        when: bool,
        to: u32,
    },
    /// `fma` of scalar floats (the inner product of the tiled kernels), without the
    /// built-in call's argument walking.
    Fma32 {
        dst: Slot,
        a: Slot,
        b: Slot,
        c: Slot,
    },
    Return,
    /// ivdep bookkeeping (emitted only when hints are checked).
    LoopEnter {
        l: LoopId,
    },
    LoopIter {
        l: LoopId,
    },
    LoopExit {
        l: LoopId,
    },
}

/// How `IdxPtr` widens its 32-bit or 64-bit index to 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ext {
    /// The index is already 64 bits.
    None,
    Sext32,
    Zext32,
}

/// A compiled kernel for one launch.
#[derive(Clone, Debug)]
pub struct Program {
    pub insts: Vec<Inst>,
    /// The source span of each instruction (errors point at it).
    pub spans: Vec<Span>,
    /// A fresh frame: constants, parameter values and object addresses filled in.
    pub frame: Vec<u64>,
    /// Words `0..var_words` hold variables; reset from `frame` for every work-item.
    pub var_words: usize,
    /// The span of each barrier by id.
    pub barrier_spans: Vec<Span>,
}
