//! The port list of a generated kernel core, read back from its emitted Verilog header so
//! the Platform Designer component, its wrapper and the system description follow the
//! core exactly as written (one source of truth: the emitter's output).

use crate::board::types::PinDir;

/// One port of a module: name, direction, width in bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub dir: PinDir,
    pub width: u32,
}

impl Port {
    pub fn new(name: &str, dir: PinDir, width: u32) -> Port {
        Port {
            name: name.to_string(),
            dir,
            width,
        }
    }

    /// `input  wire [7:0]` style declaration head, without the name.
    pub fn decl(&self) -> String {
        let dir = match self.dir {
            PinDir::In => "input ",
            PinDir::Out => "output",
            PinDir::Inout => "inout ",
        };
        let range = if self.width > 1 {
            format!("[{}:0]", self.width - 1)
        } else {
            String::new()
        };
        format!("{dir} wire {range:<9}")
    }
}

/// The ports of `module` in `text`, in declaration order. Reads the ANSI header the
/// emitter writes (`input  wire [W-1:0] name,` one per line, up to `);`).
pub fn parse(text: &str, module: &str) -> Result<Vec<Port>, String> {
    let head = format!("module {module} (");
    let start = text
        .find(&head)
        .ok_or_else(|| format!("no `module {module} (` header in its file"))?;
    let mut ports = Vec::new();
    for line in text[start + head.len()..].lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with(");") {
            return Ok(ports);
        }
        ports.push(
            parse_line(line).ok_or_else(|| format!("module {module}: unreadable port `{line}`"))?,
        );
    }
    Err(format!("module {module}: port list not closed"))
}

fn parse_line(line: &str) -> Option<Port> {
    let line = line.trim_end_matches(',');
    let mut words = line.split_whitespace();
    let dir = match words.next()? {
        "input" => PinDir::In,
        "output" => PinDir::Out,
        "inout" => PinDir::Inout,
        _ => return None,
    };
    let mut rest: Vec<&str> = words.collect();
    if rest.first() == Some(&"wire") || rest.first() == Some(&"reg") {
        rest.remove(0);
    }
    let (width, name) = match rest.as_slice() {
        [name] => (1, *name),
        [range, name] => (range_width(range)?, *name),
        _ => return None,
    };
    let ident = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    ident.then(|| Port::new(name, dir, width))
}

/// `[7:0]` -> 8; only the emitter's `[N:0]` form.
fn range_width(r: &str) -> Option<u32> {
    let inner = r.strip_prefix('[')?.strip_suffix(']')?;
    let (hi, lo) = inner.split_once(':')?;
    let hi: u32 = hi.trim().parse().ok()?;
    (lo.trim() == "0").then_some(hi + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_emitted_header() {
        let text = "// x\nmodule k_core (\n    input  wire         clk,\n    output wire [255:0] \
                    m_a_wdata,\n    inout  wire [3:0]   io\n);\nendmodule\n";
        let p = parse(text, "k_core").unwrap();
        assert_eq!(
            p,
            vec![
                Port::new("clk", PinDir::In, 1),
                Port::new("m_a_wdata", PinDir::Out, 256),
                Port::new("io", PinDir::Inout, 4),
            ]
        );
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        assert!(parse("module a (\n input wire [7:1] x\n);", "a").is_err());
        assert!(parse("module a (\n input wire x,\n", "a").is_err());
        assert!(parse("module b (\n);", "a").is_err());
    }
}
