//! Expression checking, part two: unary, binary and assignment operators with OpenCL's
//! scalar/vector conversion rules, implicit conversion checks, and constant folding.

use crate::diag::Span;
use crate::frontend::ast::{BinaryOp, Expr, UnaryOp};
use crate::frontend::types::{AddrSpace, Endian, Pointer, Quals, Scalar, Type};

use super::consteval::{fold_binary, fold_unary, wrap, FoldError};
use super::conv::{arith_view, common_arith, is_int, is_scalar, promote, relational_result};
use super::Checker;

impl Checker<'_> {
    fn bad_operands(&mut self, span: Span, l: &Type, r: &Type) {
        let msg = format!(
            "invalid operands to binary expression ('{}' and '{}')",
            self.type_name(l),
            self.type_name(r)
        );
        self.error(span, msg);
    }

    /// A null pointer constant: an integer constant 0, or one cast to `void *`.
    pub(super) fn is_null_const(&self, e: &Expr) -> bool {
        let ty = self.info_ref(e).and_then(|i| i.ty.clone());
        match (&e.kind, &ty) {
            (_, Some(t)) if is_int(t) => self.value_of(e) == Some(0),
            (crate::frontend::ast::ExprKind::Cast(_, x), Some(Type::Pointer(p))) => {
                p.pointee == Type::Void && self.is_null_const(x)
            }
            _ => false,
        }
    }

    pub(super) fn compare_to_zero(&mut self, e: &Expr, t: &Type) {
        if is_scalar(t) {
            self.convert(e, t, &Type::Scalar(Scalar::Bool));
        }
    }

    pub(super) fn unary(&mut self, e: &Expr, op: UnaryOp, x: &Expr) -> Option<Type> {
        match op {
            UnaryOp::Neg | UnaryOp::Plus | UnaryOp::BitNot => {
                let t = self.rvalue(x)?;
                let Some(a) = arith_view(&t) else {
                    self.error(
                        e.span,
                        format!(
                            "invalid argument type '{}' to unary expression",
                            self.type_name(&t)
                        ),
                    );
                    return None;
                };
                if op == UnaryOp::BitNot && !is_int(&a) {
                    self.error(
                        e.span,
                        format!(
                            "invalid argument type '{}' to unary expression",
                            self.type_name(&t)
                        ),
                    );
                    return None;
                }
                let res = match a {
                    Type::Scalar(s) => Type::Scalar(promote(s)),
                    v => v,
                };
                self.convert(x, &t, &res);
                if let (Some(v), Type::Scalar(s)) = (self.value_of(x), &res) {
                    if s.is_integer() {
                        let folded = fold_unary(op, wrap(v, *s), *s);
                        self.set_value(e, folded);
                    }
                }
                Some(res)
            }
            UnaryOp::Not => {
                let t = self.rvalue(x)?;
                if t.is_vector() {
                    return Some(relational_result(&t));
                }
                if !is_scalar(&t) {
                    self.error(
                        e.span,
                        format!(
                            "invalid argument type '{}' to unary expression",
                            self.type_name(&t)
                        ),
                    );
                    return None;
                }
                self.compare_to_zero(x, &t);
                let v = self.value_of(x).map(|v| (v == 0) as i128);
                self.set_value(e, v);
                Some(Type::int())
            }
            UnaryOp::Deref => match self.rvalue(x)? {
                Type::Pointer(p) => {
                    self.set_lvalue(e, p.space, p.pointee_quals.is_const);
                    Some(p.pointee)
                }
                t => {
                    self.error(
                        e.span,
                        format!(
                            "indirection requires pointer operand ('{}' invalid)",
                            self.type_name(&t)
                        ),
                    );
                    None
                }
            },
            UnaryOp::AddrOf => {
                let t = self.expr(x)?;
                if matches!(t, Type::Function(_)) {
                    self.error(e.span, "function pointers are not supported in OpenCL C");
                    return None;
                }
                let info = self.info_ref(x).cloned().unwrap_or_default();
                if info.swizzle.is_some() {
                    self.error(e.span, "address of vector element requested");
                    return None;
                }
                if !info.lvalue {
                    self.error(
                        e.span,
                        format!(
                            "cannot take the address of an rvalue of type '{}'",
                            self.type_name(&t)
                        ),
                    );
                    return None;
                }
                Some(Type::Pointer(Box::new(Pointer {
                    pointee: t,
                    space: info.space.unwrap_or(AddrSpace::Private),
                    pointee_quals: Quals {
                        is_const: info.is_const,
                        ..Quals::default()
                    },
                    endian: Endian::Device,
                })))
            }
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let t = self.expr(x)?;
                if !self.check_modifiable(x, &t) {
                    return None;
                }
                if arith_view(&t).is_none() && !t.is_pointer() {
                    self.error(
                        e.span,
                        format!("cannot increment value of type '{}'", self.type_name(&t)),
                    );
                    return None;
                }
                if let Some(root) = self.lvalue_root(x) {
                    self.access.reads.insert(root);
                    self.access.writes.insert(root);
                }
                Some(t)
            }
        }
    }

    pub(super) fn binary(&mut self, e: &Expr, op: BinaryOp, l: &Expr, r: &Expr) -> Option<Type> {
        let tl = self.rvalue(l);
        let tr = self.rvalue(r);
        let (tl, tr) = (tl?, tr?);
        let res = self.binary_types(e.span, op, l, r, &tl, &tr)?;
        if let (Some(a), Some(b), Type::Scalar(s)) = (self.value_of(l), self.value_of(r), &res.1) {
            if s.is_integer() {
                let ty = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
                    *s
                } else {
                    res.2
                };
                let (a, b) = (
                    wrap(a, ty),
                    if op == BinaryOp::Shl || op == BinaryOp::Shr {
                        b
                    } else {
                        wrap(b, ty)
                    },
                );
                match fold_binary(op, a, b, ty) {
                    Ok(v) => self.set_value(e, Some(v)),
                    Err(FoldError::DivByZero) => {
                        self.warning(e.span, "division by zero is undefined")
                    }
                    Err(FoldError::NotConstant) => {}
                }
            }
        }
        Some(res.0)
    }

    /// The result type of `l op r`, the operands' conversions recorded. Returns
    /// (result type, type to fold in, scalar the operands convert to).
    pub(super) fn binary_types(
        &mut self,
        span: Span,
        op: BinaryOp,
        l: &Expr,
        r: &Expr,
        tl: &Type,
        tr: &Type,
    ) -> Option<(Type, Type, Scalar)> {
        use BinaryOp::*;
        if op.is_logical() && !tl.is_vector() && !tr.is_vector() {
            if !is_scalar(tl) || !is_scalar(tr) {
                self.bad_operands(span, tl, tr);
                return None;
            }
            self.compare_to_zero(l, tl);
            self.compare_to_zero(r, tr);
            return Some((Type::int(), Type::int(), Scalar::Bool));
        }
        if let (Type::Pointer(_), _) | (_, Type::Pointer(_)) = (tl, tr) {
            return self.pointer_binary(span, op, l, r, tl, tr);
        }
        if matches!(op, Shl | Shr) {
            let (Some(a), Some(b)) = (arith_view(tl), arith_view(tr)) else {
                self.bad_operands(span, tl, tr);
                return None;
            };
            if !is_int(&a) || !is_int(&b) || (!a.is_vector() && b.is_vector()) {
                self.bad_operands(span, tl, tr);
                return None;
            }
            if a.is_vector() && b.is_vector() && a.lanes() != b.lanes() {
                self.bad_operands(span, tl, tr);
                return None;
            }
            let res = match a {
                Type::Scalar(s) => Type::Scalar(promote(s)),
                v => v,
            };
            self.convert(l, tl, &res);
            if res.is_vector() {
                self.convert(r, tr, &res);
            }
            let s = res.elem().unwrap_or(Scalar::Int);
            return Some((res.clone(), res, s));
        }
        let common = match common_arith(tl, tr) {
            Ok(t) => t,
            Err(msg) => {
                if msg == "invalid operands" {
                    self.bad_operands(span, tl, tr);
                } else {
                    self.error(span, msg);
                }
                return None;
            }
        };
        if matches!(op, Rem | BitAnd | BitOr | BitXor) && !is_int(&common) {
            self.bad_operands(span, tl, tr);
            return None;
        }
        self.convert(l, tl, &common);
        self.convert(r, tr, &common);
        let s = common.elem().unwrap_or(Scalar::Int);
        let res = if op.is_comparison() || op.is_logical() {
            relational_result(&common)
        } else {
            common.clone()
        };
        Some((res.clone(), res, s))
    }

    fn pointer_binary(
        &mut self,
        span: Span,
        op: BinaryOp,
        l: &Expr,
        r: &Expr,
        tl: &Type,
        tr: &Type,
    ) -> Option<(Type, Type, Scalar)> {
        use BinaryOp::*;
        let null = |c: &Self, e: &Expr, t: &Type| is_int(t) && c.is_null_const(e);
        match (op, tl, tr) {
            (Add | Sub, Type::Pointer(_), t) | (Add, t, Type::Pointer(_))
                if is_int(t) && !t.is_vector() =>
            {
                let p = if tl.is_pointer() { tl } else { tr };
                Some((p.clone(), p.clone(), Scalar::Long))
            }
            (Sub, Type::Pointer(a), Type::Pointer(b)) => {
                if a.pointee != b.pointee || a.space != b.space {
                    self.bad_operands(span, tl, tr);
                    return None;
                }
                let t = Type::Scalar(Scalar::Long);
                Some((t.clone(), t, Scalar::Long))
            }
            (Eq | Ne, Type::Pointer(_), Type::Pointer(_))
                if self.is_null_const(l) || self.is_null_const(r) =>
            {
                Some((Type::int(), Type::int(), Scalar::Long))
            }
            (Lt | Gt | Le | Ge | Eq | Ne, Type::Pointer(a), Type::Pointer(b)) => {
                if a.space != b.space
                    && a.space != AddrSpace::Generic
                    && b.space != AddrSpace::Generic
                {
                    let msg = format!(
                        "comparison between pointers to different address spaces ('{}' and '{}')",
                        self.type_name(tl),
                        self.type_name(tr)
                    );
                    self.error(span, msg);
                    return None;
                }
                Some((Type::int(), Type::int(), Scalar::Long))
            }
            (Eq | Ne, Type::Pointer(_), t) | (Eq | Ne, t, Type::Pointer(_))
                if null(self, if tl.is_pointer() { r } else { l }, t) =>
            {
                Some((Type::int(), Type::int(), Scalar::Long))
            }
            _ => {
                self.bad_operands(span, tl, tr);
                None
            }
        }
    }
}
