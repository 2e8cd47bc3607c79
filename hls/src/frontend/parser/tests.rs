//! Parser tests: source text through the lexer (no preprocessing) into the tree.

use crate::diag::{render, Diagnostics, SourceMap};
use crate::frontend::ast::*;
use crate::frontend::lexer;
use crate::frontend::types::Scalar;

fn parse_src(src: &str) -> (TranslationUnit, Vec<String>) {
    let mut sm = SourceMap::new();
    let f = sm.add_file("t.cl", "t.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let toks = lexer::lex(&sm, f, &mut diags);
    let tu = super::parse(toks, &sm, &mut diags);
    let msgs = diags.list.iter().map(|d| render(&sm, d)).collect();
    (tu, msgs)
}

fn parse_ok(src: &str) -> TranslationUnit {
    let (tu, msgs) = parse_src(src);
    assert!(
        msgs.is_empty(),
        "unexpected diagnostics:\n{}",
        msgs.join("")
    );
    tu
}

fn function(tu: &TranslationUnit, i: usize) -> &FunctionDef {
    match &tu.items[i] {
        Item::Function(f) => f,
        other => panic!("item {i} is not a function: {other:?}"),
    }
}

fn body(f: &FunctionDef) -> &[Stmt] {
    match &f.body.kind {
        StmtKind::Compound(b) => b,
        _ => panic!("body is not a block"),
    }
}

#[test]
fn kernel_with_attributes_and_params() {
    let tu = parse_ok(
        "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))\n\
         void vadd(__global const float *a, __global float *c) { c[0] = a[0]; }",
    );
    let f = function(&tu, 0);
    assert_eq!(f.name(), "vadd");
    assert!(f.specs.kernel.is_some());
    assert_eq!(f.specs.attrs.len(), 1);
    assert_eq!(f.specs.attrs[0].name, "reqd_work_group_size");
    assert_eq!(f.specs.attrs[0].args.as_ref().map(Vec::len), Some(3));
    let ps = f.params();
    assert_eq!(ps.len(), 2);
    assert!(ps[0].specs.quals.is_const);
    assert_eq!(
        ps[0].specs.addr_space.map(|a| a.0),
        Some(crate::frontend::types::AddrSpace::Global)
    );
    assert!(matches!(
        ps[0].declarator.derived[..],
        [Derived::Pointer { .. }]
    ));
}

#[test]
fn declarator_derivations_apply_inside_out() {
    let tu = parse_ok("void f(void) { int *a[3]; int (*p)[4]; int m[2][5]; }");
    let f = function(&tu, 0);
    let decls: Vec<&Declarator> = body(f)
        .iter()
        .map(|s| match &s.kind {
            StmtKind::Decl(d) => &d.declarators[0].declarator,
            _ => panic!(),
        })
        .collect();
    assert!(matches!(
        decls[0].derived[..],
        [Derived::Pointer { .. }, Derived::Array { .. }]
    ));
    assert!(matches!(
        decls[1].derived[..],
        [Derived::Array { .. }, Derived::Pointer { .. }]
    ));
    // int m[2][5]: an array of 2 arrays of 5, so [5] applies to int first.
    match &decls[2].derived[..] {
        [Derived::Array { size: Some(a), .. }, Derived::Array { size: Some(b), .. }] => {
            assert!(matches!(a.kind, ExprKind::IntLit { value: 5, .. }));
            assert!(matches!(b.kind, ExprKind::IntLit { value: 2, .. }));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn attribute_placement_on_struct_declarations() {
    let tu = parse_ok(
        "void f(void) { __attribute__((aligned(16))) struct B { double d; } __attribute__((aligned(32))) b; }",
    );
    let f = function(&tu, 0);
    let StmtKind::Decl(d) = &body(f)[0].kind else {
        panic!()
    };
    assert_eq!(
        d.specs.attrs.len(),
        1,
        "leading attribute qualifies the variable"
    );
    let TypeSpec::Record(r) = &d.specs.ty else {
        panic!()
    };
    assert_eq!(
        r.attrs_after.len(),
        1,
        "attribute after the body qualifies the type"
    );
    assert_eq!(r.name.as_ref().map(|n| n.name.as_str()), Some("B"));
}

#[test]
fn packed_member_and_typedef_struct() {
    let tu = parse_ok(
        "struct foo { char a; int x[2] __attribute__((packed)); };\n\
         typedef struct __attribute__((packed)) { uchar kind; ushort count; } header_t;\n\
         void g(header_t h) {}",
    );
    let Item::Decl(d) = &tu.items[0] else {
        panic!()
    };
    let TypeSpec::Record(r) = &d.specs.ty else {
        panic!()
    };
    let fields = r.fields.as_ref().unwrap();
    assert_eq!(fields[1].declarators[0].0.attrs[0].name, "packed");
    let Item::Decl(t) = &tu.items[1] else {
        panic!()
    };
    let TypeSpec::Record(r2) = &t.specs.ty else {
        panic!()
    };
    assert_eq!(r2.attrs_inside[0].name, "packed");
    // header_t became a typedef name, so `header_t h` parses as a parameter.
    let g = function(&tu, 2);
    assert!(matches!(&g.params()[0].specs.ty, TypeSpec::Named(n) if n.name == "header_t"));
}

#[test]
fn loop_attributes_and_pragmas_attach_to_statements() {
    let src = "void f(__global int *p, int n) {\n\
        __attribute__((opencl_unroll_hint(4)))\n for (int i = 0; i < n; i++) p[i] = i;\n\
        [[cl::ivdep(8)]] while (n) n--;\n\
        #pragma unroll 2\n do { n++; } while (n < 3);\n}";
    // The lexer alone leaves `#pragma` as tokens; run the real preprocessor for this one.
    let mut sm = SourceMap::new();
    let file = sm.add_file("t.cl", "t.cl", src.to_string());
    let mut diags = Diagnostics::default();
    let toks =
        crate::frontend::preprocess::preprocess(&mut sm, file, &Default::default(), &mut diags);
    let tu = super::parse(toks, &sm, &mut diags);
    assert!(!diags.has_errors(), "{:?}", diags.list);
    let f = function(&tu, 0);
    let b = body(f);
    assert!(matches!(b[0].kind, StmtKind::For { .. }));
    assert_eq!(b[0].attrs[0].name, "opencl_unroll_hint");
    assert!(matches!(b[1].kind, StmtKind::While(..)));
    assert_eq!(b[1].attrs[0].namespace.as_deref(), Some("cl"));
    assert_eq!(b[1].attrs[0].name, "ivdep");
    assert!(matches!(b[2].kind, StmtKind::DoWhile(..)));
    assert_eq!(b[2].pragmas[0].words(), vec!["unroll", "2"]);
}

#[test]
fn vector_literals_casts_and_swizzles() {
    let tu = parse_ok(
        "void f(float2 a) { float4 t = (float4)(a.xy, (float2)(1.0f, 0.5f)); float4 r = (float4)(1.0f); int i = (int)t.x; }",
    );
    let f = function(&tu, 0);
    let init = |i: usize| match &body(f)[i].kind {
        StmtKind::Decl(d) => match &d.declarators[0].init {
            Some(Initializer::Expr(e)) => e.clone(),
            _ => panic!(),
        },
        _ => panic!(),
    };
    assert!(matches!(&init(0).kind, ExprKind::VectorLit(_, parts) if parts.len() == 2));
    assert!(matches!(&init(1).kind, ExprKind::VectorLit(_, parts) if parts.len() == 1));
    match &init(2).kind {
        ExprKind::Cast(t, e) => {
            assert!(matches!(t.specs.ty, TypeSpec::Scalar(Scalar::Int, _)));
            assert!(matches!(&e.kind, ExprKind::Member { member, .. } if member.name == "x"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn precedence_and_sizeof_forms() {
    let tu = parse_ok("void f(int a, int b) { int x = a + b * 2 << 1 == 3 && !a; ulong s = sizeof(int) + sizeof a + vec_step(float3) + __alignof__(long); }");
    let f = function(&tu, 0);
    let StmtKind::Decl(d) = &body(f)[0].kind else {
        panic!()
    };
    let Some(Initializer::Expr(e)) = &d.declarators[0].init else {
        panic!()
    };
    // ((((a + (b * 2)) << 1) == 3) && !a)
    let ExprKind::Binary(BinaryOp::LogAnd, l, _) = &e.kind else {
        panic!("{e:?}")
    };
    let ExprKind::Binary(BinaryOp::Eq, l, _) = &l.kind else {
        panic!()
    };
    let ExprKind::Binary(BinaryOp::Shl, l, _) = &l.kind else {
        panic!()
    };
    assert!(
        matches!(&l.kind, ExprKind::Binary(BinaryOp::Add, _, r) if matches!(r.kind, ExprKind::Binary(BinaryOp::Mul, ..)))
    );
}

#[test]
fn missing_semicolon_points_after_the_declaration() {
    let (_, msgs) =
        parse_src("__kernel void k(__global int *p)\n{\n    int a = 1\n    p[0] = a;\n}\n");
    assert!(!msgs.is_empty());
    assert!(
        msgs[0].starts_with("t.cl:3:14: error: expected ';'"),
        "{}",
        msgs[0]
    );
}

#[test]
fn kernel_is_reserved() {
    let (_, msgs) = parse_src("void k(void) {\n  int kernel = 3;\n}\n");
    assert!(
        msgs[0].starts_with("t.cl:2:7: error: 'kernel' is a reserved word"),
        "{}",
        msgs[0]
    );
}

#[test]
fn several_errors_in_one_run() {
    let (tu, msgs) = parse_src("void f(void) {\n int a = ;\n int b = 1 +;\n}\nvoid g(void) {}\n");
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(msgs[0].contains("t.cl:2:"));
    assert!(msgs[1].contains("t.cl:3:"));
    // Recovery keeps the second function.
    assert!(tu
        .items
        .iter()
        .any(|i| matches!(i, Item::Function(f) if f.name() == "g")));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    // The driver runs the frontend on a thread with a large stack; do the same here.
    let msgs = std::thread::Builder::new()
        .stack_size(crate::frontend::FRONTEND_STACK)
        .spawn(|| {
            let src = format!(
                "void f(void) {{ int x = {}1{}; }}",
                "(".repeat(5000),
                ")".repeat(5000)
            );
            let blocks = format!("void g(void) {}{}", "{".repeat(5000), "}".repeat(5000));
            let mut msgs = parse_src(&src).1;
            msgs.extend(parse_src(&blocks).1);
            msgs
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(
        msgs.iter()
            .filter(|m| m.contains("nested too deeply"))
            .count(),
        2,
        "{msgs:?}"
    );
}

#[test]
fn garbage_never_panics() {
    for src in [
        "",
        "}",
        "{{{{",
        "int (((",
        "struct",
        "__attribute__((",
        "[[cl::",
        "void f() { for (;;",
        "a ? b :",
        "(float4)(",
        "int x[",
        "enum {",
        "typedef int T; T T;",
    ] {
        let _ = parse_src(src);
    }
}

#[test]
fn cxx_attributes_among_specifiers() {
    let tu = parse_ok(
        "__kernel __attribute__((reqd_work_group_size(8, 1, 1))) [[cl::required_num_sub_groups(2)]] void k(__global int *p) {}",
    );
    let f = function(&tu, 0);
    let names: Vec<&str> = f.specs.attrs.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        vec!["reqd_work_group_size", "required_num_sub_groups"]
    );
}
