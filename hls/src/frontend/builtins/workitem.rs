//! Work-item functions (OpenCL C 6.12.1): dimensions, sizes and ids of the NDRange.

use super::{size_t, st, Family, Table};
use crate::frontend::types::Scalar;

/// The per-dimension queries: `size_t f(uint dimindx)`.
const PER_DIM: [&str; 8] = [
    "get_global_size",
    "get_global_id",
    "get_local_size",
    "get_enqueued_local_size",
    "get_local_id",
    "get_num_groups",
    "get_group_id",
    "get_global_offset",
];

pub(super) fn add(t: &mut Table) {
    let fam = Family::WorkItem;
    t.add("get_work_dim", fam, st(Scalar::UInt), vec![]);
    for name in PER_DIM {
        t.add(name, fam, size_t(), vec![st(Scalar::UInt)]);
    }
    for name in ["get_global_linear_id", "get_local_linear_id"] {
        t.add(name, fam, size_t(), vec![]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{resolve, BuiltinError};
    use crate::frontend::types::{Scalar, Type};

    #[test]
    fn ids_take_uint_and_return_size_t() {
        let sig = resolve("get_global_id", &[Type::int()]).unwrap();
        assert_eq!(sig.ret, Type::Scalar(Scalar::ULong));
        assert_eq!(sig.params, vec![Type::Scalar(Scalar::UInt)]);
        let dim = resolve("get_work_dim", &[]).unwrap();
        assert_eq!(dim.ret, Type::Scalar(Scalar::UInt));
        let lin = resolve("get_local_linear_id", &[]).unwrap();
        assert_eq!(lin.ret, Type::Scalar(Scalar::ULong));
        // A char index promotes fine; a vector index does not convert to uint.
        assert!(resolve("get_local_id", &[Type::Scalar(Scalar::Char)]).is_ok());
        assert!(matches!(
            resolve("get_group_id", &[Type::Vector(Scalar::UInt, 2)]),
            Err(BuiltinError::NoMatch(_))
        ));
        assert!(matches!(
            resolve("get_global_id", &[]),
            Err(BuiltinError::NoMatch(_))
        ));
    }
}
