//! Netlist -> Verilog-2005 text: checks widths, drivers and names first (a failure is a
//! compiler bug reported as an error, never lint-dirty Verilog), then prints the module in
//! a fixed order so the same netlist always gives the same bytes.

use super::expr::Expr;
use super::netlist::{Conn, Dir, Item, Lhs, Module, NetId, NetKind, ParamValue, Process};
use super::RtlError;
use std::collections::BTreeSet;
use std::fmt::Write;

/// Name of the wire that swallows bits nothing reads: Verilator's default `unused` pattern
/// exempts it from UNUSED warnings, which is the documented way to say "deliberately unread".
pub const UNUSED_SINK: &str = "ohls_unused";

/// Verilog-2005 and SystemVerilog keywords (Verilator parses `.v` files as SystemVerilog).
const KEYWORDS: &[&str] = &[
    "always",
    "and",
    "assign",
    "automatic",
    "begin",
    "bit",
    "buf",
    "byte",
    "case",
    "casex",
    "casez",
    "cell",
    "chandle",
    "class",
    "cmos",
    "config",
    "const",
    "deassign",
    "default",
    "defparam",
    "design",
    "disable",
    "do",
    "edge",
    "else",
    "end",
    "endcase",
    "endclass",
    "endconfig",
    "endfunction",
    "endgenerate",
    "endinterface",
    "endmodule",
    "endpackage",
    "endprimitive",
    "endspecify",
    "endtable",
    "endtask",
    "enum",
    "event",
    "export",
    "extern",
    "final",
    "for",
    "force",
    "forever",
    "fork",
    "function",
    "generate",
    "genvar",
    "highz0",
    "highz1",
    "if",
    "ifnone",
    "import",
    "incdir",
    "include",
    "initial",
    "inout",
    "input",
    "instance",
    "int",
    "integer",
    "interface",
    "join",
    "large",
    "liblist",
    "library",
    "localparam",
    "logic",
    "longint",
    "macromodule",
    "medium",
    "module",
    "nand",
    "negedge",
    "new",
    "nmos",
    "nor",
    "noshowcancelled",
    "not",
    "notif0",
    "notif1",
    "null",
    "or",
    "output",
    "package",
    "packed",
    "parameter",
    "pmos",
    "posedge",
    "primitive",
    "priority",
    "program",
    "pull0",
    "pull1",
    "pulldown",
    "pullup",
    "pulsestyle_ondetect",
    "pulsestyle_onevent",
    "rcmos",
    "real",
    "realtime",
    "reg",
    "release",
    "repeat",
    "return",
    "rnmos",
    "rpmos",
    "rtran",
    "rtranif0",
    "rtranif1",
    "scalared",
    "shortint",
    "shortreal",
    "showcancelled",
    "signed",
    "small",
    "specify",
    "specparam",
    "static",
    "string",
    "strong0",
    "strong1",
    "struct",
    "supply0",
    "supply1",
    "table",
    "task",
    "this",
    "time",
    "tran",
    "tranif0",
    "tranif1",
    "tri",
    "tri0",
    "tri1",
    "triand",
    "trior",
    "trireg",
    "type",
    "typedef",
    "union",
    "unique",
    "unsigned",
    "use",
    "uwire",
    "var",
    "vectored",
    "virtual",
    "void",
    "wait",
    "wand",
    "weak0",
    "weak1",
    "while",
    "wire",
    "wor",
    "xnor",
    "xor",
];

/// Checks `m` and returns its Verilog text (one module, for a file named `NAME.v`).
pub fn emit(m: &Module) -> Result<String, RtlError> {
    check_names(m)?;
    check_widths(m)?;
    check_drivers(m)?;
    let folded = super::fold::fold_compares(m);
    let m = &folded;
    let unread = unread_bits(m);
    Ok(print(m, &unread))
}

fn err<T>(m: &Module, msg: String) -> Result<T, RtlError> {
    Err(RtlError::new(&m.name, msg))
}

/// A plain Verilog identifier that no tool mistakes for a keyword or escapes.
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&s)
}

fn check_names(m: &Module) -> Result<(), RtlError> {
    if !is_identifier(&m.name) {
        return err(m, format!("module name `{}` is not an identifier", m.name));
    }
    let mut seen = BTreeSet::new();
    seen.insert(UNUSED_SINK.to_string());
    let names = m
        .nets()
        .map(|(_, n)| &n.name)
        .chain(m.instances().iter().map(|i| &i.name))
        .chain(m.params.iter().map(|(p, _)| p));
    for name in names {
        if !is_identifier(name) {
            return err(m, format!("`{name}` is not a Verilog identifier"));
        }
        if !seen.insert(name.clone()) {
            return err(m, format!("two things are named `{name}`"));
        }
    }
    for inst in m.instances() {
        if !is_identifier(&inst.module) {
            return err(
                m,
                format!("instance of `{}`: not an identifier", inst.module),
            );
        }
        let mut ports = BTreeSet::new();
        for p in &inst.ports {
            if !is_identifier(&p.port) || !ports.insert(&p.port) {
                return err(
                    m,
                    format!("instance {}: port `{}` bad or repeated", inst.name, p.port),
                );
            }
        }
    }
    Ok(())
}

fn lhs_width(m: &Module, lhs: &Lhs) -> Result<u32, RtlError> {
    let n = m.net_checked(lhs.net)?;
    match lhs.range {
        None => Ok(n.width),
        Some((hi, lo)) if lo <= hi && hi < n.width => Ok(hi - lo + 1),
        Some((hi, lo)) => err(
            m,
            format!(
                "[{hi}:{lo}] of `{}` ({} bits) is out of range",
                n.name, n.width
            ),
        ),
    }
}

/// Assign and instance outputs may drive wires only, never inputs or registers.
fn check_wire_target(m: &Module, lhs: &Lhs, what: &str) -> Result<u32, RtlError> {
    let w = lhs_width(m, lhs)?;
    let n = m.net(lhs.net);
    if n.kind != NetKind::Wire || n.dir == Some(Dir::Input) {
        return err(
            m,
            format!("{what} drives `{}`, which is not a wire", n.name),
        );
    }
    Ok(w)
}

fn expect_width(m: &Module, e: &Expr, want: u32, what: &str) -> Result<(), RtlError> {
    let got = e.width(m)?;
    if got != want {
        return err(m, format!("{what}: {got} bits where {want} are expected"));
    }
    Ok(())
}

fn check_widths(m: &Module) -> Result<(), RtlError> {
    for (_, n) in m.nets() {
        if n.width == 0 {
            return err(m, format!("`{}` has width 0", n.name));
        }
    }
    for item in &m.items {
        if let Item::Assign(a) = item {
            let name = &m.net_checked(a.lhs.net)?.name;
            let w = check_wire_target(m, &a.lhs, &format!("assign to {name}"))?;
            expect_width(m, &a.rhs, w, &format!("assign to `{name}`"))?;
        }
    }
    for p in m.processes() {
        check_process(m, p)?;
    }
    for inst in m.instances() {
        for pc in &inst.ports {
            let what = format!("port {} of {} ({})", pc.port, inst.name, inst.module);
            match &pc.conn {
                Conn::In(e) => expect_width(m, e, pc.width, &what)?,
                Conn::Out(lhs) => {
                    let w = check_wire_target(m, lhs, &what)?;
                    if w != pc.width {
                        return err(m, format!("{what}: {} bits connected to {w}", pc.width));
                    }
                }
            }
        }
    }
    Ok(())
}

fn check_process(m: &Module, p: &Process) -> Result<(), RtlError> {
    expect_width(m, &Expr::Net(p.clock), 1, "process clock")?;
    if let Some(r) = p.reset {
        expect_width(m, &Expr::Net(r), 1, "process reset")?;
    } else if !p.reset_values.is_empty() {
        return err(m, "reset values in a process without reset".into());
    }
    if let Some(e) = &p.enable {
        expect_width(m, e, 1, "process enable")?;
    }
    let is_reg = |id: NetId| -> Result<(), RtlError> {
        let n = m.net_checked(id)?;
        if n.kind != NetKind::Reg {
            return err(
                m,
                format!("a process drives `{}`, which is not a reg", n.name),
            );
        }
        Ok(())
    };
    for (r, v) in &p.reset_values {
        is_reg(*r)?;
        let n = m.net(*r);
        if v.width != n.width {
            return err(
                m,
                format!(
                    "reset value of `{}`: {} bits for {}",
                    n.name, v.width, n.width
                ),
            );
        }
    }
    for u in &p.updates {
        is_reg(u.reg)?;
        let n = m.net(u.reg);
        expect_width(m, &u.value, n.width, &format!("update of `{}`", n.name))?;
        if let Some(c) = &u.when {
            expect_width(m, c, 1, &format!("condition of the update of `{}`", n.name))?;
        }
    }
    Ok(())
}

/// Every bit of every wire and output is driven exactly once; every reg by one process.
fn check_drivers(m: &Module) -> Result<(), RtlError> {
    let mut drivers: Vec<Vec<u8>> = m.nets().map(|(_, n)| vec![0; n.width as usize]).collect();
    let mut mark = |lhs: &Lhs| {
        let n = m.net(lhs.net);
        let (hi, lo) = lhs.range.unwrap_or((n.width - 1, 0));
        for b in lo..=hi {
            drivers[lhs.net.0 as usize][b as usize] += 1;
        }
    };
    for item in &m.items {
        if let Item::Assign(a) = item {
            mark(&a.lhs);
        }
    }
    for inst in m.instances() {
        for pc in &inst.ports {
            if let Conn::Out(lhs) = &pc.conn {
                mark(lhs);
            }
        }
    }
    for (i, p) in m.processes().iter().enumerate() {
        let regs: BTreeSet<NetId> = p.updates.iter().map(|u| u.reg).collect();
        for r in regs {
            drivers[r.0 as usize].iter_mut().for_each(|d| *d += 1);
        }
        for (r, _) in &p.reset_values {
            if !p.updates.iter().any(|u| u.reg == *r) {
                let name = &m.net(*r).name;
                return err(
                    m,
                    format!("process {i} resets `{name}` but never updates it"),
                );
            }
        }
    }
    for (id, n) in m.nets() {
        if n.dir == Some(Dir::Input) {
            continue;
        }
        let d = &drivers[id.0 as usize];
        if let Some(b) = d.iter().position(|&c| c > 1) {
            return err(m, format!("`{}` bit {b} has {} drivers", n.name, d[b]));
        }
        if let Some(b) = d.iter().position(|&c| c == 0) {
            return err(m, format!("`{}` bit {b} is never driven", n.name));
        }
    }
    Ok(())
}

/// Per net, the bit ranges (hi, lo) nothing in the module reads, outputs excepted.
fn unread_bits(m: &Module) -> Vec<(NetId, u32, u32)> {
    let mut read: Vec<Vec<bool>> = m
        .nets()
        .map(|(_, n)| vec![n.dir == Some(Dir::Output); n.width as usize])
        .collect();
    let mut f = |id: NetId, hi: u32, lo: u32| {
        for b in lo..=hi {
            read[id.0 as usize][b as usize] = true;
        }
    };
    for item in &m.items {
        if let Item::Assign(a) = item {
            a.rhs.reads(m, &mut f);
        }
    }
    for p in m.processes() {
        f(p.clock, 0, 0);
        if let Some(r) = p.reset {
            f(r, 0, 0);
        }
        if let Some(e) = &p.enable {
            e.reads(m, &mut f);
        }
        for u in &p.updates {
            u.value.reads(m, &mut f);
            if let Some(c) = &u.when {
                c.reads(m, &mut f);
            }
        }
    }
    for inst in m.instances() {
        for pc in &inst.ports {
            if let Conn::In(e) = &pc.conn {
                e.reads(m, &mut f);
            }
        }
    }
    let mut out = Vec::new();
    for (id, _) in m.nets() {
        let bits = &read[id.0 as usize];
        let mut b = 0;
        while b < bits.len() {
            if bits[b] {
                b += 1;
                continue;
            }
            let lo = b;
            while b < bits.len() && !bits[b] {
                b += 1;
            }
            out.push((id, (b - 1) as u32, lo as u32));
        }
    }
    out
}

fn range(width: u32) -> String {
    if width == 1 {
        String::new()
    } else {
        format!("[{}:0]", width - 1)
    }
}

fn loc_comment(loc: &Option<super::netlist::SrcLoc>, comment: &Option<String>) -> String {
    let parts: Vec<String> = comment
        .iter()
        .cloned()
        .chain(loc.iter().map(|l| l.to_string()))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("  // {}", parts.join(" "))
    }
}

fn lhs_text(m: &Module, lhs: &Lhs) -> String {
    let name = &m.net(lhs.net).name;
    match lhs.range {
        None => name.clone(),
        // A 1-bit net is declared without a range; Verilog cannot select its bit 0.
        Some((0, 0)) if m.net(lhs.net).width == 1 => name.clone(),
        Some((hi, lo)) if hi == lo => format!("{name}[{hi}]"),
        Some((hi, lo)) => format!("{name}[{hi}:{lo}]"),
    }
}

fn print(m: &Module, unread: &[(NetId, u32, u32)]) -> String {
    let mut s = String::new();
    for line in &m.doc {
        let _ = writeln!(s, "{}", format!("// {line}").trim_end());
    }
    s.push_str("// Generated by ocl-hls; do not edit.\n`default_nettype none\n");
    print_header(m, &mut s);
    for (name, v) in &m.params {
        let _ = writeln!(s, "    localparam integer {name} = {v};");
    }
    print_decls(m, &mut s);
    for item in &m.items {
        match item {
            Item::Comment(c) => {
                let _ = writeln!(s, "\n    // ---- {c}");
            }
            Item::Assign(a) => {
                let _ = writeln!(
                    s,
                    "    assign {} = {};{}",
                    lhs_text(m, &a.lhs),
                    a.rhs.verilog(m),
                    loc_comment(&a.loc, &None)
                );
            }
            Item::Process(p) => {
                s.push('\n');
                print_process(m, m.process_ref(*p), &mut s)
            }
            Item::Instance(i) => {
                s.push('\n');
                print_instance(m, m.inst(*i), &mut s)
            }
        }
    }
    if !unread.is_empty() {
        let parts: Vec<String> = unread
            .iter()
            .map(|&(id, hi, lo)| {
                let n = m.net(id);
                if n.width == 1 {
                    n.name.clone()
                } else {
                    lhs_text(
                        m,
                        &Lhs {
                            net: id,
                            range: Some((hi, lo)),
                        },
                    )
                }
            })
            .collect();
        let _ = writeln!(
            s,
            "\n    // Bits nothing reads, gathered so lint knows it is deliberate."
        );
        let _ = writeln!(
            s,
            "    wire {UNUSED_SINK} = &{{1'b0, {}}};",
            // Sixteen names a line: a long module must not give one line of thousands.
            parts
                .chunks(16)
                .map(|c| c.join(", "))
                .collect::<Vec<_>>()
                .join(",\n        ")
        );
    }
    s.push_str("endmodule\n`default_nettype wire\n");
    s
}

fn print_header(m: &Module, s: &mut String) {
    let ports: Vec<(NetId, &super::netlist::Net)> = m.ports().collect();
    if ports.is_empty() {
        let _ = writeln!(s, "module {};", m.name);
        return;
    }
    let rw = ports
        .iter()
        .map(|(_, n)| range(n.width).len())
        .max()
        .unwrap_or(0);
    let _ = writeln!(s, "module {} (", m.name);
    for (i, (_, n)) in ports.iter().enumerate() {
        let dir = if n.dir == Some(Dir::Input) {
            "input "
        } else {
            "output"
        };
        let kind = if n.kind == NetKind::Reg {
            "reg "
        } else {
            "wire"
        };
        let comma = if i + 1 < ports.len() { "," } else { "" };
        let decl = format!("    {dir} {kind} {:rw$} {}{comma}", range(n.width), n.name);
        let _ = writeln!(s, "{}{}", decl, loc_comment(&n.loc, &n.comment));
    }
    s.push_str(");\n");
}

fn print_decls(m: &Module, s: &mut String) {
    let locals: Vec<&super::netlist::Net> = m
        .nets()
        .filter(|(_, n)| n.dir.is_none())
        .map(|(_, n)| n)
        .collect();
    let rw = locals
        .iter()
        .map(|n| range(n.width).len())
        .max()
        .unwrap_or(0);
    for n in locals {
        let kind = if n.kind == NetKind::Reg {
            "reg "
        } else {
            "wire"
        };
        let decl = format!("    {kind} {:rw$} {};", range(n.width), n.name);
        let _ = writeln!(
            s,
            "{}{}",
            decl.replace("  ;", ";"),
            loc_comment(&n.loc, &n.comment)
        );
    }
}

fn print_process(m: &Module, p: &Process, s: &mut String) {
    if let Some(c) = &p.comment {
        let _ = writeln!(s, "    // {c}");
    }
    let _ = writeln!(s, "    always @(posedge {}) begin", m.net(p.clock).name);
    let mut indent = "        ";
    let mut close = 0;
    if let Some(r) = p.reset {
        let _ = writeln!(s, "        if ({}) begin", m.net(r).name);
        for (reg, v) in &p.reset_values {
            let _ = writeln!(s, "            {} <= {};", m.net(*reg).name, v.verilog());
        }
        match &p.enable {
            Some(e) => {
                let _ = writeln!(s, "        end else if ({}) begin", e.verilog(m));
            }
            None => s.push_str("        end else begin\n"),
        }
        indent = "            ";
        close = 1;
    } else if let Some(e) = &p.enable {
        let _ = writeln!(s, "        if ({}) begin", e.verilog(m));
        indent = "            ";
        close = 1;
    }
    for u in &p.updates {
        let name = &m.net(u.reg).name;
        let cond = match &u.when {
            Some(c) => format!("if ({}) ", c.verilog(m)),
            None => String::new(),
        };
        let _ = writeln!(
            s,
            "{indent}{cond}{name} <= {};{}",
            u.value.verilog(m),
            loc_comment(&u.loc, &None)
        );
    }
    if close == 1 {
        s.push_str("        end\n");
    }
    s.push_str("    end\n");
}

fn print_instance(m: &Module, inst: &super::netlist::Instance, s: &mut String) {
    if let Some(c) = &inst.comment {
        let _ = writeln!(s, "    // {c}");
    }
    let tail = loc_comment(&inst.loc, &None);
    if inst.params.is_empty() {
        let _ = writeln!(s, "    {} {} ({}", inst.module, inst.name, tail.trim_end());
    } else {
        let _ = writeln!(s, "    {} #({}", inst.module, tail.trim_end());
        for (i, (name, v)) in inst.params.iter().enumerate() {
            let v = match v {
                ParamValue::Int(x) => x.to_string(),
                ParamValue::Const(c) => c.verilog(),
            };
            let comma = if i + 1 < inst.params.len() { "," } else { "" };
            let _ = writeln!(s, "        .{name}({v}){comma}");
        }
        let _ = writeln!(s, "    ) {} (", inst.name);
    }
    for (i, pc) in inst.ports.iter().enumerate() {
        let v = match &pc.conn {
            Conn::In(e) => e.verilog(m),
            Conn::Out(l) => lhs_text(m, l),
        };
        let comma = if i + 1 < inst.ports.len() { "," } else { "" };
        let _ = writeln!(s, "        .{}({v}){comma}", pc.port);
    }
    s.push_str("    );\n");
}
