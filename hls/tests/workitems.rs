//! The work-item loop transformation: every kernel with a launch spec gives the same bytes
//! in group form as in NDRange form (both run by the interpreter), plus the shape of the
//! transformed IR, per-work-item storage, hidden local-size parameters, launch limits and
//! rejected barrier placements.

use std::path::{Path, PathBuf};

use ocl_hls::diag::{render, SourceMap};
use ocl_hls::frontend::{check_file, Options as FrontOptions};
use ocl_hls::interp::{self, ArgValue, Launch, Options};
use ocl_hls::ir::print::print_kernel;
use ocl_hls::ir::{Kernel, Node};
use ocl_hls::launch::{self, KernelSig, LaunchSpec};
use ocl_hls::workitems::{group_launch, to_group_form, GroupForm};

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/kernels")
}

fn repo_kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels")
}

/// Every `NAME.cl` with a `NAME.yaml` beside it, sorted.
fn kernels_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl") && p.with_extension("yaml").exists())
        .collect();
    v.sort();
    v
}

/// A kernel lowered from a file, with the launch of its spec.
struct Loaded {
    kernel: Kernel,
    launch: Launch,
    sources: SourceMap,
}

fn lower_file(
    cl: &Path,
    defines: Vec<(String, Option<String>)>,
) -> Result<(Vec<Kernel>, SourceMap), String> {
    let mut fo = FrontOptions::default();
    fo.pp.defines = defines;
    let checked = check_file(cl, &fo);
    let all = |d: &ocl_hls::diag::Diagnostics| {
        d.list
            .iter()
            .map(|x| render(&checked.sources, x))
            .collect::<Vec<_>>()
            .join("\n")
    };
    if checked.diags.has_errors() {
        return Err(format!("frontend: {}", all(&checked.diags)));
    }
    let program = checked.program.as_ref().ok_or("no program")?;
    let module = ocl_hls::lower::lower(program, &checked.sources).map_err(|d| all(&d))?;
    Ok((module.kernels, checked.sources))
}

fn load(cl: &Path) -> Result<Loaded, String> {
    let spec = LaunchSpec::load(&cl.with_extension("yaml")).map_err(|e| e.to_string())?;
    let defines = spec
        .defines
        .iter()
        .map(|(k, v)| (k.clone(), v.0.clone()))
        .collect();
    let mut fo = FrontOptions::default();
    fo.pp.defines = spec
        .defines
        .iter()
        .map(|(k, v)| (k.clone(), v.0.clone()))
        .collect();
    let checked = check_file(cl, &fo);
    let program = checked.program.as_ref().ok_or("no program")?;
    let sigs: Vec<KernelSig> = program.kernels.iter().map(KernelSig::from_info).collect();
    let l = launch::resolve(&spec, &sigs, 256).map_err(|e| e.to_string())?;
    let (kernels, sources) = lower_file(cl, defines)?;
    let kernel = kernels
        .into_iter()
        .find(|k| k.name == l.kernel)
        .ok_or("kernel not lowered")?;
    let args = l
        .args
        .iter()
        .map(|a| match &a.value {
            launch::ArgValue::Buffer(b) => ArgValue::Buffer(b.bytes.clone()),
            launch::ArgValue::Scalar { bytes, .. } => ArgValue::Value(bytes.clone()),
            launch::ArgValue::Local { ty, count } => ArgValue::Local(ty.size() as u64 * count),
        })
        .collect();
    let dims = |v: &[u64]| [0, 1, 2].map(|d| v.get(d).copied().unwrap_or(1));
    let launch = Launch {
        work_dim: l.global.len() as u32,
        global: dims(&l.global),
        local: dims(&l.local),
        args,
    };
    Ok(Loaded {
        kernel,
        launch,
        sources,
    })
}

fn copy_launch(l: &Launch) -> Launch {
    Launch {
        work_dim: l.work_dim,
        global: l.global,
        local: l.local,
        args: l
            .args
            .iter()
            .map(|a| match a {
                ArgValue::Buffer(b) => ArgValue::Buffer(b.clone()),
                ArgValue::Local(n) => ArgValue::Local(*n),
                ArgValue::Value(b) => ArgValue::Value(b.clone()),
            })
            .collect(),
    }
}

fn group_form(x: &Loaded) -> Result<GroupForm, String> {
    to_group_form(&x.kernel).map_err(|d| render(&x.sources, &d))
}

/// Runs both forms; the buffers of both, or why one could not run.
fn run_both(
    x: &Loaded,
    g: &GroupForm,
    l: &Launch,
) -> Result<(Vec<Option<Vec<u8>>>, Vec<Option<Vec<u8>>>), String> {
    let opts = Options::default();
    let show = |e: interp::InterpError| render(&x.sources, &e.to_diagnostic());
    let a = interp::run(&x.kernel, l, &opts).map_err(|e| format!("original: {}", show(e)))?;
    let gl = group_launch(g, l)?;
    let b = interp::run(&g.kernel, &gl, &opts).map_err(|e| format!("group form: {}", show(e)))?;
    Ok((a.buffers, b.buffers))
}

fn same_buffers(x: &Loaded, g: &GroupForm, l: &Launch) -> Result<(), String> {
    let (a, b) = run_both(x, g, l)?;
    let b = &b[..a.len()];
    for (i, (p, q)) in a.iter().zip(b).enumerate() {
        if p != q {
            let at = match (p, q) {
                (Some(p), Some(q)) => p.iter().zip(q).position(|(x, y)| x != y),
                _ => None,
            };
            return Err(format!(
                "buffer '{}' differs (first byte {:?})",
                x.kernel.params[i].name, at
            ));
        }
    }
    Ok(())
}

#[test]
fn every_kernel_with_a_spec_gives_the_same_bytes_in_group_form() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for dir in [conformance_dir(), repo_kernels_dir()] {
        for cl in kernels_in(&dir) {
            let r = load(&cl).and_then(|x| {
                let g = group_form(&x)?;
                same_buffers(&x, &g, &x.launch)
            });
            match r {
                Ok(()) => ran += 1,
                Err(e) => failures.push(format!("{}: {e}", cl.display())),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{ran} equal, {} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(ran >= 30, "only {ran} kernels found");
}
