//! Declarators, parameter lists, type names, initializers, and the external declarations
//! (functions and globals) of a file.

use super::specs::{addr_space_word, qualifier_word};
use super::{is_reserved_word, Fail, PResult, Parser};
use crate::diag::Span;
use crate::frontend::ast::*;
use crate::frontend::token::Punct;

impl Parser<'_> {
    /// A declarator; `abstract_ok` allows the name to be left out (type names, parameters).
    pub(crate) fn declarator(&mut self, abstract_ok: bool) -> PResult<Declarator> {
        let start = self.peek().span;
        let id = self.declarator_id();
        let (name, derived) = self.declarator_parts(abstract_ok)?;
        if name.is_none() && !abstract_ok {
            let t = self.peek().clone();
            let found = self.describe(&t);
            self.error(t.span, format!("expected an identifier, found {found}"));
            return Err(Fail);
        }
        let mut attrs = Vec::new();
        self.gnu_attributes(&mut attrs)?;
        Ok(Declarator {
            id,
            name,
            derived,
            attrs,
            span: self.span_from(start),
        })
    }

    fn declarator_parts(&mut self, abstract_ok: bool) -> PResult<(Option<Ident>, Vec<Derived>)> {
        let mut pointers = Vec::new();
        while self.is(Punct::Star) {
            let star = self.bump().span;
            let mut quals = TypeQuals::default();
            let mut addr_space = None;
            let mut attrs = Vec::new();
            loop {
                if self.at_gnu_attribute() {
                    self.gnu_attributes(&mut attrs)?;
                    continue;
                }
                let Some(w) = self.peek().ident() else { break };
                match w {
                    "const" | "__const" => quals.is_const = true,
                    "volatile" | "__volatile" => quals.is_volatile = true,
                    "restrict" | "__restrict" | "__restrict__" => quals.is_restrict = true,
                    _ => match addr_space_word(w) {
                        Some(a) => addr_space = Some(a),
                        None => break,
                    },
                }
                self.bump();
            }
            pointers.push(Derived::Pointer {
                quals,
                addr_space,
                attrs,
                span: star,
            });
        }
        let mut name = None;
        let mut inner = Vec::new();
        if self.is(Punct::LParen) && self.paren_is_grouping(abstract_ok) {
            self.bump();
            let (n, d) = self.declarator_parts(abstract_ok)?;
            self.expect(Punct::RParen, "to close the declarator")?;
            name = n;
            inner = d;
        } else if let Some(w) = self.peek().ident().map(str::to_string) {
            let w = w.as_str();
            if !self.is_type_word(w) || !abstract_ok {
                if is_reserved_word(w) {
                    let t = self.bump();
                    self.error(
                        t.span,
                        format!("'{w}' is a reserved word in OpenCL C and cannot be used as an identifier"),
                    );
                    return Err(Fail);
                }
                name = Some(self.expect_ident("an identifier")?);
            }
        }
        let mut suffixes = Vec::new();
        loop {
            if self.is(Punct::LBracket) && !self.at_cxx_attribute() {
                let open = self.bump().span;
                // `static` and qualifiers inside parameter array brackets are C99 decoration.
                while let Some(w) = self.peek().ident() {
                    if w == "static" || qualifier_word(w) {
                        self.bump();
                    } else {
                        break;
                    }
                }
                let size = if self.is(Punct::RBracket) {
                    None
                } else {
                    Some(self.assignment_expr()?)
                };
                self.expect(Punct::RBracket, "to close the array size")?;
                suffixes.push(Derived::Array {
                    size,
                    span: self.span_from(open),
                });
            } else if self.is(Punct::LParen) {
                let open = self.bump().span;
                let (params, variadic) = self.parameter_list()?;
                suffixes.push(Derived::Function {
                    params,
                    variadic,
                    span: self.span_from(open),
                });
            } else {
                break;
            }
        }
        let mut derived = pointers;
        derived.extend(suffixes.into_iter().rev());
        derived.extend(inner);
        Ok((name, derived))
    }

    /// After `(` in a declarator: a nested declarator (`(*p)`) rather than a parameter list?
    fn paren_is_grouping(&self, abstract_ok: bool) -> bool {
        let next = self.peek_at(1);
        if next.is_punct(Punct::Star) || next.is_punct(Punct::LParen) && !abstract_ok {
            return true;
        }
        if next.is_punct(Punct::LBracket) && abstract_ok {
            return true;
        }
        match next.ident() {
            Some(w) if !abstract_ok => !self.is_type_word(w) || w == "__attribute__",
            _ => false,
        }
    }

    fn parameter_list(&mut self) -> PResult<(Vec<ParamDecl>, bool)> {
        let mut params = Vec::new();
        let mut variadic = false;
        if self.is_word("void") && self.peek_at(1).is_punct(Punct::RParen) {
            self.bump();
        }
        while !self.is(Punct::RParen) {
            if self.eat(Punct::Ellipsis) {
                variadic = true;
                break;
            }
            let start = self.peek().span;
            let lead = self.attributes()?;
            let specs = self.decl_specs()?;
            let mut declarator = self.declarator(true)?;
            declarator.attrs.splice(0..0, lead);
            params.push(ParamDecl {
                specs,
                declarator,
                span: self.span_from(start),
            });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen, "to close the parameter list")?;
        Ok((params, variadic))
    }

    /// A type name: specifiers and an abstract declarator (`__global const float *`).
    pub(crate) fn type_name(&mut self) -> PResult<TypeName> {
        let start = self.peek().span;
        let specs = self.decl_specs()?;
        if let Some((_, sp)) = specs.storage {
            self.error(sp, "a storage class is not allowed in a type name");
        }
        let declarator = self.declarator(true)?;
        if let Some(n) = &declarator.name {
            let (sp, nm) = (n.span, n.name.clone());
            self.error(sp, format!("unexpected name '{nm}' in a type name"));
            return Err(Fail);
        }
        Ok(TypeName {
            specs,
            declarator,
            span: self.span_from(start),
        })
    }

    /// The declarators after the specifiers, up to and including the `;`.
    pub(crate) fn declaration_rest(
        &mut self,
        specs: DeclSpecs,
        start: Span,
    ) -> PResult<Declaration> {
        let mut declarators = Vec::new();
        if !self.is(Punct::Semi) {
            loop {
                let d = self.declarator(false)?;
                let init = self.init_declarator_tail(&specs, &d)?;
                declarators.push(InitDeclarator {
                    declarator: d,
                    init,
                });
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
        }
        self.expect(Punct::Semi, "after the declaration")?;
        Ok(Declaration {
            specs,
            declarators,
            span: self.span_from(start),
        })
    }

    /// Declares the name (a typedef name or an ordinary one) and parses `= initializer`.
    fn init_declarator_tail(
        &mut self,
        specs: &DeclSpecs,
        d: &Declarator,
    ) -> PResult<Option<Initializer>> {
        if let Some(n) = &d.name {
            let is_typedef = matches!(specs.storage, Some((StorageClass::Typedef, _)));
            let name = n.name.clone();
            self.declare_name(&name, is_typedef);
        }
        if self.eat(Punct::Assign) {
            return Ok(Some(self.initializer()?));
        }
        Ok(None)
    }

    pub(crate) fn initializer(&mut self) -> PResult<Initializer> {
        if !self.is(Punct::LBrace) {
            return Ok(Initializer::Expr(self.assignment_expr()?));
        }
        let open = self.bump().span;
        let mut items = Vec::new();
        while !self.is(Punct::RBrace) {
            let mut designators = Vec::new();
            loop {
                if self.eat(Punct::Dot) {
                    designators.push(Designator::Field(self.expect_ident("a member name")?));
                } else if self.is(Punct::LBracket) {
                    self.bump();
                    designators.push(Designator::Index(self.conditional_expr()?));
                    self.expect(Punct::RBracket, "to close the designator")?;
                } else {
                    break;
                }
            }
            if !designators.is_empty() {
                self.expect(Punct::Assign, "after the designator")?;
            }
            items.push((designators, self.initializer()?));
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RBrace, "to close the initializer list")?;
        Ok(Initializer::List(items, self.span_from(open)))
    }

    /// A function definition, or a declaration at file scope.
    pub(crate) fn external_declaration(&mut self) -> PResult<Option<Item>> {
        let start = self.peek().span;
        let lead = self.attributes()?;
        let mut specs = self.decl_specs()?;
        specs.attrs.splice(0..0, lead);
        if self.eat(Punct::Semi) {
            return Ok(Some(Item::Decl(Declaration {
                specs,
                declarators: Vec::new(),
                span: self.span_from(start),
            })));
        }
        let first = self.declarator(false)?;
        let is_function = matches!(first.derived.last(), Some(Derived::Function { .. }));
        if is_function && self.is(Punct::LBrace) {
            if let Some(n) = &first.name {
                let name = n.name.clone();
                self.declare_name(&name, false);
            }
            self.push_scope();
            let body = self.compound_statement(Vec::new(), Vec::new());
            self.pop_scope();
            let body = body?;
            return Ok(Some(Item::Function(FunctionDef {
                specs,
                declarator: first,
                body,
                span: self.span_from(start),
            })));
        }
        let init = self.init_declarator_tail(&specs, &first)?;
        let mut declarators = vec![InitDeclarator {
            declarator: first,
            init,
        }];
        while self.eat(Punct::Comma) {
            let d = self.declarator(false)?;
            let init = self.init_declarator_tail(&specs, &d)?;
            declarators.push(InitDeclarator {
                declarator: d,
                init,
            });
        }
        self.expect(Punct::Semi, "after the top-level declarator")?;
        Ok(Some(Item::Decl(Declaration {
            specs,
            declarators,
            span: self.span_from(start),
        })))
    }
}
