//! `ocl-hls check`: diagnostics on stderr, a per-kernel summary (text or JSON) on stdout.

use clap::Args;

use super::summary;
use super::SourceArgs;
use crate::diag::{render, Severity};
use crate::frontend::check_file;

#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Print the summary and the diagnostics as JSON on stdout
    #[arg(long)]
    pub json: bool,
    /// Print an intermediate form instead of the summary: `ir` (the kernel IR)
    #[arg(long, value_enum, value_name = "FORM")]
    pub emit: Option<Emit>,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Emit {
    /// The kernel IR after lowering: blocks of dataflow ops inside structured control
    Ir,
}

/// Exit code 0 when the file is accepted (warnings allowed), 1 on any error.
pub fn run(args: &CheckArgs) -> u8 {
    let checked = check_file(&args.source.file, &args.source.options());
    for d in &checked.diags.list {
        eprint!("{}", render(&checked.sources, d));
    }
    let errors = checked.diags.error_count();
    let warnings = checked
        .diags
        .list
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    if errors + warnings > 0 {
        eprintln!("{}", summary::counts(errors, warnings));
    }
    let kernels = match (&checked.program, errors) {
        (Some(p), 0) => p.kernels.as_slice(),
        _ => &[],
    };
    if let (Some(Emit::Ir), Some(program), 0) = (args.emit, &checked.program, errors) {
        return match crate::lower::lower(program, &checked.sources) {
            Ok(module) => {
                super::out(&crate::ir::print::print_module(
                    &module,
                    Some(&checked.sources),
                ));
                0
            }
            Err(d) => {
                for x in &d.list {
                    eprint!("{}", render(&checked.sources, x));
                }
                1
            }
        };
    }
    if args.json {
        super::out(&(summary::json(&args.source.file, &checked, kernels) + "\n"));
    } else if errors == 0 {
        super::out(&summary::text(&args.source.file, kernels));
    }
    u8::from(errors > 0)
}
