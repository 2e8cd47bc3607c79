//! The `loops` stage on real kernels: for every kernel with a launch spec (conformance,
//! project and random-testing regression kernels), the interpreter gives the same bytes on the group-form IR before the
//! stage, after it, and after it and `opt` (what the hardware is built from), and the IR
//! verifies. The project kernels `unroll_*` and `fir_window` must really be unrolled and
//! their arrays put in registers, so the comparison is not vacuous.

mod common;
mod fuzz;

use std::path::{Path, PathBuf};

use ocl_hls::board::BoardSet;
use ocl_hls::diag::render;
use ocl_hls::frontend::{check_file, Options as FrontOptions};
use ocl_hls::interp::{self, ArgValue, Launch, Options};
use ocl_hls::launch::{self, KernelSig, LaunchSpec};
use ocl_hls::loops::LoopsReport;
use ocl_hls::workitems::{group_launch, to_group_form};

fn kernels_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cl") && p.with_extension("yaml").exists())
        .collect();
    v.sort();
    v
}

/// The conformance and project kernels, and the random-testing regressions (one folder
/// per kernel).
fn dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v = vec![
        root.join("../../shared/conformance/kernels"),
        root.join("../tests/kernels"),
    ];
    let reg = root.join("../../shared/regressions");
    let mut sub: Vec<PathBuf> = std::fs::read_dir(&reg)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    sub.sort();
    v.extend(sub);
    v
}

fn copy(l: &Launch) -> Launch {
    Launch {
        work_dim: l.work_dim,
        global: l.global,
        local: l.local,
        args: l.args.clone(),
    }
}

/// Runs `cl` before and after the stage (and after it and `opt`); the stage's report
/// on success.
fn check(cl: &Path, board: &ocl_hls::board::Board) -> Result<LoopsReport, String> {
    let spec = LaunchSpec::load(&cl.with_extension("yaml")).map_err(|e| e.to_string())?;
    let mut fo = FrontOptions::default();
    fo.pp.defines = spec
        .defines
        .iter()
        .map(|(k, v)| (k.clone(), v.0.clone()))
        .collect();
    let checked = check_file(cl, &fo);
    let sm = &checked.sources;
    let program = checked.program.as_ref().ok_or("no program")?;
    let sigs: Vec<KernelSig> = program.kernels.iter().map(KernelSig::from_info).collect();
    let l = launch::resolve(&spec, &sigs, 256).map_err(|e| e.to_string())?;
    let module = ocl_hls::lower::lower(program, sm).map_err(|d| format!("{:?}", d.list))?;
    let kernel = module
        .kernels
        .iter()
        .find(|k| k.name == l.kernel)
        .ok_or("kernel not lowered")?;
    let kernel = ocl_hls::mathlib::expand(kernel).map_err(|d| render(sm, &d))?;
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
    let mut g = to_group_form(&kernel).map_err(|d| render(sm, &d))?;
    let gl = group_launch(&g, &launch)?;
    let opts = Options::default();
    let show = |e: interp::InterpError| render(sm, &e.to_diagnostic());
    let before =
        interp::run(&g.kernel, &copy(&gl), &opts).map_err(|e| format!("before: {}", show(e)))?;
    let original = g.kernel.clone();
    let report = ocl_hls::loops::run(&mut g.kernel, sm, &Default::default())
        .map_err(|d| d.list.iter().map(|x| render(sm, x)).collect::<String>())?;
    let printed = |k: &ocl_hls::ir::Kernel| ocl_hls::ir::print::print_kernel(k, None);
    ocl_hls::ir::verify::verify_kernel(&g.kernel).map_err(|e| {
        format!(
            "the IR breaks rules: {}\n{}",
            e.join("; "),
            printed(&g.kernel)
        )
    })?;
    let after = interp::run(&g.kernel, &copy(&gl), &opts)
        .map_err(|e| format!("after: {}\n{}", show(e), printed(&g.kernel)))?;
    same(
        &original,
        &before,
        &after,
        "the loops stage",
        &printed(&g.kernel),
    )?;
    let facts = ocl_hls::opt::Launch::of(&g);
    ocl_hls::opt::run_with(&mut g.kernel, &facts, board, &Default::default())
        .map_err(|d| render(sm, &d))?;
    let both = interp::run(&g.kernel, &gl, &opts).map_err(|e| format!("after opt: {}", show(e)))?;
    same(
        &original,
        &before,
        &both,
        "the loops and opt stages",
        &printed(&g.kernel),
    )?;
    Ok(report)
}

fn same(
    k: &ocl_hls::ir::Kernel,
    before: &interp::Outcome,
    after: &interp::Outcome,
    what: &str,
    ir: &str,
) -> Result<(), String> {
    for (i, (p, q)) in before.buffers.iter().zip(&after.buffers).enumerate() {
        if p != q {
            let at = match (p, q) {
                (Some(p), Some(q)) => p.iter().zip(q).position(|(x, y)| x != y),
                _ => None,
            };
            return Err(format!(
                "buffer '{}' differs after {what} (first byte {at:?})\n{ir}",
                k.params[i].name
            ));
        }
    }
    Ok(())
}

#[test]
fn every_kernel_gives_the_same_bytes_after_the_loops_stage() {
    let boards = BoardSet::builtin().expect("built-in boards");
    let board = boards.get("de10-nano").expect("de10-nano board");
    let (mut failures, mut ran) = (Vec::new(), 0);
    let mut unrolled = Vec::new();
    let mut registers = Vec::new();
    for dir in dirs() {
        for cl in kernels_in(&dir) {
            let name = cl
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            match check(&cl, board) {
                Ok(r) => {
                    ran += 1;
                    if r.unrolled.iter().any(|d| d.how != "not unrolled") {
                        unrolled.push(name.clone());
                    }
                    if !r.registers.is_empty() {
                        registers.push(name);
                    }
                }
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
    assert!(ran >= 40, "only {ran} kernels found");
    println!(
        "unrolled: {}\nregisters: {}",
        unrolled.join(", "),
        registers.join(", ")
    );
    for k in [
        "saxpy_unroll",
        "fir_constant",
        "strcpy_attr",
        "matmul_tiled",
        "unroll_factors",
        "unroll_unknown",
        "fir_window",
    ] {
        assert!(
            unrolled.iter().any(|u| u == k),
            "{k} was not unrolled: {unrolled:?}"
        );
    }
    for k in ["fir_constant", "fir_window", "uninit_private"] {
        assert!(
            registers.iter().any(|u| u == k),
            "{k}: no array in registers: {registers:?}"
        );
    }
}

/// Random well-defined kernels (the fuzzer's generator: private arrays, small constant
/// loops with `break`, switches, barriers), their loops given unroll hints of every
/// kind: the same bytes before and after the stage. No POCL or Verilator: the group
/// form runs in the interpreter, so many kernels fit in a test.
#[test]
fn random_kernels_with_unroll_hints_give_the_same_bytes() {
    let boards = BoardSet::builtin().expect("built-in boards");
    let board = boards.get("de10-nano").expect("de10-nano board");
    let t = common::Tmp::new("random");
    let (mut failures, mut unrolled, mut registers, mut too_big) = (Vec::new(), 0, 0, 0);
    let hints = [
        "",
        "#pragma unroll\n",
        "__attribute__((opencl_unroll_hint(2))) ",
        "[[cl::unroll_hint(3)]] ",
        "#pragma unroll 4\n",
    ];
    for seed in 1..=120u64 {
        let p = fuzz::gen::Program::generate(seed);
        let mut src = p.render(&Default::default());
        // Loop `i<n>` gets hint n + seed (mod the kinds), the tail's loops none.
        for n in 0..16 {
            let head = format!("for (uint i{n} = 0;");
            let hint = hints[(n + seed as usize) % hints.len()];
            src = src.replace(&head, &format!("{hint}{head}"));
        }
        let cl = t.0.join(format!("rk{seed}.cl"));
        std::fs::write(&cl, &src).expect("kernel");
        std::fs::write(cl.with_extension("yaml"), &p.spec).expect("spec");
        match check(&cl, board) {
            Ok(r) => {
                unrolled += r
                    .unrolled
                    .iter()
                    .filter(|d| d.how != "not unrolled")
                    .count();
                registers += r.registers.len();
            }
            // Nested hints can multiply past the size limit: a clean error is right.
            Err(e) if e.contains("over the unrolling limit") && e.lines().count() <= 8 => {
                too_big += 1
            }
            Err(e) => failures.push(format!("seed {seed}: {e}\n{src}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(too_big < 20, "{too_big} kernels over the size limit");
    assert!(unrolled > 100, "only {unrolled} loops unrolled");
    // The generator indexes its arrays with data (`a[x & 7]`): they stay in memory.
    println!(
        "{unrolled} loops unrolled, {registers} arrays in registers, {too_big} over the limit"
    );
}
