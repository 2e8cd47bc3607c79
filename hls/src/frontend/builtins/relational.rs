//! Relational functions (OpenCL C 6.12.6): float comparisons and classification giving
//! int for scalars and a signed integer vector of the element width for vectors (so a
//! scalar double gives int but double4 gives long4), `any`/`all` over signed integers,
//! `bitselect` and `select` over every element type.

use super::{vt, Family, Table, ALL_ELEMS, FLOATS, WIDTHS};
use crate::frontend::types::{Scalar, Type};

const COMPARE: [&str; 9] = [
    "isequal",
    "isnotequal",
    "isgreater",
    "isgreaterequal",
    "isless",
    "islessequal",
    "islessgreater",
    "isordered",
    "isunordered",
];
const CLASSIFY: [&str; 5] = ["isfinite", "isinf", "isnan", "isnormal", "signbit"];
const SIGNED: [Scalar; 4] = [Scalar::Char, Scalar::Short, Scalar::Int, Scalar::Long];

pub(super) fn add(t: &mut Table) {
    let fam = Family::Relational;
    for f in FLOATS {
        for n in WIDTHS {
            let g = vt(f, n);
            let r = if n == 1 {
                Type::int()
            } else {
                vt(f.to_signed_int(), n)
            };
            for name in COMPARE {
                t.add(name, fam, r.clone(), vec![g.clone(); 2]);
            }
            for name in CLASSIFY {
                t.add(name, fam, r.clone(), vec![g.clone()]);
            }
        }
    }
    for k in SIGNED {
        for n in WIDTHS {
            for name in ["any", "all"] {
                t.add(name, fam, Type::int(), vec![vt(k, n)]);
            }
        }
    }
    for k in ALL_ELEMS {
        for n in WIDTHS {
            let g = vt(k, n);
            t.add("bitselect", fam, g.clone(), vec![g.clone(); 3]);
            let mask = k.to_signed_int();
            for c in [mask, mask.to_unsigned()] {
                t.add(
                    "select",
                    fam,
                    g.clone(),
                    vec![g.clone(), g.clone(), vt(c, n)],
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{resolve, BuiltinError, Family};
    use crate::frontend::types::{Scalar, Type};

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
    fn comparison_results() {
        assert_eq!(ret("isequal", &[F, F]), Type::int());
        assert_eq!(ret("isless", &[F4, F4]), I4);
        assert_eq!(ret("isnan", &[D]), Type::int());
        let d2 = Type::Vector(Scalar::Double, 2);
        assert_eq!(ret("signbit", &[d2]), Type::Vector(Scalar::Long, 2));
        assert_eq!(
            resolve("isinf", &[F]).map(|s| s.family),
            Ok(Family::Relational)
        );
    }

    #[test]
    fn any_all_take_signed_integers() {
        assert_eq!(ret("any", &[I4]), Type::int());
        assert_eq!(ret("all", &[Type::Vector(Scalar::Char, 16)]), Type::int());
        // There is no unsigned overload and vectors do not convert.
        assert!(matches!(
            resolve("any", &[Type::Vector(Scalar::UInt, 4)]),
            Err(BuiltinError::NoMatch(_))
        ));
    }

    #[test]
    fn select_and_bitselect() {
        // select(s, t, s > t) from vector_types.cl.
        assert_eq!(ret("select", &[F4, F4, I4]), F4);
        assert_eq!(ret("select", &[F4, F4, Type::Vector(Scalar::UInt, 4)]), F4);
        let d2 = Type::Vector(Scalar::Double, 2);
        assert_eq!(
            ret(
                "select",
                &[d2.clone(), d2.clone(), Type::Vector(Scalar::Long, 2)]
            ),
            d2
        );
        // Mask width must match the element width.
        assert!(matches!(
            resolve("select", &[d2.clone(), d2, Type::Vector(Scalar::Int, 2)]),
            Err(BuiltinError::NoMatch(_))
        ));
        // A scalar mask splats equally well to int4 and uint4.
        assert!(matches!(
            resolve("select", &[F4, F4, Type::int()]),
            Err(BuiltinError::Ambiguous(_))
        ));
        assert_eq!(ret("bitselect", &[F4, F4, F4]), F4);
        let u = Type::Scalar(Scalar::UInt);
        assert_eq!(ret("bitselect", &[u.clone(), u.clone(), u.clone()]), u);
    }
}
