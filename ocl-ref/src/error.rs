//! Why a reference run did not produce outputs.

use std::fmt;

use ocl_hls::launch::SpecError;

/// The install command printed when no OpenCL platform can be used.
pub const INSTALL: &str =
    "bash scripts/install-deps.sh (apt-get install -y pocl-opencl-icd ocl-icd-opencl-dev)";

#[derive(Debug)]
pub enum RefError {
    /// The spec is wrong or does not fit the kernel.
    Spec(SpecError),
    /// The kernel file or an option is wrong.
    Input(String),
    /// The OpenCL runtime rejected the program: its build log.
    Build { file: String, log: String },
    /// No usable OpenCL platform or device.
    NoPlatform(String),
    /// An OpenCL call failed.
    OpenCl { call: &'static str, error: String },
}

impl fmt::Display for RefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefError::Spec(e) => write!(f, "{e}"),
            RefError::Input(m) => f.write_str(m),
            RefError::Build { file, log } => {
                write!(f, "{file}: the OpenCL runtime could not build it:\n{log}")
            }
            RefError::NoPlatform(m) => write!(
                f,
                "no usable OpenCL platform ({m}); install one with: {INSTALL}"
            ),
            RefError::OpenCl { call, error } => write!(f, "OpenCL {call} failed: {error}"),
        }
    }
}

impl std::error::Error for RefError {}

impl From<SpecError> for RefError {
    fn from(e: SpecError) -> RefError {
        RefError::Spec(e)
    }
}

/// Wraps an OpenCL error with the call that produced it.
pub fn cl<T, E: fmt::Display>(call: &'static str, r: Result<T, E>) -> Result<T, RefError> {
    r.map_err(|e| RefError::OpenCl {
        call,
        error: e.to_string(),
    })
}
