//! The compiler built-ins the preprocessor's `INFINITY`, `HUGE_VALF`, `HUGE_VAL` and `NAN`
//! expand to, as in clang's OpenCL header.

use super::{ptr, st, Family, Table};
use crate::frontend::types::{AddrSpace, Scalar};

pub(super) fn add(t: &mut Table) {
    let fam = Family::Misc;
    let (f, d) = (st(Scalar::Float), st(Scalar::Double));
    t.add("__builtin_inff", fam, f.clone(), vec![]);
    t.add("__builtin_huge_valf", fam, f.clone(), vec![]);
    t.add("__builtin_inf", fam, d.clone(), vec![]);
    t.add("__builtin_huge_val", fam, d.clone(), vec![]);
    // The tag string is a literal; wherever the checker places literals, accept it.
    for sp in [
        AddrSpace::Constant,
        AddrSpace::Private,
        AddrSpace::Global,
        AddrSpace::Local,
        AddrSpace::Generic,
    ] {
        let tag = ptr(st(Scalar::Char), sp, true, false);
        t.add("__builtin_nanf", fam, f.clone(), vec![tag.clone()]);
        t.add("__builtin_nan", fam, d.clone(), vec![tag]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{is_builtin, ptr, resolve, Family};
    use crate::frontend::types::{AddrSpace, Scalar, Type};

    #[test]
    fn infinity_and_nan() {
        let sig = resolve("__builtin_inff", &[]).unwrap();
        assert_eq!(sig.ret, Type::Scalar(Scalar::Float));
        assert_eq!(sig.family, Family::Misc);
        let hv = resolve("__builtin_huge_val", &[]).unwrap();
        assert_eq!(hv.ret, Type::Scalar(Scalar::Double));
        let s = ptr(
            Type::Scalar(Scalar::Char),
            AddrSpace::Constant,
            false,
            false,
        );
        assert_eq!(
            resolve("__builtin_nanf", &[s]).unwrap().ret,
            Type::Scalar(Scalar::Float)
        );
        assert!(!is_builtin("printf"));
    }
}
