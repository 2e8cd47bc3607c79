//! The work-item loop transformation: every kernel with a launch spec gives the same bytes
//! in group form as in NDRange form (both run by the interpreter), plus the shape of the
//! transformed IR, per-work-item storage, hidden local-size parameters, launch limits and
//! rejected barrier placements.

use std::path::{Path, PathBuf};

use ocl_hls::diag::{render, SourceMap};
use ocl_hls::frontend::{check_file, Options as FrontOptions};
use ocl_hls::interp::{self, ArgValue, Launch, Options};
use ocl_hls::ir::print::print_kernel;
use ocl_hls::ir::Kernel;
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
        args: l.args.clone(),
    }
}

fn group_form(x: &Loaded) -> Result<GroupForm, String> {
    to_group_form(&x.kernel).map_err(|d| render(&x.sources, &d))
}

type Buffers = Vec<Option<Vec<u8>>>;

/// Runs both forms; the buffers of both, or why one could not run.
fn run_both(x: &Loaded, g: &GroupForm, l: &Launch) -> Result<(Buffers, Buffers), String> {
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

/// Lowers kernel `name` of source `src` (written to a scratch file).
fn lower_src(name: &str, src: &str) -> (Kernel, SourceMap) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("workitems");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let path = dir.join(format!("{name}.cl"));
    std::fs::write(&path, src).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (kernels, sources) = lower_file(&path, Vec::new()).unwrap_or_else(|e| panic!("{e}"));
    let k = kernels
        .into_iter()
        .find(|k| k.name == name)
        .expect("kernel lowered");
    (k, sources)
}

fn loaded(name: &str, src: &str, launch: Launch) -> Loaded {
    let (kernel, sources) = lower_src(name, src);
    Loaded {
        kernel,
        launch,
        sources,
    }
}

fn i32s(v: impl IntoIterator<Item = i32>) -> Vec<u8> {
    v.into_iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn launch1(global: u64, local: u64, args: Vec<ArgValue>) -> Launch {
    Launch {
        work_dim: 1,
        global: [global, 1, 1],
        local: [local, 1, 1],
        args,
    }
}

fn conformance(name: &str) -> Loaded {
    load(&conformance_dir().join(format!("{name}.cl"))).unwrap_or_else(|e| panic!("{e}"))
}

fn printed(g: &GroupForm) -> String {
    print_kernel(&g.kernel, None)
}

/// Lines of the printed IR that open loops or ifs, with their indentation: the shape.
fn shape(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| {
            let t = l.trim_start();
            t.starts_with("loop ") || t.starts_with("if ") || t.starts_with("latch:")
        })
        .map(|l| {
            let depth = (l.len() - l.trim_start().len()) / 2;
            let word = l.trim_start().split(' ').next().unwrap_or("");
            format!("{depth}:{word}")
        })
        .collect()
}

#[test]
fn barrier_in_a_loop_becomes_a_group_level_loop_around_work_item_loops() {
    let x = conformance("reduce_local");
    let g = group_form(&x).unwrap();
    let text = printed(&g);
    // Work-item loop, group loop { work-item loop (the if is per work-item) }, work-item loop.
    assert_eq!(
        shape(&text),
        [
            "1:loop", "2:latch:", // loads into scratch
            // the first stride and its test (after the barrier): once per group
            "1:loop", // the stride loop at group level
            "2:loop", "3:if",
            "3:latch:", // one reduction step
                        // after its barrier: the next stride and its test, once per group
                        // the final store by work-item 0: run once, for local id 0 (guards.rs)
        ],
        "{text}"
    );
    assert!(!text.contains("barrier"), "{text}");
    assert!(text.contains("reqd_work_group_size(1, 1, 1)"), "{text}");
    // The stride is the same in every work-item: one register, no per-work-item copy;
    // `lid` is computed again after each barrier rather than stored.
    assert!(!text.contains("__wi_"), "{text}");
    assert_eq!(
        (g.max_local, g.max_items, g.hidden_params),
        ([128, 1, 1], 128, 0)
    );

    let x = conformance("matmul_tiled");
    let g = group_form(&x).unwrap();
    let text = printed(&g);
    // 8x8 groups: one flat loop over y and x; the tile loop at group level holds three.
    assert_eq!(
        shape(&text),
        [
            "1:loop", "2:latch:", // ids, acc = 0, first test
            "1:loop",   // the tile loop at group level
            "2:loop", "3:latch:", // tile loads
            "2:loop", "3:loop", "4:latch:", "3:latch:", // k loop
            // t++ and the next test: once per group
            "1:loop", "2:latch:", // the store of C
        ],
        "{text}"
    );
}

#[test]
fn value_live_across_a_barrier_is_kept_per_work_item() {
    let x = load(&repo_kernels_dir().join("barrier_loop.cl")).unwrap();
    let g = group_form(&x).unwrap();
    let text = printed(&g);
    // `v` crosses both barriers: 64 slots of 4 bytes, read and written at lid * 4.
    assert!(
        text.contains("object o1 __wi_v: __private 256 bytes, align 4"),
        "{text}"
    );
    assert!(text.contains("store __private (o1) align 4"), "{text}");
    assert!(text.contains("load __private (o1) align 4"), "{text}");
    // `l = get_local_id(0)` is computed again where read, not stored.
    assert!(!text.contains("__wi_l:"), "{text}");
    // `left` and `right` live between the barriers only: they stay variables.
    assert!(
        !text.contains("__wi_left") && !text.contains("__wi_right"),
        "{text}"
    );
    same_buffers(&x, &g, &x.launch).unwrap();
}

const NO_REQD: &str = r#"
__kernel void scan_ids(__global const int *in, __global int *out, __global int *ids,
                       __local int *tmp)
{
    size_t l = get_local_id(0), n = get_local_size(0);
    int x = in[get_global_id(0)];
    tmp[l] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = 1; s < n; s *= 2) {
        int y = l >= s ? tmp[l - s] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[l] += y;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = tmp[l] + x * 0;
    int acc = 0;
    for (uint d = 0; d < 4; d++)
        acc = acc * 31 + (int)(get_global_id(d) + 7 * get_local_size(d) + 13 * get_global_size(d)
                                + 17 * get_local_id(d) + 19 * get_group_id(d) + 23 * get_num_groups(d));
    ids[get_global_linear_id()] = acc * 1000 + (int)get_local_linear_id();
}
"#;

#[test]
fn kernel_without_reqd_size_runs_at_two_local_sizes_through_hidden_params() {
    let args = || {
        vec![
            ArgValue::Buffer(i32s((0..256).map(|i| (i * 37) % 101 - 50))),
            ArgValue::Buffer(i32s([0; 256])),
            ArgValue::Buffer(i32s([0; 256])),
            ArgValue::Local(4 * 64),
        ]
    };
    let x = loaded("scan_ids", NO_REQD, launch1(256, 16, args()));
    let g = group_form(&x).unwrap();
    assert_eq!(
        (g.max_local, g.max_items, g.hidden_params),
        ([256; 3], 256, 3)
    );
    let names: Vec<&str> = g.kernel.params[4..]
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(
        names,
        ["__local_size_x", "__local_size_y", "__local_size_z"]
    );
    for local in [16, 64] {
        same_buffers(&x, &g, &launch1(256, local, args())).unwrap();
    }
    // The two sizes really differ: per-group scans restart at each group.
    let (a, _) = run_both(&x, &g, &launch1(256, 16, args())).unwrap();
    let (b, _) = run_both(&x, &g, &launch1(256, 64, args())).unwrap();
    assert_ne!(a[1], b[1]);
}

#[test]
fn two_and_three_dimensional_groups_without_reqd_size() {
    let src = r#"
__kernel void grid(__global int *out)
{
    __local int t[64];
    int l = get_local_linear_id();
    t[l] = (int)(get_global_id(0) * 100 + get_global_id(1) * 10 + get_global_id(2));
    barrier(CLK_LOCAL_MEM_FENCE);
    int n = get_local_size(0) * get_local_size(1) * get_local_size(2);
    out[get_global_linear_id()] = t[n - 1 - l] * 1000 + l;
}
"#;
    let buf = || vec![ArgValue::Buffer(i32s([0; 8 * 4 * 6]))];
    let x = loaded("grid", src, launch1(1, 1, buf()));
    let g = group_form(&x).unwrap();
    for (global, local) in [
        ([8, 4, 6], [4, 2, 3]),
        ([8, 4, 6], [2, 4, 1]),
        ([8, 24, 1], [8, 8, 1]),
    ] {
        let l = Launch {
            work_dim: if global[2] == 1 { 2 } else { 3 },
            global,
            local,
            args: buf(),
        };
        same_buffers(&x, &g, &l).unwrap_or_else(|e| panic!("{global:?}/{local:?}: {e}"));
    }
}

#[test]
fn oversized_or_mismatched_launches_are_rejected() {
    let x = loaded("scan_ids", NO_REQD, launch1(1, 1, Vec::new()));
    let g = group_form(&x).unwrap();
    let args = || {
        vec![
            ArgValue::Buffer(Vec::new()),
            ArgValue::Buffer(Vec::new()),
            ArgValue::Buffer(Vec::new()),
            ArgValue::Local(4),
        ]
    };
    let Err(e) = group_launch(&g, &launch1(1024, 512, args())) else {
        panic!("512 > 256")
    };
    assert!(e.contains("exceeds the maximum 256"), "{e}");
    let two = Launch {
        work_dim: 2,
        global: [32, 32, 1],
        local: [32, 16, 1],
        args: args(),
    };
    let Err(e) = group_launch(&g, &two) else {
        panic!("32 x 16 > 256")
    };
    assert!(e.contains("512 work-items exceeds the maximum 256"), "{e}");
    let ok = group_launch(&g, &launch1(1024, 256, args())).expect("256 fits");
    assert_eq!(
        (ok.global, ok.local, ok.args.len()),
        ([4, 1, 1], [1, 1, 1], 7)
    );

    let hinted = NO_REQD.replace(
        "__kernel void",
        "__kernel __attribute__((work_group_size_hint(32, 2, 1))) void",
    );
    let x = loaded("scan_ids", &hinted, launch1(1, 1, Vec::new()));
    let g = group_form(&x).unwrap();
    assert_eq!((g.max_local, g.max_items), ([64; 3], 64));
    let Err(e) = group_launch(&g, &launch1(1024, 128, args())) else {
        panic!("128 > 64")
    };
    assert!(e.contains("exceeds the maximum 64"), "{e}");

    let r = conformance("reduce_local");
    let g = group_form(&r).unwrap();
    let mut l = copy_launch(&r.launch);
    l.local = [64, 1, 1];
    let Err(e) = group_launch(&g, &l) else {
        panic!("reqd 128")
    };
    assert!(e.contains("requires work-group size (128, 1, 1)"), "{e}");
}

fn rejected(name: &str, src: &str) -> String {
    let (k, sources) = lower_src(name, src);
    match to_group_form(&k) {
        Ok(g) => panic!("accepted:\n{}", print_kernel(&g.kernel, None)),
        Err(d) => render(&sources, &d),
    }
}

#[test]
fn barrier_under_a_work_item_dependent_condition_is_rejected_with_its_line() {
    let e = rejected(
        "divergent",
        r#"__kernel void divergent(__global int *out)
{
    __local int t[64];
    int l = get_local_id(0);
    t[l] = l;
    if (l < 4) {
        barrier(CLK_LOCAL_MEM_FENCE);
        out[l] = t[l + 1];
    }
}
"#,
    );
    assert!(
        e.contains("divergent.cl:6:5") && e.contains("divergent barrier"),
        "{e}"
    );
    // A loop whose trip count depends on the id through a variable.
    let e = rejected(
        "divergent_loop",
        r#"__kernel void divergent_loop(__global int *out, int n)
{
    __local int t[64];
    int i = get_global_id(0);
    while (i < n) {
        t[get_local_id(0)] = i;
        barrier(CLK_LOCAL_MEM_FENCE);
        i += 64;
    }
    out[get_global_id(0)] = t[0];
}
"#,
    );
    assert!(
        e.contains("divergent_loop.cl:5:5") && e.contains("divergent barrier"),
        "{e}"
    );
}

#[test]
fn barrier_under_a_uniform_condition_is_taken_from_the_last_work_item() {
    let src = r#"__kernel void uniform_if(__global int *out, int flag)
{
    __local int t[64];
    int l = get_local_id(0);
    t[l] = l * flag;
    if (flag > 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] = t[63 - l] + 1;
    } else {
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] = t[(l + 1) % 64];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[l];
}
"#;
    for flag in [1, 5] {
        let l = launch1(
            128,
            64,
            vec![
                ArgValue::Buffer(i32s([0; 128])),
                ArgValue::Value(i32s([flag])),
            ],
        );
        let x = loaded("uniform_if", src, l);
        let g = group_form(&x).unwrap();
        assert!(
            shape(&printed(&g)).contains(&"1:if".to_string()),
            "{}",
            printed(&g)
        );
        same_buffers(&x, &g, &x.launch).unwrap();
    }
}

#[test]
fn return_ends_the_work_item_after_the_last_barrier_and_the_group_before_it() {
    let src = r#"__kernel void late_return(__global int *out, int n)
{
    __local int t[32];
    int l = get_local_id(0);
    t[l] = l * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l >= n)
        return;
    for (int i = 0; i < 4; i++)
        if (t[(l + i) % 32] == 9)
            return;
    out[get_global_id(0)] = t[31 - l];
}
"#;
    let l = launch1(
        64,
        32,
        vec![
            ArgValue::Buffer(i32s([-1; 64])),
            ArgValue::Value(i32s([20])),
        ],
    );
    let x = loaded("late_return", src, l);
    let g = group_form(&x).unwrap();
    same_buffers(&x, &g, &x.launch).unwrap();

    let e = rejected(
        "early_return",
        r#"__kernel void early_return(__global int *out, int n)
{
    __local int t[32];
    int l = get_local_id(0);
    if (l >= n)
        return;
    t[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] = t[31 - l];
}
"#,
    );
    assert!(
        e.contains("early_return.cl:5:5") && e.contains("divergent barrier"),
        "{e}"
    );
    // Taken by every work-item: the group ends there.
    let src = r#"__kernel void uniform_return(__global int *out, int n)
{
    __local int t[32];
    int l = get_local_id(0);
    t[l] = l;
    if (n > 5)
        return;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = t[31 - l];
}
"#;
    for n in [3, 7] {
        let l = launch1(
            64,
            32,
            vec![ArgValue::Buffer(i32s([-1; 64])), ArgValue::Value(i32s([n]))],
        );
        let x = loaded("uniform_return", src, l);
        let g = group_form(&x).unwrap();
        assert!(printed(&g).contains("__leave_return"), "{}", printed(&g));
        same_buffers(&x, &g, &x.launch).unwrap_or_else(|e| panic!("n = {n}: {e}"));
    }
}

#[test]
fn private_arrays_keep_their_initial_bytes_for_every_work_item() {
    // `w` is used on both sides of the barrier (one copy per work-item); `c` only after
    // it (one copy, its initial bytes stored again for every work-item).
    let src = r#"__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void arrays(__global int *out)
{
    int w[4] = {1, 2, 3, 4};
    int c[3] = {10, 20, 30};
    __local int t[16];
    int l = get_local_id(0);
    w[l % 4] += l;
    t[l] = w[0];
    barrier(CLK_LOCAL_MEM_FENCE);
    c[l % 3] += t[15 - l];
    out[get_global_id(0)] = w[0] + w[1] * 10 + w[2] * 100 + w[3] * 1000 + c[0] + c[1] + c[2];
}
"#;
    let x = loaded(
        "arrays",
        src,
        launch1(32, 16, vec![ArgValue::Buffer(i32s([0; 32]))]),
    );
    let g = group_form(&x).unwrap();
    let text = printed(&g);
    assert!(
        text.contains("object o0 w: __private 256 bytes, align 4, initialised"),
        "{text}"
    );
    assert!(
        text.contains("object o1 c: __private 12 bytes, align 4, initialised"),
        "{text}"
    );
    same_buffers(&x, &g, &x.launch).unwrap();
}

#[test]
fn barrier_free_kernels_become_one_loop_nest() {
    // reqd_work_group_size(64, 1, 1): one loop of 64 work-items.
    let x = conformance("vadd");
    let g = group_form(&x).unwrap();
    let text = printed(&g);
    assert_eq!(shape(&text), ["1:loop", "2:latch:"], "{text}");
    assert!(text.contains("const [0x40]"), "{text}");
    same_buffers(&x, &g, &x.launch).unwrap();
    // Without it: one loop over z, y and x (x fastest, carrying into y and z), bounded by
    // the hidden parameters 1, 2 and 3.
    let (k, _) = lower_src(
        "copy",
        "__kernel void copy(__global int *a) { a[get_global_id(0)] += 1; }",
    );
    let g = to_group_form(&k).unwrap();
    let text = printed(&g);
    assert_eq!(shape(&text), ["1:loop", "2:latch:"], "{text}");
    assert_eq!(text.matches("select").count(), 4, "{text}");
    for p in ["param 1", "param 2", "param 3"] {
        assert!(text.contains(&format!("i64 {p}")), "{text}");
    }
}

#[test]
fn written_struct_parameters_are_copied_for_every_work_item() {
    let with = ("barrier(CLK_LOCAL_MEM_FENCE);", "7 - get_local_id(0)");
    for (barrier, other) in [("", "get_local_id(0)"), with] {
        let src = format!(
            r#"typedef struct {{ int a; float b; int c[2]; }} P;
__kernel void sp(__global int *out, P p)
{{
    __local int t[8];
    p.a += get_global_id(0);
    p.c[1] *= 2;
    t[get_local_id(0)] = p.c[0];
    {barrier}
    p.c[0] += t[{other}];
    out[get_global_id(0)] = p.a * 100 + p.c[1] * 10 + p.c[0] + (int)p.b;
}}
"#
        );
        let bytes: Vec<u8> = [
            5i32.to_le_bytes(),
            2.5f32.to_le_bytes(),
            3i32.to_le_bytes(),
            4i32.to_le_bytes(),
        ]
        .concat();
        let l = launch1(
            16,
            8,
            vec![ArgValue::Buffer(i32s([0; 16])), ArgValue::Value(bytes)],
        );
        let x = loaded("sp", &src, l);
        let g = group_form(&x).unwrap();
        assert!(printed(&g).contains("__copy_p"), "{}", printed(&g));
        same_buffers(&x, &g, &x.launch).unwrap_or_else(|e| panic!("{barrier}: {e}"));
    }
}

#[test]
fn uniform_break_and_continue_leave_a_loop_holding_a_barrier() {
    let src = r#"__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
void leave(__global int *out, int limit)
{
    __local int t[16];
    int l = get_local_id(0), round = 0;
    t[l] = l;
    while (1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        int s = t[0] + t[15];
        round++;
        if (s > limit)
            break;
        if (round % 3 == 0)
            continue;
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] += t[(l + 1) % 16] + round;
    }
    out[get_global_id(0)] = t[l] * 100 + round;
}
"#;
    for limit in [0, 500, 100000] {
        let l = launch1(
            32,
            16,
            vec![
                ArgValue::Buffer(i32s([0; 32])),
                ArgValue::Value(i32s([limit])),
            ],
        );
        let x = loaded("leave", src, l);
        let g = group_form(&x).unwrap();
        let text = printed(&g);
        assert!(
            text.contains("__leave_break") && text.contains("__leave_continue"),
            "{text}"
        );
        same_buffers(&x, &g, &x.launch).unwrap_or_else(|e| panic!("limit {limit}: {e}"));
    }
    let e = rejected(
        "leave_divergent",
        r#"__kernel void leave_divergent(__global int *out)
{
    __local int t[64];
    for (int i = 0; i < 8; i++) {
        t[get_local_id(0)] = i;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (get_local_id(0) == (size_t)i)
            break;
    }
    out[get_global_id(0)] = t[0];
}
"#,
    );
    assert!(
        e.contains("leave_divergent.cl:7:9") && e.contains("divergent barrier"),
        "{e}"
    );
}

#[test]
fn values_of_every_kind_cross_a_barrier() {
    let src = r#"__kernel void kinds(__global long *out, __global const float *in)
{
    __local int t[64];
    int l = get_local_id(0);
    char c = (char)(l * 37);
    short s = (short)(l * 1000 - 7);
    long w = (long)l << 40;
    float f = in[get_global_id(0)];
    double d = (double)f * 1.5;
    int3 v3 = (int3)(l, l + 1, l + 2);
    float4 v4 = (float4)(f, 1.0f, 2.0f, f * f);
    bool b = l % 3 == 0;
    int arr[3] = {l, 2 * l, 3 * l};
    int *p = &arr[l % 3];
    __global const float *q = in + get_global_id(0);
    t[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    long r = c + s + w + (long)(f * 8.0f) + (long)(d * 4.0) + v3.x + v3.y * 3 + v3.z * 5
           + (long)(v4.w * 2.0f + v4.x) + (b ? 1000 : 0) + *p * 7 + (long)(*q * 16.0f)
           + t[63 - l];
    out[get_global_id(0)] = r;
}
"#;
    let floats: Vec<u8> = (0..128)
        .flat_map(|i| (i as f32 * 0.37 - 20.0).to_le_bytes())
        .collect();
    let l = launch1(
        128,
        64,
        vec![ArgValue::Buffer(vec![0; 8 * 128]), ArgValue::Buffer(floats)],
    );
    let x = loaded("kinds", src, l);
    let g = group_form(&x).unwrap();
    let text = printed(&g);
    for v in ["f", "d", "v3", "v4", "p"] {
        assert!(text.contains(&format!("__wi_{v}:")), "{v}: {text}");
    }
    // Cheap integer functions of the ids are computed again where read.
    for v in ["l", "c", "s", "w", "q"] {
        assert!(!text.contains(&format!("__wi_{v}:")), "{v}: {text}");
    }
    // No reqd_work_group_size: 256 copies of 12 bytes.
    assert!(
        text.contains("object o1 arr: __private 3072 bytes"),
        "{text}"
    );
    same_buffers(&x, &g, &x.launch).unwrap();
}

#[test]
fn barriers_inside_a_uniform_switch() {
    let src = r#"__kernel __attribute__((reqd_work_group_size(8, 1, 1)))
void sw(__global int *out, int mode)
{
    __local int t[8];
    int l = get_local_id(0);
    t[l] = l + mode;
    switch (mode) {
    case 1:
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] = t[7 - l] * 2;
        break;
    case 2:
        barrier(CLK_LOCAL_MEM_FENCE);
        out[get_global_id(0)] = t[(l + 1) % 8];
        return;
    default:
        t[l] = -t[l];
    }
    out[get_global_id(0)] = t[l];
}
"#;
    for mode in [0, 1, 3] {
        let l = launch1(
            16,
            8,
            vec![
                ArgValue::Buffer(i32s([0; 16])),
                ArgValue::Value(i32s([mode])),
            ],
        );
        let x = loaded("sw", src, l);
        let g = group_form(&x).unwrap();
        same_buffers(&x, &g, &x.launch).unwrap_or_else(|e| panic!("mode {mode}: {e}"));
    }
}

#[test]
fn huge_groups_needing_per_work_item_storage_are_rejected() {
    let e = rejected(
        "huge",
        r#"__kernel __attribute__((reqd_work_group_size(1024, 1024, 1)))
void huge(__global int *out)
{
    __local int t[4];
    int l = get_local_id(0);
    int v = out[l];
    t[l % 4] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[l] = t[0] + v;
}
"#,
    );
    assert!(
        e.contains("huge.cl:2:6") && e.contains("1048576 work-items"),
        "{e}"
    );
}

#[test]
fn guarded_statements_at_a_segment_end_get_loops_of_their_own() {
    // stencil2d_local: the four halo statements (`if (get_local_id(d) == c)`) run in
    // loops over the other dimension, after the loop every work-item runs, which keeps
    // no `if` of them.
    let x = conformance("stencil2d_local");
    let g = group_form(&x).unwrap();
    let text = printed(&g);
    assert_eq!(
        shape(&text),
        [
            "1:loop", "2:latch:", // every work-item: its own element
            "1:loop", "2:if", "2:latch:", // lid x = 0, over y: the left halo
            "1:loop", "2:if", "2:latch:", // lid x = 15: the right halo
            "1:loop", "2:if", "2:latch:", // lid y = 0, over x: the top halo
            "1:loop", "2:if", "2:latch:", // lid y = 15: the bottom halo
            "1:loop", "2:latch:", // after the barrier: the stencil
        ],
        "{text}"
    );
    let fixed: Vec<_> = g
        .kernel
        .loops
        .iter()
        .filter_map(|l| l.hints.fixed_id)
        .collect();
    assert_eq!(fixed, [(0, 0), (0, 15), (1, 0), (1, 15)], "{text}");
    // `gx`, `gy`, `lx`, `ly` are recomputed in each loop, not kept per work-item.
    assert!(!text.contains("__wi_"), "{text}");
    same_buffers(&x, &g, &x.launch).unwrap();

    // A 1-D group: the statement for one work-item runs once, without a loop.
    let x = conformance("reduce_local");
    let g = group_form(&x).unwrap();
    let fixed: Vec<_> = g
        .kernel
        .loops
        .iter()
        .filter_map(|l| l.hints.fixed_id)
        .collect();
    assert!(fixed.is_empty(), "{fixed:?}");
    same_buffers(&x, &g, &x.launch).unwrap();
}

#[test]
fn guarded_statements_stay_where_splitting_would_reorder_a_work_item() {
    let run = |name: &str, src: &str| {
        let x = loaded(
            name,
            src,
            Launch {
                work_dim: 2,
                global: [8, 8, 1],
                local: [4, 4, 1],
                args: vec![ArgValue::Buffer(i32s([0; 64]))],
            },
        );
        let g = group_form(&x).unwrap();
        same_buffers(&x, &g, &x.launch).unwrap();
        (
            g.kernel
                .loops
                .iter()
                .filter(|l| l.hints.fixed_id.is_some())
                .count(),
            printed(&g),
        )
    };
    let head = "__kernel __attribute__((reqd_work_group_size(4, 4, 1)))\n";
    // Followed by a statement every work-item runs: moving it after that store would
    // change what work-item (0, y) leaves in out[i].
    let (n, text) = run(
        "after",
        &format!(
            "{head}void after(__global int *out)\n{{\n    int i = get_global_id(1) * 8 + get_global_id(0);\n    if (get_local_id(0) == 0)\n        out[i] = 7;\n    out[i] += 1;\n}}\n"
        ),
    );
    assert_eq!(n, 0, "{text}");
    // A variable it writes is read after the barrier that ends its segment.
    let (n, text) = run(
        "written",
        &format!(
            "{head}void written(__global int *out)\n{{\n    int i = get_global_id(1) * 8 + get_global_id(0);\n    int v = 1;\n    out[i] = 2;\n    if (get_local_id(1) == 3)\n        v = out[i] * 5;\n    barrier(CLK_GLOBAL_MEM_FENCE);\n    out[i] = v;\n}}\n"
        ),
    );
    assert_eq!(n, 0, "{text}");
    // A work-item may return before it.
    let (n, text) = run(
        "early",
        &format!(
            "{head}void early(__global int *out)\n{{\n    int i = get_global_id(1) * 8 + get_global_id(0);\n    if (get_global_id(1) > 5)\n        return;\n    out[i] = 1;\n    if (get_local_id(0) == 2)\n        out[i] = 9;\n}}\n"
        ),
    );
    assert_eq!(n, 0, "{text}");
    // The same statement at the end, on its own: split (and still the same bytes).
    let (n, text) = run(
        "split",
        &format!(
            "{head}void split(__global int *out)\n{{\n    int i = get_global_id(1) * 8 + get_global_id(0);\n    out[i] = 1;\n    if (get_local_id(0) == 2)\n        out[i] += 9;\n    if (3 == get_local_id(1))\n        out[i] *= 3;\n}}\n"
        ),
    );
    assert_eq!(n, 2, "{text}");
}

#[test]
fn grid_stride_loops_run_in_rounds_over_the_work_items() {
    // histogram_atomic's `for (i = get_global_id(0); i < n; i += get_global_size(0))`:
    // a group-level loop whose rounds are work-item loops, `i` and the activity flag kept
    // per work-item, the `any` flag one register.
    let x = conformance("histogram_atomic");
    let g = group_form(&x).unwrap();
    let text = printed(&g);
    assert_eq!(
        shape(&text),
        [
            "1:loop", "2:latch:", // local_hist[lid] = 0
            "1:loop", "2:latch:", // i = gid; the first test
            "1:loop",   // the rounds, while any work-item is still in its loop
            "2:loop", "3:if", "3:latch:", // one iteration of each active work-item
            "1:loop", "2:latch:", // merge into hist
        ],
        "{text}"
    );
    assert!(
        text.contains("__wi_i") && text.contains("__wi___active"),
        "{text}"
    );
    assert!(!text.contains("__wi___any_active"), "{text}");
    same_buffers(&x, &g, &x.launch).unwrap();
    // Work-items with different trip counts (n not a multiple of the global size), and
    // none at all.
    for n in [4001u32, 37, 0] {
        let mut l = copy_launch(&x.launch);
        l.args[2] = ArgValue::Value(n.to_le_bytes().to_vec());
        same_buffers(&x, &g, &l).unwrap_or_else(|e| panic!("n = {n}: {e}"));
    }
    // A loop whose variable starts alike in every work-item stays where it is.
    let x = load(&repo_kernels_dir().join("wi_inner_loop.cl")).unwrap();
    let g = group_form(&x).unwrap();
    assert!(!printed(&g).contains("__active"), "{}", printed(&g));
}
