//! Struct and union layouts computed by the checker, confirmed by clang: every size,
//! alignment and member offset becomes a `_Static_assert` that clang (OpenCL C 1.2,
//! spir64) must accept.

use std::path::PathBuf;
use std::process::Command;

use ocl_hls::diag::{Diagnostics, SourceMap};
use ocl_hls::frontend::sema::{self, Program, SymbolKind};
use ocl_hls::frontend::types::Type;
use ocl_hls::frontend::{check_source, Options};

/// (definitions, the type to assert on)
const CASES: &[(&str, &str)] = &[
    ("struct c1 { char a; int b; char c; };", "struct c1"),
    ("struct c2 { char a; short b; long c; };", "struct c2"),
    ("struct c3 { long a; char b; };", "struct c3"),
    ("struct c4 { char c; float3 v; uchar3 u; };", "struct c4"),
    ("struct c5 { float4 a; char b; };", "struct c5"),
    ("struct c6 { char a; double2 d; };", "struct c6"),
    ("struct c7 { char a; int x[2] __attribute__((packed)); };", "struct c7"),
    ("struct c8 { char tag; int value __attribute__((aligned(8))); };", "struct c8"),
    (
        "typedef struct __attribute__((packed)) { uchar kind; ushort count; uint total; } c9_t;",
        "c9_t",
    ),
    ("struct c10 { short f[3]; } __attribute__((aligned(8)));", "struct c10"),
    ("struct c11 { char a; struct c1 inner; char b; };", "struct c11"),
    ("struct c12 { char a[3]; short b[3]; int c; };", "struct c12"),
    ("union c13 { char a[5]; int b; };", "union c13"),
    ("union c14 { double d; char c[9]; };", "union c14"),
    ("struct __attribute__((packed)) c15 { char a; double b; short c; };", "struct c15"),
    ("struct c16 { char a; int b __attribute__((packed)); short c; };", "struct c16"),
    (
        "struct __attribute__((packed)) c17 { char a; int b __attribute__((aligned(4))); char c; };",
        "struct c17",
    ),
    (
        "typedef int c18_int __attribute__((aligned(2)));\nstruct c18 { char a; c18_int b; };",
        "struct c18",
    ),
    (
        "typedef int c19_int __attribute__((aligned(16)));\nstruct c19 { char a; c19_int b; };",
        "struct c19",
    ),
    ("struct c20 { char a; __global int *p; };", "struct c20"),
    ("struct c21 { uchar3 a; ushort3 b; char c; };", "struct c21"),
    ("struct c22 { long16 a; char b; };", "struct c22"),
    ("struct c23 { char a; struct { short x; char y; } s; char b; };", "struct c23"),
    ("struct c24 { char a; union { int i; float f; } u; char b; };", "struct c24"),
    ("struct c25 { int a; } __attribute__((aligned(32)));", "struct c25"),
    ("struct c26 { char c; int4 v __attribute__((aligned(32))); };", "struct c26"),
    ("struct __attribute__((packed, aligned(4))) c27 { char a; int b; char c; };", "struct c27"),
    ("struct c28 { half h[3]; char c; };", "struct c28"),
    ("struct c29 { char a; double d; int i; };", "struct c29"),
    ("struct c30 { struct c7 f[2]; char z; };", "struct c30"),
    ("union c31 { struct c8 p; char3 v; };", "union c31"),
    ("struct c32 { char a; int b[0x3]; short c __attribute__((aligned(16))); };", "struct c32"),
    (
        "struct c33 { char t; union { float4 v; float a[4]; }; struct { int x, y; }; short z; };",
        "struct c33",
    ),
];

/// Runs the real frontend (preprocess, parse, check) on the cases.
fn check(src: &str) -> (Program, Diagnostics, SourceMap) {
    let c = check_source("layouts.cl", src, &Options::default());
    let errs: Vec<String> = c
        .diags
        .list
        .iter()
        .map(|d| {
            format!(
                "{}: {}",
                d.span.map(|s| c.sources.location(s)).unwrap_or_default(),
                d.message
            )
        })
        .collect();
    match c.program {
        Some(p) => (p, c.diags, c.sources),
        None => panic!("the frontend rejected the cases:\n{}", errs.join("\n")),
    }
}

/// The record a case's type names: `struct X`/`union X` by tag, otherwise a typedef.
fn record_of<'p>(p: &'p Program, ty: &str) -> &'p sema::RecordInfo {
    let tag = ty.split_whitespace().nth(1);
    let found = match tag {
        Some(t) => p.records.iter().find(|r| r.name.as_deref() == Some(t)),
        None => p
            .symbols
            .iter()
            .find(|s| s.name == ty && matches!(s.kind, SymbolKind::Typedef))
            .and_then(|s| match s.ty {
                Type::Record(id) => p.record(id),
                _ => None,
            }),
    };
    found.unwrap_or_else(|| panic!("no record for '{ty}'"))
}

fn clang_accepts(file: &PathBuf) -> Result<(), String> {
    let out = match Command::new("clang")
        .args([
            "-cl-std=CL1.2",
            "-fsyntax-only",
            "-Xclang",
            "-finclude-default-header",
            "-target",
            "spir64",
        ])
        .arg(file)
        .output()
    {
        Ok(o) => o,
        Err(_) => return Err("clang not found: run `bash scripts/install-deps.sh`".into()),
    };
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn record_layouts_match_clang() {
    let defs: Vec<&str> = CASES.iter().map(|c| c.0).collect();
    let src = defs.join("\n") + "\n";
    let (p, diags, sm) = check(&src);
    let errs: Vec<String> = diags
        .list
        .iter()
        .map(|d| {
            format!(
                "{}: {}",
                d.span.map(|s| sm.location(s)).unwrap_or_default(),
                d.message
            )
        })
        .collect();
    assert!(
        !diags.has_errors(),
        "checker rejected the cases:\n{}",
        errs.join("\n")
    );

    let mut asserts = String::new();
    let mut count = 0;
    for (_, ty) in CASES {
        let r = record_of(&p, ty);
        asserts += &format!(
            "_Static_assert(sizeof({ty}) == {}, \"sizeof({ty})\");\n",
            r.size
        );
        asserts += &format!(
            "_Static_assert(__alignof__({ty}) == {}, \"alignof({ty})\");\n",
            r.align
        );
        for f in &r.fields {
            if let Some(name) = &f.name {
                asserts += &format!(
                    "_Static_assert(__builtin_offsetof({ty}, {name}) == {}, \"offsetof({ty}, {name})\");\n",
                    f.offset
                );
                count += 1;
            }
        }
    }
    assert!(count > 60, "too few member offsets checked: {count}");
    let dir = std::env::temp_dir().join(format!("ocl-hls-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("layouts.cl");
    std::fs::write(&file, format!("{src}\n{asserts}")).expect("write");
    let res = clang_accepts(&file);
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = res {
        panic!("clang disagrees with the computed layouts:\n{e}");
    }
}

/// Bit-field cases: clang refuses bit-fields in OpenCL C, so these are confirmed with
/// clang's x86-64 C layout, the ABI spir64 shares for the int types used here.
const BITFIELD_CASES: &[(&str, &str)] = &[
    (
        "struct b1 { char a; int b : 3; int c : 30; short d : 5; };",
        "struct b1",
    ),
    ("struct b2 { char a; int : 0; char b; };", "struct b2"),
    ("struct b3 { int a : 4; int b : 4; char c; };", "struct b3"),
    (
        "struct b4 { short a : 9; short b : 9; short c : 9; };",
        "struct b4",
    ),
    ("struct b5 { char a; long b : 40; char c; };", "struct b5"),
    (
        "struct __attribute__((packed)) b6 { char a; int b : 30; char c; };",
        "struct b6",
    ),
    ("union b7 { int a : 12; char b; };", "union b7"),
    ("struct b8 { char a : 3; char b : 6; int c; };", "struct b8"),
];

#[test]
fn bit_field_layouts_match_clang_x86_64() {
    let defs: Vec<&str> = BITFIELD_CASES.iter().map(|c| c.0).collect();
    let src = defs.join("\n") + "\n";
    let (p, diags, _) = check(&src);
    assert!(!diags.has_errors(), "checker rejected the bit-field cases");
    let mut asserts = String::new();
    for (_, ty) in BITFIELD_CASES {
        let r = record_of(&p, ty);
        asserts += &format!(
            "_Static_assert(sizeof({ty}) == {}, \"sizeof({ty})\");\n",
            r.size
        );
        asserts += &format!(
            "_Static_assert(_Alignof({ty}) == {}, \"alignof({ty})\");\n",
            r.align
        );
        for f in r.fields.iter().filter(|f| f.bit_width.is_none()) {
            if let Some(name) = &f.name {
                asserts += &format!(
                    "_Static_assert(__builtin_offsetof({ty}, {name}) == {}, \"offsetof({ty}, {name})\");\n",
                    f.offset
                );
            }
        }
        // A bit-field's position is observable through a union with bytes: set the
        // field to all ones and check that exactly the computed bits are set.
        let fname = ty.replace(' ', "_");
        for f in r
            .fields
            .iter()
            .filter(|f| f.bit_width.is_some_and(|w| w > 0))
        {
            let (Some(name), Some(bo), Some(w)) = (&f.name, f.bit_offset, f.bit_width) else {
                continue;
            };
            let first = f.offset * 8 + bo as u64;
            asserts += &format!(
                "int probe_{fname}_{name}(void) {{ union {{ {ty} s; unsigned char b[sizeof({ty})]; }} u = {{0}}; \
                 u.s.{name} = -1; for (unsigned i = 0; i < sizeof({ty}) * 8; i++) {{ int on = (u.b[i / 8] >> (i % 8)) & 1; \
                 if (on != (i >= {first}u && i < {first}u + {w}u)) return 0; }} return 1; }}\n"
            );
        }
    }
    let dir = std::env::temp_dir().join(format!("ocl-hls-bitfield-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("bitfields.c");
    let probes: Vec<String> = asserts
        .lines()
        .filter_map(|l| {
            l.strip_prefix("int ")
                .and_then(|x| x.split('(').next())
                .map(|n| n.to_string())
        })
        .collect();
    let main = format!(
        "int main(void) {{ int ok = 1; {} return ok ? 0 : 1; }}\n",
        probes
            .iter()
            .map(|p| format!("ok &= {p}();"))
            .collect::<String>()
    );
    std::fs::write(&file, format!("{src}\n{asserts}\n{main}")).expect("write");
    let exe = dir.join("bitfields");
    let out = Command::new("clang")
        .args(["-target", "x86_64-linux-gnu", "-O0", "-o"])
        .arg(&exe)
        .arg(&file)
        .output();
    let out = match out {
        Ok(o) => o,
        Err(_) => panic!("clang not found: run `bash scripts/install-deps.sh`"),
    };
    assert!(
        out.status.success(),
        "clang disagrees:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).status().expect("run probe");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        run.success(),
        "a bit-field is not where the checker placed it"
    );
}
