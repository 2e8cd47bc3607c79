//! Writing a whole output folder all or nothing (`build -o OUT`, `run --out DIR`): a tree of
//! files is written into a hidden temporary sibling of OUT and renamed into place.
//!
//! An existing OUT is replaced only when the caller's test says it is an earlier output of
//! the same command, so a mistyped `-o` cannot wipe an unrelated folder. The old OUT is
//! renamed aside, the new one renamed in, and only then the old one deleted; if the second
//! rename fails the old OUT is renamed back. (Between the two renames OUT is briefly absent:
//! std has no portable atomic directory exchange.)

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Files by path relative to the output folder (`/`-separated, no `..`), sorted so the
/// write order is deterministic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Tree {
    /// Adds a file; a second file at the same path or a path that could leave the folder
    /// is an error (a compiler bug, never overwritten silently).
    pub fn add(&mut self, rel: &str, bytes: impl Into<Vec<u8>>) -> Result<(), String> {
        let p = Path::new(rel);
        let plain = !rel.is_empty()
            && p.components().all(|c| matches!(c, Component::Normal(_)))
            && !rel.contains('\\');
        if !plain {
            return Err(format!("`{rel}` cannot name an output file"));
        }
        if self.files.insert(rel.to_string(), bytes.into()).is_some() {
            return Err(format!("two output files named `{rel}`"));
        }
        Ok(())
    }
}

/// Checks that `dir` can receive an output: absent, an empty folder, or a folder holding
/// the file `marker` (an earlier output). Called before spending time and again before
/// writing.
pub fn check_out_dir(dir: &Path, marker: &str) -> Result<(), String> {
    if dir.as_os_str().is_empty() || dir.file_name().is_none() {
        return Err(format!("{}: not a folder name", dir.display()));
    }
    let meta = match fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    if !meta.is_dir() {
        return Err(format!(
            "{}: exists and is not a folder; not replacing it",
            dir.display()
        ));
    }
    let mut entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if entries.next().is_none() {
        return Ok(());
    }
    let marked = fs::symlink_metadata(dir.join(marker)).is_ok_and(|m| m.is_file());
    if !marked {
        return Err(format!(
            "{}: exists and has no {marker}, so it is not an earlier output; not replacing it",
            dir.display()
        ));
    }
    Ok(())
}

/// Writes `tree` as the folder `dir`, replacing an earlier output (see
/// [`check_out_dir`]). On error nothing has changed and no temporary folder is left.
pub fn write_tree(dir: &Path, tree: &Tree, marker: &str) -> Result<(), String> {
    write_tree_checked(dir, tree, &|d: &Path| check_out_dir(d, marker))
}

/// Writes `tree` as the folder `dir` after `replaceable(dir)` accepts what is there now.
/// On error nothing has changed and no temporary folder is left.
pub fn write_tree_checked(
    dir: &Path,
    tree: &Tree,
    replaceable: &dyn Fn(&Path) -> Result<(), String>,
) -> Result<(), String> {
    replaceable(dir)?;
    let created = create_parents(dir)?;
    let tmp = sibling(dir, "tmp");
    let result = fill(&tmp, tree).and_then(|()| swap_in(&tmp, dir));
    if let Err(e) = result {
        let _ = fs::remove_dir_all(&tmp);
        for p in created.iter().rev() {
            let _ = fs::remove_dir(p);
        }
        return Err(format!("{}: {e}", dir.display()));
    }
    Ok(())
}

/// Creates DIR's missing ancestors; returns them, outermost first, so a failure can
/// remove exactly those.
fn create_parents(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut missing = Vec::new();
    let mut p = dir.parent();
    while let Some(q) = p.filter(|q| !q.as_os_str().is_empty() && !q.exists()) {
        missing.push(q.to_path_buf());
        p = q.parent();
    }
    missing.reverse();
    for (i, m) in missing.iter().enumerate() {
        if let Err(e) = fs::create_dir(m) {
            for made in missing[..i].iter().rev() {
                let _ = fs::remove_dir(made);
            }
            return Err(format!("cannot create {}: {e}", m.display()));
        }
    }
    Ok(missing)
}

fn sibling(dir: &Path, what: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let base = dir.file_name().unwrap_or_default().to_string_lossy();
    dir.with_file_name(format!(".{base}.{what}-{}-{n}", std::process::id()))
}

fn fill(tmp: &Path, tree: &Tree) -> Result<(), String> {
    fs::create_dir(tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    for (rel, bytes) in &tree.files {
        let path = tmp.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        let mut f = fs::File::create(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        f.write_all(bytes)
            .and_then(|()| f.sync_all())
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

fn swap_in(tmp: &Path, dir: &Path) -> Result<(), String> {
    if fs::symlink_metadata(dir).is_err() {
        return fs::rename(tmp, dir).map_err(|e| format!("cannot rename into place: {e}"));
    }
    let old = sibling(dir, "old");
    fs::rename(dir, &old).map_err(|e| format!("cannot move the old folder aside: {e}"))?;
    if let Err(e) = fs::rename(tmp, dir) {
        let _ = fs::rename(&old, dir);
        return Err(format!("cannot rename into place: {e}"));
    }
    // The new output is in place; a leftover hidden old folder is only untidy.
    let _ = fs::remove_dir_all(&old);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ohls-tree-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn listing(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    fn tree(files: &[(&str, &str)]) -> Tree {
        let mut t = Tree::default();
        for (p, s) in files {
            t.add(p, s.as_bytes()).unwrap();
        }
        t
    }

    #[test]
    fn refuses_paths_leaving_the_folder_and_duplicates() {
        let mut t = Tree::default();
        for bad in ["", "../x", "/etc/x", "a/../b", "a\\b"] {
            assert!(t.add(bad, "x").is_err(), "{bad}");
        }
        t.add("rtl/a.v", "x").unwrap();
        assert!(t
            .add("rtl/a.v", "y")
            .unwrap_err()
            .contains("two output files"));
    }

    #[test]
    fn writes_nested_files_and_replaces_an_earlier_output_whole() {
        let root = scratch("write");
        let out = root.join("deep/out");
        write_tree(
            &out,
            &tree(&[("report.json", "1"), ("rtl/a.v", "a")]),
            "report.json",
        )
        .unwrap();
        assert_eq!(fs::read_to_string(out.join("rtl/a.v")).unwrap(), "a");
        write_tree(
            &out,
            &tree(&[("report.json", "2"), ("rtl/b.v", "b")]),
            "report.json",
        )
        .unwrap();
        assert_eq!(listing(&out.join("rtl")), vec!["b.v"]);
        assert_eq!(listing(&root.join("deep")), vec!["out"]);
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn refuses_unrelated_folders_and_files() {
        let root = scratch("foreign");
        let out = root.join("out");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("notes.txt"), "mine").unwrap();
        let e = write_tree(&out, &tree(&[("report.json", "1")]), "report.json").unwrap_err();
        assert!(e.contains("not an earlier output"), "{e}");
        assert_eq!(listing(&out), vec!["notes.txt"]);
        let file = root.join("file");
        fs::write(&file, "x").unwrap();
        let e = write_tree(&file, &tree(&[]), "report.json").unwrap_err();
        assert!(e.contains("not a folder"), "{e}");
        assert_eq!(listing(&root), vec!["file", "out"]);
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_nothing_new_and_keeps_the_old_output() {
        let root = scratch("fail");
        let out = root.join("new/out");
        let long = format!("{}.v", "a".repeat(300));
        assert!(write_tree(&out, &tree(&[(long.as_str(), "x")]), "report.json").is_err());
        assert!(listing(&root).is_empty(), "{:?}", listing(&root));
        let kept = root.join("kept");
        write_tree(&kept, &tree(&[("report.json", "old")]), "report.json").unwrap();
        assert!(write_tree(&kept, &tree(&[(long.as_str(), "x")]), "report.json").is_err());
        assert_eq!(fs::read_to_string(kept.join("report.json")).unwrap(), "old");
        assert_eq!(listing(&root), vec!["kept"]);
        fs::remove_dir_all(&root).unwrap();
    }
}
