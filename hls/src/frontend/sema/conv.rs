//! OpenCL C conversion rules as pure functions: integer promotion, the usual arithmetic
//! conversions, the vector/scalar operand rules of OpenCL C 6.2.6, and assignability.

use crate::frontend::types::{AddrSpace, Scalar, Type};

/// Integer promotion (C99 6.3.1.1): everything narrower than `int` becomes `int`.
pub fn promote(s: Scalar) -> Scalar {
    if s.is_integer() && s.rank() < Scalar::Int.rank() {
        Scalar::Int
    } else {
        s
    }
}

/// The common type of two scalar operands (C99 6.3.1.8).
pub fn usual_arith(a: Scalar, b: Scalar) -> Scalar {
    if a.is_float() || b.is_float() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
    if u.rank() >= s.rank() {
        u
    } else if s.size() > u.size() {
        s
    } else {
        s.to_unsigned()
    }
}

/// An integer scalar, integer vector or enum.
pub fn is_int(t: &Type) -> bool {
    matches!(t, Type::Enum(_)) || t.elem().is_some_and(|s| s.is_integer())
}

/// A type whose value can be compared against zero: arithmetic scalars and pointers.
pub fn is_scalar(t: &Type) -> bool {
    matches!(t, Type::Scalar(_) | Type::Enum(_) | Type::Pointer(_))
}

/// Treats an enum as `int` for arithmetic.
pub fn arith_view(t: &Type) -> Option<Type> {
    match t {
        Type::Enum(_) => Some(Type::Scalar(Scalar::Int)),
        Type::Scalar(_) | Type::Vector(..) => Some(t.clone()),
        _ => None,
    }
}

/// Whether a scalar may be implicitly converted to the element type of a vector and
/// replicated in an arithmetic operator, as clang does for OpenCL ("scalar operand type
/// has greater rank than the type of the vector element" otherwise): integer vectors take
/// integer scalars of no greater rank (at equal rank an unsigned scalar counts as greater
/// than a signed element, so `int4 + 1u` and `char4 + 1` are errors); floating vectors take
/// integers and floats of no higher rank.
pub fn scalar_splats_into(scalar: Scalar, elem: Scalar) -> bool {
    if elem.is_integer() {
        let order = |s: Scalar| (s.rank(), !s.is_signed());
        scalar.is_integer() && order(scalar) <= order(elem)
    } else {
        scalar.is_integer() || scalar.rank() <= elem.rank()
    }
}

/// The type both operands of an arithmetic operator convert to.
pub fn common_arith(l: &Type, r: &Type) -> Result<Type, String> {
    let (Some(l), Some(r)) = (arith_view(l), arith_view(r)) else {
        return Err("invalid operands".into());
    };
    match (&l, &r) {
        (Type::Scalar(a), Type::Scalar(b)) => Ok(Type::Scalar(usual_arith(*a, *b))),
        (Type::Vector(..), Type::Vector(..)) => {
            if l == r {
                Ok(l)
            } else {
                Err(format!(
                    "can't convert between vector values of different types ('{l}' and '{r}')"
                ))
            }
        }
        (Type::Vector(e, _), Type::Scalar(s)) | (Type::Scalar(s), Type::Vector(e, _)) => {
            let v = if l.is_vector() { &l } else { &r };
            if scalar_splats_into(*s, *e) {
                Ok(v.clone())
            } else {
                let why = if s.is_float() && e.is_integer() {
                    "a floating scalar cannot be converted to an integer element type".to_string()
                } else {
                    format!(
                        "the scalar type '{}' has greater rank than the element type '{}'",
                        s.name(),
                        e.name()
                    )
                };
                Err(format!(
                    "can't convert between vector values: {why} of '{v}' (cast the scalar)"
                ))
            }
        }
        _ => Err("invalid operands".into()),
    }
}

/// The type of a relational or logical result: `int` for scalars, the signed integer
/// vector of the same lane width and count for vectors (true is -1).
pub fn relational_result(operand: &Type) -> Type {
    match operand {
        Type::Vector(e, n) => Type::Vector(e.to_signed_int(), *n),
        _ => Type::int(),
    }
}

/// Why an assignment `to = from` is not allowed, or `Ok(needs_splat)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AssignError {
    Incompatible,
    AddrSpace(AddrSpace, AddrSpace),
    Endian,
    VectorMismatch,
    /// Allowed in C with a warning (different pointee types, dropped qualifiers).
    PointerWarning(String),
}

/// Checks simple assignment / initialization / argument passing compatibility.
/// `null_const`: the source is an integer constant expression with value 0.
pub fn assignable(to: &Type, from: &Type, null_const: bool) -> Result<(), AssignError> {
    match (to, from) {
        (Type::Scalar(_) | Type::Enum(_), Type::Scalar(_) | Type::Enum(_)) => Ok(()),
        (Type::Scalar(Scalar::Bool), Type::Pointer(_)) => Ok(()),
        (Type::Vector(..), Type::Vector(..)) => {
            if to == from {
                Ok(())
            } else {
                Err(AssignError::VectorMismatch)
            }
        }
        (Type::Vector(..), Type::Scalar(_) | Type::Enum(_)) => Ok(()),
        (Type::Pointer(_), Type::Scalar(s)) if s.is_integer() && null_const => Ok(()),
        (Type::Pointer(p), Type::Pointer(q)) => {
            if p.space != q.space && p.space != AddrSpace::Generic {
                return Err(AssignError::AddrSpace(p.space, q.space));
            }
            if p.endian != q.endian {
                return Err(AssignError::Endian);
            }
            let void = p.pointee == Type::Void || q.pointee == Type::Void;
            if !void && strip_spaces(&p.pointee) != strip_spaces(&q.pointee) {
                return Err(AssignError::PointerWarning(format!(
                    "incompatible pointer types assigning to '{to}' from '{from}'"
                )));
            }
            if q.pointee_quals.is_const && !p.pointee_quals.is_const {
                return Err(AssignError::PointerWarning(format!(
                    "assigning to '{to}' from '{from}' discards qualifiers"
                )));
            }
            Ok(())
        }
        (Type::Record(a), Type::Record(b)) if a == b => Ok(()),
        // Events are handles copied whole (the async copies' results); 0 is "no event".
        (Type::Opaque("event_t"), Type::Opaque("event_t")) => Ok(()),
        (Type::Opaque("event_t"), Type::Scalar(s)) if s.is_integer() && null_const => Ok(()),
        _ => Err(AssignError::Incompatible),
    }
}

/// A pointee type with nested pointers' qualifiers reset, so `int *` and `int *` with
/// different const-ness deeper down still compare equal for the warning check.
fn strip_spaces(t: &Type) -> Type {
    t.clone()
}

/// Whether an explicit cast `(to) from` is allowed; the message says why not.
pub fn cast_allowed(to: &Type, from: &Type) -> Result<(), String> {
    match (to, from) {
        (Type::Void, _) => Ok(()),
        (Type::Scalar(_) | Type::Enum(_), Type::Scalar(_) | Type::Enum(_)) => Ok(()),
        (Type::Vector(..), Type::Scalar(_) | Type::Enum(_)) => Ok(()),
        (Type::Vector(..), Type::Vector(..)) if to == from => Ok(()),
        (Type::Vector(..), Type::Vector(..)) => Err(format!(
            "invalid conversion between vector types '{from}' and '{to}': use convert_{to}() or as_{to}()"
        )),
        (Type::Scalar(_), Type::Vector(..)) => {
            Err(format!("invalid conversion from vector type '{from}' to scalar type '{to}'"))
        }
        (Type::Pointer(_), Type::Pointer(_)) => Ok(()),
        (Type::Pointer(_), Type::Scalar(s)) | (Type::Scalar(s), Type::Pointer(_)) if s.is_integer() => Ok(()),
        (Type::Record(a), Type::Record(b)) if a == b => Ok(()),
        _ => Err(format!("invalid cast from '{from}' to '{to}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Scalar::*;

    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(usual_arith(Char, Short), Int);
        assert_eq!(usual_arith(Int, UInt), UInt);
        assert_eq!(usual_arith(Long, UInt), Long);
        assert_eq!(usual_arith(Int, ULong), ULong);
        assert_eq!(usual_arith(Long, ULong), ULong);
        assert_eq!(usual_arith(Int, Float), Float);
        assert_eq!(usual_arith(Float, Double), Double);
        assert_eq!(usual_arith(UChar, UShort), Int);
    }

    #[test]
    fn vector_scalar_rules() {
        let f4 = Type::Vector(Float, 4);
        let i4 = Type::Vector(Int, 4);
        assert_eq!(common_arith(&f4, &Type::int()), Ok(f4.clone()));
        assert_eq!(common_arith(&Type::Scalar(Float), &f4), Ok(f4.clone()));
        assert!(common_arith(&i4, &Type::Scalar(Float)).is_err());
        assert!(common_arith(&f4, &Type::Scalar(Double)).is_err());
        // clang: "scalar operand type has greater rank than the type of the vector element".
        assert!(common_arith(&i4, &Type::Scalar(Long)).is_err());
        assert!(common_arith(&i4, &Type::Scalar(UInt)).is_err());
        assert!(common_arith(&Type::Vector(Char, 4), &Type::int()).is_err());
        let u4 = Type::Vector(UInt, 4);
        assert_eq!(common_arith(&u4, &Type::int()), Ok(u4.clone()));
        assert_eq!(common_arith(&i4, &Type::Scalar(Short)), Ok(i4.clone()));
        assert!(common_arith(&i4, &f4).is_err());
        assert_eq!(relational_result(&f4), i4);
        assert_eq!(
            relational_result(&Type::Vector(Double, 2)),
            Type::Vector(Long, 2)
        );
        assert_eq!(relational_result(&Type::Scalar(Double)), Type::int());
    }

    #[test]
    fn casts_between_vectors_need_convert() {
        let f4 = Type::Vector(Float, 4);
        let i4 = Type::Vector(Int, 4);
        assert!(cast_allowed(&i4, &f4).is_err());
        assert!(cast_allowed(&f4, &Type::Scalar(Int)).is_ok());
        assert!(cast_allowed(&Type::Scalar(Float), &f4).is_err());
    }
}
