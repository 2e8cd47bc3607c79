//! `switch`: a run-once loop (so `break` leaves it) whose statements each run under a
//! `matched` flag: a case label sets the flag when the value equals it, `default` when no
//! case value does; fall-through is the flag staying set, and `default` may stand anywhere.

use crate::diag::Span;
use crate::frontend::ast::{Expr, Stmt, StmtKind};
use crate::frontend::sema::LoopHints;
use crate::ir::{BinOp, CmpOp, LoopKind, Node, OpKind, Ty};

use super::{Jump, Lowerer, Val, R};

/// A label at the top level of a switch body.
#[derive(Clone, Copy)]
enum Label {
    Case(i128),
    Default,
}

impl Lowerer<'_> {
    pub fn switch_stmt(&mut self, s: &Stmt, c: &Expr, body: &Stmt) -> R<()> {
        let span = s.span;
        let sel = self.rvalue(c)?;
        let items: Vec<&Stmt> = match &body.kind {
            StmtKind::Compound(items) => items.iter().collect(),
            _ => vec![body],
        };
        // Each top-level statement with the labels in front of it.
        let mut parts: Vec<(Vec<Label>, &Stmt)> = Vec::new();
        for item in items {
            let mut labels = Vec::new();
            let mut st = item;
            loop {
                match &st.kind {
                    StmtKind::Case(v, inner) => {
                        let Some(x) = self.p.expr(v.id).value else {
                            return self.fail(v.span, "case value is not a constant");
                        };
                        labels.push(Label::Case(x));
                        st = inner;
                    }
                    StmtKind::Default(inner) => {
                        labels.push(Label::Default);
                        st = inner;
                    }
                    StmtKind::Labeled(_, inner) => st = inner,
                    _ => break,
                }
            }
            parts.push((labels, st));
        }
        let cases: Vec<i128> = parts
            .iter()
            .flat_map(|(ls, _)| ls.iter())
            .filter_map(|l| match l {
                Label::Case(v) => Some(*v),
                Label::Default => None,
            })
            .collect();
        let has_default = parts
            .iter()
            .any(|(ls, _)| ls.iter().any(|l| matches!(l, Label::Default)));
        let no_match = if has_default {
            Some(self.no_case_matches(&sel, &cases, span))
        } else {
            None
        };
        let matched = self.k.new_var("matched", Ty::I(1), span);
        let f = self.konst(Ty::I(1), 0, span);
        self.write_var(matched, &f, span);
        let lid = self.new_loop(LoopKind::Once, LoopHints::default(), span);
        self.jumps.push(Jump::Switch(lid));
        self.open_region();
        let r = self.switch_parts(&parts, &sel, no_match.as_ref(), matched, span);
        let region = self.close_region();
        self.jumps.pop();
        r?;
        self.loop_mut(lid).body = region;
        self.push_node(Node::Loop(lid));
        Ok(())
    }

    fn switch_parts(
        &mut self,
        parts: &[(Vec<Label>, &Stmt)],
        sel: &Val,
        no_match: Option<&Val>,
        matched: crate::ir::VarId,
        span: Span,
    ) -> R<()> {
        let mut i = 0;
        while i < parts.len() {
            if self.is_dead() {
                break;
            }
            let (labels, _) = &parts[i];
            if !labels.is_empty() {
                let mut m = self.read_var(matched, span);
                for l in labels {
                    let hit = match l {
                        Label::Case(v) => {
                            let c =
                                self.konst(sel.ty.clone(), *v as u64 & lane_mask(&sel.ty), span);
                            self.op(OpKind::Cmp(CmpOp::Eq), Ty::I(1), span, &[sel, &c])
                        }
                        Label::Default => match no_match {
                            Some(n) => n.clone(),
                            None => continue,
                        },
                    };
                    m = self.op(OpKind::Binary(BinOp::Or), Ty::I(1), span, &[&m, &hit]);
                }
                self.write_var(matched, &m, span);
            }
            // This statement and the unlabeled ones after it run while matched.
            let mut j = i + 1;
            while j < parts.len() && parts[j].0.is_empty() {
                j += 1;
            }
            let m = self.read_var(matched, span);
            let cond = self.cond_of(&m);
            self.open_region();
            let mut r = Ok(());
            for (_, st) in &parts[i..j] {
                r = self.stmt(st);
                if r.is_err() {
                    break;
                }
            }
            let then = self.close_region();
            r?;
            self.push_node(Node::If {
                cond,
                then,
                els: Default::default(),
                span,
            });
            i = j;
        }
        Ok(())
    }

    /// `i1`: the selector equals none of the case values.
    fn no_case_matches(&mut self, sel: &Val, cases: &[i128], span: Span) -> Val {
        let mut acc = self.konst(Ty::I(1), 1, span);
        for v in cases {
            let c = self.konst(sel.ty.clone(), *v as u64 & lane_mask(&sel.ty), span);
            let ne = self.op(OpKind::Cmp(CmpOp::Ne), Ty::I(1), span, &[sel, &c]);
            acc = self.op(OpKind::Binary(BinOp::And), Ty::I(1), span, &[&acc, &ne]);
        }
        acc
    }
}

fn lane_mask(t: &Ty) -> u64 {
    match t.bits() {
        b if b >= 64 => u64::MAX,
        b => (1u64 << b) - 1,
    }
}
