//! `ocl-hls boards`: the known boards as a table (or JSON), or one board's details and
//! operator library. Board files are read in full before anything is printed, so a
//! broken file prints only errors.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;

use crate::board::{Board, BoardError, BoardSet, OpClass};

#[derive(Args, Debug)]
pub struct BoardsArgs {
    /// Show one board (name or alias) in detail, with its operator library
    pub board: Option<String>,
    /// Print JSON (every field of the board files) instead of a table
    #[arg(long)]
    pub json: bool,
    /// Read board files from this folder instead of the built-in boards
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub const EXAMPLES: &str = "\
Examples:
  ocl-hls boards                 list the boards: aliases, device, resources, clock, flow
  ocl-hls boards de10            one board in detail, with its operator library
  ocl-hls boards --json          every board file's contents as JSON
  ocl-hls boards --dir my-boards read board files (*.yaml) from a folder";

/// Exit code 0, or 1 when a board file is broken or the board is unknown.
pub fn run(args: &BoardsArgs) -> u8 {
    let set = match &args.dir {
        Some(d) => BoardSet::load_dir(d),
        None => BoardSet::builtin(),
    };
    let set = match set {
        Ok(s) => s,
        Err(errors) => return report(&errors),
    };
    let boards: Vec<&Board> = match &args.board {
        Some(name) => match set.resolve(name) {
            Ok(b) => vec![b],
            Err(e) => {
                eprintln!("error: {e}");
                return 1;
            }
        },
        None => set.boards.iter().collect(),
    };
    let text = match (args.json, &args.board) {
        (true, _) => match serde_json::to_string_pretty(&serde_json::json!({ "boards": boards })) {
            Ok(j) => j + "\n",
            Err(e) => {
                eprintln!("error: cannot write JSON: {e}");
                return 1;
            }
        },
        (false, Some(_)) => detail(boards[0]),
        (false, None) => table(&boards),
    };
    // A closed pipe (`ocl-hls boards | head`) is not an error worth a panic.
    use std::io::Write as _;
    match std::io::stdout().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write to stdout: {e}");
            1
        }
        _ => 0,
    }
}

fn report(errors: &[BoardError]) -> u8 {
    for e in errors {
        eprintln!("{e}");
    }
    1
}

/// One line per board.
pub fn table(boards: &[&Board]) -> String {
    let mut rows = vec![[
        "BOARD",
        "ALIASES",
        "DEVICE",
        "LOGIC",
        "DSP",
        "BLOCK RAM",
        "KERNEL CLOCK",
        "FLOW",
    ]
    .map(String::from)
    .to_vec()];
    for b in boards {
        let (device, logic, dsp, ram) = match (&b.device, &b.resources) {
            (Some(d), Some(r)) => (
                format!("{} {}", d.family, d.part),
                format!("{} {}", group(r.logic.count), r.logic.unit.name()),
                r.dsps.count.to_string(),
                format!("{} {}", r.block_ram.count, r.block_ram.name),
            ),
            _ => (
                "none (simulation)".into(),
                "unlimited".into(),
                "-".into(),
                "-".into(),
            ),
        };
        rows.push(vec![
            b.name.clone(),
            if b.aliases.is_empty() {
                "-".into()
            } else {
                b.aliases.join(", ")
            },
            device,
            logic,
            dsp,
            ram,
            format!("{} MHz", b.kernel_clock_mhz),
            b.flow.kind.name().to_string(),
        ]);
    }
    aligned(&rows)
}

/// A board's facts and its operator library.
pub fn detail(b: &Board) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{}: {}", b.name, b.description);
    if !b.aliases.is_empty() {
        let _ = writeln!(s, "  aliases: {}", b.aliases.join(", "));
    }
    if let (Some(d), Some(r)) = (&b.device, &b.resources) {
        let _ = writeln!(
            s,
            "  device: {} {} ({}, speed grade {})",
            d.family, d.part, d.package, d.speed_grade
        );
        let _ = writeln!(
            s,
            "  resources: {} {}, {} registers, {} DSPs ({}), {} {} of {} bits, PLLs: {}",
            group(r.logic.count),
            r.logic.unit.name(),
            group(r.registers),
            r.dsps.count,
            r.dsps.kind,
            r.block_ram.count,
            r.block_ram.name,
            r.block_ram.bits_each,
            r.plls
        );
    } else {
        let _ = writeln!(s, "  device: none (simulation; resources unlimited)");
    }
    for c in &b.clocks {
        let _ = writeln!(
            s,
            "  clock: {} at {} ({} MHz, {})",
            c.name, c.pin, c.mhz, c.io_standard
        );
    }
    let m = &b.memory;
    let _ = writeln!(
        s,
        "  memory: {} ({}-bit, {}-beat bursts, {} cycles latency)",
        m.description, m.data_width, m.burst_beats, m.latency_cycles
    );
    let _ = writeln!(
        s,
        "  kernel clock: {} MHz; flow: {}",
        b.kernel_clock_mhz,
        b.flow.kind.name()
    );
    let _ = writeln!(
        s,
        "\noperator library (latency and II in cycles, delay in ns, width: up to N bits):"
    );
    let lib = b.library();
    let mut rows = vec![[
        "OPERATOR", "WIDTH", "LATENCY", "II", "DELAY", "LOGIC", "REGS", "DSP", "LIMIT",
    ]
    .map(String::from)
    .to_vec()];
    for c in OpClass::LIBRARY {
        for t in b.operators.tiers(c) {
            let cost = lib.cost(c, t.max_width.unwrap_or(64));
            let limit = b.operators.limits.units.get(&c);
            rows.push(vec![
                c.name().to_string(),
                t.max_width.map_or("any".into(), |w| w.to_string()),
                cost.latency.to_string(),
                cost.ii.to_string(),
                format!("{:.1}", cost.delay_ns),
                cost.area.logic.to_string(),
                cost.area.registers.to_string(),
                cost.area.dsps.to_string(),
                limit.map_or("-".into(), |n| n.to_string()),
            ]);
        }
    }
    s.push_str(&aligned(&rows));
    let l = &b.operators.limits;
    let _ = writeln!(
        s,
        "memory ports per buffer or on-chip object: {} read, {} write",
        l.read_ports, l.write_ports
    );
    s
}

/// 41910 -> "41,910".
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

fn aligned(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|x| x.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, x)| format!("{x:<w$}", w = widths[i]))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::group;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(group(41910), "41,910");
        assert_eq!(group(553), "553");
        assert_eq!(group(1_073_741_824), "1,073,741,824");
    }
}
