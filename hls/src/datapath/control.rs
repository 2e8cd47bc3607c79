//! Structured control to controller states: blocks run their scheduled states
//! (`sched.rs`), `If` and loops become branch states, `Break`/`Continue`/`Return` jumps.

use std::collections::HashMap;

use super::fsm::{Next, StateId};
use super::Gen;
use crate::diag::Diagnostic;
use crate::ir::{BlockId, LoopId, LoopKind, Node, Region};
use crate::rtl::expr::{BinOp, Expr};

/// Where `Break` and `Continue` of each enclosing loop go.
#[derive(Clone, Default)]
pub struct Targets {
    loops: HashMap<LoopId, (StateId, StateId)>,
}

impl Gen<'_> {
    /// The states of `r`, continuing to `next`; returns its entry state.
    pub fn region(
        &mut self,
        r: &Region,
        next: StateId,
        t: &Targets,
    ) -> Result<StateId, Diagnostic> {
        let mut entry = next;
        for n in r.0.iter().rev() {
            entry = self.node(n, entry, t)?;
        }
        Ok(entry)
    }

    fn node(&mut self, n: &Node, next: StateId, t: &Targets) -> Result<StateId, Diagnostic> {
        match n {
            Node::Block(b) => self.block(*b, next, None),
            Node::If {
                cond, then, els, ..
            } => {
                let br = self.fsm.add();
                let entry = self.block(cond.0, br, Some(cond.1))?;
                let c = self.truth(cond.0, cond.1)?;
                let te = self.region(then, next, t)?;
                let ee = self.region(els, next, t)?;
                self.fsm.goto(br, Next::Branch(c, te, ee));
                Ok(entry)
            }
            Node::Loop(l) => self.lp(*l, next, t),
            Node::Break(l) => self.target(*l, t).map(|x| x.0),
            Node::Continue(l) => self.target(*l, t).map(|x| x.1),
            Node::Return => Ok(self.group_end),
        }
    }

    fn target(&self, l: LoopId, t: &Targets) -> Result<(StateId, StateId), Diagnostic> {
        t.loops.get(&l).copied().ok_or_else(|| {
            Diagnostic::error(self.k.lp(l).span, "break or continue outside its loop")
        })
    }

    /// A condition value as a 1-bit expression.
    fn truth(&self, b: BlockId, o: crate::ir::OpId) -> Result<Expr, Diagnostic> {
        let net = self.value(b, o)?;
        let w = self.m.net(net).width;
        Ok(if w == 1 {
            Expr::Net(net)
        } else {
            Expr::bin(BinOp::Ne, Expr::Net(net), Expr::lit(w, 0))
        })
    }

    fn lp(&mut self, id: LoopId, next: StateId, t: &Targets) -> Result<StateId, Diagnostic> {
        let Some(pl) = self.plan.loops.get(&id) else {
            return self.ordered(id, next, t);
        };
        if pl.overlap.is_empty() {
            return self.pipelined(id, next);
        }
        // Versioned: the pipeline when the buffers it treats as distinct do not overlap,
        // the ordered loop otherwise. The FSM version is generated first: the pipeline
        // rebinds the values of the ops it reads.
        let pairs = pl.overlap.clone();
        let ordered = self.ordered(id, next, t)?;
        let pipe = self.pipelined(id, next)?;
        let ok = self.apart(id, &pairs)?;
        let br = self.fsm.add();
        self.fsm
            .goto(br, Next::Branch(Expr::Net(ok), pipe, ordered));
        Ok(br)
    }

    /// A register that holds while no pair of buffers in `pairs` overlaps (the argument
    /// registers do not change during a run; registered to keep the adders off the
    /// controller's paths).
    fn apart(
        &mut self,
        id: LoopId,
        pairs: &[(u32, u32)],
    ) -> Result<crate::rtl::netlist::NetId, Diagnostic> {
        let span = self.k.lp(id).span;
        let aw = self.cfg.addr_width;
        let port = |g: &Self, n: String| {
            g.m.port(&n).ok_or_else(|| {
                Diagnostic::error(
                    span,
                    format!("internal error: the datapath has no port {n}"),
                )
            })
        };
        let mut all = Expr::lit(1, 1);
        for &(x, y) in pairs {
            let range = |p: u32| -> Result<(Expr, Expr, Expr), Diagnostic> {
                let name = &self.k.params[p as usize].name;
                let base = port(self, format!("{name}_base"))?;
                let size = port(self, format!("{name}_size"))?;
                let start = Expr::zext(Expr::Net(base), 1);
                let end = Expr::bin(
                    BinOp::Add,
                    start.clone(),
                    Expr::zext(Expr::Net(size), aw + 1 - 32),
                );
                let empty = Expr::bin(BinOp::Eq, Expr::Net(size), Expr::lit(32, 0));
                Ok((start, end, empty))
            };
            let (xs, xe, x0) = range(x)?;
            let (ys, ye, y0) = range(y)?;
            let apart = Expr::lor(
                Expr::lor(x0, y0),
                Expr::lor(Expr::bin(BinOp::Le, xe, ys), Expr::bin(BinOp::Le, ye, xs)),
            );
            all = Expr::land(all, apart);
        }
        let ok = self.m.reg(&format!("p{}_apart", id.0), 1);
        let clk = port(self, "clk".into())?;
        let proc = self.m.process(clk, None);
        self.m.update(proc, ok, all, None);
        Ok(ok)
    }

    /// Loop `id` on the controller: one state sequence per iteration.
    fn ordered(&mut self, id: LoopId, next: StateId, t: &Targets) -> Result<StateId, Diagnostic> {
        let l = self.k.lp(id).clone();
        let head = self.fsm.add();
        let br = self.fsm.add();
        let (entry, cond_entry) = match l.cond {
            Some((cb, co)) => (head, self.block(cb, br, Some(co))?),
            None => (head, head),
        };
        let latch_next = match (l.kind, l.cond.is_some()) {
            (LoopKind::Once, _) => next,
            (LoopKind::DoWhile, true) => cond_entry,
            _ => head,
        };
        let latch = self.region(&l.latch, latch_next, t)?;
        let mut inner = t.clone();
        inner.loops.insert(id, (next, latch));
        let body = self.region(&l.body, latch, &inner)?;
        match l.cond {
            Some((cb, co)) => {
                let c = self.truth(cb, co)?;
                self.fsm.goto(br, Next::Branch(c, body, next));
                let first = match l.kind {
                    LoopKind::While => cond_entry,
                    _ => body,
                };
                self.fsm.goto(head, Next::Goto(first));
            }
            None => {
                self.fsm.goto(br, Next::Goto(head));
                self.fsm.goto(head, Next::Goto(body));
            }
        }
        Ok(entry)
    }
}
