//! `ocl-hls build` through the real binary: the output folder's files, report.json, the
//! Quartus skeleton, lint of the written RTL, all-or-nothing on bad input, the refusal to
//! replace an unrelated folder, and byte-identical rebuilds.
//!
//! Builds use the real datapath generator; the hidden `--stub-datapath` (the shell's stub
//! datapath) is checked to give the same folder shape.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shared(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/conformance/kernels")
        .join(name)
}

fn build(cl: &Path, board: &str, out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<&OsStr> = vec![
        "build".as_ref(),
        cl.as_os_str(),
        "--board".as_ref(),
        board.as_ref(),
        "-o".as_ref(),
        out.as_os_str(),
    ];
    args.extend(extra.iter().map(OsStr::new));
    Command::new(env!("CARGO_BIN_EXE_ocl-hls"))
        .args(args)
        .output()
        .expect("run ocl-hls")
}

/// Without the Yosys estimates (hls/tests/estimate.rs checks those): minutes per
/// kernel, and their timings would make rebuilt reports differ. Without the vendor run
/// (hls/tests/quartus_project.rs drives it with fake tools), so a machine with Quartus
/// does not start real compiles.
fn gen_build(cl: &Path, board: &str, out: &Path) -> Output {
    build(cl, board, out, &["--no-estimate", "--no-vendor"])
}

fn ok(r: &Output) {
    assert!(
        r.status.success(),
        "ocl-hls build failed:\n{}\n{}",
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
}

fn stderr(r: &Output) -> String {
    String::from_utf8_lossy(&r.stderr).into_owned()
}

mod common;
use common::Tmp;

/// Every file under `dir` by relative path, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, d: &Path, into: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, into);
            } else {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                into.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    let mut m = BTreeMap::new();
    walk(dir, dir, &mut m);
    m
}

fn listing(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The Verilog files of `d` (an `rtl/` also holds the cores' FuseSoC `.core` files).
fn verilog(d: &Path) -> Vec<String> {
    listing(d)
        .into_iter()
        .filter(|f| f.ends_with(".v"))
        .collect()
}

fn report(out: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap()
}

const VADD_TEMPLATES: [&str; 8] = [
    "ohls_axi_burst_gen.v",
    "ohls_axi_rd.v",
    "ohls_axi_wr.v",
    "ohls_axil_csr.v",
    "ohls_fifo.v",
    "ohls_fifo_ram.v",
    "ohls_fifo_reg.v",
    "ohls_skid_buffer.v",
];

/// Every `ohls_*` template file in `rtl` is instantiated by another file there: nothing
/// is copied that the cores do not use.
fn assert_only_used_templates(rtl: &Path) {
    let all = files(rtl);
    for name in all.keys().filter(|n| n.starts_with("ohls_")) {
        let module = name.trim_end_matches(".v");
        let used = all.iter().any(|(other, text)| {
            other != name
                && String::from_utf8_lossy(text)
                    .lines()
                    .map(|l| l.split("//").next().unwrap_or(""))
                    .any(|code| code.split_whitespace().next() == Some(module))
        });
        assert!(used, "{name} is copied but no file instantiates it");
    }
}

#[test]
fn the_stub_datapath_needs_only_the_shell_templates() {
    let t = Tmp::new("stub");
    let out = t.0.join("out");
    ok(&build(
        &shared("vadd.cl"),
        "sim",
        &out,
        &["--stub-datapath"],
    ));
    let mut want: Vec<String> = vec![
        "vadd.core".into(),
        "vadd_core.v".into(),
        "vadd_datapath.v".into(),
    ];
    want.extend(VADD_TEMPLATES.iter().map(|t| t.to_string()));
    want.sort();
    assert_eq!(listing(&out.join("rtl")), want);
    assert_eq!(report(&out)["kernels"][0]["schedule"]["datapath"], "stub");
}

#[test]
fn vadd_for_sim_writes_rtl_and_report() {
    let t = Tmp::new("sim");
    let out = t.0.join("out");
    let r = gen_build(&shared("vadd.cl"), "sim", &out);
    ok(&r);
    let j = report(&out);
    let k = &j["kernels"][0];
    let names = |key: &str| -> Vec<String> {
        k[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| format!("rtl/{}", v.as_str().unwrap()))
            .collect()
    };
    let mut want = vec![
        "report.html".to_string(),
        "report.json".to_string(),
        "rtl/vadd.core".to_string(),
    ];
    want.extend(names("files"));
    want.extend(names("templates"));
    want.sort();
    // host/ is tested in tests/host.rs.
    let got: Vec<String> = files(&out)
        .into_keys()
        .filter(|f| !f.starts_with("host/"))
        .collect();
    assert_eq!(
        got, want,
        "no quartus/ for sim; the core's files, templates and FuseSoC core file only"
    );
    assert!(got.contains(&"rtl/vadd_core.v".to_string()), "{got:?}");
    assert_only_used_templates(&out.join("rtl"));
    assert!(k["schedule"].is_object(), "the generator's report: {k}");
    assert_eq!(j["board"]["name"], "sim");
    assert_eq!(j["bus"]["data_width"], 256);
    assert_eq!(j["tool"]["name"], "ocl-hls");
    assert_eq!(j["command"][1], "build");
    assert_eq!(j["command"][6], out.display().to_string());
    assert_eq!(k["name"], "vadd");
    assert!(
        k["location"].as_str().unwrap().ends_with("vadd.cl:3:6"),
        "{k}"
    );
    assert_eq!(k["top"], "vadd_core");
    assert_eq!(k["params"][2]["name"], "c");
    assert_eq!(
        k["attributes"]["reqd_work_group_size"],
        serde_json::json!([64, 1, 1])
    );
    let args = k["register_map"]["args"].as_array().unwrap();
    assert_eq!(args.len(), 3);
    assert_eq!(args[0]["offset"], 0x40);
    assert_eq!(args[2]["kind"]["buffer"]["constant"], false, "{k}");
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(
        stdout.contains("vadd") && stdout.contains("wrote"),
        "{stdout}"
    );
    let err = stderr(&r);
    for stage in ["checking", "lowering", "generating kernel vadd", "writing"] {
        assert!(err.contains(stage), "progress `{stage}` missing:\n{err}");
    }
    assert_eq!(listing(&t.0), vec!["out"], "no temporary folder left");
}

#[test]
fn vadd_for_de10_writes_the_quartus_skeleton() {
    let t = Tmp::new("de10");
    let out = t.0.join("out");
    ok(&gen_build(&shared("vadd.cl"), "de10", &out));
    assert_eq!(
        listing(&out.join("quartus")),
        vec![
            "README.md",
            "build.sh",
            "ip",
            "ohls_top.v",
            "vadd.qpf",
            "vadd.qsf",
            "vadd.sdc",
            "vadd_system.tcl"
        ]
    );
    let qsf = std::fs::read_to_string(out.join("quartus/vadd.qsf")).unwrap();
    assert!(
        qsf.contains("set_global_assignment -name DEVICE 5CSEBA6U23I7"),
        "{qsf}"
    );
    assert!(qsf.contains("FAMILY \"Cyclone V\""), "{qsf}");
    assert!(
        qsf.contains("set_location_assignment PIN_V11 -to FPGA_CLK1_50"),
        "{qsf}"
    );
    assert!(
        qsf.contains("IO_STANDARD \"3.3-V LVTTL\" -to FPGA_CLK1_50"),
        "{qsf}"
    );
    // Every RTL file is in the project, and only those.
    let rtl = verilog(&out.join("rtl"));
    let named: Vec<&str> = qsf
        .lines()
        .filter_map(|l| l.strip_prefix("set_global_assignment -name VERILOG_FILE ../rtl/"))
        .collect();
    let mut named: Vec<String> = named.into_iter().map(String::from).collect();
    named.sort();
    assert_eq!(named, rtl);
    let sdc = std::fs::read_to_string(out.join("quartus/vadd.sdc")).unwrap();
    assert!(
        sdc.contains("create_clock -name FPGA_CLK1_50 -period 20.000"),
        "{sdc}"
    );
    let readme = std::fs::read_to_string(out.join("quartus/README.md")).unwrap();
    assert!(
        readme.contains("quartus_sh --flow compile vadd"),
        "{readme}"
    );
    assert!(readme.contains("Platform Designer"), "{readme}");
    let j = report(&out);
    assert_eq!(j["board"]["name"], "de10-nano");
    assert_eq!(j["board"]["device"]["part"], "5CSEBA6U23I7");
    assert_eq!(j["bus"]["data_width"], 256);
    assert_eq!(j["bus"]["max_burst"], 16);
}

#[test]
fn written_rtl_lints_clean_with_the_core_as_top() {
    let t = Tmp::new("lint");
    for board in ["sim", "de10"] {
        let out = t.0.join(board);
        ok(&gen_build(&shared("vadd.cl"), board, &out));
        let sources: Vec<PathBuf> = verilog(&out.join("rtl"))
            .into_iter()
            .map(|f| out.join("rtl").join(f))
            .collect();
        if let Err(e) = rtl_templates::verilator::lint("vadd_core", &sources, &[]) {
            panic!("{board}: {e}");
        }
    }
}

fn assert_nothing_written(root: &Path, r: &Output, what: &str) {
    assert_eq!(r.status.code(), Some(1), "{what}: exit code\n{}", stderr(r));
    assert!(
        listing(root).iter().all(|n| n == "src"),
        "{what}: {:?}",
        listing(root)
    );
}

#[test]
fn bad_input_writes_nothing() {
    let t = Tmp::new("bad");
    let src = t.0.join("src");
    std::fs::create_dir(&src).unwrap();
    let out = t.0.join("deeper/out");

    let syntax = src.join("syntax.cl");
    std::fs::write(
        &syntax,
        "__kernel void k(__global int *a)\n{\n    a[0] = ;\n}\n",
    )
    .unwrap();
    let r = gen_build(&syntax, "sim", &out);
    assert_nothing_written(&t.0, &r, "syntax error");
    assert!(stderr(&r).contains("syntax.cl:3:"), "{}", stderr(&r));

    let r = gen_build(&shared("vadd.cl"), "no-such-board", &out);
    assert_nothing_written(&t.0, &r, "unknown board");
    assert!(
        stderr(&r).contains("unknown board `no-such-board`"),
        "{}",
        stderr(&r)
    );

    let r = build(
        &shared("vadd.cl"),
        "sim",
        &out,
        &["--kernel", "nope", "--stub-datapath"],
    );
    assert_nothing_written(&t.0, &r, "unknown kernel");
    assert!(stderr(&r).contains("no kernel `nope`"), "{}", stderr(&r));

    // 52 argument words: more than the control port's 48, for any datapath.
    let big = src.join("big.cl");
    std::fs::write(
        &big,
        "typedef struct { int v[50]; } big_t;\n\
         __kernel void big(__global int *out, big_t s)\n\
         {\n    out[get_global_id(0)] = s.v[0];\n}\n",
    )
    .unwrap();
    for extra in [&["--stub-datapath"][..], &[]] {
        let r = build(&big, "sim", &out, extra);
        assert_nothing_written(&t.0, &r, "unsupported kernel");
        assert!(stderr(&r).contains("big.cl:2:"), "{}", stderr(&r));
    }
}

#[test]
fn an_unrelated_folder_is_not_replaced() {
    let t = Tmp::new("foreign");
    let out = t.0.join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let r = gen_build(&shared("vadd.cl"), "sim", &out);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        stderr(&r).contains("not an earlier output"),
        "{}",
        stderr(&r)
    );
    assert_eq!(listing(&out), vec!["notes.txt"]);
    assert_eq!(listing(&t.0), vec!["out"]);
}

#[test]
fn rebuilding_replaces_the_output_with_identical_bytes() {
    let t = Tmp::new("det");
    let out = t.0.join("out");
    ok(&gen_build(&shared("vadd.cl"), "de10", &out));
    let first = files(&out);
    // A stale file in an earlier output does not survive a rebuild.
    std::fs::write(out.join("rtl/stale.v"), "module stale; endmodule\n").unwrap();
    ok(&gen_build(&shared("vadd.cl"), "de10", &out));
    let second = files(&out);
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        second.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &first {
        assert!(second[name] == *bytes, "{name} differs between builds");
    }
    assert_eq!(listing(&t.0), vec!["out"]);
}

#[test]
fn help_has_examples() {
    let r = Command::new(env!("CARGO_BIN_EXE_ocl-hls"))
        .args(["build", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(
        text.contains("Examples:") && text.contains("--board de10"),
        "{text}"
    );
    assert!(
        !text.contains("stub-datapath"),
        "the stub switch is for tests only"
    );
}

/// Every conformance kernel either builds (OUT with report.json, RTL that lints clean with
/// each core as top) or is refused with an error at a source position and writes nothing.
/// (Build time is measured by the benchmark, not here.)
#[test]
fn every_conformance_kernel_builds_or_is_refused_at_a_line() {
    let t = Tmp::new("all");
    let dir = shared("");
    let mut kernels: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl"))
        .collect();
    kernels.sort();
    assert!(
        kernels.len() >= 10,
        "conformance kernels missing in {}",
        dir.display()
    );
    for cl in &kernels {
        let stem = cl.file_stem().unwrap().to_string_lossy().into_owned();
        let out = t.0.join(&stem);
        let r = gen_build(cl, "de10", &out);
        match r.status.code() {
            Some(0) => {
                let j = report(&out);
                let cores = j["kernels"].as_array().unwrap();
                assert!(!cores.is_empty(), "{stem}");
                assert!(out.join("quartus").is_dir(), "{stem}");
                let sources: Vec<PathBuf> = verilog(&out.join("rtl"))
                    .into_iter()
                    .map(|f| out.join("rtl").join(f))
                    .collect();
                for k in cores {
                    let top = k["top"].as_str().expect("top module in report.json");
                    if let Err(e) = rtl_templates::verilator::lint(top, &sources, &[]) {
                        panic!("{stem}: {e}");
                    }
                }
            }
            Some(1) => {
                let err = stderr(&r);
                let at_line = err.lines().any(|l| {
                    l.split_once(&format!("{stem}.cl:"))
                        .is_some_and(|(_, rest)| rest.contains(": error:"))
                });
                assert!(at_line, "{stem}: refused without a source position:\n{err}");
                assert!(!out.exists(), "{stem}: refused but wrote {}", out.display());
            }
            c => panic!("{stem}: exit {c:?}\n{}", stderr(&r)),
        }
    }
    let leftovers: Vec<String> = listing(&t.0)
        .into_iter()
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary folders left: {leftovers:?}"
    );
}

#[test]
fn every_kernel_or_the_one_named() {
    let t = Tmp::new("two");
    let cl = t.0.join("two.cl");
    std::fs::write(
        &cl,
        "__kernel void first(__global int *a) { a[get_global_id(0)] += 1; }\n\
         __kernel void second(__global int *b) { b[get_global_id(0)] *= 2; }\n",
    )
    .unwrap();
    let both = t.0.join("both");
    ok(&gen_build(&cl, "sim", &both));
    let names: Vec<String> = report(&both)["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, vec!["first", "second"]);
    let rtl = listing(&both.join("rtl"));
    assert!(rtl.contains(&"first_core.v".into()) && rtl.contains(&"second_core.v".into()));
    let one = t.0.join("one");
    ok(&build(&cl, "sim", &one, &["--kernel", "second"]));
    assert_eq!(report(&one)["kernels"].as_array().unwrap().len(), 1);
    let rtl = listing(&one.join("rtl"));
    assert!(rtl.contains(&"second_core.v".into()), "{rtl:?}");
    assert!(!rtl.iter().any(|f| f.starts_with("first")), "{rtl:?}");
}

/// `--explain-rewrites` names each kept rewrite at its source line with the expression
/// before and after and its saving; `--no-opt` turns the stage off, which changes the
/// datapath (vadd's global id is added 64 bits wide again).
#[test]
fn explain_rewrites_and_no_opt() {
    let t = Tmp::new("explain");
    let (on, off) = (t.0.join("on"), t.0.join("off"));
    let extra = ["--no-estimate", "--no-vendor", "--explain-rewrites"];
    let r = build(&shared("vadd.cl"), "sim", &on, &extra);
    ok(&r);
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(
        text.contains("opt: kernel vadd: 3 of 3 blocks rewritten"),
        "{text}"
    );
    // `i` is forwarded into the addresses, so the roots are the address computations.
    assert!(
        text.contains("vadd.cl:6:5: (ptradd in3 (mul (add (add (mul in0 64i64) in1) in2) 4i64))"),
        "{text}"
    );
    // The group's base has six known zero bits below the local id's range, so the
    // 64-bit add becomes an `or` of disjoint bits: no carry chain at all.
    assert!(
        text.contains("=> (ptradd in3 (mul (or (mul in0 64i64) in1) 4i64))"),
        "{text}"
    );
    assert!(text.contains("add-disjoint x"), "{text}");
    assert!(text.contains("narrow-add x"), "{text}");
    assert!(text.contains("saves "), "{text}");
    let mut extra_off = extra.to_vec();
    extra_off.push("--no-opt");
    let r = build(&shared("vadd.cl"), "sim", &off, &extra_off);
    ok(&r);
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(
        text.contains("opt: kernel vadd: the stage is off (--no-opt)"),
        "{text}"
    );
    let dp = |d: &Path| std::fs::read_to_string(d.join("rtl/vadd_datapath.v")).expect("datapath");
    assert_ne!(dp(&on), dp(&off));
}

/// The OpenCL floating-point build options are taken as compilers spell them; an unknown
/// `-cl-` option is refused by name.
#[test]
fn fast_math_build_options_are_taken_and_unknown_ones_refused() {
    let t = Tmp::new("fastmath");
    let out = t.0.join("out");
    let r = build(
        &shared("vadd.cl"),
        "sim",
        &out,
        &[
            "--no-estimate",
            "--no-vendor",
            "-cl-fast-relaxed-math",
            "-cl-mad-enable",
        ],
    );
    ok(&r);
    let r = build(
        &shared("vadd.cl"),
        "sim",
        &t.0.join("bad"),
        &["--no-estimate", "-cl-fast-math"],
    );
    assert!(!r.status.success());
    assert!(
        stderr(&r).contains("unknown build option `-cl-fast-math`"),
        "{}",
        stderr(&r)
    );
    assert!(!t.0.join("bad").exists());
}

/// A division by a constant whose reciprocal is an exact power of two is a multiply in
/// every build (the same bits); the reciprocal of 3 is rounded, so `x / 3.0f` becomes a
/// multiply only under `-cl-unsafe-math-optimizations`. `--explain-rewrites` says where.
#[test]
fn divisions_by_constants_multiply_by_the_reciprocal_the_options_allow() {
    let t = Tmp::new("reciprocal");
    let cl = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels/fdiv_const.cl");
    let lines = |flags: &[&str], dir: &str| {
        let mut args = vec!["--no-estimate", "--no-vendor", "--explain-rewrites"];
        args.extend(flags);
        let r = build(&cl, "sim", &t.0.join(dir), &args);
        ok(&r);
        let text = String::from_utf8_lossy(&r.stdout).into_owned();
        let at: Vec<String> = text
            .lines()
            .filter(|l| l.ends_with("a division by a constant is a multiply by its reciprocal"))
            .map(|l| l.trim().split(": ").next().unwrap_or("").to_string())
            .collect();
        at
    };
    let exact = lines(&[], "exact");
    assert_eq!(
        exact,
        [
            "fdiv_const.cl:14:18",
            "fdiv_const.cl:15:22",
            "fdiv_const.cl:16:22",
            "fdiv_const.cl:17:22"
        ]
    );
    let mut relaxed = lines(&["-cl-unsafe-math-optimizations"], "unsafe");
    assert_eq!(relaxed.len(), 5, "{relaxed:?}");
    relaxed.retain(|l| !exact.contains(l));
    assert_eq!(relaxed, ["fdiv_const.cl:19:22"]);
}

/// ivdep_offset's `A[i + K] = A[i] * B[i] + 1` under `ivdep(8)`: the loop is pipelined at
/// the II its distance-8 recurrence through global memory needs (a load, the multiply and
/// the store's acknowledgement over 8 iterations), and its load of `A` is ordered after
/// the store of 8 iterations before (the interpreter and Verilator agree on it with and
/// without memory stalls in `datapath.rs`).
#[test]
fn an_ivdep_loop_with_a_carried_dependence_through_memory_is_pipelined_and_ordered() {
    let t = Tmp::new("ivdep_offset");
    let out = t.0.join("out");
    ok(&gen_build(&shared("ivdep_offset.cl"), "sim", &out));
    let r = report(&out);
    let l = r["kernels"][0]["loop_analysis"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["ivdep"] == "ivdep(safelen 8)")
        .expect("the ivdep loop")
        .clone();
    assert_eq!(l["pipelined"], true, "{l}");
    assert_eq!(l["scheduled_ii"], l["rec_mii"], "{l}");
    let how: Vec<&str> = l["memory_accesses"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["op"] == "load" && a["memory"] == "A")
        .map(|a| a["how"].as_str().unwrap())
        .collect();
    assert_eq!(how.len(), 1, "{l}");
    assert!(
        how[0].starts_with("ordered: waits until the store at ivdep_offset.cl:7:9 of 8 iterations"),
        "{}",
        how[0]
    );
}

/// A build under `-cl-fast-relaxed-math` says what the `relax` stage did: the split sums
/// and the fused multiply-adds are in the summary, in `report.json` and in `report.html`;
/// without the option there is nothing to say.
#[test]
fn the_float_rewrites_of_the_build_options_are_reported() {
    let t = Tmp::new("relax_report");
    let cl = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels/mad_recurrence.cl");
    let out = t.0.join("relaxed");
    let r = build(
        &cl,
        "sim",
        &out,
        &["--no-estimate", "--no-vendor", "--cl-fast-relaxed-math"],
    );
    ok(&r);
    let summary = String::from_utf8_lossy(&r.stdout);
    assert!(
        summary.contains(
            "float sums reassociated (the build options allow it): `d` at \
             mad_recurrence.cl:22:9 into 8 partial sums"
        ),
        "{summary}"
    );
    assert!(
        summary.contains(
            "multiply-adds on loop recurrences fused into fma (the build options allow it): \
             at mad_recurrence.cl:15:13, mad_recurrence.cl:31:13, mad_recurrence.cl:32:13"
        ),
        "{summary}"
    );
    let k = &report(&out)["kernels"][0];
    assert_eq!(k["reassociated"][0]["var"], "d", "{k}");
    assert_eq!(k["reassociated"][0]["partials"], 8, "{k}");
    assert_eq!(k["contracted"].as_array().map(Vec::len), Some(3), "{k}");
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("Float sum <code>d</code>"), "report.html");
    assert!(html.contains("fused into an fma"), "report.html");

    let plain = t.0.join("plain");
    let r = gen_build(&cl, "sim", &plain);
    ok(&r);
    assert!(!String::from_utf8_lossy(&r.stdout).contains("reassociated"));
    let k = &report(&plain)["kernels"][0];
    assert!(
        k.get("reassociated").is_none() && k.get("contracted").is_none(),
        "{k}"
    );
}

/// `--latency-weight` trades area against the critical path: unroll_unknown's three
/// divisions by 3 stay dividers when only area counts (a multiply-high by a magic number
/// takes DSP blocks, each worth 374 ALMs of the DE10-Nano's), and become multiplies at
/// the default weight, where a divider's 34 cycles count. `report.json` says which
/// weight was used; a weight that is no number of logic units is refused.
#[test]
fn the_latency_weight_trades_dividers_for_multipliers() {
    let t = Tmp::new("latency_weight");
    let cl = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/kernels/unroll_unknown.cl");
    let dividers = |out: &Path| {
        let k = &report(out)["kernels"][0];
        let n = k["units"]
            .as_array()
            .expect("units")
            .iter()
            .filter(|u| u["class"] == "int_div")
            .count();
        (n, k["opt"]["latency_weight"].as_f64().expect("weight"))
    };
    let area = t.0.join("area");
    ok(&build(
        &cl,
        "de10",
        &area,
        &["--no-estimate", "--no-vendor", "--latency-weight", "0"],
    ));
    assert_eq!(dividers(&area), (3, 0.0));
    let default = t.0.join("default");
    ok(&gen_build(&cl, "de10", &default));
    assert_eq!(dividers(&default), (0, 16.0));
    let k = &report(&default)["kernels"][0]["opt"];
    assert!(
        k["after"]["dsps"].as_u64() > report(&area)["kernels"][0]["opt"]["after"]["dsps"].as_u64(),
        "{k}"
    );

    for bad in ["-1", "nan", "inf", "fast"] {
        let out = t.0.join(format!("bad{bad}"));
        let arg = format!("--latency-weight={bad}");
        let r = build(&cl, "de10", &out, &["--no-estimate", &arg]);
        assert!(!r.status.success(), "--latency-weight {bad} was taken");
        assert!(stderr(&r).contains("is not a weight"), "{}", stderr(&r));
        assert!(
            !out.exists(),
            "--latency-weight {bad} wrote {}",
            out.display()
        );
    }
}
