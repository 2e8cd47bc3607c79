//! Scheduling: every conformance kernel's blocks schedule under each board's library
//! and the unit-delay library and pass the checker; hand-made schedules that break a
//! dependence, an ordering edge, a resource limit (with II) or the clock period are
//! rejected; chaining and resource sharing behave as the library says.

use std::path::{Path, PathBuf};

use ocl_hls::board::{BoardSet, Limits, OpClass, OpLibrary};
use ocl_hls::diag::render;
use ocl_hls::frontend::{check_file, check_source, Options};
use ocl_hls::ir::{Block, Edge, Module, OpId, OpKind};
use ocl_hls::lower::lower;
use ocl_hls::schedule::{check, classify, schedule_block, schedule_kernel, Schedule, Violation};
use petgraph::visit::{EdgeRef, IntoEdgeReferences};

fn lower_src(name: &str, src: &str) -> Module {
    let c = check_source(name, src, &Options::default());
    let Some(p) = c.program.as_ref().filter(|_| !c.has_errors()) else {
        let msgs: Vec<String> = c.diags.list.iter().map(|d| render(&c.sources, d)).collect();
        panic!("frontend errors:\n{}", msgs.join(""));
    };
    lower(p, &c.sources).unwrap_or_else(|d| panic!("lowering failed: {} errors", d.list.len()))
}

fn lower_path(path: &Path) -> Module {
    let c = check_file(path, &Options::default());
    let Some(p) = c.program.as_ref().filter(|_| !c.has_errors()) else {
        panic!("{}: frontend errors", path.display());
    };
    lower(p, &c.sources).unwrap_or_else(|_| panic!("{}: lowering failed", path.display()))
}

fn de10() -> (OpLibrary, Limits) {
    let set = BoardSet::builtin().unwrap_or_else(|e| panic!("boards: {e:?}"));
    let b = set.resolve("de10").unwrap_or_else(|e| panic!("{e}"));
    (b.library(), b.operators.limits.clone())
}

/// The one block of a kernel that does the work (the largest).
fn main_block(m: &Module) -> &Block {
    m.kernels[0]
        .blocks
        .iter()
        .max_by_key(|b| b.len())
        .unwrap_or_else(|| panic!("no blocks"))
}

fn ops_of(block: &Block, class: OpClass) -> Vec<OpId> {
    block
        .order
        .iter()
        .copied()
        .filter(|id| classify(*id, block) == class)
        .collect()
}

fn valid(block: &Block, lib: &OpLibrary, limits: &Limits) -> Schedule {
    let s = schedule_block(block, lib, limits).unwrap_or_else(|e| panic!("{e}"));
    let v = check(block, lib, limits, &s);
    assert!(v.is_empty(), "scheduler output rejected: {v:?}");
    s
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn kernel_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "cl"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn every_conformance_kernel_schedules_and_checks_on_every_board_and_unit_delay() {
    let mut files = kernel_files(Path::new("/work/shared/conformance/kernels"));
    assert!(files.len() >= 19, "expected the conformance kernels");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels");
    files.extend(kernel_files(&repo));
    let set = BoardSet::builtin().unwrap_or_else(|e| panic!("boards: {e:?}"));
    let mut libs: Vec<(OpLibrary, Limits)> = set
        .boards
        .iter()
        .map(|b| (b.library(), b.operators.limits.clone()))
        .collect();
    libs.push((OpLibrary::unit_delay(), Limits::unlimited()));
    // Everything limited to one unit and one port: the hardest case for the scheduler.
    let mut tight = Limits::unlimited();
    tight.read_ports = 1;
    tight.write_ports = 1;
    for c in OpClass::LIBRARY {
        tight.units.insert(c, 1);
    }
    libs.push((OpLibrary::unit_delay(), tight.clone()));
    libs.push((de10().0, tight));
    let mut blocks = 0;
    for f in &files {
        let m = lower_path(f);
        for k in &m.kernels {
            for (lib, limits) in &libs {
                let ks = schedule_kernel(k, lib, limits)
                    .unwrap_or_else(|e| panic!("{}: {} on {}: {e}", f.display(), k.name, lib.name));
                for ((block, s), r) in k.blocks.iter().zip(&ks.schedules).zip(&ks.blocks) {
                    let v = check(block, lib, limits, s);
                    assert!(v.is_empty(), "{}: {v:?}", f.display());
                    assert!(r.length >= r.critical_path, "{}: {r:?}", f.display());
                    assert_eq!(r.ops, block.len());
                    blocks += 1;
                }
                if lib.name == "de10-nano" && limits.read_ports == 1 && limits.units.len() < 10 {
                    // The numbers the final report quotes (`-- --nocapture`).
                    let longest = ks.blocks.iter().map(|b| b.length).max().unwrap_or(0);
                    let ops: usize = ks.blocks.iter().map(|b| b.ops).sum();
                    eprintln!(
                        "de10 {:<28} {:>3} blocks {:>5} ops, longest block {:>5} cycles",
                        format!("{}/{}", file_name(f), k.name),
                        ks.blocks.len(),
                        ops,
                        longest
                    );
                }
            }
        }
    }
    assert!(blocks > 100, "only {blocks} blocks scheduled");
}

#[test]
fn unit_delay_length_is_the_longest_chain() {
    let m = lower_src(
        "chain.cl",
        "__kernel void k(__global int *o, int n) { o[0] = ((n + 1) ^ 3) + 5; }",
    );
    let b = main_block(&m);
    let lib = OpLibrary::unit_delay();
    let s = valid(b, &lib, &Limits::unlimited());
    // param -> add -> xor -> add -> store (the pointer side is shorter): 5 ops of 1 cycle.
    assert_eq!(s.length, 5, "{s:?}");
}

const CHAIN: &str = "__kernel void k(__global int *o, int n) {
    o[0] = (((((((n + 1) ^ 3) + 5) ^ 7) + 9) ^ 11) + 13) ^ 15;
}";

#[test]
fn combinational_ops_chain_within_the_period_and_no_further() {
    let m = lower_src("chain.cl", CHAIN);
    let b = main_block(&m);
    let (lib, limits) = de10();
    let s = valid(b, &lib, &limits);
    let adds = ops_of(b, OpClass::IntAdd);
    let logic = ops_of(b, OpClass::IntLogic);
    assert_eq!((adds.len(), logic.len()), (4, 4));
    let cycles: Vec<u32> = adds.iter().chain(&logic).map(|id| s.cycle[id]).collect();
    let first = *cycles.iter().min().unwrap_or(&0);
    let last = *cycles.iter().max().unwrap_or(&0);
    // 4 x 2.0 ns + 4 x 0.6 ns = 10.4 ns: more than one 10 ns cycle, far less than eight.
    assert_eq!(last - first, 1, "chain cycles {cycles:?}");
    // Putting the whole chain in one cycle is too slow.
    let mut broken = s.clone();
    for id in adds.iter().chain(&logic) {
        broken.cycle.insert(*id, first);
    }
    let v = check(b, &lib, &limits, &broken);
    assert!(
        v.iter().any(|x| matches!(x, Violation::Chain { .. })),
        "{v:?}"
    );
}

const DIVS: &str = "__kernel void k(__global float *a, __global float *b, __global float *c) {
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    c[i] = x / y + y / x;
}";

#[test]
fn a_limited_unit_is_shared_and_over_use_is_rejected() {
    let m = lower_src("divs.cl", DIVS);
    let b = main_block(&m);
    let (lib, mut limits) = de10();
    limits.units.insert(OpClass::FpDiv, 1);
    let s = valid(b, &lib, &limits);
    let divs = ops_of(b, OpClass::FpDiv);
    assert_eq!(divs.len(), 2);
    let (d0, d1) = (s.cycle[&divs[0]], s.cycle[&divs[1]]);
    assert_eq!(d0.abs_diff(d1), 1, "one divider: one cycle apart (II 1)");
    // Two dividers: both in the same cycle.
    limits.units.insert(OpClass::FpDiv, 2);
    let s2 = valid(b, &lib, &limits);
    assert_eq!(s2.cycle[&divs[0]], s2.cycle[&divs[1]]);
    assert_eq!(s2.length + 1, s.length);
    // The two-divider schedule breaks the one-divider limit.
    limits.units.insert(OpClass::FpDiv, 1);
    let v = check(b, &lib, &limits, &s2);
    assert!(
        v.iter().any(|x| matches!(
            x,
            Violation::Resource {
                used: 2,
                limit: 1,
                ..
            }
        )),
        "{v:?}"
    );
}

#[test]
fn a_read_port_takes_one_load_per_cycle() {
    let m = lower_src(
        "ports.cl",
        "__kernel void k(__global int *a, __global int *o) {
            size_t i = get_global_id(0);
            o[i] = a[i] + a[i + 1];
        }",
    );
    let b = main_block(&m);
    let (lib, limits) = de10();
    let s = valid(b, &lib, &limits);
    let loads = ops_of(b, OpClass::GlobalLoad);
    assert_eq!(loads.len(), 2);
    let (l0, l1) = (s.cycle[&loads[0]], s.cycle[&loads[1]]);
    assert_eq!(
        l1,
        l0 + 1,
        "one read port per buffer, its unit taking a request per cycle"
    );
    let mut broken = s.clone();
    broken.cycle.insert(loads[1], l0);
    let v = check(b, &lib, &limits, &broken);
    assert!(
        v.iter().any(|x| matches!(x, Violation::Resource { .. })),
        "{v:?}"
    );
}

type EdgePair = Option<(OpId, OpId)>;

/// A data edge whose producer has latency, and an ordering edge, of a block.
fn edges(block: &Block, lib: &OpLibrary) -> (EdgePair, EdgePair) {
    let mut data = None;
    let mut order = None;
    for e in block.graph.edge_references() {
        let (src, dst) = (OpId(e.source()), OpId(e.target()));
        let lat = lib.cost(classify(src, block), 32).latency;
        match e.weight() {
            Edge::Data(_) if lat > 0 && data.is_none() => data = Some((src, dst)),
            Edge::Order if order.is_none() => order = Some((src, dst)),
            _ => {}
        }
    }
    (data, order)
}

#[test]
fn broken_dependences_and_order_edges_are_rejected() {
    let m = lower_src("divs.cl", DIVS);
    let b = main_block(&m);
    for (lib, limits) in [de10(), (OpLibrary::unit_delay(), Limits::unlimited())] {
        let s = valid(b, &lib, &limits);
        let (data, order) = edges(b, &lib);
        let (src, dst) = data.unwrap_or_else(|| panic!("no data edge with latency"));
        let mut broken = s.clone();
        broken.cycle.insert(dst, s.cycle[&src]);
        let v = check(b, &lib, &limits, &broken);
        assert!(
            v.iter().any(|x| matches!(x, Violation::Dependence { from, op, .. } if *from == src && *op == dst)),
            "{}: {v:?}",
            lib.name
        );
        let (src, dst) = order.unwrap_or_else(|| panic!("no order edge"));
        let mut broken = s.clone();
        broken.cycle.insert(dst, s.cycle[&src]);
        let v = check(b, &lib, &limits, &broken);
        assert!(
            v.iter().any(
                |x| matches!(x, Violation::Order { from, op, .. } if *from == src && *op == dst)
            ),
            "{}: {v:?}",
            lib.name
        );
    }
}

#[test]
fn missing_ops_and_short_lengths_are_rejected() {
    let m = lower_src("divs.cl", DIVS);
    let b = main_block(&m);
    let (lib, limits) = de10();
    let s = valid(b, &lib, &limits);
    let mut short = s.clone();
    short.length -= 1;
    let v = check(b, &lib, &limits, &short);
    assert!(
        v.iter().any(|x| matches!(x, Violation::Length { .. })),
        "{v:?}"
    );
    let mut missing = s.clone();
    missing.cycle.remove(&b.order[0]);
    let v = check(b, &lib, &limits, &missing);
    assert_eq!(v, vec![Violation::Unscheduled(b.order[0])]);
}

#[test]
fn a_global_store_completes_before_an_ordered_load() {
    // o and a may alias: the load must see the store.
    let m = lower_src(
        "raw.cl",
        "__kernel void k(__global int *a, __global int *o) {
            o[0] = 1;
            o[1] = a[0];
        }",
    );
    let b = main_block(&m);
    let (lib, limits) = de10();
    let s = valid(b, &lib, &limits);
    let store = ops_of(b, OpClass::GlobalStore)[0];
    let load = ops_of(b, OpClass::GlobalLoad)[0];
    let store_lat = lib.cost(OpClass::GlobalStore, 32).latency;
    assert_eq!(s.cycle[&load], s.cycle[&store] + store_lat);
    assert!(matches!(b.op(load).kind, OpKind::Load { .. }));
}

#[test]
fn wide_vector_ops_take_rounds_on_limited_units() {
    let m = lower_src(
        "vec.cl",
        "__kernel void k(__global float4 *a, __global float4 *o) {
            size_t i = get_global_id(0);
            o[i] = a[i] / a[i + 1];
        }",
    );
    let b = main_block(&m);
    let (lib, mut limits) = de10();
    limits.units.insert(OpClass::FpDiv, 1);
    let one = valid(b, &lib, &limits);
    limits.units.insert(OpClass::FpDiv, 4);
    let four = valid(b, &lib, &limits);
    // Four lanes through one divider: three more cycles.
    assert_eq!(one.length, four.length + 3);
}
