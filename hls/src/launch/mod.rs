//! Launch specs (the YAML of SPEC.md): reading them, matching them to a kernel, building
//! the input bytes, comparing output buffers, and writing a run's outputs.
//!
//! The flow every engine follows: `LaunchSpec::load` -> `resolve` (against the kernel's
//! `KernelSig`, from the frontend's `KernelInfo` or from a runtime) -> run with the
//! `Launch`'s bytes -> `output::write_run`; a differential test then calls
//! `compare::compare_arg` per buffer.

pub mod compare;
pub mod half;
pub mod init;
pub mod output;
pub mod resolve;
pub mod spec;
pub mod types;

pub use compare::{compare, compare_arg, Mismatch, Tolerance};
pub use output::{check_out_dir, write_run, RunRecord};
pub use resolve::{
    resolve, ArgValue, BufferArg, KernelSig, Launch, LaunchArg, ParamKind, ParamSig, SameAs,
};
pub use spec::{LaunchSpec, SpecError};
pub use types::{ElemType, Num};
