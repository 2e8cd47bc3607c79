//! Helpers shared by the integration tests that write files.

use std::path::PathBuf;

/// A scratch folder for one test, unique per test binary, tag and process, removed on drop.
pub struct Tmp(pub PathBuf);

impl Tmp {
    pub fn new(tag: &str) -> Tmp {
        let p = std::env::temp_dir().join(format!(
            "ohls-{}-{tag}-{}",
            env!("CARGO_CRATE_NAME"),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Tmp(p)
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The `ocl-ref` binary (the POCL runner) of this workspace, built by `cargo test
/// --workspace`: the newer of the debug and release builds, so a stale one left by an older
/// checkout is not picked over a fresh one (`cargo test -p ocl-hls` alone does not build it).
#[allow(dead_code)] // not every test binary that shares this module runs POCL
pub fn ocl_ref_binary() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    ["debug/ocl-ref", "release/ocl-ref"]
        .iter()
        .map(|p| target.join(p))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .max()
        .map(|(_, p)| p)
        .unwrap_or_else(|| {
            panic!(
                "the ocl-ref binary is missing: run `cargo build -p ocl-ref` (cargo test \
                 --workspace builds it; POCL comes from `bash scripts/install-deps.sh`)"
            )
        })
}
