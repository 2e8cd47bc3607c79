//! Frontend speed: `check` of a generated 2,000-line kernel file (the target is under 50 ms),
//! and of each shared conformance kernel. Prints a table; run with `cargo bench --bench frontend`.

use std::path::Path;
use std::time::{Duration, Instant};

use ocl_hls::frontend::{check_source, Options};

/// A realistic file: the shared kernels' bodies repeated with renamed functions and macros,
/// until it reaches `lines` lines.
fn big_file(lines: usize) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/kernels");
    let mut sources: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("shared kernels")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).expect("read"),
            )
        })
        .collect();
    sources.sort();
    let mut out = String::new();
    let mut copy = 0;
    while out.lines().count() < lines {
        for (_, src) in &sources {
            // Rename every identifier that could clash between copies.
            let mut s = src.clone();
            for word in [
                "collatz_steps",
                "control",
                "fir",
                "coeff",
                "half_scale",
                "histogram",
                "int_ops",
                "ivdep_offset",
                "scale_offset",
                "layout",
                "math",
                "matmul",
                "weight",
                "grid3d",
                "unpack",
                "prefix_sum",
                "reduce_sum",
                "saxpy",
                "stencil2d",
                "copy_strings",
                "vadd",
                "vec_ops",
                "more_aligned_int",
                "header_t",
            ] {
                s = replace_word(&s, word, &format!("{word}_{copy}"));
            }
            for tag in [
                "struct S ",
                "struct S)",
                "struct foo",
                "struct wide",
                "struct A",
                "struct B",
                "struct rec",
                "struct padded",
            ] {
                s = s.replace(
                    tag,
                    &format!(
                        "{}_{copy}{}",
                        tag.trim_end_matches([' ', ')']),
                        &tag[tag.trim_end_matches([' ', ')']).len()..]
                    ),
                );
            }
            for m in ["TAPS", "BINS", "BS", "TILE", "SLOT"] {
                s = s.replace(
                    &format!("#define {m} "),
                    &format!("#undef {m}\n#define {m} "),
                );
            }
            out.push_str(&s);
            out.push('\n');
            copy += 1;
        }
    }
    out
}

fn replace_word(s: &str, word: &str, with: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let bytes = s.as_bytes();
    let mut i = 0;
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    while i < s.len() {
        if s[i..].starts_with(word)
            && (i == 0 || !ident(bytes[i - 1]))
            && bytes.get(i + word.len()).is_none_or(|b| !ident(*b))
        {
            out.push_str(with);
            i += word.len();
        } else {
            let ch = s[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

fn time(name: &str, text: &str, runs: u32) -> (Duration, usize, usize) {
    let opts = Options::default();
    let first = check_source(name, text, &opts);
    let errors = first.diags.error_count();
    let kernels = first.program.as_ref().map_or(0, |p| p.kernels.len());
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        let c = check_source(name, text, &opts);
        best = best.min(t.elapsed());
        std::hint::black_box(c);
    }
    (best, errors, kernels)
}

fn main() {
    let text = big_file(2000);
    let lines = text.lines().count();
    let (t, errors, kernels) = time("big.cl", &text, 20);
    println!("| input | lines | kernels | errors | best of 20 | target |");
    println!("|---|---:|---:|---:|---:|---:|");
    println!(
        "| generated file | {lines} | {kernels} | {errors} | {:.2} ms | 50 ms |",
        t.as_secs_f64() * 1e3
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/kernels");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("kernels")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    files.sort();
    for p in files {
        let src = std::fs::read_to_string(&p).expect("read");
        let (t, errors, kernels) = time(&p.display().to_string(), &src, 50);
        println!(
            "| {} | {} | {kernels} | {errors} | {:.3} ms | |",
            p.file_name().unwrap().to_string_lossy(),
            src.lines().count(),
            t.as_secs_f64() * 1e3
        );
    }
}
