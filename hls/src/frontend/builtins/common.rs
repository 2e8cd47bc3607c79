//! Common functions (OpenCL C 6.12.4) on floating `gentype`, with the mixed
//! vector/scalar forms (`clamp(float4, float, float)`, `mix(float4, float4, float)`,
//! `step(float, float4)`, `smoothstep(float, float, float4)`).

use super::{st, vt, Family, Table, FLOATS, VEC_WIDTHS, WIDTHS};

pub(super) fn add(t: &mut Table) {
    let fam = Family::Common;
    for f in FLOATS {
        for n in WIDTHS {
            let g = vt(f, n);
            for name in ["degrees", "radians", "sign"] {
                t.add(name, fam, g.clone(), vec![g.clone()]);
            }
            for name in ["max", "min", "step"] {
                t.add(name, fam, g.clone(), vec![g.clone(); 2]);
            }
            for name in ["clamp", "mix", "smoothstep"] {
                t.add(name, fam, g.clone(), vec![g.clone(); 3]);
            }
        }
        for n in VEC_WIDTHS {
            let (g, s) = (vt(f, n), st(f));
            t.add(
                "clamp",
                fam,
                g.clone(),
                vec![g.clone(), s.clone(), s.clone()],
            );
            t.add("max", fam, g.clone(), vec![g.clone(), s.clone()]);
            t.add("min", fam, g.clone(), vec![g.clone(), s.clone()]);
            t.add("mix", fam, g.clone(), vec![g.clone(), g.clone(), s.clone()]);
            t.add("step", fam, g.clone(), vec![s.clone(), g.clone()]);
            t.add("smoothstep", fam, g.clone(), vec![s.clone(), s, g]);
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

    fn ret(name: &str, args: &[Type]) -> Type {
        match resolve(name, args) {
            Ok(sig) => sig.ret,
            Err(e) => panic!("{name}: {e:?}"),
        }
    }

    #[test]
    fn clamp_on_floats_is_common() {
        // clamp(a, -1.5f, 1.5f) from math_builtins.cl.
        let sig = resolve("clamp", &[F, F, F]).unwrap();
        assert_eq!(sig.ret, F);
        assert_eq!(sig.family, Family::Common);
        assert_eq!(ret("clamp", &[F4, F, F]), F4);
        // With int literals the float, double and integer overloads tie.
        assert!(matches!(
            resolve("clamp", &[F, Type::int(), Type::int()]),
            Err(BuiltinError::Ambiguous(_))
        ));
    }

    #[test]
    fn mixed_forms() {
        assert_eq!(ret("mix", &[F4, F4, F]), F4);
        // A double literal converts to float, which beats splatting it to float4.
        assert_eq!(ret("mix", &[F4, F4, D]), F4);
        assert_eq!(resolve("mix", &[F4, F4, D]).unwrap().params[2], F);
        assert_eq!(ret("step", &[F, F4]), F4);
        assert_eq!(ret("smoothstep", &[F, F, F4]), F4);
        assert_eq!(ret("max", &[F4, F]), F4);
        assert_eq!(ret("sign", &[D]), D);
        assert_eq!(ret("radians", &[F4]), F4);
    }

    #[test]
    fn float_vectors_never_meet_int_overloads() {
        assert!(matches!(
            resolve("min", &[F4, Type::Vector(Scalar::Int, 4)]),
            Err(BuiltinError::NoMatch(_))
        ));
    }
}
