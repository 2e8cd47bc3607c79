//! ocl-hls: compiles OpenCL C kernels into FPGA hardware (library side of the `ocl-hls` binary).

pub mod analysis;
pub mod bind;
pub mod board;
pub mod cli;
pub mod compile;
pub mod datapath;
pub mod diag;
pub mod engine;
pub mod estimate;
pub mod frontend;
pub mod interp;
pub mod ir;
pub mod launch;
pub mod loops;
pub mod lower;
pub mod mathlib;
pub mod memory;
pub mod opt;
pub mod outdir;
pub mod pipeline;
pub mod project;
pub mod report;
pub mod rtl;
pub mod schedule;
pub mod workitems;
