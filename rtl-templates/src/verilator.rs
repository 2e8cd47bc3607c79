//! Builds Verilator models with a C++ testbench, cached by a hash of everything that goes in,
//! so tests that share a (module, parameters) pair share one slow C++ build.

use std::collections::hash_map::DefaultHasher;
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// What to tell a user who lacks Verilator (the test scripts install it).
pub const INSTALL_HINT: &str =
    "verilator is not installed: run `bash scripts/install-deps.sh` (or `apt-get install -y verilator`)";

/// A Verilator build: top module, Verilog sources, a C++ testbench with `main`, and parameters.
#[derive(Clone, Debug)]
pub struct Build {
    top: String,
    sources: Vec<PathBuf>,
    testbench: Vec<PathBuf>,
    params: Vec<(String, String)>,
    flags: Vec<String>,
    quick: bool,
}

impl Build {
    pub fn new(top: &str) -> Build {
        Build {
            top: top.to_string(),
            sources: Vec::new(),
            testbench: Vec::new(),
            params: Vec::new(),
            flags: Vec::new(),
            quick: false,
        }
    }

    /// Compile the model's C++ without optimization (`-O0`): a small model's build takes
    /// about half the CPU of `-O2` and bigger ones less than half, for a simulation some
    /// times slower. For models built to run one short launch or two.
    pub fn quick(mut self, quick: bool) -> Build {
        self.quick = quick;
        self
    }

    /// The C++ optimization this build compiles with.
    fn cpp_opt(&self) -> String {
        if self.quick {
            "-O0".to_string()
        } else {
            opt_level()
        }
    }

    pub fn source(mut self, path: impl Into<PathBuf>) -> Build {
        self.sources.push(path.into());
        self
    }

    /// A C++ file of the testbench (the first one given should define `main`).
    pub fn testbench(mut self, path: impl Into<PathBuf>) -> Build {
        self.testbench.push(path.into());
        self
    }

    /// A top-level parameter override (`-GNAME=VALUE`).
    pub fn param(mut self, name: &str, value: impl ToString) -> Build {
        self.params.push((name.to_string(), value.to_string()));
        self
    }

    /// An extra Verilator flag (`--trace`, `-Wno-...`).
    pub fn flag(mut self, f: &str) -> Build {
        self.flags.push(f.to_string());
        self
    }

    fn key(&self) -> Result<u64, String> {
        let mut h = DefaultHasher::new();
        self.top.hash(&mut h);
        self.params.hash(&mut h);
        self.flags.hash(&mut h);
        for p in self.sources.iter().chain(&self.testbench) {
            let bytes = fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            p.file_name().hash(&mut h);
            bytes.hash(&mut h);
        }
        verilator_version()?.hash(&mut h);
        self.cpp_opt().hash(&mut h);
        Ok(h.finish())
    }

    /// Builds (or reuses) the model and returns the path of the simulation executable.
    pub fn build(&self) -> Result<PathBuf, String> {
        let key = self.key()?;
        let dir = cache_dir().join(format!("{}-{:016x}", self.top, key));
        let exe = dir.join("sim");
        if exe.exists() {
            return Ok(exe);
        }
        // Builds of different models run at once (a small model is one large C++ file, so
        // one build alone leaves a core idle); the same model is built once, under a file
        // lock that holds between threads and between test processes.
        fs::create_dir_all(cache_dir()).map_err(|e| e.to_string())?;
        let lock_path = cache_dir().join(format!("{}-{:016x}.lock", self.top, key));
        let lock = fs::File::create(&lock_path).map_err(|e| e.to_string())?;
        lock.lock().map_err(|e| e.to_string())?;
        if exe.exists() {
            return Ok(exe);
        }
        let tmp = cache_dir().join(format!("{}-{:016x}.tmp", self.top, key));
        let opt = self.cpp_opt();
        let _ = fs::remove_dir_all(&tmp);
        let mut cmd = Command::new("verilator");
        cmd.args([
            "--cc",
            "--exe",
            "--build",
            "-j",
            "2",
            "--x-assign",
            "unique",
        ])
        .args(["-MAKEFLAGS", &format!("OPT_FAST={opt}")])
        .args(["-CFLAGS", &format!("{opt} -std=c++17")])
        .arg("--top-module")
        .arg(&self.top)
        .arg("-Mdir")
        .arg(&tmp)
        .args(["-o", "sim"]);
        if objcache() {
            cmd.args(["-MAKEFLAGS", "OBJCACHE=ccache"])
                .env("CCACHE_DIR", cache_dir().join("ccache"));
        }
        for (k, v) in &self.params {
            cmd.arg(format!("-G{k}={v}"));
        }
        cmd.args(&self.flags);
        cmd.args(&self.sources);
        for tb in &self.testbench {
            cmd.arg(fs::canonicalize(tb).map_err(|e| format!("{}: {e}", tb.display()))?);
        }
        let out = cmd.output().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => INSTALL_HINT.to_string(),
            _ => format!("cannot run verilator: {e}"),
        })?;
        if !out.status.success() {
            return Err(format!(
                "verilator build of {} failed:\n{}\n{}",
                self.top,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let _ = fs::remove_dir_all(&dir);
        fs::rename(&tmp, &dir).map_err(|e| e.to_string())?;
        Ok(exe)
    }
}

/// Where built models are kept: `$OCL_HLS_VERILATOR_CACHE`, else `target/verilator`.
pub fn cache_dir() -> PathBuf {
    if let Ok(d) = std::env::var("OCL_HLS_VERILATOR_CACHE") {
        return PathBuf::from(d);
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("target")
        .join("verilator")
}

/// Whether builds compile through `ccache` (`scripts/install-deps.sh` installs it). Every
/// model compiles the same Verilator runtime (`verilated.cpp`, the largest object of a
/// small model) and harness files; ccache shares their objects between models by
/// preprocessed text and flags, so a model compiles little more than its own classes
/// (control_flow's core: 27 s of CPU without, 7 s with the runtime cached). Its cache is
/// `cache_dir()/ccache`, so a fresh clone starts cold and `cargo clean` empties it. Without
/// ccache the build is the same, only slower.
fn objcache() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        Command::new("ccache")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Writes a content-named file of the build cache unless it is already there: to a
/// temporary name unique to this process and call first, then renamed, so a thread or
/// process reading the path never sees it half written.
pub fn write_once(path: &Path, text: &str) -> Result<(), String> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    if path.exists() {
        return Ok(());
    }
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let tmp = path.with_extension(format!("tmp{}-{n}", std::process::id()));
    fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `verilator --version`, or the install hint.
pub fn verilator_version() -> Result<String, String> {
    let out = Command::new("verilator")
        .arg("--version")
        .output()
        .map_err(|_| INSTALL_HINT.to_string())?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Runs `verilator --lint-only -Wall` on the given sources with `top` as the top module.
/// Returns the warnings as an error when there are any.
pub fn lint(top: &str, sources: &[PathBuf], params: &[(&str, &str)]) -> Result<(), String> {
    let mut cmd = Command::new("verilator");
    cmd.args(["--lint-only", "-Wall", "--top-module", top]);
    for (k, v) in params {
        cmd.arg(format!("-G{k}={v}"));
    }
    cmd.args(sources);
    let out = cmd.output().map_err(|_| INSTALL_HINT.to_string())?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || stderr.contains("%Warning") || stderr.contains("%Error") {
        return Err(format!("lint of {top} failed:\n{stderr}"));
    }
    Ok(())
}

/// Runs a built simulation with arguments and returns its standard output, or an error
/// with its output when it exits non-zero.
pub fn run(exe: &Path, args: &[&str]) -> Result<String, String> {
    let out = Command::new(exe)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    if !out.status.success() {
        return Err(format!(
            "{} failed ({}):\n{}\n{}",
            exe.display(),
            out.status,
            stdout,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(stdout)
}

/// The C++ optimization of built models: `-O2`, or `OCL_HLS_VERILATOR_OPT` (`-O0`/`-O1`):
/// long fuzz runs build far more models than they simulate cycles, and a big datapath
/// compiles several times faster without optimization.
fn opt_level() -> String {
    match std::env::var("OCL_HLS_VERILATOR_OPT").as_deref() {
        Ok(o @ ("-O0" | "-O1" | "-O2" | "-O3" | "-Os")) => o.to_string(),
        _ => "-O2".to_string(),
    }
}
