//! Synchronization and fences (OpenCL C 6.12.8, 6.12.9 and the 2.0 names):
//! `cl_mem_fence_flags` is `uint`; `memory_scope` and `memory_order` are `int` here.

use super::{st, Family, Table};
use crate::frontend::types::{Scalar, Type};

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
        void,
        vec![flags, Type::int(), Type::int()],
    );
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
}
