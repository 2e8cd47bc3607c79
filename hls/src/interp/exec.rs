//! The instruction loop: runs one work-item from its program counter until it ends or
//! reaches a barrier (leaving the counter after the barrier so it can be resumed).

use super::builtins;
use super::eval;
use super::float_fns::fma_f32;
use super::hints::IvdepState;
use super::inst::{Ext, Inst, Program};
use super::memory::{access_size, LaneBuf, MemRegion, Spaces, UNWRITTEN};
use super::value::{base_of_word, float_of, mask, sext, Ek, Shape, MAX_LANES};
use super::InterpError;
use crate::diag::Span;
use crate::ir::{AtomicOp, WorkItemFn};
use std::collections::HashSet;

/// One work-item's state.
pub struct WorkItem {
    pub frame: Vec<u64>,
    pub private: Vec<MemRegion>,
    pub pc: u32,
    pub gid: [u64; 3],
    pub lid: [u64; 3],
    pub grp: [u64; 3],
    /// ivdep bookkeeping of this work-item (only when hints are checked).
    pub hints: Option<IvdepState>,
}

/// What the whole launch shares.
pub struct Env<'p> {
    pub prog: &'p Program,
    pub work_dim: u32,
    pub global: [u64; 3],
    pub local: [u64; 3],
    pub is_private: &'p [bool],
    pub params: Vec<MemRegion>,
    pub objects: Vec<MemRegion>,
    pub steps: u64,
    pub max_steps: u64,
    /// Reads of never-written private bytes are errors (`--strict`), not warnings.
    pub strict: bool,
    /// Warnings so far (one per source location), and the locations already warned.
    pub warnings: Vec<InterpError>,
    pub warned: HashSet<Option<Span>>,
}

pub enum Stop {
    Done,
    Barrier(u32),
}

/// The offset an `IdxPtr` adds: the index widened to 64 bits times the scale, wrapping
/// like the `mul` and `ptradd` it replaces.
#[inline(always)]
fn scaled(f: &[u64], idx: u32, scale: u32, ext: Ext) -> u64 {
    let i = f[idx as usize];
    let i = match ext {
        Ext::None => i,
        Ext::Sext32 => sext(i, 32) as u64,
        Ext::Zext32 => i & 0xFFFF_FFFF,
    };
    i.wrapping_mul(scale as u64)
}

fn dim_value(f: WorkItemFn, d: usize, env: &Env, wi: &WorkItem) -> u64 {
    let (g, l) = (env.global, env.local);
    if d >= 3 {
        return match f {
            WorkItemFn::GlobalSize
            | WorkItemFn::LocalSize
            | WorkItemFn::EnqueuedLocalSize
            | WorkItemFn::NumGroups => 1,
            _ => 0,
        };
    }
    match f {
        WorkItemFn::WorkDim => env.work_dim as u64,
        WorkItemFn::GlobalSize => g[d],
        WorkItemFn::GlobalId => wi.gid[d],
        WorkItemFn::LocalSize | WorkItemFn::EnqueuedLocalSize => l[d],
        WorkItemFn::LocalId => wi.lid[d],
        WorkItemFn::NumGroups => g[d] / l[d],
        WorkItemFn::GroupId => wi.grp[d],
        WorkItemFn::GlobalOffset => 0,
        WorkItemFn::GlobalLinearId => wi.gid[0] + wi.gid[1] * g[0] + wi.gid[2] * g[0] * g[1],
        WorkItemFn::LocalLinearId => wi.lid[0] + wi.lid[1] * l[0] + wi.lid[2] * l[0] * l[1],
    }
}

impl Env<'_> {
    fn err(&self, pc: usize, message: String) -> InterpError {
        InterpError {
            message,
            span: self.prog.spans.get(pc).copied(),
            notes: Vec::new(),
        }
    }

    /// A load that failed: a read of never-written `__private` bytes is, unless strict,
    /// a warning (the first at each source location) and reads those bytes as zero (C
    /// makes the value indeterminate, and a value that never reaches an output is common
    /// in FPGA code: shift registers that fill up, structs copied with unset fields).
    #[cold]
    fn unwritten_read(
        &mut self,
        pc: usize,
        message: String,
        private: &mut [MemRegion],
        (off, base): (u64, u64),
        shape: Shape,
        out: &mut [u64],
    ) -> Result<(), InterpError> {
        let is_private = matches!(base_of_word(base), Some(crate::ir::Base::Object(o))
            if self.is_private.get(o.0 as usize).copied().unwrap_or(false));
        if self.strict || !is_private || !message.starts_with(UNWRITTEN) {
            return Err(self.err(pc, message));
        }
        let w = self.err(
            pc,
            format!(
                "{message}: the value is indeterminate; the run goes on reading zero bytes \
                 (outputs that depend on it may differ between engines; --strict makes this \
                 an error)"
            ),
        );
        if self.warned.insert(w.span) {
            self.warnings.push(w);
        }
        let mut sp = self.spaces(private);
        sp.load_unchecked(off, base, shape, out)
            .map_err(|m| self.err(pc, m))
    }

    fn track(
        &self,
        hints: &mut Option<IvdepState>,
        pc: usize,
        base: u64,
        off: u64,
        size: usize,
        write: bool,
    ) -> Result<(), InterpError> {
        if let Some(h) = hints {
            if h.is_active() {
                return h.access(base, off, size, write).map_err(|b| InterpError {
                    message: b.message,
                    span: Some(b.span),
                    notes: vec![(self.prog.spans.get(pc).copied(), "the access".to_string())],
                });
            }
        }
        Ok(())
    }

    /// Runs `wi` until it ends or stops at a barrier.
    pub fn run(&mut self, wi: &mut WorkItem) -> Result<Stop, InterpError> {
        let prog = self.prog;
        let mut pc = wi.pc as usize;
        let mut res: LaneBuf = [0; MAX_LANES];
        let mut side: LaneBuf = [0; MAX_LANES];
        loop {
            let at = pc;
            let Some(inst) = prog.insts.get(pc) else {
                return Err(self.err(
                    at.saturating_sub(1),
                    "ran past the end of the kernel".into(),
                ));
            };
            pc += 1;
            self.steps += 1;
            let f = &mut wi.frame;
            match inst {
                Inst::Un {
                    op,
                    ek,
                    lanes,
                    dst,
                    a,
                } => {
                    for l in 0..*lanes as usize {
                        f[*dst as usize + l] = eval::unary(*op, *ek, f[*a as usize + l]);
                    }
                }
                Inst::Bin {
                    op,
                    ek,
                    lanes,
                    dst,
                    a,
                    b,
                } => {
                    for l in 0..*lanes as usize {
                        f[*dst as usize + l] =
                            eval::binary(*op, *ek, f[*a as usize + l], f[*b as usize + l]);
                    }
                }
                Inst::Cmp {
                    op,
                    ek,
                    lanes,
                    dst,
                    a,
                    b,
                } => {
                    if *ek == Ek::Ptr {
                        let (x, y) = (f[*a as usize], f[*b as usize]);
                        let same = f[*a as usize + 1] == f[*b as usize + 1];
                        let r = match op {
                            crate::ir::CmpOp::Eq => same && x == y,
                            crate::ir::CmpOp::Ne => !(same && x == y),
                            o => eval::compare(*o, Ek::I(64), x, y),
                        };
                        f[*dst as usize] = r as u64;
                    } else {
                        for l in 0..*lanes as usize {
                            f[*dst as usize + l] =
                                eval::compare(*op, *ek, f[*a as usize + l], f[*b as usize + l])
                                    as u64;
                        }
                    }
                }
                Inst::Select {
                    words,
                    c_lanes,
                    dst,
                    c,
                    a,
                    b,
                } => {
                    for l in 0..*words as usize {
                        let cl = if *c_lanes == 1 { 0 } else { l };
                        let src = if f[*c as usize + cl] & 1 == 1 { *a } else { *b };
                        f[*dst as usize + l] = f[src as usize + l];
                    }
                }
                Inst::Conv {
                    conv,
                    from,
                    to,
                    lanes,
                    dst,
                    a,
                } => {
                    for l in 0..*lanes as usize {
                        f[*dst as usize + l] = eval::conv(*conv, *from, *to, f[*a as usize + l]);
                    }
                    if *to == Ek::F16 && *lanes > 1 {
                        eval::vector_half_nans(
                            &mut f[*dst as usize..*dst as usize + *lanes as usize],
                        );
                    }
                }
                Inst::Bitcast { from, to, dst, a } => {
                    let n = from.words();
                    res[..n].copy_from_slice(&f[*a as usize..*a as usize + n]);
                    let m = to.words();
                    eval::bitcast(
                        *from,
                        *to,
                        &res[..n],
                        &mut f[*dst as usize..*dst as usize + m],
                    );
                }
                Inst::Move { dst, src, n } => {
                    let (d, s, n) = (*dst as usize, *src as usize, *n as usize);
                    // Most moves are one word; `copy_within` would call memmove.
                    if n == 1 {
                        f[d] = f[s];
                    } else {
                        f.copy_within(s..s + n, d);
                    }
                }
                Inst::Gather { dst, srcs } => {
                    for (i, s) in srcs.iter().enumerate() {
                        res[i] = f[*s as usize];
                    }
                    f[*dst as usize..*dst as usize + srcs.len()]
                        .copy_from_slice(&res[..srcs.len()]);
                }
                Inst::PtrAdd { dst, p, off } => {
                    f[*dst as usize] = f[*p as usize].wrapping_add(f[*off as usize]);
                    f[*dst as usize + 1] = f[*p as usize + 1];
                }
                Inst::IdxPtr {
                    dst,
                    p,
                    idx,
                    scale,
                    ext,
                } => {
                    f[*dst as usize] = f[*p as usize].wrapping_add(scaled(f, *idx, *scale, *ext));
                    f[*dst as usize + 1] = f[*p as usize + 1];
                }
                Inst::LoadIdx {
                    dst,
                    p,
                    idx,
                    scale,
                    ext,
                    shape,
                } => {
                    let off = f[*p as usize].wrapping_add(scaled(f, *idx, *scale, *ext));
                    let base = f[*p as usize + 1];
                    let mut sp = self.spaces(&mut wi.private);
                    let d = *dst as usize;
                    if let Err(m) = sp.load(off, base, *shape, &mut wi.frame[d..d + shape.words()])
                    {
                        let out = &mut wi.frame[d..d + shape.words()];
                        self.unwritten_read(at, m, &mut wi.private, (off, base), *shape, out)?;
                    }
                    if wi.hints.is_some() {
                        self.track(&mut wi.hints, at, base, off, access_size(*shape), false)?;
                    }
                }
                Inst::LoadIdx2 {
                    dst,
                    p,
                    i1,
                    i2,
                    s1,
                    s2,
                    e1,
                    e2,
                    shape,
                } => {
                    let off = f[*p as usize]
                        .wrapping_add(scaled(f, *i1, *s1, *e1))
                        .wrapping_add(scaled(f, *i2, *s2, *e2));
                    let base = f[*p as usize + 1];
                    let mut sp = self.spaces(&mut wi.private);
                    let d = *dst as usize;
                    if let Err(m) = sp.load(off, base, *shape, &mut wi.frame[d..d + shape.words()])
                    {
                        let out = &mut wi.frame[d..d + shape.words()];
                        self.unwritten_read(at, m, &mut wi.private, (off, base), *shape, out)?;
                    }
                    if wi.hints.is_some() {
                        self.track(&mut wi.hints, at, base, off, access_size(*shape), false)?;
                    }
                }
                Inst::Fma32 { dst, a, b, c } => {
                    // Exactly what the `fma` built-in computes for one f32 lane.
                    let x = |s: u32| float_of(Ek::F32, f[s as usize]) as f32;
                    f[*dst as usize] = fma_f32(x(*a), x(*b), x(*c)).to_bits() as u64;
                }
                Inst::CmpBranch {
                    op,
                    ek,
                    a,
                    b,
                    when,
                    to,
                } => {
                    if eval::compare(*op, *ek, f[*a as usize], f[*b as usize]) == *when {
                        pc = *to as usize;
                    }
                    if self.steps > self.max_steps {
                        return Err(self.err(
                            at,
                            format!(
                                "stopped after {} executed operations (max_steps)",
                                self.steps
                            ),
                        ));
                    }
                }
                Inst::PtrDiff { dst, a, b } => {
                    if f[*a as usize + 1] != f[*b as usize + 1] {
                        return Err(
                            self.err(at, "difference of pointers into different objects".into())
                        );
                    }
                    f[*dst as usize] = f[*a as usize].wrapping_sub(f[*b as usize]);
                }
                Inst::Load { dst, p, shape } => {
                    let (off, base) = (f[*p as usize], f[*p as usize + 1]);
                    let mut sp = self.spaces(&mut wi.private);
                    let d = *dst as usize;
                    if let Err(m) = sp.load(off, base, *shape, &mut wi.frame[d..d + shape.words()])
                    {
                        let out = &mut wi.frame[d..d + shape.words()];
                        self.unwritten_read(at, m, &mut wi.private, (off, base), *shape, out)?;
                    }
                    if wi.hints.is_some() {
                        self.track(&mut wi.hints, at, base, off, access_size(*shape), false)?;
                    }
                }
                Inst::Store { p, v, shape } => {
                    let (off, base) = (f[*p as usize], f[*p as usize + 1]);
                    let v = *v as usize;
                    let mut sp = self.spaces(&mut wi.private);
                    if let Err(m) = sp.store(off, base, *shape, &wi.frame[v..v + shape.words()]) {
                        return Err(self.err(at, m));
                    }
                    if wi.hints.is_some() {
                        self.track(&mut wi.hints, at, base, off, access_size(*shape), true)?;
                    }
                }
                Inst::Atomic {
                    op,
                    ek,
                    dst,
                    p,
                    a,
                    b,
                } => {
                    let (off, base) = (f[*p as usize], f[*p as usize + 1]);
                    let (x, y) = (f[*a as usize], f[*b as usize]);
                    let shape = Shape { ek: *ek, lanes: 1 };
                    let mut sp = self.spaces(&mut wi.private);
                    let mut old = [0u64; 1];
                    if *op != AtomicOp::Store {
                        if let Err(m) = sp.load(off, base, shape, &mut old) {
                            return Err(self.err(at, m));
                        }
                    }
                    if let Some(new) = eval::atomic(*op, *ek, old[0], x, y) {
                        if let Err(m) = sp.store(off, base, shape, &[new]) {
                            return Err(self.err(at, m));
                        }
                    }
                    if *op != AtomicOp::Store {
                        wi.frame[*dst as usize] = old[0];
                    }
                    self.track(
                        &mut wi.hints,
                        at,
                        base,
                        off,
                        ek.store_size(),
                        *op != AtomicOp::Load,
                    )?;
                }
                Inst::Barrier { id } => {
                    wi.pc = pc as u32;
                    return Ok(Stop::Barrier(*id));
                }
                Inst::WorkItem {
                    f: wf,
                    bits,
                    dst,
                    dim,
                } => {
                    let d = match dim {
                        Some(s) => f[*s as usize] as usize,
                        None => 0,
                    };
                    let v = dim_value(*wf, d, self, wi) & mask(*bits as u32);
                    wi.frame[*dst as usize] = v;
                }
                Inst::Builtin(b) => {
                    if let Err(m) = builtins::eval(b, f, &mut res, &mut side) {
                        return Err(self.err(at, m));
                    }
                    if let Some(r) = b.ret {
                        let n = r.words();
                        f[b.dst as usize..b.dst as usize + n].copy_from_slice(&res[..n]);
                    }
                    if let Some((i, pointee)) = b.out {
                        let ps = b.args[i].slot as usize;
                        let (off, base) = (f[ps], f[ps + 1]);
                        let mut sp = self.spaces(&mut wi.private);
                        if let Err(m) = sp.store(off, base, pointee, &side[..pointee.words()]) {
                            return Err(self.err(at, m));
                        }
                        self.track(&mut wi.hints, at, base, off, access_size(pointee), true)?;
                    }
                }
                Inst::Jump { to } => {
                    pc = *to as usize;
                    if self.steps > self.max_steps {
                        return Err(self.err(
                            at,
                            format!(
                                "stopped after {} executed operations (max_steps)",
                                self.steps
                            ),
                        ));
                    }
                }
                Inst::Branch { c, when, to } => {
                    if (f[*c as usize] & 1 == 1) == *when {
                        pc = *to as usize;
                    }
                    if self.steps > self.max_steps {
                        return Err(self.err(
                            at,
                            format!(
                                "stopped after {} executed operations (max_steps)",
                                self.steps
                            ),
                        ));
                    }
                }
                Inst::Return => {
                    wi.pc = pc as u32;
                    return Ok(Stop::Done);
                }
                Inst::LoopEnter { l } => {
                    if let Some(h) = &mut wi.hints {
                        h.enter(*l);
                    }
                }
                Inst::LoopIter { l } => {
                    if let Some(h) = &mut wi.hints {
                        h.iterate(*l);
                    }
                }
                Inst::LoopExit { l } => {
                    if let Some(h) = &mut wi.hints {
                        h.exit(*l);
                    }
                }
            }
        }
    }

    #[inline]
    fn spaces<'a>(&'a mut self, private: &'a mut [MemRegion]) -> Spaces<'a> {
        Spaces {
            shared_params: &mut self.params,
            shared_objects: &mut self.objects,
            private,
            is_private: self.is_private,
        }
    }
}
