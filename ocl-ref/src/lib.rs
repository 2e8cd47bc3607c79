//! ocl-ref: runs an OpenCL C kernel with a launch spec on the installed OpenCL platform
//! (POCL), the outside judge the project's own engines are compared with.

pub mod error;
pub mod run;
pub mod runtime;
pub mod source;

pub use error::{RefError, INSTALL};
pub use run::{run, run_files, RefRun, RunOptions};
pub use runtime::Runtime;
