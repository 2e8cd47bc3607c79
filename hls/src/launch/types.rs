//! Element types of launch-spec buffers and scalars, and the numbers a spec writes.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

use super::half;

/// A scalar element type a spec may name (`type: float`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ElemType {
    Char,
    Uchar,
    Short,
    Ushort,
    Int,
    Uint,
    Long,
    Ulong,
    Float,
    Half,
    Double,
}

impl ElemType {
    /// Every element type, in the order SPEC.md lists them.
    pub const ALL: [ElemType; 11] = [
        ElemType::Char,
        ElemType::Uchar,
        ElemType::Short,
        ElemType::Ushort,
        ElemType::Int,
        ElemType::Uint,
        ElemType::Long,
        ElemType::Ulong,
        ElemType::Float,
        ElemType::Half,
        ElemType::Double,
    ];

    /// Size of one element in bytes.
    pub fn size(self) -> usize {
        match self {
            ElemType::Char | ElemType::Uchar => 1,
            ElemType::Short | ElemType::Ushort | ElemType::Half => 2,
            ElemType::Int | ElemType::Uint | ElemType::Float => 4,
            ElemType::Long | ElemType::Ulong | ElemType::Double => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, ElemType::Float | ElemType::Half | ElemType::Double)
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            ElemType::Char | ElemType::Short | ElemType::Int | ElemType::Long
        )
    }

    /// The OpenCL C spelling (`uchar`, `float`...).
    pub fn name(self) -> &'static str {
        match self {
            ElemType::Char => "char",
            ElemType::Uchar => "uchar",
            ElemType::Short => "short",
            ElemType::Ushort => "ushort",
            ElemType::Int => "int",
            ElemType::Uint => "uint",
            ElemType::Long => "long",
            ElemType::Ulong => "ulong",
            ElemType::Float => "float",
            ElemType::Half => "half",
            ElemType::Double => "double",
        }
    }

    /// Parses an OpenCL C scalar type spelling, including the `unsigned X` forms a
    /// runtime may report for a parameter.
    pub fn from_c_name(name: &str) -> Option<ElemType> {
        let words: Vec<&str> = name.split_whitespace().collect();
        let t = match words.as_slice() {
            ["unsigned", "char"] => ElemType::Uchar,
            ["unsigned", "short"] => ElemType::Ushort,
            ["unsigned", "int"] | ["unsigned"] => ElemType::Uint,
            ["unsigned", "long"] => ElemType::Ulong,
            [one] => return ElemType::ALL.into_iter().find(|t| t.name() == *one),
            _ => return None,
        };
        Some(t)
    }

    /// Bit width of an integer type (all types, in fact: float types report theirs).
    pub fn bits(self) -> u32 {
        self.size() as u32 * 8
    }

    /// Encodes `v` as one little-endian element. Integers must fit the type's width in
    /// either its signed or its unsigned reading (`-1` is accepted for `uint`); floats are
    /// rounded to nearest even.
    pub fn encode(self, v: Num) -> Result<Vec<u8>, String> {
        if self.is_float() {
            return Ok(self.encode_f64(v.as_f64()));
        }
        let i = match v {
            Num::Int(i) => i,
            Num::Float(f) => {
                return Err(format!(
                    "{f} is not an integer, but the type is {}",
                    self.name()
                ))
            }
        };
        let bits = self.bits();
        let lo = -(1i128 << (bits - 1));
        let hi = (1i128 << bits) - 1;
        if i < lo || i > hi {
            return Err(format!("{i} does not fit in {}", self.name()));
        }
        Ok(self.encode_wrapped(i))
    }

    /// Encodes an integer wrapped to the type's width (two's complement, low bits kept).
    pub fn encode_wrapped(self, i: i128) -> Vec<u8> {
        (i as u128).to_le_bytes()[..self.size()].to_vec()
    }

    /// Encodes an f64 rounded to the element type (float types only; integer types get
    /// the value truncated toward zero and saturated, which callers avoid).
    pub fn encode_f64(self, f: f64) -> Vec<u8> {
        match self {
            ElemType::Float => (f as f32).to_le_bytes().to_vec(),
            ElemType::Double => f.to_le_bytes().to_vec(),
            ElemType::Half => half::f64_to_f16_bits(f).to_le_bytes().to_vec(),
            _ => self.encode_wrapped(f as i128),
        }
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A number as written in the spec: an integer (kept exact, up to the `ulong` range and
/// beyond) or a float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    pub fn as_int(self) -> Option<i128> {
        match self {
            Num::Int(i) => Some(i),
            Num::Float(_) => None,
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(i) => write!(f, "{i}"),
            Num::Float(x) => write!(f, "{x:?}"),
        }
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NumVisitor)
    }
}

struct NumVisitor;

impl Visitor<'_> for NumVisitor {
    type Value = Num;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
        Ok(Num::Int(v.into()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
        Ok(Num::Int(v.into()))
    }
    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Num, E> {
        Ok(Num::Int(v))
    }
    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Num, E> {
        i128::try_from(v)
            .map(Num::Int)
            .map_err(|_| E::custom("integer too large"))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Num, E> {
        Ok(Num::Float(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_fit_signed_or_unsigned_reading() {
        assert_eq!(ElemType::Uint.encode(Num::Int(-1)).unwrap(), vec![0xff; 4]);
        assert_eq!(ElemType::Char.encode(Num::Int(255)).unwrap(), vec![0xff]);
        assert!(ElemType::Uchar.encode(Num::Int(256)).is_err());
        assert!(ElemType::Char.encode(Num::Int(-129)).is_err());
        assert!(ElemType::Int.encode(Num::Float(1.5)).is_err());
        let big = Num::Int(u64::MAX as i128);
        assert_eq!(ElemType::Ulong.encode(big).unwrap(), vec![0xff; 8]);
    }

    #[test]
    fn floats_round_to_type() {
        assert_eq!(
            ElemType::Float.encode(Num::Int(3)).unwrap(),
            3.0f32.to_le_bytes()
        );
        let third = ElemType::Float.encode(Num::Float(1.0 / 3.0)).unwrap();
        assert_eq!(third, (1.0f32 / 3.0).to_le_bytes());
        assert_eq!(
            ElemType::Half.encode(Num::Float(1.0)).unwrap(),
            [0x00, 0x3c]
        );
    }

    #[test]
    fn c_names() {
        assert_eq!(ElemType::from_c_name("unsigned int"), Some(ElemType::Uint));
        assert_eq!(ElemType::from_c_name("ulong"), Some(ElemType::Ulong));
        assert_eq!(ElemType::from_c_name("float4"), None);
    }
}
