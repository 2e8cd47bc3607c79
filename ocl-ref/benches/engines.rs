//! Interpreter throughput against oclgrind and POCL on the same kernels and inputs: work-items
//! per second of each engine, their ratios, and peak memory against the buffers' size.
//! Run with `cargo bench -p ocl-ref --bench engines` (needs POCL and oclgrind:
//! `bash scripts/install-deps.sh`). Sizes: `OCL_HLS_BENCH_VADD_N` (default 1,048,576
//! work-items) and `OCL_HLS_BENCH_MATMUL_N` (matrix order, default 256: 65,536 work-items).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const OCLGRIND_ICD: &str = "/usr/lib/oclgrind/liboclgrind-rt-icd.so";

struct Workload {
    name: &'static str,
    kernel: PathBuf,
    spec: String,
    work_items: u64,
    buffer_bytes: u64,
}

fn shared(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/conformance/kernels")
        .join(name)
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn workloads() -> Vec<Workload> {
    let n = env_u64("OCL_HLS_BENCH_VADD_N", 1 << 20);
    let m = env_u64("OCL_HLS_BENCH_MATMUL_N", 256);
    let buf = |name: &str, count: u64, seed: u64, check: bool| {
        format!(
            "  - name: {name}\n    buffer: {{type: float, count: {count}, init: {{random: {{seed: {seed}, min: -1.0, max: 1.0}}}}}}\n    check: {check}\n"
        )
    };
    vec![
        Workload {
            name: "vadd",
            kernel: shared("vadd.cl"),
            spec: format!(
                "kernel: vadd\nglobal: [{n}]\nlocal: [64]\nargs:\n{}{}{}",
                buf("a", n, 1, false),
                buf("b", n, 2, false),
                buf("c", n, 3, true)
            ),
            work_items: n,
            buffer_bytes: 12 * n,
        },
        Workload {
            name: "matmul_tiled",
            kernel: shared("matmul_tiled.cl"),
            spec: format!(
                "kernel: matmul\nglobal: [{m}, {m}]\nlocal: [8, 8]\nargs:\n{}{}{}  - name: n\n    scalar: {{type: int, value: {m}}}\n",
                buf("A", m * m, 11, false),
                buf("B", m * m, 12, false),
                buf("C", m * m, 13, true)
            ),
            work_items: m * m,
            buffer_bytes: 12 * m * m,
        },
    ]
}

/// Peak resident memory of this process since the last reset, in bytes.
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Best of `runs` wall-clock times of `f`, and the peak memory it reached.
fn measure(
    runs: u32,
    mut f: impl FnMut() -> Result<(), String>,
) -> Result<(Duration, u64), String> {
    let mut best = Duration::MAX;
    reset_peak_rss();
    for _ in 0..runs {
        let t = Instant::now();
        f()?;
        best = best.min(t.elapsed());
    }
    Ok((best, peak_rss()))
}

fn oclgrind_vendors(dir: &Path) -> PathBuf {
    let vendors = dir.join("oclgrind-vendors");
    std::fs::create_dir_all(&vendors).expect("temp dir");
    std::fs::write(vendors.join("oclgrind.icd"), format!("{OCLGRIND_ICD}\n")).expect("icd file");
    vendors
}

fn main() {
    if !Path::new(OCLGRIND_ICD).exists() {
        eprintln!("oclgrind is not installed: run `bash scripts/install-deps.sh` (apt-get install -y oclgrind)");
        std::process::exit(1);
    }
    let dir = std::env::temp_dir().join(format!("ohls-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let vendors = oclgrind_vendors(&dir);
    let rt = ocl_ref::runtime::Runtime::new().expect("an OpenCL platform (POCL)");
    println!("POCL device: {}", rt.description);
    println!();
    println!("| kernel | work-items | engine | time (best of 3) | work-items/s | peak RSS / buffers | vs oclgrind | vs POCL |");
    println!("|---|---:|---|---:|---:|---:|---:|---:|");
    for w in workloads() {
        let spec = dir.join(format!("{}.yaml", w.name));
        std::fs::write(&spec, &w.spec).expect("write spec");
        let interp = measure(3, || {
            ocl_hls::engine::run_file(&w.kernel, &spec, &Default::default())
                .map(|_| ())
                .map_err(|e| e.to_string())
        });
        let pocl = measure(3, || {
            ocl_ref::run::run_files(&rt, &w.kernel, &spec, &Default::default())
                .map(|_| ())
                .map_err(|e| e.to_string())
        });
        let out = dir.join(format!("{}-oclgrind", w.name));
        // oclgrind's time swings by up to 2x on a shared machine: take the better of two.
        let grind = measure(2, || {
            let _ = std::fs::remove_dir_all(&out);
            let r = Command::new(env!("CARGO_BIN_EXE_ocl-ref"))
                .env("OCL_ICD_VENDORS", &vendors)
                .arg("run")
                .arg(&w.kernel)
                .arg("--spec")
                .arg(&spec)
                .arg("--out")
                .arg(&out)
                .output()
                .map_err(|e| e.to_string())?;
            if r.status.success() {
                Ok(())
            } else {
                Err(String::from_utf8_lossy(&r.stderr).into_owned())
            }
        });
        let rate = |t: &Duration| w.work_items as f64 / t.as_secs_f64();
        let rows = [
            ("interp", &interp),
            ("POCL", &pocl),
            ("oclgrind (best of 2)", &grind),
        ];
        for (engine, result) in rows {
            match result {
                Ok((t, rss)) => {
                    let vs = |other: &Result<(Duration, u64), String>| match other {
                        Ok((o, _)) => format!("{:.1}x", o.as_secs_f64() / t.as_secs_f64()),
                        Err(_) => "-".into(),
                    };
                    // oclgrind runs in a child process: its memory is not ours to read.
                    let mem = if engine.starts_with("oclgrind") {
                        "-".to_string()
                    } else {
                        format!("{:.1}x", *rss as f64 / w.buffer_bytes as f64)
                    };
                    println!(
                        "| {} | {} | {engine} | {:.3} s | {:.2}M | {mem} | {} | {} |",
                        w.name,
                        w.work_items,
                        t.as_secs_f64(),
                        rate(t) / 1e6,
                        vs(&grind),
                        vs(&pocl)
                    );
                }
                Err(e) => println!(
                    "| {} | {} | {engine} | failed: {} | | | | |",
                    w.name,
                    w.work_items,
                    e.lines().next().unwrap_or("")
                ),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!();
    println!(
        "Times include building the kernel (POCL caches its builds; the interpreter lowers the"
    );
    println!("kernel each run) and generating the inputs. 'vs X' = X's time / this engine's time.");
    println!("Peak RSS is of the whole benchmark process, so it includes the runtime itself.");
}
