//! Expressions by precedence climbing, plus casts, vector literals, `sizeof`,
//! `__alignof__` and `vec_step`.

use super::{Fail, PResult, Parser};
use crate::frontend::ast::*;
use crate::frontend::token::{Punct, TokenKind};

/// Binary operators with their precedence (higher binds tighter).
fn binary_op(p: Punct) -> Option<(BinaryOp, u8)> {
    use BinaryOp::*;
    Some(match p {
        Punct::PipePipe => (LogOr, 1),
        Punct::AmpAmp => (LogAnd, 2),
        Punct::Pipe => (BitOr, 3),
        Punct::Caret => (BitXor, 4),
        Punct::Amp => (BitAnd, 5),
        Punct::EqEq => (Eq, 6),
        Punct::Ne => (Ne, 6),
        Punct::Lt => (Lt, 7),
        Punct::Gt => (Gt, 7),
        Punct::Le => (Le, 7),
        Punct::Ge => (Ge, 7),
        Punct::Shl => (Shl, 8),
        Punct::Shr => (Shr, 8),
        Punct::Plus => (Add, 9),
        Punct::Minus => (Sub, 9),
        Punct::Star => (Mul, 10),
        Punct::Slash => (Div, 10),
        Punct::Percent => (Rem, 10),
        _ => return None,
    })
}

fn assign_op(p: Punct) -> Option<Option<BinaryOp>> {
    use BinaryOp::*;
    Some(match p {
        Punct::Assign => None,
        Punct::StarAssign => Some(Mul),
        Punct::SlashAssign => Some(Div),
        Punct::PercentAssign => Some(Rem),
        Punct::PlusAssign => Some(Add),
        Punct::MinusAssign => Some(Sub),
        Punct::ShlAssign => Some(Shl),
        Punct::ShrAssign => Some(Shr),
        Punct::AmpAssign => Some(BitAnd),
        Punct::CaretAssign => Some(BitXor),
        Punct::PipeAssign => Some(BitOr),
        _ => return None,
    })
}

/// Nesting limit for expressions: deeper input is reported instead of overflowing the stack.
const MAX_DEPTH: u32 = 256;

impl Parser<'_> {
    /// A full expression, commas included.
    pub(crate) fn expression(&mut self) -> PResult<Expr> {
        let mut e = self.assignment_expr()?;
        while self.is(Punct::Comma) {
            self.bump();
            let rhs = self.assignment_expr()?;
            let span = self.sm.join(e.span, rhs.span);
            e = self.expr(ExprKind::Comma(Box::new(e), Box::new(rhs)), span);
        }
        Ok(e)
    }

    pub(crate) fn assignment_expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.assignment_inner();
        self.leave();
        r
    }

    fn assignment_inner(&mut self) -> PResult<Expr> {
        let lhs = self.conditional_expr()?;
        let op = match &self.peek().kind {
            TokenKind::Punct(p) => assign_op(*p),
            _ => None,
        };
        let Some(op) = op else { return Ok(lhs) };
        self.bump();
        let rhs = self.assignment_expr()?;
        let span = self.sm.join(lhs.span, rhs.span);
        Ok(self.expr(ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)), span))
    }

    pub(crate) fn conditional_expr(&mut self) -> PResult<Expr> {
        let cond = self.binary_expr(1)?;
        if !self.eat(Punct::Question) {
            return Ok(cond);
        }
        let then = self.expression()?;
        self.expect(Punct::Colon, "in the conditional expression")?;
        let els = self.conditional_expr_nested()?;
        let span = self.sm.join(cond.span, els.span);
        Ok(self.expr(
            ExprKind::Cond(Box::new(cond), Box::new(then), Box::new(els)),
            span,
        ))
    }

    fn conditional_expr_nested(&mut self) -> PResult<Expr> {
        self.enter()?;
        let r = self.conditional_expr();
        self.leave();
        r
    }

    fn binary_expr(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.cast_expr()?;
        while let Some((op, prec)) = match &self.peek().kind {
            TokenKind::Punct(p) => binary_op(*p),
            _ => None,
        } {
            if prec < min_prec {
                break;
            }
            self.bump();
            self.enter()?;
            let rhs = self.binary_expr(prec + 1);
            self.leave();
            let rhs = rhs?;
            let span = self.sm.join(lhs.span, rhs.span);
            lhs = self.expr(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span);
        }
        Ok(lhs)
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let at = self.peek().span;
            self.error(at, "expression nested too deeply");
            self.depth -= 1;
            return Err(Fail);
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// `(type) expr`, `(vector)(a, b, ...)`, or a unary expression.
    fn cast_expr(&mut self) -> PResult<Expr> {
        if !(self.is(Punct::LParen) && self.peek_at(1).ident().is_some()) {
            return self.unary_expr();
        }
        let save = self.pos;
        self.bump();
        if !self.at_type_name_start() {
            self.pos = save;
            return self.unary_expr();
        }
        let open = self.prev_span();
        let ty = self.type_name()?;
        self.expect(Punct::RParen, "to close the cast")?;
        let syntactic_vector =
            matches!(ty.specs.ty, TypeSpec::Vector(..)) && ty.declarator.derived.is_empty();
        let maybe_vector = syntactic_vector
            || (matches!(ty.specs.ty, TypeSpec::Named(_)) && ty.declarator.derived.is_empty());
        if maybe_vector && self.is(Punct::LParen) {
            let list_open = self.bump().span;
            let mut parts = Vec::new();
            loop {
                parts.push(self.assignment_expr()?);
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::RParen, "to close the vector literal")?;
            let span = self.span_from(open);
            if parts.len() == 1 && !syntactic_vector {
                // `(T)(x)` with a typedef name T: an ordinary cast of a parenthesised value.
                let inner = parts.pop().ok_or(Fail)?;
                let _ = list_open;
                let e = self.expr(ExprKind::Cast(Box::new(ty), Box::new(inner)), span);
                return self.postfix_tail(e);
            }
            let e = self.expr(ExprKind::VectorLit(Box::new(ty), parts), span);
            return self.postfix_tail(e);
        }
        self.enter()?;
        let operand = self.cast_expr();
        self.leave();
        let operand = operand?;
        let span = self.sm.join(open, operand.span);
        Ok(self.expr(ExprKind::Cast(Box::new(ty), Box::new(operand)), span))
    }

    fn unary_expr(&mut self) -> PResult<Expr> {
        let t = self.peek().clone();
        let op = match &t.kind {
            TokenKind::Punct(Punct::PlusPlus) => Some(UnaryOp::PreInc),
            TokenKind::Punct(Punct::MinusMinus) => Some(UnaryOp::PreDec),
            TokenKind::Punct(Punct::Amp) => Some(UnaryOp::AddrOf),
            TokenKind::Punct(Punct::Star) => Some(UnaryOp::Deref),
            TokenKind::Punct(Punct::Plus) => Some(UnaryOp::Plus),
            TokenKind::Punct(Punct::Minus) => Some(UnaryOp::Neg),
            TokenKind::Punct(Punct::Tilde) => Some(UnaryOp::BitNot),
            TokenKind::Punct(Punct::Bang) => Some(UnaryOp::Not),
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            self.enter()?;
            // `++`/`--` take a unary expression; the others a cast expression.
            let operand = if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
                self.unary_expr()
            } else {
                self.cast_expr()
            };
            self.leave();
            let operand = operand?;
            let span = self.sm.join(t.span, operand.span);
            return Ok(self.expr(ExprKind::Unary(op, Box::new(operand)), span));
        }
        if let Some(w) = t.ident() {
            match w {
                "sizeof" => return self.type_or_expr_operator(TypeOrExprOp::Sizeof),
                "__alignof__" | "_Alignof" | "__alignof" => {
                    return self.type_or_expr_operator(TypeOrExprOp::Alignof)
                }
                "vec_step" => return self.type_or_expr_operator(TypeOrExprOp::VecStep),
                _ => {}
            }
        }
        let e = self.primary_expr()?;
        self.postfix_tail(e)
    }

    fn type_or_expr_operator(&mut self, which: TypeOrExprOp) -> PResult<Expr> {
        let kw = self.bump().span;
        if self.is(Punct::LParen) && {
            let save = self.pos;
            self.bump();
            let is_type = self.at_type_name_start();
            self.pos = save;
            is_type
        } {
            self.bump();
            let ty = Box::new(self.type_name()?);
            self.expect(Punct::RParen, "to close the type")?;
            let span = self.span_from(kw);
            let kind = match which {
                TypeOrExprOp::Sizeof => ExprKind::SizeofType(ty),
                TypeOrExprOp::Alignof => ExprKind::AlignofType(ty),
                TypeOrExprOp::VecStep => ExprKind::VecStepType(ty),
            };
            return Ok(self.expr(kind, span));
        }
        self.enter()?;
        let operand = self.unary_expr();
        self.leave();
        let operand = Box::new(operand?);
        let span = self.sm.join(kw, operand.span);
        let kind = match which {
            TypeOrExprOp::Sizeof => ExprKind::SizeofExpr(operand),
            TypeOrExprOp::Alignof => ExprKind::AlignofExpr(operand),
            TypeOrExprOp::VecStep => ExprKind::VecStepExpr(operand),
        };
        Ok(self.expr(kind, span))
    }

    /// Postfix operators after a primary expression: calls, indexing, members, `++`/`--`.
    fn postfix_tail(&mut self, mut e: Expr) -> PResult<Expr> {
        loop {
            let t = self.peek().clone();
            match &t.kind {
                TokenKind::Punct(Punct::LParen) => {
                    self.bump();
                    let mut args = Vec::new();
                    while !self.is(Punct::RParen) {
                        args.push(self.assignment_expr()?);
                        if !self.eat(Punct::Comma) {
                            break;
                        }
                    }
                    self.expect(Punct::RParen, "to close the argument list")?;
                    let span = self.span_from(e.span);
                    e = self.expr(ExprKind::Call(Box::new(e), args), span);
                }
                TokenKind::Punct(Punct::LBracket) => {
                    self.bump();
                    let idx = self.expression()?;
                    self.expect(Punct::RBracket, "to close the subscript")?;
                    let span = self.span_from(e.span);
                    e = self.expr(ExprKind::Index(Box::new(e), Box::new(idx)), span);
                }
                TokenKind::Punct(p @ (Punct::Dot | Punct::Arrow)) => {
                    let arrow = *p == Punct::Arrow;
                    self.bump();
                    let member = self.member_name()?;
                    let span = self.sm.join(e.span, member.span);
                    e = self.expr(
                        ExprKind::Member {
                            base: Box::new(e),
                            arrow,
                            member,
                        },
                        span,
                    );
                }
                TokenKind::Punct(p @ (Punct::PlusPlus | Punct::MinusMinus)) => {
                    let op = if *p == Punct::PlusPlus {
                        UnaryOp::PostInc
                    } else {
                        UnaryOp::PostDec
                    };
                    self.bump();
                    let span = self.sm.join(e.span, t.span);
                    e = self.expr(ExprKind::Unary(op, Box::new(e)), span);
                }
                _ => return Ok(e),
            }
        }
    }

    /// A member or swizzle name: `.x`, `.s01` and `.lo` are all plain identifiers here;
    /// `.s0` style names may arrive as identifiers, `.0`-style never occur in OpenCL C.
    fn member_name(&mut self) -> PResult<Ident> {
        let t = self.peek().clone();
        if let TokenKind::Ident(name) = &t.kind {
            self.bump();
            return Ok(Ident {
                name: name.clone(),
                span: t.span,
            });
        }
        let found = self.describe(&t);
        self.error(
            t.span,
            format!("expected a member name after '.', found {found}"),
        );
        Err(Fail)
    }

    fn primary_expr(&mut self) -> PResult<Expr> {
        let t = self.peek().clone();
        match &t.kind {
            TokenKind::Ident(name) if name == "true" || name == "false" => {
                self.bump();
                Ok(self.expr(ExprKind::BoolLit(name == "true"), t.span))
            }
            TokenKind::Ident(name) => {
                if super::is_reserved_word(name) {
                    self.error(t.span, format!("expected an expression, found '{name}'"));
                    return Err(Fail);
                }
                self.bump();
                Ok(self.expr(
                    ExprKind::Ident(Ident {
                        name: name.clone(),
                        span: t.span,
                    }),
                    t.span,
                ))
            }
            TokenKind::Int(text) => {
                self.bump();
                match super::literal::parse_int(text) {
                    Ok((value, unsigned, long, decimal)) => Ok(self.expr(
                        ExprKind::IntLit {
                            value,
                            unsigned,
                            long,
                            decimal,
                        },
                        t.span,
                    )),
                    Err(msg) => {
                        self.error(t.span, msg);
                        Ok(self.expr(
                            ExprKind::IntLit {
                                value: 0,
                                unsigned: false,
                                long: false,
                                decimal: true,
                            },
                            t.span,
                        ))
                    }
                }
            }
            TokenKind::Float(text) => {
                self.bump();
                match super::literal::parse_float(text) {
                    Ok((text, suffix)) => {
                        Ok(self.expr(ExprKind::FloatLit { text, suffix }, t.span))
                    }
                    Err(msg) => {
                        self.error(t.span, msg);
                        Ok(self.expr(
                            ExprKind::FloatLit {
                                text: "0".into(),
                                suffix: FloatSuffix::F,
                            },
                            t.span,
                        ))
                    }
                }
            }
            TokenKind::Char(text) => {
                self.bump();
                let v = match super::literal::parse_char(text) {
                    Ok(v) => v,
                    Err(msg) => {
                        self.error(t.span, msg);
                        0
                    }
                };
                Ok(self.expr(ExprKind::CharLit(v), t.span))
            }
            TokenKind::Str(_) => {
                let mut bytes = Vec::new();
                let start = t.span;
                while let TokenKind::Str(text) = &self.peek().kind {
                    let (text, sp) = (text.clone(), self.peek().span);
                    self.bump();
                    match super::literal::parse_string(&text) {
                        Ok(b) => bytes.extend(b),
                        Err(msg) => self.error(sp, msg),
                    }
                }
                let span = self.span_from(start);
                Ok(self.expr(ExprKind::StrLit(bytes), span))
            }
            TokenKind::Punct(Punct::LParen) => {
                self.bump();
                let e = self.expression()?;
                self.expect(Punct::RParen, "to close the parenthesised expression")?;
                Ok(e)
            }
            _ => {
                let found = self.describe(&t);
                self.error(t.span, format!("expected an expression, found {found}"));
                Err(Fail)
            }
        }
    }
}

#[derive(Clone, Copy)]
enum TypeOrExprOp {
    Sizeof,
    Alignof,
    VecStep,
}
