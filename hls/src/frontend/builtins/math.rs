//! Math functions (OpenCL C 6.12.2): `gentype` is float or double with 1, 2, 3, 4, 8 or
//! 16 lanes; `half_*` and `native_*` are float only.

use super::{ptr, st, vt, Family, Table, FLOATS, VEC_WIDTHS, WIDTHS, WRITABLE_SPACES};
use crate::frontend::types::{Scalar, Type};

/// `gentype f(gentype)`.
const UNARY: [&str; 40] = [
    "acos", "acosh", "acospi", "asin", "asinh", "asinpi", "atan", "atanh", "atanpi", "cbrt",
    "ceil", "cos", "cosh", "cospi", "erfc", "erf", "exp", "exp2", "exp10", "expm1", "fabs",
    "floor", "lgamma", "log", "log2", "log10", "log1p", "logb", "rint", "round", "rsqrt", "sin",
    "sinh", "sinpi", "sqrt", "tan", "tanh", "tanpi", "tgamma", "trunc",
];

/// `gentype f(gentype, gentype)`.
const BINARY: [&str; 14] = [
    "atan2",
    "atan2pi",
    "copysign",
    "fdim",
    "fmax",
    "fmin",
    "fmod",
    "hypot",
    "maxmag",
    "minmag",
    "nextafter",
    "pow",
    "powr",
    "remainder",
];

/// `gentype f(gentype, gentype, gentype)`.
const TERNARY: [&str; 2] = ["fma", "mad"];

/// Suffixes of the `half_` and `native_` variants and their arity (float only).
const FAST: [(&str, usize); 13] = [
    ("cos", 1),
    ("divide", 2),
    ("exp", 1),
    ("exp2", 1),
    ("exp10", 1),
    ("log", 1),
    ("log2", 1),
    ("log10", 1),
    ("powr", 2),
    ("recip", 1),
    ("rsqrt", 1),
    ("sin", 1),
    ("sqrt", 1),
];

pub(super) fn add(t: &mut Table) {
    let fam = Family::Math;
    for f in FLOATS {
        for n in WIDTHS {
            let g = vt(f, n);
            let int_n = vt(Scalar::Int, n);
            for name in UNARY {
                t.add(name, fam, g.clone(), vec![g.clone()]);
            }
            for name in BINARY {
                t.add(name, fam, g.clone(), vec![g.clone(), g.clone()]);
            }
            for name in TERNARY {
                t.add(name, fam, g.clone(), vec![g.clone(), g.clone(), g.clone()]);
            }
            t.add("ilogb", fam, int_n.clone(), vec![g.clone()]);
            for name in ["ldexp", "pown", "rootn"] {
                t.add(name, fam, g.clone(), vec![g.clone(), int_n.clone()]);
            }
            let code = if f == Scalar::Float {
                Scalar::UInt
            } else {
                Scalar::ULong
            };
            t.add("nan", fam, g.clone(), vec![vt(code, n)]);
            for sp in WRITABLE_SPACES {
                let gp = ptr(g.clone(), sp, false, false);
                let ip = ptr(int_n.clone(), sp, false, false);
                for name in ["fract", "modf", "sincos"] {
                    t.add(name, fam, g.clone(), vec![g.clone(), gp.clone()]);
                }
                for name in ["frexp", "lgamma_r"] {
                    t.add(name, fam, g.clone(), vec![g.clone(), ip.clone()]);
                }
                t.add("remquo", fam, g.clone(), vec![g.clone(), g.clone(), ip]);
            }
        }
        // Mixed vector/scalar forms: fmin(float4, float), ldexp(float4, int).
        for n in VEC_WIDTHS {
            let g = vt(f, n);
            for name in ["fmin", "fmax"] {
                t.add(name, fam, g.clone(), vec![g.clone(), st(f)]);
            }
            t.add("ldexp", fam, g.clone(), vec![g.clone(), Type::int()]);
        }
    }
    for n in WIDTHS {
        let g = vt(Scalar::Float, n);
        for (suffix, arity) in FAST {
            for prefix in ["half_", "native_"] {
                let name = format!("{prefix}{suffix}");
                t.add(&name, fam, g.clone(), vec![g.clone(); arity]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{resolve, BuiltinError, Family};
    use crate::frontend::types::{AddrSpace, Scalar, Type};

    const F: Type = Type::Scalar(Scalar::Float);
    const D: Type = Type::Scalar(Scalar::Double);
    const F4: Type = Type::Vector(Scalar::Float, 4);
    const I4: Type = Type::Vector(Scalar::Int, 4);

    fn ret(name: &str, args: &[Type]) -> Type {
        match resolve(name, args) {
            Ok(sig) => sig.ret,
            Err(e) => panic!("{name}: {e:?}"),
        }
    }

    #[test]
    fn gentype_overloads() {
        assert_eq!(ret("sqrt", &[F]), F);
        assert_eq!(ret("sqrt", &[D]), D);
        assert_eq!(ret("sin", &[F4]), F4);
        assert_eq!(ret("fma", &[F, F, F]), F);
        // 1.0 (a double literal) with float operands: fma(double, double, double) wins
        // on the third argument only, fma(float...) on the first two: ambiguous, as clang.
        assert!(matches!(
            resolve("fma", &[F, F, D]),
            Err(BuiltinError::Ambiguous(_))
        ));
        assert_eq!(ret("pow", &[F, F]), F);
        assert_eq!(ret("copysign", &[F, F]), F);
        assert_eq!(resolve("fabs", &[F]).map(|s| s.family), Ok(Family::Math));
    }

    #[test]
    fn integer_side_arguments() {
        assert_eq!(ret("ilogb", &[F4]), I4);
        assert_eq!(ret("ldexp", &[F4, I4]), F4);
        assert_eq!(ret("ldexp", &[F4, Type::int()]), F4);
        assert_eq!(ret("pown", &[F, Type::Scalar(Scalar::Char)]), F);
        assert_eq!(ret("rootn", &[D, Type::int()]), D);
        assert_eq!(ret("nan", &[Type::Scalar(Scalar::UInt)]), F);
        assert_eq!(
            ret("nan", &[Type::Vector(Scalar::ULong, 2)]),
            Type::Vector(Scalar::Double, 2)
        );
    }

    #[test]
    fn mixed_vector_scalar() {
        assert_eq!(ret("fmin", &[F4, F]), F4);
        // An int literal converts to float and beats splatting to float4.
        assert_eq!(ret("fmax", &[F4, Type::int()]), F4);
        assert_eq!(resolve("fmin", &[F4, F]).unwrap().params[1], F);
    }

    #[test]
    fn pointer_outputs() {
        use super::super::ptr;
        let gp = ptr(F4, AddrSpace::Global, false, false);
        assert_eq!(ret("fract", &[F4, gp.clone()]), F4);
        assert_eq!(ret("modf", &[F4, gp]), F4);
        let ip = ptr(Type::int(), AddrSpace::Private, false, false);
        assert_eq!(ret("frexp", &[F, ip.clone()]), F);
        assert_eq!(ret("remquo", &[F, F, ip.clone()]), F);
        assert_eq!(ret("lgamma_r", &[F, ip]), F);
        let cp = ptr(F, AddrSpace::Constant, false, false);
        assert!(matches!(
            resolve("sincos", &[F, cp]),
            Err(BuiltinError::NoMatch(_))
        ));
        let wrong = ptr(Type::int(), AddrSpace::Global, false, false);
        assert!(matches!(
            resolve("fract", &[F, wrong]),
            Err(BuiltinError::NoMatch(_))
        ));
    }

    #[test]
    fn half_and_native_are_float_only() {
        assert_eq!(ret("native_sin", &[F4]), F4);
        assert_eq!(ret("half_divide", &[F, F]), F);
        assert_eq!(ret("native_recip", &[Type::int()]), F);
        assert!(matches!(
            resolve("native_exp", &[Type::Vector(Scalar::Double, 2)]),
            Err(BuiltinError::NoMatch(_))
        ));
    }

    #[test]
    fn untyped_integer_arguments_are_ambiguous() {
        // sqrt(1): int converts to float and to double equally well.
        assert!(matches!(
            resolve("sqrt", &[Type::int()]),
            Err(BuiltinError::Ambiguous(_))
        ));
        assert!(matches!(
            resolve("frobnicate", &[F]),
            Err(BuiltinError::NoMatch(_)) | Err(BuiltinError::Unknown)
        ));
    }
}
