//! Writing a run's outputs (`DIR/PARAM.bin` per buffer, `DIR/run.json`) all or nothing,
//! through [`crate::outdir`]. An existing DIR is replaced only when it looks like an
//! earlier run's output (empty, or only `run.json` and `*.bin` files), so a mistyped
//! `--out` cannot wipe an unrelated folder.

use std::fs;
use std::path::Path;

use serde::Serialize;

use crate::outdir::{write_tree_checked, Tree};

/// `run.json`: what ran and how, as SPEC.md lists it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRecord {
    pub kernel: String,
    pub engine: String,
    pub global: Vec<u64>,
    pub local: Vec<u64>,
    /// Parameter names, in order.
    pub args: Vec<String>,
    /// Cycles, for an engine that simulates hardware.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycles: Option<u64>,
    /// Per pipelined loop, what the core's counters measured (sim only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub loops: Vec<crate::engine::measured::MeasuredLoop>,
}

/// Checks that `dir` can receive a run's outputs, before a run spends time: it is absent,
/// or an earlier run's output folder.
pub fn check_out_dir(dir: &Path) -> Result<(), String> {
    if dir.as_os_str().is_empty() || dir.file_name().is_none() {
        return Err(format!("--out {}: not a folder name", dir.display()));
    }
    let meta = match fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("--out {}: {e}", dir.display())),
    };
    if !meta.is_dir() {
        return Err(format!(
            "--out {}: exists and is not a folder; not replacing it",
            dir.display()
        ));
    }
    let entries = fs::read_dir(dir).map_err(|e| format!("--out {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("--out {}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if !is_file || !(name == "run.json" || name.ends_with(".bin")) {
            return Err(format!(
                "--out {}: exists and holds `{name}`, which is not a run output; \
                 not replacing it",
                dir.display()
            ));
        }
    }
    Ok(())
}

/// Writes `DIR/NAME.bin` for each buffer and `DIR/run.json`, replacing an earlier run's
/// DIR. On error nothing has changed.
pub fn write_run(dir: &Path, record: &RunRecord, buffers: &[(&str, &[u8])]) -> Result<(), String> {
    let mut tree = Tree::default();
    for (name, bytes) in buffers {
        let plain = !name.is_empty() && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric());
        if !plain {
            return Err(format!("`{name}` cannot name an output file"));
        }
        tree.add(&format!("{name}.bin"), *bytes)?;
    }
    let json = serde_json::to_string_pretty(record).map_err(|e| e.to_string())? + "\n";
    tree.add("run.json", json)?;
    write_tree_checked(dir, &tree, &check_out_dir).map_err(|e| {
        if e.starts_with("--out ") {
            e
        } else {
            format!("--out {e}")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("ohls-out-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn record() -> RunRecord {
        RunRecord {
            kernel: "vadd".into(),
            engine: "pocl".into(),
            global: vec![4],
            local: vec![2],
            args: vec!["a".into(), "n".into()],
            cycles: None,
            loops: Vec::new(),
        }
    }

    fn listing(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn writes_buffers_and_run_json() {
        let root = scratch("write");
        let out = root.join("deep/er/out");
        write_run(&out, &record(), &[("a", &[1, 2, 3])]).unwrap();
        assert_eq!(fs::read(out.join("a.bin")).unwrap(), vec![1, 2, 3]);
        let json: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
        assert_eq!(json["kernel"], "vadd");
        assert_eq!(json["engine"], "pocl");
        assert_eq!(json["local"], serde_json::json!([2]));
        assert_eq!(json["args"], serde_json::json!(["a", "n"]));
        assert!(json.get("cycles").is_none());
        assert_eq!(listing(&root.join("deep/er")), vec!["out"]);
        // A second run replaces the first one's folder whole: stale files go.
        write_run(&out, &record(), &[("b", &[9])]).unwrap();
        assert_eq!(listing(&out), vec!["b.bin", "run.json"]);
        assert_eq!(listing(&root.join("deep/er")), vec!["out"]);
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn refuses_to_replace_foreign_folders_and_files() {
        let root = scratch("foreign");
        let out = root.join("out");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("notes.txt"), "mine").unwrap();
        let e = write_run(&out, &record(), &[("a", &[1])]).unwrap_err();
        assert!(e.contains("holds `notes.txt`"), "{e}");
        assert_eq!(listing(&out), vec!["notes.txt"]);
        let file = root.join("file");
        fs::write(&file, "x").unwrap();
        assert!(write_run(&file, &record(), &[])
            .unwrap_err()
            .contains("not a folder"));
        assert_eq!(fs::read_to_string(&file).unwrap(), "x");
        assert_eq!(listing(&root), vec!["file", "out"]);
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_failure_leaves_nothing() {
        let root = scratch("fail");
        let out = root.join("new/out");
        let e = write_run(&out, &record(), &[("../x", &[1])]).unwrap_err();
        assert!(e.contains("cannot name an output file"), "{e}");
        assert!(listing(&root).is_empty());
        // A failure while writing: a file name longer than the file system allows.
        let long = "a".repeat(300);
        let e = write_run(&out, &record(), &[(long.as_str(), &[1])]).unwrap_err();
        assert!(e.contains("--out"), "{e}");
        assert!(listing(&root).is_empty(), "{:?}", listing(&root));
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn existing_run_output_kept_on_failure() {
        let root = scratch("keep");
        let out = root.join("out");
        write_run(&out, &record(), &[("a", &[7])]).unwrap();
        let long = "b".repeat(300);
        assert!(write_run(&out, &record(), &[(long.as_str(), &[1])]).is_err());
        assert_eq!(listing(&out), vec!["a.bin", "run.json"]);
        assert_eq!(fs::read(out.join("a.bin")).unwrap(), vec![7]);
        assert_eq!(listing(&root), vec!["out"]);
        fs::remove_dir_all(&root).unwrap();
    }
}
