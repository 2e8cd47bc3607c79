//! Synchronization and fences (OpenCL C 6.12.8, 6.12.9 and the 2.0 names):
//! `cl_mem_fence_flags` is `uint`; `memory_scope` and `memory_order` are `int` here.

use super::{ptr, size_t, st, vt, Family, Table, ALL_ELEMS, WIDTHS};
use crate::frontend::types::{AddrSpace, Scalar, Type};

pub(super) fn add(t: &mut Table) {
    let fam = Family::Sync;
    let flags = st(Scalar::UInt);
    let void = Type::Void;
    for name in ["barrier", "mem_fence", "read_mem_fence", "write_mem_fence"] {
        t.add(name, fam, void.clone(), vec![flags.clone()]);
    }
    t.add("work_group_barrier", fam, void.clone(), vec![flags.clone()]);
    t.add(
        "work_group_barrier",
        fam,
        void.clone(),
        vec![flags.clone(), Type::int()],
    );
    // A fence, so it dispatches like mem_fence even though the spec lists it with atomics.
    t.add(
        "atomic_work_item_fence",
        fam,
        void.clone(),
        vec![flags, Type::int(), Type::int()],
    );
    // Async copies between global and local memory (6.12.10); lowered to plain loads and
    // stores shared out over the work-group, `wait_group_events` to a barrier.
    let event = Type::Opaque("event_t");
    let misc = Family::Misc;
    for k in ALL_ELEMS {
        for n in WIDTHS {
            let g = vt(k, n);
            for (to, from) in [
                (AddrSpace::Local, AddrSpace::Global),
                (AddrSpace::Global, AddrSpace::Local),
            ] {
                let (d, s) = (
                    ptr(g.clone(), to, false, false),
                    ptr(g.clone(), from, true, false),
                );
                let copy = vec![d.clone(), s.clone(), size_t(), event.clone()];
                t.add("async_work_group_copy", misc, event.clone(), copy);
                let strided = vec![d, s, size_t(), size_t(), event.clone()];
                t.add(
                    "async_work_group_strided_copy",
                    misc,
                    event.clone(),
                    strided,
                );
            }
            let p = ptr(g, AddrSpace::Global, true, false);
            t.add("prefetch", misc, void.clone(), vec![p, size_t()]);
        }
    }
    for sp in [AddrSpace::Private, AddrSpace::Generic] {
        let list = ptr(event.clone(), sp, false, false);
        t.add(
            "wait_group_events",
            misc,
            void.clone(),
            vec![Type::int(), list],
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::{resolve, BuiltinError, Family};
    use crate::frontend::types::{Scalar, Type};

    #[test]
    fn barriers_and_fences() {
        // barrier(CLK_LOCAL_MEM_FENCE): the macro is an int literal.
        let sig = resolve("barrier", &[Type::int()]).unwrap();
        assert_eq!(sig.ret, Type::Void);
        assert_eq!(sig.family, Family::Sync);
        assert_eq!(sig.params, vec![Type::Scalar(Scalar::UInt)]);
        assert!(resolve("work_group_barrier", &[Type::int()]).is_ok());
        assert_eq!(
            resolve("work_group_barrier", &[Type::int(), Type::int()]).map(|s| s.params.len()),
            Ok(2)
        );
        assert!(resolve("mem_fence", &[Type::Scalar(Scalar::UInt)]).is_ok());
        assert!(resolve(
            "atomic_work_item_fence",
            &[Type::int(), Type::int(), Type::int()]
        )
        .is_ok());
        assert!(matches!(
            resolve("barrier", &[]),
            Err(BuiltinError::NoMatch(_))
        ));
    }

    #[test]
    fn async_copies_and_events() {
        use crate::frontend::types::{AddrSpace, Pointer, Quals};
        let p = |t: Type, space, is_const| {
            Type::Pointer(Box::new(Pointer {
                pointee: t,
                space,
                pointee_quals: Quals {
                    is_const,
                    ..Quals::default()
                },
                endian: Default::default(),
            }))
        };
        let f4 = Type::Vector(Scalar::Float, 4);
        let event = Type::Opaque("event_t");
        let local = p(f4.clone(), AddrSpace::Local, false);
        let global = p(f4.clone(), AddrSpace::Global, true);
        let sig = resolve(
            "async_work_group_copy",
            &[local.clone(), global.clone(), Type::int(), Type::int()],
        )
        .unwrap();
        assert_eq!(sig.ret, event);
        assert!(resolve(
            "async_work_group_strided_copy",
            &[
                local,
                global.clone(),
                Type::int(),
                Type::int(),
                event.clone()
            ],
        )
        .is_ok());
        // Global to global is not a work-group copy.
        let g2 = p(f4, AddrSpace::Global, false);
        assert!(resolve(
            "async_work_group_copy",
            &[g2, global.clone(), Type::int(), Type::int()]
        )
        .is_err());
        let list = p(event, AddrSpace::Private, false);
        assert!(resolve("wait_group_events", &[Type::int(), list]).is_ok());
        assert!(resolve("prefetch", &[global, Type::int()]).is_ok());
    }
}
