//! Lowering tests: every conformance kernel lowers and verifies; small kernels checked
//! through the IR printer.

use std::path::{Path, PathBuf};

use ocl_hls::diag::render;
use ocl_hls::frontend::{check_file, check_source, Options};
use ocl_hls::ir::{print::print_kernel, Module};
use ocl_hls::lower::lower;

/// Lowers OpenCL C source; panics with the rendered diagnostics on failure.
fn lower_src(src: &str) -> Module {
    let c = check_source("t.cl", src, &Options::default());
    let Some(p) = c.program.as_ref().filter(|_| !c.has_errors()) else {
        let msgs: Vec<String> = c.diags.list.iter().map(|d| render(&c.sources, d)).collect();
        panic!("frontend errors:\n{}", msgs.join(""));
    };
    match lower(p, &c.sources) {
        Ok(m) => m,
        Err(d) => {
            let msgs: Vec<String> = d.list.iter().map(|x| render(&c.sources, x)).collect();
            panic!("lowering errors:\n{}", msgs.join(""));
        }
    }
}

fn ir_of(src: &str) -> String {
    let m = lower_src(src);
    m.kernels
        .iter()
        .map(|k| print_kernel(k, None))
        .collect::<Vec<_>>()
        .join("\n")
}

fn kernel_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "cl"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn lower_file(path: &Path) -> Result<Module, String> {
    let c = check_file(path, &Options::default());
    let Some(p) = c.program.as_ref().filter(|_| !c.has_errors()) else {
        let msgs: Vec<String> = c.diags.list.iter().map(|d| render(&c.sources, d)).collect();
        return Err(format!("frontend: {}", msgs.join("")));
    };
    lower(p, &c.sources).map_err(|d| {
        d.list
            .iter()
            .map(|x| render(&c.sources, x))
            .collect::<Vec<_>>()
            .join("")
    })
}

#[test]
fn conformance_kernels_lower_and_verify() {
    let dir = Path::new("/work/shared/conformance/kernels");
    let files = kernel_files(dir);
    assert!(
        files.len() >= 19,
        "expected the conformance kernels in {}",
        dir.display()
    );
    let mut failures = Vec::new();
    for f in &files {
        match lower_file(f) {
            Ok(m) => assert!(!m.kernels.is_empty(), "{}: no kernels", f.display()),
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `LOWER_DUMP=file.cl cargo test --test lower dump -- --ignored --nocapture` prints the IR.
#[test]
#[ignore]
fn dump() {
    let Ok(path) = std::env::var("LOWER_DUMP") else {
        return;
    };
    match lower_file(Path::new(&path)) {
        Ok(m) => {
            for k in &m.kernels {
                println!("{}", print_kernel(k, None));
            }
        }
        Err(e) => println!("{e}"),
    }
}
