//! The group-form IR of every kernel of one file before and after the `opt` stage, with
//! the stage's time (saturation and extraction apart), for reading what the rules did:
//! `cargo run --release -p ocl-hls --example opt_ir -- KERNEL.cl [BOARD]` (default
//! de10-nano; a launch spec next to the file gives its `-D` defines). Float build options
//! (`-cl-fast-relaxed-math`...) may follow the board.

use std::path::Path;
use std::process::ExitCode;

use ocl_hls::board::BoardSet;
use ocl_hls::frontend::{check_file, Options};
use ocl_hls::ir::print::print_kernel;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(file) = args.next() else {
        eprintln!("usage: opt_ir KERNEL.cl [BOARD]");
        return ExitCode::FAILURE;
    };
    let board_name = args.next().unwrap_or_else(|| "de10-nano".into());
    let mut opts = ocl_hls::opt::Options::default();
    for a in args {
        if !opts.math.set(&a) {
            eprintln!("unknown option `{a}`");
            return ExitCode::FAILURE;
        }
    }
    match run(Path::new(&file), &board_name, &opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(f: &Path, board_name: &str, opts: &ocl_hls::opt::Options) -> Result<(), String> {
    let mut fo = Options::default();
    if let Ok(spec) = ocl_hls::launch::LaunchSpec::load(&f.with_extension("yaml")) {
        fo.pp.defines = spec
            .defines
            .iter()
            .map(|(k, v)| (k.clone(), v.0.clone()))
            .collect();
    }
    let boards = BoardSet::builtin().map_err(|e| format!("{e:?}"))?;
    let board = boards
        .get(board_name)
        .ok_or_else(|| format!("no board `{board_name}`"))?;
    let checked = check_file(f, &fo);
    let program = checked
        .program
        .as_ref()
        .filter(|_| !checked.has_errors())
        .ok_or("the file does not check")?;
    let module = ocl_hls::lower::lower(program, &checked.sources)
        .map_err(|d| format!("lowering: {:?}", d.list))?;
    for k in &module.kernels {
        let relaxed = ocl_hls::opt::relax(k, opts);
        let k = relaxed.as_ref().map_or(k, |r| &r.0);
        let k = ocl_hls::mathlib::expand(k).map_err(|d| d.message)?;
        let mut g = ocl_hls::workitems::to_group_form(&k).map_err(|d| d.message)?;
        // The loops stage runs before opt in the pipeline (`compile`).
        ocl_hls::loops::run(&mut g.kernel, &checked.sources, &Default::default())
            .map_err(|d| format!("loops stage: {:?}", d.list))?;
        println!("==== before\n{}", print_kernel(&g.kernel, None));
        let r = ocl_hls::opt::run_group(&mut g, board, opts).map_err(|d| d.message)?;
        println!(
            "==== after ({:.1} ms: saturation {:.1}, extraction {:.1})\n{}",
            r.millis,
            r.saturate_ms,
            r.extract_ms,
            print_kernel(&g.kernel, None)
        );
    }
    Ok(())
}
