//! Expression checking, part one: the dispatcher, value use (lvalue conversion and
//! array decay), literals, names, member access and swizzles, subscripts, and `sizeof`,
//! `__alignof__` and `vec_step`.

use crate::frontend::ast::{Expr, ExprKind, FloatSuffix, Ident};
use crate::frontend::types::{AddrSpace, Endian, Pointer, Quals, Scalar, Type};

use super::consteval::{int_literal_type, wrap};
use super::swizzle::{is_assignable, parse_swizzle};
use super::{Checker, SymbolKind};

impl Checker<'_> {
    /// Records an expression's type; `None` marks an error already reported.
    pub(super) fn set_ty(&mut self, e: &Expr, ty: Option<Type>) -> Option<Type> {
        self.info(e).ty = ty.clone();
        ty
    }

    pub(super) fn set_lvalue(&mut self, e: &Expr, space: AddrSpace, is_const: bool) {
        let i = self.info(e);
        i.lvalue = true;
        i.space = Some(space);
        i.is_const = is_const;
    }

    pub(super) fn set_value(&mut self, e: &Expr, v: Option<i128>) {
        self.info(e).value = v;
    }

    /// Records that the value of `e` (of type `from`) converts implicitly to `to`.
    pub(super) fn convert(&mut self, e: &Expr, from: &Type, to: &Type) {
        if from != to {
            self.info(e).conv = Some(to.clone());
        }
    }

    /// Checks an expression whose value is used: arrays decay to pointers, `half` values
    /// need `cl_khr_fp16`, and a read of memory is noted for the access summary.
    pub(super) fn rvalue(&mut self, e: &Expr) -> Option<Type> {
        let t = self.expr(e)?;
        let (lvalue, space, is_const) = match self.info_ref(e) {
            Some(i) => (i.lvalue, i.space, i.is_const),
            None => (false, None, false),
        };
        if lvalue {
            if !self.fp16
                && Self::is_half_value(&t)
                && !t.is_pointer()
                && !matches!(t, Type::Array(..))
            {
                self.error(
                    e.span,
                    "loading a value of type 'half' requires '#pragma OPENCL EXTENSION cl_khr_fp16 : enable' (use vload_half)",
                );
                return None;
            }
            if !matches!(t, Type::Array(..)) {
                if let Some(root) = self.lvalue_root(e) {
                    self.access.reads.insert(root);
                }
            }
        }
        let decayed = match &t {
            Type::Array(elem, _) => Type::Pointer(Box::new(Pointer {
                pointee: (**elem).clone(),
                space: space.unwrap_or(AddrSpace::Private),
                pointee_quals: Quals {
                    is_const,
                    ..Quals::default()
                },
                endian: Endian::Device,
            })),
            _ => t.clone(),
        };
        self.convert(e, &t, &decayed);
        Some(decayed)
    }

    /// Checks an expression and fills its side-table entry.
    pub(super) fn expr(&mut self, e: &Expr) -> Option<Type> {
        let ty = match &e.kind {
            ExprKind::IntLit {
                value,
                unsigned,
                long,
                decimal,
            } => match int_literal_type(*value, *unsigned, *long, *decimal) {
                Some(s) => {
                    self.set_value(e, Some(wrap(*value as i128, s)));
                    Some(Type::Scalar(s))
                }
                None => {
                    self.error(
                        e.span,
                        "integer literal is too large to be represented in any integer type",
                    );
                    None
                }
            },
            ExprKind::FloatLit { suffix, .. } => Some(Type::Scalar(match suffix {
                FloatSuffix::None => Scalar::Double,
                FloatSuffix::F => Scalar::Float,
                FloatSuffix::H => {
                    if !self.fp16 {
                        self.error(e.span, "half precision constants require '#pragma OPENCL EXTENSION cl_khr_fp16 : enable'");
                    }
                    Scalar::Half
                }
            })),
            ExprKind::BoolLit(b) => {
                self.set_value(e, Some(i128::from(*b)));
                Some(Type::Scalar(Scalar::Bool))
            }
            ExprKind::CharLit(v) => {
                self.set_value(e, Some(wrap(*v as i128, Scalar::Int)));
                Some(Type::int())
            }
            ExprKind::StrLit(bytes) => {
                self.set_lvalue(e, AddrSpace::Constant, true);
                Some(Type::Array(
                    Box::new(Type::Scalar(Scalar::Char)),
                    Some(bytes.len() as u64 + 1),
                ))
            }
            ExprKind::Ident(id) => self.ident(e, id),
            ExprKind::Unary(op, x) => self.unary(e, *op, x),
            ExprKind::Binary(op, l, r) => self.binary(e, *op, l, r),
            ExprKind::Assign(op, l, r) => self.assign(e, *op, l, r),
            ExprKind::Cond(c, a, b) => self.conditional(e, c, a, b),
            ExprKind::Cast(tn, x) => self.cast(e, tn, x),
            ExprKind::VectorLit(tn, comps) => self.vector_literal(e, tn, comps),
            ExprKind::Call(callee, args) => self.call(e, callee, args),
            ExprKind::Index(a, b) => self.index(e, a, b),
            ExprKind::Member {
                base,
                arrow,
                member,
            } => self.member(e, base, *arrow, member),
            ExprKind::SizeofExpr(x) => {
                let t = self.expr(x);
                self.size_of(e, t)
            }
            ExprKind::SizeofType(tn) => {
                let t = self.type_name_type(tn).map(|x| x.0);
                self.size_of(e, t)
            }
            ExprKind::AlignofExpr(x) => {
                let t = self.expr(x);
                let own = self.declared_align(x);
                self.align_of(e, t, own)
            }
            ExprKind::AlignofType(tn) => match self.type_name_type(tn) {
                Some((t, a)) => self.align_of(e, Some(t), a),
                None => None,
            },
            ExprKind::VecStepExpr(x) => {
                let t = self.expr(x);
                self.vec_step(e, t)
            }
            ExprKind::VecStepType(tn) => {
                let t = self.type_name_type(tn).map(|x| x.0);
                self.vec_step(e, t)
            }
            ExprKind::Comma(a, b) => {
                self.rvalue(a);
                self.rvalue(b)
            }
        };
        self.set_ty(e, ty)
    }

    fn ident(&mut self, e: &Expr, id: &Ident) -> Option<Type> {
        let Some(sid) = self.scopes.lookup(&id.name) else {
            self.error(
                id.span,
                format!("use of undeclared identifier '{}'", id.name),
            );
            return None;
        };
        if self.poisoned.contains(&sid) {
            return None;
        }
        self.info(e).symbol = Some(sid);
        let sym = self.sym(sid);
        let (ty, space, is_const, kind) = (
            sym.ty.clone(),
            sym.space,
            sym.quals.is_const,
            sym.kind.clone(),
        );
        match kind {
            SymbolKind::Typedef => {
                self.error(
                    id.span,
                    format!("unexpected type name '{}': expected expression", id.name),
                );
                None
            }
            SymbolKind::EnumConst(v) => {
                self.set_value(e, Some(v as i128));
                Some(ty)
            }
            SymbolKind::Function(_) => Some(ty),
            _ => {
                self.set_lvalue(e, space, is_const);
                Some(ty)
            }
        }
    }

    fn member(&mut self, e: &Expr, base: &Expr, arrow: bool, member: &Ident) -> Option<Type> {
        let (bt, lvalue, space, is_const) = if arrow {
            match self.rvalue(base)? {
                Type::Pointer(p) => (p.pointee, true, p.space, p.pointee_quals.is_const),
                t => {
                    self.error(
                        member.span,
                        format!(
                            "member reference type '{}' is not a pointer",
                            self.type_name(&t)
                        ),
                    );
                    return None;
                }
            }
        } else {
            let t = self.expr(base)?;
            let i = self.info_ref(base).cloned().unwrap_or_default();
            (
                t,
                i.lvalue,
                i.space.unwrap_or(AddrSpace::Private),
                i.is_const,
            )
        };
        match &bt {
            Type::Record(rid) => {
                let rec = self.records.get(rid.0 as usize)?;
                let field = rec
                    .fields
                    .iter()
                    .find(|f| f.name.as_deref() == Some(member.name.as_str()));
                let Some(f) = field else {
                    let msg = format!(
                        "no member named '{}' in '{}'",
                        member.name,
                        self.type_name(&bt)
                    );
                    self.error(member.span, msg);
                    return None;
                };
                let ty = f.ty.clone();
                if lvalue {
                    self.set_lvalue(e, space, is_const);
                }
                Some(ty)
            }
            Type::Vector(s, n) if !arrow => match parse_swizzle(&member.name, *n) {
                Ok(lanes) => {
                    let ty = if lanes.len() == 1 {
                        Type::Scalar(*s)
                    } else {
                        Type::Vector(*s, lanes.len() as u8)
                    };
                    if lvalue && is_assignable(&lanes) {
                        self.set_lvalue(e, space, is_const);
                    }
                    self.info(e).swizzle = Some(lanes);
                    Some(ty)
                }
                Err(msg) => {
                    self.error(member.span, msg);
                    None
                }
            },
            _ => {
                let msg = format!(
                    "member reference base type '{}' is not a structure, union or vector",
                    self.type_name(&bt)
                );
                self.error(member.span, msg);
                None
            }
        }
    }

    fn index(&mut self, e: &Expr, a: &Expr, b: &Expr) -> Option<Type> {
        let ta = self.expr(a)?;
        if let Type::Vector(s, _) = ta {
            self.rvalue(b)?;
            let i = self.info_ref(a).cloned().unwrap_or_default();
            if i.lvalue {
                self.set_lvalue(e, i.space.unwrap_or(AddrSpace::Private), i.is_const);
            }
            return Some(Type::Scalar(s));
        }
        let ta = self.rvalue(a)?;
        let tb = self.rvalue(b)?;
        let (p, idx) = match (&ta, &tb) {
            (Type::Pointer(p), t) => (p.clone(), t.clone()),
            (t, Type::Pointer(p)) => (p.clone(), t.clone()),
            _ => {
                self.error(
                    e.span,
                    "subscripted value is not an array, pointer, or vector",
                );
                return None;
            }
        };
        if !matches!(idx, Type::Scalar(s) if s.is_integer()) && !matches!(idx, Type::Enum(_)) {
            self.error(e.span, "array subscript is not an integer");
            return None;
        }
        if matches!(p.pointee, Type::Void | Type::Function(_)) {
            self.error(e.span, "subscript of a pointer to an incomplete type");
            return None;
        }
        self.set_lvalue(e, p.space, p.pointee_quals.is_const);
        Some(p.pointee)
    }

    fn size_of(&mut self, e: &Expr, t: Option<Type>) -> Option<Type> {
        let t = t?;
        let Some(l) = self.layout_of(&t) else {
            self.error(
                e.span,
                format!(
                    "invalid application of 'sizeof' to an incomplete type '{}'",
                    self.type_name(&t)
                ),
            );
            return None;
        };
        self.set_value(e, Some(l.size as i128));
        Some(Type::Scalar(Scalar::ULong))
    }

    /// The alignment an expression's object was declared with (`aligned` on a variable).
    fn declared_align(&self, x: &Expr) -> Option<u64> {
        let sid = self.info_ref(x)?.symbol?;
        let s = self.sym(sid);
        matches!(
            s.kind,
            SymbolKind::Local | SymbolKind::Global { .. } | SymbolKind::Param { .. }
        )
        .then_some(s.align)
    }

    fn align_of(&mut self, e: &Expr, t: Option<Type>, own: Option<u64>) -> Option<Type> {
        let t = t?;
        let natural = self.layout_of(&t).map(|l| l.align);
        let Some(a) = own.or(natural) else {
            self.error(
                e.span,
                format!(
                    "invalid application of '__alignof__' to an incomplete type '{}'",
                    self.type_name(&t)
                ),
            );
            return None;
        };
        self.set_value(e, Some(a as i128));
        Some(Type::Scalar(Scalar::ULong))
    }

    fn vec_step(&mut self, e: &Expr, t: Option<Type>) -> Option<Type> {
        let n = match t? {
            Type::Scalar(_) => 1,
            Type::Vector(_, 3) => 4,
            Type::Vector(_, n) => n as i128,
            other => {
                let msg = format!(
                    "'vec_step' requires a built-in scalar or vector type, '{}' given",
                    self.type_name(&other)
                );
                self.error(e.span, msg);
                return None;
            }
        };
        self.set_value(e, Some(n));
        Some(Type::Scalar(Scalar::ULong))
    }
}
