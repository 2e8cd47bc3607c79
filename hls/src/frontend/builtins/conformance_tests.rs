//! Every built-in call in the shared conformance kernels, with its argument types written by
//! hand, checked against the return type clang gives it; plus table-wide sanity checks.

use super::{is_builtin, ptr, resolve, table};
use crate::frontend::types::{AddrSpace, Scalar, Type};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn s(k: Scalar) -> Type {
    Type::Scalar(k)
}

fn gptr(k: Scalar, is_const: bool) -> Type {
    ptr(s(k), AddrSpace::Global, is_const, false)
}

/// (kernel file, callee, argument types, expected return type).
fn calls() -> Vec<(&'static str, &'static str, Vec<Type>, Type)> {
    use Scalar::*;
    let int = Type::int;
    let size_t = || s(ULong);
    let f = || s(Float);
    let f4 = || Type::Vector(Float, 4);
    let by_dim = |file, name| (file, name, vec![int()], size_t());
    vec![
        by_dim("control_flow.cl", "get_global_id"),
        by_dim("half_storage.cl", "get_global_id"),
        (
            "half_storage.cl",
            "vload_half",
            vec![size_t(), gptr(Half, true)],
            f(),
        ),
        (
            "half_storage.cl",
            "vstore_half",
            vec![f(), size_t(), gptr(Half, false)],
            Type::Void,
        ),
        by_dim("histogram_atomic.cl", "get_local_id"),
        ("histogram_atomic.cl", "barrier", vec![int()], Type::Void),
        by_dim("histogram_atomic.cl", "get_global_id"),
        by_dim("histogram_atomic.cl", "get_global_size"),
        (
            "histogram_atomic.cl",
            "atomic_inc",
            vec![ptr(s(UInt), AddrSpace::Local, false, false)],
            s(UInt),
        ),
        (
            "histogram_atomic.cl",
            "atomic_add",
            vec![gptr(UInt, false), s(UInt)],
            s(UInt),
        ),
        by_dim("integer_ops.cl", "get_global_id"),
        ("integer_ops.cl", "mul_hi", vec![int(), int()], int()),
        ("integer_ops.cl", "convert_uchar_sat", vec![int()], s(UChar)),
        (
            "integer_ops.cl",
            "convert_short_sat",
            vec![s(Long)],
            s(Short),
        ),
        ("integer_ops.cl", "clz", vec![s(UInt)], s(UInt)),
        ("integer_ops.cl", "popcount", vec![s(UInt)], s(UInt)),
        ("integer_ops.cl", "rotate", vec![int(), int()], int()),
        ("integer_ops.cl", "abs_diff", vec![int(), int()], s(UInt)),
        ("integer_ops.cl", "mad24", vec![int(), int(), int()], int()),
        by_dim("math_builtins.cl", "get_global_id"),
        ("math_builtins.cl", "fabs", vec![f()], f()),
        ("math_builtins.cl", "sqrt", vec![f()], f()),
        ("math_builtins.cl", "fma", vec![f(), f(), f()], f()),
        ("math_builtins.cl", "fmin", vec![f(), f()], f()),
        ("math_builtins.cl", "fmax", vec![f(), f()], f()),
        ("math_builtins.cl", "floor", vec![f()], f()),
        ("math_builtins.cl", "ceil", vec![f()], f()),
        ("math_builtins.cl", "rint", vec![f()], f()),
        ("math_builtins.cl", "trunc", vec![f()], f()),
        ("math_builtins.cl", "round", vec![f()], f()),
        ("math_builtins.cl", "copysign", vec![f(), f()], f()),
        ("math_builtins.cl", "convert_int_rte", vec![f()], int()),
        ("math_builtins.cl", "convert_float", vec![int()], f()),
        ("math_builtins.cl", "clamp", vec![f(), f(), f()], f()),
        ("math_builtins.cl", "exp", vec![f()], f()),
        ("math_builtins.cl", "log", vec![f()], f()),
        ("math_builtins.cl", "sin", vec![f()], f()),
        ("math_builtins.cl", "cos", vec![f()], f()),
        ("math_builtins.cl", "pow", vec![f(), f()], f()),
        by_dim("matmul_tiled.cl", "get_global_id"),
        by_dim("matmul_tiled.cl", "get_local_id"),
        ("matmul_tiled.cl", "barrier", vec![int()], Type::Void),
        ("matmul_tiled.cl", "fma", vec![f(), f(), f()], f()),
        by_dim("ndrange3d.cl", "get_global_id"),
        by_dim("ndrange3d.cl", "get_global_size"),
        by_dim("ndrange3d.cl", "get_group_id"),
        by_dim("ndrange3d.cl", "get_local_id"),
        by_dim("ndrange3d.cl", "get_num_groups"),
        by_dim("ndrange3d.cl", "get_local_size"),
        by_dim("packed_struct.cl", "get_global_id"),
        by_dim("reduce_local.cl", "get_local_id"),
        by_dim("reduce_local.cl", "get_global_id"),
        ("reduce_local.cl", "barrier", vec![int()], Type::Void),
        by_dim("reduce_local.cl", "get_local_size"),
        by_dim("reduce_local.cl", "get_group_id"),
        by_dim("stencil2d_local.cl", "get_global_id"),
        by_dim("stencil2d_local.cl", "get_local_id"),
        ("stencil2d_local.cl", "barrier", vec![int()], Type::Void),
        by_dim("strcpy_attr.cl", "get_global_id"),
        by_dim("vadd.cl", "get_global_id"),
        by_dim("vector_types.cl", "get_global_id"),
        (
            "vector_types.cl",
            "vload4",
            vec![size_t(), gptr(Float, true)],
            f4(),
        ),
        (
            "vector_types.cl",
            "select",
            vec![f4(), f4(), Type::Vector(Int, 4)],
            f4(),
        ),
        (
            "vector_types.cl",
            "vstore3",
            vec![Type::Vector(Float, 3), size_t(), gptr(Float, false)],
            Type::Void,
        ),
    ]
}

#[test]
fn every_conformance_call_resolves_like_clang() {
    for (file, name, args, want) in calls() {
        match resolve(name, &args) {
            Ok(sig) => assert_eq!(sig.ret, want, "{file}: {name}"),
            Err(e) => panic!("{file}: {name}({args:?}) failed: {e:?}"),
        }
    }
}

fn kernels_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/kernels")
}

/// Identifiers directly followed by `(` in `src`, comments and preprocessor lines aside.
fn called_names(src: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in src.lines() {
        let code = line.split("//").next().unwrap_or("");
        if code.trim_start().starts_with('#') {
            continue;
        }
        let bytes = code.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_alphabetic() || bytes[i] == b'_' {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let rest = code[i..].trim_start();
                if rest.starts_with('(') {
                    out.insert(code[start..i].to_string());
                }
            } else {
                i += 1;
            }
        }
    }
    out
}

/// The hand-written table above must cover every built-in the kernels call, so that a new
/// conformance kernel cannot slip in untested calls.
#[test]
fn table_covers_every_builtin_called_in_the_kernels() {
    let dir = kernels_dir();
    let entries =
        std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    let listed: BTreeSet<(String, String)> = calls()
        .into_iter()
        .map(|(f, n, _, _)| (f.to_string(), n.to_string()))
        .collect();
    let mut seen = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some("cl") {
            continue;
        }
        let file = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        let src = std::fs::read_to_string(&path).unwrap_or_default();
        for name in called_names(&src).into_iter().filter(|n| is_builtin(n)) {
            seen += 1;
            assert!(
                listed.contains(&(file.clone(), name.clone())),
                "{file} calls built-in '{name}', which the table in this test does not list"
            );
        }
    }
    assert!(
        seen >= 30,
        "only {seen} built-in calls found under {}",
        dir.display()
    );
}

#[test]
fn no_name_declares_the_same_parameters_twice() {
    for (name, cands) in table() {
        for (i, a) in cands.iter().enumerate() {
            for b in &cands[i + 1..] {
                assert_ne!(a.params, b.params, "{name} declared twice");
            }
        }
    }
}

#[test]
fn table_has_every_family_name_from_the_spec_lists() {
    for name in [
        "get_enqueued_local_size",
        "get_global_offset",
        "atan2pi",
        "half_recip",
        "native_divide",
        "mad_sat",
        "rhadd",
        "smoothstep",
        "fast_normalize",
        "islessgreater",
        "vstorea_half16_rtn",
        "vload_half3",
        "work_group_barrier",
        "atom_cmpxchg",
        "atomic_compare_exchange_weak_explicit",
        "atomic_fetch_max_explicit",
        "__builtin_huge_valf",
    ] {
        assert!(is_builtin(name), "{name}");
    }
    assert!(!is_builtin("printf"));
}

/// The table is built once and shared: resolution must never rebuild it per call (speed
/// itself is measured by `cargo bench --bench frontend`, not in tests).
#[test]
fn table_is_built_once() {
    assert!(std::ptr::eq(table(), table()));
}
