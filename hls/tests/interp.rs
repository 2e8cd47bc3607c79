//! The IR interpreter on kernels built by hand: NDRange ids, local memory with barriers,
//! and the errors it must report (divergent barriers, out-of-bounds and uninitialised
//! accesses, broken ivdep promises, bad launches) with the right source lines.

use ocl_hls::diag::{render, FileId, SourceMap, Span};
use ocl_hls::frontend::sema::summary::{IvdepInfo, KernelAttrs, LoopHints};
use ocl_hls::frontend::types::AddrSpace;
use ocl_hls::interp::{run, ArgValue, Launch, Options};
use ocl_hls::ir::*;

#[allow(dead_code)] // the scratch-folder helper is for other test binaries
mod common;

/// Source text whose line `n` starts at byte `(n - 1) * 10`, so a span can name a line.
fn source_map() -> SourceMap {
    let mut sm = SourceMap::new();
    let text: String = (1..=40).map(|i| format!("line {i:04}\n")).collect();
    sm.add_file("k.cl", "k.cl", text);
    sm
}

fn line(n: u32) -> Span {
    Span::new(FileId(0), (n - 1) * 10, (n - 1) * 10 + 4)
}

/// Adds ops to one block.
struct B<'k> {
    k: &'k mut Kernel,
    b: BlockId,
    span: Span,
}

impl B<'_> {
    fn new(k: &mut Kernel, span: Span) -> B<'_> {
        let b = k.new_block();
        B { k, b, span }
    }
    fn op(&mut self, kind: OpKind, ty: Option<Ty>, args: &[OpId]) -> OpId {
        let span = self.span;
        self.k.block_mut(self.b).add(kind, ty, span, args)
    }
    fn c64(&mut self, v: u64) -> OpId {
        self.op(OpKind::Const(vec![v]), Some(Ty::I(64)), &[])
    }
    fn c32(&mut self, v: u32) -> OpId {
        self.op(OpKind::Const(vec![v as u64]), Some(Ty::I(32)), &[])
    }
    fn wi(&mut self, f: WorkItemFn, dim: u32) -> OpId {
        let d = self.c32(dim);
        self.op(OpKind::WorkItem(f), Some(Ty::I(64)), &[d])
    }
    fn bin(&mut self, op: BinOp, ty: Ty, a: OpId, b: OpId) -> OpId {
        self.op(OpKind::Binary(op), Some(ty), &[a, b])
    }
    fn cmp(&mut self, op: CmpOp, a: OpId, b: OpId) -> OpId {
        self.op(OpKind::Cmp(op), Some(Ty::I(1)), &[a, b])
    }
    fn param(&mut self, i: u32) -> OpId {
        let ty = self.k.params[i as usize].ty.clone();
        self.op(OpKind::Param(i), Some(ty), &[])
    }
    /// `base + index * size` for a pointer op `base`.
    fn elem(&mut self, base: OpId, index: OpId, size: u64) -> OpId {
        let sz = self.c64(size);
        let off = self.bin(BinOp::Mul, Ty::I(64), index, sz);
        let ty = self.k.block(self.b).op(base).ty.clone();
        self.op(OpKind::PtrAdd, ty, &[base, off])
    }
    fn load(&mut self, space: AddrSpace, p: OpId, ty: Ty) -> OpId {
        self.op(
            OpKind::Load {
                space,
                base: None,
                align: 4,
            },
            Some(ty),
            &[p],
        )
    }
    fn store(&mut self, space: AddrSpace, p: OpId, v: OpId) {
        self.op(
            OpKind::Store {
                space,
                base: None,
                align: 4,
            },
            None,
            &[p, v],
        );
    }
}

fn param(k: &mut Kernel, name: &str, kind: ParamKind, ty: Ty) {
    k.params.push(Param {
        name: name.into(),
        ty,
        kind,
        span: line(1),
    });
}

fn global_buf(k: &mut Kernel, name: &str) {
    param(
        k,
        name,
        ParamKind::Buffer {
            space: AddrSpace::Global,
        },
        Ty::Ptr(AddrSpace::Global),
    );
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn i32s(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn to_i32s(b: &[u8]) -> Vec<i32> {
    b.chunks(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn launch1(global: u64, local: u64, args: Vec<ArgValue>) -> Launch {
    Launch {
        work_dim: 1,
        global: [global, 1, 1],
        local: [local, 1, 1],
        args,
    }
}

fn rendered(e: &ocl_hls::interp::InterpError) -> String {
    render(&source_map(), &e.to_diagnostic())
}

/// `c[i] = a[i] + b[i]`, the store on line 5.
fn vadd() -> Kernel {
    let mut k = Kernel::new("vadd", line(1), KernelAttrs::default());
    for n in ["a", "b", "c"] {
        global_buf(&mut k, n);
    }
    let mut b = B::new(&mut k, line(3));
    let i = b.wi(WorkItemFn::GlobalId, 0);
    let (pa, pb, pc) = (b.param(0), b.param(1), b.param(2));
    let ea = b.elem(pa, i, 4);
    let eb = b.elem(pb, i, 4);
    let x = b.load(AddrSpace::Global, ea, Ty::F32);
    let y = b.load(AddrSpace::Global, eb, Ty::F32);
    let s = b.bin(BinOp::FAdd, Ty::F32, x, y);
    let ec = b.elem(pc, i, 4);
    b.span = line(5);
    b.store(AddrSpace::Global, ec, s);
    let blk = b.b;
    k.body.0.push(Node::Block(blk));
    verify::verify_kernel(&k).expect("valid IR");
    k
}

#[test]
fn vector_add_over_an_ndrange() {
    let n = 1000;
    let a: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let b: Vec<f32> = (0..n).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let l = launch1(
        n as u64,
        8,
        vec![
            ArgValue::Buffer(f32s(&a)),
            ArgValue::Buffer(f32s(&b)),
            ArgValue::Buffer(vec![0; n * 4]),
        ],
    );
    let out = run(&vadd(), &l, &Options::default()).expect("runs");
    assert_eq!(out.work_items, n as u64);
    let c = out.buffers[2].as_ref().expect("c is a buffer");
    for i in 0..n {
        let got = f32::from_le_bytes(c[i * 4..i * 4 + 4].try_into().unwrap());
        assert_eq!(got.to_bits(), (a[i] + b[i]).to_bits(), "lane {i}");
    }
    assert_eq!(
        out.buffers[0].as_deref(),
        Some(&f32s(&a)[..]),
        "inputs unchanged"
    );
}

#[test]
fn out_of_bounds_store_is_reported_with_its_line() {
    let l = launch1(
        16,
        4,
        vec![
            ArgValue::Buffer(vec![0; 64]),
            ArgValue::Buffer(vec![0; 64]),
            ArgValue::Buffer(vec![0; 60]),
        ],
    );
    let e = run(&vadd(), &l, &Options::default()).expect_err("c is one float short");
    let r = rendered(&e);
    assert!(
        r.starts_with(
            "k.cl:5:1: error: out-of-bounds store of 4 bytes at byte 60 of buffer 'c' (60 bytes)"
        ),
        "{r}"
    );
}

#[test]
fn bad_launches_are_rejected() {
    let ok = || {
        vec![
            ArgValue::Buffer(vec![0; 64]),
            ArgValue::Buffer(vec![0; 64]),
            ArgValue::Buffer(vec![0; 64]),
        ]
    };
    let e = run(&vadd(), &launch1(16, 5, ok()), &Options::default()).unwrap_err();
    assert!(
        e.message
            .contains("local size 5 does not divide global size 16"),
        "{}",
        e.message
    );
    let e = run(
        &vadd(),
        &launch1(16, 4, ok()[..2].to_vec()),
        &Options::default(),
    )
    .unwrap_err();
    assert!(
        e.message
            .contains("takes 3 arguments but the launch gives 2"),
        "{}",
        e.message
    );
    let mut args = ok();
    args[1] = ArgValue::Local(64);
    let e = run(&vadd(), &launch1(16, 4, args), &Options::default()).unwrap_err();
    assert!(
        e.message
            .contains("argument 'b' of kernel 'vadd' must be a buffer"),
        "{}",
        e.message
    );
    let mut k = vadd();
    k.attrs.reqd_work_group_size = Some([8, 1, 1]);
    let e = run(&k, &launch1(16, 4, ok()), &Options::default()).unwrap_err();
    assert!(
        e.message.contains("requires work-group size (8, 1, 1)"),
        "{}",
        e.message
    );
}

/// Tree reduction in a `__local` buffer with barriers:
/// ```c
/// scratch[lid] = in[gid];                         // line 3
/// barrier();                                      // line 4
/// for (s = L / 2; s > 0; s >>= 1) {               // line 6
///     if (lid < s) scratch[lid] += scratch[lid + s];  // line 7
///     barrier();                                  // line 8
/// }
/// if (lid == 0) partial[group] = scratch[0];      // line 10
/// ```
/// `first_read_of_neighbour` instead reads `scratch[lid + 1]` before the first barrier.
fn reduce(first_read_of_neighbour: bool) -> Kernel {
    let mut k = Kernel::new("reduce", line(1), KernelAttrs::default());
    global_buf(&mut k, "in");
    global_buf(&mut k, "partial");
    param(
        &mut k,
        "scratch",
        ParamKind::LocalBuffer,
        Ty::Ptr(AddrSpace::Local),
    );
    let s = k.new_var("s", Ty::I(64), line(6));
    let loc = AddrSpace::Local;

    let mut b = B::new(&mut k, line(3));
    let gid = b.wi(WorkItemFn::GlobalId, 0);
    let lid = b.wi(WorkItemFn::LocalId, 0);
    let pin = b.param(0);
    let sc = b.param(2);
    let src = b.elem(pin, gid, 4);
    let v = b.load(AddrSpace::Global, src, Ty::I(32));
    let dst = b.elem(sc, lid, 4);
    b.store(loc, dst, v);
    if first_read_of_neighbour {
        b.span = line(4);
        let one = b.c64(1);
        let n = b.bin(BinOp::Add, Ty::I(64), lid, one);
        let p = b.elem(sc, n, 4);
        b.load(loc, p, Ty::I(32));
    }
    b.span = line(4);
    b.op(OpKind::Barrier { flags: 1 }, None, &[]);
    let ls = b.wi(WorkItemFn::LocalSize, 0);
    let one = b.c64(1);
    let half = b.bin(BinOp::LShr, Ty::I(64), ls, one);
    b.op(OpKind::WriteVar(s), None, &[half]);
    let entry = b.b;

    let mut b = B::new(&mut k, line(6));
    let sv = b.op(OpKind::ReadVar(s), Some(Ty::I(64)), &[]);
    let zero = b.c64(0);
    let c = b.cmp(CmpOp::UGt, sv, zero);
    let cond_blk = b.b;

    let mut b = B::new(&mut k, line(7));
    let sv = b.op(OpKind::ReadVar(s), Some(Ty::I(64)), &[]);
    let lid = b.wi(WorkItemFn::LocalId, 0);
    let ic = b.cmp(CmpOp::ULt, lid, sv);
    let if_blk = b.b;

    let mut b = B::new(&mut k, line(7));
    let sv = b.op(OpKind::ReadVar(s), Some(Ty::I(64)), &[]);
    let lid = b.wi(WorkItemFn::LocalId, 0);
    let sc = b.param(2);
    let other = b.bin(BinOp::Add, Ty::I(64), lid, sv);
    let po = b.elem(sc, other, 4);
    let pm = b.elem(sc, lid, 4);
    let x = b.load(loc, pm, Ty::I(32));
    let y = b.load(loc, po, Ty::I(32));
    let sum = b.bin(BinOp::Add, Ty::I(32), x, y);
    b.store(loc, pm, sum);
    let then_blk = b.b;

    let mut b = B::new(&mut k, line(8));
    b.op(OpKind::Barrier { flags: 1 }, None, &[]);
    let bar_blk = b.b;

    let mut b = B::new(&mut k, line(6));
    let sv = b.op(OpKind::ReadVar(s), Some(Ty::I(64)), &[]);
    let one = b.c64(1);
    let nx = b.bin(BinOp::LShr, Ty::I(64), sv, one);
    b.op(OpKind::WriteVar(s), None, &[nx]);
    let latch_blk = b.b;

    let mut b = B::new(&mut k, line(10));
    let lid = b.wi(WorkItemFn::LocalId, 0);
    let zero = b.c64(0);
    let is0 = b.cmp(CmpOp::Eq, lid, zero);
    let tail_cond = b.b;

    let mut b = B::new(&mut k, line(10));
    let sc = b.param(2);
    let v = b.load(loc, sc, Ty::I(32));
    let grp = b.wi(WorkItemFn::GroupId, 0);
    let pp = b.param(1);
    let d = b.elem(pp, grp, 4);
    b.store(AddrSpace::Global, d, v);
    let tail = b.b;

    k.loops.push(Loop {
        kind: LoopKind::While,
        cond: Some((cond_blk, c)),
        body: Region(vec![
            Node::If {
                cond: (if_blk, ic),
                then: Region(vec![Node::Block(then_blk)]),
                els: Region::default(),
                span: line(7),
            },
            Node::Block(bar_blk),
        ]),
        latch: Region(vec![Node::Block(latch_blk)]),
        hints: LoopHints::default(),
        span: line(6),
    });
    k.body = Region(vec![
        Node::Block(entry),
        Node::Loop(LoopId(0)),
        Node::If {
            cond: (tail_cond, is0),
            then: Region(vec![Node::Block(tail)]),
            els: Region::default(),
            span: line(10),
        },
    ]);
    verify::verify_kernel(&k).expect("valid IR");
    k
}

#[test]
fn local_memory_reduction_with_barriers() {
    let input: Vec<i32> = (0..256).map(|i| (i * 37 % 101) - 50).collect();
    let l = launch1(
        256,
        64,
        vec![
            ArgValue::Buffer(i32s(&input)),
            ArgValue::Buffer(vec![0; 16]),
            ArgValue::Local(256),
        ],
    );
    let out = run(&reduce(false), &l, &Options::default()).expect("runs");
    let got = to_i32s(out.buffers[1].as_ref().unwrap());
    let want: Vec<i32> = input.chunks(64).map(|c| c.iter().sum()).collect();
    assert_eq!(got, want);
    assert_eq!(out.buffers[2], None, "a local argument has no output");
}

#[test]
fn uninitialised_local_read_is_reported() {
    let input = vec![1i32; 64];
    let l = launch1(
        64,
        64,
        vec![
            ArgValue::Buffer(i32s(&input)),
            ArgValue::Buffer(vec![0; 4]),
            ArgValue::Local(260),
        ],
    );
    let e = run(&reduce(true), &l, &Options::default())
        .expect_err("work-item 0 reads scratch[1] first");
    let r = rendered(&e);
    assert!(
        r.starts_with("k.cl:4:1: error: read of uninitialised __local memory 'scratch' at byte 4"),
        "{r}"
    );
}

/// `if (lid < 2) barrier();` (line 3), optionally `else barrier();` (line 4).
fn divergent(two_barriers: bool) -> Kernel {
    let mut k = Kernel::new("div", line(1), KernelAttrs::default());
    let mut b = B::new(&mut k, line(2));
    let lid = b.wi(WorkItemFn::LocalId, 0);
    let two = b.c64(2);
    let c = b.cmp(CmpOp::ULt, lid, two);
    let cb = b.b;
    let mut b = B::new(&mut k, line(3));
    b.op(OpKind::Barrier { flags: 1 }, None, &[]);
    let then = b.b;
    let mut b = B::new(&mut k, line(4));
    b.op(OpKind::Barrier { flags: 1 }, None, &[]);
    let els = b.b;
    let els = if two_barriers {
        Region(vec![Node::Block(els)])
    } else {
        Region::default()
    };
    k.body = Region(vec![Node::If {
        cond: (cb, c),
        then: Region(vec![Node::Block(then)]),
        els,
        span: line(2),
    }]);
    if !two_barriers {
        k.blocks.pop();
    }
    verify::verify_kernel(&k).expect("valid IR");
    k
}

#[test]
fn divergent_barriers_are_errors_not_hangs() {
    let l = launch1(8, 4, vec![]);
    let e = run(&divergent(false), &l, &Options::default())
        .expect_err("work-items 2 and 3 skip the barrier");
    let r = rendered(&e);
    assert!(r.starts_with("k.cl:3:1: error: divergent barrier: work-item (0, 0, 0) of group (0, 0, 0) waits at this barrier but work-item (2, 0, 0) of group (0, 0, 0) ended"), "{r}");
    let e = run(&divergent(true), &l, &Options::default()).expect_err("two barriers");
    let r = rendered(&e);
    assert!(
        r.contains("k.cl:3:1: error: divergent barrier") && r.contains("waits at another barrier"),
        "{r}"
    );
    assert!(r.contains("k.cl:4:1"), "the other barrier is named: {r}");
    // Everyone through the same barrier is fine.
    let l = launch1(8, 2, vec![]);
    assert!(run(&divergent(false), &l, &Options::default()).is_ok());
}

/// `#pragma ivdep safelen(N)` on `for (i = 0; i < n; i++) a[i + 4] = a[i] + 1;` (line 3).
fn ivdep(safelen: Option<u64>) -> Kernel {
    let mut k = Kernel::new("iv", line(1), KernelAttrs::default());
    global_buf(&mut k, "a");
    param(&mut k, "n", ParamKind::Value, Ty::I(32));
    let i = k.new_var("i", Ty::I(64), line(3));
    let mut b = B::new(&mut k, line(3));
    let z = b.c64(0);
    b.op(OpKind::WriteVar(i), None, &[z]);
    let init = b.b;
    let mut b = B::new(&mut k, line(3));
    let iv = b.op(OpKind::ReadVar(i), Some(Ty::I(64)), &[]);
    let n = b.param(1);
    let n64 = b.op(
        OpKind::Conv(Conv::Int {
            from_signed: true,
            to_signed: true,
            sat: false,
        }),
        Some(Ty::I(64)),
        &[n],
    );
    let c = b.cmp(CmpOp::SLt, iv, n64);
    let cond = b.b;
    let mut b = B::new(&mut k, line(4));
    let iv = b.op(OpKind::ReadVar(i), Some(Ty::I(64)), &[]);
    let pa = b.param(0);
    let src = b.elem(pa, iv, 4);
    let x = b.load(AddrSpace::Global, src, Ty::I(32));
    let one = b.c32(1);
    let y = b.bin(BinOp::Add, Ty::I(32), x, one);
    let four = b.c64(4);
    let j = b.bin(BinOp::Add, Ty::I(64), iv, four);
    let dst = b.elem(pa, j, 4);
    b.store(AddrSpace::Global, dst, y);
    let body = b.b;
    let mut b = B::new(&mut k, line(3));
    let iv = b.op(OpKind::ReadVar(i), Some(Ty::I(64)), &[]);
    let one = b.c64(1);
    let nx = b.bin(BinOp::Add, Ty::I(64), iv, one);
    b.op(OpKind::WriteVar(i), None, &[nx]);
    let latch = b.b;
    let hints = LoopHints {
        ivdep: Some(IvdepInfo {
            safelen,
            spelling: "ivdep".into(),
        }),
        ..LoopHints::default()
    };
    k.loops.push(Loop {
        kind: LoopKind::While,
        cond: Some((cond, c)),
        body: Region(vec![Node::Block(body)]),
        latch: Region(vec![Node::Block(latch)]),
        hints,
        span: line(3),
    });
    k.body = Region(vec![Node::Block(init), Node::Loop(LoopId(0))]);
    verify::verify_kernel(&k).expect("valid IR");
    k
}

#[test]
fn ivdep_violations_are_reported_only_when_checked() {
    let args = || {
        vec![
            ArgValue::Buffer(i32s(&[0; 20])),
            ArgValue::Value(16i32.to_le_bytes().to_vec()),
        ]
    };
    let check = Options {
        check_hints: true,
        ..Options::default()
    };
    let e =
        run(&ivdep(Some(8)), &launch1(1, 1, args()), &check).expect_err("distance 4 < safelen 8");
    let r = rendered(&e);
    assert!(
        r.starts_with("k.cl:3:1: error: ivdep promise broken: iteration 4 reads byte 16 of 'a' written by iteration 0 (distance 4 < safelen 8)"),
        "{r}"
    );
    let e =
        run(&ivdep(None), &launch1(1, 1, args()), &check).expect_err("plain ivdep: any distance");
    assert!(e.message.contains("distance 4"), "{}", e.message);
    // safelen 4 allows distance 4; unchecked runs ignore the promise.
    assert!(run(&ivdep(Some(4)), &launch1(1, 1, args()), &check).is_ok());
    let out = run(&ivdep(Some(8)), &launch1(1, 1, args()), &Options::default()).expect("unchecked");
    let a = to_i32s(out.buffers[0].as_ref().unwrap());
    assert_eq!(&a[..8], &[0, 0, 0, 0, 1, 1, 1, 1]);
    assert_eq!(a[19], 4, "a[i + 4] = a[i] + 1 chains every 4 elements");
}

#[test]
fn runaway_loops_stop_at_max_steps() {
    let mut k = Kernel::new("spin", line(1), KernelAttrs::default());
    let b = B::new(&mut k, line(2));
    let body = b.b;
    k.loops.push(Loop {
        kind: LoopKind::While,
        cond: None,
        body: Region(vec![Node::Block(body)]),
        latch: Region::default(),
        hints: LoopHints::default(),
        span: line(2),
    });
    k.body = Region(vec![Node::Loop(LoopId(0))]);
    let e = run(
        &k,
        &launch1(1, 1, vec![]),
        &Options {
            check_hints: false,
            max_steps: 1000,
            strict: false,
        },
    )
    .unwrap_err();
    assert!(e.message.contains("max_steps"), "{}", e.message);
}

// ---------------------------------------------------------------------------------------
// End to end: OpenCL C source -> frontend -> lowering -> interpreter, with launch specs.

mod e2e {
    use std::path::{Path, PathBuf};

    use ocl_hls::frontend::{check_file, Options as FrontOptions};
    use ocl_hls::interp::{run, InterpError, Options, Outcome};
    use ocl_hls::launch::{self, KernelSig, LaunchSpec};

    pub fn conformance_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/kernels")
    }

    pub fn repo_kernels_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels")
    }

    /// Every `NAME.cl` with a `NAME.yaml` beside it in `dir`, sorted.
    pub fn kernels_in(dir: &Path) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "cl") && p.with_extension("yaml").exists()
            })
            .collect();
        v.sort();
        v
    }

    pub struct Ran {
        pub launch: launch::Launch,
        pub outcome: Outcome,
    }

    /// Checks, lowers and runs `cl` with its spec; errors rendered like the compiler's.
    pub fn run_file(cl: &Path, opts: &Options) -> Result<Ran, String> {
        let spec = LaunchSpec::load(&cl.with_extension("yaml")).map_err(|e| e.to_string())?;
        let mut fo = FrontOptions::default();
        fo.pp.defines = spec
            .defines
            .iter()
            .map(|(k, v)| (k.clone(), v.0.clone()))
            .collect();
        let checked = check_file(cl, &fo);
        let render_all = |d: &ocl_hls::diag::Diagnostics| {
            d.list
                .iter()
                .map(|x| ocl_hls::diag::render(&checked.sources, x))
                .collect::<Vec<_>>()
                .join("\n")
        };
        if checked.diags.has_errors() {
            return Err(format!("frontend: {}", render_all(&checked.diags)));
        }
        let program = checked.program.as_ref().ok_or("no program")?;
        let module = ocl_hls::lower::lower(program, &checked.sources)
            .map_err(|d| format!("lower: {}", render_all(&d)))?;
        let sigs: Vec<KernelSig> = program.kernels.iter().map(KernelSig::from_info).collect();
        let l = launch::resolve(&spec, &sigs, 256).map_err(|e| e.to_string())?;
        let kernel = module
            .kernels
            .iter()
            .find(|k| k.name == l.kernel)
            .ok_or("kernel not lowered")?;
        // The engine's view of the launch: a `same_as` argument is its target's memory.
        let il = ocl_hls::engine::interp_launch(&l);
        let mut outcome = run(kernel, &il, opts).map_err(|e: InterpError| {
            ocl_hls::diag::render(&checked.sources, &e.to_diagnostic())
        })?;
        outcome.buffers = l.with_aliases(outcome.buffers);
        Ok(Ran { launch: l, outcome })
    }
}

fn checked_opts() -> Options {
    Options {
        check_hints: true,
        ..Options::default()
    }
}

#[test]
fn every_conformance_and_repo_kernel_runs() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for dir in [e2e::conformance_dir(), e2e::repo_kernels_dir()] {
        for cl in e2e::kernels_in(&dir) {
            match e2e::run_file(&cl, &checked_opts()) {
                Ok(_) => ran += 1,
                Err(e) => failures.push(format!("{}: {e}", cl.display())),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} ran, {} failed:\n{}",
        ran,
        failures.len(),
        failures.join("\n")
    );
    assert!(ran >= 19, "only {ran} kernels found");
}

/// Every kernel with a launch spec gives the same checked buffers as POCL (bit-exact, or
/// within the spec's `tolerance_ulp`).
#[test]
fn matches_pocl_on_every_kernel() {
    let bin = common::ocl_ref_binary();
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut left_to_engines = 0;
    for dir in [e2e::conformance_dir(), e2e::repo_kernels_dir()] {
        for cl in e2e::kernels_in(&dir) {
            let ran = match e2e::run_file(&cl, &checked_opts()) {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{}: interp: {e}", cl.display()));
                    continue;
                }
            };
            let stem = cl.file_stem().and_then(|s| s.to_str()).unwrap_or("k");
            let out =
                std::env::temp_dir().join(format!("interp-pocl-{}-{stem}", std::process::id()));
            let _ = std::fs::remove_dir_all(&out);
            let res = std::process::Command::new(&bin)
                .arg("run")
                .arg(&cl)
                .arg("--spec")
                .arg(cl.with_extension("yaml"))
                .arg("--out")
                .arg(&out)
                .output()
                .expect("ocl-ref starts");
            if !res.status.success() {
                failures.push(format!(
                    "{}: ocl-ref: {}",
                    cl.display(),
                    String::from_utf8_lossy(&res.stderr)
                ));
                continue;
            }
            for (i, a) in ran.launch.args.iter().enumerate() {
                let ocl_hls::launch::ArgValue::Buffer(b) = &a.value else {
                    continue;
                };
                // POCL is no reference for values OpenCL leaves to the implementation;
                // the datapath test compares them between the interpreter and Verilator.
                if b.implementation_defined {
                    left_to_engines += 1;
                    continue;
                }
                let expected =
                    std::fs::read(out.join(format!("{}.bin", a.name))).unwrap_or_default();
                let actual = ran.outcome.buffers[i].as_deref().unwrap_or(&[]);
                if let Err(m) = ocl_hls::launch::compare::compare_arg(b, &expected, actual) {
                    failures.push(format!("{}: buffer '{}': {m}", cl.display(), a.name));
                }
                compared += 1;
            }
            let _ = std::fs::remove_dir_all(&out);
        }
    }
    eprintln!(
        "{compared} buffers compared with POCL; {left_to_engines} implementation-defined ones \
         left to the interpreter-Verilator comparison"
    );
    assert!(
        left_to_engines <= 4,
        "keep implementation_defined for what OpenCL leaves open"
    );
    assert!(
        failures.is_empty(),
        "{compared} buffers compared, {} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Writes `src` and a spec into a fresh folder and runs it end to end.
fn run_source(name: &str, src: &str, yaml: &str, opts: &Options) -> Result<e2e::Ran, String> {
    let dir = std::env::temp_dir().join(format!("interp-src-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cl = dir.join(format!("{name}.cl"));
    std::fs::write(&cl, src).expect("write kernel");
    std::fs::write(dir.join(format!("{name}.yaml")), yaml).expect("write spec");
    let r = e2e::run_file(&cl, opts);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

#[test]
fn source_level_errors_name_the_line() {
    let ivdep = "__kernel void k(__global int *A, int N)\n{\n    [[cl::ivdep(8)]]\n    for (int i = 0; i < N; i++) {\n        A[i + 4] = A[i] + 1;\n    }\n}\n";
    let spec = "global: [1]\nlocal: [1]\nargs:\n  - buffer: {type: int, count: 20, init: zero}\n  - scalar: {type: int, value: 16}\n";
    let e = run_source("iv", ivdep, spec, &checked_opts())
        .err()
        .unwrap_or_default();
    eprintln!("{e}");
    assert!(e.contains("iv.cl:4:") && e.contains("ivdep promise broken: iteration 4 reads byte 16 of 'A' written by iteration 0 (distance 4 < safelen 8)"), "{e}");
    assert!(
        run_source("iv", ivdep, spec, &Options::default()).is_ok(),
        "unchecked runs ignore the promise"
    );

    let uninit = "__kernel void k(__global int *out)\n{\n    __local int tile[64];\n    out[get_global_id(0)] = tile[get_local_id(0)];\n}\n";
    let spec = "global: [64]\nlocal: [64]\nargs:\n  - buffer: {type: int, count: 64, init: zero}\n";
    let e = run_source("un", uninit, spec, &Options::default())
        .err()
        .unwrap_or_default();
    assert!(
        e.contains("un.cl:4:")
            && e.contains("read of uninitialised __local memory 'tile' at byte 0"),
        "{e}"
    );

    let div = "__kernel void k(__global int *out)\n{\n    if (get_local_id(0) < 2)\n        barrier(CLK_LOCAL_MEM_FENCE);\n    out[get_global_id(0)] = 1;\n}\n";
    let spec = "global: [8]\nlocal: [4]\nargs:\n  - buffer: {type: int, count: 8, init: zero}\n";
    let e = run_source("dv", div, spec, &Options::default())
        .err()
        .unwrap_or_default();
    eprintln!("{e}");
    assert!(
        e.contains("dv.cl:4:") && e.contains("divergent barrier"),
        "{e}"
    );

    // Private memory: an error only when strict; by default one warning per location and
    // the never-written bytes read as zero.
    let private = "__kernel void k(__global int *out)\n{\n    int t[4];\n    t[1] = 5;\n    out[get_global_id(0)] = t[get_global_id(0) % 4];\n}\n";
    let strict = Options {
        strict: true,
        ..Options::default()
    };
    let e = run_source("pr", private, spec, &strict)
        .err()
        .unwrap_or_default();
    assert!(
        e.contains("pr.cl:5:")
            && e.contains("read of uninitialised __private memory 't' at byte 0"),
        "{e}"
    );
    let ran = run_source("pr", private, spec, &Options::default()).expect("runs with a warning");
    let w = &ran.outcome.warnings;
    assert_eq!(w.len(), 1, "one warning per location: {w:?}");
    assert!(w[0]
        .message
        .starts_with("read of uninitialised __private memory 't' at byte 0"));
    let out = ran.outcome.buffers[0].as_deref().expect("out");
    assert_eq!(
        to_i32s(out),
        [0, 5, 0, 0, 0, 5, 0, 0],
        "never-written bytes read as zero"
    );

    let oob = "__kernel void k(__global int *out)\n{\n    size_t i = get_global_id(0);\n    out[i + 1] = (int)i;\n}\n";
    let e = run_source("ob", oob, spec, &Options::default())
        .err()
        .unwrap_or_default();
    assert!(
        e.contains("ob.cl:4:")
            && e.contains("out-of-bounds store of 4 bytes at byte 32 of buffer 'out' (32 bytes)"),
        "{e}"
    );
}

/// Runs `src` with `yaml` on the interpreter and on POCL (files beside it: `files`) and
/// returns the mismatches of checked buffers.
fn differential(name: &str, src: &str, yaml: &str, files: &[(&str, Vec<u8>)]) -> Vec<String> {
    differential_except(name, src, yaml, files, &|_, _| false)
}

/// [`differential`], leaving out element `i` of buffer `b` where `open(b, i)`: a value
/// OpenCL leaves to the implementation, on which POCL is no reference.
fn differential_except(
    name: &str,
    src: &str,
    yaml: &str,
    files: &[(&str, Vec<u8>)],
    open: &dyn Fn(&str, usize) -> bool,
) -> Vec<String> {
    let bin = common::ocl_ref_binary();
    let dir = std::env::temp_dir().join(format!("interp-diff-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cl = dir.join(format!("{name}.cl"));
    std::fs::write(&cl, src).expect("write kernel");
    std::fs::write(dir.join(format!("{name}.yaml")), yaml).expect("write spec");
    for (f, bytes) in files {
        std::fs::write(dir.join(f), bytes).expect("write input");
    }
    let mut failures = Vec::new();
    match e2e::run_file(&cl, &Options::default()) {
        Err(e) => failures.push(format!("interp: {e}")),
        Ok(ran) => {
            let out = dir.join("pocl");
            let res = std::process::Command::new(&bin)
                .arg("run")
                .arg(&cl)
                .arg("--spec")
                .arg(cl.with_extension("yaml"))
                .arg("--out")
                .arg(&out)
                .output()
                .expect("ocl-ref starts");
            if !res.status.success() {
                failures.push(format!("ocl-ref: {}", String::from_utf8_lossy(&res.stderr)));
            }
            for (i, a) in ran.launch.args.iter().enumerate() {
                let ocl_hls::launch::ArgValue::Buffer(b) = &a.value else {
                    continue;
                };
                let expected =
                    std::fs::read(out.join(format!("{}.bin", a.name))).unwrap_or_default();
                let mut actual = ran.outcome.buffers[i].clone().unwrap_or_default();
                // Elements left open take POCL's bytes, so only the others are compared.
                let size = b.ty.size();
                if expected.len() == actual.len() {
                    for (e, (x, y)) in expected
                        .chunks(size)
                        .zip(actual.chunks_mut(size))
                        .enumerate()
                    {
                        if open(&a.name, e) {
                            y.copy_from_slice(x);
                        }
                    }
                }
                let actual = actual.as_slice();
                if let Err(m) = ocl_hls::launch::compare::compare_arg(b, &expected, actual) {
                    failures.push(format!("{name}: buffer '{}': {m}", a.name));
                    // For investigating: INTERP_DIFF_DUMP=DIR keeps both sides' bytes.
                    if let Some(d) = std::env::var_os("INTERP_DIFF_DUMP") {
                        let d = std::path::PathBuf::from(d);
                        let _ = std::fs::create_dir_all(&d);
                        let _ =
                            std::fs::write(d.join(format!("{name}-{}.pocl", a.name)), &expected);
                        let _ = std::fs::write(d.join(format!("{name}-{}.interp", a.name)), actual);
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    failures
}

/// Floats that probe conversions and math: signed zeros, ties, subnormals, huge, inf, NaN.
fn special_floats() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.5,
        -1.5,
        2.5,
        -2.5,
        3.5,
        127.5,
        128.0,
        -128.5,
        255.5,
        256.0,
        32767.5,
        -32768.5,
        65535.5,
        2147483520.0,
        2147483648.0,
        -2147483648.0,
        -2147483904.0,
        4294967040.0,
        4294967296.0,
        9.2233715e18,
        9.223372e18,
        -9.223372e18,
        1.8446743e19,
        1.8446744e19,
        1e30,
        -1e30,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
        f32::MIN_POSITIVE,
        1e-45,
        -3e-39,
        f32::MAX,
        -f32::MAX,
        0.1,
        -0.7,
        1.0 / 3.0,
        16777217.0,
        8388608.5,
        -8388609.0,
        1.0000001,
        0.99999994,
        65504.0,
        65519.996,
        65520.0,
        6.1035156e-5,
        6.097555e-5,
        5.9604645e-8,
        2.9802322e-8,
        3e-8,
    ];
    // Deterministic pseudo-random values of every magnitude.
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    while v.len() < 256 {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let bits = (s >> 32) as u32;
        let f = f32::from_bits(bits);
        v.push(if v.len() % 2 == 0 {
            f
        } else {
            (bits as i32 as f32) / 4096.0
        });
    }
    v
}

fn float_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn conversions_match_pocl() {
    let src = r#"
#define ALL(T) C(T,) C(T,_rte) C(T,_rtz) C(T,_rtp) C(T,_rtn) C(T,_sat) C(T,_sat_rte) C(T,_sat_rtz) C(T,_sat_rtp) C(T,_sat_rtn)
__kernel void conv(__global const float *x, __global long *o, __global long *od, __global float *of, __global half *oh)
{
    size_t i = get_global_id(0);
    float v = x[i];
    double d = (double)v * 1.0000000001;
    int k = 0;
#define C(T, S) o[i * 80 + k] = (long)convert_##T##S(v); od[i * 80 + k] = (long)convert_##T##S(d); k++;
    ALL(char) ALL(uchar) ALL(short) ALL(ushort) ALL(int) ALL(uint) ALL(long) ALL(ulong)
    long l = as_long((double)v);
    ulong u = as_ulong((double)v);
    int n = as_int(v);
    of[i * 16 + 0] = convert_float(l);
    of[i * 16 + 1] = convert_float_rtz(l);
    of[i * 16 + 2] = convert_float_rtp(l);
    of[i * 16 + 3] = convert_float_rtn(l);
    of[i * 16 + 4] = convert_float(u);
    of[i * 16 + 5] = convert_float_rtz(u);
    of[i * 16 + 6] = convert_float_rtp(u);
    of[i * 16 + 7] = convert_float_rtn(u);
    of[i * 16 + 8] = convert_float_rtp(n);
    of[i * 16 + 9] = convert_float_rtn((uint)n);
    of[i * 16 + 10] = convert_float(d);
    of[i * 16 + 11] = convert_float_rtz(d);
    of[i * 16 + 12] = convert_float_rtp(d * 3.0);
    of[i * 16 + 13] = convert_float_rtn(d * 3.0);
    of[i * 16 + 14] = (float)(v > 0.0f);
    of[i * 16 + 15] = (float)(d < 0.0);
    vstore_half(v, i * 4 + 0, oh);
    vstore_half_rtz(v, i * 4 + 1, oh);
    vstore_half_rtp(v, i * 4 + 2, oh);
    vstore_half_rtn(v, i * 4 + 3, oh);
}
"#;
    let yaml = "global: [256]\nlocal: [64]\nargs:\n  - buffer: {type: float, count: 256, init: {file: x.bin}}\n  - buffer: {type: long, count: 20480, init: zero}\n  - buffer: {type: long, count: 20480, init: zero}\n  - buffer: {type: float, count: 4096, init: zero}\n  - buffer: {type: ushort, count: 1024, init: zero}\n";
    // A conversion without `_sat` of a value outside the type's range is left to the
    // implementation (OpenCL C 6.2.3.3): those elements are not compared with POCL.
    let x = special_floats();
    let open = |buf: &str, e: usize| {
        let (item, k) = (e / 80, e % 80);
        let (ty, sat) = (k / 10, k % 10 >= 5);
        let v = x[item] as f64;
        let v = if buf == "od" { v * 1.0000000001 } else { v };
        let bits = [8, 8, 16, 16, 32, 32, 64, 64][ty];
        let signed = ty % 2 == 0;
        let (lo, hi_excl) = if signed {
            (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1))
        } else {
            (0.0, 2f64.powi(bits))
        };
        // Any value outside [lo, max] may round out of range in some mode; above 2^53
        // every double is an integer, and 2^63 - 1 is not representable.
        let in_range = v >= lo
            && if bits == 64 {
                v < hi_excl
            } else {
                v <= hi_excl - 1.0
            };
        matches!(buf, "o" | "od") && !sat && !in_range
    };
    let f = differential_except("conv", src, yaml, &[("x.bin", float_bytes(&x))], &open);
    assert!(f.is_empty(), "{}", f.join("\n"));
}

/// Integers that probe the integer built-ins: zero, ones, extremes of every width.
fn special_ints() -> Vec<i32> {
    let mut v = vec![
        0,
        1,
        -1,
        2,
        -2,
        7,
        127,
        -128,
        128,
        255,
        256,
        32767,
        -32768,
        65535,
        65536,
        i32::MAX,
        i32::MIN,
        i32::MAX - 1,
        i32::MIN + 1,
        0x7FFFFF,
        -0x800000,
        0xFFFFFF,
        12345678,
        -87654321,
        0x55555555,
        0xAAAAAAAAu32 as i32,
        31,
        32,
        33,
        63,
        64,
    ];
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    while v.len() < 192 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let x = s as i32;
        v.push(match v.len() % 4 {
            0 => x,
            1 => x >> 16,
            2 => x >> 24,
            _ => x & 0xFF,
        });
    }
    v
}

#[test]
fn integer_builtins_match_pocl() {
    let src = r#"
#define SGN(T) \
    F(T, abs(x)) F(T, abs_diff(x, y)) F(T, add_sat(x, y)) F(T, sub_sat(x, y)) F(T, hadd(x, y)) \
    F(T, rhadd(x, y)) F(T, clamp(x, min(y, z), max(y, z))) F(T, clz(x)) F(T, ctz(x)) F(T, popcount(x)) \
    F(T, mad_hi(x, y, z)) F(T, mad_sat(x, y, z)) F(T, max(x, y)) F(T, min(x, y)) F(T, mul_hi(x, y)) \
    F(T, rotate(x, y)) F(T, x / (y == 0 ? (T)1 : y)) F(T, x % (y == 0 ? (T)3 : y)) F(T, x >> y) F(T, x << y)
__kernel void ints(__global const int *a, __global const int *b, __global const int *c, __global long *o)
{
    size_t i = get_global_id(0);
    size_t j = (i * 7 + 3) % get_global_size(0);
    int k = 0;
#define F(T, e) { T x = (T)a[i], y = (T)b[i], z = (T)c[j]; o[i * 200 + k] = (long)(e); k++; }
    SGN(char) SGN(uchar) SGN(short) SGN(ushort) SGN(int) SGN(uint)
#undef F
#define F(T, e) { T x = ((T)a[i] << 32) ^ (T)(uint)b[j], y = ((T)b[i] << 32) ^ (T)(uint)c[i], z = ((T)c[j] << 29) + (T)a[j]; o[i * 200 + k] = (long)(e); k++; }
    SGN(long) SGN(ulong)
#undef F
    o[i * 200 + k++] = mad24(a[i] << 8 >> 8, b[i] << 8 >> 8, c[i]);
    o[i * 200 + k++] = mul24(a[i] << 8 >> 8, c[j] << 8 >> 8);
    o[i * 200 + k++] = (long)mad24((uint)a[i] & 0xFFFFFF, (uint)b[i] & 0xFFFFFF, (uint)c[i]);
    o[i * 200 + k++] = upsample((char)a[i], (uchar)b[i]);
    o[i * 200 + k++] = upsample((ushort)a[i], (ushort)b[i]);
    o[i * 200 + k++] = upsample(a[i], (uint)b[i]);
    o[i * 200 + k++] = (long)upsample((uint)a[i], (uint)b[i]);
    int4 v = (int4)(a[i], b[i], c[i], a[j]);
    int4 w = clamp(v, -1000, 1000) + add_sat(v, (int4)(b[j])) + rotate(v, (int4)(3, 7, 31, 32));
    uchar4 u = convert_uchar4_sat(v) + abs_diff(as_uchar4(a[i]), as_uchar4(b[i]));
    o[i * 200 + k++] = w.x; o[i * 200 + k++] = w.y; o[i * 200 + k++] = w.z; o[i * 200 + k++] = w.w;
    o[i * 200 + k++] = as_int(u);
    o[i * 200 + k++] = any(v) + 2 * all(v) + 4 * any(v.xy > v.zw) + 8 * all(v.xy >= v.zw);
    int4 s = select(v, (int4)(7), v < (int4)(b[i]));
    o[i * 200 + k++] = s.x + s.y * 3 + s.z * 5 + s.w * 7;
    o[i * 200 + k++] = bitselect(a[i], b[i], c[i]);
    o[i * 200 + k++] = select(a[i], b[i], c[i]);
    o[i * 200 + k++] = (long)upsample(v.x, (uint)v.y) * (long)(v.z != v.w);
}
"#;
    let n = special_ints().len();
    let ints = special_ints();
    let rot = |k: usize| -> Vec<u8> {
        (0..n)
            .flat_map(|i| ints[(i + k) % n].to_le_bytes())
            .collect()
    };
    let yaml = format!(
        "global: [{n}]\nlocal: [64]\nargs:\n  - buffer: {{type: int, count: {n}, init: {{file: a.bin}}}}\n  - buffer: {{type: int, count: {n}, init: {{file: b.bin}}}}\n  - buffer: {{type: int, count: {n}, init: {{file: c.bin}}}}\n  - buffer: {{type: long, count: {}, init: zero}}\n",
        n * 200
    );
    let f = differential(
        "ints",
        src,
        &yaml,
        &[("a.bin", rot(0)), ("b.bin", rot(17)), ("c.bin", rot(101))],
    );
    assert!(f.is_empty(), "{}", f.join("\n"));
}

#[test]
fn float_builtins_match_pocl() {
    let src = r#"
__kernel void fl(__global const float *a, __global const float *b, __global float *ex, __global int *ix, __global float *ap, __global double *dx)
{
    size_t i = get_global_id(0);
    size_t j = (i * 7 + 3) % get_global_size(0);
    float x = a[i], y = b[i], z = a[j];
    int k = 0;
#define E(e) ex[i * 48 + k++] = (e);
    E(fma(x, y, z)) E(mad(x, y, z)) E(fmin(x, y)) E(fmax(x, y)) E(fdim(x, y)) E(fmod(x, y))
    E(remainder(x, y)) E(copysign(x, y)) E(round(x)) E(rint(x)) E(trunc(x)) E(floor(x)) E(ceil(x))
    E(sqrt(x)) E(fabs(x)) E(maxmag(x, y)) E(minmag(x, y)) E(nextafter(x, y)) E(logb(x))
    E(ldexp(x, (int)(y * 0.0001f) % 300)) E(x / y) E(x - y) E(max(x, y)) E(min(x, y))
    E(clamp(x, -1.5f, 1.5f)) E(step(y, x)) E(sign(x)) E(mix(x, y, 0.25f)) E(select(x, y, (int)z))
    E(isequal(x, y) + 2 * isless(x, y) + 4 * isnan(x) + 8 * isinf(y) + 16 * signbit(x) + 32 * isnormal(x))
    E(islessgreater(x, y) + 2 * isunordered(x, y) + 4 * isgreaterequal(x, y) + 8 * isfinite(x))
    float ip; int e; int q;
    E(fract(x, &ip)) E(ip) E(modf(x, &ip)) E(ip) E(frexp(x, &e)) E((float)e) E(remquo(x, y, &q)) E((float)(q & 0x7F) * (q < 0 ? -1.0f : 1.0f))
    E(nan((uint)i)) E(dot((float4)(x, y, z, 1.0f), (float4)(y, z, x, 2.0f))) E(dot((float2)(x, y), (float2)(z, x)))
    E(cross((float4)(x, y, z, 0.0f), (float4)(z, x, y, 0.0f)).y)
    E(bitselect(x, y, z))
    ix[i * 2] = ilogb(x);
    ix[i * 2 + 1] = isnotequal(x, y);
    k = 0;
#define A(e) ap[i * 24 + k++] = (e);
    A(exp(x * 0.01f)) A(log(fabs(x))) A(sin(x)) A(cos(y)) A(tan(x * 0.001f)) A(pow(fabs(x), y * 0.01f)) A(exp2(y * 0.01f))
    A(log2(fabs(y))) A(log10(fabs(x))) A(atan2(x, y)) A(asin(x * 1e-10f)) A(acos(y * 1e-10f)) A(sinh(x * 0.001f))
    A(cbrt(x)) A(hypot(x, y)) A(rsqrt(fabs(x))) A(length((float2)(x, y))) A(normalize((float2)(x, y)).x)
    A(expm1(x * 0.001f)) A(log1p(fabs(y))) A(sinpi(x)) A(erf(x * 1e-30f)) A(tanh(y)) A(atan(x));
    k = 0;
    double dxv = (double)x * 1.25, dyv = (double)y;
#define D(e) dx[i * 12 + k++] = (e);
    D(fma(dxv, dyv, (double)z)) D(sqrt(dxv)) D(dxv / dyv) D(fmin(dxv, dyv)) D(rint(dxv)) D(fmod(dxv, dyv))
    D(convert_double(as_long((double)x))) D(convert_double_rtz(as_ulong((double)y))) D((double)x * (double)y - (double)z)
    D(floor(dxv)) D(copysign(dxv, dyv)) D(round(dxv))
}
"#;
    let v = special_floats();
    let n = v.len();
    let rot = |k: usize| -> Vec<u8> { (0..n).flat_map(|i| v[(i + k) % n].to_le_bytes()).collect() };
    let yaml = format!(
        "global: [{n}]\nlocal: [64]\nargs:\n  - buffer: {{type: float, count: {n}, init: {{file: a.bin}}}}\n  - buffer: {{type: float, count: {n}, init: {{file: b.bin}}}}\n  - buffer: {{type: float, count: {}, init: zero}}\n  - buffer: {{type: int, count: {}, init: zero}}\n  - buffer: {{type: float, count: {}, init: zero}}\n    tolerance_ulp: 2\n  - buffer: {{type: double, count: {}, init: zero}}\n",
        n * 48,
        n * 2,
        n * 24,
        n * 12
    );
    let f = differential("fl", src, &yaml, &[("a.bin", rot(0)), ("b.bin", rot(29))]);
    assert!(f.is_empty(), "{}", f.join("\n"));
}

#[test]
fn vector_ops_match_pocl() {
    // Contraction of `a * b + c` into fma is the lowering's job (POCL contracts by default).
    let src = r#"
#pragma OPENCL FP_CONTRACT OFF
__kernel void vec(__global const float *a, __global const int *b, __global float *of, __global int *oi, __global uchar *ob)
{
    size_t i = get_global_id(0);
    float4 x = vload4(i, a);
    float3 y = vload3(i, a + 1);
    int8 n = vload8(i, b);
    float4 s = x.wzyx * x.s1032 + (float4)(y, 1.0f);
    float3 c = cross(y, x.xyz);
    vstore4(s, i * 3, of);
    vstore3(c, i * 4 + 1, of);
    of[i * 16 + 15] = dot(x, s) + length(y) + distance(x.xy, y.yz);
    float2 h = vload_half2(i, (__global const half *)b);
    of[i * 16 + 14] = h.x - h.y;
    int4 lo = n.lo, hi = n.hi;
    int4 m = (lo < hi) + (lo == hi) * 3 + (convert_int4(x) >= lo);
    vstore4(m + (lo >> (hi & 31)) + (hi % (lo | 1)), i * 4, oi);
    uint4 u = convert_uint4_sat(x * 1000.0f) ^ as_uint4(s);
    vstore4(as_int4(u) + select(lo, hi, isgreater(x, s)), i * 4 + 2, oi);
    uchar16 bytes = as_uchar16(n.s0123) + as_uchar16(convert_int4_rte(s));
    vstore16(bytes.sfedcba9876543210 + (uchar16)((uchar)i), i, ob);
    short8 sh = convert_short8_sat(n) * (short8)(3) - upsample((char8)(1), convert_uchar8(n));
    oi[i * 4 + 3] = sh.s0 + sh.s7 + any(sh < (short)0) + all(sh >= (short)0) * 2 + as_int(as_char4(n.s7).wzyx);
    vstore_half4_rtz(x * 3.0f, i, (__global half *)(oi + 4096));
}
"#;
    let v = special_floats();
    let ints = special_ints();
    let n = 64usize;
    let af: Vec<u8> = (0..n * 4 + 8)
        .flat_map(|i| v[(i * 5) % v.len()].to_le_bytes())
        .collect();
    let bi: Vec<u8> = (0..n * 8)
        .flat_map(|i| ints[(i * 3) % ints.len()].to_le_bytes())
        .collect();
    let yaml = format!(
        "global: [{n}]\nlocal: [16]\nargs:\n  - buffer: {{type: float, count: {}, init: {{file: a.bin}}}}\n  - buffer: {{type: int, count: {}, init: {{file: b.bin}}}}\n  - buffer: {{type: float, count: {}, init: zero}}\n  - buffer: {{type: int, count: {}, init: zero}}\n  - buffer: {{type: uchar, count: {}, init: zero}}\n",
        n * 4 + 8,
        n * 8,
        n * 16,
        4096 + n * 2,
        n * 16
    );
    let f = differential("vec", src, &yaml, &[("a.bin", af), ("b.bin", bi)]);
    assert!(f.is_empty(), "{}", f.join("\n"));
}
