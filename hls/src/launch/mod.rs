//! Launch specs (the YAML of SPEC.md): reading them, matching them to a kernel, building
//! the input bytes, comparing output buffers, and writing a run's outputs.

pub mod compare;
pub mod half;
pub mod init;
pub mod output;
pub mod resolve;
pub mod spec;
pub mod types;

pub use resolve::{
    resolve, ArgValue, BufferArg, KernelSig, Launch, LaunchArg, ParamKind, ParamSig,
};
pub use spec::{LaunchSpec, SpecError};
pub use types::{ElemType, Num};
