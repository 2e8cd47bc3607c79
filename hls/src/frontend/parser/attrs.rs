//! Attribute syntax: `__attribute__((name, name(args)))` and `[[ns::name(args)]]`.
//! Only the syntax is handled here; the checker validates names, places and arguments.

use super::{Fail, PResult, Parser};
use crate::frontend::ast::{AttrArg, AttrSyntax, Attribute};
use crate::frontend::token::{Punct, TokenKind};

impl Parser<'_> {
    pub(crate) fn at_gnu_attribute(&self) -> bool {
        self.is_word("__attribute__") || self.is_word("__attribute")
    }

    pub(crate) fn at_cxx_attribute(&self) -> bool {
        self.is(Punct::LBracket) && self.peek_at(1).is_punct(Punct::LBracket)
    }

    /// Parses any run of GNU and C++11 attribute lists.
    pub(crate) fn attributes(&mut self) -> PResult<Vec<Attribute>> {
        let mut out = Vec::new();
        loop {
            if self.at_gnu_attribute() {
                self.gnu_attribute_list(&mut out)?;
            } else if self.at_cxx_attribute() {
                self.cxx_attribute_list(&mut out)?;
            } else {
                return Ok(out);
            }
        }
    }

    /// Parses GNU attribute lists only (C++11 lists are not allowed after declarators).
    pub(crate) fn gnu_attributes(&mut self, out: &mut Vec<Attribute>) -> PResult<()> {
        while self.at_gnu_attribute() {
            self.gnu_attribute_list(out)?;
        }
        Ok(())
    }

    fn gnu_attribute_list(&mut self, out: &mut Vec<Attribute>) -> PResult<()> {
        self.bump();
        self.expect(Punct::LParen, "after '__attribute__'")?;
        self.expect(Punct::LParen, "after '__attribute__('")?;
        loop {
            if self.is(Punct::RParen) {
                break;
            }
            if self.eat(Punct::Comma) {
                continue;
            }
            let attr = self.one_attribute(AttrSyntax::Gnu, None)?;
            out.push(attr);
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen, "to close the attribute list")?;
        self.expect(Punct::RParen, "to close '__attribute__(('")?;
        Ok(())
    }

    fn cxx_attribute_list(&mut self, out: &mut Vec<Attribute>) -> PResult<()> {
        self.bump();
        self.bump();
        loop {
            if self.is(Punct::RBracket) {
                break;
            }
            if self.eat(Punct::Comma) {
                continue;
            }
            // `ns::name` or `name`.
            let first = self.peek().clone();
            let mut namespace = None;
            if first.ident().is_some() && self.peek_at(1).is_punct(Punct::ColonColon) {
                namespace = first.ident().map(str::to_string);
                self.bump();
                self.bump();
            }
            let attr = self.one_attribute(AttrSyntax::Cxx11, namespace)?;
            out.push(attr);
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RBracket, "to close the attribute list")?;
        if !self.is(Punct::RBracket) {
            let at = self.after_prev();
            self.error(at, "expected ']]' to close the attribute list");
            return Err(Fail);
        }
        self.bump();
        Ok(())
    }

    fn one_attribute(
        &mut self,
        syntax: AttrSyntax,
        namespace: Option<String>,
    ) -> PResult<Attribute> {
        let t = self.peek().clone();
        let raw = match &t.kind {
            TokenKind::Ident(s) => s.clone(),
            _ => {
                let found = self.describe(&t);
                self.error(t.span, format!("expected an attribute name, found {found}"));
                return Err(Fail);
            }
        };
        self.bump();
        let name = normalize_name(&raw);
        let mut args = None;
        if self.is(Punct::LParen) {
            self.bump();
            let mut list = Vec::new();
            while !self.is(Punct::RParen) {
                list.push(self.attribute_arg(&name)?);
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::RParen, "to close the attribute arguments")?;
            args = Some(list);
        }
        let span = self.span_from(t.span);
        Ok(Attribute {
            syntax,
            namespace,
            name,
            name_span: t.span,
            args,
            span,
        })
    }

    fn attribute_arg(&mut self, attr: &str) -> PResult<AttrArg> {
        if attr == "vec_type_hint" && self.at_type_name_start() {
            return Ok(AttrArg::Type(self.type_name()?));
        }
        Ok(AttrArg::Expr(self.assignment_expr()?))
    }
}

/// GNU lets every attribute be written `__name__`; the checker sees `name`.
fn normalize_name(raw: &str) -> String {
    if raw.len() > 4 && raw.starts_with("__") && raw.ends_with("__") {
        raw[2..raw.len() - 2].to_string()
    } else {
        raw.to_string()
    }
}
