//! Statements: blocks, `if`, loops with their hints (a `for` step in the latch),
//! `break`/`continue`/`return`, and the constructs hardware cannot have (`goto`).

use crate::diag::Span;
use crate::frontend::ast::{Expr, Stmt, StmtKind};
use crate::ir::{BinOp, BlockId, LoopId, LoopKind, Node, OpId, OpKind, Region, Ty, VarId};

use super::{Jump, Lowerer, RetSlot, Val, R};

impl Lowerer<'_> {
    pub fn stmt(&mut self, s: &Stmt) -> R<()> {
        if self.is_dead() {
            // After break/continue/return nothing in this region runs (case labels are
            // only supported at the top of a switch body, where regions start afresh).
            return Ok(());
        }
        match &s.kind {
            StmtKind::Expr(Some(e)) => self.effect_expr(e),
            StmtKind::Expr(None) => Ok(()),
            StmtKind::Decl(d) => self.declaration(d),
            StmtKind::Compound(items) => {
                for i in items {
                    self.stmt(i)?;
                }
                Ok(())
            }
            StmtKind::If(c, t, f) => {
                let cv = self.rvalue(c)?;
                let cond = self.cond_of(&cv);
                let then = self.sub_region(t)?;
                let els = match f {
                    Some(f) => self.sub_region(f)?,
                    None => Region::default(),
                };
                self.push_node(Node::If { cond, then, els, span: s.span });
                Ok(())
            }
            StmtKind::While(c, body) => self.loop_stmt(s, LoopKind::While, Some(c), None, body),
            StmtKind::DoWhile(body, c) => self.loop_stmt(s, LoopKind::DoWhile, Some(c), None, body),
            StmtKind::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.stmt(i)?;
                }
                self.loop_stmt(s, LoopKind::While, cond.as_ref(), step.as_ref(), body)
            }
            StmtKind::Switch(c, body) => self.switch_stmt(s, c, body),
            StmtKind::Case(..) | StmtKind::Default(_) => {
                self.fail(s.span, "a case label inside a nested statement of its switch is not supported in hardware kernels")
            }
            StmtKind::Break => {
                let target = match self.jumps.last() {
                    Some(Jump::Loop(l) | Jump::Switch(l)) => Some(*l),
                    _ => None,
                };
                match target {
                    Some(l) => {
                        self.push_jump(Node::Break(l));
                        Ok(())
                    }
                    None => self.fail(s.span, "'break' outside a loop or switch"),
                }
            }
            StmtKind::Continue => {
                let target = self.jumps.iter().rev().find_map(|j| match j {
                    Jump::Loop(l) => Some(Some(*l)),
                    Jump::Switch(_) => None,
                    Jump::Function => Some(None),
                });
                match target.flatten() {
                    Some(l) => {
                        self.push_jump(Node::Continue(l));
                        Ok(())
                    }
                    None => self.fail(s.span, "'continue' outside a loop"),
                }
            }
            StmtKind::Return(v) => self.return_stmt(v.as_ref(), s.span),
            StmtKind::Goto(_) => self.fail(s.span, "goto is not supported in hardware kernels"),
            StmtKind::Labeled(_, body) => self.stmt(body),
        }
    }

    /// A statement lowered into a region of its own (an `if` arm, a loop body).
    pub fn sub_region(&mut self, s: &Stmt) -> R<Region> {
        self.open_region();
        let r = self.stmt(s);
        let region = self.close_region();
        r.map(|_| region)
    }

    fn loop_stmt(
        &mut self,
        s: &Stmt,
        kind: LoopKind,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &Stmt,
    ) -> R<()> {
        let hints = self.p.loop_hints.get(&s.id).cloned().unwrap_or_default();
        let lid = self.new_loop(kind, hints, s.span);
        // A `while`/`for` test that needs control flow of its own (a short-circuit with
        // a load) runs at the top of the body and breaks out when false.
        let mut prefix = None;
        let mut simple = None;
        if kind == LoopKind::While {
            if let Some(c) = cond {
                match self.test_region(c)? {
                    Ok(blk) => simple = Some(blk),
                    Err(pending) => prefix = Some(pending),
                }
            }
        }
        self.jumps.push(Jump::Loop(lid));
        self.loop_depth += 1;
        self.open_region();
        if let Some((region, v)) = prefix {
            self.splice_exit_test(region, &v, lid, s.span);
        }
        let r = self.stmt(body);
        let body_region = self.close_region();
        self.jumps.pop();
        self.loop_depth -= 1;
        r?;
        self.open_region();
        if let Some(st) = step {
            self.effect_expr(st)?;
        }
        if kind == LoopKind::DoWhile {
            if let Some(c) = cond {
                // The test runs after the latch: computed there into a variable when it
                // needs control flow, else the test block reads it directly.
                match self.test_region(c)? {
                    Ok(blk) => simple = Some(blk),
                    Err((region, tv)) => {
                        let v = self.k.new_var("test", Ty::I(1), c.span);
                        self.splice_value(region, &tv, v, c.span);
                        let b = self.start_detached();
                        let t = self.read_var(v, c.span);
                        self.end_detached();
                        simple = Some((b, t.op));
                    }
                }
            }
        }
        let latch = self.close_region();
        let l = self.loop_mut(lid);
        l.cond = simple;
        l.body = body_region;
        l.latch = latch;
        self.push_node(Node::Loop(lid));
        Ok(())
    }

    /// Lowers a loop test: `Ok` its block and `i1` op when it is one straight-line block,
    /// else `Err` the region computing it, ending in the test value's block.
    fn test_region(&mut self, c: &Expr) -> R<Result<(BlockId, OpId), (Region, Val)>> {
        self.open_region();
        let v = self.rvalue(c);
        let region = self.close_region();
        let v = v?;
        if let [Node::Block(b)] = region.0.as_slice() {
            if *b == v.block {
                return Ok(Ok((v.block, v.op)));
            }
        }
        Ok(Err((region, v)))
    }

    /// Places a test region, then `if (!test) break L`.
    fn splice_exit_test(&mut self, region: Region, v: &Val, lid: LoopId, span: Span) {
        for n in region.0 {
            self.push_node(n);
        }
        let b = self.start_detached();
        let x = self.get(v);
        let one = self
            .k
            .block_mut(b)
            .add(OpKind::Const(vec![1]), Some(Ty::I(1)), span, &[]);
        let not =
            self.k
                .block_mut(b)
                .add(OpKind::Binary(BinOp::Xor), Some(Ty::I(1)), span, &[x, one]);
        self.end_detached();
        let then = Region(vec![Node::Break(lid)]);
        self.push_node(Node::If {
            cond: (b, not),
            then,
            els: Region::default(),
            span,
        });
    }

    /// Places a test region and writes its value to `var`.
    fn splice_value(&mut self, region: Region, v: &Val, var: VarId, span: Span) {
        for n in region.0 {
            self.push_node(n);
        }
        self.write_var(var, v, span);
    }

    fn return_stmt(&mut self, v: Option<&Expr>, span: Span) -> R<()> {
        let Some((ret, once, top)) = self.frame().map(|f| (f.ret, f.once, f.top)) else {
            return self.fail(span, "'return' outside a function");
        };
        if let Some(e) = v {
            match ret {
                Some(RetSlot::Var(var)) => {
                    let x = self.rvalue(e)?;
                    self.write_var(var, &x, span);
                }
                Some(RetSlot::Object(o)) => {
                    let src = self.rvalue(e)?;
                    let obj = self.k.object(o);
                    let (size, align, space) = (obj.size, obj.align, obj.space);
                    let dst = self.op(OpKind::ObjectAddr(o), Ty::Ptr(space), span, &[]);
                    self.copy_bytes(&dst, space, &src, size, align, span)?;
                }
                None => self.effect_expr(e)?,
            }
        }
        if top {
            self.push_jump(Node::Return);
        } else if let Some(l) = once {
            self.push_jump(Node::Break(l));
        }
        Ok(())
    }
}
