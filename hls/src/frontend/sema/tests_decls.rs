//! Tests of declarations through the whole frontend: initializers, records and anonymous
//! members, constant initializers, error recovery, and hostile input.

use crate::diag::Severity;
use crate::frontend::types::{Scalar, Type};

use super::tests::{assert_clean, check_src, first_error};
use super::Program;

fn init_of(p: &Program, name: &str) -> Vec<(u64, String)> {
    let d = p
        .decl_symbols
        .iter()
        .position(|s| s.is_some_and(|s| p.symbol(s).name == name))
        .expect("declarator");
    let mut v: Vec<(u64, String)> = p.inits[&crate::frontend::ast::DeclaratorId(d as u32)]
        .iter()
        .map(|e| (e.offset, e.ty.to_string()))
        .collect();
    v.sort();
    v
}

#[test]
fn initializers_flatten_to_offsets() {
    let p = assert_clean(
        "struct P { char c; int v[2]; float4 f; };\n\
         __constant int tab[] = {1, 2, [5] = 6, 7};\n\
         __kernel void k(__global int *o) {\n\
         struct P a = { 'x', {1, 2}, (float4)(1.0f) };\n\
         struct P b = { .f = (float4)(0.0f), .v[1] = 3 };\n\
         struct P arr[2] = { 1, 2, 3 };\n\
         char s[] = \"hi\";\n\
         int big[1 << 28] = {0};\n\
         o[0] = tab[0] + a.v[0] + b.v[1] + arr[0].c + s[0] + sizeof(s) + big[0];\n}",
    );
    let tab = p.symbols.iter().find(|s| s.name == "tab").expect("tab");
    assert_eq!(tab.ty, Type::Array(Box::new(Type::int()), Some(7)));
    assert_eq!(
        init_of(&p, "tab").iter().map(|e| e.0).collect::<Vec<_>>(),
        vec![0, 4, 20, 24]
    );
    assert_eq!(
        init_of(&p, "a"),
        vec![
            (0, "char".into()),
            (4, "int".into()),
            (8, "int".into()),
            (16, "float4".into())
        ]
    );
    assert_eq!(
        init_of(&p, "b"),
        vec![(8, "int".into()), (16, "float4".into())]
    );
    // Brace elision: 1 -> arr[0].c, 2 and 3 -> arr[0].v[0..2].
    assert_eq!(
        init_of(&p, "arr"),
        vec![(0, "char".into()), (4, "int".into()), (8, "int".into())]
    );
    let s = p.symbols.iter().find(|s| s.name == "s").expect("s");
    assert_eq!(
        s.ty,
        Type::Array(Box::new(Type::Scalar(Scalar::Char)), Some(3))
    );
    let (line, _) = first_error("__kernel void k(__global int *o) {\n int a[2] = {1, 2, 3};\n}");
    assert_eq!(line, 2);
    let (line, _) =
        first_error("__constant int c;\n__kernel void k(__global int *o) { o[0] = c; }");
    assert_eq!(line, 1);
}

#[test]
fn members_records_and_recursion() {
    let p = assert_clean(
        "struct N; struct L { struct N *next; int v; };\nstruct N { struct L l; };\n\
         __kernel void k(__global struct L *o) {\n struct N n;\n n.l.v = o->v;\n o[1].v = n.l.v;\n}",
    );
    assert_eq!(p.kernels[0].params[0].access, "read_write");
    assert_eq!(p.kernels[0].params[0].kind, "global_buffer");
    let (line, msg) =
        first_error("struct S { int a; };\n__kernel void k(__global struct S *o) {\n o->b = 1;\n}");
    assert_eq!(line, 3, "{msg}");
    let (line, msg) = first_error(
        "int b(int x);\nint a(int x) { return b(x); }\nint b(int x) {\n return x ? a(x - 1) : 0;\n}\n\
         __kernel void k(__global int *o) { o[0] = a(3); }",
    );
    assert!(line == 2 || line == 4, "{line} {msg}");
    let (line, _) = first_error("int f(int a, int b) { return a + b; }\n__kernel void k(__global int *o) {\n o[0] = f(1);\n}");
    assert_eq!(line, 3);
}

#[test]
fn constant_initializers_must_be_constant() {
    assert_clean(
        "__constant float tab[3] = { 1.0f, -2.5f * 2, INFINITY };\n__constant int4 v = (int4)(1, 2, 3, sizeof(float3));\n\
         __kernel void k(__global float *o) { o[0] = tab[0] + v.x; }",
    );
    let (line, msg) = first_error(
        "__kernel void k(__global float *o) {\n float x = o[0];\n __constant float c[2] = { 1.0f, x };\n o[1] = c[0];\n}",
    );
    assert_eq!(line, 3, "{msg}");
}

#[test]
fn anonymous_members_are_found_by_name() {
    let p = assert_clean(
        "struct V { char tag; union { float4 v; float a[4]; }; struct { int x, y; }; };\n\
         __kernel void k(__global struct V *o) { o->a[1] = o->v.x + o->x + o->y; }",
    );
    let rec = p
        .records
        .iter()
        .find(|r| r.name.as_deref() == Some("V"))
        .expect("V");
    let off = |n: &str| {
        rec.fields
            .iter()
            .find(|f| f.name.as_deref() == Some(n))
            .map(|f| f.offset)
    };
    assert_eq!(
        (off("v"), off("a"), off("x"), off("y")),
        (Some(16), Some(16), Some(32), Some(36))
    );
    assert_eq!((rec.size, rec.align), (48, 16));
}

#[test]
fn one_bad_declaration_gives_one_error() {
    let (_, d, _) = check_src(
        "__kernel void k(__global int *o, int n) {\n int v[n];\n o[0] = v[0] + v[1];\n\
         enum E e2 = 1;\n o[1] = e2 + v[2];\n}",
    );
    let msgs: Vec<_> = d
        .list
        .iter()
        .filter(|x| x.severity == Severity::Error)
        .map(|x| x.message.clone())
        .collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(msgs[0].contains("variable length"), "{msgs:?}");
    assert!(msgs[1].contains("enum 'E'"), "{msgs:?}");
}

#[test]
fn hostile_input_never_panics() {
    let bodies = [
        "int a[0xffffffffffffffff];",
        "char s[] = {[0xffffffffffffffff] = 1};",
        "char s[] = {[0xfffffffffffffffe] = 1, 2};",
        "int x __attribute__((aligned(0x40000000)));",
        "int y __attribute__((aligned(0x8000000000000000)));",
        "o[0] = 1 << -1; o[1] = 1 >> 0xffffffffffffffff; o[2] = (char)-1 % 0; o[3] = 5 / 0;",
        "o[0] = -9223372036854775807L - 1 == 0x8000000000000000;",
        "struct B { int f : 0xffffffff; }; struct C { int g : -1; };",
        "o[0] = vec_step(void); o[1] = sizeof(struct U); o[2] = __alignof__(void);",
        "o[0] = ((int4)(((int2)(1, 2)).xy, 3, 4)).wzyx.s3210.odd.y;",
        "switch (o[0]) { case 0xffffffffffffffff: break; case -1: break; }",
        "k(o); o[0] = sizeof(o[0]) + sizeof k;",
        "enum E { A = 0xffffffffffffffff, B, C = A * A }; o[0] = B + C;",
        "long l[2][3][4] = {{{1}}, [1][2][3] = 9};",
        "struct S { struct S *next; float4 v[2]; } s = { 0, { (float4)(1.0f) } }; o[0] = s.v[1].x;",
        "o[0] = (int)(o + 0xffffffffffffffff - o);",
        "goto nowhere; lbl: lbl: ;",
    ];
    for b in bodies {
        let src = format!("__kernel void k(__global int *o) {{\n {b}\n}}");
        let _ = check_src(&src);
    }
}
