//! `ocl-hls run` through the real binary: outputs as SPEC.md describes them, broken ivdep
//! promises reported with their line, bad input that changes nothing, and the waveform of
//! a simulated run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn shared(name: &str) -> PathBuf {
    repo().join("../shared/conformance/kernels").join(name)
}

fn ocl_hls(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ocl-hls"))
        .args(args)
        .output()
        .expect("run ocl-hls")
}

fn run(cl: &Path, spec: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "run".as_ref(),
        cl.as_os_str(),
        "--spec".as_ref(),
        spec.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ];
    args.extend(extra.iter().map(|s| std::ffi::OsStr::new(*s)));
    // Every launch here is short: the simulator's models compile at -O0, in half the time.
    if extra.windows(2).any(|w| w == ["--engine", "sim"]) {
        args.push("--quick-model".as_ref());
    }
    ocl_hls(&args)
}

mod common;
use common::Tmp;

/// Runs `cl` with `spec` on POCL (through `ocl-ref`) with one build option, writing the
/// buffers to `out`.
fn pocl(cl: &Path, spec: &Path, out: &Path, option: &str) {
    let r = Command::new(common::ocl_ref_binary())
        .arg("run")
        .arg(cl)
        .arg("--spec")
        .arg(spec)
        .arg("--out")
        .arg(out)
        .arg(option)
        .output()
        .expect("run ocl-ref");
    assert!(
        r.status.success(),
        "ocl-ref: {}",
        String::from_utf8_lossy(&r.stderr)
    );
}

fn floats(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

#[test]
fn vadd_writes_buffers_and_run_json() {
    let t = Tmp::new("vadd");
    let out = t.0.join("out");
    let r = run(&shared("vadd.cl"), &shared("vadd.yaml"), &out, &[]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let a = floats(&std::fs::read(out.join("a.bin")).unwrap());
    let b = floats(&std::fs::read(out.join("b.bin")).unwrap());
    let c = floats(&std::fs::read(out.join("c.bin")).unwrap());
    assert_eq!(c.len(), 1024);
    for i in 0..1024 {
        assert_eq!(c[i].to_bits(), (a[i] + b[i]).to_bits(), "element {i}");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(json["kernel"], "vadd");
    assert_eq!(json["engine"], "interp");
    assert_eq!(json["global"], serde_json::json!([1024]));
    assert_eq!(json["local"], serde_json::json!([64]));
    assert_eq!(json["args"], serde_json::json!(["a", "b", "c"]));
}

#[test]
fn broken_ivdep_promise_is_reported_at_the_loop() {
    let t = Tmp::new("ivdep");
    let cl = repo().join("tests/hints/ivdep_broken.cl");
    let spec = cl.with_extension("yaml");
    let out = t.0.join("out");
    let r = run(&cl, &spec, &out, &["--check-hints"]);
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(!r.status.success());
    assert!(
        stderr.contains("ivdep_broken.cl:6:5: error: ivdep promise broken"),
        "{stderr}"
    );
    assert!(!out.exists(), "a failed run must write nothing");
    // Without the check the promise is taken at its word and the run completes.
    let r = run(&cl, &spec, &out, &[]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(out.join("A.bin").exists());
}

#[test]
fn bad_input_changes_nothing() {
    let t = Tmp::new("bad");
    let existing = t.0.join("out");
    std::fs::create_dir_all(&existing).unwrap();
    std::fs::write(existing.join("c.bin"), b"old").unwrap();
    // A spec for another kernel, a spec that does not exist, a kernel with an error.
    let broken = t.0.join("broken.cl");
    std::fs::write(
        &broken,
        "__kernel void vadd(__global float *c) { c[0] = missing; }\n",
    )
    .unwrap();
    let cases = [
        (
            shared("vadd.cl"),
            shared("fir_constant.yaml"),
            "no kernel `fir`",
        ),
        (
            shared("vadd.cl"),
            t.0.join("nope.yaml"),
            "cannot read the spec",
        ),
        (
            broken.clone(),
            shared("vadd.yaml"),
            "broken.cl:1:48: error: use of undeclared identifier",
        ),
    ];
    for (cl, spec, want) in cases {
        for out in [t.0.join("fresh"), existing.clone()] {
            let r = run(&cl, &spec, &out, &[]);
            let stderr = String::from_utf8_lossy(&r.stderr);
            assert_eq!(r.status.code(), Some(1), "{stderr}");
            assert!(stderr.contains(want), "expected `{want}` in:\n{stderr}");
        }
        assert!(!t.0.join("fresh").exists());
        assert_eq!(std::fs::read(existing.join("c.bin")).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(&existing).unwrap().count(), 1);
    }
    // An --out that holds other files is never replaced.
    let foreign = t.0.join("foreign");
    std::fs::create_dir_all(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), b"mine").unwrap();
    let r = run(&shared("vadd.cl"), &shared("vadd.yaml"), &foreign, &[]);
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(std::fs::read(foreign.join("notes.txt")).unwrap(), b"mine");
}

#[test]
fn help_shows_examples() {
    let r = ocl_hls(&["run".as_ref(), "--help".as_ref()]);
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(
        text.contains("Examples:") && text.contains("--check-hints"),
        "{text}"
    );
    let r = ocl_hls(&["--help".as_ref()]);
    assert!(String::from_utf8_lossy(&r.stdout).contains("ocl-hls check kernel.cl"));
}

/// `--engine sim --trace` leaves an FST waveform of the run beside the usual outputs (the
/// first traced run builds a traced Verilator model: needs `bash scripts/install-deps.sh`);
/// `--trace` (or `--quick-model`) without the simulator is refused before anything is
/// written.
#[test]
fn sim_run_writes_a_waveform() {
    let t = Tmp::new("trace");
    let fst = t.0.join("vadd.fst");
    let out = t.0.join("out");
    let fst_arg = fst.to_string_lossy().into_owned();
    let r = run(
        &shared("vadd.cl"),
        &shared("vadd.yaml"),
        &out,
        &["--engine", "sim", "--trace", &fst_arg],
    );
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let head = std::fs::read(&fst).expect("the trace file");
    // An FST file starts with its header block, block type 0.
    assert!(head.len() > 1000, "trace of {} bytes", head.len());
    assert_eq!(head[0], 0, "not an FST header block");
    let run_json = std::fs::read_to_string(out.join("run.json")).unwrap();
    assert!(run_json.contains("\"cycles\""), "{run_json}");

    let out2 = t.0.join("out2");
    let vcd = t.0.join("x.vcd");
    let r = run(
        &shared("vadd.cl"),
        &shared("vadd.yaml"),
        &out2,
        &["--trace", &vcd.to_string_lossy()],
    );
    assert!(!r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("--trace needs --engine sim"));
    assert!(!out2.exists() && !vcd.exists(), "nothing written");
    // So is `--quick-model`, which says how the simulator's model is compiled.
    let r = run(
        &shared("vadd.cl"),
        &shared("vadd.yaml"),
        &out2,
        &["--quick-model"],
    );
    assert!(!r.status.success());
    assert!(String::from_utf8_lossy(&r.stderr).contains("--quick-model needs --engine sim"));
    assert!(!out2.exists(), "nothing written");
}

#[test]
fn a_launch_with_another_local_size_than_reqd_fails_in_both_engines() {
    // stencil2d_local sizes its tile for 16 x 16 work-items: a launch of 8 x 8 groups is
    // refused with the kernel's required size, and nothing is written, in the
    // interpreter and in Verilator alike (the core itself also refuses it: error code
    // 0x10, `hls/tests/datapath.rs`).
    let t = Tmp::new("local_size");
    let spec = std::fs::read_to_string(shared("stencil2d_local.yaml")).unwrap();
    assert!(spec.contains("local: [16, 16]"), "{spec}");
    let bad = t.0.join("stencil_8x8.yaml");
    std::fs::write(&bad, spec.replace("local: [16, 16]", "local: [8, 8]")).unwrap();
    for engine in ["interp", "sim"] {
        let out = t.0.join(engine);
        let r = run(
            &shared("stencil2d_local.cl"),
            &bad,
            &out,
            &["--engine", engine],
        );
        let stderr = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(1), "{engine}: {stderr}");
        assert!(
            stderr
                .contains("local [8, 8] differs from the kernel's reqd_work_group_size(16, 16, 1)"),
            "{engine}: {stderr}"
        );
        assert!(!out.exists(), "{engine}");
    }
}

/// Distance of `got` from the real number `exact` in units in the last place of an f32
/// at `exact`'s magnitude (the measure OpenCL's accuracy tables use).
fn ulps(got: f32, exact: f64) -> f64 {
    let ulp = (exact.abs().log2().floor() - 23.0).exp2();
    (f64::from(got) - exact).abs() / ulp
}

/// `-cl-fast-relaxed-math` reaches all three engines: the interpreter and Verilator run the
/// same optimized IR (divisions by constants are multiplies by the reciprocal) and give the
/// same bits, POCL compiles with the same option, and both stay within OpenCL's
/// relaxed-math bound for `x / y` (2.5 ulp, OpenCL 1.2 section 7.4) of the real quotient.
/// Without the option, or with `--no-opt`, the interpreter's quotients are the correctly
/// rounded ones, so the option is seen to change results (and the kernel's plain three-way
/// check in `datapath.rs` and `interp.rs` holds bit for bit).
#[test]
fn fast_relaxed_math_reaches_pocl_the_interpreter_and_verilator() {
    let t = Tmp::new("fast_math");
    let cl = repo().join("tests/kernels/fast_math_div.cl");
    let spec = cl.with_extension("yaml");
    let flag = "-cl-fast-relaxed-math";
    let out_bin = |dir: &str, engine: &str, extra: &[&str]| -> Vec<f32> {
        let out = t.0.join(dir);
        let r = run(&cl, &spec, &out, &[&["--engine", engine], extra].concat());
        assert!(
            r.status.success(),
            "{engine}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
        floats(&std::fs::read(out.join("out.bin")).unwrap())
    };
    let interp = out_bin("interp", "interp", &[flag]);
    let sim = out_bin("sim", "sim", &[flag]);
    let exact_interp = out_bin("interp-exact", "interp", &[]);
    let no_opt = out_bin("interp-no-opt", "interp", &["--no-opt", flag]);
    assert!(
        no_opt
            .iter()
            .zip(&exact_interp)
            .all(|(a, b)| a.to_bits() == b.to_bits()),
        "--no-opt {flag}: the interpreter still rewrote a division"
    );
    let pocl_dir = t.0.join("pocl");
    pocl(&cl, &spec, &pocl_dir, flag);
    let pocl = floats(&std::fs::read(pocl_dir.join("out.bin")).unwrap());
    let x = floats(&std::fs::read(t.0.join("interp/x.bin")).unwrap());
    let w = floats(&std::fs::read(t.0.join("interp/w.bin")).unwrap());

    if let Some(j) = (0..sim.len()).find(|&j| sim[j].to_bits() != interp[j].to_bits()) {
        panic!(
            "with {flag}, Verilator and the interpreter differ first at out[{j}]: {:e} and {:e}",
            sim[j], interp[j]
        );
    }
    let mut rewritten = 0;
    for i in 0..256 {
        let v = f64::from(x[i]);
        let exact = [
            v / 3.0,
            v / 10.0,
            f64::from(x[i] + 1.0) / f64::from(0.7f32),
            v / f64::from(w[i]),
        ];
        for (k, e) in exact.iter().enumerate() {
            let j = 4 * i + k;
            for (who, got) in [("interpreter", interp[j]), ("POCL", pocl[j])] {
                assert!(
                    ulps(got, *e) <= 2.5,
                    "{who}: out[{j}] = {got:e} is {:.2} ulp from {e:e}",
                    ulps(got, *e)
                );
            }
            assert!(ulps(exact_interp[j], *e) <= 0.5, "out[{j}] without {flag}");
            rewritten += usize::from(interp[j].to_bits() != exact_interp[j].to_bits());
        }
    }
    assert!(
        rewritten > 0,
        "{flag} changed no quotient: the reciprocal rewrite did not reach the run"
    );
}

/// Runs `cl` on `engine` with the `extra` options into `out`: the floats of the buffers
/// `bufs`, one after another, and the run record.
fn run_floats(
    cl: &Path,
    spec: &Path,
    out: &Path,
    engine: &str,
    extra: &[&str],
    bufs: &[&str],
) -> (Vec<f32>, serde_json::Value) {
    let r = run(cl, spec, out, &[&["--engine", engine], extra].concat());
    assert!(
        r.status.success(),
        "{engine} {extra:?}: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    let record = std::fs::read_to_string(out.join("run.json")).unwrap();
    let v = bufs
        .iter()
        .flat_map(|b| floats(&std::fs::read(out.join(format!("{b}.bin"))).unwrap()))
        .collect();
    (v, serde_json::from_str(&record).unwrap())
}

/// Each pipelined loop of a simulated run (its location, with ` xN` for a copy of a loop
/// unrolled by N) and its built II, sorted.
fn loop_iis(r: &serde_json::Value) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = r["loops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let at = l["location"].as_str().unwrap().to_string();
            let unroll = l["unroll"]
                .as_u64()
                .map_or(String::new(), |u| format!(" x{u}"));
            (at + &unroll, l["ii"].as_u64().unwrap())
        })
        .collect();
    v.sort();
    v
}

/// `-cl-unsafe-math-optimizations` lets float sums be reassociated: the interpreter and
/// Verilator split every accumulator of `sum_relaxed` into the same partial sums and give
/// the same bits, the loops are built at the II their memory accesses allow (without the
/// option: 6, the float adder's latency; 24 for the loop unrolled by 4; 5 for fma), and
/// the interpreter's and POCL's sums (POCL compiled with the same option) are each within
/// the error bound of a sum added in any order. Without the option the interpreter adds
/// in source order, bit for bit.
#[test]
fn unsafe_math_reassociates_float_sums_in_the_interpreter_and_verilator_alike() {
    let t = Tmp::new("sum_relaxed");
    let cl = repo().join("tests/kernels/sum_relaxed.cl");
    let spec = cl.with_extension("yaml");
    let flag = "-cl-unsafe-math-optimizations";
    let go = |dir: &str, engine: &str, extra: &[&str]| {
        run_floats(&cl, &spec, &t.0.join(dir), engine, extra, &["out"])
    };
    let (interp, _) = go("interp", "interp", &[flag]);
    let (sim, relaxed_run) = go("sim", "sim", &[flag]);
    let (in_order, _) = go("interp-in-order", "interp", &[]);
    let (_, plain_run) = go("sim-in-order", "sim", &[]);

    // The loops at sum_relaxed.cl lines 14, 21 (unrolled by 4: its copies, and the
    // remainder one at a time), 29, 36 and 42, with their IIs.
    let loops = |ii: [u64; 6]| -> Vec<(String, u64)> {
        [
            "sum_relaxed.cl:14:5",
            "sum_relaxed.cl:21:5 x1",
            "sum_relaxed.cl:21:5 x4",
            "sum_relaxed.cl:29:9",
            "sum_relaxed.cl:36:5",
            "sum_relaxed.cl:42:5",
        ]
        .iter()
        .map(|s| s.to_string())
        .zip(ii)
        .collect()
    };
    // The dot product's two loads of `x` share its one load unit: II 2. The prefix sum
    // is not reordered: II 6.
    assert_eq!(
        loop_iis(&relaxed_run),
        loops([1, 1, 1, 1, 2, 6]),
        "with {flag}"
    );
    assert_eq!(
        loop_iis(&plain_run),
        loops([6, 6, 24, 6, 5, 6]),
        "without {flag}"
    );

    let pocl_dir = t.0.join("pocl");
    pocl(&cl, &spec, &pocl_dir, flag);
    let pocl = floats(&std::fs::read(pocl_dir.join("out.bin")).unwrap());
    let x = floats(&std::fs::read(t.0.join("interp/x.bin")).unwrap());

    if let Some(j) = (0..sim.len()).find(|&j| sim[j].to_bits() != interp[j].to_bits()) {
        panic!(
            "with {flag}, Verilator and the interpreter differ first at out[{j}]: {:e} and {:e}",
            sim[j], interp[j]
        );
    }
    // Each sum: its start, its terms (exact in f64: `d -= x * 0.25f` adds the negated
    // product, exact in f32; a product of two floats is exact in f64) and the sum added in
    // source order.
    let (n, rows) = (1000, 8);
    let cols = n / rows;
    let f = f64::from;
    let mut sums: Vec<(f32, Vec<f64>, f32)> = vec![
        (
            0.0,
            x[..n].iter().map(|&v| f(v)).collect(),
            x[..n].iter().fold(0.0, |s, v| s + v),
        ),
        (
            100.0,
            x[..n].iter().map(|&v| -f(v * 0.25)).collect(),
            x[..n].iter().fold(100.0, |d, v| d - v * 0.25),
        ),
    ];
    sums.extend((0..rows).map(|r| {
        let row = &x[r * cols..(r + 1) * cols];
        (
            0.0,
            row.iter().map(|&v| f(v)).collect(),
            row.iter().fold(0.0, |s, v| s + v),
        )
    }));
    sums.push((
        0.0,
        (0..n).map(|i| f(x[i]) * f(x[n - 1 - i])).collect(),
        (0..n).fold(0.0f32, |s, i| x[i].mul_add(x[n - 1 - i], s)),
    ));
    assert_eq!(sums.len(), sim.len());
    let mut reordered = 0;
    for (k, (start, terms, seq)) in sums.iter().enumerate() {
        assert_eq!(
            in_order[k].to_bits(),
            seq.to_bits(),
            "out[{k}] without {flag}: {:e}, added in source order {seq:e}",
            in_order[k]
        );
        // Any order of n additions rounds at most n + (partials) times, each by at most
        // 2^-24 of a partial sum no larger than the sum of magnitudes.
        let exact: f64 = f(*start) + terms.iter().sum::<f64>();
        let mag: f64 = f(start.abs()) + terms.iter().map(|t| t.abs()).sum::<f64>();
        let bound = (terms.len() + 64) as f64 * (-24f64).exp2() * mag;
        for (who, got) in [("interpreter", interp[k]), ("POCL", pocl[k])] {
            assert!(
                (f(got) - exact).abs() <= bound,
                "{who}: out[{k}] = {got:e} is {:e} from the exact sum {exact:e} (bound {bound:e})",
                (f(got) - exact).abs()
            );
        }
        reordered += usize::from(interp[k].to_bits() != seq.to_bits());
    }
    assert!(
        reordered > 0,
        "{flag} changed no sum: the partial sums did not reach the run"
    );
    // The prefix sum stores each partial result: added in source order, whatever the option.
    let pre = floats(&std::fs::read(t.0.join("interp/pre.bin")).unwrap());
    let sim_pre = floats(&std::fs::read(t.0.join("sim/pre.bin")).unwrap());
    let mut p = 0.0f32;
    for i in 0..n {
        p += x[i];
        assert_eq!(pre[i].to_bits(), p.to_bits(), "pre[{i}] with {flag}");
        assert_eq!(
            sim_pre[i].to_bits(),
            p.to_bits(),
            "pre[{i}] in Verilator with {flag}"
        );
    }
}

/// `-cl-mad-enable` lets a multiply-add be fused: the interpreter and Verilator fuse the
/// ones on loop recurrences of `mad_recurrence` into fma, bit for bit the correctly rounded
/// fused recursion (Rust's `mul_add`), and leave the one off any recurrence as a multiply
/// and an add (differences too: `u * a - x`, `c - v * a`); the loops are built at the
/// fused unit's latency (II 5, against 10 and 6).
/// POCL, compiled with the same option, stays within the rounding bound of the exact
/// results. Without the option every product and sum is rounded, bit for bit.
#[test]
fn mad_enable_fuses_multiply_adds_on_recurrences_in_the_interpreter_and_verilator_alike() {
    let t = Tmp::new("mad_recurrence");
    let cl = repo().join("tests/kernels/mad_recurrence.cl");
    let spec = cl.with_extension("yaml");
    let flag = "-cl-mad-enable";
    let go = |dir: &str, engine: &str, extra: &[&str]| {
        run_floats(&cl, &spec, &t.0.join(dir), engine, extra, &["y", "out"])
    };
    let (interp, _) = go("interp", "interp", &[flag]);
    let (sim, fused_run) = go("sim", "sim", &[flag]);
    let (plain, _) = go("interp-plain", "interp", &[]);
    let (_, plain_run) = go("sim-plain", "sim", &[]);
    let loops = |a: u64, b: u64, c: u64| {
        vec![
            ("mad_recurrence.cl:14:5".to_string(), a),
            ("mad_recurrence.cl:21:5".to_string(), b),
            ("mad_recurrence.cl:30:5".to_string(), c),
        ]
    };
    assert_eq!(loop_iis(&fused_run), loops(5, 5, 5), "with {flag}");
    assert_eq!(loop_iis(&plain_run), loops(10, 6, 10), "without {flag}");

    let x = floats(&std::fs::read(t.0.join("interp/x.bin")).unwrap());
    let c = floats(&std::fs::read(t.0.join("interp/c.bin")).unwrap());
    let (a, n) = (0.7f32, 500);
    let recursion = |fused: bool| -> Vec<f32> {
        let mut s = 0.0f32;
        let mut v: Vec<f32> = x[..n]
            .iter()
            .map(|&xi| {
                s = if fused { s.mul_add(a, xi) } else { s * a + xi };
                s
            })
            .collect();
        v.push((0..n).fold(0.0f32, |d, i| {
            if fused {
                x[i].mul_add(c[i], d)
            } else {
                d + x[i] * c[i]
            }
        }));
        v.push(x[0] * c[0] + x[1]);
        let (u, w) = (0..n).fold((1.0f32, 0.0f32), |(u, w), i| {
            if fused {
                (u.mul_add(a, -x[i]), (-w).mul_add(a, c[i]))
            } else {
                (u * a - x[i], c[i] - w * a)
            }
        });
        v.extend([u, w]);
        v
    };
    let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<u32>>();
    assert_eq!(
        bits(&sim),
        bits(&interp),
        "with {flag}: Verilator and the interpreter"
    );
    assert_eq!(
        bits(&interp),
        bits(&recursion(true)),
        "with {flag}: the fused results"
    );
    assert_eq!(bits(&plain), bits(&recursion(false)), "without {flag}");
    assert_ne!(bits(&interp), bits(&plain), "{flag} changed no result");

    let pocl_dir = t.0.join("pocl");
    pocl(&cl, &spec, &pocl_dir, flag);
    let mut pocl = floats(&std::fs::read(pocl_dir.join("y.bin")).unwrap());
    pocl.extend(floats(&std::fs::read(pocl_dir.join("out.bin")).unwrap()));
    // The exact results, and a bound on either rounding: two per step of the filter,
    // damped by a = 0.7 (so at most 2 / (1 - 0.7) < 7 roundings of values below 1 / 0.3);
    // n + 1 per dot product, each below the sum of magnitudes.
    let f = f64::from;
    let mut s = 0.0f64;
    let mut exact: Vec<f64> = x[..n]
        .iter()
        .map(|&xi| {
            s = s * f(a) + f(xi);
            s
        })
        .collect();
    exact.push((0..n).map(|i| f(x[i]) * f(c[i])).sum());
    exact.push(f(x[0]) * f(c[0]) + f(x[1]));
    let (u, w) = (0..n).fold((1.0f64, 0.0f64), |(u, w), i| {
        (u * f(a) - f(x[i]), f(c[i]) - w * f(a))
    });
    exact.extend([u, w]);
    let eps = (-24f64).exp2();
    let mag: f64 = (0..n).map(|i| (f(x[i]) * f(c[i])).abs()).sum();
    for (j, e) in exact.iter().enumerate() {
        let bound = if j == n {
            (n + 1) as f64 * eps * mag
        } else {
            8.0 * eps * 4.0
        };
        for (who, got) in [("interpreter", interp[j]), ("POCL", pocl[j])] {
            assert!(
                (f(got) - e).abs() <= bound,
                "{who}: [{j}] = {got:e} is {:e} from the exact {e:e} (bound {bound:e})",
                (f(got) - e).abs()
            );
        }
    }
}

/// The datapath chosen with area alone in the prices (`--latency-weight 0`: dividers
/// kept where the default makes multiplies) gives the interpreter's bytes in Verilator.
#[test]
fn an_area_only_datapath_gives_the_interpreters_bytes() {
    let t = Tmp::new("latency_weight_sim");
    let cl = repo().join("tests/kernels/unroll_unknown.cl");
    let spec = repo().join("tests/kernels/unroll_unknown.yaml");
    let (sim, interp) = (t.0.join("sim"), t.0.join("interp"));
    for (out, engine) in [(&sim, "sim"), (&interp, "interp")] {
        let r = run(
            &cl,
            &spec,
            out,
            &["--engine", engine, "--latency-weight", "0"],
        );
        assert!(
            r.status.success(),
            "{engine}: {}",
            String::from_utf8_lossy(&r.stderr)
        );
    }
    for buf in ["out.bin", "sums.bin"] {
        let (a, b) = (
            std::fs::read(sim.join(buf)).unwrap(),
            std::fs::read(interp.join(buf)).unwrap(),
        );
        assert!(a == b, "{buf}: Verilator and the interpreter differ");
    }
    let units: serde_json::Value =
        serde_json::from_slice(&std::fs::read(sim.join("run.json")).unwrap()).unwrap();
    assert!(units["cycles"].as_u64().is_some_and(|c| c > 0), "{units}");
}
