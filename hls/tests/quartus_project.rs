//! The complete DE10-Nano Quartus project from `ocl-hls build --board de10`: the top level
//! and the kernel components lint with Verilator (the Platform Designer system stubbed
//! from the same description the generator uses), the system script has the instances,
//! connections, base addresses and exports of that description, the `.qsf` names the
//! device, files and the board file's pins, and the vendor flow runs against fake Quartus
//! tools that write what real Quartus writes (progress, `.sof`/`.rbf`, fmax and
//! utilization in report.json), or prints its commands when Quartus is absent.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ocl_hls::board::types::PinDir;
use ocl_hls::board::{Board, BoardSet};
use ocl_hls::project::ports::{self, Port};
use ocl_hls::project::system::{self, System};

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/kernels")
}

fn de10() -> Board {
    BoardSet::builtin()
        .unwrap_or_else(|e| panic!("{e:?}"))
        .resolve("de10")
        .unwrap_or_else(|e| panic!("{e}"))
        .clone()
}

mod common;
use common::Tmp;

/// `ocl-hls build CL --board de10 -o OUT --no-estimate EXTRA`, with `path` as PATH when
/// given.
fn build(cl: &Path, out: &Path, extra: &[&str], path: Option<&OsString>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ocl-hls"));
    c.arg("build")
        .arg(cl)
        .args(["--board", "de10", "-o"])
        .arg(out)
        .arg("--no-estimate")
        .args(extra);
    if let Some(p) = path {
        c.env("PATH", p);
    }
    c.output().expect("run ocl-hls")
}

fn ok(r: &Output) {
    assert!(
        r.status.success(),
        "ocl-hls build failed:\n{}\n{}",
        String::from_utf8_lossy(&r.stdout),
        String::from_utf8_lossy(&r.stderr)
    );
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn project_of(cl: &Path) -> String {
    ocl_hls::project::project_name(cl)
}

/// The system description for a written OUT, from its report and core headers, exactly
/// as the generator derives it.
fn describe(out: &Path, project: &str) -> System {
    let report: serde_json::Value = serde_json::from_str(&read(&out.join("report.json"))).unwrap();
    let cores: Vec<(String, Vec<Port>)> = report["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            let top = k["top"].as_str().unwrap().to_string();
            let text = read(&out.join("rtl").join(format!("{top}.v")));
            let p = ports::parse(&text, &top).unwrap_or_else(|e| panic!("{e}"));
            (top, p)
        })
        .collect();
    system::describe(&de10(), project, &cores).unwrap_or_else(|e| panic!("{e}"))
}

fn rtl_files(out: &Path) -> Vec<PathBuf> {
    // The Verilog only: `rtl/` also holds the cores' FuseSoC `.core` files.
    let mut v: Vec<PathBuf> = std::fs::read_dir(out.join("rtl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "v"))
        .collect();
    v.sort();
    v
}

/// Lints the top level against the stub and every kernel component against its core.
fn lint_project(out: &Path, sys: &System, scratch: &Path) {
    let stub = scratch.join(format!("{}.v", sys.name));
    std::fs::write(&stub, sys.lint_stub()).unwrap();
    let q = out.join("quartus");
    rtl_templates::verilator::lint("ohls_top", &[q.join("ohls_top.v"), stub], &[])
        .unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    for k in &sys.kernels {
        let mut files = vec![q
            .join("ip")
            .join(&k.component)
            .join(format!("{}.v", k.component))];
        files.extend(rtl_files(out));
        rtl_templates::verilator::lint(&k.component, &files, &[])
            .unwrap_or_else(|e| panic!("{}: {e}", out.display()));
    }
}

/// The script has every instance, connection, base address and export of `sys`.
fn check_tcl(tcl: &str, sys: &System, board: &Board) {
    let lines: BTreeSet<&str> = tcl.lines().map(str::trim).collect();
    let has = |l: &str| assert!(lines.contains(l), "missing `{l}` in the system script");
    has(&format!("create_system {}", sys.name));
    has("add_instance clk_0 clock_source");
    has("add_instance pll_0 altera_pll");
    has("add_instance hps_0 altera_hps");
    has("set_instance_parameter_value hps_0 {F2SDRAM_Type} {AXI-3}");
    let hps = board.hps.as_ref().unwrap();
    has(&format!(
        "set_instance_parameter_value hps_0 {{F2SDRAM_Width}} {{{}}}",
        hps.data_port.width_bits
    ));
    has("set_instance_parameter_value hps_0 {LWH2F_Enable} {true}");
    has("set_instance_parameter_value hps_0 {MEM_DQ_WIDTH} {32}");
    has("set_instance_parameter_value hps_0 {UART0_PinMuxing} {HPS I/O Set 0}");
    has("set_instance_parameter_value pll_0 {gui_output_clock_frequency0} {100}");
    has("add_connection pll_0.outclk0 hps_0.f2h_sdram0_clock");
    has("add_connection pll_0.outclk0 hps_0.h2f_lw_axi_clock");
    for (i, k) in sys.kernels.iter().enumerate() {
        has(&format!("add_instance {} {} 1.0", k.instance, k.component));
        has(&format!(
            "add_connection pll_0.outclk0 {}.clock",
            k.instance
        ));
        let lw = format!("hps_0.h2f_lw_axi_master/{}.s_axil", k.instance);
        has(&format!(
            "add_connection hps_0.h2f_lw_axi_master {}.s_axil",
            k.instance
        ));
        has(&format!(
            "set_connection_parameter_value {lw} baseAddress {{{:#010x}}}",
            k.csr_offset
        ));
        assert!(
            tcl.contains(&format!(
                "control registers at {:#010X} from the HPS",
                0xFF20_0000u64 + k.csr_offset
            )),
            "HPS-side address of {}",
            k.core
        );
        if i == 0 {
            assert_eq!(k.csr_offset, 0);
        }
        for m in &k.masters {
            has(&format!(
                "add_connection {}.m_{m} hps_0.f2h_sdram0_data",
                k.instance
            ));
        }
        has(&format!(
            "set_connection_parameter_value hps_0.f2h_irq0/{}.irq irqNumber {{{i}}}",
            k.instance
        ));
    }
    for e in &sys.exports {
        has(&format!("add_interface {} {}", e.name, e.kind));
        has(&format!(
            "set_interface_property {} EXPORT_OF {}",
            e.name, e.of
        ));
        // Platform Designer names an exported port INTERFACE_ROLE.
        for p in &e.ports {
            assert!(
                p.port.name.starts_with(&format!("{}_", e.name)),
                "{} is not a port of export {}",
                p.port.name,
                e.name
            );
        }
    }
    has(&format!("save_system {}.qsys", sys.name));
}

/// Every wrapper port is in exactly one interface of the component.
fn check_components(out: &Path, sys: &System) {
    for k in &sys.kernels {
        let dir = out.join("quartus/ip").join(&k.component);
        let v = read(&dir.join(format!("{}.v", k.component)));
        let hw = read(&dir.join(format!("{}_hw.tcl", k.component)));
        let wrapper = ports::parse(&v, &k.component).unwrap_or_else(|e| panic!("{e}"));
        assert!(wrapper.len() > k.ports.len());
        for p in &wrapper {
            let n = hw
                .lines()
                .filter(|l| {
                    let w: Vec<&str> = l.split_whitespace().collect();
                    w.first() == Some(&"add_interface_port") && w.get(2) == Some(&p.name.as_str())
                })
                .count();
            assert_eq!(n, 1, "{} of {} in {} interfaces", p.name, k.component, n);
        }
        assert!(hw.contains(&format!(
            "add_fileset_file {c}.v VERILOG PATH {c}.v",
            c = k.component
        )));
        for m in &k.masters {
            assert!(hw.contains(&format!("add_interface m_{m} axi4 start")));
        }
    }
}

/// Device, top level, files and the board file's pins.
fn check_qsf(qsf: &str, out: &Path, sys: &System, board: &Board) {
    let dev = board.device.as_ref().unwrap();
    let lines: BTreeSet<&str> = qsf.lines().map(str::trim).collect();
    let has = |l: String| assert!(lines.contains(l.as_str()), "missing `{l}` in the qsf");
    has(format!("set_global_assignment -name DEVICE {}", dev.part));
    has(format!(
        "set_global_assignment -name FAMILY \"{}\"",
        dev.family
    ));
    has("set_global_assignment -name TOP_LEVEL_ENTITY ohls_top".into());
    has("set_global_assignment -name VERILOG_FILE ohls_top.v".into());
    has(format!(
        "set_global_assignment -name QIP_FILE {n}/synthesis/{n}.qip",
        n = sys.name
    ));
    for f in rtl_files(out) {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        has(format!(
            "set_global_assignment -name VERILOG_FILE ../rtl/{name}"
        ));
    }
    let clk = &board.clocks[0];
    has(format!(
        "set_location_assignment {} -to {}",
        clk.pin, clk.name
    ));
    has(format!(
        "set_instance_assignment -name IO_STANDARD \"{}\" -to {}",
        clk.io_standard, clk.name
    ));
    for (name, group) in [("LED", &board.pins.leds), ("KEY", &board.pins.keys)] {
        let g = group.as_ref().unwrap();
        for (i, pin) in g.pins.iter().enumerate() {
            has(format!("set_location_assignment {pin} -to {name}[{i}]"));
            has(format!(
                "set_instance_assignment -name IO_STANDARD \"{}\" -to {name}[{i}]",
                g.io_standard
            ));
        }
    }
    has("set_instance_assignment -name IO_STANDARD \"3.3-V LVTTL\" -to HPS_UART_TX".into());
    has("set_instance_assignment -name IO_STANDARD \"3.3-V LVTTL\" -to HPS_ENET_TX_DATA[3]".into());
}

#[test]
fn every_conformance_kernel_gets_a_complete_linted_de10_project() {
    let t = Tmp::new("all");
    let board = de10();
    let mut built = 0;
    let mut names: Vec<PathBuf> = std::fs::read_dir(kernels_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    names.sort();
    for cl in names {
        let project = project_of(&cl);
        let out = t.0.join(&project);
        let r = build(&cl, &out, &["--no-vendor"], None);
        if !r.status.success() {
            // A kernel the generator refuses must say so at a line, and write nothing.
            let err = String::from_utf8_lossy(&r.stderr);
            assert!(
                err.contains("no hardware implementation"),
                "{}: {err}",
                cl.display()
            );
            assert!(!out.exists());
            continue;
        }
        built += 1;
        let sys = describe(&out, &project);
        let q = out.join("quartus");
        check_tcl(&read(&q.join(format!("{}.tcl", sys.name))), &sys, &board);
        check_qsf(&read(&q.join(format!("{project}.qsf"))), &out, &sys, &board);
        check_components(&out, &sys);
        lint_project(&out, &sys, &t.0);
        let readme = read(&q.join("README.md"));
        assert!(readme.contains("0xFF200000"), "{readme}");
        assert!(readme.contains(&format!("quartus_sh --flow compile {project}")));
    }
    assert!(
        built >= 15,
        "only {built} conformance kernels built for de10"
    );
}

#[test]
fn several_kernels_get_separate_windows_and_interrupts() {
    let t = Tmp::new("multi");
    let cl = t.0.join("two.cl");
    std::fs::write(
        &cl,
        "__kernel void first(__global int *a) { a[get_global_id(0)] += 1; }\n\
         __kernel void second(__global const int *x, __global int *y, int k) {\n\
           size_t i = get_global_id(0); y[i] = x[i] * k; }\n",
    )
    .unwrap();
    let out = t.0.join("out");
    ok(&build(&cl, &out, &["--no-vendor"], None));
    let sys = describe(&out, "two");
    assert_eq!(sys.kernels.len(), 2);
    assert_eq!(sys.kernels[0].csr_offset, 0);
    assert_eq!(sys.kernels[1].csr_offset, 0x1000);
    assert_eq!(sys.kernels[1].masters, ["x", "y"]);
    let tcl = read(&out.join("quartus/two_system.tcl"));
    check_tcl(&tcl, &sys, &de10());
    lint_project(&out, &sys, &t.0);
    let top = read(&out.join("quartus/ohls_top.v"));
    assert!(
        top.contains("k_first_core_active, k_second_core_active"),
        "{top}"
    );
}

/// Fake Quartus tools: each checks its inputs exist, records its call, and writes what
/// the real tool writes (report formats as in public Quartus 18-21 reports).
fn fake_quartus(bin: &Path, fail: Option<&str>) {
    std::fs::create_dir_all(bin).unwrap();
    let calls = bin.join("calls.log");
    let pre = format!(
        "#!/bin/sh\necho \"$(basename \"$0\") $*\" >> '{}'\n",
        calls.display()
    );
    let tools: [(&str, &str); 6] = [
        (
            "qsys-script",
            "for a in \"$@\"; do case $a in --script=*) s=${a#--script=};; esac; done\n\
             test -f \"$s\" || { echo \"no $s\"; exit 2; }\n\
             grep -q save_system \"$s\" || exit 3\n\
             echo '<?xml version=\"1.0\"?><system/>' > \"${s%.tcl}.qsys\"\n",
        ),
        (
            "qsys-generate",
            "test -f \"$1\" || { echo \"no $1\"; exit 2; }\n\
             for a in \"$@\"; do case $a in --output-directory=*) d=${a#--output-directory=};; esac; done\n\
             n=$(basename \"$1\" .qsys)\n\
             mkdir -p \"$d/synthesis/submodules\"\n\
             echo \"set_global_assignment -name VERILOG_FILE $n.v\" > \"$d/synthesis/$n.qip\"\n\
             echo '# pins' > \"$d/synthesis/submodules/hps_sdram_p0_pin_assignments.tcl\"\n",
        ),
        (
            "quartus_map",
            "test -f \"$1.qsf\" || exit 2\n\
             q=$(sed -n 's/.*QIP_FILE //p' \"$1.qsf\")\n\
             test -f \"$q\" || { echo \"no qip $q\"; exit 3; }\n\
             mkdir -p output_files; echo 'Analysis & Synthesis Status : Successful' > output_files/$1.map.summary\n",
        ),
        (
            "quartus_sta",
            "test \"$1\" = -t && test -f \"$2\" || { echo \"no script $2\"; exit 2; }\n\
             test -f output_files/$3.map.summary || exit 3\n",
        ),
        (
            "quartus_sh",
            "p=$3\n\
             test -f output_files/$p.map.summary || exit 2\n\
             echo sof > output_files/$p.sof\n\
             cat > output_files/$p.fit.summary <<EOF\n\
Fitter Status : Successful - Sun Nov 22 05:00:00 2026\n\
Quartus Prime Version : 21.1.0 Build 842 10/21/2021 SJ Lite Edition\n\
Revision Name : $p\n\
Top-level Entity Name : ohls_top\n\
Family : Cyclone V\n\
Device : 5CSEBA6U23I7\n\
Timing Models : Final\n\
Logic utilization (in ALMs) : 4,321 / 41,910 ( 10 % )\n\
Total registers : 6789\n\
Total pins : 107 / 314 ( 34 % )\n\
Total virtual pins : 0\n\
Total block memory bits : 12,288 / 5,662,720 ( < 1 % )\n\
Total RAM Blocks : 7 / 553 ( 1 % )\n\
Total DSP Blocks : 3 / 112 ( 3 % )\n\
Total PLLs : 1 / 6 ( 17 % )\n\
EOF\n\
             cat > output_files/$p.sta.rpt <<'EOF'\n\
+--------------------------------------------------------------------------------+\n\
; Slow 1100mV 100C Model Fmax Summary                                            ;\n\
+-------------+-----------------+------------------------------------------+------+\n\
; Fmax        ; Restricted Fmax ; Clock Name                               ; Note ;\n\
+-------------+-----------------+------------------------------------------+------+\n\
; 112.34 MHz  ; 112.34 MHz      ; u_system|pll_0|altera_pll_i|outclk_wire[0] ;      ;\n\
; 250.0 MHz   ; 250.0 MHz       ; FPGA_CLK1_50                             ;      ;\n\
+-------------+-----------------+------------------------------------------+------+\n\
This panel reports FMAX for every clock in the design.\n\
\n\
+--------------------------------------------------------------------------------+\n\
; Slow 1100mV -40C Model Fmax Summary                                            ;\n\
+-------------+-----------------+------------------------------------------+------+\n\
; Fmax        ; Restricted Fmax ; Clock Name                               ; Note ;\n\
+-------------+-----------------+------------------------------------------+------+\n\
; 108.7 MHz   ; 108.7 MHz       ; u_system|pll_0|altera_pll_i|outclk_wire[0] ;      ;\n\
; 260.1 MHz   ; 260.1 MHz       ; FPGA_CLK1_50                             ;      ;\n\
+-------------+-----------------+------------------------------------------+------+\n\
EOF\n",
        ),
        (
            "quartus_cpf",
            "for a in \"$@\"; do last=$a; done\n\
             test -f output_files/$(basename \"$last\" .rbf).sof || exit 2\n\
             echo rbf > \"$last\"\n",
        ),
    ];
    for (name, body) in tools {
        let p = bin.join(name);
        let body = if fail == Some(name) {
            "echo 'Error (12007): Top-level design entity is undefined'; exit 1\n".to_string()
        } else {
            body.to_string()
        };
        std::fs::write(&p, format!("{pre}{body}")).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
}

fn path_with(bin: &Path) -> OsString {
    let mut dirs = vec![bin.to_path_buf()];
    if let Some(p) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&p));
    }
    std::env::join_paths(dirs).unwrap()
}

#[test]
fn with_quartus_on_path_the_flow_runs_and_fills_the_report() {
    let t = Tmp::new("fake");
    let bin = t.0.join("bin");
    fake_quartus(&bin, None);
    let out = t.0.join("out");
    let r = build(
        &kernels_dir().join("vadd.cl"),
        &out,
        &[],
        Some(&path_with(&bin)),
    );
    ok(&r);
    let err = String::from_utf8_lossy(&r.stderr);
    let calls = read(&bin.join("calls.log"));
    let progs: Vec<&str> = calls
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        progs,
        [
            "qsys-script",
            "qsys-generate",
            "quartus_map",
            "quartus_sta",
            "quartus_sh",
            "quartus_cpf"
        ],
        "{err}"
    );
    assert!(
        err.contains("quartus [1/6] platform designer: system"),
        "{err}"
    );
    assert!(err.contains("quartus [5/6] compile"), "{err}");
    assert!(err.contains("done in"), "{err}");
    assert_eq!(read(&out.join("vadd.sof")), "sof\n");
    assert_eq!(read(&out.join("vadd.rbf")), "rbf\n");
    let j: serde_json::Value = serde_json::from_str(&read(&out.join("report.json"))).unwrap();
    let v = &j["vendor"];
    assert_eq!(v["utilization"]["alms"]["used"], 4321);
    assert_eq!(v["utilization"]["alms"]["available"], 41910);
    assert_eq!(v["utilization"]["dsp_blocks"]["used"], 3);
    assert_eq!(v["utilization"]["ram_blocks"]["used"], 7);
    assert_eq!(v["kernel_clock_fmax_mhz"], 108.7);
    assert_eq!(v["meets_target"], true);
    assert_eq!(v["sof"], "vadd.sof");
    let clocks = v["fmax"].as_array().unwrap();
    assert_eq!(clocks.len(), 2);
    assert_eq!(clocks[0]["model"], "Slow 1100mV -40C Model");
    // Logs of every tool are kept.
    assert!(out.join("quartus/logs/5_quartus_sh.log").is_file());
}

#[test]
fn a_failing_quartus_step_fails_the_build_with_its_log_and_keeps_the_project() {
    let t = Tmp::new("fail");
    let bin = t.0.join("bin");
    fake_quartus(&bin, Some("quartus_map"));
    let out = t.0.join("out");
    let r = build(
        &kernels_dir().join("vadd.cl"),
        &out,
        &[],
        Some(&path_with(&bin)),
    );
    assert_eq!(r.status.code(), Some(1));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("quartus_map failed"), "{err}");
    assert!(err.contains("Error (12007)"), "{err}");
    assert!(out.join("quartus/vadd.qsf").is_file());
    assert!(!out.join("vadd.sof").exists());
    let j: serde_json::Value = serde_json::from_str(&read(&out.join("report.json"))).unwrap();
    assert!(j.get("vendor").is_none());
}

#[test]
fn without_quartus_or_with_no_vendor_the_commands_are_printed() {
    let t = Tmp::new("absent");
    let bin = t.0.join("bin");
    fake_quartus(&bin, None);
    // Fake tools on PATH but --no-vendor: nothing runs.
    let out = t.0.join("skip");
    let r = build(
        &kernels_dir().join("vadd.cl"),
        &out,
        &["--no-vendor"],
        Some(&path_with(&bin)),
    );
    ok(&r);
    assert!(!bin.join("calls.log").exists());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("vendor flow skipped (--no-vendor)"), "{err}");
    let script = read(&out.join("quartus/build.sh"));
    assert!(script.contains("quartus_cpf -c -o bitstream_compression=on"));
    // No Quartus on PATH (on a machine that has it, this half would compile for hours).
    if ocl_hls::project::vendor::on_path("quartus_sh").is_some() {
        eprintln!("quartus_sh is installed: the absent-Quartus half is not run");
        return;
    }
    let out = t.0.join("absent");
    let r = build(&kernels_dir().join("vadd.cl"), &out, &[], None);
    ok(&r);
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("quartus_sh is not on PATH"), "{err}");
    for s in ocl_hls::project::flow::steps("vadd", "vadd_system") {
        assert!(err.contains(&s.shell()), "{}\n{err}", s.shell());
    }
    assert!(!out.join("vadd.sof").exists());
    let script = read(&out.join("quartus/build.sh"));
    assert!(script.contains("quartus_cpf -c -o bitstream_compression=on"));
}

#[test]
fn the_stub_has_the_ports_of_the_description() {
    let t = Tmp::new("stub");
    let out = t.0.join("out");
    ok(&build(
        &kernels_dir().join("vadd.cl"),
        &out,
        &["--no-vendor"],
        None,
    ));
    let sys = describe(&out, "vadd");
    let stub = sys.lint_stub();
    let parsed = ports::parse(&stub, &sys.name).unwrap_or_else(|e| panic!("{e}"));
    let want: Vec<Port> = sys.ports().map(|p| p.port.clone()).collect();
    assert_eq!(parsed, want);
    assert!(want
        .iter()
        .any(|p| p.name == "memory_mem_dq" && p.dir == PinDir::Inout && p.width == 32));
}

#[test]
fn a_board_without_hps_system_data_keeps_the_skeleton_and_runs_nothing() {
    let t = Tmp::new("skeleton");
    let bin = t.0.join("bin");
    fake_quartus(&bin, None);
    let out = t.0.join("out");
    let r = Command::new(env!("CARGO_BIN_EXE_ocl-hls"))
        .arg("build")
        .arg(kernels_dir().join("vadd.cl"))
        .args(["--board", "de1-soc", "--no-estimate", "-o"])
        .arg(&out)
        .env("PATH", path_with(&bin))
        .output()
        .expect("run ocl-hls");
    ok(&r);
    let mut names: Vec<String> = std::fs::read_dir(out.join("quartus"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["README.md", "vadd.qpf", "vadd.qsf", "vadd.sdc"]);
    let readme = read(&out.join("quartus/README.md"));
    assert!(readme.contains("has no `hps.system`"), "{readme}");
    assert!(
        !bin.join("calls.log").exists(),
        "no vendor step without a system"
    );
}

/// Qsys Tcl commands with their argument counts (min, max), mocked in `tclsh` to record
/// each call: the scripts are run as Tcl really parses them (braces, quotes, `$`).
const QSYS_MOCK: &str = r#"
package provide qsys 16.1
proc rec {name min max arglist} {
    set n [llength $arglist]
    if {$n < $min || $n > $max} {
        puts stderr "$name takes $min..$max arguments, got $n: $arglist"
        exit 3
    }
    puts [join [linsert $arglist 0 $name] "\t"]
}
foreach {cmd min max} {
    create_system 1 1  set_project_property 2 2  add_instance 2 3
    set_instance_parameter_value 3 3  add_connection 2 3
    set_connection_parameter_value 3 3  add_interface 3 3  set_interface_property 3 3
    set_interconnect_requirement 3 3  save_system 0 1  set_module_property 2 2
    add_fileset 4 4  set_fileset_property 3 3  add_fileset_file 4 5
    add_interface_port 5 5
} {
    proc $cmd args "rec $cmd $min $max \$args"
}
source [lindex $argv 0]
"#;

/// Every Qsys command `script` runs, as (command, arguments).
fn tcl_calls(script: &Path, scratch: &Path) -> Vec<(String, Vec<String>)> {
    let mock = scratch.join("qsys_mock.tcl");
    std::fs::write(&mock, QSYS_MOCK).unwrap();
    let r = Command::new("tclsh")
        .arg(&mock)
        .arg(script)
        .output()
        .unwrap_or_else(|e| panic!("tclsh: {e}; install it with `sudo apt-get install tcl`"));
    assert!(
        r.status.success(),
        "{} does not run as Tcl:\n{}",
        script.display(),
        String::from_utf8_lossy(&r.stderr)
    );
    String::from_utf8_lossy(&r.stdout)
        .lines()
        .map(|l| {
            let mut w = l.split('\t').map(String::from);
            (w.next().unwrap_or_default(), w.collect())
        })
        .collect()
}

#[test]
fn the_scripts_run_as_tcl_and_refer_only_to_what_they_declare() {
    let t = Tmp::new("tcl");
    let out = t.0.join("out");
    ok(&build(
        &kernels_dir().join("vadd.cl"),
        &out,
        &["--no-vendor"],
        None,
    ));
    let sys = describe(&out, "vadd");
    let q = out.join("quartus");
    let calls = tcl_calls(&q.join("vadd_system.tcl"), &t.0);
    let instances: BTreeSet<&str> = calls
        .iter()
        .filter(|(c, _)| c == "add_instance")
        .map(|(_, a)| a[0].as_str())
        .collect();
    assert_eq!(
        instances,
        BTreeSet::from(["clk_0", "pll_0", "hps_0", "k_vadd_core"])
    );
    let inst = |endpoint: &str| endpoint.split('.').next().unwrap_or("").to_string();
    let mut lw_bases = Vec::new();
    for (c, a) in &calls {
        match c.as_str() {
            "add_connection" => {
                for e in &a[..2] {
                    assert!(instances.contains(inst(e).as_str()), "{c} {a:?}");
                }
            }
            "set_connection_parameter_value" if a[1] == "baseAddress" => {
                let v = u64::from_str_radix(a[2].trim_start_matches("0x"), 16)
                    .unwrap_or_else(|e| panic!("{a:?}: {e}"));
                if a[0].starts_with("hps_0.h2f_lw_axi_master/") {
                    lw_bases.push(v);
                } else {
                    assert_eq!(v, 0, "SDRAM masters see SDRAM addresses: {a:?}");
                }
            }
            "set_interface_property" if a[1] == "EXPORT_OF" => {
                assert!(instances.contains(inst(&a[2]).as_str()), "{a:?}");
            }
            _ => {}
        }
    }
    assert_eq!(lw_bases, [0]);
    assert_eq!(
        calls.iter().filter(|(c, _)| c == "add_interface").count(),
        sys.exports.len()
    );
    assert_eq!(calls.last().map(|(c, _)| c.as_str()), Some("save_system"));

    for k in &sys.kernels {
        let hw = q
            .join("ip")
            .join(&k.component)
            .join(format!("{}_hw.tcl", k.component));
        let calls = tcl_calls(&hw, &t.0);
        let mut ifaces = BTreeSet::new();
        for (c, a) in &calls {
            match c.as_str() {
                "add_interface" => {
                    ifaces.insert(a[0].clone());
                }
                "add_interface_port" => {
                    assert!(
                        ifaces.contains(&a[0]),
                        "port of an undeclared interface: {a:?}"
                    );
                    assert!(
                        ["Input", "Output", "Bidir"].contains(&a[3].as_str()),
                        "{a:?}"
                    );
                    assert!(a[4].parse::<u32>().is_ok_and(|w| w > 0), "{a:?}");
                }
                _ => {}
            }
        }
        let masters: Vec<String> = k.masters.iter().map(|m| format!("m_{m}")).collect();
        for i in ["clock", "reset", "s_axil", "irq", "status"]
            .iter()
            .map(|s| s.to_string())
            .chain(masters)
        {
            assert!(ifaces.contains(&i), "{} lacks interface {i}", k.component);
        }
    }
}
