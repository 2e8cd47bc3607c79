//! Integer constant folding: literal typing, wrapping to a type's width, and the
//! operators of integer constant expressions (pure functions on `i128` values).

use crate::frontend::ast::{BinaryOp, UnaryOp};
use crate::frontend::types::Scalar;

/// Wraps a value to the range of an integer scalar type, as a conversion does.
pub fn wrap(v: i128, s: Scalar) -> i128 {
    if s == Scalar::Bool {
        return (v != 0) as i128;
    }
    let bits = s.bits();
    let m = v & ((1i128 << bits) - 1);
    if s.is_signed() && m >= (1i128 << (bits - 1)) {
        m - (1i128 << bits)
    } else {
        m
    }
}

/// The type of an integer literal (C99 6.4.4.1 with OpenCL's 32-bit int and 64-bit long).
pub fn int_literal_type(value: u64, unsigned: bool, long: bool, decimal: bool) -> Option<Scalar> {
    let fits = |s: Scalar| {
        let max: u64 = match s {
            Scalar::Int => i32::MAX as u64,
            Scalar::UInt => u32::MAX as u64,
            Scalar::Long => i64::MAX as u64,
            _ => u64::MAX,
        };
        value <= max
    };
    let candidates: &[Scalar] = match (unsigned, long, decimal) {
        (false, false, true) => &[Scalar::Int, Scalar::Long],
        (false, false, false) => &[Scalar::Int, Scalar::UInt, Scalar::Long, Scalar::ULong],
        (true, false, _) => &[Scalar::UInt, Scalar::ULong],
        (false, true, true) => &[Scalar::Long],
        (false, true, false) => &[Scalar::Long, Scalar::ULong],
        (true, true, _) => &[Scalar::ULong],
    };
    candidates.iter().copied().find(|s| fits(*s))
}

/// Folds a unary operator on an operand already converted to `ty`.
pub fn fold_unary(op: UnaryOp, v: i128, ty: Scalar) -> Option<i128> {
    let r = match op {
        UnaryOp::Neg => -v,
        UnaryOp::Plus => v,
        UnaryOp::BitNot => !v,
        UnaryOp::Not => return Some((v == 0) as i128),
        _ => return None,
    };
    Some(wrap(r, ty))
}

/// Why a binary fold failed in a way the user must hear about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldError {
    DivByZero,
    /// Not foldable here (not an error).
    NotConstant,
}

/// Folds an arithmetic/bitwise/shift/comparison operator. `ty` is the type the operands
/// were converted to (for shifts: the promoted left type); comparisons give 0/1.
pub fn fold_binary(op: BinaryOp, a: i128, b: i128, ty: Scalar) -> Result<i128, FoldError> {
    use BinaryOp::*;
    let bits = ty.bits() as i128;
    let r = match op {
        Add => a + b,
        Sub => a - b,
        Mul => a.wrapping_mul(b),
        Div | Rem if b == 0 => return Err(FoldError::DivByZero),
        Div => a.wrapping_div(b),
        Rem => a.wrapping_rem(b),
        // OpenCL takes shift counts modulo the width of the left operand.
        Shl => a << (b.rem_euclid(bits)),
        Shr => a >> (b.rem_euclid(bits)),
        BitAnd => a & b,
        BitOr => a | b,
        BitXor => a ^ b,
        Lt => return Ok((a < b) as i128),
        Gt => return Ok((a > b) as i128),
        Le => return Ok((a <= b) as i128),
        Ge => return Ok((a >= b) as i128),
        Eq => return Ok((a == b) as i128),
        Ne => return Ok((a != b) as i128),
        LogAnd => return Ok((a != 0 && b != 0) as i128),
        LogOr => return Ok((a != 0 || b != 0) as i128),
    };
    Ok(wrap(r, ty))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping() {
        assert_eq!(wrap(256, Scalar::UChar), 0);
        assert_eq!(wrap(255, Scalar::Char), -1);
        assert_eq!(wrap(-1, Scalar::UInt), 0xffff_ffff);
        assert_eq!(wrap(1 << 63, Scalar::Long), i64::MIN as i128);
        assert_eq!(wrap(5, Scalar::Bool), 1);
    }

    #[test]
    fn literal_types() {
        assert_eq!(int_literal_type(1, false, false, true), Some(Scalar::Int));
        assert_eq!(
            int_literal_type(0x8000_0000, false, false, true),
            Some(Scalar::Long)
        );
        assert_eq!(
            int_literal_type(0x8000_0000, false, false, false),
            Some(Scalar::UInt)
        );
        assert_eq!(
            int_literal_type(2654435761, true, false, true),
            Some(Scalar::UInt)
        );
        assert_eq!(int_literal_type(u64::MAX, false, false, true), None);
        assert_eq!(
            int_literal_type(u64::MAX, false, false, false),
            Some(Scalar::ULong)
        );
    }

    #[test]
    fn folding() {
        use BinaryOp::*;
        assert_eq!(
            fold_binary(Add, i32::MAX as i128, 1, Scalar::Int),
            Ok(i32::MIN as i128)
        );
        assert_eq!(
            fold_binary(Div, 7, 0, Scalar::Int),
            Err(FoldError::DivByZero)
        );
        assert_eq!(fold_binary(Shl, 1, 33, Scalar::Int), Ok(2));
        assert_eq!(fold_binary(Div, -7, 2, Scalar::Int), Ok(-3));
        assert_eq!(fold_binary(Rem, -7, 2, Scalar::Int), Ok(-1));
        assert_eq!(fold_binary(Sub, 0, 1, Scalar::UInt), Ok(0xffff_ffff));
        assert_eq!(fold_binary(Lt, -1, 0, Scalar::Int), Ok(1));
        assert_eq!(
            fold_unary(UnaryOp::Neg, i32::MIN as i128, Scalar::Int),
            Some(i32::MIN as i128)
        );
        assert_eq!(fold_unary(UnaryOp::BitNot, 0, Scalar::UChar), Some(255));
    }
}
