//! The `ocl-ref` binary: `ocl-ref run FILE.cl --spec FILE.yaml --out DIR` runs a kernel
//! on the installed OpenCL platform and writes the outputs SPEC.md describes.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ocl_hls::launch::output::{check_out_dir, write_run};
use ocl_ref::{run_files, RunOptions, Runtime};

#[derive(Parser)]
#[command(
    name = "ocl-ref",
    about = "Run OpenCL C kernels on the installed OpenCL platform (POCL)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run FILE.cl as the spec says; write DIR/PARAM.bin for every buffer and DIR/run.json.
    Run {
        file: PathBuf,
        #[arg(long)]
        spec: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// NAME or NAME=VALUE, like the compiler's -D (after the spec's defines).
        #[arg(short = 'D', value_name = "NAME[=VALUE]")]
        define: Vec<String>,
        /// An extra folder for #include "..." after the kernel's own.
        #[arg(short = 'I', value_name = "DIR")]
        include: Vec<PathBuf>,
        /// The floating-point build options (-cl-fast-relaxed-math...), passed on
        #[command(flatten)]
        math: ocl_hls::cli::MathArgs,
    },
}

fn main() -> ExitCode {
    let args = ocl_hls::opt::fast_math::respell_args(std::env::args_os());
    let Command::Run {
        file,
        spec,
        out,
        define,
        include,
        math,
    } = Cli::parse_from(args).command;
    let build_options = math
        .flags()
        .build_options()
        .into_iter()
        .map(String::from)
        .collect();
    match run(file, spec, out, define, include, build_options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ocl-ref: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(
    file: PathBuf,
    spec: PathBuf,
    out: PathBuf,
    define: Vec<String>,
    include: Vec<PathBuf>,
    build_options: Vec<String>,
) -> Result<(), String> {
    // Options are checked before anything runs, so a wrong one changes nothing.
    check_out_dir(&out)?;
    let defines = define
        .iter()
        .map(|d| parse_define(d))
        .collect::<Result<Vec<_>, _>>()?;
    for dir in &include {
        if !dir.is_dir() {
            return Err(format!("-I {}: not a folder", dir.display()));
        }
    }
    let opts = RunOptions {
        defines,
        includes: include,
        build_options,
    };
    let rt = Runtime::new().map_err(|e| e.to_string())?;
    let result = run_files(&rt, &file, &spec, &opts).map_err(|e| e.to_string())?;
    let buffers: Vec<(&str, &[u8])> = result
        .buffers
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    write_run(&out, &result.record(), &buffers)
}

fn parse_define(d: &str) -> Result<(String, Option<String>), String> {
    let (name, value) = match d.split_once('=') {
        Some((n, v)) => (n, Some(v.to_string())),
        None => (d, None),
    };
    let ident = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric());
    let blank = value.as_deref().is_some_and(|v| {
        v.chars()
            .any(|c| c.is_whitespace() || c == '"' || c == '\'')
    });
    if !ident || blank {
        return Err(format!(
            "-D {d}: expected NAME or NAME=VALUE without blanks or quotes"
        ));
    }
    Ok((name.to_string(), value))
}
