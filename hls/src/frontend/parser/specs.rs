//! Declaration specifiers: type words, qualifiers, storage classes, address spaces, and
//! struct/union/enum bodies.

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

pub(super) fn addr_space_word(w: &str) -> Option<AddrSpace> {
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

pub(super) fn qualifier_word(w: &str) -> bool {
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

    pub(super) fn is_type_word(&self, w: &str) -> bool {
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
            if self.at_gnu_attribute() || self.at_cxx_attribute() {
                let attrs = self.attributes()?;
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
}

fn unreachable_type(span: Span) -> TypeSpec {
    // builtin_type_from_name only returns scalars and vectors.
    TypeSpec::Opaque("invalid", span)
}
