//! The `ocl-ref run` binary: the outputs SPEC.md lists, and wrong specs, files or options
//! stopping the run with a clear error, a non-zero exit and nothing changed on disk.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::*;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ocl-ref-cli-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

fn ocl_ref(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ocl-ref"))
        .arg("run")
        .args(args)
        .output()
        .expect("run ocl-ref")
}

fn run(cl: &Path, spec: &Path, out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ocl-ref"))
        .arg("run")
        .arg(cl)
        .arg("--spec")
        .arg(spec)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .expect("run ocl-ref")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn vadd_cl() -> PathBuf {
    shared_kernels().join("vadd.cl")
}

/// Writes a spec for vadd with `args` as its args section.
fn vadd_spec(dir: &Path, args: &str) -> PathBuf {
    let p = dir.join("vadd.yaml");
    fs::write(
        &p,
        format!("kernel: vadd\nglobal: [64]\nlocal: [64]\nargs:\n{args}"),
    )
    .unwrap();
    p
}

const GOOD_ARGS: &str = "  - name: a
    buffer: {type: float, count: 64, init: {iota: {start: 0, step: 1}}}
  - name: b
    buffer: {type: float, count: 64, init: {file: b.bin}}
  - name: c
    buffer: {type: float, count: 64, init: {fill: -1}}
";

fn write_b(dir: &Path) {
    let b: Vec<u8> = (0..64)
        .flat_map(|i| (i as f32 * 0.5).to_le_bytes())
        .collect();
    fs::write(dir.join("b.bin"), b).unwrap();
}

#[test]
fn run_writes_buffers_and_run_json() {
    let dir = scratch("good");
    write_b(&dir);
    let spec = vadd_spec(&dir, GOOD_ARGS);
    let out = dir.join("out");
    let o = run(&vadd_cl(), &spec, &out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let c = f32s(&fs::read(out.join("c.bin")).unwrap());
    let want: Vec<f32> = (0..64).map(|i| i as f32 * 1.5).collect();
    assert_eq!(c, want);
    assert_eq!(
        fs::read(out.join("b.bin")).unwrap(),
        fs::read(dir.join("b.bin")).unwrap()
    );
    assert_eq!(fs::read(out.join("a.bin")).unwrap().len(), 256);
    let json: serde_json::Value =
        serde_json::from_slice(&fs::read(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(json["kernel"], "vadd");
    assert_eq!(json["engine"], "pocl");
    assert_eq!(json["global"], serde_json::json!([64]));
    assert_eq!(json["local"], serde_json::json!([64]));
    assert_eq!(json["args"], serde_json::json!(["a", "b", "c"]));
    // Running again replaces the earlier output.
    let o = run(&vadd_cl(), &spec, &out, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    fs::remove_dir_all(&dir).unwrap();
}

/// Runs a failing case: non-zero exit, `want` in the message, and `out` untouched.
fn fails(name: &str, cl: &Path, spec: &Path, out: &Path, extra: &[&str], want: &str) {
    let before = listing(out);
    let o = run(cl, spec, out, extra);
    let err = stderr(&o);
    assert!(!o.status.success(), "{name}: should fail");
    assert!(err.contains(want), "{name}: wanted `{want}` in:\n{err}");
    assert_eq!(listing(out), before, "{name}: the output folder changed");
}

fn listing(d: &Path) -> Option<Vec<(String, Vec<u8>)>> {
    let mut v: Vec<(String, Vec<u8>)> = fs::read_dir(d)
        .ok()?
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap_or_default(),
            )
        })
        .collect();
    v.sort();
    Some(v)
}

#[test]
fn wrong_specs_stop_the_run_and_change_nothing() {
    let dir = scratch("bad");
    write_b(&dir);
    let cl = vadd_cl();
    let fresh = dir.join("fresh");
    let kept = dir.join("kept");
    let good = vadd_spec(&dir, GOOD_ARGS);
    assert!(run(&cl, &good, &kept, &[]).status.success());
    let cases: Vec<(&str, String, String)> = vec![
        (
            "unknown field",
            GOOD_ARGS.replace("  - name: c\n    buffer", "  - name: c\n    bufer"),
            "vadd.yaml:10:5: args[2]: unknown field `bufer`".into(),
        ),
        (
            "name mismatch",
            GOOD_ARGS.replace("name: b", "name: bb"),
            "vadd.yaml: args[1] (parameter `b`): the spec names it `bb`".into(),
        ),
        (
            "missing arg",
            GOOD_ARGS.lines().take(4).collect::<Vec<_>>().join("\n") + "\n",
            "has 3 parameters (a, b, c), the spec gives 2 args".into(),
        ),
        (
            "scalar for a buffer",
            GOOD_ARGS.replace(
                "buffer: {type: float, count: 64, init: {fill: -1}}",
                "scalar: {type: float, value: 1}",
            ),
            "is a __global or __constant pointer".into(),
        ),
        (
            "file size",
            GOOD_ARGS.replace("count: 64, init: {file", "count: 65, init: {file"),
            "has 256 bytes, but 65 x float needs exactly 260".into(),
        ),
        (
            "tolerance on int",
            GOOD_ARGS.replace(
                "{type: float, count: 64, init: {fill: -1}}",
                "{type: int, count: 64, init: {fill: -1}}\n    tolerance_ulp: 1",
            ),
            "tolerance_ulp needs a float buffer".into(),
        ),
    ];
    for (name, args, want) in &cases {
        let spec = vadd_spec(&dir, args);
        let want = want.replace("vadd.yaml", &spec.display().to_string());
        fails(name, &cl, &spec, &fresh, &[], &want);
        fails(name, &cl, &spec, &kept, &[], &want);
    }
    // Work sizes against reqd_work_group_size(64, 1, 1).
    let spec = dir.join("vadd.yaml");
    fs::write(
        &spec,
        format!("kernel: vadd\nglobal: [64]\nlocal: [32]\nargs:\n{GOOD_ARGS}"),
    )
    .unwrap();
    fails(
        "reqd",
        &cl,
        &spec,
        &fresh,
        &[],
        "differs from the kernel's reqd_work_group_size(64, 1, 1)",
    );
    fs::write(
        &spec,
        format!("kernel: vadd\nglobal: [100]\nargs:\n{GOOD_ARGS}"),
    )
    .unwrap();
    fails(
        "divide",
        &cl,
        &spec,
        &fresh,
        &[],
        "does not divide global size 100",
    );
    fs::write(
        &spec,
        format!("kernel: vsub\nglobal: [64]\nargs:\n{GOOD_ARGS}"),
    )
    .unwrap();
    fails(
        "kernel",
        &cl,
        &spec,
        &fresh,
        &[],
        "no kernel `vsub` (kernels in the file: vadd)",
    );
    // Missing files and bad options.
    fails(
        "no spec",
        &cl,
        &dir.join("none.yaml"),
        &fresh,
        &[],
        "none.yaml: cannot read the spec",
    );
    fails(
        "no kernel file",
        &dir.join("none.cl"),
        &good,
        &fresh,
        &[],
        "cannot read",
    );
    fails("bad -D", &cl, &good, &fresh, &["-D", "1X=2"], "-D 1X=2");
    fails(
        "bad -I",
        &cl,
        &good,
        &fresh,
        &["-I", "/nonexistent-dir"],
        "not a folder",
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_foreign_out_folder_is_not_replaced() {
    let dir = scratch("foreign");
    write_b(&dir);
    let spec = vadd_spec(&dir, GOOD_ARGS);
    let out = dir.join("mine");
    fs::create_dir(&out).unwrap();
    fs::write(out.join("thesis.tex"), "precious").unwrap();
    fails(
        "foreign",
        &vadd_cl(),
        &spec,
        &out,
        &[],
        "holds `thesis.tex`, which is not a run output",
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_build_failure_prints_the_build_log() {
    let dir = scratch("build");
    let cl = dir.join("broken.cl");
    fs::write(
        &cl,
        "__kernel void k(__global int *p)\n{\n    p[0] = undeclared_name;\n}\n",
    )
    .unwrap();
    let spec = dir.join("broken.yaml");
    fs::write(
        &spec,
        "global: [1]\nargs:\n  - buffer: {type: int, count: 1}\n",
    )
    .unwrap();
    let out = dir.join("out");
    fails("build", &cl, &spec, &out, &[], "could not build it");
    let err = stderr(&run(&cl, &spec, &out, &[]));
    assert!(
        err.contains("undeclared_name") && err.contains(":3:"),
        "{err}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn command_line_defines_override_the_spec() {
    let dir = scratch("defines");
    let k = project_kernels();
    let out = dir.join("out");
    let o = run(
        &k.join("defines_spec.cl"),
        &k.join("defines_spec.yaml"),
        &out,
        &["-D", "LEN=1", "-D", "WITH_FLAG=10"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let flags = i32s(&fs::read(out.join("flags.bin")).unwrap());
    assert!(flags.iter().all(|&f| f == 11), "{flags:?}");
    let inp = i32s(&fs::read(out.join("in.bin")).unwrap());
    let outv = f32s(&fs::read(out.join("out.bin")).unwrap());
    assert_eq!(outv[5], (inp[5] * 3) as f32 + 0.5);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usage_errors_exit_non_zero() {
    let o = ocl_ref(&[Path::new("x.cl")]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--spec"), "{}", stderr(&o));
}
