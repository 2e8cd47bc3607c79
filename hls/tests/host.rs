//! `OUT/host/` of `ocl-hls build`: the generated host programs, built for this machine,
//! run against the Verilator model of their core and give the interpreter's bytes (and
//! `ocl-hls run --engine sim`'s); bad launches fail with a message, never hang; the board
//! build cross-compiles without warnings; `OUT/rtl/NAME.core` passes FuseSoC.
//!
//! Each kernel is built, and its model made, once per test binary; the model is the
//! harness's cached one, shared with `--engine sim` (tests/datapath.rs runs the same
//! kernels), except for one kernel whose model comes from `make model` in `OUT/host`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, OnceLock};

use ocl_hls::rtl::regmap::RegisterMap;
use ocl_hls_sim::SimModel;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn conformance(name: &str) -> PathBuf {
    repo().join("../shared/conformance/kernels").join(name)
}

fn project_kernel(name: &str) -> PathBuf {
    repo().join("tests/kernels").join(name)
}

fn own(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/host")
        .join(name)
}

/// The folder of `tag` under one folder per test binary, emptied on its first use.
fn scratch_path(tag: &str) -> PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    let root = ROOT.get_or_init(|| {
        let r = Path::new(env!("CARGO_TARGET_TMPDIR")).join("host-tests");
        let _ = std::fs::remove_dir_all(&r);
        r
    });
    root.join(tag)
}

/// A fresh folder for `tag`.
fn scratch(tag: &str) -> PathBuf {
    let d = scratch_path(tag);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(o: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn ocl_hls(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ocl-hls"))
        .args(args)
        .output()
        .expect("ocl-hls runs")
}

fn ok(o: Output, what: &str) -> Output {
    assert!(o.status.success(), "{what} failed: {}", text(&o));
    o
}

/// `make TARGET` in `dir`, failing on any compiler warning.
fn make(dir: &Path, target: &str) {
    let o = Command::new("make")
        .arg("-C")
        .arg(dir)
        .arg(target)
        .output()
        .expect("make runs (apt-get install make)");
    let t = text(&o);
    assert!(o.status.success(), "make {target} failed: {t}");
    assert!(
        !t.contains("warning"),
        "make {target} printed warnings: {t}"
    );
}

/// One kernel built for the `sim` board, its host programs made, its model built, and
/// the interpreter's outputs.
struct Built {
    out: PathBuf,
    interp: PathBuf,
    model: PathBuf,
    kernel: String,
}

impl Built {
    fn host(&self) -> PathBuf {
        self.out
            .join("host")
            .join(format!("{}_host_sim", self.kernel))
    }

    /// Runs the host program with `args` (after `--device MODEL`).
    fn run(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let mut c = Command::new(self.host());
        c.arg("--device").arg(&self.model).args(args);
        for (k, v) in env {
            c.env(k, v);
        }
        c.output().expect("the host program runs")
    }

    fn input(&self, name: &str) -> String {
        format!(
            "{name}=@{}",
            self.interp.join(format!("{name}.bin")).display()
        )
    }
}

/// `model_from_make`: the model from `make model` in `OUT/host` (the user's way) instead
/// of the harness's cache (shared with `--engine sim` and the other tests).
fn build(cl: &Path, spec: &Path, tag: &str, model_from_make: bool) -> Built {
    let dir = scratch(tag);
    let out = dir.join("out");
    let cl_s = cl.to_str().unwrap();
    ok(
        ocl_hls(&[
            "build",
            cl_s,
            "--board",
            "sim",
            "-o",
            out.to_str().unwrap(),
            "--no-estimate",
        ]),
        "build",
    );
    let interp = dir.join("interp");
    ok(
        ocl_hls(&[
            "run",
            cl_s,
            "--spec",
            spec.to_str().unwrap(),
            "--out",
            interp.to_str().unwrap(),
        ]),
        "run (interpreter)",
    );
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    let k = &report["kernels"][0];
    let map: RegisterMap = serde_json::from_value(k["register_map"].clone()).unwrap();
    // The same sources in the same order as `--engine sim` gives the harness, so that
    // both find one cached model.
    let rtl: Vec<PathBuf> = k["files"]
        .as_array()
        .unwrap()
        .iter()
        .chain(k["templates"].as_array().unwrap())
        .map(|f| out.join("rtl").join(f.as_str().unwrap()))
        .collect();
    let bus = &report["bus"];
    let desc = map.core_desc(
        k["top"].as_str().unwrap(),
        rtl,
        bus["data_width"].as_u64().unwrap() as u32,
        bus["addr_width"].as_u64().unwrap() as u32,
    );
    let name = k["name"].as_str().unwrap().to_string();
    let host = out.join("host");
    make(&host, "sim");
    let model = if model_from_make {
        make(&host, "model");
        host.join(format!("{name}_model"))
    } else {
        let m = SimModel::build(&desc).unwrap_or_else(|e| panic!("model of {tag}: {e}"));
        m.exe().to_path_buf()
    };
    Built {
        out,
        interp,
        model,
        kernel: name,
    }
}

/// Each kernel built once per test binary (tests run in parallel threads).
fn built(tag: &str) -> &'static Built {
    static ALL: OnceLock<Mutex<HashMap<String, &'static OnceLock<Built>>>> = OnceLock::new();
    let cell = {
        let mut m = ALL.get_or_init(Default::default).lock().unwrap();
        *m.entry(tag.to_string())
            .or_insert_with(|| Box::leak(Box::new(OnceLock::new())))
    };
    cell.get_or_init(|| match tag {
        "vadd" => build(
            &conformance("vadd.cl"),
            &conformance("vadd.yaml"),
            tag,
            false,
        ),
        "matmul_tiled" => build(
            &conformance("matmul_tiled.cl"),
            &conformance("matmul_tiled.yaml"),
            tag,
            false,
        ),
        "reduce_local" => build(
            &conformance("reduce_local.cl"),
            &conformance("reduce_local.yaml"),
            tag,
            false,
        ),
        "scalar_args" => build(
            &project_kernel("scalar_args.cl"),
            &project_kernel("scalar_args.yaml"),
            tag,
            false,
        ),
        // Its model is nobody else's, so it comes from `make model` (the user's way).
        "scalar_widths" => build(
            &own("scalar_widths.cl"),
            &own("scalar_widths.yaml"),
            tag,
            true,
        ),
        _ => panic!("no kernel {tag}"),
    })
}

/// The host program's outputs equal the interpreter's, buffer by buffer.
fn same_as_interp(b: &Built, results: &Path, buffers: &[&str]) {
    for n in buffers {
        let got = std::fs::read(results.join(format!("{n}.bin"))).unwrap();
        let want = std::fs::read(b.interp.join(format!("{n}.bin"))).unwrap();
        assert_eq!(got.len(), want.len(), "{n}: sizes differ");
        assert!(
            got == want,
            "{n}: the host program's bytes differ from the interpreter's"
        );
    }
}

fn results(b: &Built, tag: &str) -> PathBuf {
    let d = b.out.join(format!("results-{tag}"));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn vadd_host_program_matches_interpreter_and_engine_sim() {
    let b = built("vadd");
    let res = results(b, "ok");
    let r = b.run(
        &[
            "--global",
            "1024",
            "--local",
            "64",
            "--out",
            res.to_str().unwrap(),
            &b.input("a"),
            &b.input("b"),
            "c=zero:4096",
        ],
        &[],
    );
    ok(r, "vadd_host_sim");
    same_as_interp(b, &res, &["a", "b", "c"]);
    // `ocl-hls run --engine sim` (the same cached model) writes the same bytes.
    let sim = b.out.join("engine-sim");
    ok(
        ocl_hls(&[
            "run",
            conformance("vadd.cl").to_str().unwrap(),
            "--spec",
            conformance("vadd.yaml").to_str().unwrap(),
            "--out",
            sim.to_str().unwrap(),
            "--engine",
            "sim",
        ]),
        "run --engine sim",
    );
    assert_eq!(
        std::fs::read(sim.join("c.bin")).unwrap(),
        std::fs::read(res.join("c.bin")).unwrap()
    );
}

#[test]
fn matmul_two_dimensions() {
    let b = built("matmul_tiled");
    let res = results(b, "ok");
    let r = b.run(
        &[
            "--global",
            "32,32",
            "--local",
            "8,8",
            "--out",
            res.to_str().unwrap(),
            &b.input("A"),
            &b.input("B"),
            "C=zero:4096",
            "n=32",
        ],
        &[],
    );
    ok(r, "matmul_host_sim");
    same_as_interp(b, &res, &["C"]);
}

#[test]
fn reduce_with_a_local_argument() {
    let b = built("reduce_local");
    let res = results(b, "ok");
    // The local size defaults to reqd_work_group_size.
    let r = b.run(
        &[
            "--global",
            "1024",
            "--out",
            res.to_str().unwrap(),
            &b.input("in"),
            "partial=zero:32",
            "scratch=512",
        ],
        &[],
    );
    ok(r, "reduce_sum_host_sim");
    same_as_interp(b, &res, &["partial"]);
    // More __local memory than the core holds is refused before the core starts.
    let r = b.run(
        &[
            "--global",
            "1024",
            "--out",
            res.to_str().unwrap(),
            &b.input("in"),
            "partial=zero:32",
            "scratch=100000000",
        ],
        &[],
    );
    let t = text(&r);
    assert_eq!(r.status.code(), Some(1), "{t}");
    assert!(
        t.contains("__local argument scratch asks for 100000000 bytes"),
        "{t}"
    );
}

#[test]
fn scalars_of_every_width_and_their_extremes() {
    let b = built("scalar_args");
    let res = results(b, "ok");
    let r = b.run(
        &[
            "--global",
            "1",
            "--local",
            "1",
            "--out",
            res.to_str().unwrap(),
            "c=-128",
            "uc=255",
            "s=-32768",
            "us=65535",
            "i=-2147483648",
            "ui=4294967295",
            "l=-9223372036854775808",
            "ul=18446744073709551615",
            "f=0.1",
            "d=0.1",
            "out=zero:64",
            "dout=zero:24",
        ],
        &[],
    );
    ok(r, "scalar_args_host_sim");
    same_as_interp(b, &res, &["out", "dout"]);
    let h = std::fs::read_to_string(b.out.join("host/scalar_args.h")).unwrap();
    for decl in [
        "int8_t c",
        "int16_t us",
        "int64_t ul",
        "float f",
        "double d",
        "ohls_buf *out",
    ] {
        assert!(h.contains(decl), "{decl} missing from the header:\n{h}");
    }
}

/// `make model` in OUT/host builds a model the host program runs, as a user would.
#[test]
fn the_makefile_builds_the_model() {
    let b = built("scalar_widths");
    assert!(
        b.model.starts_with(b.out.join("host")),
        "{}",
        b.model.display()
    );
    let res = results(b, "ok");
    // No --local: the core's reqd_work_group_size is the default.
    let r = b.run(
        &[
            "--global",
            "8",
            "--out",
            res.to_str().unwrap(),
            "out=zero:576",
            "c=-5",
            "uc=200",
            "s=-30000",
            "us=60000",
            "i=-2000000000",
            "ui=4000000000",
            "l=-9000000000000",
            "ul=8765432109876543210",
            "f=2.5",
        ],
        &[],
    );
    ok(r, "scalar_widths_host_sim");
    same_as_interp(b, &res, &["out"]);
    let h = std::fs::read_to_string(b.out.join("host/scalar_widths.h")).unwrap();
    for decl in [
        "int8_t c",
        "int16_t us",
        "int64_t ul",
        "float f",
        "ohls_buf *out",
    ] {
        assert!(h.contains(decl), "{decl} missing from the header:\n{h}");
    }
}

/// Arguments, environment, and what the error must say.
type BadLaunch<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);

#[test]
fn bad_launches_are_clear_errors() {
    let b = built("vadd");
    let res = results(b, "bad");
    let res_s = res.to_str().unwrap();
    let a = b.input("a");
    let bb = b.input("b");
    let cases: &[BadLaunch] = &[
        // The core is built for reqd_work_group_size(64, 1, 1).
        (
            &["--global", "1024", "--local", "32", &a, &bb, "c=zero:4096"],
            &[],
            "vadd: the core requires local size (64, 1, 1) (reqd_work_group_size), the launch gives (32, 1, 1)",
        ),
        (
            &["--global", "1000", "--local", "64", &a, &bb, "c=zero:4096"],
            &[],
            "local size 64 does not divide global size 1000 in dimension 0",
        ),
        // `c` holds 512 of the 1024 floats written: the model faults on the overrun.
        (
            &["--global", "1024", "--local", "64", &a, &bb, "c=zero:2048"],
            &[],
            "kernel vadd failed in simulation: master c, cycle",
        ),
        // The timeout, as 100 cycles: a launch that cannot finish in time fails.
        (
            &["--global", "1024", "--timeout-ms", "1", &a, &bb, "c=zero:4096"],
            &[("OHLS_SIM_CYCLES_PER_MS", "100")],
            "timeout: kernel vadd did not signal DONE within 1 ms",
        ),
    ];
    for (args, env, want) in cases {
        let mut full = vec!["--out", res_s];
        full.extend_from_slice(args);
        let started = std::time::Instant::now();
        let r = b.run(&full, env);
        let t = text(&r);
        assert_eq!(r.status.code(), Some(1), "{args:?}: {t}");
        assert!(t.contains(want), "{args:?}: expected `{want}` in {t}");
        assert!(t.contains("vadd_host_sim: error: "), "{t}");
        if want.contains("master c") {
            assert!(t.contains("write outside any buffer"), "{t}");
            assert!(t.contains("is a buffer too small for this launch?"), "{t}");
        }
        assert!(started.elapsed().as_secs() < 60, "{args:?} took too long");
    }
}

#[test]
fn board_programs_cross_compile_without_warnings() {
    if Command::new("arm-linux-gnueabihf-gcc")
        .arg("--version")
        .output()
        .is_err()
    {
        panic!(
            "arm-linux-gnueabihf-gcc is missing: run `bash scripts/install-deps.sh` \
             (or `apt-get install -y gcc-arm-linux-gnueabihf`)"
        );
    }
    // byval.cl: by-value vectors, a struct, a __local pointer and a parameter named `dev`.
    for (file, kernel) in [("scalar_widths.cl", "scalar_widths"), ("byval.cl", "byval")] {
        let out = scratch(&format!("de10-{kernel}")).join("out");
        ok(
            ocl_hls(&[
                "build",
                own(file).to_str().unwrap(),
                "--board",
                "de10",
                "-o",
                out.to_str().unwrap(),
                "--no-estimate",
                "--no-vendor",
            ]),
            "build --board de10",
        );
        let host = out.join("host");
        make(&host, "all");
        let exe = host.join(format!("{kernel}_host"));
        let o = Command::new("file").arg(&exe).output();
        if let Ok(o) = o {
            let t = String::from_utf8_lossy(&o.stdout);
            assert!(t.contains("ARM"), "{t}");
        }
        let h = std::fs::read_to_string(host.join(format!("{kernel}.h"))).unwrap();
        let up = kernel.to_uppercase();
        assert!(
            h.contains(&format!("#define {up}_CSR_ADDRESS 0xff200000u")),
            "{h}"
        );
        let readme = std::fs::read_to_string(host.join("README.md")).unwrap();
        for step in [
            "fpga load 0",
            "bridge enable",
            "mem=960M",
            "Cache coherence",
            "Not checked without a board",
        ] {
            assert!(readme.contains(step), "README lacks `{step}`");
        }
    }
    let h = std::fs::read_to_string(scratch_path("de10-byval").join("out/host/byval.h")).unwrap();
    for decl in [
        "const float v[4]",
        "const int32_t w[4]",
        "const void *p",
        "int32_t dev_arg",
        "size_t tmp_bytes",
    ] {
        assert!(h.contains(decl), "{decl} missing from the header:\n{h}");
    }
}

#[test]
fn fusesoc_accepts_the_core_file() {
    let b = built("vadd");
    let fusesoc = Path::new("/opt/ocl-hls/venv/bin/fusesoc");
    assert!(
        fusesoc.is_file(),
        "fusesoc is missing: run `bash scripts/install-deps.sh` \
         (or `/opt/ocl-hls/venv/bin/pip install fusesoc`)"
    );
    let work = scratch("fusesoc");
    let rtl = b.out.join("rtl");
    let run = |args: &[&str]| {
        let o = Command::new(fusesoc)
            .current_dir(&work)
            .arg("--cores-root")
            .arg(&rtl)
            .args(args)
            .output()
            .expect("fusesoc runs");
        let t = text(&o);
        assert!(o.status.success(), "fusesoc {args:?}: {t}");
        t
    };
    let info = run(&["core-info", "ocl-hls:kernels:vadd:0"]);
    assert!(info.contains("lint"), "{info}");
    // Verilator lint through FuseSoC (warnings are errors): the file list and the top
    // module are complete, and FuseSoC hands Verilator every Verilog file of the core.
    run(&["run", "--target", "lint", "ocl-hls:kernels:vadd:0"]);
    let vc = std::fs::read_to_string(
        work.join("build/ocl-hls_kernels_vadd_0/lint-verilator/ocl-hls_kernels_vadd_0.vc"),
    )
    .unwrap();
    assert!(vc.contains("--top-module vadd_core"), "{vc}");
    for f in std::fs::read_dir(&rtl).unwrap() {
        let name = f.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".v") {
            assert!(
                vc.contains(&format!("/{name}\n")),
                "{name} not linted: {vc}"
            );
        }
    }
}
