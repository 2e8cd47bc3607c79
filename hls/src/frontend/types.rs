//! OpenCL C types as the checker sees them: scalars, vectors, pointers with address spaces,
//! arrays, records and functions. Layout (size, alignment, offsets) lives in `layout.rs`.

use std::fmt;

/// Index of a struct or union definition in the checker's record table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecordId(pub u32);

/// Index of an enum definition in the checker's enum table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumId(pub u32);

/// Built-in scalar types. `size_t`, `ptrdiff_t`, `intptr_t` and `uintptr_t` are typedefs of
/// `ulong`/`long`: like POCL and clang's spir64 target, addresses are 64 bits wide in the
/// language (the hardware narrows them where it can).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scalar {
    Bool,
    Char,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    Half,
    Float,
    Double,
}

impl Scalar {
    pub const ALL: [Scalar; 12] = [
        Scalar::Bool,
        Scalar::Char,
        Scalar::UChar,
        Scalar::Short,
        Scalar::UShort,
        Scalar::Int,
        Scalar::UInt,
        Scalar::Long,
        Scalar::ULong,
        Scalar::Half,
        Scalar::Float,
        Scalar::Double,
    ];

    /// The OpenCL C spelling (`uint`, not `unsigned int`).
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::Char => "char",
            Scalar::UChar => "uchar",
            Scalar::Short => "short",
            Scalar::UShort => "ushort",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Long => "long",
            Scalar::ULong => "ulong",
            Scalar::Half => "half",
            Scalar::Float => "float",
            Scalar::Double => "double",
        }
    }

    pub fn from_name(s: &str) -> Option<Scalar> {
        Scalar::ALL.iter().copied().find(|k| k.name() == s)
    }

    /// Size in bytes (`bool` is one byte, as in clang).
    pub fn size(self) -> u32 {
        match self {
            Scalar::Bool | Scalar::Char | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort | Scalar::Half => 2,
            Scalar::Int | Scalar::UInt | Scalar::Float => 4,
            Scalar::Long | Scalar::ULong | Scalar::Double => 8,
        }
    }

    pub fn bits(self) -> u32 {
        self.size() * 8
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::Half | Scalar::Float | Scalar::Double)
    }

    pub fn is_integer(self) -> bool {
        !self.is_float()
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long
        ) || self.is_float()
    }

    /// Integer conversion rank (C99 6.3.1.1); floats rank above every integer.
    pub fn rank(self) -> u32 {
        match self {
            Scalar::Bool => 0,
            Scalar::Char | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort => 2,
            Scalar::Int | Scalar::UInt => 3,
            Scalar::Long | Scalar::ULong => 4,
            Scalar::Half => 5,
            Scalar::Float => 6,
            Scalar::Double => 7,
        }
    }

    /// The unsigned type of the same width (identity for unsigned and float types).
    pub fn to_unsigned(self) -> Scalar {
        match self {
            Scalar::Char => Scalar::UChar,
            Scalar::Short => Scalar::UShort,
            Scalar::Int => Scalar::UInt,
            Scalar::Long => Scalar::ULong,
            s => s,
        }
    }

    /// The signed integer type of the same width (`float` gives `int`: the type of
    /// relational results on vectors).
    pub fn to_signed_int(self) -> Scalar {
        match self.size() {
            1 => Scalar::Char,
            2 => Scalar::Short,
            4 => Scalar::Int,
            _ => Scalar::Long,
        }
    }
}

/// The four named address spaces of OpenCL C plus the 2.0 generic space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AddrSpace {
    Private,
    Global,
    Local,
    Constant,
    Generic,
}

impl AddrSpace {
    pub fn name(self) -> &'static str {
        match self {
            AddrSpace::Private => "__private",
            AddrSpace::Global => "__global",
            AddrSpace::Local => "__local",
            AddrSpace::Constant => "__constant",
            AddrSpace::Generic => "__generic",
        }
    }
}

/// `endian(host|device)` on a pointer into `__global`/`__constant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Endian {
    #[default]
    Device,
    Host,
}

/// Type qualifiers that ride on a type (address space is carried by pointers and objects).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Quals {
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Scalar(Scalar),
    /// A vector of 2, 3, 4, 8 or 16 lanes.
    Vector(Scalar, u8),
    Pointer(Box<Pointer>),
    /// `None` length: an incomplete array (`extern`, or a parameter before decay).
    Array(Box<Type>, Option<u64>),
    Record(RecordId),
    Enum(EnumId),
    Function(Box<FunctionType>),
    /// `event_t`, `sampler_t`, image types: accepted in declarations, not computed with.
    Opaque(&'static str),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Pointer {
    pub pointee: Type,
    pub space: AddrSpace,
    /// Qualifiers of the pointee (`const int *` is a pointer to const).
    pub pointee_quals: Quals,
    pub endian: Endian,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FunctionType {
    pub ret: Type,
    pub params: Vec<Type>,
    pub variadic: bool,
}

impl Type {
    pub fn int() -> Type {
        Type::Scalar(Scalar::Int)
    }

    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    /// The element scalar of a scalar or vector type.
    pub fn elem(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) | Type::Vector(s, _) => Some(*s),
            _ => None,
        }
    }

    pub fn lanes(&self) -> u8 {
        match self {
            Type::Vector(_, n) => *n,
            _ => 1,
        }
    }

    pub fn is_vector(&self) -> bool {
        matches!(self, Type::Vector(..))
    }

    pub fn is_arithmetic(&self) -> bool {
        matches!(self, Type::Scalar(_) | Type::Vector(..) | Type::Enum(_))
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Pointer(_))
    }

    pub fn pointer(&self) -> Option<&Pointer> {
        match self {
            Type::Pointer(p) => Some(p),
            _ => None,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Void => write!(f, "void"),
            Type::Scalar(s) => write!(f, "{}", s.name()),
            Type::Vector(s, n) => write!(f, "{}{}", s.name(), n),
            Type::Pointer(p) => {
                let c = if p.pointee_quals.is_const {
                    "const "
                } else {
                    ""
                };
                write!(f, "{} {}{} *", p.space.name(), c, p.pointee)
            }
            Type::Array(t, Some(n)) => write!(f, "{}[{}]", t, n),
            Type::Array(t, None) => write!(f, "{}[]", t),
            Type::Record(r) => write!(f, "record#{}", r.0),
            Type::Enum(e) => write!(f, "enum#{}", e.0),
            Type::Function(ft) => {
                let ps: Vec<String> = ft.params.iter().map(|p| p.to_string()).collect();
                write!(f, "{} ({})", ft.ret, ps.join(", "))
            }
            Type::Opaque(n) => write!(f, "{}", n),
        }
    }
}

/// Parses an OpenCL built-in type name: a scalar (`uint`) or a vector (`float4`, `uchar16`).
pub fn builtin_type_from_name(s: &str) -> Option<Type> {
    if let Some(k) = Scalar::from_name(s) {
        return Some(Type::Scalar(k));
    }
    let digits = s.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    let base = &s[..s.len() - digits.len()];
    let k = Scalar::from_name(base)?;
    if k == Scalar::Bool {
        return None;
    }
    match digits {
        "2" | "3" | "4" | "8" | "16" => Some(Type::Vector(k, digits.parse().ok()?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_names() {
        assert_eq!(
            builtin_type_from_name("float4"),
            Some(Type::Vector(Scalar::Float, 4))
        );
        assert_eq!(
            builtin_type_from_name("uchar16"),
            Some(Type::Vector(Scalar::UChar, 16))
        );
        assert_eq!(
            builtin_type_from_name("int"),
            Some(Type::Scalar(Scalar::Int))
        );
        assert_eq!(builtin_type_from_name("float5"), None);
        assert_eq!(builtin_type_from_name("bool2"), None);
        assert_eq!(builtin_type_from_name("floaty"), None);
    }
}
