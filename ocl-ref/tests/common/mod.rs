//! Shared helpers of the ocl-ref tests: one OpenCL runtime per test binary, running a
//! kernel by name, and reading buffers as typed little-endian values.
#![allow(dead_code)] // each test binary uses a different subset

use std::path::PathBuf;
use std::sync::OnceLock;

use ocl_hls::launch::ArgValue;
use ocl_ref::{run_files, RefRun, RunOptions, Runtime, INSTALL};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn project_kernels() -> PathBuf {
    repo().join("tests/kernels")
}

pub fn shared_kernels() -> PathBuf {
    repo().join("../shared/conformance/kernels")
}

/// The runtime, created once; a machine without OpenCL fails with the install command.
pub fn runtime() -> &'static Runtime {
    static RT: OnceLock<Result<Runtime, String>> = OnceLock::new();
    match RT.get_or_init(|| Runtime::new().map_err(|e| e.to_string())) {
        Ok(rt) => rt,
        Err(e) => panic!("{e}\n(run `{INSTALL}`)"),
    }
}

/// Runs `DIR/NAME.cl` with `DIR/NAME.yaml`.
pub fn run_in(dir: &std::path::Path, name: &str) -> RefRun {
    let cl = dir.join(format!("{name}.cl"));
    let spec = dir.join(format!("{name}.yaml"));
    run_files(runtime(), &cl, &spec, &RunOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

pub fn project(name: &str) -> RefRun {
    run_in(&project_kernels(), name)
}

pub fn shared(name: &str) -> RefRun {
    run_in(&shared_kernels(), name)
}

/// The initial bytes of buffer `name` (what the kernel read).
pub fn input<'r>(run: &'r RefRun, name: &str) -> &'r [u8] {
    run.launch
        .args
        .iter()
        .find_map(|a| match &a.value {
            ArgValue::Buffer(b) if a.name == name => Some(b.bytes.as_slice()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no buffer `{name}`"))
}

/// The final bytes of buffer `name`.
pub fn output<'r>(run: &'r RefRun, name: &str) -> &'r [u8] {
    run.buffer(name)
        .unwrap_or_else(|| panic!("no output `{name}`"))
}

macro_rules! reader {
    ($name:ident, $t:ty) => {
        pub fn $name(b: &[u8]) -> Vec<$t> {
            const N: usize = std::mem::size_of::<$t>();
            b.chunks_exact(N)
                .map(|c| {
                    let mut a = [0u8; N];
                    a.copy_from_slice(c);
                    <$t>::from_le_bytes(a)
                })
                .collect()
        }
    };
}

reader!(i8s, i8);
reader!(u8s, u8);
reader!(i16s, i16);
reader!(u16s, u16);
reader!(i32s, i32);
reader!(u32s, u32);
reader!(i64s, i64);
reader!(u64s, u64);
reader!(f32s, f32);
reader!(f64s, f64);

/// Asserts two f32 slices are equal bit for bit, naming the first differing index.
pub fn assert_f32_bits(name: &str, got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len(), "{name}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(
            g.to_bits(),
            w.to_bits(),
            "{name}[{i}]: got {g:e}, want {w:e}"
        );
    }
}
