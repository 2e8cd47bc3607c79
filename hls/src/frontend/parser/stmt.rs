//! Statements, with the attributes and `#pragma` lines written before them.

use super::{Fail, PResult, Parser};
use crate::frontend::ast::*;
use crate::frontend::token::{Punct, TokenKind};

impl Parser<'_> {
    /// `{ ... }` with its own scope; errors inside are recovered statement by statement.
    pub(crate) fn compound_statement(
        &mut self,
        attrs: Vec<Attribute>,
        pragmas: Vec<Pragma>,
    ) -> PResult<Stmt> {
        let open = self.expect(Punct::LBrace, "to open a block")?;
        let id = self.stmt_id();
        self.push_scope();
        let mut body = Vec::new();
        while !self.is(Punct::RBrace) && !self.at_eof() {
            let before = self.pos;
            match self.statement() {
                Ok(s) => body.push(s),
                Err(Fail) => self.recover_statement(),
            }
            if self.pos == before {
                self.bump();
            }
        }
        self.pop_scope();
        self.expect(Punct::RBrace, "to close the block")?;
        Ok(Stmt {
            id,
            kind: StmtKind::Compound(body),
            span: self.span_from(open),
            attrs,
            pragmas,
        })
    }

    pub(crate) fn statement(&mut self) -> PResult<Stmt> {
        self.nesting += 1;
        if self.nesting > 256 {
            let at = self.peek().span;
            self.error(at, "statements nested too deeply");
            self.nesting -= 1;
            return Err(Fail);
        }
        let s = self.statement_inner();
        self.nesting -= 1;
        s
    }

    fn statement_inner(&mut self) -> PResult<Stmt> {
        let mut pragmas = Vec::new();
        while let TokenKind::Pragma(toks) = &self.peek().kind {
            pragmas.push(Pragma {
                tokens: toks.clone(),
                span: self.peek().span,
            });
            self.bump();
        }
        if self.is(Punct::RBrace) && !pragmas.is_empty() {
            // A pragma at the end of a block stands alone, as an empty statement.
            let span = pragmas[0].span;
            let id = self.stmt_id();
            return Ok(Stmt {
                id,
                kind: StmtKind::Expr(None),
                span,
                attrs: Vec::new(),
                pragmas,
            });
        }
        let decl_start = self.peek().span;
        let attrs = self.attributes()?;
        // A statement's span starts at its keyword, after any attributes: reports and
        // Verilog comments name the loop's own line.
        let start = self.peek().span;
        if self.at_decl_start() {
            let mut specs = self.decl_specs()?;
            specs.attrs.splice(0..0, attrs);
            let decl = self.declaration_rest(specs, decl_start)?;
            let id = self.stmt_id();
            return Ok(Stmt {
                id,
                span: decl.span,
                kind: StmtKind::Decl(decl),
                attrs: Vec::new(),
                pragmas,
            });
        }
        if self.is(Punct::LBrace) {
            return self.compound_statement(attrs, pragmas);
        }
        let mut kind = self.statement_kind()?;
        let (mut attrs, mut pragmas) = (attrs, pragmas);
        if let StmtKind::Labeled(_, inner) = &mut kind {
            // AMD's examples write `__attribute__((xcl_pipeline_loop)) name: for (...)`:
            // what precedes a label is meant for the statement it labels.
            inner.attrs.splice(0..0, std::mem::take(&mut attrs));
            inner.pragmas.splice(0..0, std::mem::take(&mut pragmas));
        }
        let id = self.stmt_id();
        Ok(Stmt {
            id,
            kind,
            span: self.span_from(start),
            attrs,
            pragmas,
        })
    }

    fn sub_statement(&mut self) -> PResult<Box<Stmt>> {
        Ok(Box::new(self.statement()?))
    }

    fn paren_condition(&mut self, what: &str) -> PResult<Expr> {
        self.expect(Punct::LParen, &format!("after '{what}'"))?;
        let e = self.expression()?;
        self.expect(Punct::RParen, &format!("to close the '{what}' condition"))?;
        Ok(e)
    }

    fn statement_kind(&mut self) -> PResult<StmtKind> {
        let t = self.peek().clone();
        if let Some(w) = t.ident() {
            match w {
                "if" => {
                    self.bump();
                    let cond = self.paren_condition("if")?;
                    let then = self.sub_statement()?;
                    let els = if self.eat_word("else") {
                        Some(self.sub_statement()?)
                    } else {
                        None
                    };
                    return Ok(StmtKind::If(cond, then, els));
                }
                "while" => {
                    self.bump();
                    let cond = self.paren_condition("while")?;
                    return Ok(StmtKind::While(cond, self.sub_statement()?));
                }
                "do" => {
                    self.bump();
                    let body = self.sub_statement()?;
                    if !self.eat_word("while") {
                        let at = self.peek().span;
                        let found = self.describe(self.peek());
                        self.error(
                            at,
                            format!("expected 'while' after the 'do' body, found {found}"),
                        );
                        return Err(Fail);
                    }
                    let cond = self.paren_condition("while")?;
                    self.expect(Punct::Semi, "after 'do ... while (...)'")?;
                    return Ok(StmtKind::DoWhile(body, cond));
                }
                "for" => return self.for_statement(),
                "switch" => {
                    self.bump();
                    let cond = self.paren_condition("switch")?;
                    return Ok(StmtKind::Switch(cond, self.sub_statement()?));
                }
                "case" => {
                    self.bump();
                    let value = self.conditional_expr()?;
                    self.expect(Punct::Colon, "after the case value")?;
                    return Ok(StmtKind::Case(value, self.sub_statement()?));
                }
                "default" => {
                    self.bump();
                    self.expect(Punct::Colon, "after 'default'")?;
                    return Ok(StmtKind::Default(self.sub_statement()?));
                }
                "break" => {
                    self.bump();
                    self.expect(Punct::Semi, "after 'break'")?;
                    return Ok(StmtKind::Break);
                }
                "continue" => {
                    self.bump();
                    self.expect(Punct::Semi, "after 'continue'")?;
                    return Ok(StmtKind::Continue);
                }
                "return" => {
                    self.bump();
                    let value = if self.is(Punct::Semi) {
                        None
                    } else {
                        Some(self.expression()?)
                    };
                    self.expect(Punct::Semi, "after the return statement")?;
                    return Ok(StmtKind::Return(value));
                }
                "goto" => {
                    self.bump();
                    let label = self.expect_ident("a label name")?;
                    self.expect(Punct::Semi, "after the goto statement")?;
                    return Ok(StmtKind::Goto(label));
                }
                _ if self.peek_at(1).is_punct(Punct::Colon) && !super::is_reserved_word(w) => {
                    let label = self.expect_ident("a label")?;
                    self.bump();
                    return Ok(StmtKind::Labeled(label, self.sub_statement()?));
                }
                _ => {}
            }
        }
        if self.eat(Punct::Semi) {
            return Ok(StmtKind::Expr(None));
        }
        let e = self.expression()?;
        self.expect(Punct::Semi, "after the expression")?;
        Ok(StmtKind::Expr(Some(e)))
    }

    fn for_statement(&mut self) -> PResult<StmtKind> {
        self.bump();
        self.expect(Punct::LParen, "after 'for'")?;
        self.push_scope();
        let r = self.for_rest();
        self.pop_scope();
        r
    }

    fn for_rest(&mut self) -> PResult<StmtKind> {
        let init = if self.eat(Punct::Semi) {
            None
        } else if self.at_decl_start() {
            let start = self.peek().span;
            let specs = self.decl_specs()?;
            let decl = self.declaration_rest(specs, start)?;
            let id = self.stmt_id();
            Some(Box::new(Stmt {
                id,
                span: decl.span,
                kind: StmtKind::Decl(decl),
                attrs: Vec::new(),
                pragmas: Vec::new(),
            }))
        } else {
            let e = self.expression()?;
            self.expect(Punct::Semi, "after the 'for' initialiser")?;
            let id = self.stmt_id();
            Some(Box::new(Stmt {
                id,
                span: e.span,
                kind: StmtKind::Expr(Some(e)),
                attrs: Vec::new(),
                pragmas: Vec::new(),
            }))
        };
        let cond = if self.is(Punct::Semi) {
            None
        } else {
            Some(self.expression()?)
        };
        self.expect(Punct::Semi, "after the 'for' condition")?;
        let step = if self.is(Punct::RParen) {
            None
        } else {
            Some(self.expression()?)
        };
        self.expect(Punct::RParen, "to close the 'for' header")?;
        let body = self.sub_statement()?;
        Ok(StmtKind::For {
            init,
            cond,
            step,
            body,
        })
    }
}
