//! Turns declaration specifiers and declarators into types: typedef names, pointer
//! derivations with their address spaces and endianness, arrays, and function types.

use crate::frontend::ast::{DeclSpecs, Declarator, Derived, ParamDecl, TypeName, TypeSpec};
use crate::frontend::types::{AddrSpace, Endian, FunctionType, Pointer, Quals, Type};

use super::{Checker, SymbolKind};

/// The type a declarator declares, plus what the object itself carries.
#[derive(Clone, Debug)]
pub(super) struct Resolved {
    pub ty: Type,
    /// Qualifiers of the declared object (of the top pointer, if it is a pointer).
    pub quals: Quals,
    /// The address space written for the object itself, if any.
    pub space: Option<AddrSpace>,
    /// The alignment of an `aligned` typedef used directly (no derivation applied).
    pub typedef_align: Option<u64>,
}

pub(super) fn quals_of(q: &crate::frontend::ast::TypeQuals) -> Quals {
    Quals {
        is_const: q.is_const,
        is_volatile: q.is_volatile,
        is_restrict: q.is_restrict,
    }
}

impl Checker<'_> {
    /// The base type named by the specifiers and the alignment of an aligned typedef.
    pub(super) fn base_type(&mut self, specs: &DeclSpecs) -> Option<(Type, Option<u64>)> {
        match &specs.ty {
            TypeSpec::Void => Some((Type::Void, None)),
            TypeSpec::Scalar(s, _) => Some((Type::Scalar(*s), None)),
            TypeSpec::Vector(s, n, _) => Some((Type::Vector(*s, *n), None)),
            TypeSpec::Opaque(name, _) => Some((Type::Opaque(name), None)),
            TypeSpec::Named(id) => {
                if self
                    .scopes
                    .lookup(&id.name)
                    .is_some_and(|s| self.poisoned.contains(&s))
                {
                    return None;
                }
                let found = self
                    .scopes
                    .lookup(&id.name)
                    .map(|s| (s, &self.symbols[s.0 as usize]));
                match found {
                    Some((sid, sym)) if matches!(sym.kind, SymbolKind::Typedef) => {
                        let ty = sym.ty.clone();
                        Some((ty, self.typedef_aligns.get(&sid).copied()))
                    }
                    _ => {
                        self.error(id.span, format!("unknown type name '{}'", id.name));
                        None
                    }
                }
            }
            TypeSpec::Record(r) => self.record_spec(r).map(|t| (t, None)),
            TypeSpec::Enum(e) => self.enum_spec(e).map(|t| (t, None)),
        }
    }

    /// Applies a declarator's derivations to the specifiers' base type.
    pub(super) fn resolve(&mut self, specs: &DeclSpecs, d: &Declarator) -> Option<Resolved> {
        let (base, talign) = self.base_type(specs)?;
        self.derive(base, talign, specs, d)
    }

    pub(super) fn derive(
        &mut self,
        base: Type,
        talign: Option<u64>,
        specs: &DeclSpecs,
        d: &Declarator,
    ) -> Option<Resolved> {
        let mut ty = base;
        let mut quals = quals_of(&specs.quals);
        let mut space = specs.addr_space.map(|(s, _)| s);
        let mut ok = true;
        for der in &d.derived {
            match der {
                Derived::Pointer {
                    quals: pq,
                    addr_space,
                    attrs,
                    span,
                } => {
                    let pointee_space = space.unwrap_or(AddrSpace::Private);
                    let endian = self.pointer_endian(attrs, pointee_space, *span);
                    ty = Type::Pointer(Box::new(Pointer {
                        pointee: ty,
                        space: pointee_space,
                        pointee_quals: quals,
                        endian: endian.unwrap_or_default(),
                    }));
                    quals = quals_of(pq);
                    space = *addr_space;
                }
                Derived::Array { size, span } => {
                    if matches!(ty, Type::Void | Type::Function(_)) {
                        self.error(
                            *span,
                            format!("array has invalid element type '{}'", self.type_name(&ty)),
                        );
                        ok = false;
                    }
                    let n = match size {
                        None => None,
                        Some(e) => self.array_size(e),
                    };
                    if size.is_some() && n.is_none() {
                        ok = false;
                    }
                    ty = Type::Array(Box::new(ty), n);
                }
                Derived::Function {
                    params, variadic, ..
                } => {
                    if matches!(ty, Type::Array(..) | Type::Function(_)) {
                        self.error(d.span, "function cannot return an array or function type");
                        ok = false;
                    }
                    let ps = self.param_types(params)?;
                    ty = Type::Function(Box::new(FunctionType {
                        ret: ty,
                        params: ps,
                        variadic: *variadic,
                    }));
                    quals = Quals::default();
                    space = None;
                }
            }
        }
        let typedef_align = if d.derived.is_empty() { talign } else { None };
        ok.then_some(Resolved {
            ty,
            quals,
            space,
            typedef_align,
        })
    }

    /// A constant array length; VLAs and negative sizes are errors.
    fn array_size(&mut self, e: &crate::frontend::ast::Expr) -> Option<u64> {
        let t = self.rvalue(e)?;
        if !matches!(t, Type::Scalar(s) if s.is_integer()) && !matches!(t, Type::Enum(_)) {
            self.error(
                e.span,
                format!(
                    "size of array has non-integer type '{}'",
                    self.type_name(&t)
                ),
            );
            return None;
        }
        match self.value_of(e) {
            None => {
                self.error(
                    e.span,
                    "variable length arrays are not supported in OpenCL: the size must be an integer constant expression",
                );
                None
            }
            Some(v) if v < 0 => {
                self.error(e.span, "array size is negative");
                None
            }
            Some(v) => u64::try_from(v).ok(),
        }
    }

    /// Parameter types after adjustment (arrays become pointers); `(void)` is no parameters.
    pub(super) fn param_types(&mut self, params: &[ParamDecl]) -> Option<Vec<Type>> {
        if params.len() == 1
            && params[0].declarator.name.is_none()
            && params[0].declarator.derived.is_empty()
        {
            if let TypeSpec::Void = params[0].specs.ty {
                return Some(Vec::new());
            }
        }
        let mut out = Vec::new();
        let mut ok = true;
        for p in params {
            match self.resolve(&p.specs, &p.declarator) {
                Some(r) => out.push(adjust_param(r.ty, p.specs.addr_space.map(|s| s.0))),
                None => {
                    ok = false;
                    out.push(Type::int());
                }
            }
        }
        ok.then_some(out)
    }

    /// The type a type name (in a cast, sizeof, vec_step, attribute) denotes, with the
    /// alignment of an aligned typedef.
    pub(super) fn type_name_type(&mut self, t: &TypeName) -> Option<(Type, Option<u64>)> {
        let r = self.resolve(&t.specs, &t.declarator)?;
        Some((r.ty, r.typedef_align))
    }

    /// `endian(...)` written on a pointer derivation.
    fn pointer_endian(
        &mut self,
        attrs: &[crate::frontend::ast::Attribute],
        pointee: AddrSpace,
        _span: crate::diag::Span,
    ) -> Option<Endian> {
        let mut out = None;
        for a in attrs {
            if a.name == "endian" {
                let e = self.endian_arg(a)?;
                if !matches!(pointee, AddrSpace::Global | AddrSpace::Constant) {
                    self.error(
                        a.span,
                        "the endian attribute applies only to pointers into the __global or __constant address space",
                    );
                }
                out = Some(e);
            } else {
                let mut ignored = super::attrs::DeclAttrs::default();
                self.decl_attrs(
                    std::slice::from_ref(a),
                    super::attrs::AttrSite::Variable,
                    &mut ignored,
                );
            }
        }
        out
    }
}

/// C's parameter adjustment: an array parameter is a pointer to its element.
pub(super) fn adjust_param(ty: Type, space: Option<AddrSpace>) -> Type {
    match ty {
        Type::Array(elem, _) => Type::Pointer(Box::new(Pointer {
            pointee: *elem,
            space: space.unwrap_or(AddrSpace::Private),
            pointee_quals: Quals::default(),
            endian: Endian::Device,
        })),
        t => t,
    }
}
