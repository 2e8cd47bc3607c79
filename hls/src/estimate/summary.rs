//! The estimates as `ocl-hls build` prints them: a small table of each core's resource
//! use against the board, the total, nextpnr's fmax, or one line saying why there are
//! no estimates.

use std::fmt::Write as _;

use super::fit::{Amount, Usage};
use super::{Estimates, Status};

fn cell(a: &Amount) -> String {
    format!("{} ({}%)", a.used, a.percent)
}

fn row(s: &mut String, name: &str, u: &Usage) {
    let cols: Vec<String> = u.amounts().into_iter().map(cell).collect();
    let _ = write!(s, "  {name:<16}");
    for c in cols {
        let _ = write!(s, " {c:>16}");
    }
    s.push('\n');
}

/// The lines for the build summary (empty for a board without a device).
pub fn text(e: &Estimates) -> String {
    let mut s = String::new();
    let note = e.note.as_deref().unwrap_or("");
    match e.status {
        Status::NoDevice => return s,
        Status::Skipped => {
            let _ = writeln!(s, "estimates skipped ({note})");
            return s;
        }
        Status::NotRun => {
            let _ = writeln!(s, "estimates not run: {note}");
            return s;
        }
        Status::Failed => {
            let _ = writeln!(s, "estimates failed: {note}");
            return s;
        }
        Status::Done => {}
    }
    let tool = e
        .tool
        .as_ref()
        .map(|t| {
            t.version
                .split(" (")
                .next()
                .unwrap_or(&t.version)
                .to_string()
        })
        .unwrap_or_default();
    let synth = e.synthesis.as_deref().unwrap_or("");
    let _ = writeln!(s, "estimates ({tool}, {synth}; {:.1} s):", e.seconds);
    let Some(first) = e.kernels.first() else {
        return s;
    };
    let _ = write!(s, "  {:<16}", "kernel");
    for a in first.usage.amounts() {
        let _ = write!(s, " {:>16}", a.name);
    }
    s.push('\n');
    for k in &e.kernels {
        row(&mut s, &k.kernel, &k.usage);
    }
    if let (Some(t), true) = (&e.total, e.kernels.len() > 1) {
        row(&mut s, "total", t);
    }
    if let (Some(t), Some(false)) = (&e.total, e.fits) {
        let over: Vec<String> = t
            .overfull()
            .iter()
            .map(|a| format!("{} {} of {}", a.name, a.used, a.available))
            .collect();
        let _ = writeln!(s, "  DOES NOT FIT the device: {}", over.join(", "));
    }
    for k in &e.kernels {
        let Some(t) = &k.timing else { continue };
        match t.fmax_mhz {
            Some(f) => {
                let _ = writeln!(
                    s,
                    "  fmax {}: {f} MHz (nextpnr, out of context; target {} MHz)",
                    k.kernel, t.target_mhz
                );
            }
            None => {
                let _ = writeln!(
                    s,
                    "  fmax {}: {} ({})",
                    k.kernel,
                    t.status,
                    t.note.as_deref().unwrap_or("")
                );
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::KernelEstimate;

    fn usage(alms: u64) -> Usage {
        Usage {
            logic: Amount::new("ALMs", alms, 41910),
            registers: Amount::new("registers", 10, 167640),
            dsps: Amount::new("DSPs", 0, 112),
            block_ram: Amount::new("M10K", 2, 553),
            large_ram: None,
        }
    }

    fn kernel(name: &str, alms: u64) -> KernelEstimate {
        KernelEstimate {
            kernel: name.into(),
            top: format!("{name}_core"),
            command: String::new(),
            seconds: 1.0,
            usage: usage(alms),
            cells: Default::default(),
            timing: None,
        }
    }

    #[test]
    fn one_line_without_estimates() {
        let mut e = Estimates::skipped();
        assert_eq!(text(&e), "estimates skipped (--no-estimate)\n");
        e.status = Status::NotRun;
        e.note = Some("no yosys; install it".into());
        assert_eq!(text(&e), "estimates not run: no yosys; install it\n");
        e.status = Status::NoDevice;
        assert_eq!(text(&e), "");
    }

    #[test]
    fn a_table_with_a_total_and_the_overfit() {
        let mut e = Estimates::skipped();
        e.status = Status::Done;
        e.kernels = vec![kernel("a", 100), kernel("b", 41900)];
        e.total = Usage::total(&[&e.kernels[0].usage, &e.kernels[1].usage]);
        e.fits = Some(false);
        let t = text(&e);
        assert!(t.contains("ALMs") && t.contains("M10K"), "{t}");
        assert!(t.contains("100 (0.2%)"), "{t}");
        assert!(t.contains("total") && t.contains("42000 (100.2%)"), "{t}");
        assert!(
            t.contains("DOES NOT FIT the device: ALMs 42000 of 41910"),
            "{t}"
        );
    }
}
