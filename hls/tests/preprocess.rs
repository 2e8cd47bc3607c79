//! Tests of the preprocessor: macros (C99 6.10.3.5 examples), `#if`, includes, pragmas,
//! spans of expanded tokens, predefined macros, limits, and the conformance kernels.

use std::path::{Path, PathBuf};

use ocl_hls::diag::{render, Diagnostics, Severity, SourceMap};
use ocl_hls::frontend::lexer::lex_lines;
use ocl_hls::frontend::preprocess::{preprocess, PpOptions};
use ocl_hls::frontend::token::{Token, TokenKind};

struct Out {
    toks: Vec<Token>,
    diags: Diagnostics,
    sm: SourceMap,
}

impl Out {
    fn text(&self) -> String {
        join(&self.toks)
    }
    fn errors(&self) -> Vec<String> {
        self.messages(Severity::Error)
    }
    fn warnings(&self) -> Vec<String> {
        self.messages(Severity::Warning)
    }
    fn messages(&self, sev: Severity) -> Vec<String> {
        self.diags
            .list
            .iter()
            .filter(|d| d.severity == sev)
            .map(|d| match d.span {
                Some(s) => format!("{}: {}", self.sm.location(s), d.message),
                None => d.message.clone(),
            })
            .collect()
    }
}

fn join(toks: &[Token]) -> String {
    toks.iter()
        .filter(|t| t.kind != TokenKind::Eof)
        .map(|t| t.text())
        .collect::<Vec<_>>()
        .join(" ")
}

fn run_file(name: &str, path: &Path, src: &str, opts: &PpOptions) -> Out {
    let mut sm = SourceMap::new();
    let main = sm.add_file(name, path, src.to_string());
    let mut diags = Diagnostics::default();
    let toks = preprocess(&mut sm, main, opts, &mut diags);
    Out { toks, diags, sm }
}

fn run(src: &str) -> Out {
    run_file("k.cl", Path::new("k.cl"), src, &PpOptions::default())
}

/// Preprocesses `src` expecting no errors; returns the tokens' texts joined by spaces.
fn pp(src: &str) -> String {
    let out = run(src);
    assert!(out.errors().is_empty(), "errors: {:?}", out.errors());
    assert_eq!(out.toks.last().map(|t| &t.kind), Some(&TokenKind::Eof));
    out.text()
}

/// The same spacing-normalized form for expected text.
fn norm(src: &str) -> String {
    let toks: Vec<Token> = lex_lines(src, Default::default())
        .lines
        .into_iter()
        .flat_map(|l| l.tokens)
        .collect();
    join(&toks)
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let p =
            std::env::temp_dir().join(format!("ocl-hls-pp-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&p).expect("create temp dir");
        TempDir(p)
    }
    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.0.join(rel);
        if let Some(d) = p.parent() {
            std::fs::create_dir_all(d).expect("create dir");
        }
        std::fs::write(&p, text).expect("write file");
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run_path(path: &Path, opts: &PpOptions) -> Out {
    let src = std::fs::read_to_string(path).expect("read main");
    run_file(&path.display().to_string(), path, &src, opts)
}

#[test]
fn object_and_function_like_macros() {
    assert_eq!(
        pp("#define N 16\n#define SQ(x) ((x) * (x))\nint a[N] = SQ(N + 1);"),
        norm("int a[16] = ((16 + 1) * (16 + 1));")
    );
    // A function-like name without `(` is left alone, even across lines.
    assert_eq!(pp("#define f(x) x\nint f;\nf\n(2)"), norm("int f; 2"));
    // Arguments may span lines and contain parentheses and commas inside them.
    assert_eq!(pp("#define g(a, b) b a\ng((1, 2),\n  x)"), norm("x (1, 2)"));
    assert_eq!(pp("#define E()\n#define F(a) [a]\nE() F() F( )"), "[ ] [ ]");
}

#[test]
fn wrong_argument_counts_are_errors() {
    let out = run("#define f(a, b) a b\nf(1)\nf(1, 2, 3)\nf(1, 2\n");
    let e = out.errors();
    assert_eq!(e.len(), 3, "{e:?}");
    assert!(
        e[0].starts_with("k.cl:2:1:") && e[0].contains("too few"),
        "{e:?}"
    );
    assert!(
        e[1].starts_with("k.cl:3:1:") && e[1].contains("too many"),
        "{e:?}"
    );
    assert!(
        e[2].starts_with("k.cl:4:1:") && e[2].contains("unterminated"),
        "{e:?}"
    );
}

#[test]
fn recursive_looking_macros_stop() {
    assert_eq!(pp("#define foo foo\nfoo"), "foo");
    assert_eq!(pp("#define a b\n#define b a\na b"), "a b");
    assert_eq!(pp("#define f(x) x f\nf(1)(2)"), norm("1 f(2)"));
    assert_eq!(pp("#define f(x) g(x\n#define g(x) x\nf(1))"), "1");
    assert_eq!(
        pp("#define f(x) x + f(x)\nf(f(1))"),
        norm("1 + f(1) + f(1 + f(1))")
    );
}

/// C99 6.10.3.5 EXAMPLE 3.
#[test]
fn c99_example_3_rescanning() {
    let src = r#"#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
"#;
    let want = r#"f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { "hello", "" };"#;
    assert_eq!(pp(src), norm(want));
}

/// C99 6.10.3.5 EXAMPLE 4 (without the `@` line, which is not an OpenCL token).
#[test]
fn c99_example_4_stringify_and_paste() {
    let src = r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0), s);
xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#;
    let want = r#"printf("x" "1" "= %d, x" "2" "= %s", x1, x2);
fputs("strncmp(\"abc\\0d\", \"abc\", '\\4') == 0", s);
"vers2.h"
"hello";
"hello" ", world""#;
    assert_eq!(pp(src), norm(want));
}

/// C99 6.10.3.5 EXAMPLE 5 (placemarkers) and EXAMPLE 7 (variadic macros).
#[test]
fn c99_examples_5_and_7_placemarkers_and_variadics() {
    let src = "#define t(x,y,z) x ## y ## z\nint j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\n t(10,,), t(,11,), t(,,12), t(,,) };";
    assert_eq!(pp(src), norm("int j[] = { 123, 45, 67, 89, 10, 11, 12, };"));
    let src = r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test): printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
    let want = r#"fprintf(stderr, "Flag" );
fprintf(stderr, "X = %d\n", x );
puts( "The first, second, and third items." );
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));"#;
    assert_eq!(pp(src), norm(want));
    // GNU comma swallowing.
    assert_eq!(
        pp("#define P(fmt, ...) printf(fmt, ## __VA_ARGS__)\nP(\"a\"); P(\"b\", 1);"),
        norm("printf(\"a\"); printf(\"b\", 1);")
    );
}

#[test]
fn paste_results_are_relexed_and_checked() {
    let out =
        run("#define cat(a, b) a ## b\n#define ab 42\ncat(a, b) cat(<<, =) cat(1, .5f) cat(x, +)");
    assert_eq!(out.text(), "42 <<= 1.5f x +");
    assert!(matches!(out.toks[2].kind, TokenKind::Float(_)));
    let e = out.errors();
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("pasting formed 'x+', an invalid preprocessing token"),
        "{e:?}"
    );
    // A pasted token spans both operands when they are spelled together, else the left one.
    let out = run("#define AB a ## b\n#define V(n) var ## n\nAB V(1)");
    assert_eq!(out.text(), "ab var1");
    assert_eq!(out.sm.snippet(out.toks[0].span), "a ## b");
    assert_eq!(out.sm.snippet(out.toks[1].span), "var");
    assert_eq!(out.sm.location(out.toks[1].span), "k.cl:3:4");
    let hash_hash = pp("#define hash_hash # ## #\n#define mkstr(a) # a\n#define in_between(a) mkstr(a)\n#define join(c, d) in_between(c hash_hash d)\nchar p[] = join(x, y);");
    assert_eq!(hash_hash, norm("char p[] = \"x ## y\";"));
}

#[test]
fn bad_definitions_are_errors() {
    for (src, msg) in [
        ("#define\n", "macro name missing"),
        ("#define 3 x\n", "macro name must be an identifier"),
        (
            "#define defined 1\n",
            "'defined' cannot be used as a macro name",
        ),
        (
            "#define f(x) #y\n",
            "'#' is not followed by a macro parameter",
        ),
        ("#define f(x) ## x\n", "'##' cannot appear at either end"),
        ("#define f(x, x) x\n", "duplicate macro parameter name 'x'"),
        (
            "#define f(x y) x\n",
            "expected comma in macro parameter list",
        ),
        ("#define f(x\n", "missing ')' in macro parameter list"),
        ("#define f __VA_ARGS__\n", "__VA_ARGS__ can only appear"),
    ] {
        let out = run(src);
        let e = out.errors();
        assert!(e.len() == 1 && e[0].contains(msg), "{src:?}: {e:?}");
        assert!(e[0].starts_with("k.cl:1:"), "{e:?}");
    }
}

#[test]
fn redefinition_warns_like_clang() {
    let out = run(
        "#define X 1\n#define X 1\n#define X  1\n#define X 2\n#define F(a) a\n#define F(b) b\n",
    );
    let w = out.warnings();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w[0].starts_with("k.cl:4:9: 'X' macro redefined"), "{w:?}");
    assert!(w[1].starts_with("k.cl:6:9: 'F' macro redefined"), "{w:?}");
    let note = &out.diags.list[0].notes[0];
    assert_eq!(note.message, "previous definition is here");
    assert!(out.errors().is_empty());
}

#[test]
fn if_arithmetic_unsigned_and_defined() {
    let src = r#"#define TWO 2
#define F(x) (x * 2)
#if TWO * 3 == 6 && F(TWO) == 4 && (0u - 1) > 0 && -1 < 0 && defined TWO && defined(F) && !defined NOPE
yes1
#endif
#if 0
no1
#elif UNKNOWN_IS_ZERO
no2
#elif 'a' == 97 && (1 ? -1 : 0u) > 0 && 0x7fffffffffffffff + 1 < 0
yes2
#else
no3
#endif
#ifdef TWO
yes3
#else
no4
#endif
#ifndef TWO
no5
#elif 1
yes4
#endif
#if 1
# if 0
no6
# else
yes5
# endif
#else
# if 1
no7
# endif
#endif
#define D defined(TWO)
#if D
yes6
#endif
"#;
    assert_eq!(pp(src), "yes1 yes2 yes3 yes4 yes5 yes6");
}

#[test]
fn if_errors_are_reported_at_the_directive() {
    let out = run("#if 1 / 0\nno\n#endif\n#if 1 +\n#endif\n#if\n#endif\n#if 2.0\n#endif\nok");
    assert_eq!(out.text(), "ok");
    let e = out.errors();
    assert_eq!(e.len(), 4, "{e:?}");
    assert!(
        e[0].starts_with("k.cl:1:") && e[0].contains("division by zero"),
        "{e:?}"
    );
    assert!(e[1].starts_with("k.cl:4:"), "{e:?}");
    assert!(
        e[2].starts_with("k.cl:6:") && e[2].contains("no expression"),
        "{e:?}"
    );
    assert!(
        e[3].starts_with("k.cl:8:") && e[3].contains("floating point"),
        "{e:?}"
    );
}

#[test]
fn unbalanced_conditionals_are_errors() {
    let e = run("#endif\n").errors();
    assert!(
        e.len() == 1 && e[0].starts_with("k.cl:1:2: #endif without #if"),
        "{e:?}"
    );
    let e = run("int a;\n#ifdef X\nint b;\n").errors();
    assert!(
        e.len() == 1 && e[0].starts_with("k.cl:2:2: unterminated conditional"),
        "{e:?}"
    );
    let e = run("#if 1\n#else\n#else\n#endif\n").errors();
    assert!(
        e.len() == 1 && e[0].starts_with("k.cl:3:2: #else after #else"),
        "{e:?}"
    );
    let e = run("#if 1\n#else\n#elif 1\n#endif\n").errors();
    assert!(
        e.len() == 1 && e[0].starts_with("k.cl:3:2: #elif after #else"),
        "{e:?}"
    );
    let e = run("#elif 1\n#else\n").errors();
    assert_eq!(e.len(), 2, "{e:?}");
}

#[test]
fn skipped_groups_ignore_unknown_directives_and_bad_text() {
    let out = run("#if 0\n#frobnicate\ndon't @ care\n#error no\n#endif\n#frobnicate\nok");
    let e = out.errors();
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("k.cl:6:2: invalid preprocessing directive '#frobnicate'"),
        "{e:?}"
    );
    assert_eq!(out.text(), "ok");
    // The null directive and #line are accepted.
    assert_eq!(pp("#\n#line 10\n# 3 \"x.cl\"\nok"), "ok");
}

#[test]
fn error_and_warning_directives() {
    let out = run("int a;\n\n#error this is \"bad\"  here\n#warning careful\n");
    let e = out.errors();
    assert_eq!(e, ["k.cl:3:2: this is \"bad\"  here"]);
    assert_eq!(out.warnings(), ["k.cl:4:2: careful"]);
}

#[test]
fn line_and_file_macros() {
    assert_eq!(pp("a __LINE__\n\nb __LINE__"), "a 1 b 3");
    assert_eq!(
        pp("#define L __LINE__\n#define ID(x) x\nint a = L;\nID(\n\n __LINE__)"),
        "int a = 3 ; 6"
    );
    assert_eq!(pp("__FILE__"), "\"k.cl\"");
    assert_eq!(pp("__COUNTER__ __COUNTER__"), "0 1");
}

#[test]
fn pragmas_become_one_token() {
    let out = run(
        "#define N 4\n#define OFF ON\n#pragma unroll N\nfor\n#pragma OPENCL FP_CONTRACT OFF\n#define U _Pragma(\"unroll 8\") x\nU\n_Pragma(\"ivdep safelen(N)\")\n",
    );
    assert!(out.errors().is_empty(), "{:?}", out.errors());
    let kinds: Vec<&TokenKind> = out.toks.iter().map(|t| &t.kind).collect();
    assert_eq!(kinds.len(), 7, "{kinds:?}");
    let TokenKind::Pragma(p) = kinds[0] else {
        panic!("{kinds:?}")
    };
    assert_eq!(join(p), "unroll 4");
    assert_eq!(out.sm.location(out.toks[0].span), "k.cl:3:1");
    let TokenKind::Pragma(p) = kinds[2] else {
        panic!("{kinds:?}")
    };
    assert_eq!(join(p), "OPENCL FP_CONTRACT OFF");
    let TokenKind::Pragma(p) = kinds[3] else {
        panic!("{kinds:?}")
    };
    assert_eq!(join(p), "unroll 8");
    assert_eq!(out.sm.location(out.toks[3].span), "k.cl:7:1");
    assert!(out.toks[4].is_ident("x"));
    let TokenKind::Pragma(p) = kinds[5] else {
        panic!("{kinds:?}")
    };
    assert_eq!(join(p), "ivdep safelen ( 4 )");
    assert!(run("_Pragma(x)").errors()[0].contains("_Pragma takes a parenthesized string literal"));
}

#[test]
fn expanded_tokens_map_to_the_use_site() {
    let src = "#define BAD y\n#define CALL(a) (a + BAD)\nint a = BAD;\nint b = CALL(z);\n";
    let out = run(src);
    let toks = &out.toks;
    let y = toks.iter().find(|t| t.is_ident("y")).expect("y");
    assert_eq!(out.sm.snippet(y.span), "y");
    assert!(!y.span.expansion.is_none());
    assert_eq!(out.sm.location(y.span), "k.cl:3:9");
    let d = ocl_hls::diag::Diagnostic::error(y.span, "use of undeclared identifier 'y'");
    let text = render(&out.sm, &d);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "k.cl:3:9: error: use of undeclared identifier 'y'"
    );
    assert_eq!(lines[1], "int a = BAD;");
    assert_eq!(lines[3], "k.cl:1:13: note: expanded from macro 'BAD'");
    assert_eq!(lines[4], "#define BAD y");
    // An argument keeps its spelling but maps to the invocation.
    let z = toks.iter().find(|t| t.is_ident("z")).expect("z");
    assert_eq!(out.sm.snippet(z.span), "z");
    assert_eq!(out.sm.location(z.span), "k.cl:4:9");
    // A macro used inside another macro's body: the chain leads to the outer use.
    let y2 = toks
        .iter()
        .filter(|t| t.is_ident("y"))
        .nth(1)
        .expect("second y");
    assert_eq!(out.sm.location(y2.span), "k.cl:4:9");
    let text = render(&out.sm, &ocl_hls::diag::Diagnostic::error(y2.span, "bad"));
    assert!(text.contains("note: expanded from macro 'BAD'"), "{text}");
    assert!(text.contains("note: expanded from macro 'CALL'"), "{text}");
    // Tokens from predefined macros have no definition site but still map to the use.
    let out = run("\nfloat f = M_PI_F;");
    let pi = &out.toks[3];
    assert!(matches!(pi.kind, TokenKind::Float(_)));
    assert_eq!(out.sm.location(pi.span), "k.cl:2:11");
    assert!(out.sm.expansion(pi.span.expansion).def_site.is_none());
}

#[test]
fn predefined_and_command_line_macros() {
    let src = "#if __OPENCL_VERSION__ == 120 && CL_VERSION_1_2 == 120 && __OCL_HLS__ && __FPGA__ && defined(cl_khr_fp64) && INT_MIN == -2147483647 - 1 && UINT_MAX == 4294967295 && CLK_GLOBAL_MEM_FENCE == 2 && ULONG_MAX == -1 && LONG_MIN < 0\nok\n#endif\nINFINITY NAN CHAR_MIN ATOMIC_VAR_INIT(3) FLT_MAX";
    assert_eq!(
        pp(src),
        norm("ok __builtin_inff() __builtin_nanf(\"\") (-127 - 1) (3) 0x1.fffffep127f")
    );
    assert_eq!(
        pp("__kernel_exec(64, float4) void k(void) {}"),
        norm("__kernel __attribute__((work_group_size_hint(64, 1, 1))) __attribute__((vec_type_hint(float4))) void k(void) {}")
    );
    let opts = PpOptions {
        defines: vec![
            ("N".into(), Some("1024".into())),
            ("FLAG".into(), None),
            ("SQ(x)".into(), Some("((x)*(x))".into())),
            ("GONE".into(), None),
        ],
        undefines: vec!["GONE".into(), "__FPGA__".into()],
        include_dirs: vec![],
        include_root: None,
    };
    let out = run_file(
        "k.cl",
        Path::new("k.cl"),
        "N FLAG SQ(2)\n#if defined(GONE) || defined(__FPGA__)\nbad\n#endif",
        &opts,
    );
    assert!(out.errors().is_empty(), "{:?}", out.errors());
    assert_eq!(out.text(), norm("1024 1 ((2)*(2))"));
}

#[test]
fn includes_relative_and_via_dash_i() {
    let t = TempDir::new("inc");
    t.write(
        "lib/common.h",
        "#pragma once\n#define COMMON 7\nint common_line = __LINE__;\n",
    );
    t.write("lib/sys.h", "#include \"common.h\"\nint sys;\n");
    t.write("k/local.h", "#define LOCAL 3\n#include \"sub/deeper.h\"\n");
    t.write("k/sub/deeper.h", "int deeper = __FILE__;\n");
    let main = t.write(
        "k/main.cl",
        "#include \"local.h\"\n#include <sys.h>\n#include \"common.h\"\n#define HDR <common.h>\n#include HDR\nint x = LOCAL + COMMON;\n",
    );
    let opts = PpOptions {
        include_dirs: vec![t.0.join("lib")],
        ..Default::default()
    };
    let out = run_path(&main, &opts);
    assert!(out.errors().is_empty(), "{:?}", out.errors());
    let text = out.text();
    // `common.h` is read once thanks to #pragma once.
    assert_eq!(text.matches("common_line").count(), 1, "{text}");
    assert!(text.ends_with("int sys ; int x = 3 + 7 ;"), "{text}");
    assert!(text.contains("int deeper = \""), "{text}");
    assert!(text.contains("sub/deeper.h\""), "{text}");
    // Diagnostics name included files as the user would read them.
    let names: Vec<String> = out.sm.files().map(|(_, f)| f.name.clone()).collect();
    assert!(
        names.iter().any(|n| n.ends_with("k/sub/deeper.h")),
        "{names:?}"
    );
    // Angle brackets do not search the including file's directory.
    std::fs::write(t.0.join("k/only_here.h"), "int here;\n").expect("write");
    let main2 = t.write("k/main2.cl", "#include <only_here.h>\n");
    let e = run_path(&main2, &opts).errors();
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("main2.cl:1:10: 'only_here.h' file not found"),
        "{e:?}"
    );
}

#[test]
fn missing_include_names_the_searched_directories() {
    let t = TempDir::new("missing");
    let main = t.write("k.cl", "int a;\n#include \"nope.h\"\n");
    let opts = PpOptions {
        include_dirs: vec![t.0.join("inc")],
        ..Default::default()
    };
    let e = run_path(&main, &opts).errors();
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("k.cl:2:10: 'nope.h' file not found"), "{e:?}");
    assert!(e[0].contains(&t.0.display().to_string()), "{e:?}");
    assert!(
        e[0].contains(&t.0.join("inc").display().to_string()),
        "{e:?}"
    );
}

#[test]
fn includes_resolve_as_clang_does_and_include_root_confines_them() {
    let t = TempDir::new("escape");
    t.write("secret.h", "int secret;\n");
    t.write("common/header.h", "int common_h;\n");
    // Not beside sub/inner.h: found in the kernel's folder after the including file's.
    t.write("k/sub/inner.h", "#include \"kernel_level.h\"\n");
    t.write("k/kernel_level.h", "int kernel_level;\n");
    let main = t.write(
        "k/main.cl",
        "#include \"../common/header.h\"\n#include \"sub/inner.h\"\n",
    );
    let out = run_path(&main, &PpOptions::default());
    assert!(out.errors().is_empty(), "{:?}", out.errors());
    assert_eq!(out.text(), "int common_h ; int kernel_level ;");

    let confined = PpOptions {
        include_root: Some(t.0.join("k")),
        ..Default::default()
    };
    let out = run_path(&main, &confined);
    let e = out.errors();
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].contains("main.cl:1:10: #include of '../common/header.h'")
            && e[0].contains("outside --include-root"),
        "{e:?}"
    );
    assert!(!out.text().contains("common_h"));
    let main2 = t.write(
        "k/main2.cl",
        "#include \"../secret.h\"\n#include \"/etc/passwd\"\n#include \"../../../../../../../../etc/passwd\"\n",
    );
    let out = run_path(&main2, &confined);
    let e = out.errors();
    assert_eq!(e.len(), 3, "{e:?}");
    assert!(
        e[0].contains("main2.cl:1:10:") && e[0].contains("outside"),
        "{e:?}"
    );
    assert!(
        e[1].contains("main2.cl:2:10: #include of '/etc/passwd'"),
        "{e:?}"
    );
    assert!(
        e[2].contains("main2.cl:3:10:") && e[2].contains("outside"),
        "{e:?}"
    );
    assert!(!out.text().contains("secret"));
    // A root that holds the file allows it, through -I as well.
    let opts = PpOptions {
        include_dirs: vec![t.0.clone()],
        include_root: Some(t.0.clone()),
        ..Default::default()
    };
    let main3 = t.write("k/main3.cl", "#include <secret.h>\n");
    let out = run_path(&main3, &opts);
    assert!(out.errors().is_empty(), "{:?}", out.errors());
    assert_eq!(out.text(), "int secret ;");
}

#[test]
fn include_cycles_stop_at_the_depth_limit() {
    let t = TempDir::new("cycle");
    t.write("a.h", "#include \"b.h\"\n#include \"b.h\"\nint a;\n");
    t.write("b.h", "#include \"a.h\"\n");
    let main = t.write("main.cl", "#include \"a.h\"\nint end;\n");
    let out = run_path(&main, &PpOptions::default());
    let e = out.errors();
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("nested too deeply"), "{e:?}");
}

#[test]
fn deeply_nested_invocations_are_stopped() {
    // Deeply nested invocations: an error, not a stack overflow.
    let src = format!("#define f(x) x\n{}1{}", "f(".repeat(1000), ")".repeat(1000));
    let e = run(&src).errors();
    assert!(e.iter().any(|m| m.contains("nested more than")), "{e:?}");
}

#[test]
fn lexer_errors_are_reported_with_spans() {
    let out = run("int a = 1 @ 2;\nchar *s = \"open;\nint b; /* open");
    let e = out.errors();
    assert_eq!(e.len(), 3, "{e:?}");
    assert!(
        e[0].starts_with("k.cl:1:11: invalid character '@'"),
        "{e:?}"
    );
    assert!(
        e[1].starts_with("k.cl:2:11: missing terminating \""),
        "{e:?}"
    );
    assert!(
        e[2].starts_with("k.cl:3:8: unterminated /* comment"),
        "{e:?}"
    );
}

#[test]
fn mutated_kernels_never_panic() {
    let kernels = conformance_kernels();
    let mut seed: u64 = 0x1234_5678_9abc_def1;
    let mut rnd = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let pieces = [
        "#define",
        "#if",
        "#endif",
        "#else",
        "(",
        ")",
        ",",
        "##",
        "#",
        "\\\n",
        "/*",
        "\"",
        "'",
        "#include \"x\"",
        "_Pragma(",
        "__VA_ARGS__",
        "defined",
        "é",
        "\n",
        "1/0",
        "...",
    ];
    for (_, text) in &kernels {
        for _ in 0..40 {
            let mut s: Vec<char> = text.chars().collect();
            for _ in 0..1 + rnd() % 6 {
                let at = rnd() % (s.len() + 1);
                match rnd() % 3 {
                    0 if at < s.len() => {
                        s.remove(at);
                    }
                    _ => {
                        let p = pieces[rnd() % pieces.len()];
                        for (k, c) in p.chars().enumerate() {
                            s.insert(at + k, c);
                        }
                    }
                }
            }
            let src: String = s.into_iter().collect();
            let out = run(&src);
            assert_eq!(out.toks.last().map(|t| &t.kind), Some(&TokenKind::Eof));
            for d in &out.diags.list {
                let _ = render(&out.sm, d);
            }
        }
    }
}

fn conformance_kernels() -> Vec<(PathBuf, String)> {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/conformance/kernels"
    ));
    let mut v: Vec<(PathBuf, String)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read kernel");
            (p, text)
        })
        .collect();
    v.sort();
    assert!(v.len() >= 10, "too few kernels in {}", dir.display());
    v
}

#[test]
fn conformance_kernels_preprocess_cleanly() {
    for (path, _) in conformance_kernels() {
        let out = run_path(&path, &PpOptions::default());
        assert!(
            out.errors().is_empty(),
            "{}: {:?}",
            path.display(),
            out.errors()
        );
        assert!(out.toks.len() > 10, "{}", path.display());
        assert!(!out
            .toks
            .iter()
            .any(|t| t.is_punct(ocl_hls::frontend::token::Punct::Hash)));
    }
}

#[test]
fn a_large_kernel_preprocesses_cleanly() {
    // Speed is measured by `cargo bench --bench frontend`; this checks the result.
    let mut src = String::from(
        "#define N 16\n#define IDX(x, y) ((y) * N + (x))\n#pragma OPENCL FP_CONTRACT OFF\n",
    );
    for i in 0..200 {
        src.push_str(&format!(
            "__kernel void k{i}(__global float *a, __global const float *b) {{\n    int x = get_global_id(0);\n    int y = get_global_id(1);\n    #pragma unroll N\n    for (int i = 0; i < N; i++) {{\n        a[IDX(x, y)] += b[IDX(i, y)] * M_PI_F; // comment\n    }}\n    /* block */ barrier(CLK_LOCAL_MEM_FENCE);\n}}\n\n"
        ));
    }
    assert!(src.lines().count() >= 2000);
    let out = run(&src);
    assert!(out.errors().is_empty(), "{:?}", out.errors());
    let text = out.text();
    assert_eq!(
        text.matches("3.14159265358979323846264338327950288f")
            .count(),
        200
    );
    assert!(!text.contains("IDX") && !text.contains("M_PI_F"));
    assert!(text.contains("__kernel void k199"));
}
