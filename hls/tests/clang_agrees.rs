//! Cross-check of acceptance against clang: every kernel we accept (the shared set and the
//! project's own) must also compile with clang's OpenCL C 1.2 frontend, once the
//! `[[cl::...]]` attributes clang does not know are stripped.

use std::path::{Path, PathBuf};
use std::process::Command;

const INSTALL: &str =
    "clang not found: run `bash scripts/install-deps.sh` (apt-get install -y clang)";

fn kernel_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    vec![
        root.join("../../shared/conformance/kernels"),
        root.join("../tests/kernels"),
    ]
}

fn cl_files() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for d in kernel_dirs() {
        if let Ok(rd) = std::fs::read_dir(&d) {
            v.extend(
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "cl")),
            );
        }
    }
    v.sort();
    v
}

/// Removes `[[ ... ]]` attribute lists (balanced), keeping line breaks so lines still match.
fn strip_cxx_attributes(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'[' && b.get(i + 1) == Some(&b'[') {
            let mut depth = 0;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'[' => depth += 1,
                    b']' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    b'\n' => out.push('\n'),
                    _ => {}
                }
                j += 1;
            }
            i = j + 1;
            continue;
        }
        let ch = src[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

fn clang_accepts(file: &Path, dir: &Path) -> Result<(), String> {
    let src = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let stripped = dir.join(file.file_name().unwrap());
    std::fs::write(&stripped, strip_cxx_attributes(&src)).map_err(|e| e.to_string())?;
    let out = Command::new("clang")
        .args([
            "-cl-std=CL1.2",
            "-fsyntax-only",
            "-Xclang",
            "-finclude-default-header",
        ])
        .args(["-Wno-unknown-pragmas", "-Wno-unknown-attributes"])
        .arg("-I")
        .arg(file.parent().unwrap())
        .arg(&stripped)
        .output()
        .map_err(|_| INSTALL.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn strip_keeps_lines() {
    assert_eq!(strip_cxx_attributes("a\n[[cl::ivdep(8)]]\nfor"), "a\n\nfor");
    assert_eq!(strip_cxx_attributes("x[[i]] [[cl::a]]b"), "x b");
}

#[test]
fn clang_accepts_every_kernel_we_accept() {
    let files = cl_files();
    assert!(!files.is_empty());
    let dir = std::env::temp_dir().join(format!("ohls-clang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut disagreements = Vec::new();
    for f in &files {
        let ours = ocl_hls::frontend::check_file(f, &Default::default());
        let we_accept = !ours.has_errors();
        match clang_accepts(f, &dir) {
            Err(e) if e == INSTALL => panic!("{INSTALL}"),
            Ok(()) if !we_accept => {
                disagreements.push(format!("{}: clang accepts, we reject", f.display()))
            }
            Err(e) if we_accept => {
                disagreements.push(format!("{}: we accept, clang rejects:\n{e}", f.display()))
            }
            _ => {}
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}
