//! Translating one block's ops into instructions: operands to frame slots, constants and
//! parameter values into the frame template, built-in calls resolved once.

use super::builtins;
use super::compile::{err, Compiler};
use super::inst::{Inst, Slot};
use super::value::{base_word, Ek, Shape, NULL_BASE};
use super::{ArgValue, InterpError};
use crate::diag::Span;
use crate::ir::{Base, BlockId, OpId, OpKind, ParamKind};

impl Compiler<'_> {
    pub(super) fn slot(&self, b: BlockId, o: OpId, span: Span) -> Result<Slot, InterpError> {
        self.slots
            .get(&(b, o))
            .copied()
            .ok_or_else(|| err(span, "op uses a value from outside its block"))
    }

    pub(super) fn block(&mut self, bid: BlockId) -> Result<(), InterpError> {
        let Some(block) = self.k.blocks.get(bid.0 as usize) else {
            return Err(err(self.k.span, format!("block b{} does not exist", bid.0)));
        };
        for &oid in &block.order {
            let op = block.op(oid);
            let span = op.span;
            let operands = block.operands(oid);
            let mut a = Vec::with_capacity(operands.len());
            let mut sh = Vec::with_capacity(operands.len());
            for o in &operands {
                a.push(self.slot(bid, *o, span)?);
                let t = block
                    .op(*o)
                    .ty
                    .as_ref()
                    .ok_or_else(|| err(span, "operand without a value"))?;
                sh.push(Shape::of(t));
            }
            let shape = op.ty.as_ref().map(Shape::of);
            check_shapes(&op.kind, shape, &sh)
                .map_err(|m| err(span, format!("malformed IR: {m}")))?;
            let dst = match shape {
                Some(s) => self.alloc(s.words()),
                None => 0,
            };
            if shape.is_some() {
                self.slots.insert((bid, oid), dst);
            }
            let need = |n: usize| -> Result<(), InterpError> {
                if a.len() < n {
                    Err(err(span, format!("{:?} needs {n} operands", op.kind)))
                } else {
                    Ok(())
                }
            };
            let rs = || shape.ok_or_else(|| err(span, format!("{:?} has no result type", op.kind)));
            let inst = match &op.kind {
                OpKind::Const(v) => {
                    let s = rs()?;
                    if s.ek == Ek::Ptr {
                        self.frame[dst as usize] = v.first().copied().unwrap_or(0);
                        self.frame[dst as usize + 1] = NULL_BASE;
                    } else {
                        for (i, x) in v.iter().take(s.lanes as usize).enumerate() {
                            self.frame[dst as usize + i] = *x;
                        }
                    }
                    None
                }
                OpKind::Param(i) => {
                    self.param(*i, dst, rs()?, span)?;
                    None
                }
                OpKind::ObjectAddr(o) => {
                    self.frame[dst as usize] = 0;
                    self.frame[dst as usize + 1] = base_word(Base::Object(*o));
                    None
                }
                OpKind::ReadVar(v) => {
                    let s = *self
                        .var_slots
                        .get(v.0 as usize)
                        .ok_or_else(|| err(span, "no such variable"))?;
                    Some(Inst::Move {
                        dst,
                        src: s,
                        n: rs()?.words() as u8,
                    })
                }
                OpKind::WriteVar(v) => {
                    need(1)?;
                    let s = *self
                        .var_slots
                        .get(v.0 as usize)
                        .ok_or_else(|| err(span, "no such variable"))?;
                    Some(Inst::Move {
                        dst: s,
                        src: a[0],
                        n: sh[0].words() as u8,
                    })
                }
                OpKind::PtrAdd => {
                    need(2)?;
                    Some(Inst::PtrAdd {
                        dst,
                        p: a[0],
                        off: a[1],
                    })
                }
                OpKind::PtrDiff => {
                    need(2)?;
                    Some(Inst::PtrDiff {
                        dst,
                        a: a[0],
                        b: a[1],
                    })
                }
                OpKind::Unary(u) => {
                    need(1)?;
                    let s = rs()?;
                    Some(Inst::Un {
                        op: *u,
                        ek: s.ek,
                        lanes: s.lanes,
                        dst,
                        a: a[0],
                    })
                }
                OpKind::Binary(b) => {
                    need(2)?;
                    let s = rs()?;
                    Some(Inst::Bin {
                        op: *b,
                        ek: s.ek,
                        lanes: s.lanes,
                        dst,
                        a: a[0],
                        b: a[1],
                    })
                }
                OpKind::Cmp(c) => {
                    need(2)?;
                    Some(Inst::Cmp {
                        op: *c,
                        ek: sh[0].ek,
                        lanes: sh[0].lanes,
                        dst,
                        a: a[0],
                        b: a[1],
                    })
                }
                OpKind::Select => {
                    need(3)?;
                    let s = rs()?;
                    Some(Inst::Select {
                        words: s.words() as u8,
                        c_lanes: sh[0].lanes,
                        dst,
                        c: a[0],
                        a: a[1],
                        b: a[2],
                    })
                }
                OpKind::Conv(cv) => {
                    need(1)?;
                    let s = rs()?;
                    Some(Inst::Conv {
                        conv: *cv,
                        from: sh[0].ek,
                        to: s.ek,
                        lanes: s.lanes,
                        dst,
                        a: a[0],
                    })
                }
                OpKind::Bitcast => {
                    need(1)?;
                    Some(Inst::Bitcast {
                        from: sh[0],
                        to: rs()?,
                        dst,
                        a: a[0],
                    })
                }
                OpKind::Extract(l) => {
                    need(1)?;
                    Some(Inst::Move {
                        dst,
                        src: a[0] + *l as Slot,
                        n: 1,
                    })
                }
                OpKind::Insert(l) => {
                    need(2)?;
                    let s = rs()?;
                    let srcs = (0..s.lanes as Slot)
                        .map(|i| if i == *l as Slot { a[1] } else { a[0] + i })
                        .collect();
                    Some(Inst::Gather { dst, srcs })
                }
                OpKind::Shuffle(lanes) => {
                    need(1)?;
                    let n0 = sh[0].lanes as Slot;
                    let mut srcs = Vec::with_capacity(lanes.len());
                    for &l in lanes {
                        let l = l as Slot;
                        let src = if l < n0 {
                            a[0] + l
                        } else if a.len() > 1 && l - n0 < sh[1].lanes as Slot {
                            a[1] + l - n0
                        } else {
                            return Err(err(span, format!("shuffle lane {l} out of range")));
                        };
                        srcs.push(src);
                    }
                    Some(Inst::Gather {
                        dst,
                        srcs: srcs.into(),
                    })
                }
                OpKind::Splat => {
                    need(1)?;
                    Some(Inst::Gather {
                        dst,
                        srcs: vec![a[0]; rs()?.lanes as usize].into(),
                    })
                }
                OpKind::Build => Some(Inst::Gather {
                    dst,
                    srcs: a.clone().into(),
                }),
                OpKind::Load { .. } => {
                    need(1)?;
                    Some(Inst::Load {
                        dst,
                        p: a[0],
                        shape: rs()?,
                    })
                }
                OpKind::Store { .. } => {
                    need(2)?;
                    Some(Inst::Store {
                        p: a[0],
                        v: a[1],
                        shape: sh[1],
                    })
                }
                OpKind::Atomic { op: aop, .. } => {
                    need(1)?;
                    let ek = match shape {
                        Some(s) => s.ek,
                        None => sh
                            .get(1)
                            .map(|s| s.ek)
                            .ok_or_else(|| err(span, "atomic store without a value"))?,
                    };
                    let x = a.get(1).copied().unwrap_or(0);
                    let y = a.get(2).copied().unwrap_or(0);
                    Some(Inst::Atomic {
                        op: *aop,
                        ek,
                        dst,
                        p: a[0],
                        a: x,
                        b: y,
                    })
                }
                OpKind::Barrier { .. } => {
                    self.barrier_spans.push(span);
                    Some(Inst::Barrier {
                        id: self.barrier_spans.len() as u32 - 1,
                    })
                }
                OpKind::MemFence { .. } => None,
                OpKind::WorkItem(f) => {
                    let bits = rs()?.ek.bits() as u8;
                    Some(Inst::WorkItem {
                        f: *f,
                        bits,
                        dst,
                        dim: a.first().copied(),
                    })
                }
                OpKind::Builtin(call) => {
                    let args: Vec<(Slot, Shape)> =
                        a.iter().copied().zip(sh.iter().copied()).collect();
                    let b = builtins::compile(call, &args, dst, shape).map_err(|m| err(span, m))?;
                    Some(Inst::Builtin(Box::new(b)))
                }
            };
            if let Some(i) = inst {
                self.emit(i, span);
            }
        }
        Ok(())
    }

    /// Fills a parameter op's slot in the frame template.
    fn param(&mut self, i: u32, dst: Slot, s: Shape, span: Span) -> Result<(), InterpError> {
        let p = self
            .k
            .params
            .get(i as usize)
            .ok_or_else(|| err(span, format!("no parameter {i}")))?;
        let d = dst as usize;
        match &p.kind {
            ParamKind::Buffer { .. } | ParamKind::LocalBuffer => {
                let (offset, base) = match self.args.get(i as usize) {
                    Some(ArgValue::SameAs { arg, offset }) => (*offset, Base::Param(*arg)),
                    _ => (0, Base::Param(i)),
                };
                self.frame[d] = offset;
                self.frame[d + 1] = base_word(base);
            }
            ParamKind::Struct { object } => {
                self.frame[d] = 0;
                self.frame[d + 1] = base_word(Base::Object(*object));
            }
            ParamKind::Value => {
                let Some(ArgValue::Value(bytes)) = self.args.get(i as usize) else {
                    return Err(err(span, format!("parameter '{}' has no value", p.name)));
                };
                let es = s.ek.store_size();
                for l in 0..s.lanes as usize {
                    let mut w = [0u8; 8];
                    let from = l * es;
                    if from + es > bytes.len() {
                        return Err(err(span, format!("argument '{}' is too short", p.name)));
                    }
                    w[..es].copy_from_slice(&bytes[from..from + es]);
                    let v = u64::from_le_bytes(w);
                    self.frame[d + l] = if s.ek == Ek::Ptr {
                        v
                    } else {
                        v & super::value::mask(s.ek.bits())
                    };
                }
            }
        }
        Ok(())
    }
}

fn valid(s: Shape) -> bool {
    let ek_ok = match s.ek {
        Ek::I(n) => (1..=64).contains(&n),
        _ => true,
    };
    ek_ok && (1..=super::value::MAX_LANES as u8).contains(&s.lanes)
}

/// The shape rules the instruction loop relies on to stay inside each value's slots
/// (the IR verifier checks more; this keeps a malformed kernel an error, not a panic).
fn check_shapes(kind: &OpKind, r: Option<Shape>, a: &[Shape]) -> Result<(), String> {
    if r.is_some_and(|s| !valid(s)) || a.iter().any(|s| !valid(*s)) {
        return Err(format!("{kind:?} has an unsupported type"));
    }
    let lanes = |i: usize| a.get(i).map(|s| s.lanes);
    let rl = r.map(|s| s.lanes);
    let ok = match kind {
        OpKind::Unary(_) | OpKind::Binary(_) => a.iter().all(|s| Some(*s) == r),
        OpKind::Cmp(_) => {
            lanes(0) == lanes(1)
                && lanes(0) == rl
                && a.first().map(|s| s.ek) == a.get(1).map(|s| s.ek)
        }
        OpKind::Select => {
            a.get(1).copied() == r
                && a.get(2).copied() == r
                && (lanes(0) == Some(1) || lanes(0) == rl)
        }
        OpKind::Conv(_) => lanes(0) == rl,
        OpKind::Bitcast => {
            let size = |s: Shape| {
                s.ek.store_size() * s.lanes.max(if s.lanes == 3 { 4 } else { 1 }) as usize
            };
            r.is_some_and(|r| a.first().is_some_and(|x| size(*x) == size(r)))
        }
        OpKind::Extract(l) => lanes(0).is_some_and(|n| *l < n),
        OpKind::Insert(l) => lanes(0) == rl && rl.is_some_and(|n| *l < n),
        OpKind::Build => {
            rl.is_some_and(|n| n as usize == a.len()) && a.iter().all(|s| s.lanes == 1)
        }
        OpKind::Splat => lanes(0) == Some(1),
        OpKind::PtrAdd
        | OpKind::PtrDiff
        | OpKind::Load { .. }
        | OpKind::Store { .. }
        | OpKind::Atomic { .. } => {
            a.first().is_some_and(|s| s.ek == Ek::Ptr)
                && (!matches!(kind, OpKind::PtrAdd | OpKind::PtrDiff)
                    || a.get(1).is_some_and(|s| s.lanes == 1))
        }
        _ => true,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{kind:?} with result {r:?} and operands {a:?}"))
    }
}
