//! The register map table: the control block's fixed registers, then each argument's
//! words with its type and what the host writes there.

use std::fmt::Write as _;

use super::escape;
use crate::report::json::KernelReport;
use crate::rtl::regmap::{RegArg, RegArgKind};

/// Offsets, names, access and meaning of every register of the core's control block.
pub(super) fn table(p: &mut String, kr: &KernelReport) {
    let m = &kr.register_map;
    p.push_str(
        "<h3>Register map</h3>\n<p class=\"sub\">AXI4-Lite control slave; 32-bit registers; \
         arguments low word first.</p>\n<table>\n<tr><th>Offset</th><th>Name</th><th>Access</th><th>Meaning</th></tr>\n",
    );
    let fixed = [
        (
            m.control,
            "CONTROL",
            "RW",
            "bit 0 START (self-clearing)".to_string(),
        ),
        (
            m.status,
            "STATUS",
            "R",
            "bit 0 DONE, bit 1 BUSY, bits 15:8 error code".into(),
        ),
        (
            m.irq_enable,
            "IRQ_ENABLE",
            "RW",
            "bit 0 done interrupt, bit 1 error interrupt".into(),
        ),
        (
            m.irq_status,
            "IRQ_STATUS",
            "RW1C",
            "bit 0 done event, bit 1 error event (write 1 to clear)".into(),
        ),
    ];
    for (off, name, acc, what) in fixed {
        reg_row(p, off, 1, name, acc, &what);
    }
    for (d, axis) in ["X", "Y", "Z"].iter().enumerate() {
        let what = format!("global work size, dimension {d}");
        reg_row(
            p,
            m.global_size[d],
            1,
            &format!("GLOBAL_SIZE_{axis}"),
            "RW",
            &what,
        );
    }
    for (d, axis) in ["X", "Y", "Z"].iter().enumerate() {
        let what = format!("local work size, dimension {d}");
        reg_row(
            p,
            m.local_size[d],
            1,
            &format!("LOCAL_SIZE_{axis}"),
            "RW",
            &what,
        );
    }
    reg_row(
        p,
        m.nargs,
        1,
        "NARGS",
        "R",
        &format!("{} argument words", m.arg_words()),
    );
    reg_row(p, m.magic, 1, "MAGIC", "R", "0x4F484C53 (\"OHLS\")");
    for a in &m.args {
        let param = kr.params.iter().find(|x| x.name == a.name);
        let ty = param
            .map(|x| format!("{} {} — ", x.ty, x.access))
            .unwrap_or_default();
        let what = format!("{ty}{}", arg_meaning(a));
        reg_row(
            p,
            a.offset,
            a.words,
            &format!("arg {}", a.name),
            "RW",
            &what,
        );
    }
    p.push_str("</table>\n");
}

fn reg_row(p: &mut String, off: u32, words: u32, name: &str, access: &str, what: &str) {
    let at = if words > 1 {
        format!("0x{off:02X}–0x{:02X}", off + 4 * (words - 1))
    } else {
        format!("0x{off:02X}")
    };
    let _ = writeln!(
        p,
        "<tr><td class=\"n\"><code>{at}</code></td><td><code>{}</code></td><td>{access}</td><td>{}</td></tr>",
        escape(name),
        escape(what)
    );
}

fn arg_meaning(a: &RegArg) -> String {
    match &a.kind {
        RegArgKind::Buffer { master, constant } => format!(
            "64-bit base address of a {} buffer, accessed through AXI master {master} (m_{}_*)",
            if *constant { "__constant" } else { "__global" },
            crate::rtl::regmap::hw_name(&a.name)
        ),
        RegArgKind::Scalar { bytes } => format!("{bytes}-byte value"),
        RegArgKind::Struct { bytes } => format!("{bytes}-byte struct, host layout"),
        RegArgKind::Local { max_bytes } => {
            format!("__local buffer size in bytes (at most {max_bytes})")
        }
    }
}
