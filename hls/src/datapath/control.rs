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
        if self.plan.loops.contains_key(&id) {
            return self.pipelined(id, next);
        }
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
