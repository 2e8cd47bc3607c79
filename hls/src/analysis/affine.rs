//! Affine address analysis of one loop iteration: each memory access's byte address as
//! `c * i + k` plus loop-invariant terms in the loop's induction variable `i`, and the
//! dependence distance (in iterations) between two such accesses.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::ir::{BinOp, Block, BlockId, Conv, Kernel, ObjectId, OpId, OpKind, Ty, VarId};
use crate::opt::lang::mask;
use crate::opt::ranges::Ranges;

use super::loops::LoopShape;

/// A loop-invariant value an address may add (scaled).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Term {
    /// A variable the iteration never writes.
    Var(VarId),
    Param(u32),
    Object(ObjectId),
    /// A work-item function of a constant dimension (e.g. `get_group_id(0)`).
    Item(String),
}

/// `iv * i + k + sum(terms)`, in bytes (or plain integers before scaling).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Affine {
    iv: i64,
    k: i64,
    terms: BTreeMap<Term, i64>,
}

impl Affine {
    fn konst(k: i64) -> Affine {
        Affine {
            iv: 0,
            k,
            terms: BTreeMap::new(),
        }
    }

    fn term(t: Term) -> Affine {
        Affine {
            iv: 0,
            k: 0,
            terms: BTreeMap::from([(t, 1)]),
        }
    }

    fn as_const(&self) -> Option<i64> {
        (self.iv == 0 && self.terms.is_empty()).then_some(self.k)
    }

    fn add(&self, o: &Affine, sign: i64) -> Option<Affine> {
        let mut terms = self.terms.clone();
        for (t, c) in &o.terms {
            let e = terms.entry(t.clone()).or_insert(0);
            *e = e.checked_add(c.checked_mul(sign)?)?;
        }
        terms.retain(|_, c| *c != 0);
        Some(Affine {
            iv: self.iv.checked_add(o.iv.checked_mul(sign)?)?,
            k: self.k.checked_add(o.k.checked_mul(sign)?)?,
            terms,
        })
    }

    fn scale(&self, f: i64) -> Option<Affine> {
        let mut terms = BTreeMap::new();
        for (t, c) in &self.terms {
            terms.insert(t.clone(), c.checked_mul(f)?);
        }
        terms.retain(|_, c| *c != 0);
        Some(Affine {
            iv: self.iv.checked_mul(f)?,
            k: self.k.checked_mul(f)?,
            terms,
        })
    }
}

/// How two accesses of a loop depend on each other across iterations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dep {
    /// Not provably affine in the same variable with the same stride: assume the worst.
    Unknown,
    /// They touch the same bytes only within one iteration, never in a later one.
    SameIterationOnly,
    /// Their address ranges never meet in a later iteration (nor in the same one).
    Never,
    /// The later access touches the earlier one's bytes `d` iterations on (the smallest).
    Distance(u64),
}

/// The byte address and width of every memory access of one iteration.
pub struct AffineLoop {
    /// The induction variable's step per iteration, when the loop has one.
    step: Option<i64>,
    /// A power of two every value of the induction variable is a multiple of.
    iv_align: u64,
    /// The most the induction variable is at the start of an iteration that runs the
    /// body, when the range analysis bounds it below its sign bit (so it is never
    /// negative): from the reads of it outside the loop's condition, which also sees
    /// the value that ends the loop. With the condition's reads: `iv_max_cond`.
    iv_max: Option<u64>,
    iv_max_cond: Option<u64>,
    /// The block of the loop's condition.
    cond: Option<BlockId>,
    /// The buffer parameters: a pointer to a buffer's start is `BUFFER_ALIGN`-aligned.
    buffers: HashSet<u32>,
    access: HashMap<(BlockId, OpId), (Affine, u64)>,
}

/// The alignment of every buffer's start in bytes: OpenCL's
/// `CL_DEVICE_MEM_BASE_ADDR_ALIGN` of 1024 bits, which the sub-buffer offsets keep
/// (`launch::resolve::SUB_BUFFER_ALIGN`) and the runtimes' allocations exceed.
pub const BUFFER_ALIGN: u64 = 128;

/// A power of two that divides every value variable `v` takes: the writes of `v` in the
/// whole kernel are constants or `v` plus or minus constants (an unrolled counter:
/// `i = 0`, `i += 4`, `i = 1000`), through integer casts, which keep the low bits.
fn congruence(k: &Kernel, v: VarId) -> u64 {
    let mut g: u64 = 0;
    for blk in &k.blocks {
        for &o in &blk.order {
            if blk.op(o).kind != OpKind::WriteVar(v) {
                continue;
            }
            let mut bits = 64u32;
            let mut peel = |mut x: OpId| {
                while let OpKind::Conv(Conv::Int { sat: false, .. }) = blk.op(x).kind {
                    bits = bits.min(int_bits(blk.op(x).ty.as_ref()).unwrap_or(1));
                    x = blk.operands(x)[0];
                }
                x
            };
            let Some(val) = blk.operands(o).first().map(|x| peel(*x)) else {
                return 1;
            };
            let konst = |x: OpId| match &blk.op(x).kind {
                OpKind::Const(l) if l.len() == 1 => Some(l[0]),
                _ => None,
            };
            let is_v = |x: OpId| blk.op(x).kind == OpKind::ReadVar(v);
            let c = match (&blk.op(val).kind, konst(val)) {
                (_, Some(c)) => Some(c),
                (OpKind::Binary(BinOp::Add | BinOp::Sub), _) => {
                    let args: Vec<OpId> = blk.operands(val).into_iter().map(&mut peel).collect();
                    match args[..] {
                        [a, b] if is_v(a) => konst(b),
                        [a, b] if is_v(b) && blk.op(val).kind == OpKind::Binary(BinOp::Add) => {
                            konst(a)
                        }
                        _ => None,
                    }
                }
                _ => None,
            };
            let Some(c) = c else { return 1 };
            let c = if bits >= 64 {
                c
            } else {
                c & ((1u64 << bits) - 1)
            };
            // Below the narrowest cast the low bits are all that is known.
            let low = if c == 0 {
                1u64 << (bits.min(63))
            } else {
                c & c.wrapping_neg()
            };
            let low = low.min(1u64 << (bits.min(63)));
            g = if g == 0 { low } else { g.min(low) };
        }
    }
    g.max(1)
}

/// Whether op `o` of block `b` is an `or` of values with no set bit in common (by the
/// range analysis), which is their sum.
fn is_disjoint_or(k: &Kernel, b: BlockId, o: OpId, ranges: Option<&Ranges>) -> bool {
    let blk = k.block(b);
    match (&blk.op(o).kind, ranges, &blk.operands(o)[..]) {
        (OpKind::Binary(BinOp::Or), Some(r), [x, y]) => r.disjoint(k, b, *x, *y),
        _ => false,
    }
}

/// Sign-extends the low `bits` of `v`.
fn signed(v: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        return v as i64;
    }
    let sh = 64 - bits;
    ((v << sh) as i64) >> sh
}

fn int_bits(ty: Option<&Ty>) -> Option<u32> {
    match ty {
        Some(Ty::I(n)) => Some(*n as u32),
        _ => None,
    }
}

impl AffineLoop {
    /// The analysis of loop `shape`; with the range analysis of `k` (`opt::ranges`), an
    /// address also passes through the zero-extensions and truncations it proves
    /// exact (`exact`), as the `opt` stage's narrowed index arithmetic has them.
    pub fn new(k: &Kernel, shape: &LoopShape, ranges: Option<&Ranges>) -> AffineLoop {
        let mut written: HashMap<VarId, (u32, bool)> = HashMap::new();
        for ib in &shape.blocks {
            for o in k.block(ib.block).graph.node_weights() {
                if let OpKind::WriteVar(v) = o.kind {
                    let e = written.entry(v).or_insert((0, false));
                    e.0 += 1;
                    e.1 |= ib.conditional;
                }
            }
        }
        let exact: HashMap<BlockId, HashMap<OpId, u64>> = shape
            .blocks
            .iter()
            .map(|ib| (ib.block, exact(k, ib.block, ranges)))
            .collect();
        let (iv, step) = match induction(k, shape, &written, &exact) {
            Some((v, s)) => (Some(v), Some(s)),
            None => (None, None),
        };
        let mut defined: HashMap<VarId, Option<Affine>> = HashMap::new();
        // Values whose affine form is their unsigned value and may have the sign bit
        // set (a truncation that passes, and what is computed from it): a
        // sign-extension of one does not keep it. Variables written with one.
        let mut big_vars: HashSet<VarId> = HashSet::new();
        let mut access = HashMap::new();
        // `None` until a read of the induction variable is seen; then a bound on all of
        // them, or unbounded (`Some(None)`) once one is not bounded. Outside the
        // condition, and with it.
        let cond = k.lp(shape.id).cond.map(|(b, _)| b);
        let mut iv_max: [Option<Option<u64>>; 2] = [None, None];
        for ib in &shape.blocks {
            let block = k.block(ib.block);
            let mut val: HashMap<OpId, Option<Affine>> = HashMap::new();
            let ex = &exact[&ib.block];
            let mut big: HashSet<OpId> = HashSet::new();
            for &id in &block.order {
                let op = block.op(id);
                let args = block.operands(id);
                let arg = |n: usize| args.get(n).and_then(|a| val.get(a).cloned().flatten());
                // An `or` of values with no bit in common (as `opt` makes of such sums)
                // is their sum.
                let sum = matches!(op.kind, OpKind::PtrAdd | OpKind::Binary(BinOp::Add))
                    || is_disjoint_or(k, ib.block, id, ranges);
                let a = match &op.kind {
                    OpKind::Const(l) if l.len() == 1 => {
                        int_bits(op.ty.as_ref()).map(|b| Affine::konst(signed(l[0], b)))
                    }
                    OpKind::Param(p) => Some(Affine::term(Term::Param(*p))),
                    OpKind::ObjectAddr(o) => Some(Affine::term(Term::Object(*o))),
                    OpKind::WorkItem(f) => arg(0)
                        .and_then(|d| d.as_const())
                        .map(|d| Affine::term(Term::Item(format!("{f:?}/{d}")))),
                    OpKind::ReadVar(v) => match defined.get(v) {
                        Some(x) => x.clone(),
                        None if Some(*v) == iv => {
                            let bound = ex.get(&id).copied();
                            let fold = |m: &mut Option<Option<u64>>| {
                                let seen = m.unwrap_or(Some(0));
                                *m = Some(seen.zip(bound).map(|(a, b)| a.max(b)));
                            };
                            if Some(ib.block) != cond {
                                fold(&mut iv_max[0]);
                            }
                            fold(&mut iv_max[1]);
                            Some(Affine {
                                iv: 1,
                                k: 0,
                                terms: BTreeMap::new(),
                            })
                        }
                        None if written.contains_key(v) => None,
                        None => Some(Affine::term(Term::Var(*v))),
                    },
                    OpKind::WriteVar(v) => {
                        let x = if ib.conditional { None } else { arg(0) };
                        defined.insert(*v, x);
                        None
                    }
                    _ if sum => {
                        let sum = arg(0).zip(arg(1)).and_then(|(x, y)| x.add(&y, 1));
                        // A sum `exact` proves does not wrap, with a constant whose sign
                        // bit is set (`4 * i + 44000` at 16 bits, as `opt` narrows an
                        // index): the constant counts at its unsigned value.
                        match int_bits(op.ty.as_ref()) {
                            Some(t) if t < 64 && ex.contains_key(&id) => {
                                let wide = args.iter().filter(|a| big_const(block, **a, t)).count();
                                sum.and_then(|s| s.add(&Affine::konst((wide as i64) << t), 1))
                            }
                            _ => sum,
                        }
                    }
                    OpKind::Binary(BinOp::Sub) => {
                        arg(0).zip(arg(1)).and_then(|(x, y)| x.add(&y, -1))
                    }
                    OpKind::Binary(BinOp::Mul) => {
                        arg(0)
                            .zip(arg(1))
                            .and_then(|(x, y)| match (x.as_const(), y.as_const()) {
                                (Some(c), _) => y.scale(c),
                                (_, Some(c)) => x.scale(c),
                                _ => None,
                            })
                    }
                    OpKind::Binary(BinOp::Shl) => arg(0).zip(arg(1)).and_then(|(x, y)| {
                        let s = y.as_const().filter(|s| (0..62).contains(s))?;
                        x.scale(1i64 << s)
                    }),
                    // Sign extension keeps the value (signed overflow is undefined in
                    // OpenCL C, so `i * 4` may be taken as exact); anything else may wrap.
                    OpKind::Conv(Conv::Int {
                        from_signed: true,
                        sat: false,
                        ..
                    }) if !args.iter().any(|a| big.contains(a)) => {
                        let from = args
                            .first()
                            .and_then(|a| int_bits(block.op(*a).ty.as_ref()));
                        let to = int_bits(op.ty.as_ref());
                        match (from, to) {
                            (Some(f), Some(t)) if t >= f => arg(0),
                            _ => None,
                        }
                    }
                    // A zero-extension or truncation the range analysis proves keeps
                    // the value (see `exact`).
                    OpKind::Conv(Conv::Int {
                        from_signed: false,
                        sat: false,
                        ..
                    }) if passes(block, id, ex) => arg(0),
                    _ => None,
                };
                let width = match &op.kind {
                    OpKind::Load { .. } | OpKind::Atomic { .. } => {
                        op.ty.as_ref().map(|t| t.store_size())
                    }
                    OpKind::Store { .. } => args
                        .get(1)
                        .and_then(|v| block.op(*v).ty.as_ref())
                        .map(|t| t.store_size()),
                    _ => None,
                };
                if let (Some(w), Some(addr)) = (width, arg(0)) {
                    access.insert((ib.block, id), (addr, w));
                }
                let small = int_bits(op.ty.as_ref())
                    .zip(ex.get(&id))
                    .is_some_and(|(t, b)| *b <= mask(t - 1));
                // A sum that counted a constant unsigned is its unsigned value.
                let unsigned_sum = sum
                    && !matches!(op.kind, OpKind::PtrAdd)
                    && ex.contains_key(&id)
                    && int_bits(op.ty.as_ref())
                        .is_some_and(|t| args.iter().any(|a| big_const(block, *a, t)));
                let is_big = !small
                    && match op.kind {
                        _ if unsigned_sum => true,
                        OpKind::Conv(_) if passes(block, id, ex) => true,
                        OpKind::ReadVar(v) => big_vars.contains(&v),
                        _ => args.iter().any(|a| big.contains(a)),
                    };
                if let OpKind::WriteVar(v) = op.kind {
                    if args.iter().any(|a| big.contains(a)) {
                        big_vars.insert(v);
                    }
                }
                if is_big {
                    big.insert(id);
                }
                val.insert(id, a);
            }
        }
        AffineLoop {
            step,
            iv_align: iv.map_or(1, |v| congruence(k, v)),
            iv_max: iv_max[0].flatten(),
            iv_max_cond: iv_max[1].flatten(),
            cond,
            buffers: (0..k.params.len() as u32)
                .filter(|p| k.is_buffer(*p))
                .collect(),
            access,
        }
    }

    /// A power of two access `a`'s address is a multiple of in every iteration (at most
    /// `BUFFER_ALIGN`), from its affine form: a buffer's start, the induction variable's
    /// congruence times its coefficient, the constant, and the other terms' coefficients.
    pub fn align(&self, a: (BlockId, OpId)) -> Option<u64> {
        let (f, _) = self.access.get(&a)?;
        let low = |c: i64| {
            let c = c as u64;
            if c == 0 {
                BUFFER_ALIGN
            } else {
                (c & c.wrapping_neg()).min(BUFFER_ALIGN)
            }
        };
        let mut al = low(f.k);
        if f.iv != 0 {
            al = al.min(low(f.iv).saturating_mul(self.iv_align).min(BUFFER_ALIGN));
        }
        for (t, c) in &f.terms {
            al = al.min(match t {
                Term::Param(p) if *c == 1 && self.buffers.contains(p) => BUFFER_ALIGN,
                _ => low(*c),
            });
        }
        Some(al)
    }

    /// Bytes from access `a`'s address to access `b`'s in the same iteration, when both
    /// are affine in the same terms.
    pub fn offset(&self, a: (BlockId, OpId), b: (BlockId, OpId)) -> Option<i64> {
        let ((fa, _), (fb, _)) = (self.access.get(&a)?, self.access.get(&b)?);
        (fa.terms == fb.terms && fa.iv == fb.iv).then(|| fb.k.wrapping_sub(fa.k))
    }

    /// Bytes access `a`'s address moves from one iteration to the next, when known.
    pub fn stride(&self, a: (BlockId, OpId)) -> Option<i64> {
        let (f, _) = self.access.get(&a)?;
        match (f.iv, self.step) {
            (0, _) => Some(0),
            (x, Some(s)) => x.checked_mul(s),
            (_, None) => None,
        }
    }

    /// Bytes from access `a`'s address to access `b`'s, both moving a multiple of
    /// `modulus` bytes per iteration: then `b`'s address modulo `modulus` stays this far
    /// from `a`'s in every iteration (what makes their RAM banks differ by a constant,
    /// `memory::banks`).
    pub fn offset_in_step(
        &self,
        a: (BlockId, OpId),
        b: (BlockId, OpId),
        modulus: i64,
    ) -> Option<i64> {
        let d = self.offset(a, b)?;
        let s = self.stride(a)?;
        (modulus > 0 && s.rem_euclid(modulus) == 0).then_some(d)
    }

    /// The lowest and highest byte offset of access `a` from the start of the object it
    /// is in, over every iteration: when its address is the object's start plus `c * i +
    /// k`, with the induction variable `i` between 0 and its bound (`iv_max`; an access
    /// of the condition also runs with the value that ends the loop).
    pub fn span(&self, a: (BlockId, OpId)) -> Option<(i64, i64)> {
        let (f, _) = self.access.get(&a)?;
        let mut terms = f.terms.iter();
        match (terms.next(), terms.next()) {
            (Some((Term::Object(_), 1)), None) => {}
            _ => return None,
        }
        let most = if Some(a.0) == self.cond {
            self.iv_max_cond
        } else {
            self.iv_max
        };
        let reach = match f.iv {
            0 => 0,
            c => c.checked_mul(i64::try_from(most?).ok()?)?,
        };
        Some((
            f.k.checked_add(reach.min(0))?,
            f.k.checked_add(reach.max(0))?,
        ))
    }

    /// The bytes access `a` reads or writes.
    pub fn width(&self, a: (BlockId, OpId)) -> Option<u64> {
        self.access.get(&a).map(|(_, w)| *w)
    }

    /// Accesses `a` and `b` of one iteration provably touch different bytes.
    pub fn apart(&self, a: (BlockId, OpId), b: (BlockId, OpId)) -> bool {
        let (Some(d), Some((_, wa)), Some((_, wb))) =
            (self.offset(a, b), self.access.get(&a), self.access.get(&b))
        else {
            return false;
        };
        d >= *wa as i64 || -d >= *wb as i64
    }

    /// The dependence of access `to` in a later iteration on access `from`.
    pub fn dep(&self, from: (BlockId, OpId), to: (BlockId, OpId)) -> Dep {
        let (Some((f, wf)), Some((t, wt))) = (self.access.get(&from), self.access.get(&to)) else {
            return Dep::Unknown;
        };
        if f.terms != t.terms || f.iv != t.iv {
            return Dep::Unknown;
        }
        // Bytes the address moves per iteration (an address not using the induction
        // variable stays put, whether or not the loop has one).
        let c = match (f.iv, self.step) {
            (0, _) => 0i128,
            (x, Some(s)) => x as i128 * s as i128,
            (_, None) => return Dep::Unknown,
        };
        // `from` covers [kf, kf + wf); `to`, d iterations later, [c d + kt, c d + kt + wt).
        // They meet when lo < c d < hi.
        let lo = f.k as i128 - t.k as i128 - *wt as i128;
        let hi = f.k as i128 - t.k as i128 + *wf as i128;
        let same_iteration = lo < 0 && 0 < hi;
        let first = match c {
            0 => (lo < 0 && 0 < hi).then_some(1),
            c if c > 0 => first_above(lo, hi, c),
            c => first_above(-hi, -lo, -c),
        };
        match first {
            Some(d) => Dep::Distance(d.min(u64::MAX as i128) as u64),
            None if same_iteration => Dep::SameIterationOnly,
            None => Dep::Never,
        }
    }
}

/// The smallest integer d >= 1 with lo < c d < hi (c > 0).
fn first_above(lo: i128, hi: i128, c: i128) -> Option<i128> {
    let d = (lo.div_euclid(c) + 1).max(1);
    (c * d < hi).then_some(d)
}

/// The loop's induction variable and its step: a variable written once per iteration,
/// unconditionally, as itself plus a non-zero constant.
fn induction(
    k: &Kernel,
    shape: &LoopShape,
    written: &HashMap<VarId, (u32, bool)>,
    exact: &HashMap<BlockId, HashMap<OpId, u64>>,
) -> Option<(VarId, i64)> {
    let once: HashSet<VarId> = written
        .iter()
        .filter(|(_, (n, cond))| *n == 1 && !*cond)
        .map(|(v, _)| *v)
        .collect();
    for ib in &shape.blocks {
        let block = k.block(ib.block);
        for &id in &block.order {
            let OpKind::WriteVar(v) = block.op(id).kind else {
                continue;
            };
            if !once.contains(&v) {
                continue;
            }
            let Some(&val) = block.operands(id).first() else {
                continue;
            };
            // Exact casts around the sum and its operands (a narrowed counter) keep the
            // values.
            let ex = &exact[&ib.block];
            let peel = |mut o: OpId| {
                while passes(block, o, ex) {
                    o = block.operands(o)[0];
                }
                o
            };
            let val = peel(val);
            let sum = block.op(val);
            let sign = match sum.kind {
                OpKind::Binary(BinOp::Add) => 1,
                OpKind::Binary(BinOp::Sub) => -1,
                _ => continue,
            };
            let bits = int_bits(sum.ty.as_ref()).unwrap_or(64);
            let ops: Vec<OpId> = block.operands(val).into_iter().map(peel).collect();
            let is_v = |o: &OpId| matches!(block.op(*o).kind, OpKind::ReadVar(x) if x == v);
            let konst = |o: &OpId| match &block.op(*o).kind {
                OpKind::Const(l) if l.len() == 1 => Some(signed(l[0], bits)),
                _ => None,
            };
            let step = match ops.as_slice() {
                [a, b] if is_v(a) => konst(b).and_then(|c| c.checked_mul(sign)),
                [a, b] if is_v(b) && sign == 1 => konst(a),
                _ => None,
            };
            if let Some(s) = step.filter(|s| *s != 0) {
                return Some((v, s));
            }
        }
    }
    None
}

/// Whether op `o` is a zero-extension or truncation (not saturating) that keeps its
/// operand's value, by `ex` (`exact`): the operand's unsigned value is its affine value
/// and fits the result (a truncated value may have its sign bit set, which `new` keeps
/// sign-extensions of it from passing).
/// A scalar integer constant of width `t` whose sign bit is set: the affine analysis reads
/// it signed, an exact sum counts it unsigned.
fn big_const(block: &Block, o: OpId, t: u32) -> bool {
    match &block.op(o).kind {
        OpKind::Const(l) if l.len() == 1 => {
            int_bits(block.op(o).ty.as_ref()) == Some(t) && l[0] & mask(t) > mask(t - 1)
        }
        _ => false,
    }
}

fn passes(block: &Block, o: OpId, ex: &HashMap<OpId, u64>) -> bool {
    let op = block.op(o);
    if !matches!(
        op.kind,
        OpKind::Conv(Conv::Int {
            from_signed: false,
            sat: false,
            ..
        })
    ) {
        return false;
    }
    let (Some(&a), Some(t)) = (block.operands(o).first(), int_bits(op.ty.as_ref())) else {
        return false;
    };
    int_bits(block.op(a).ty.as_ref()).is_some() && ex.get(&a).is_some_and(|b| *b <= mask(t))
}

/// Per integer op of block `b`, a bound on its value when its unsigned value is the one
/// the affine analysis gives it: leaves (variables, work-item functions) below their
/// sign bit by the range analysis; constants below their sign bit (the analysis reads
/// constants signed); sums, products and left shifts of such values that do not wrap
/// at their width, a constant minus such a value no larger than it; zero-extensions and truncations of them that fit, and
/// sign-extensions of them below the narrow sign bit. The `opt` stage builds index arithmetic of values that fit
/// 32 bits at 32 bits and zero-extends it back; this shows that keeps the addresses.
/// Empty without a range analysis.
fn exact(k: &Kernel, b: BlockId, ranges: Option<&Ranges>) -> HashMap<OpId, u64> {
    let mut out: HashMap<OpId, u64> = HashMap::new();
    let Some(r) = ranges else {
        return out;
    };
    let block = k.block(b);
    for &id in &block.order {
        let op = block.op(id);
        let Some(t) = int_bits(op.ty.as_ref()) else {
            continue;
        };
        let args = block.operands(id);
        let ex = |n: usize| args.get(n).and_then(|a| out.get(a).copied());
        let fits = |v: u64| (v <= mask(t)).then_some(v);
        // A sum of exact values, or of one and a constant of any value, counted
        // unsigned (see `big_const`), that does not wrap.
        let sum = || {
            let konst = |n: usize| {
                args.get(n).and_then(|a| match &block.op(*a).kind {
                    OpKind::Const(l) if l.len() == 1 => Some(l[0] & mask(t)),
                    _ => None,
                })
            };
            let exact_or_const = |n: usize| ex(n).or_else(|| konst(n));
            exact_or_const(0)
                .zip(exact_or_const(1))
                .filter(|_| ex(0).is_some() || ex(1).is_some())
                .and_then(|(x, y)| x.checked_add(y))
                .and_then(fits)
        };
        let bound = match &op.kind {
            OpKind::Const(l) if l.len() == 1 => Some(l[0] & mask(t)).filter(|c| *c <= mask(t - 1)),
            OpKind::ReadVar(_) | OpKind::WorkItem(_) => r.op(b, id).filter(|h| *h <= mask(t - 1)),
            OpKind::Binary(BinOp::Add) => sum(),
            OpKind::Binary(BinOp::Or) if is_disjoint_or(k, b, id, ranges) => sum(),
            // A constant minus a value no larger than it does not wrap.
            OpKind::Binary(BinOp::Sub) => args
                .first()
                .and_then(|a| match &block.op(*a).kind {
                    OpKind::Const(l) if l.len() == 1 => Some(l[0] & mask(t)),
                    _ => None,
                })
                .zip(ex(1))
                .and_then(|(c, y)| (y <= c).then_some(c))
                .and_then(|c| ex(0).is_some().then_some(c)),
            OpKind::Binary(BinOp::Mul) => ex(0)
                .zip(ex(1))
                .and_then(|(x, y)| x.checked_mul(y))
                .and_then(fits),
            OpKind::Binary(BinOp::Shl) => ex(0).zip(ex(1)).and_then(|(x, s)| {
                let s = u32::try_from(s).ok().filter(|s| *s < t)?;
                (x.leading_zeros() >= s).then(|| x << s).and_then(fits)
            }),
            OpKind::Conv(Conv::Int {
                from_signed,
                sat: false,
                ..
            }) => {
                let from = args
                    .first()
                    .and_then(|a| int_bits(block.op(*a).ty.as_ref()));
                match (ex(0), from) {
                    // Zero-extension keeps the value; truncation when it fits;
                    // sign-extension when its sign bit is clear.
                    (Some(x), Some(f)) if f < t && !from_signed => Some(x),
                    (Some(x), Some(f)) if f < t => Some(x).filter(|x| *x <= mask(f - 1)),
                    (Some(x), Some(_)) => fits(x),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(v) = bound {
            out.insert(id, v);
        }
    }
    out
}
