//! Vector data load and store functions (OpenCL C 6.12.7): `vloadn`/`vstoren` for every
//! element type, and the half-precision forms that read and write `half` storage as
//! float (`vload_half`, `vloada_halfn`, `vstore_half[n]_rX`, `vstorea_halfn_rX`).

use super::{ptr, size_t, vt, Family, Table, ALL_ELEMS, FLOATS, VEC_WIDTHS, WRITABLE_SPACES};
use crate::frontend::types::{AddrSpace, Scalar, Type};

/// Loads may read any address space, `__constant` included.
const READ_SPACES: [AddrSpace; 5] = [
    AddrSpace::Global,
    AddrSpace::Local,
    AddrSpace::Constant,
    AddrSpace::Private,
    AddrSpace::Generic,
];

/// Rounding-mode suffixes of the half stores (none: the default, round to nearest even).
const ROUNDINGS: [&str; 5] = ["", "_rte", "_rtz", "_rtp", "_rtn"];

pub(super) fn add(t: &mut Table) {
    let fam = Family::VectorLoadStore;
    let void = Type::Void;
    for n in VEC_WIDTHS {
        let (load, store) = (format!("vload{n}"), format!("vstore{n}"));
        for k in ALL_ELEMS {
            for sp in READ_SPACES {
                let p = ptr(Type::Scalar(k), sp, true, false);
                t.add(&load, fam, vt(k, n), vec![size_t(), p]);
            }
            for sp in WRITABLE_SPACES {
                let p = ptr(Type::Scalar(k), sp, false, false);
                t.add(&store, fam, void.clone(), vec![vt(k, n), size_t(), p]);
            }
        }
    }
    let half = Type::Scalar(Scalar::Half);
    // "" is the scalar vload_half/vstore_half; vloada/vstorea exist for vectors only.
    let lane_names =
        std::iter::once((1u8, String::new())).chain(VEC_WIDTHS.iter().map(|n| (*n, n.to_string())));
    for (n, suffix) in lane_names {
        let mut loads = vec![format!("vload_half{suffix}")];
        let mut stores = vec![format!("vstore_half{suffix}")];
        if n > 1 {
            loads.push(format!("vloada_half{suffix}"));
            stores.push(format!("vstorea_half{suffix}"));
        }
        for name in &loads {
            for sp in READ_SPACES {
                let p = ptr(half.clone(), sp, true, false);
                t.add(name, fam, vt(Scalar::Float, n), vec![size_t(), p]);
            }
        }
        for base in &stores {
            for round in ROUNDINGS {
                let name = format!("{base}{round}");
                for f in FLOATS {
                    for sp in WRITABLE_SPACES {
                        let p = ptr(half.clone(), sp, false, false);
                        t.add(&name, fam, void.clone(), vec![vt(f, n), size_t(), p]);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ptr, resolve, BuiltinError, Family};
    use crate::frontend::types::{AddrSpace, Scalar, Type};

    const F: Type = Type::Scalar(Scalar::Float);
    const HALF: Type = Type::Scalar(Scalar::Half);

    fn ret(name: &str, args: &[Type]) -> Type {
        match resolve(name, args) {
            Ok(sig) => sig.ret,
            Err(e) => panic!("{name}: {e:?}"),
        }
    }

    #[test]
    fn vload_from_any_space() {
        let idx = Type::Scalar(Scalar::ULong);
        // vload4(i, b) with b a `__global const float *` (vector_types.cl).
        let b = ptr(F, AddrSpace::Global, true, false);
        let sig = resolve("vload4", &[idx.clone(), b]).unwrap();
        assert_eq!(sig.ret, Type::Vector(Scalar::Float, 4));
        assert_eq!(sig.family, Family::VectorLoadStore);
        // Non-const pointers and __constant pointers load too; an int offset converts.
        let c = ptr(
            Type::Scalar(Scalar::UChar),
            AddrSpace::Constant,
            false,
            false,
        );
        assert_eq!(
            ret("vload16", &[Type::int(), c]),
            Type::Vector(Scalar::UChar, 16)
        );
        let l = ptr(Type::Scalar(Scalar::Double), AddrSpace::Local, false, false);
        assert_eq!(ret("vload3", &[idx, l]), Type::Vector(Scalar::Double, 3));
    }

    #[test]
    fn vstore_not_to_constant() {
        let idx = Type::Scalar(Scalar::ULong);
        // vstore3(p * 2.0f, i, packed3) from vector_types.cl.
        let p = ptr(F, AddrSpace::Global, false, false);
        let f3 = Type::Vector(Scalar::Float, 3);
        assert_eq!(ret("vstore3", &[f3.clone(), idx.clone(), p]), Type::Void);
        let c = ptr(F, AddrSpace::Constant, false, false);
        assert!(matches!(
            resolve("vstore3", &[f3.clone(), idx.clone(), c]),
            Err(BuiltinError::NoMatch(_))
        ));
        let konst = ptr(F, AddrSpace::Global, true, false);
        assert!(resolve("vstore3", &[f3.clone(), idx.clone(), konst]).is_err());
        // The data must be exactly the vector of the pointee type.
        let i = ptr(Type::int(), AddrSpace::Global, false, false);
        assert!(resolve("vstore3", &[f3, idx, i]).is_err());
    }

    #[test]
    fn half_storage() {
        let idx = Type::Scalar(Scalar::ULong);
        let inp = ptr(HALF, AddrSpace::Global, true, false);
        let out = ptr(HALF, AddrSpace::Global, false, false);
        // half_storage.cl: vload_half(i, in); vstore_half(v * k, i, out).
        assert_eq!(ret("vload_half", &[idx.clone(), inp.clone()]), F);
        assert_eq!(
            ret("vstore_half", &[F, idx.clone(), out.clone()]),
            Type::Void
        );
        assert_eq!(
            ret("vload_half4", &[idx.clone(), inp.clone()]),
            Type::Vector(Scalar::Float, 4)
        );
        assert_eq!(
            ret("vloada_half8", &[idx.clone(), inp]),
            Type::Vector(Scalar::Float, 8)
        );
        let d2 = Type::Vector(Scalar::Double, 2);
        assert_eq!(
            ret("vstorea_half2_rtz", &[d2, idx.clone(), out.clone()]),
            Type::Void
        );
        assert_eq!(
            ret(
                "vstore_half_rtn",
                &[Type::Scalar(Scalar::Double), idx.clone(), out.clone()]
            ),
            Type::Void
        );
        // A float argument to a double-or-float scalar store picks float exactly; an int
        // one would be ambiguous.
        assert!(matches!(
            resolve("vstore_half", &[Type::int(), idx, out]),
            Err(BuiltinError::Ambiguous(_))
        ));
        assert!(!super::super::is_builtin("vloada_half"));
    }
}
