//! Resource estimates: the total against the device with the fit verdict, each kernel's
//! use as bars, nextpnr's fmax; or why there are none and how to get them.

use std::fmt::Write as _;

use super::escape;
use crate::estimate::fit::Usage;
use crate::estimate::Status;
use crate::report::json::BuildReport;

/// The build's estimate summary under the kernel list: the total against the device and
/// whether it fits, or why there are no estimates and how to get them.
pub(super) fn overview(p: &mut String, r: &BuildReport) {
    let e = &r.estimates;
    p.push_str("<h2>Resources</h2>\n");
    if e.status != Status::Done {
        missing_estimates(p, r);
        return;
    }
    let tool = e
        .tool
        .as_ref()
        .map(|t| t.version.clone())
        .unwrap_or_default();
    let _ = writeln!(
        p,
        "<p class=\"sub\">Estimated by {} with <code>{}</code>, each core synthesised \
         alone.</p>",
        escape(&tool),
        escape(e.synthesis.as_deref().unwrap_or(""))
    );
    if let Some(t) = &e.total {
        let verdict = match e.fits {
            Some(true) => "All cores together fit the device.",
            Some(false) => "All cores together do NOT fit the device.",
            None => "",
        };
        let _ = writeln!(p, "<p>{verdict}</p>");
        usage_table(p, t);
    }
}

fn missing_estimates(p: &mut String, r: &BuildReport) {
    let e = &r.estimates;
    let note = e.note.as_deref().unwrap_or("");
    let cmd = r.board.flow.estimate.as_deref().unwrap_or("");
    let text = match e.status {
        Status::Skipped => format!(
            "Resource estimates were skipped ({note}); build without --no-estimate to run \
             Yosys (`{cmd}`)."
        ),
        Status::NotRun => format!("Resource estimates were not run: {note}."),
        Status::NoDevice => format!(
            "No resource estimates: board {} is for simulation only.",
            r.board.name
        ),
        Status::Failed => format!("Resource estimates failed: {note}"),
        Status::Done => String::new(),
    };
    let _ = writeln!(p, "<p class=\"note\">{}</p>", escape(&text));
    if let Some(res) = &r.board.resources {
        let _ = writeln!(
            p,
            "<p>Board capacity: {} {}s, {} registers, {} DSP blocks, {} {} blocks.</p>",
            res.logic.count,
            match res.logic.unit {
                crate::board::types::LogicUnit::Alm => "ALM",
                crate::board::types::LogicUnit::Lut4 => "LUT4",
            },
            res.registers,
            res.dsps.count,
            res.block_ram.count,
            escape(&res.block_ram.name)
        );
    }
}

/// One kernel's estimate: its resources as bars against the device, and nextpnr's fmax
/// where the board's flow places and routes.
pub(super) fn kernel(p: &mut String, r: &BuildReport, kernel: &str) {
    p.push_str("<h3>Resources</h3>\n");
    let Some(k) = r.estimates.kernels.iter().find(|k| k.kernel == kernel) else {
        p.push_str("<p class=\"note\">No estimate for this kernel (see Resources above).</p>\n");
        return;
    };
    usage_table(p, &k.usage);
    let Some(t) = &k.timing else {
        return;
    };
    let text = match t.fmax_mhz {
        Some(f) => format!(
            "nextpnr (out of context): fmax {f:.1} MHz on {} against the {:.1} MHz target{}.",
            t.clock.as_deref().unwrap_or("the core clock"),
            t.target_mhz,
            if f >= t.target_mhz {
                ""
            } else {
                " (below target)"
            }
        ),
        None => format!(
            "nextpnr timing {}: {}",
            t.status,
            t.note.as_deref().unwrap_or("")
        ),
    };
    let _ = writeln!(p, "<p>{}</p>", escape(&text));
}

fn usage_table(p: &mut String, u: &Usage) {
    p.push_str("<table class=\"use\">\n");
    for a in u.amounts() {
        let (width, class, pct) = if a.percent.is_finite() {
            (
                a.percent.clamp(0.0, 100.0),
                if a.percent > 100.0 {
                    " class=\"over\""
                } else {
                    ""
                },
                format!("{:.1}%", a.percent),
            )
        } else {
            (100.0, " class=\"over\"", "—".to_string())
        };
        let _ = writeln!(
            p,
            "<tr><th>{}</th><td class=\"n\">{} / {}</td><td><span class=\"bar\">\
             <span{class} style=\"width:{width:.1}%\"></span></span> {pct}</td></tr>",
            escape(&a.name),
            a.used,
            a.available
        );
    }
    p.push_str("</table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSet;
    use crate::estimate::fit::Amount;
    use crate::estimate::nextpnr::Timing;
    use crate::estimate::{Estimates, KernelEstimate};
    use crate::report::json::{BoardReport, Bus, Tool};

    fn report(board: &str, estimates: Estimates) -> BuildReport {
        let sets = BoardSet::builtin().expect("built-in boards");
        let b = sets.get(board).expect("board");
        BuildReport {
            format: 1,
            tool: Tool::this(),
            command: vec!["ocl-hls".into(), "build".into(), "a&b.cl".into()],
            source: "a&b.cl".into(),
            board: BoardReport::of(b),
            bus: Bus::of(&crate::project::shell_config_for(b)),
            kernels: Vec::new(),
            estimates,
        }
    }

    fn usage(alms: u64, dsps: u64) -> Usage {
        Usage {
            logic: Amount::new("ALMs", alms, 41910),
            registers: Amount::new("registers", 10, 167640),
            dsps: Amount::new("DSPs", dsps, 112),
            block_ram: Amount::new("M10K", 0, 0),
            large_ram: None,
        }
    }

    fn done(u: Usage, timing: Option<Timing>) -> Estimates {
        Estimates {
            status: Status::Done,
            note: None,
            tool: None,
            synthesis: Some("synth_intel_alm -family cyclonev".into()),
            kernels: vec![KernelEstimate {
                kernel: "k".into(),
                top: "k_core".into(),
                command: "yosys ...".into(),
                seconds: 12.5,
                usage: u.clone(),
                cells: Default::default(),
                timing,
            }],
            total: Some(u),
            fits: Some(true),
            seconds: 12.5,
        }
    }

    #[test]
    fn escape_covers_markup_quotes_and_controls() {
        assert_eq!(
            escape("a<b>&\"c'\u{1}"),
            "a&lt;b&gt;&amp;&quot;c&#39;\u{FFFD}"
        );
    }

    #[test]
    fn estimates_become_bars_without_timings() {
        let r = report("de10", done(usage(20955, 150), None));
        let mut p = String::new();
        overview(&mut p, &r);
        kernel(&mut p, &r, "k");
        assert!(
            p.contains("<th>ALMs</th><td class=\"n\">20955 / 41910</td>"),
            "{p}"
        );
        assert!(p.contains("style=\"width:50.0%\""), "{p}");
        // 150 of 112 DSPs: a full, red bar and the real percentage.
        assert!(p.contains("class=\"over\" style=\"width:100.0%\"></span></span> 133.9%"));
        assert!(p.contains("fit the device"));
        // Wall-clock seconds would make equal builds differ.
        assert!(!p.contains("12.5"), "{p}");
    }

    #[test]
    fn fmax_is_shown_against_the_target() {
        let timing = Timing {
            fmax_mhz: Some(87.25),
            clock: Some("clk".into()),
            ..Timing::not_run(
                BoardSet::builtin().unwrap().get("ulx3s").unwrap(),
                String::new(),
            )
        };
        let r = report("ulx3s", done(usage(1, 0), Some(timing)));
        let mut p = String::new();
        kernel(&mut p, &r, "k");
        assert!(p.contains("fmax 87.2 MHz on clk"), "{p}");
    }

    #[test]
    fn missing_estimates_say_why() {
        let mut r = report("de10", Estimates::skipped());
        let mut p = String::new();
        overview(&mut p, &r);
        assert!(p.contains("skipped"), "{p}");
        assert!(p.contains("Board capacity: 41910 ALMs"), "{p}");
        r.estimates.status = Status::NotRun;
        r.estimates.note = Some("no yosys on PATH; install it with apt-get install yosys".into());
        p.clear();
        overview(&mut p, &r);
        assert!(p.contains("apt-get install yosys"), "{p}");
    }
}
