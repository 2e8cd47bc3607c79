//! Running Yosys on one kernel core: its files and templates in a scratch folder, the
//! board's `flow.estimate` synthesis with the core as top, and the cell counts of
//! `stat -json` (plus the netlist as JSON when nextpnr is to place it).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use rtl_templates::area::{parse_stat_json, CellCounts};

use super::cells::Library;

/// One core as Yosys needs it: the generated files and the templates it instantiates.
pub struct CoreSource<'a> {
    pub top: &'a str,
    pub files: &'a [(String, String)],
    pub templates: &'a [PathBuf],
}

/// What one Yosys run gave.
pub struct Synthesis {
    /// The command line, with the script as run (`-p`) so a person can repeat it in the
    /// `rtl/` folder of the build.
    pub command: String,
    pub seconds: f64,
    pub cells: CellCounts,
    /// The netlist for nextpnr (only when asked for).
    pub netlist: Option<PathBuf>,
}

/// A scratch folder removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Result<Scratch, String> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "ocl-hls-estimate-{}-{}-{tag}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The synthesis command for a core: the board's command with the core as top; an
/// Intel core gets no I/O buffers or clock buffer, since its ports are not pins.
pub fn synth_command(estimate: &str, lib: Library, top: &str) -> String {
    let extra = match lib {
        Library::IntelAlm => " -noiopad -noclkbuf",
        Library::Ecp5 | Library::Ice40 => "",
    };
    format!("{estimate} -top {top}{extra}")
}

/// Writes the core's files into `dir` and names them in a stable order.
fn write_sources(dir: &Path, core: &CoreSource) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    for (name, text) in core.files {
        std::fs::write(dir.join(name), text)
            .map_err(|e| format!("cannot write {}: {e}", dir.join(name).display()))?;
        names.push(name.clone());
    }
    for t in core.templates {
        let name = crate::project::template_name(t)?;
        std::fs::copy(t, dir.join(&name))
            .map_err(|e| format!("cannot copy template {}: {e}", t.display()))?;
        names.push(name);
    }
    names.sort();
    names.dedup();
    Ok(names)
}

/// Synthesises `core` with `yosys` (a path) in the scratch folder `dir`.
pub fn synthesise(
    yosys: &Path,
    dir: &Path,
    core: &CoreSource,
    estimate: &str,
    lib: Library,
    want_netlist: bool,
) -> Result<Synthesis, String> {
    let names = write_sources(dir, core)?;
    let mut script: Vec<String> = names.iter().map(|n| format!("read_verilog {n}")).collect();
    script.push(synth_command(estimate, lib, core.top));
    script.push("tee -q -o stat.json stat -json".into());
    if want_netlist {
        script.push("write_json netlist.json".into());
    }
    let script = script.join("; ");
    let started = Instant::now();
    let out = Command::new(yosys)
        .current_dir(dir)
        .args(["-q", "-l", "yosys.log", "-p", &script])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", yosys.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    let command = format!("{} -q -p '{script}'", yosys.display());
    if !out.status.success() {
        let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default();
        let tail: Vec<&str> = log.lines().rev().take(15).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!(
            "yosys failed on {} ({}):\n{}{}",
            core.top,
            out.status,
            String::from_utf8_lossy(&out.stderr),
            tail.join("\n")
        ));
    }
    let stat = std::fs::read_to_string(dir.join("stat.json"))
        .map_err(|e| format!("yosys wrote no statistics for {}: {e}", core.top))?;
    let cells = parse_stat_json(&stat).map_err(|e| format!("{}: {e}", core.top))?;
    Ok(Synthesis {
        command,
        seconds,
        cells,
        netlist: want_netlist.then(|| dir.join("netlist.json")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intel_cores_get_no_pads() {
        assert_eq!(
            synth_command(
                "synth_intel_alm -family cyclonev",
                Library::IntelAlm,
                "k_core"
            ),
            "synth_intel_alm -family cyclonev -top k_core -noiopad -noclkbuf"
        );
        assert_eq!(
            synth_command("synth_ice40 -dsp", Library::Ice40, "k_core"),
            "synth_ice40 -dsp -top k_core"
        );
    }

    #[test]
    fn scratch_folders_are_removed() {
        let path = {
            let s = Scratch::new("t").unwrap();
            assert!(s.0.is_dir());
            s.0.clone()
        };
        assert!(!path.exists());
    }
}
