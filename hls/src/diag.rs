//! Source files, spans and diagnostics rendered as `file.cl:LINE:COL: error: ...` with a caret.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct FileId(pub u32);

/// Index of a macro expansion in a [`SourceMap`]; `ExpansionId(0)` means "not from a macro".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ExpansionId(pub u32);

impl ExpansionId {
    pub const NONE: ExpansionId = ExpansionId(0);
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// A byte range in one source file. Tokens produced by a macro expansion carry the span
/// where their text is spelled (inside the macro definition or the argument) plus the
/// expansion they came from, so a diagnostic can name both the use and the definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
    pub expansion: ExpansionId,
}

impl Span {
    pub fn new(file: FileId, lo: u32, hi: u32) -> Span {
        Span {
            file,
            lo,
            hi,
            expansion: ExpansionId::NONE,
        }
    }

    /// The span covering `self` through `other`. When the two come from different files
    /// or expansions, the caller should first map both to their use sites
    /// ([`SourceMap::use_site`]); here `self` wins in that case.
    pub fn to(self, other: Span) -> Span {
        if self.file == other.file && self.expansion == other.expansion && other.hi >= self.lo {
            Span {
                hi: other.hi.max(self.hi),
                ..self
            }
        } else {
            self
        }
    }
}

/// One file the compiler read.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as the user gave it (or as `#include` resolved it); used in diagnostics.
    pub name: String,
    pub path: PathBuf,
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    fn new(name: String, path: PathBuf, text: String) -> SourceFile {
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile {
            name,
            path,
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in bytes, like clang) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        (line as u32 + 1, offset - self.line_starts[line] + 1)
    }

    /// The text of a 1-based line, without its newline.
    pub fn line_text(&self, line: u32) -> &str {
        let idx = (line as usize).saturating_sub(1);
        let start = self.line_starts.get(idx).copied().unwrap_or(0) as usize;
        let end = self
            .line_starts
            .get(idx + 1)
            .map(|e| *e as usize - 1)
            .unwrap_or(self.text.len());
        self.text[start..end.max(start)].trim_end_matches('\r')
    }
}

/// Where a macro was expanded: the name, the use site and the definition.
#[derive(Debug, Clone)]
pub struct Expansion {
    pub macro_name: String,
    /// The span of the macro's name at the use site (itself possibly inside another expansion).
    pub call_site: Span,
    /// The span of the macro's name in its `#define`; `None` for predefined and `-D` macros.
    pub def_site: Option<Span>,
}

/// All files read by one compilation, and the macro expansions seen.
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    expansions: Vec<Expansion>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap {
            files: Vec::new(),
            // Slot 0 stands for "no expansion".
            expansions: vec![Expansion {
                macro_name: String::new(),
                call_site: Span::default(),
                def_site: None,
            }],
        }
    }

    pub fn add_file(
        &mut self,
        name: impl Into<String>,
        path: impl AsRef<Path>,
        text: String,
    ) -> FileId {
        self.files.push(SourceFile::new(
            name.into(),
            path.as_ref().to_path_buf(),
            text,
        ));
        FileId(self.files.len() as u32 - 1)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    pub fn add_expansion(&mut self, e: Expansion) -> ExpansionId {
        self.expansions.push(e);
        ExpansionId(self.expansions.len() as u32 - 1)
    }

    pub fn expansion(&self, id: ExpansionId) -> &Expansion {
        &self.expansions[id.0 as usize]
    }

    /// The outermost use site of a span: the place in the user's text a diagnostic points at.
    pub fn use_site(&self, mut span: Span) -> Span {
        let mut guard = 0;
        while !span.expansion.is_none() && guard < 1000 {
            span = self.expansion(span.expansion).call_site;
            guard += 1;
        }
        span
    }

    /// The span covering `a` through `b`, both mapped to their use sites when they differ.
    pub fn join(&self, a: Span, b: Span) -> Span {
        if a.file == b.file && a.expansion == b.expansion {
            return a.to(b);
        }
        self.use_site(a).to(self.use_site(b))
    }

    /// The text a span covers (empty when out of range).
    pub fn snippet(&self, span: Span) -> &str {
        let f = self.file(span.file);
        f.text.get(span.lo as usize..span.hi as usize).unwrap_or("")
    }

    /// `file:line:col` of the start of a span's use site.
    pub fn location(&self, span: Span) -> String {
        let s = self.use_site(span);
        let f = self.file(s.file);
        let (l, c) = f.line_col(s.lo);
        format!("{}:{}:{}", f.name, l, c)
    }

    /// 1-based (line, col) of a span's use site.
    pub fn line_col(&self, span: Span) -> (u32, u32) {
        let s = self.use_site(span);
        self.file(s.file).line_col(s.lo)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    fn word(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A secondary message attached to a diagnostic.
#[derive(Clone, Debug)]
pub struct Note {
    pub message: String,
    pub span: Option<Span>,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Option<Span>,
    pub notes: Vec<Note>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: Some(span),
            notes: Vec::new(),
        }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }

    /// An error that belongs to no place in the source (a missing file, a bad option).
    pub fn global(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: None,
            notes: Vec::new(),
        }
    }

    pub fn with_note(mut self, span: Option<Span>, message: impl Into<String>) -> Diagnostic {
        self.notes.push(Note {
            message: message.into(),
            span,
        });
        self
    }
}

/// The diagnostics of one compilation, in the order they were found.
#[derive(Debug, Default)]
pub struct Diagnostics {
    pub list: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }
    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.push(Diagnostic::error(span, message));
    }
    pub fn warning(&mut self, span: Span, message: impl Into<String>) {
        self.push(Diagnostic::warning(span, message));
    }
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(|d| d.severity == Severity::Error)
    }
    pub fn error_count(&self) -> usize {
        self.list
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }
    pub fn extend(&mut self, other: Diagnostics) {
        self.list.extend(other.list);
    }
}

/// Renders one diagnostic like clang: location, severity, message, the source line and a
/// caret under the span; then "expanded from macro" notes for spans inside macros.
pub fn render(sm: &SourceMap, d: &Diagnostic) -> String {
    let mut out = String::new();
    render_one(sm, &mut out, d.severity, &d.message, d.span);
    for n in &d.notes {
        render_one(sm, &mut out, Severity::Note, &n.message, n.span);
    }
    out
}

fn render_one(sm: &SourceMap, out: &mut String, sev: Severity, msg: &str, span: Option<Span>) {
    let Some(span) = span else {
        let _ = writeln!(out, "ocl-hls: {}: {}", sev.word(), msg);
        return;
    };
    let site = sm.use_site(span);
    write_located(sm, out, sev.word(), msg, site);
    // Walk the expansion chain so the user sees both the use and the macro's definition.
    let mut inner = span;
    let mut guard = 0;
    while !inner.expansion.is_none() && guard < 32 {
        let e = sm.expansion(inner.expansion);
        if let Some(def) = e.def_site {
            let spelled = Span {
                expansion: ExpansionId::NONE,
                ..inner
            };
            let at = if spelled.file == def.file && spelled.lo >= def.lo {
                spelled
            } else {
                def
            };
            write_located(
                sm,
                out,
                "note",
                &format!("expanded from macro '{}'", e.macro_name),
                at,
            );
        }
        inner = e.call_site;
        guard += 1;
    }
}

fn write_located(sm: &SourceMap, out: &mut String, sev: &str, msg: &str, span: Span) {
    let f = sm.file(span.file);
    let (line, col) = f.line_col(span.lo);
    let _ = writeln!(out, "{}:{}:{}: {}: {}", f.name, line, col, sev, msg);
    let text = f.line_text(line);
    let _ = writeln!(out, "{}", text);
    let (end_line, end_col) = f.line_col(span.hi.max(span.lo));
    let width = if end_line == line && end_col > col {
        (end_col - col) as usize
    } else {
        1
    };
    let pad: String = text
        .chars()
        .take(col as usize - 1)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let _ = writeln!(out, "{}^{}", pad, "~".repeat(width.saturating_sub(1)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_location_line_and_caret() {
        let mut sm = SourceMap::new();
        let f = sm.add_file("k.cl", "k.cl", "int a;\n  int b = x;\n".to_string());
        let d = Diagnostic::error(Span::new(f, 17, 18), "use of undeclared identifier 'x'");
        let text = render(&sm, &d);
        assert_eq!(
            text,
            "k.cl:2:11: error: use of undeclared identifier 'x'\n  int b = x;\n          ^\n"
        );
    }

    #[test]
    fn macro_spans_point_at_use_and_definition() {
        let mut sm = SourceMap::new();
        let f = sm.add_file("m.cl", "m.cl", "#define BAD y\nint a = BAD;\n".to_string());
        let e = sm.add_expansion(Expansion {
            macro_name: "BAD".into(),
            call_site: Span::new(f, 22, 25),
            def_site: Some(Span::new(f, 8, 11)),
        });
        let tok = Span {
            file: f,
            lo: 12,
            hi: 13,
            expansion: e,
        };
        let text = render(&sm, &Diagnostic::error(tok, "undeclared 'y'"));
        assert!(
            text.starts_with("m.cl:2:9: error: undeclared 'y'"),
            "{text}"
        );
        assert!(
            text.contains("m.cl:1:13: note: expanded from macro 'BAD'"),
            "{text}"
        );
    }
}
