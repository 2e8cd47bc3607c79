//! Expression checking, part three: the conditional operator (scalar and vector
//! conditions), explicit casts, and vector literals with their component counts.

use crate::frontend::ast::{Expr, TypeName};
use crate::frontend::types::Type;

use super::consteval::wrap;
use super::conv::{arith_view, cast_allowed, common_arith, is_int, is_scalar};
use super::Checker;

impl Checker<'_> {
    pub(super) fn conditional(&mut self, e: &Expr, c: &Expr, a: &Expr, b: &Expr) -> Option<Type> {
        let tc = self.rvalue(c);
        let ta = self.rvalue(a);
        let tb = self.rvalue(b);
        let (tc, ta, tb) = (tc?, ta?, tb?);
        if tc.is_vector() {
            let common = match common_arith(&ta, &tb) {
                Ok(t)
                    if t.lanes() == tc.lanes()
                        && t.elem().map(|s| s.size()) == tc.elem().map(|s| s.size()) =>
                {
                    t
                }
                _ => {
                    self.error(e.span, "vector condition needs operands of a vector type with the same lane count and lane width");
                    return None;
                }
            };
            self.convert(a, &ta, &common);
            self.convert(b, &tb, &common);
            return Some(common);
        }
        if !is_scalar(&tc) {
            self.error(
                c.span,
                format!("condition has non-scalar type '{}'", self.type_name(&tc)),
            );
            return None;
        }
        self.compare_to_zero(c, &tc);
        let res = if arith_view(&ta).is_some() && arith_view(&tb).is_some() {
            match common_arith(&ta, &tb) {
                Ok(t) => t,
                Err(m) => {
                    self.error(e.span, m);
                    return None;
                }
            }
        } else if ta.is_pointer() && (tb == ta || self.is_null_const(b)) {
            ta.clone()
        } else if tb.is_pointer() && self.is_null_const(a) {
            tb.clone()
        } else if ta == tb {
            ta.clone()
        } else {
            let msg = format!(
                "incompatible operand types ('{}' and '{}')",
                self.type_name(&ta),
                self.type_name(&tb)
            );
            self.error(e.span, msg);
            return None;
        };
        self.convert(a, &ta, &res);
        self.convert(b, &tb, &res);
        if let (Some(cv), Type::Scalar(s)) = (self.value_of(c), &res) {
            let pick = if cv != 0 { a } else { b };
            if s.is_integer() {
                let v = self.value_of(pick).map(|v| wrap(v, *s));
                self.set_value(e, v);
            }
        }
        Some(res)
    }

    pub(super) fn cast(&mut self, e: &Expr, tn: &TypeName, x: &Expr) -> Option<Type> {
        let to = self.type_name_type(tn).map(|t| t.0);
        let from = self.rvalue(x);
        let (to, from) = (to?, from?);
        if !self.fp16 && Self::is_half_value(&to) {
            self.error(
                tn.span,
                "casting to 'half' requires '#pragma OPENCL EXTENSION cl_khr_fp16 : enable'",
            );
            return None;
        }
        if let Err(m) = cast_allowed(&to, &from) {
            self.error(e.span, m);
            return None;
        }
        if let (Type::Scalar(s), Some(v)) = (&to, self.value_of(x)) {
            if s.is_integer() && is_int(&from) {
                self.set_value(e, Some(wrap(v, *s)));
            }
        }
        Some(to)
    }

    pub(super) fn vector_literal(
        &mut self,
        e: &Expr,
        tn: &TypeName,
        comps: &[Expr],
    ) -> Option<Type> {
        let (vt, _) = self.type_name_type(tn)?;
        let Type::Vector(elem, n) = vt else {
            self.error(
                tn.span,
                format!("'{}' is not a vector type", self.type_name(&vt)),
            );
            return None;
        };
        let mut count = 0u32;
        let mut ok = true;
        for c in comps {
            let Some(t) = self.rvalue(c) else {
                ok = false;
                continue;
            };
            match t {
                Type::Scalar(_) | Type::Enum(_) => {
                    count += 1;
                    self.convert(c, &t, &Type::Scalar(elem));
                }
                Type::Vector(ce, cn) if ce == elem => count += cn as u32,
                other => {
                    let msg = format!(
                        "a component of type '{}' cannot initialize a vector of type '{vt}'",
                        self.type_name(&other)
                    );
                    self.error(c.span, msg);
                    ok = false;
                }
            }
        }
        if !ok {
            return None;
        }
        let replicated = comps.len() == 1 && count == 1;
        if !replicated && count != n as u32 {
            let which = if count < n as u32 {
                "too few"
            } else {
                "too many"
            };
            self.error(
                e.span,
                format!("{which} elements in vector literal of type '{vt}': {count} given, {n} expected"),
            );
            return None;
        }
        Some(vt)
    }
}
