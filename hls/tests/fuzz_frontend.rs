//! Property test over mutated kernels: the frontend never panics and never hangs, whatever
//! it is fed. Deterministic by default (a fixed seed, so CI is repeatable); set
//! `OCL_HLS_FUZZ_CASES` and `OCL_HLS_FUZZ_SEED` for a longer or different run.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

/// Fragments that stress the preprocessor, the parser and the checker.
const FRAGMENTS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "[[",
    "]]",
    ";",
    ",",
    "*",
    "&",
    "=",
    "?",
    ":",
    "...",
    "##",
    "#",
    "\\\n",
    "/*",
    "*/",
    "//",
    "\"",
    "'",
    "0x",
    "1e",
    "0x1p",
    "1.0h",
    "99999999999999999999",
    "__attribute__((",
    "aligned(",
    "packed",
    "[[cl::unroll_hint(",
    "[[cl::ivdep(",
    "#pragma unroll\n",
    "#pragma ivdep safelen(",
    "#define X X\n",
    "#define F(a) F(a) a ## a #a\nF(F(1))\n",
    "#if 1/0\n#endif\n",
    "#if\n",
    "#endif\n",
    "#else\n",
    "#include \"nowhere.h\"\n",
    "#include \"../../../../etc/passwd\"\n",
    "float4",
    "(float4)(",
    "(float3)(1,2)",
    ".xyzw",
    ".s0123456789abcdef",
    ".lo.hi.even.odd",
    "struct",
    "union",
    "enum",
    "typedef",
    "kernel",
    "__kernel",
    "half",
    "double",
    "__local",
    "__constant",
    "__global",
    "sizeof",
    "vec_step",
    "__alignof__",
    "return",
    "goto",
    "switch",
    "case 1:",
    "default:",
    "while(1)",
    "for(;;)",
    "do",
    "break;",
    "continue;",
    "barrier(",
    "vload4(",
    "convert_int_sat_rte(",
    "as_float(",
    "select(",
    "atomic_inc(",
    "int x = x;",
    "f(f(f(",
    "é",
    "\0",
    "\r\n",
    "\t",
    "0",
    "-2147483648",
    "1 << 63",
    "/ 0",
    "% 0",
];

#[derive(Clone, Debug)]
enum Mutation {
    Delete { at: f64, len: usize },
    Duplicate { at: f64, len: usize },
    Insert { at: f64, fragment: usize },
    Swap { a: f64, b: f64, len: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (0.0..1.0f64, 1usize..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (0.0..1.0f64, 1usize..200).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
        (0.0..1.0f64, 0..FRAGMENTS.len())
            .prop_map(|(at, fragment)| Mutation::Insert { at, fragment }),
        (0.0..1.0f64, 0.0..1.0f64, 1usize..30).prop_map(|(a, b, len)| Mutation::Swap { a, b, len }),
    ]
}

fn apply(src: &str, muts: &[Mutation]) -> String {
    let mut c: Vec<char> = src.chars().collect();
    let pos = |c: &Vec<char>, f: f64| ((c.len() as f64) * f) as usize;
    for m in muts {
        match m {
            Mutation::Delete { at, len } => {
                let s = pos(&c, *at);
                let e = (s + len).min(c.len());
                c.drain(s..e);
            }
            Mutation::Duplicate { at, len } => {
                let s = pos(&c, *at);
                let e = (s + len).min(c.len());
                let piece: Vec<char> = c[s..e].to_vec();
                c.splice(e..e, piece);
            }
            Mutation::Insert { at, fragment } => {
                let s = pos(&c, *at);
                c.splice(s..s, FRAGMENTS[*fragment].chars());
            }
            Mutation::Swap { a, b, len } => {
                let (x, y) = (pos(&c, *a), pos(&c, *b));
                let (x, y) = (x.min(y), x.max(y));
                let len = (*len).min(y - x).min(c.len() - y);
                for i in 0..len {
                    c.swap(x + i, y + i);
                }
            }
        }
    }
    c.into_iter().collect()
}

fn corpus() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance");
    let mut v = Vec::new();
    for sub in ["kernels", "invalid"] {
        for e in std::fs::read_dir(root.join(sub))
            .expect("shared conformance folder")
            .flatten()
        {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "cl") {
                v.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).expect("read kernel"),
                ));
            }
        }
    }
    v.sort();
    v
}

/// Runs the frontend on another thread so a hang becomes a test failure, not a stuck CI.
fn check_with_deadline(name: String, text: String) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(|| {
            let c = ocl_hls::frontend::check_source(&name, &text, &Default::default());
            c.diags.list.len()
        });
        let _ = tx.send(r.map_err(|e| {
            e.downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into())
        }));
    });
    match rx.recv_timeout(Duration::from_secs(20)) {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(p)) => Err(format!("panicked: {p}")),
        Err(_) => Err("did not finish within 20 s".into()),
    }
}

#[test]
fn frontend_survives_mutated_kernels() {
    let corpus = corpus();
    assert!(!corpus.is_empty());
    let cases: u32 = std::env::var("OCL_HLS_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5000);
    let seed: u64 = std::env::var("OCL_HLS_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x0c1_4115);
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let strategy = (0..corpus.len(), proptest::collection::vec(mutation(), 1..8));
    let result = runner.run(&strategy, |(file, muts)| {
        let (name, text) = &corpus[file];
        let mutated = apply(text, &muts);
        check_with_deadline(name.clone(), mutated).map_err(TestCaseError::fail)
    });
    if let Err(e) = result {
        panic!("frontend failure on a mutated kernel (seed {seed}): {e}");
    }
}
