//! Explicit conversions `convert_<T>[_sat][_rte|_rtz|_rtp|_rtn]` (OpenCL C 6.2.3) and
//! reinterpretations `as_<T>` (6.2.4.2). Their names are open-ended, so they are parsed
//! from the name on each call instead of being tabled.

use super::{resolve as rs, vt, BuiltinError, BuiltinSig, Family, Overload, ALL_ELEMS};
use crate::frontend::types::{builtin_type_from_name, Type};

/// A parsed `convert_...` name.
struct ConvertName {
    dst: Type,
    sat: bool,
}

/// The destination and saturation of a well-formed `convert_` name, whatever its
/// destination (`_sat` on a float destination is checked by the caller).
fn parse_convert(name: &str) -> Option<ConvertName> {
    let rest = name.strip_prefix("convert_")?;
    let rest = ["_rte", "_rtz", "_rtp", "_rtn"]
        .iter()
        .find_map(|r| rest.strip_suffix(r))
        .unwrap_or(rest);
    let (ty, sat) = match rest.strip_suffix("_sat") {
        Some(t) => (t, true),
        None => (rest, false),
    };
    let dst = value_type(ty)?;
    Some(ConvertName { dst, sat })
}

/// A scalar or vector type a conversion or reinterpretation may produce or consume
/// (no bool, and no half: it is a storage-only type here).
fn value_type(name: &str) -> Option<Type> {
    let t = builtin_type_from_name(name)?;
    let k = t.elem()?;
    ALL_ELEMS.contains(&k).then_some(t)
}

fn parse_as(name: &str) -> Option<Type> {
    value_type(name.strip_prefix("as_")?)
}

/// Whether `name` is a conversion or reinterpretation built-in. A saturating conversion
/// to a float type counts (clang declares none): the checker then asks `resolve`, whose
/// error says why, instead of reporting an undeclared function.
pub(super) fn parses(name: &str) -> bool {
    parse_convert(name).is_some() || parse_as(name).is_some()
}

fn is_float(t: &Type) -> bool {
    t.elem().is_some_and(|k| k.is_float())
}

/// Resolves a call to a conversion or reinterpretation built-in; `Unknown` for any other name.
pub(super) fn resolve(name: &str, args: &[Type]) -> Result<BuiltinSig, BuiltinError> {
    if let Some(c) = parse_convert(name) {
        return convert(name, &c, args);
    }
    if let Some(dst) = parse_as(name) {
        return reinterpret(name, dst, args);
    }
    Err(BuiltinError::Unknown)
}

fn convert(name: &str, c: &ConvertName, args: &[Type]) -> Result<BuiltinSig, BuiltinError> {
    if c.sat && is_float(&c.dst) {
        return Err(BuiltinError::NoMatch(format!(
            "'{name}': saturation ('_sat') applies only to integer destination types, not {}",
            c.dst
        )));
    }
    // One overload per source element type with the destination's lane count.
    let lanes = c.dst.lanes();
    let cands: Vec<Overload> = ALL_ELEMS
        .iter()
        .map(|&k| Overload {
            family: Family::Convert,
            ret: c.dst.clone(),
            params: vec![vt(k, lanes)],
        })
        .collect();
    rs::best(name, &cands, args).map(|o| o.to_sig(name))
}

/// Size in bytes for `as_type` purposes: 3-lane vectors occupy four lanes.
fn storage_size(t: &Type) -> Option<u32> {
    let k = t.elem()?;
    let lanes = match t.lanes() {
        3 => 4,
        n => u32::from(n),
    };
    Some(k.size() * lanes)
}

fn reinterpret(name: &str, dst: Type, args: &[Type]) -> Result<BuiltinSig, BuiltinError> {
    let [src] = args else {
        return Err(BuiltinError::NoMatch(format!(
            "'{name}' takes exactly one argument, got {}",
            args.len()
        )));
    };
    let src_ok = src.elem().is_some_and(|k| ALL_ELEMS.contains(&k));
    if !src_ok {
        return Err(BuiltinError::NoMatch(format!(
            "'{name}' reinterprets a scalar or vector of char..ulong, float or double, not {src}"
        )));
    }
    // The spec allows different lane counts as long as the byte counts agree (the result
    // is implementation-defined except 4 lanes -> 3 lanes); so does clang.
    if storage_size(src) != storage_size(&dst) {
        return Err(BuiltinError::NoMatch(format!(
            "invalid reinterpretation: sizes of '{dst}' and '{src}' must match"
        )));
    }
    Ok(BuiltinSig {
        name: name.to_string(),
        family: Family::Reinterpret,
        ret: dst,
        params: vec![src.clone()],
    })
}

#[cfg(test)]
mod tests {
    use super::super::{is_builtin, resolve, BuiltinError, Family};
    use crate::frontend::types::{Scalar, Type};

    fn s(k: Scalar) -> Type {
        Type::Scalar(k)
    }

    #[test]
    fn conversion_names() {
        assert!(is_builtin("convert_int"));
        assert!(is_builtin("convert_uchar_sat"));
        assert!(is_builtin("convert_short16_sat_rtz"));
        assert!(is_builtin("convert_float4_rte"));
        assert!(is_builtin("convert_double"));
        // Known to be a conversion, so that resolve() can explain the `_sat` error.
        assert!(is_builtin("convert_float_sat"));
        assert!(!is_builtin("convert_bool"));
        assert!(!is_builtin("convert_half"));
        assert!(!is_builtin("convert_int5"));
        assert!(!is_builtin("convert_int_rtx"));
        assert!(!is_builtin("convert_int_rte_sat"));
    }

    #[test]
    fn conversions() {
        // integer_ops.cl and math_builtins.cl.
        let sig = resolve("convert_uchar_sat", &[Type::int()]).unwrap();
        assert_eq!(sig.ret, s(Scalar::UChar));
        assert_eq!(sig.params, vec![Type::int()]);
        assert_eq!(sig.family, Family::Convert);
        let sig = resolve("convert_short_sat", &[s(Scalar::Long)]).unwrap();
        assert_eq!(sig.ret, s(Scalar::Short));
        assert_eq!(sig.params, vec![s(Scalar::Long)]);
        let sig = resolve("convert_int_rte", &[s(Scalar::Float)]).unwrap();
        assert_eq!(sig.ret, Type::int());
        let sig = resolve("convert_float", &[Type::int()]).unwrap();
        assert_eq!(sig.ret, s(Scalar::Float));
        let f4 = Type::Vector(Scalar::Float, 4);
        let sig = resolve("convert_uint4_sat_rtp", std::slice::from_ref(&f4)).unwrap();
        assert_eq!(sig.ret, Type::Vector(Scalar::UInt, 4));
        assert_eq!(sig.params, vec![f4.clone()]);
        // A bool promotes to int.
        let sig = resolve("convert_long", &[s(Scalar::Bool)]).unwrap();
        assert_eq!(sig.params, vec![Type::int()]);
    }

    #[test]
    fn conversion_errors() {
        let f4 = Type::Vector(Scalar::Float, 4);
        match resolve("convert_float_sat", &[Type::int()]) {
            Err(BuiltinError::NoMatch(m)) => assert!(m.contains("_sat"), "{m}"),
            other => panic!("{other:?}"),
        }
        // Lane counts must agree.
        assert!(matches!(
            resolve("convert_int2", std::slice::from_ref(&f4)),
            Err(BuiltinError::NoMatch(_))
        ));
        assert!(matches!(
            resolve("convert_int4", &[]),
            Err(BuiltinError::NoMatch(_))
        ));
        // A scalar splats to every 4-lane source type equally: ambiguous.
        assert!(matches!(
            resolve("convert_int4", &[Type::int()]),
            Err(BuiltinError::Ambiguous(_))
        ));
        assert_eq!(
            resolve("convert_nothing", &[f4]),
            Err(BuiltinError::Unknown)
        );
    }

    #[test]
    fn reinterpretations() {
        let r = |name: &str, t: Type| resolve(name, &[t]);
        assert_eq!(r("as_uint", s(Scalar::Float)).unwrap().ret, s(Scalar::UInt));
        assert_eq!(
            r("as_uint", s(Scalar::Float)).unwrap().family,
            Family::Reinterpret
        );
        let i4 = Type::Vector(Scalar::Int, 4);
        let f3 = Type::Vector(Scalar::Float, 3);
        assert_eq!(
            r("as_float4", i4.clone()).unwrap().ret,
            Type::Vector(Scalar::Float, 4)
        );
        assert_eq!(
            r("as_short8", i4.clone()).unwrap().ret,
            Type::Vector(Scalar::Short, 8)
        );
        assert_eq!(
            r("as_short2", Type::int()).unwrap().ret,
            Type::Vector(Scalar::Short, 2)
        );
        // 3-lane vectors are the size of 4 lanes; 4 -> 3 lanes is the defined case.
        assert_eq!(r("as_float3", i4.clone()).unwrap().ret, f3);
        assert_eq!(r("as_int4", f3).unwrap().ret, i4);
        assert_eq!(
            r("as_char3", Type::int()).unwrap().ret,
            Type::Vector(Scalar::Char, 3)
        );
        assert!(is_builtin("as_double16"));
        assert!(!is_builtin("as_bool"));
    }

    #[test]
    fn reinterpretation_errors() {
        match resolve("as_int", &[s(Scalar::Char)]) {
            Err(BuiltinError::NoMatch(m)) => assert!(m.contains("sizes"), "{m}"),
            other => panic!("{other:?}"),
        }
        let f4 = Type::Vector(Scalar::Float, 4);
        assert!(resolve("as_double4", std::slice::from_ref(&f4)).is_err());
        assert!(resolve("as_int4", &[f4.clone(), f4]).is_err());
        assert!(resolve("as_int", &[s(Scalar::Bool)]).is_err());
        assert!(resolve("as_short", &[s(Scalar::Half)]).is_err());
    }
}
