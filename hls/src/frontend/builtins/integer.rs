//! Integer functions (OpenCL C 6.12.3) over `igentype`/`ugentype`: every integer element
//! type with 1, 2, 3, 4, 8 or 16 lanes; `mad24`/`mul24` on int and uint only.

use super::{st, vt, Family, Table, INTS, VEC_WIDTHS, WIDTHS};
use crate::frontend::types::Scalar;

/// `gentype f(gentype)`.
const UNARY: [&str; 3] = ["clz", "ctz", "popcount"];
/// `gentype f(gentype, gentype)`.
const BINARY: [&str; 8] = [
    "add_sat", "hadd", "rhadd", "max", "min", "mul_hi", "rotate", "sub_sat",
];
/// `gentype f(gentype, gentype, gentype)`.
const TERNARY: [&str; 3] = ["clamp", "mad_hi", "mad_sat"];

pub(super) fn add(t: &mut Table) {
    let fam = Family::Integer;
    for k in INTS {
        for n in WIDTHS {
            let g = vt(k, n);
            let u = vt(k.to_unsigned(), n);
            for name in UNARY {
                t.add(name, fam, g.clone(), vec![g.clone()]);
            }
            for name in BINARY {
                t.add(name, fam, g.clone(), vec![g.clone(), g.clone()]);
            }
            for name in TERNARY {
                t.add(name, fam, g.clone(), vec![g.clone(); 3]);
            }
            t.add("abs", fam, u.clone(), vec![g.clone()]);
            t.add("abs_diff", fam, u, vec![g.clone(), g.clone()]);
            if let Some(wide) = upsampled(k) {
                let lo = vt(k.to_unsigned(), n);
                t.add("upsample", fam, vt(wide, n), vec![g.clone(), lo]);
            }
            if matches!(k, Scalar::Int | Scalar::UInt) {
                t.add("mad24", fam, g.clone(), vec![g.clone(); 3]);
                t.add("mul24", fam, g.clone(), vec![g.clone(); 2]);
            }
        }
        // The `sgentype` forms: max(int4, int), clamp(int4, int, int).
        for n in VEC_WIDTHS {
            let g = vt(k, n);
            for name in ["max", "min"] {
                t.add(name, fam, g.clone(), vec![g.clone(), st(k)]);
            }
            t.add("clamp", fam, g.clone(), vec![g.clone(), st(k), st(k)]);
        }
    }
}

/// The result element of `upsample(hi, lo)`: twice as wide, with the signedness of `hi`.
fn upsampled(hi: Scalar) -> Option<Scalar> {
    match hi {
        Scalar::Char => Some(Scalar::Short),
        Scalar::UChar => Some(Scalar::UShort),
        Scalar::Short => Some(Scalar::Int),
        Scalar::UShort => Some(Scalar::UInt),
        Scalar::Int => Some(Scalar::Long),
        Scalar::UInt => Some(Scalar::ULong),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{resolve, BuiltinError, Family};
    use crate::frontend::types::{Scalar, Type};

    fn s(k: Scalar) -> Type {
        Type::Scalar(k)
    }

    fn ret(name: &str, args: &[Type]) -> Type {
        match resolve(name, args) {
            Ok(sig) => sig.ret,
            Err(e) => panic!("{name}: {e:?}"),
        }
    }

    #[test]
    fn unsigned_results() {
        assert_eq!(ret("abs", &[s(Scalar::Char)]), s(Scalar::UChar));
        assert_eq!(
            ret("abs", &[Type::Vector(Scalar::Int, 4)]),
            Type::Vector(Scalar::UInt, 4)
        );
        assert_eq!(
            ret("abs_diff", &[Type::int(), Type::int()]),
            s(Scalar::UInt)
        );
        assert_eq!(
            ret("abs_diff", &[s(Scalar::Long), s(Scalar::Long)]),
            s(Scalar::ULong)
        );
    }

    #[test]
    fn same_type_results() {
        assert_eq!(ret("mul_hi", &[Type::int(), Type::int()]), Type::int());
        assert_eq!(ret("rotate", &[Type::int(), Type::int()]), Type::int());
        assert_eq!(ret("clz", &[s(Scalar::UInt)]), s(Scalar::UInt));
        assert_eq!(ret("popcount", &[s(Scalar::UInt)]), s(Scalar::UInt));
        assert_eq!(
            ret("max", &[s(Scalar::Char), s(Scalar::Char)]),
            s(Scalar::Char)
        );
        assert_eq!(
            ret("add_sat", &[s(Scalar::UChar), s(Scalar::UChar)]),
            s(Scalar::UChar)
        );
        assert_eq!(
            resolve("mad_sat", &[Type::int(), Type::int(), Type::int()]).map(|s| s.family),
            Ok(Family::Integer)
        );
    }

    #[test]
    fn mad24_takes_int_and_uint() {
        // mad24(x & 0x7FF, y & 0x7FF, (int)cx) from integer_ops.cl.
        assert_eq!(
            ret("mad24", &[Type::int(), Type::int(), Type::int()]),
            Type::int()
        );
        assert_eq!(
            ret("mul24", &[s(Scalar::UInt), s(Scalar::UInt)]),
            s(Scalar::UInt)
        );
        // short promotes to int; no short overload exists.
        assert_eq!(
            ret("mul24", &[s(Scalar::Short), s(Scalar::Short)]),
            Type::int()
        );
    }

    #[test]
    fn upsample_widens() {
        let r = ret("upsample", &[s(Scalar::Char), s(Scalar::UChar)]);
        assert_eq!(r, s(Scalar::Short));
        let r = ret("upsample", &[s(Scalar::UInt), s(Scalar::UInt)]);
        assert_eq!(r, s(Scalar::ULong));
        let hi = Type::Vector(Scalar::Short, 4);
        let lo = Type::Vector(Scalar::UShort, 4);
        assert_eq!(ret("upsample", &[hi, lo]), Type::Vector(Scalar::Int, 4));
        // The low half must be unsigned: no vector conversion from short4 to ushort4.
        let hi = Type::Vector(Scalar::Short, 4);
        assert!(resolve("upsample", &[hi.clone(), hi]).is_err());
    }

    #[test]
    fn scalar_bounds_with_vectors() {
        let i4 = Type::Vector(Scalar::Int, 4);
        assert_eq!(ret("max", &[i4.clone(), Type::int()]), i4);
        assert_eq!(ret("clamp", &[i4.clone(), Type::int(), Type::int()]), i4);
        assert_eq!(
            resolve("min", &[i4.clone(), Type::int()]).unwrap().params[1],
            Type::int()
        );
        // A float bound converts to int and still beats splatting.
        assert_eq!(ret("max", &[i4.clone(), s(Scalar::Float)]), i4);
    }

    #[test]
    fn mixed_literal_calls_are_ambiguous_as_in_clang() {
        // max(x, 0) with x uint: uint,uint needs int->uint on arg 2; int,int needs
        // uint->int on arg 1. clang 14 reports "call to 'max' is ambiguous".
        assert!(matches!(
            resolve("max", &[s(Scalar::UInt), Type::int()]),
            Err(BuiltinError::Ambiguous(_))
        ));
        assert!(matches!(
            resolve("max", &[s(Scalar::Char), s(Scalar::Short)]),
            Err(BuiltinError::Ambiguous(_))
        ));
        assert!(matches!(
            resolve("rotate", &[s(Scalar::Char), Type::int()]),
            Err(BuiltinError::Ambiguous(_))
        ));
        assert_eq!(
            ret("max", &[s(Scalar::UInt), s(Scalar::UInt)]),
            s(Scalar::UInt)
        );
    }

    #[test]
    fn no_vector_conversions() {
        let i4 = Type::Vector(Scalar::Int, 4);
        let u4 = Type::Vector(Scalar::UInt, 4);
        match resolve("add_sat", &[i4, u4]) {
            Err(BuiltinError::NoMatch(msg)) => {
                assert!(msg.contains("add_sat"), "{msg}");
                assert!(msg.contains("int4"), "{msg}");
            }
            other => panic!("expected NoMatch, got {other:?}"),
        }
    }
}
