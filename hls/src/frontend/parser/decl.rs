//! Declarations: specifiers, struct/union/enum bodies, declarators, initializers, type
//! names, and the external declarations (functions and globals) of a file.

use super::{is_reserved_word, Fail, PResult, Parser};
use crate::diag::Span;
use crate::frontend::ast::*;
use crate::frontend::token::{Punct, TokenKind};
use crate::frontend::types::{builtin_type_from_name, AddrSpace, Scalar, Type};

/// Opaque OpenCL types: accepted in declarations, never computed with.
const OPAQUE_TYPES: &[&str] = &[
    "event_t",
    "sampler_t",
    "image1d_t",
    "image1d_array_t",
    "image1d_buffer_t",
    "image2d_t",
    "image2d_array_t",
    "image2d_depth_t",
    "image3d_t",
    "queue_t",
    "clk_event_t",
    "reserve_id_t",
    "ndrange_t",
    "pipe",
];

/// The base-type words of C that combine (`unsigned long int`).
const BASIC_TYPE_WORDS: &[&str] = &[
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "half",
    "bool",
    "_Bool",
    "signed",
    "__signed",
    "__signed__",
    "unsigned",
];

fn addr_space_word(w: &str) -> Option<AddrSpace> {
    Some(match w {
        "__global" | "global" => AddrSpace::Global,
        "__local" | "local" => AddrSpace::Local,
        "__constant" | "constant" => AddrSpace::Constant,
        "__private" | "private" => AddrSpace::Private,
        "__generic" | "generic" => AddrSpace::Generic,
        _ => return None,
    })
}

fn access_word(w: &str) -> Option<AccessQual> {
    Some(match w {
        "__read_only" | "read_only" => AccessQual::ReadOnly,
        "__write_only" | "write_only" => AccessQual::WriteOnly,
        "__read_write" | "read_write" => AccessQual::ReadWrite,
        _ => return None,
    })
}

fn storage_word(w: &str) -> Option<StorageClass> {
    Some(match w {
        "typedef" => StorageClass::Typedef,
        "extern" => StorageClass::Extern,
        "static" => StorageClass::Static,
        "auto" => StorageClass::Auto,
        "register" => StorageClass::Register,
        _ => return None,
    })
}

fn qualifier_word(w: &str) -> bool {
    matches!(
        w,
        "const"
            | "__const"
            | "volatile"
            | "__volatile"
            | "restrict"
            | "__restrict"
            | "__restrict__"
    )
}

/// The type words seen while reading specifiers, resolved once they are all read.
#[derive(Default)]
struct BasicWords {
    words: Vec<String>,
    span: Option<Span>,
}

impl Parser<'_> {
    /// Whether the current token can begin a declaration (used at statement starts).
    pub(crate) fn at_decl_start(&self) -> bool {
        if self.at_gnu_attribute() {
            return true;
        }
        let Some(w) = self.peek().ident() else {
            return false;
        };
        if storage_word(w).is_some()
            || matches!(
                w,
                "__kernel" | "kernel" | "inline" | "__inline" | "__inline__"
            )
        {
            return true;
        }
        if self.is_type_word(w) {
            // `T:` would be a label named like a typedef; labels win there.
            return !self.peek_at(1).is_punct(Punct::Colon);
        }
        false
    }

    /// Whether the current token can begin a type name (casts, sizeof, attribute arguments).
    pub(crate) fn at_type_name_start(&self) -> bool {
        match self.peek().ident() {
            Some(w) => self.is_type_word(w),
            None => false,
        }
    }

    fn is_type_word(&self, w: &str) -> bool {
        BASIC_TYPE_WORDS.contains(&w)
            || qualifier_word(w)
            || addr_space_word(w).is_some()
            || access_word(w).is_some()
            || matches!(w, "struct" | "union" | "enum")
            || OPAQUE_TYPES.contains(&w)
            || builtin_type_from_name(w).is_some()
            || self.is_typedef_name(w)
    }

    /// Declaration specifiers, attributes among them included.
    pub(crate) fn decl_specs(&mut self) -> PResult<DeclSpecs> {
        let start = self.peek().span;
        let mut specs = DeclSpecs {
            storage: None,
            kernel: None,
            inline: false,
            quals: TypeQuals::default(),
            addr_space: None,
            access: None,
            ty: TypeSpec::Void,
            attrs: Vec::new(),
            span: start,
        };
        let mut basic = BasicWords::default();
        let mut ty: Option<TypeSpec> = None;
        loop {
            if self.at_gnu_attribute() {
                let mut attrs = Vec::new();
                self.gnu_attributes(&mut attrs)?;
                specs.attrs.extend(attrs);
                continue;
            }
            let t = self.peek().clone();
            let Some(w) = t.ident() else { break };
            let have_type = ty.is_some() || !basic.words.is_empty();
            if let Some(sc) = storage_word(w) {
                if specs.storage.is_some() {
                    self.error(t.span, "more than one storage class");
                }
                specs.storage = Some((sc, t.span));
            } else if matches!(w, "__kernel" | "kernel") {
                // `int kernel = 3;`: the reserved word is being used as a name.
                if have_type && self.kernel_used_as_name() {
                    self.error(
                        t.span,
                        format!("'{w}' is a reserved word in OpenCL C and cannot be used as an identifier"),
                    );
                    self.bump();
                    return Err(Fail);
                }
                specs.kernel = Some(t.span);
            } else if matches!(w, "inline" | "__inline" | "__inline__") {
                specs.inline = true;
            } else if qualifier_word(w) {
                match w {
                    "const" | "__const" => specs.quals.is_const = true,
                    "volatile" | "__volatile" => specs.quals.is_volatile = true,
                    _ => specs.quals.is_restrict = true,
                }
            } else if let Some(a) = addr_space_word(w) {
                if let Some((prev, _)) = specs.addr_space {
                    if prev != a {
                        self.error(t.span, "conflicting address space qualifiers");
                    }
                }
                specs.addr_space = Some((a, t.span));
            } else if let Some(a) = access_word(w) {
                specs.access = Some((a, t.span));
            } else if BASIC_TYPE_WORDS.contains(&w) {
                if ty.is_some() {
                    self.error(
                        t.span,
                        format!("cannot combine '{w}' with the type before it"),
                    );
                    return Err(Fail);
                }
                basic.span = Some(basic.span.map_or(t.span, |s| self.sm.join(s, t.span)));
                basic.words.push(w.to_string());
            } else if matches!(w, "struct" | "union") {
                if have_type {
                    self.error(
                        t.span,
                        format!("cannot combine '{w}' with the type before it"),
                    );
                    return Err(Fail);
                }
                ty = Some(TypeSpec::Record(Box::new(self.record_spec()?)));
                continue;
            } else if w == "enum" {
                if have_type {
                    self.error(t.span, "cannot combine 'enum' with the type before it");
                    return Err(Fail);
                }
                ty = Some(TypeSpec::Enum(Box::new(self.enum_spec()?)));
                continue;
            } else if !have_type {
                if let Some(name) = OPAQUE_TYPES.iter().find(|n| **n == w) {
                    ty = Some(TypeSpec::Opaque(name, t.span));
                } else if let Some(bt) = builtin_type_from_name(w) {
                    ty = Some(match bt {
                        Type::Vector(s, n) => TypeSpec::Vector(s, n, t.span),
                        Type::Scalar(s) => TypeSpec::Scalar(s, t.span),
                        _ => unreachable_type(t.span),
                    });
                } else if self.is_typedef_name(w) {
                    ty = Some(TypeSpec::Named(Ident {
                        name: w.to_string(),
                        span: t.span,
                    }));
                } else {
                    break;
                }
            } else {
                break;
            }
            self.bump();
        }
        specs.ty = match ty {
            Some(t) => t,
            None if !basic.words.is_empty() => self.basic_type(&basic)?,
            None => {
                let t = self.peek().clone();
                let found = self.describe(&t);
                if let Some(w) = t.ident().filter(|w| !is_reserved_word(w)) {
                    self.error(t.span, format!("unknown type name '{w}'"));
                } else {
                    self.error(t.span, format!("expected a type, found {found}"));
                }
                return Err(Fail);
            }
        };
        specs.span = self.span_from(start);
        Ok(specs)
    }

    /// After a type, `kernel` followed by `=`, `;`, `,`, `[` or `)` is being used as a name.
    fn kernel_used_as_name(&self) -> bool {
        let next = self.peek_at(1);
        [
            Punct::Assign,
            Punct::Semi,
            Punct::Comma,
            Punct::LBracket,
            Punct::RParen,
        ]
        .iter()
        .any(|p| next.is_punct(*p))
    }

    /// Resolves `unsigned long int` and friends to one scalar type.
    fn basic_type(&mut self, b: &BasicWords) -> PResult<TypeSpec> {
        let span = b.span.unwrap_or_default();
        let count = |w: &str| b.words.iter().filter(|x| *x == w).count();
        let unsigned = count("unsigned") > 0;
        let signed = count("signed") + count("__signed") + count("__signed__") > 0;
        let longs = count("long");
        let bases: Vec<&String> = b
            .words
            .iter()
            .filter(|w| {
                !matches!(
                    w.as_str(),
                    "unsigned" | "signed" | "__signed" | "__signed__" | "long" | "short"
                )
            })
            .collect();
        let shorts = count("short");
        if (unsigned && signed) || bases.len() > 1 || longs > 1 || (shorts > 0 && longs > 0) {
            if longs > 1 {
                self.error(
                    span,
                    "'long long' is reserved in OpenCL C; use 'long' (64 bits)",
                );
            } else {
                self.error(
                    span,
                    format!("invalid combination of type words '{}'", b.words.join(" ")),
                );
            }
            return Err(Fail);
        }
        let base = bases.first().map(|s| s.as_str());
        let scalar = match base {
            Some("void") if !unsigned && !signed && longs == 0 && shorts == 0 => {
                return Ok(TypeSpec::Void)
            }
            Some("char") if shorts == 0 && longs == 0 => {
                if unsigned {
                    Scalar::UChar
                } else {
                    Scalar::Char
                }
            }
            Some("int") | None => {
                let s = if shorts > 0 {
                    Scalar::Short
                } else if longs > 0 {
                    Scalar::Long
                } else {
                    Scalar::Int
                };
                if unsigned {
                    s.to_unsigned()
                } else {
                    s
                }
            }
            Some("float") if !unsigned && !signed && longs == 0 && shorts == 0 => Scalar::Float,
            Some("double") if !unsigned && !signed && longs == 0 && shorts == 0 => Scalar::Double,
            Some("half") if !unsigned && !signed && longs == 0 && shorts == 0 => Scalar::Half,
            Some("bool" | "_Bool") if !unsigned && !signed && longs == 0 && shorts == 0 => {
                Scalar::Bool
            }
            _ => {
                self.error(
                    span,
                    format!("invalid combination of type words '{}'", b.words.join(" ")),
                );
                return Err(Fail);
            }
        };
        Ok(TypeSpec::Scalar(scalar, span))
    }

    fn record_spec(&mut self) -> PResult<RecordSpec> {
        let kw = self.bump();
        let kind = if kw.is_ident("union") {
            RecordKind::Union
        } else {
            RecordKind::Struct
        };
        let attrs_inside = self.attributes()?;
        let mut name = None;
        if let Some(w) = self.peek().ident() {
            if !is_reserved_word(w) {
                name = Some(self.expect_ident("a struct name")?);
            }
        }
        let mut fields = None;
        let mut attrs_after = Vec::new();
        if self.is(Punct::LBrace) {
            self.bump();
            let mut list = Vec::new();
            while !self.is(Punct::RBrace) && !self.at_eof() {
                if matches!(self.peek().kind, TokenKind::Pragma(_)) {
                    self.bump();
                    continue;
                }
                match self.field_decl() {
                    Ok(f) => list.push(f),
                    Err(Fail) => self.recover_statement(),
                }
            }
            self.expect(Punct::RBrace, "to close the struct body")?;
            fields = Some(list);
            self.gnu_attributes(&mut attrs_after)?;
        } else if name.is_none() {
            let at = self.peek().span;
            self.error(at, "expected a struct name or '{'");
            return Err(Fail);
        }
        Ok(RecordSpec {
            kind,
            name,
            fields,
            attrs_inside,
            attrs_after,
            span: self.span_from(kw.span),
        })
    }

    fn field_decl(&mut self) -> PResult<FieldDecl> {
        let start = self.peek().span;
        let lead = self.attributes()?;
        let mut specs = self.decl_specs()?;
        specs.attrs.splice(0..0, lead);
        let mut declarators = Vec::new();
        if !self.is(Punct::Semi) {
            loop {
                let mut d = if self.is(Punct::Colon) {
                    // An unnamed bit-field.
                    Declarator {
                        id: self.declarator_id(),
                        name: None,
                        derived: Vec::new(),
                        attrs: Vec::new(),
                        span: self.peek().span,
                    }
                } else {
                    self.declarator(false)?
                };
                let width = if self.eat(Punct::Colon) {
                    Some(self.conditional_expr()?)
                } else {
                    None
                };
                self.gnu_attributes(&mut d.attrs)?;
                declarators.push((d, width));
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
        }
        self.expect(Punct::Semi, "after a struct member")?;
        Ok(FieldDecl {
            specs,
            declarators,
            span: self.span_from(start),
        })
    }

    fn enum_spec(&mut self) -> PResult<EnumSpec> {
        let kw = self.bump();
        let attrs = self.attributes()?;
        let mut name = None;
        if self.peek().ident().is_some() {
            name = Some(self.expect_ident("an enum name")?);
        }
        let mut variants = None;
        if self.eat(Punct::LBrace) {
            let mut list = Vec::new();
            while !self.is(Punct::RBrace) {
                let id = self.expect_ident("an enumerator name")?;
                self.declare_name(&id.name, false);
                let value = if self.eat(Punct::Assign) {
                    Some(self.conditional_expr()?)
                } else {
                    None
                };
                list.push((id, value));
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::RBrace, "to close the enum body")?;
            variants = Some(list);
        } else if name.is_none() {
            let at = self.peek().span;
            self.error(at, "expected an enum name or '{'");
            return Err(Fail);
        }
        Ok(EnumSpec {
            name,
            variants,
            attrs,
            span: self.span_from(kw.span),
        })
    }

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

fn unreachable_type(span: Span) -> TypeSpec {
    // builtin_type_from_name only returns scalars and vectors.
    TypeSpec::Opaque("invalid", span)
}
