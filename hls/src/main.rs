//! The `ocl-hls` binary: everything lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    ocl_hls::cli::main()
}
