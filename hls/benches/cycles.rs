//! Simulated cycles against the ideal, per conformance kernel with a launch spec:
//! `cargo bench -p ocl-hls --bench cycles`. Each kernel runs in Verilator (`--engine sim`,
//! the cached models under target/) and in the interpreter (the buffers must agree), and
//! its loops are analysed on the `sim` board's operator library (`analysis`).
//!
//! Columns: work-items of the launch; simulated cycles (start to done, all groups);
//! the minimum II of the work-item loop (the largest over the barrier-free regions of a
//! kernel with barriers) and the pipeline depth of one work-item; the ideal, defined as
//! in `ocl_hls::analysis::ideal`:
//! - an innermost loop with N iterations costs N x minII + depth;
//! - a loop holding loops costs N x (depth of its own blocks + the ideals inside it);
//! - the work-item loops of all groups are one loop over all work-items (with barriers:
//!   groups x the group body, whose work-item loops run over one group's work-items);
//! - blocks outside loops cost their schedule length, an `if` the longer arm;
//! - loops as the `loops` stage left them (unrolled bodies, remainder loops);
//!
//! and the ratio cycles / ideal; `piped II` is the II of each loop the datapath runs as a
//! pipeline, as the build reports it (`-`: none). Trip counts that depend on data are the interpreter's
//! average per entry for the launch (`analysis::counts`); such ideals are marked `~`.
//! A kernel whose work-item loop holds loops has a not-pipelined ideal (its work-items
//! run one after another); the footer names them. `fsm est.` is the analysis's estimate
//! of what today's generator (each block's scheduled states, memory accesses one at a
//! time, no overlap between iterations) spends, from the same loop nest with each loop's
//! FSM cycles per iteration in place of II and depth, for comparison with the measured
//! cycles. Kernels the generator refuses are listed with the refusal.
//!
//! A second table puts each pipelined loop's built II next to what the core's counters
//! measured in the same Verilator run (`run.json`'s `loops`): the II measured (cycles its
//! first stage spent per iteration taken, stalls excluded; it must equal the built II),
//! the same with the memory's stalls, iterations, cycles per iteration and stall cycles. The footer gives the geometric mean of cycles / ideal over
//! the kernels of the pipelining issue's criterion.

use std::path::{Path, PathBuf};
use std::time::Instant;

use ocl_hls::analysis::{ideal::DEFINITION, ideal_cycles, Ideal, LaunchValues};
use ocl_hls::board::BoardSet;
use ocl_hls::engine::{run_file, Engine, RunOptions};
use ocl_hls::frontend::check_file;
use ocl_hls::launch::{self, KernelSig, LaunchSpec};

fn kernels() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance/kernels");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cl") && p.with_extension("yaml").exists())
        .collect();
    v.sort();
    v
}

/// Frontend, lowering and launch resolution as `run_file` does them, then the ideal.
fn ideal_of(cl: &Path, spec_path: &Path) -> Result<(u64, Ideal, String), String> {
    let spec = LaunchSpec::load(spec_path).map_err(|e| e.to_string())?;
    let mut front = ocl_hls::frontend::Options::default();
    for (name, value) in &spec.defines {
        front.pp.defines.push((name.clone(), value.0.clone()));
    }
    let checked = check_file(cl, &front);
    let program = checked.program.as_ref().ok_or("frontend errors")?;
    let sigs: Vec<KernelSig> = program.kernels.iter().map(KernelSig::from_info).collect();
    let l = launch::resolve(&spec, &sigs, 256).map_err(|e| e.to_string())?;
    let module = ocl_hls::compile::lower(program, &checked.sources).map_err(|_| "lowering")?;
    let k = module
        .kernels
        .iter()
        .find(|k| k.name == l.kernel)
        .ok_or("kernel not lowered")?;
    let boards = BoardSet::builtin().map_err(|e| format!("{e:?}"))?;
    let board = boards.get("sim").ok_or("no sim board")?;
    let items = l.global.iter().product();
    let mut env = LaunchValues::of_launch(&l);
    // Loops whose trip count depends on data: the interpreter's average per entry.
    env.measured = Some(ocl_hls::analysis::counts::measure(k, &l)?);
    let cfg = ocl_hls::project::shell_config_for(board);
    let c = ocl_hls::compile::compile(k, &checked.sources, board, &cfg)
        .map_err(|d| format!("{} error(s) compiling", d.list.len()))?;
    let ideal = ideal_cycles(&c.parts(), &checked.sources, board, &env)?;
    // The II each pipelined loop runs at, as the build reports it.
    let piped: Vec<String> = c
        .loops
        .iter()
        .filter(|l| l.pipelined)
        .filter_map(|l| l.scheduled_ii.map(|ii| ii.to_string()))
        .collect();
    let piped = if piped.is_empty() {
        "-".to_string()
    } else {
        piped.join(",")
    };
    Ok((items, ideal, piped))
}

fn main() {
    let started = Instant::now();
    println!("cycles vs ideal on the `sim` board (Verilator; machine shared with other jobs)\n");
    println!(
        "{:<18} {:>6} {:>10} {:>6} {:>6} {:>9} {:>8} {:>10} {:>9}  buffers",
        "kernel", "items", "cycles", "WI II", "depth", "ideal", "ratio", "fsm est.", "piped II"
    );
    let mut notes = Vec::new();
    let mut measured = Vec::new();
    let mut ratios: Vec<(String, f64)> = Vec::new();
    let mut refused = Vec::new();
    let mut holds_loops = Vec::new();
    for cl in kernels() {
        let name = cl
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let spec = cl.with_extension("yaml");
        let run = |engine| {
            run_file(
                &cl,
                &spec,
                &RunOptions {
                    engine,
                    ..RunOptions::default()
                },
            )
        };
        let analysed = ideal_of(&cl, &spec);
        let sim = run(Engine::Sim);
        let (items, ideal, piped) = match analysed {
            Ok(x) => x,
            Err(e) => {
                println!("{name:<18} analysis failed: {e}");
                continue;
            }
        };
        let sim = match sim {
            Ok(s) => s,
            Err(e) => {
                let msg = e.to_string();
                let first = msg.lines().next().unwrap_or_default().to_string();
                println!("{name:<18} {items:>6} {:>10}", "refused");
                refused.push(format!("{name}: {first}"));
                continue;
            }
        };
        let agree = match run(Engine::Interp) {
            Ok(i) if i.buffers == sim.buffers => "= interp",
            Ok(_) => "DIFFER from interp",
            Err(_) => "interp failed",
        };
        let cycles = sim.record.cycles.unwrap_or(0);
        let wi = ideal
            .work_item_loops
            .iter()
            .max_by_key(|l| l.min_ii.unwrap_or(0));
        let ii = wi
            .and_then(|l| l.min_ii)
            .map_or("-".to_string(), |x| x.to_string());
        let depth = wi.map_or("-".to_string(), |l| l.depth.to_string());
        let (ideal_s, ratio) = match &ideal.cycles {
            Ok(c) => {
                // `~`: a trip count is an average the interpreter measured.
                let approx = if ideal.loops.iter().any(|l| l.trip_measured) {
                    "~"
                } else {
                    ""
                };
                let r = cycles as f64 / (*c).max(1) as f64;
                ratios.push((name.clone(), r));
                (format!("{approx}{c}"), format!("{r:.2}"))
            }
            Err(e) => {
                notes.push(format!("{name}: ideal unknown: {e}"));
                ("?".to_string(), "?".to_string())
            }
        };
        let fsm = ideal
            .fsm_estimate
            .as_ref()
            .map_or("?".to_string(), |c| c.to_string());
        println!(
            "{name:<18} {items:>6} {cycles:>10} {ii:>6} {depth:>6} {ideal_s:>9} {ratio:>8} {fsm:>10} {piped:>9}  {agree}"
        );
        if ideal.work_item_loops.iter().any(|l| {
            // A one-item group's loop holding loops costs nothing extra.
            l.min_ii.is_none()
                && l.ii_reason.starts_with("not pipelined")
                && l.trip_count != Some(1)
        }) {
            holds_loops.push(name.clone());
        }
        for l in &sim.record.loops {
            measured.push((name.clone(), l.clone()));
        }
        for l in &ideal.loops {
            if l.min_ii.is_some() || l.work_item_dim == Some(0) {
                let avg = if l.trip_measured { "avg " } else { "" };
                let trip = l
                    .trip_count
                    .map_or("?".to_string(), |t| format!("{avg}{t}"));
                notes.push(format!(
                    "{name}: {} at {} (N {trip}): II {}",
                    l.name, l.location, l.ii_reason
                ));
            }
        }
    }
    println!("\n{DEFINITION}; ratio = cycles / ideal.");
    if !holds_loops.is_empty() {
        println!(
            "ideal not pipelined (holds loops: the work-item loop runs its work-items one \
             after another, so the ratio compares with a sequential ideal): {}",
            holds_loops.join(", ")
        );
    }
    println!(
        "\npipelined loops, built vs measured in Verilator (the core's counters, same runs):\n"
    );
    println!(
        "{:<18} {:<5} {:<34} {:>5} {:>8} {:>8} {:>10} {:>9} {:>8}  agree",
        "kernel", "loop", "where", "II", "measured", "stalled", "iterations", "cyc/iter", "stalls"
    );
    let mut agree = 0;
    for (name, l) in &measured {
        // The controller takes an iteration every II cycles it is not stalled; with the
        // memory's stalls included the II is what the memory allowed.
        let ok = l.admitted == 0 || (l.unstalled_ii - l.ii as f64).abs() < 1e-9;
        agree += usize::from(ok);
        let verdict = if l.admitted == 0 {
            "not entered".to_string()
        } else if !ok {
            "NO".to_string()
        } else if l.achieved_ii > l.ii as f64 * 1.05 {
            format!(
                "yes; memory stalls {:.0}% of its cycles",
                100.0 * l.stall_cycles as f64 / l.cycles.max(1) as f64
            )
        } else {
            "yes".to_string()
        };
        println!(
            "{name:<18} L{:<4} {:<34} {:>5} {:>8.2} {:>8.2} {:>10} {:>9.2} {:>8}  {verdict}",
            l.lp,
            format!(
                "{}{} {}",
                l.name,
                l.unroll.map_or(String::new(), |f| format!(" x{f}")),
                l.location
            )
            .chars()
            .take(34)
            .collect::<String>(),
            l.ii,
            l.unstalled_ii,
            l.achieved_ii,
            l.iterations,
            l.cycles_per_iteration,
            l.stall_cycles
        );
    }
    println!(
        "{agree} of {} pipelined loops run at their built II when not stalled (`measured`; \
         `stalled`: the II with the memory's stalls)",
        measured.len()
    );
    // The pipelining issue's criterion: geometric mean of cycles / ideal over these.
    const CRITERION: [&str; 8] = [
        "vadd",
        "saxpy_unroll",
        "ivdep_unaliased",
        "prefix_sum",
        "integer_ops",
        "vector_types",
        "half_storage",
        "ndrange3d",
    ];
    let chosen: Vec<&(String, f64)> = ratios
        .iter()
        .filter(|(n, _)| CRITERION.contains(&n.as_str()))
        .collect();
    if !chosen.is_empty() {
        let geo = (chosen.iter().map(|(_, r)| r.ln()).sum::<f64>() / chosen.len() as f64).exp();
        let worst = chosen
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(String::new(), |(n, r)| format!("{n} {r:.2}"));
        println!(
            "geometric mean of cycles / ideal over {} ({} kernels): {geo:.2}; highest: {worst}",
            CRITERION.join(", "),
            chosen.len()
        );
    }
    println!("\nwhy (per pipelinable loop: trip count N per entry, minimum II and its reason):");
    for n in notes {
        println!("  {n}");
    }
    println!("\nrefused by the generator:");
    for r in refused {
        println!("  {r}");
    }
    println!("\nbench time {:.1} s", started.elapsed().as_secs_f64());
}
