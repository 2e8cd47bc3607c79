//! Translates a kernel's regions and blocks into one linear instruction list (see
//! `inst.rs`): blocks in their creation order (a topological order), ifs and loops as
//! jumps, constants and parameter values placed in the frame template once per launch.

use std::collections::HashMap;

use super::builtins;
use super::inst::{Inst, Program, Slot};
use super::value::{base_word, Ek, Shape, NULL_BASE};
use super::{ArgValue, InterpError};
use crate::diag::Span;
use crate::ir::{Base, BlockId, Kernel, LoopId, LoopKind, Node, OpId, OpKind, ParamKind, Region};

struct LoopLabels {
    id: LoopId,
    /// Jumps to patch with the loop's exit / latch address.
    breaks: Vec<usize>,
    continues: Vec<usize>,
}

struct Compiler<'k> {
    k: &'k Kernel,
    args: &'k [ArgValue],
    track: Vec<bool>,
    insts: Vec<Inst>,
    spans: Vec<Span>,
    frame: Vec<u64>,
    slots: HashMap<(BlockId, OpId), Slot>,
    var_slots: Vec<Slot>,
    loops: Vec<LoopLabels>,
    barrier_spans: Vec<Span>,
}

fn err(span: Span, message: impl Into<String>) -> InterpError {
    InterpError {
        message: message.into(),
        span: Some(span),
        notes: Vec::new(),
    }
}

/// Compiles `k` for a launch with these (already validated) arguments. `track_loops`
/// says for each loop whether ivdep bookkeeping instructions are wanted.
pub fn compile(
    k: &Kernel,
    args: &[ArgValue],
    track_loops: Vec<bool>,
) -> Result<Program, InterpError> {
    let mut c = Compiler {
        k,
        args,
        track: track_loops,
        insts: Vec::new(),
        spans: Vec::new(),
        frame: Vec::new(),
        slots: HashMap::new(),
        var_slots: Vec::new(),
        loops: Vec::new(),
        barrier_spans: Vec::new(),
    };
    for v in &k.vars {
        let s = c.alloc(Shape::of(&v.ty).words());
        c.var_slots.push(s);
    }
    let var_words = c.frame.len();
    c.region(&k.body)?;
    c.emit(Inst::Return, k.span);
    Ok(Program {
        insts: c.insts,
        spans: c.spans,
        frame: c.frame,
        var_words,
        barrier_spans: c.barrier_spans,
    })
}

impl Compiler<'_> {
    fn alloc(&mut self, words: usize) -> Slot {
        let s = self.frame.len() as Slot;
        self.frame.resize(self.frame.len() + words, 0);
        s
    }

    fn emit(&mut self, i: Inst, span: Span) -> usize {
        self.insts.push(i);
        self.spans.push(span);
        self.insts.len() - 1
    }

    fn here(&self) -> u32 {
        self.insts.len() as u32
    }

    fn patch(&mut self, at: usize, target: u32) {
        match &mut self.insts[at] {
            Inst::Jump { to } | Inst::Branch { to, .. } => *to = target,
            _ => unreachable!("only jumps are patched"),
        }
    }

    fn region(&mut self, r: &Region) -> Result<(), InterpError> {
        for n in &r.0 {
            self.node(n)?;
        }
        Ok(())
    }

    fn cond(&mut self, (b, op): (BlockId, OpId), span: Span) -> Result<Slot, InterpError> {
        self.block(b)?;
        self.slots
            .get(&(b, op))
            .copied()
            .ok_or_else(|| err(span, "condition op is not in its block"))
    }

    fn node(&mut self, n: &Node) -> Result<(), InterpError> {
        match n {
            Node::Block(b) => self.block(*b),
            Node::If {
                cond,
                then,
                els,
                span,
            } => {
                let c = self.cond(*cond, *span)?;
                let to_else = self.emit(
                    Inst::Branch {
                        c,
                        when: false,
                        to: 0,
                    },
                    *span,
                );
                self.region(then)?;
                if els.0.is_empty() {
                    let h = self.here();
                    self.patch(to_else, h);
                } else {
                    let to_end = self.emit(Inst::Jump { to: 0 }, *span);
                    let h = self.here();
                    self.patch(to_else, h);
                    self.region(els)?;
                    let h = self.here();
                    self.patch(to_end, h);
                }
                Ok(())
            }
            Node::Loop(id) => self.lp(*id),
            Node::Break(l) | Node::Continue(l) => {
                let is_break = matches!(n, Node::Break(_));
                let at = self.emit(Inst::Jump { to: 0 }, self.k.span);
                let Some(labels) = self.loops.iter_mut().rev().find(|x| x.id == *l) else {
                    return Err(err(
                        self.k.span,
                        format!("break/continue of loop L{} outside it", l.0),
                    ));
                };
                if is_break {
                    labels.breaks.push(at);
                } else {
                    labels.continues.push(at);
                }
                Ok(())
            }
            Node::Return => {
                self.emit(Inst::Return, self.k.span);
                Ok(())
            }
        }
    }

    fn lp(&mut self, id: LoopId) -> Result<(), InterpError> {
        let Some(l) = self.k.loops.get(id.0 as usize) else {
            return Err(err(self.k.span, format!("loop L{} does not exist", id.0)));
        };
        let track = self.track.get(id.0 as usize).copied().unwrap_or(false);
        if track {
            self.emit(Inst::LoopEnter { l: id }, l.span);
        }
        self.loops.push(LoopLabels {
            id,
            breaks: Vec::new(),
            continues: Vec::new(),
        });
        let head = self.here();
        if track {
            self.emit(Inst::LoopIter { l: id }, l.span);
        }
        let mut exit_test = None;
        if l.kind == LoopKind::While {
            if let Some(c) = l.cond {
                let s = self.cond(c, l.span)?;
                exit_test = Some(self.emit(
                    Inst::Branch {
                        c: s,
                        when: false,
                        to: 0,
                    },
                    l.span,
                ));
            }
        }
        self.region(&l.body)?;
        let latch = self.here();
        self.region(&l.latch)?;
        match l.kind {
            LoopKind::While => {
                self.emit(Inst::Jump { to: head }, l.span);
            }
            LoopKind::DoWhile => match l.cond {
                Some(c) => {
                    let s = self.cond(c, l.span)?;
                    self.emit(
                        Inst::Branch {
                            c: s,
                            when: true,
                            to: head,
                        },
                        l.span,
                    );
                }
                None => {
                    self.emit(Inst::Jump { to: head }, l.span);
                }
            },
            LoopKind::Once => {}
        }
        let exit = self.here();
        let labels = self.loops.pop().expect("pushed above");
        for b in labels.breaks.into_iter().chain(exit_test) {
            self.patch(b, exit);
        }
        for c in labels.continues {
            self.patch(c, latch);
        }
        if track {
            self.emit(Inst::LoopExit { l: id }, l.span);
        }
        Ok(())
    }

    fn slot(&self, b: BlockId, o: OpId, span: Span) -> Result<Slot, InterpError> {
        self.slots
            .get(&(b, o))
            .copied()
            .ok_or_else(|| err(span, "op uses a value from outside its block"))
    }

    fn block(&mut self, bid: BlockId) -> Result<(), InterpError> {
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
                self.frame[d] = 0;
                self.frame[d + 1] = base_word(Base::Param(i));
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
