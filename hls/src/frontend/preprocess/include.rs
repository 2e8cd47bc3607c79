//! Finding `#include` files: search order, and the rule that an include never escapes the
//! kernel's directory or the `-I` directories.

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

/// Canonical directories includes may be read from: the main file's, then each `-I`.
pub(super) fn allowed_roots(sm: &SourceMap, main: FileId, opts: &PpOptions) -> Vec<PathBuf> {
    let dir = dir_of(&sm.file(main).path);
    std::iter::once(dir)
        .chain(opts.include_dirs.iter().cloned())
        .filter_map(|d| std::fs::canonicalize(d).ok())
        .collect()
}

/// The directory of a path, `.` when it has none.
fn dir_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Looks `name` up: for `"name"` in the including file's directory, then in each `-I`
/// directory; for `<name>` only in the `-I` directories.
pub(super) fn resolve(
    sm: &SourceMap,
    including: FileId,
    name: &str,
    quoted: bool,
    dirs: &[PathBuf],
    roots: &[PathBuf],
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
        if !roots.iter().any(|r| canon.starts_with(r)) {
            return Err(format!(
                "#include of '{name}' ({}) is outside the kernel's directory and the -I directories",
                canon.display()
            ));
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
