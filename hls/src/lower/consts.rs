//! Constant expressions to bits: integer constants from the checker's folded values, float
//! literals rounded once from their text straight to the type they are used as, casts,
//! vector literals and float arithmetic on constants (IEEE, as the hardware would do it).

use crate::frontend::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use crate::frontend::sema::Callee;
use crate::frontend::types::{Scalar, Type};
use crate::launch::half::{f16_bits_to_f64, f64_to_f16_bits};

use super::types::elem;
use super::Lowerer;

/// A constant scalar or vector: each lane's bits, as an IR `Const` holds them.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstVal {
    pub ty: Type,
    pub lanes: Vec<u64>,
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// A lane's value as a float, from the bits of scalar type `s`.
fn as_f64(s: Scalar, bits: u64) -> f64 {
    match s {
        Scalar::Half => f16_bits_to_f64(bits as u16),
        Scalar::Float => f32::from_bits(bits as u32) as f64,
        Scalar::Double => f64::from_bits(bits),
        _ if s.is_signed() => as_i128(s, bits) as f64,
        _ => bits as f64,
    }
}

/// A lane's value as an integer, from the bits of integer type `s`.
fn as_i128(s: Scalar, bits: u64) -> i128 {
    let n = if s == Scalar::Bool { 1 } else { s.bits() };
    let b = bits & mask(n);
    if s.is_signed() && n < 128 && b >> (n - 1) & 1 == 1 {
        b as i128 - (1i128 << n)
    } else {
        b as i128
    }
}

/// Bits of float type `s` for the value `x` (rounded to nearest even).
fn from_f64(s: Scalar, x: f64) -> u64 {
    match s {
        Scalar::Half => f64_to_f16_bits(x) as u64,
        Scalar::Float => (x as f32).to_bits() as u64,
        _ => x.to_bits(),
    }
}

/// Converts one lane between scalar types with C's rules (float to int truncates).
pub fn convert_lane(from: Scalar, to: Scalar, bits: u64) -> u64 {
    if to == Scalar::Bool {
        let nonzero = if from.is_float() {
            as_f64(from, bits) != 0.0
        } else {
            as_i128(from, bits) != 0
        };
        return nonzero as u64;
    }
    match (from.is_float(), to.is_float()) {
        (false, false) => (as_i128(from, bits) as u64) & mask(to.bits()),
        (true, false) => {
            let x = as_f64(from, bits).trunc();
            let v = if to.is_signed() {
                x as i64 as u64
            } else {
                x as u64
            };
            v & mask(to.bits())
        }
        (false, true) => {
            // Rust's integer-to-float `as` rounds to nearest even, once.
            let v = as_i128(from, bits);
            match to {
                Scalar::Float if from.is_signed() => (v as i64 as f32).to_bits() as u64,
                Scalar::Float => (v as u64 as f32).to_bits() as u64,
                Scalar::Double if from.is_signed() => (v as i64 as f64).to_bits(),
                Scalar::Double => (v as u64 as f64).to_bits(),
                _ => from_f64(to, v as f64),
            }
        }
        (true, true) if from == to => bits,
        // Widening is exact; double to half is rounded once from the double.
        (true, true) => from_f64(to, as_f64(from, bits)),
    }
}

/// Converts a constant to `to` (a scalar converted to a vector is replicated).
pub fn convert_const(v: &ConstVal, to: &Type) -> Option<ConstVal> {
    let from = elem(&v.ty)?;
    let te = elem(to)?;
    let lanes: Vec<u64> = v.lanes.iter().map(|b| convert_lane(from, te, *b)).collect();
    let lanes = match (to.lanes(), lanes.len()) {
        (n, 1) if n > 1 => vec![lanes[0]; n as usize],
        (n, m) if n as usize == m => lanes,
        _ => return None,
    };
    Some(ConstVal {
        ty: to.clone(),
        lanes,
    })
}

/// Parses a float literal's text to the nearest value of float type `s`.
pub fn parse_float(text: &str, s: Scalar) -> Option<u64> {
    let t = text.trim();
    if t.starts_with("0x") || t.starts_with("0X") {
        return parse_hex_float(&t[2..], s);
    }
    match s {
        Scalar::Float => t.parse::<f32>().ok().map(|x| x.to_bits() as u64),
        Scalar::Double => t.parse::<f64>().ok().map(f64::to_bits),
        Scalar::Half => t.parse::<f64>().ok().map(|x| f64_to_f16_bits(x) as u64),
        _ => None,
    }
}

/// A hexadecimal float (`1.8p3`, after the `0x`), rounded once to nearest even.
fn parse_hex_float(t: &str, s: Scalar) -> Option<u64> {
    let (mant, exp) = t.split_once(['p', 'P'])?;
    let mut e: i64 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let mut m: u128 = 0;
    let mut sticky = false;
    for (i, c) in int.chars().chain(frac.chars()).enumerate() {
        let d = c.to_digit(16)? as u128;
        if m >> 120 == 0 {
            m = m << 4 | d;
            if i >= int.len() {
                e -= 4;
            }
        } else {
            sticky |= d != 0;
            if i < int.len() {
                e += 4;
            }
        }
    }
    if sticky {
        m = m << 1 | 1;
        e -= 1;
    }
    if m == 0 {
        return Some(0);
    }
    let (p, emin): (i64, i64) = match s {
        Scalar::Float => (24, -126),
        Scalar::Half => (11, -14),
        _ => (53, -1022),
    };
    let len = 128 - m.leading_zeros() as i64;
    let top = len - 1 + e;
    let keep = if top < emin { p - (emin - top) } else { p };
    if keep < 0 {
        return Some(0);
    }
    let shift = len - keep;
    let mut q = m;
    let mut qe = e;
    if shift > 0 {
        let sh = shift as u32;
        let rem = m & ((1u128 << sh) - 1);
        q = m >> sh;
        let half = 1u128 << (sh - 1);
        if rem > half || (rem == half && q & 1 == 1) {
            q += 1;
        }
        qe += shift;
    }
    let x = (q as f64) * 2f64.powi(qe.clamp(-1100, 1100) as i32);
    Some(match s {
        Scalar::Float => (x as f32).to_bits() as u64,
        Scalar::Half => f64_to_f16_bits(x) as u64,
        _ => x.to_bits(),
    })
}

fn float_op(op: BinaryOp, s: Scalar, a: u64, b: u64) -> Option<u64> {
    if s == Scalar::Float {
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        let r = match op {
            BinaryOp::Add => x + y,
            BinaryOp::Sub => x - y,
            BinaryOp::Mul => x * y,
            BinaryOp::Div => x / y,
            _ => return None,
        };
        return Some(r.to_bits() as u64);
    }
    if s == Scalar::Double {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        let r = match op {
            BinaryOp::Add => x + y,
            BinaryOp::Sub => x - y,
            BinaryOp::Mul => x * y,
            BinaryOp::Div => x / y,
            _ => return None,
        };
        return Some(r.to_bits());
    }
    None
}

impl Lowerer<'_> {
    /// The value of `e` after its implicit conversion, when it is a constant.
    pub fn const_value(&self, e: &Expr) -> Option<ConstVal> {
        let info = self.p.expr(e.id);
        let hint = info.conv.as_ref().and_then(elem).filter(|s| s.is_float());
        let raw = self.const_raw(e, hint)?;
        match &info.conv {
            Some(t) if *t != raw.ty => convert_const(&raw, t),
            _ => Some(raw),
        }
    }

    /// The value of `e` before its conversion; a float literal whose use converts it to
    /// float type `hint` is rounded straight to `hint` (rounding twice can differ).
    pub fn const_raw(&self, e: &Expr, hint: Option<Scalar>) -> Option<ConstVal> {
        let info = self.p.expr(e.id);
        let ty = info.ty.clone()?;
        if let (Some(v), Some(s)) = (info.value, elem(&ty)) {
            if s.is_integer() && !ty.is_vector() {
                return Some(ConstVal {
                    ty: Type::Scalar(s),
                    lanes: vec![(v as u64) & mask(if s == Scalar::Bool { 1 } else { s.bits() })],
                });
            }
        }
        match &e.kind {
            ExprKind::FloatLit { text, .. } => {
                let s = hint.or(elem(&ty))?;
                Some(ConstVal {
                    ty: Type::Scalar(s),
                    lanes: vec![parse_float(text, s)?],
                })
            }
            ExprKind::Unary(op @ (UnaryOp::Neg | UnaryOp::Plus), x) => {
                let xi = self.p.expr(x.id);
                let v = if xi.conv.is_none() {
                    self.const_raw(x, hint)?
                } else {
                    self.const_value(x)?
                };
                let s = elem(&v.ty)?;
                if *op == UnaryOp::Plus || !s.is_float() {
                    return None;
                }
                let sign = 1u64 << (s.bits() - 1);
                let lanes = v.lanes.iter().map(|b| b ^ sign).collect();
                Some(ConstVal { ty: v.ty, lanes })
            }
            ExprKind::Cast(_, x) => {
                let v = self.const_value(x)?;
                convert_const(&v, &ty)
            }
            ExprKind::VectorLit(_, comps) => {
                let mut lanes = Vec::new();
                for c in comps {
                    lanes.extend(self.const_value(c)?.lanes);
                }
                if lanes.len() == 1 {
                    lanes = vec![lanes[0]; ty.lanes() as usize];
                }
                (lanes.len() == ty.lanes() as usize).then_some(ConstVal { ty, lanes })
            }
            ExprKind::Binary(op, a, b)
                if ty.is_vector() || elem(&ty).is_some_and(|s| s.is_float()) =>
            {
                let (va, vb) = (self.const_value(a)?, self.const_value(b)?);
                let s = elem(&ty)?;
                if !s.is_float() || va.lanes.len() != vb.lanes.len() {
                    return None;
                }
                let lanes: Option<Vec<u64>> = va
                    .lanes
                    .iter()
                    .zip(&vb.lanes)
                    .map(|(x, y)| float_op(*op, s, *x, *y))
                    .collect();
                Some(ConstVal { ty, lanes: lanes? })
            }
            ExprKind::Call(_, _) => match &info.callee {
                Some(Callee::Builtin(sig)) => {
                    let inf_f = (f32::INFINITY.to_bits() as u64, f32::NAN.to_bits() as u64);
                    let inf_d = (f64::INFINITY.to_bits(), f64::NAN.to_bits());
                    let bits = match sig.name.as_str() {
                        "__builtin_inff" | "__builtin_huge_valf" => inf_f.0,
                        "__builtin_nanf" => inf_f.1,
                        "__builtin_inf" | "__builtin_huge_val" => inf_d.0,
                        "__builtin_nan" => inf_d.1,
                        _ => return None,
                    };
                    Some(ConstVal {
                        ty,
                        lanes: vec![bits],
                    })
                }
                _ => None,
            },
            _ => None,
        }
    }
}

/// Little-endian bytes of a constant as stored in memory (3-lane vectors take 4 lanes).
pub fn const_bytes(v: &ConstVal) -> Option<Vec<u8>> {
    let s = elem(&v.ty)?;
    let size = s.size() as usize;
    let mut out = Vec::new();
    for b in &v.lanes {
        out.extend_from_slice(&b.to_le_bytes()[..size]);
    }
    if v.ty.lanes() == 3 {
        out.extend(std::iter::repeat_n(0u8, size));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_round_once_to_their_type() {
        assert_eq!(
            parse_float("0.1", Scalar::Float),
            Some(0.1f32.to_bits() as u64)
        );
        assert_eq!(parse_float("1.", Scalar::Double), Some(1f64.to_bits()));
        assert_eq!(
            parse_float("0x1.8p1", Scalar::Float),
            Some(3f32.to_bits() as u64)
        );
        assert_eq!(parse_float("0x1p-149", Scalar::Float), Some(1));
        // 1 + 2^-24 + 2^-60 rounds up in float (above the tie), although the double
        // nearest to it is the exact tie 1 + 2^-24, which would round to 1.0f.
        let t = "0x1.000001000000001p0";
        assert_eq!(parse_float(t, Scalar::Float), Some(0x3f80_0001));
    }

    #[test]
    fn conversions_follow_c() {
        assert_eq!(
            convert_lane(Scalar::Float, Scalar::Int, (-2.7f32).to_bits() as u64),
            (-2i32) as u32 as u64
        );
        assert_eq!(convert_lane(Scalar::Char, Scalar::Int, 0xff), 0xffff_ffff);
        assert_eq!(convert_lane(Scalar::UChar, Scalar::Int, 0xff), 0xff);
        assert_eq!(convert_lane(Scalar::Int, Scalar::Bool, 4), 1);
        assert_eq!(
            convert_lane(Scalar::ULong, Scalar::Float, u64::MAX),
            (u64::MAX as f32).to_bits() as u64
        );
    }
}
