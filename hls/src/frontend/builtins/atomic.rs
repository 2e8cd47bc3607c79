//! Atomic functions: the OpenCL 1.x `atomic_*` (int, uint; float for `atomic_xchg`) and
//! `atom_*` (also long, ulong) on `volatile __global`/`__local` pointers, and the 2.0
//! C11-style functions. Our `atomic_int` & co. are plain scalars, so the 2.0 functions take
//! pointers to plain scalars; non-volatile pointers are accepted (volatile is added).

use super::{ptr, st, Family, Table};
use crate::frontend::types::{AddrSpace, Scalar, Type};

/// Read-modify-write operations with one operand: `T f(volatile AS T *p, T val)`.
const RMW: [&str; 8] = ["add", "sub", "xchg", "min", "max", "and", "or", "xor"];

/// Where an atomic object may live: global and local memory (and the 2.0 generic space).
const ATOMIC_SPACES: [AddrSpace; 3] = [AddrSpace::Global, AddrSpace::Local, AddrSpace::Generic];
/// Where a 1.x atomic object may live.
const LEGACY_SPACES: [AddrSpace; 2] = [AddrSpace::Global, AddrSpace::Local];
/// Where a compare-exchange's `expected` may live.
const EXPECTED_SPACES: [AddrSpace; 4] = [
    AddrSpace::Global,
    AddrSpace::Local,
    AddrSpace::Private,
    AddrSpace::Generic,
];

const INT32: [Scalar; 2] = [Scalar::Int, Scalar::UInt];
const INT64: [Scalar; 4] = [Scalar::Int, Scalar::UInt, Scalar::Long, Scalar::ULong];
/// Types `atomic_init`, `atomic_load`, `atomic_store` and `atomic_exchange` accept.
const LOADABLE: [Scalar; 6] = [
    Scalar::Int,
    Scalar::UInt,
    Scalar::Long,
    Scalar::ULong,
    Scalar::Float,
    Scalar::Double,
];
/// The 2.0 fetch-and-modify operations.
const FETCH: [&str; 7] = ["add", "sub", "or", "xor", "and", "min", "max"];

fn obj(k: Scalar, sp: AddrSpace) -> Type {
    ptr(st(k), sp, false, true)
}

pub(super) fn add(t: &mut Table) {
    // The 1.x functions have no generic-space forms: a __private pointer is an error.
    add_legacy(t, "atomic_", &INT32, &LEGACY_SPACES);
    add_legacy(t, "atom_", &INT64, &LEGACY_SPACES);
    for sp in LEGACY_SPACES {
        t.add(
            "atomic_xchg",
            Family::Atomic,
            st(Scalar::Float),
            vec![obj(Scalar::Float, sp), st(Scalar::Float)],
        );
    }
    add_c11(t);
}

/// `atomic_add` & co. for element types `ks` in spaces `spaces`, names prefixed `prefix`.
fn add_legacy(t: &mut Table, prefix: &str, ks: &[Scalar], spaces: &[AddrSpace]) {
    let fam = Family::Atomic;
    for &k in ks {
        for &sp in spaces {
            let p = obj(k, sp);
            for op in RMW {
                t.add(&format!("{prefix}{op}"), fam, st(k), vec![p.clone(), st(k)]);
            }
            for op in ["inc", "dec"] {
                t.add(&format!("{prefix}{op}"), fam, st(k), vec![p.clone()]);
            }
            let name = format!("{prefix}cmpxchg");
            t.add(&name, fam, st(k), vec![p, st(k), st(k)]);
        }
    }
}

/// Adds `name(params...)`, `name_explicit(params..., order)` and
/// `name_explicit(params..., order, scope)`; `orders` is how many memory_order arguments
/// the explicit form takes (two for compare-exchange).
fn with_explicit(t: &mut Table, name: &str, ret: Type, params: Vec<Type>, orders: usize) {
    let fam = Family::Atomic;
    t.add(name, fam, ret.clone(), params.clone());
    let explicit = format!("{name}_explicit");
    let mut p = params;
    p.extend(std::iter::repeat_n(Type::int(), orders));
    t.add(&explicit, fam, ret.clone(), p.clone());
    p.push(Type::int());
    t.add(&explicit, fam, ret, p);
}

fn add_c11(t: &mut Table) {
    let void = Type::Void;
    for k in LOADABLE {
        for sp in ATOMIC_SPACES {
            let p = obj(k, sp);
            t.add(
                "atomic_init",
                Family::Atomic,
                void.clone(),
                vec![p.clone(), st(k)],
            );
            with_explicit(t, "atomic_store", void.clone(), vec![p.clone(), st(k)], 1);
            with_explicit(t, "atomic_load", st(k), vec![p.clone()], 1);
            with_explicit(t, "atomic_exchange", st(k), vec![p.clone(), st(k)], 1);
            for esp in EXPECTED_SPACES {
                let expected = ptr(st(k), esp, false, false);
                for strength in ["strong", "weak"] {
                    with_explicit(
                        t,
                        &format!("atomic_compare_exchange_{strength}"),
                        st(Scalar::Bool),
                        vec![p.clone(), expected.clone(), st(k)],
                        2,
                    );
                }
            }
            if INT64.contains(&k) {
                for op in FETCH {
                    let name = format!("atomic_fetch_{op}");
                    with_explicit(t, &name, st(k), vec![p.clone(), st(k)], 1);
                }
            }
            if k == Scalar::ULong {
                // clang's `atomic_uintptr_t` is `atomic_ulong`, and its add/sub take a
                // `ptrdiff_t` operand: so do ours, and as in clang `atomic_fetch_add(p, 1)`
                // on a ulong object is then ambiguous (write `1ul`).
                for op in ["add", "sub"] {
                    let name = format!("atomic_fetch_{op}");
                    with_explicit(t, &name, st(k), vec![p.clone(), st(Scalar::Long)], 1);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ptr, resolve, BuiltinError, Family};
    use crate::frontend::types::{AddrSpace, Scalar, Type};

    const U: Type = Type::Scalar(Scalar::UInt);

    fn ret(name: &str, args: &[Type]) -> Type {
        match resolve(name, args) {
            Ok(sig) => sig.ret,
            Err(e) => panic!("{name}: {e:?}"),
        }
    }

    #[test]
    fn legacy_atomics() {
        // histogram_atomic.cl: atomic_inc(&local_hist[..]); atomic_add(&hist[lid], uint).
        let lp = ptr(U, AddrSpace::Local, false, false);
        let sig = resolve("atomic_inc", &[lp]).unwrap();
        assert_eq!(sig.ret, U);
        assert_eq!(sig.family, Family::Atomic);
        let gp = ptr(U, AddrSpace::Global, false, false);
        assert_eq!(ret("atomic_add", &[gp.clone(), U]), U);
        // An int literal operand converts to uint: the pointer fixes the overload.
        assert_eq!(ret("atomic_add", &[gp.clone(), Type::int()]), U);
        assert_eq!(ret("atomic_cmpxchg", &[gp.clone(), U, U]), U);
        let vp = ptr(Type::int(), AddrSpace::Global, false, true);
        assert_eq!(ret("atomic_max", &[vp, Type::int()]), Type::int());
        let fp = ptr(Type::Scalar(Scalar::Float), AddrSpace::Local, false, false);
        let f = Type::Scalar(Scalar::Float);
        assert_eq!(ret("atomic_xchg", &[fp.clone(), f.clone()]), f);
        assert!(matches!(
            resolve("atomic_add", &[fp, f]),
            Err(BuiltinError::NoMatch(_))
        ));
        // 64-bit only through atom_*.
        let lg = ptr(Type::Scalar(Scalar::Long), AddrSpace::Global, false, false);
        let l = Type::Scalar(Scalar::Long);
        assert!(resolve("atomic_add", &[lg.clone(), l.clone()]).is_err());
        assert_eq!(ret("atom_add", &[lg, l.clone()]), l);
        // No atomics on __constant or (in 1.x) __private memory.
        let cp = ptr(U, AddrSpace::Constant, false, false);
        assert!(resolve("atomic_inc", &[cp]).is_err());
        let pp = ptr(U, AddrSpace::Private, false, false);
        assert!(resolve("atom_inc", std::slice::from_ref(&pp)).is_err());
        assert!(resolve("atomic_inc", &[pp]).is_err());
    }

    #[test]
    fn c11_atomics() {
        let gp = ptr(Type::int(), AddrSpace::Global, false, false);
        assert_eq!(
            ret("atomic_fetch_add", &[gp.clone(), Type::int()]),
            Type::int()
        );
        let args = [gp.clone(), Type::int(), Type::int()];
        assert_eq!(ret("atomic_fetch_min_explicit", &args), Type::int());
        let args = [gp.clone(), Type::int(), Type::int(), Type::int()];
        assert_eq!(ret("atomic_fetch_or_explicit", &args), Type::int());
        assert_eq!(ret("atomic_load", std::slice::from_ref(&gp)), Type::int());
        assert_eq!(ret("atomic_store", &[gp.clone(), Type::int()]), Type::Void);
        assert_eq!(ret("atomic_init", &[gp.clone(), Type::int()]), Type::Void);
        let fp = ptr(Type::Scalar(Scalar::Float), AddrSpace::Local, false, false);
        let f = Type::Scalar(Scalar::Float);
        assert_eq!(ret("atomic_exchange", &[fp.clone(), f.clone()]), f);
        assert!(resolve("atomic_fetch_add", &[fp, f]).is_err());
        // ulong objects also match the uintptr_t/ptrdiff_t form, as in clang.
        let up = ptr(Type::Scalar(Scalar::ULong), AddrSpace::Global, false, false);
        let ul = Type::Scalar(Scalar::ULong);
        assert_eq!(ret("atomic_fetch_sub", &[up.clone(), ul.clone()]), ul);
        assert!(matches!(
            resolve("atomic_fetch_add", &[up, Type::int()]),
            Err(BuiltinError::Ambiguous(_))
        ));
        let expected = ptr(Type::int(), AddrSpace::Private, false, false);
        let cas = [gp.clone(), expected.clone(), Type::int()];
        assert_eq!(
            ret("atomic_compare_exchange_strong", &cas),
            Type::Scalar(Scalar::Bool)
        );
        let cas = [gp, expected, Type::int(), Type::int(), Type::int()];
        assert_eq!(
            ret("atomic_compare_exchange_weak_explicit", &cas),
            Type::Scalar(Scalar::Bool)
        );
    }
}
