//! The `opt` stage on real kernels: for every kernel with a launch spec (conformance and
//! project kernels), the interpreter gives the same bytes on the group-form IR before and
//! after `opt::run_with` (with the launch facts of the group form, so bit-width narrowing
//! takes part), the IR verifies, the graph still orders what the block runs in order
//! (memory ops, accesses of a variable), and the board's price never goes up.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use ocl_hls::board::BoardSet;
use ocl_hls::diag::render;
use ocl_hls::frontend::{check_file, Options as FrontOptions};
use ocl_hls::interp::{self, ArgValue, Launch, Options};
use ocl_hls::launch::{self, KernelSig, LaunchSpec};
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

fn dirs() -> [PathBuf; 2] {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    [
        root.join("../../shared/conformance/kernels"),
        root.join("../tests/kernels"),
    ]
}

fn copy(l: &Launch) -> Launch {
    Launch {
        work_dim: l.work_dim,
        global: l.global,
        local: l.local,
        args: l.args.clone(),
    }
}

/// How many float-typed ops of `k` there are of each kind and type.
fn float_ops(k: &ocl_hls::ir::Kernel) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for b in &k.blocks {
        for o in &b.order {
            let op = b.op(*o);
            if let Some(t) = op.ty.as_ref().filter(|t| t.elem().is_float()) {
                *m.entry(format!("{:?} {t:?}", op.kind)).or_default() += 1;
            }
        }
    }
    m
}

/// A float op of `after` that `before` does not have as often: one the stage made or
/// changed (merging copies of one computation, or forwarding a stored value, only
/// removes some). The one exception is exact: a division by a constant replaced by a
/// multiply by its reciprocal (`opt/reciprocal.rs`), so each division fewer allows one
/// multiply and one float constant more.
fn new_float_op(before: &ocl_hls::ir::Kernel, after: &ocl_hls::ir::Kernel) -> Option<String> {
    let old = float_ops(before);
    let new = float_ops(after);
    let count = |m: &BTreeMap<String, usize>, p: &str| -> usize {
        m.iter()
            .filter(|(k, _)| k.starts_with(p))
            .map(|(_, n)| n)
            .sum()
    };
    let fewer_divs =
        count(&old, "Binary(FDiv) F32").saturating_sub(count(&new, "Binary(FDiv) F32"));
    let more = |p: &str| count(&new, p).saturating_sub(count(&old, p));
    if more("Binary(FMul) F32") > fewer_divs || more("Const(") > fewer_divs {
        return Some(format!(
            "{} more fmul and {} more float constants for {fewer_divs} fewer fdiv",
            more("Binary(FMul) F32"),
            more("Const(")
        ));
    }
    new.into_iter()
        .filter(|(k, _)| !k.starts_with("Binary(FMul) F32") && !k.starts_with("Const("))
        .find(|(k, n)| old.get(k).is_none_or(|m| n > m))
        .map(|(k, _)| k)
}

/// The first pair of ops of a block of `k` that the block runs in order but its graph no
/// longer orders: consecutive memory ops, or a variable's write and the access before it
/// (or a read and the write before it). The schedule reads only the graph's edges, so a
/// lost edge lets it move a load ahead of the store it must see (the interpreter, which
/// runs a block in its `order`, would not notice).
fn lost_order(k: &ocl_hls::ir::Kernel) -> Option<String> {
    use ocl_hls::ir::OpKind;
    use petgraph::algo::has_path_connecting;
    for (i, b) in k.blocks.iter().enumerate() {
        let mut last_mem = None;
        let mut last_write = BTreeMap::new();
        let mut last_access = BTreeMap::new();
        for &o in &b.order {
            let kind = &b.op(o).kind;
            let must_follow = match kind {
                k if k.is_memory() => last_mem.replace(o),
                OpKind::ReadVar(v) => {
                    last_access.insert(v.0, o);
                    last_write.get(&v.0).copied()
                }
                OpKind::WriteVar(v) => {
                    last_write.insert(v.0, o);
                    last_access.insert(v.0, o)
                }
                _ => None,
            };
            if let Some(p) = must_follow {
                if !has_path_connecting(&b.graph, p.0, o.0, None) {
                    return Some(format!("block {i}: {p:?} no longer precedes {o:?}"));
                }
            }
        }
    }
    None
}

/// Runs `cl` before and after the stage; the report and the optimized IR on success.
fn check(
    cl: &Path,
    board: &ocl_hls::board::Board,
) -> Result<(ocl_hls::opt::OptReport, String), String> {
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
    let g = to_group_form(&kernel).map_err(|d| render(sm, &d))?;
    let gl = group_launch(&g, &launch)?;
    let opts = Options::default();
    let show = |e: interp::InterpError| render(sm, &e.to_diagnostic());
    let before =
        interp::run(&g.kernel, &copy(&gl), &opts).map_err(|e| format!("before: {}", show(e)))?;
    let mut optimized = g.kernel.clone();
    let facts = ocl_hls::opt::Launch::of(&g);
    let report = ocl_hls::opt::run_with(&mut optimized, &facts, board, &Default::default())
        .map_err(|d| render(sm, &d))?;
    if let Some(e) = lost_order(&optimized) {
        return Err(format!(
            "{e} after opt (before: {:?})",
            lost_order(&g.kernel)
        ));
    }
    let after = interp::run(&optimized, &gl, &opts).map_err(|e| format!("after: {}", show(e)))?;
    // Without the fast-math build options no float op is rewritten.
    if let Some(op) = new_float_op(&g.kernel, &optimized) {
        return Err(format!(
            "a float op appeared without a fast-math option: {op}"
        ));
    }
    for (i, (p, q)) in before.buffers.iter().zip(&after.buffers).enumerate() {
        if p != q {
            let at = match (p, q) {
                (Some(p), Some(q)) => p.iter().zip(q).position(|(x, y)| x != y),
                _ => None,
            };
            return Err(format!(
                "buffer '{}' differs after opt (first byte {at:?}); rules fired: {:?}\n{}",
                g.kernel.params[i].name,
                report.fired,
                ocl_hls::ir::print::print_kernel(&optimized, None)
            ));
        }
    }
    if report.after.score > report.before.score + 1e-6 {
        return Err(format!(
            "priced higher after opt: {:?} -> {:?}",
            report.before, report.after
        ));
    }
    Ok((report, ocl_hls::ir::print::print_kernel(&optimized, None)))
}

#[test]
fn every_kernel_gives_the_same_bytes_after_opt() {
    let boards = BoardSet::builtin().expect("built-in boards");
    let board = boards.get("de10-nano").expect("de10-nano board");
    let (mut failures, mut ran, mut replaced, mut narrowed) = (Vec::new(), 0, 0, 0);
    for dir in dirs() {
        for cl in kernels_in(&dir) {
            match check(&cl, board) {
                Ok((r, _)) => {
                    ran += 1;
                    replaced += r.replaced;
                    narrowed += r.fired.keys().any(|k| k.starts_with("narrow-")) as usize;
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
    assert!(ran >= 30, "only {ran} kernels found");
    assert!(replaced > 0, "the stage changed no block of any kernel");
    assert!(narrowed >= 10, "narrowing fired in only {narrowed} kernels");
}

fn conformance(name: &str) -> PathBuf {
    dirs()[0].join(format!("{name}.cl"))
}

/// vadd's `get_global_id(0)` is a `size_t`: group id * 64 + local id, which the core's
/// 32-bit size registers keep below 2^32. The local id (below 64) has no bit in common
/// with group id * 64, so the sum is an `or` (wires, no carry chain); the work-item loop
/// counter is added 8 bits wide, and no 64-bit adder is left but the pointer's.
#[test]
fn the_global_id_of_vadd_is_added_without_a_carry() {
    let boards = BoardSet::builtin().expect("built-in boards");
    let board = boards.get("de10-nano").expect("de10-nano board");
    let (report, ir) = check(&conformance("vadd"), board).expect("vadd");
    assert!(ir.contains("i64 binary(or)"), "{ir}");
    assert!(ir.contains("i8 binary(add)"), "{ir}");
    assert!(!ir.contains("i64 binary(add)"), "{ir}");
    assert!(report.after.logic < report.before.logic, "{report:?}");
}

/// Without `reqd_work_group_size` the local size is a hidden parameter, bounded by the
/// kernel's maximum work-group size: the global id is still known to fit 32 bits.
#[test]
fn a_global_id_with_a_launch_chosen_local_size_fits_32_bits() {
    let boards = BoardSet::builtin().expect("built-in boards");
    let board = boards.get("de10-nano").expect("de10-nano board");
    let (_, ir) = check(&conformance("control_flow"), board).expect("control_flow");
    assert!(ir.contains("i32 binary(add)"), "{ir}");
}

/// integer_ops computes `(long)x * (long)y` and `mul_hi(x, y)`: spelled as arithmetic
/// (`opt/builtins.rs`), the high half is a shift of the same 64-bit product, so one
/// multiplier of sign-extended ints is left and no `mul_hi` call.
#[test]
fn mul_hi_shares_the_product_the_kernel_computes_anyway() {
    let boards = BoardSet::builtin().expect("built-in boards");
    let board = boards.get("de10-nano").expect("de10-nano board");
    let (_, ir) = check(&conformance("integer_ops"), board).expect("integer_ops");
    assert!(!ir.contains("call mul_hi"), "{ir}");
    assert!(!ir.contains("call mad24"), "{ir}");
    let consts: Vec<&str> = ir
        .lines()
        .filter(|l| l.contains(" const "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let products = ir
        .lines()
        .filter_map(|l| l.split_once("i64 binary(mul) "))
        .filter(|(_, args)| !args.split(", ").any(|a| consts.contains(&a.trim())))
        .count();
    assert_eq!(products, 1, "{ir}");
}
