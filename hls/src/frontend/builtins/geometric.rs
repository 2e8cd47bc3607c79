//! Geometric functions (OpenCL C 6.12.5) on float and double scalars and 2-, 3- and
//! 4-lane vectors; `cross` on 3 and 4 lanes; the `fast_*` forms on float only.

use super::{st, vt, Family, Table, FLOATS};
use crate::frontend::types::Scalar;

/// Lane counts geometric functions accept.
const GEO_WIDTHS: [u8; 4] = [1, 2, 3, 4];

pub(super) fn add(t: &mut Table) {
    let fam = Family::Geometric;
    for f in FLOATS {
        for n in GEO_WIDTHS {
            let g = vt(f, n);
            for name in ["dot", "distance"] {
                t.add(name, fam, st(f), vec![g.clone(); 2]);
            }
            t.add("length", fam, st(f), vec![g.clone()]);
            t.add("normalize", fam, g.clone(), vec![g.clone()]);
            if f == Scalar::Float {
                t.add("fast_distance", fam, st(f), vec![g.clone(); 2]);
                t.add("fast_length", fam, st(f), vec![g.clone()]);
                t.add("fast_normalize", fam, g.clone(), vec![g.clone()]);
            }
        }
        for n in [3, 4] {
            let g = vt(f, n);
            t.add("cross", fam, g.clone(), vec![g.clone(); 2]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{resolve, BuiltinError};
    use crate::frontend::types::{Scalar, Type};

    const F: Type = Type::Scalar(Scalar::Float);
    const F3: Type = Type::Vector(Scalar::Float, 3);
    const D4: Type = Type::Vector(Scalar::Double, 4);

    fn ret(name: &str, args: &[Type]) -> Type {
        match resolve(name, args) {
            Ok(sig) => sig.ret,
            Err(e) => panic!("{name}: {e:?}"),
        }
    }

    #[test]
    fn scalar_results_and_vector_results() {
        assert_eq!(ret("dot", &[F3, F3]), F);
        assert_eq!(ret("length", &[D4]), Type::Scalar(Scalar::Double));
        assert_eq!(ret("distance", &[F, F]), F);
        assert_eq!(ret("normalize", &[F3]), F3);
        assert_eq!(ret("cross", &[F3, F3]), F3);
        assert_eq!(ret("cross", &[D4, D4]), D4);
        assert_eq!(ret("fast_length", &[F3]), F);
    }

    #[test]
    fn rejected_shapes() {
        let f8 = Type::Vector(Scalar::Float, 8);
        assert!(matches!(
            resolve("dot", &[f8.clone(), f8]),
            Err(BuiltinError::NoMatch(_))
        ));
        let f2 = Type::Vector(Scalar::Float, 2);
        assert!(matches!(
            resolve("cross", &[f2.clone(), f2]),
            Err(BuiltinError::NoMatch(_))
        ));
        assert!(matches!(
            resolve("fast_normalize", &[D4]),
            Err(BuiltinError::NoMatch(_))
        ));
    }
}
