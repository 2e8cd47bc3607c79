//! Finding `#include` files as clang does (the including file's folder, then `-I`, then the
//! kernel's folder), and the confinement to one folder that `--include-root` asks for.

use std::path::{Path, PathBuf};

use super::PpOptions;
use crate::diag::{FileId, SourceMap};

/// An include found on disk.
pub(super) struct Found {
    /// Canonical path (also the `#pragma once` key).
    pub path: PathBuf,
    /// The name diagnostics show: the including file's name joined with the include name.
    pub display: String,
}

/// What the search needs beyond the including file and `-I`: the kernel's folder (as
/// found on disk and as shown), and the canonical `--include-root` when confined.
pub(super) struct Search {
    kernel_dir: (PathBuf, String),
    root: Option<Result<PathBuf, String>>,
}

pub(super) fn search(sm: &SourceMap, main: FileId, opts: &PpOptions) -> Search {
    let f = sm.file(main);
    let shown = Path::new(&f.name)
        .parent()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let root = opts.include_root.as_ref().map(|r| {
        std::fs::canonicalize(r).map_err(|e| format!("--include-root {}: {e}", r.display()))
    });
    Search {
        kernel_dir: (dir_of(&f.path), shown),
        root,
    }
}

/// The directory of a path, `.` when it has none.
fn dir_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Looks `name` up: for `"name"` in the including file's directory, then in each `-I`
/// directory, then in the kernel's (what a host passing `-I` of its kernel folder to an
/// OpenCL runtime gets); for `<name>` only in the `-I` directories. An absolute name is
/// read as it is. Confined by `--include-root`, a file found outside the root is an error.
pub(super) fn resolve(
    sm: &SourceMap,
    including: FileId,
    name: &str,
    quoted: bool,
    dirs: &[PathBuf],
    search: &Search,
) -> Result<Found, String> {
    if name.is_empty() {
        return Err("empty filename in #include".to_string());
    }
    let mut candidates: Vec<(PathBuf, String)> = Vec::new();
    if quoted {
        let f = sm.file(including);
        let shown = Path::new(&f.name)
            .parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        candidates.push((dir_of(&f.path), shown));
    }
    for d in dirs {
        candidates.push((d.clone(), d.display().to_string()));
    }
    if quoted && !candidates.iter().any(|c| c.0 == search.kernel_dir.0) {
        candidates.push(search.kernel_dir.clone());
    }
    let mut searched = Vec::new();
    for (dir, shown) in candidates {
        let path = dir.join(name);
        searched.push(if shown.is_empty() {
            ".".to_string()
        } else {
            shown.clone()
        });
        if !path.is_file() {
            continue;
        }
        let canon =
            std::fs::canonicalize(&path).map_err(|e| format!("cannot open '{name}': {e}"))?;
        match &search.root {
            Some(Err(e)) => return Err(e.clone()),
            Some(Ok(root)) if !canon.starts_with(root) => {
                return Err(format!(
                    "#include of '{name}' ({}) is outside --include-root {}",
                    canon.display(),
                    root.display()
                ))
            }
            _ => {}
        }
        let display = if shown.is_empty() {
            name.to_string()
        } else {
            Path::new(&shown).join(name).display().to_string()
        };
        return Ok(Found {
            path: canon,
            display,
        });
    }
    let searched = if searched.is_empty() {
        "no directories: <...> includes need -I".to_string()
    } else {
        searched.join(", ")
    };
    Err(format!("'{name}' file not found (searched: {searched})"))
}

/// Reads an include's text; it must be UTF-8.
pub(super) fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    String::from_utf8(bytes).map_err(|_| "the file is not valid UTF-8 text".to_string())
}
