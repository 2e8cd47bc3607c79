//! Translates a kernel's regions and blocks into one linear instruction list (see
//! `inst.rs`): blocks in their creation order (a topological order), ifs and loops as
//! jumps, constants and parameter values placed in the frame template once per launch.

use std::collections::HashMap;

use super::inst::{Inst, Program, Slot};
use super::value::Shape;
use super::{ArgValue, InterpError};
use crate::diag::Span;
use crate::ir::{BlockId, Kernel, LoopId, LoopKind, Node, OpId, Region};

struct LoopLabels {
    id: LoopId,
    /// Jumps to patch with the loop's exit / latch address.
    breaks: Vec<usize>,
    continues: Vec<usize>,
}

pub(super) struct Compiler<'k> {
    pub(super) k: &'k Kernel,
    pub(super) args: &'k [ArgValue],
    pub(super) track: Vec<bool>,
    pub(super) insts: Vec<Inst>,
    pub(super) spans: Vec<Span>,
    pub(super) frame: Vec<u64>,
    pub(super) slots: HashMap<(BlockId, OpId), Slot>,
    pub(super) var_slots: Vec<Slot>,
    loops: Vec<LoopLabels>,
    pub(super) barrier_spans: Vec<Span>,
}

pub(super) fn err(span: Span, message: impl Into<String>) -> InterpError {
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
    let mut p = Program {
        insts: c.insts,
        spans: c.spans,
        frame: c.frame,
        var_words,
        barrier_spans: c.barrier_spans,
    };
    super::peephole::optimize(&mut p);
    Ok(p)
}

impl Compiler<'_> {
    pub(super) fn alloc(&mut self, words: usize) -> Slot {
        let s = self.frame.len() as Slot;
        self.frame.resize(self.frame.len() + words, 0);
        s
    }

    pub(super) fn emit(&mut self, i: Inst, span: Span) -> usize {
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
}
