//! The C preprocessor: reads files line by line, runs directives and expands macros into
//! the token stream the parser reads.

mod cond;
mod define;
mod directives;
mod expand;
mod hideset;
mod include;
mod literal;
mod paste;
mod predefined;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;

use crate::diag::{Diagnostic, Diagnostics, FileId, SourceMap, Span};
use crate::frontend::lexer::{lex_lines, LexedLine};
use crate::frontend::token::{Token, TokenKind};

use define::Macro;
use hideset::{HideSet, HideSets, MacroSym};

/// Options of the preprocessor, from the command line.
#[derive(Clone, Debug, Default)]
pub struct PpOptions {
    /// `-D NAME` (value None means `1`) and `-D NAME=VALUE`, in command-line order.
    pub defines: Vec<(String, Option<String>)>,
    /// `-U NAME`
    pub undefines: Vec<String>,
    /// `-I DIR`, searched in order after the directory of the including file.
    pub include_dirs: Vec<PathBuf>,
    /// `--include-root DIR`: every included file must be inside DIR (for services that
    /// compile untrusted code); `None` reads includes wherever clang would.
    pub include_root: Option<PathBuf>,
}

/// Most tokens the preprocessor will produce (output and macro expansion work alike)
/// before it stops with an error: the guard against exponential macro bombs.
const MAX_TOKENS: usize = 10_000_000;
/// Deepest `#include` nesting.
const MAX_INCLUDE_DEPTH: usize = 200;
/// Deepest nesting of macro invocations inside macro arguments.
const MAX_ARG_DEPTH: u32 = 200;
/// Most tokens held at once by nested argument pre-expansions (each level keeps its own
/// copy, so `f(f(f(...)))` would otherwise need memory quadratic in the input).
const MAX_LIVE_ARG_TOKENS: usize = 2_000_000;

/// Preprocesses the file `main` (already added to `sm` by the caller) and returns the token
/// stream for the parser, ending with one `TokenKind::Eof`. Included files are read from disk
/// and added to `sm`. Errors go to `diags`; the function never panics, never loops forever.
pub fn preprocess(
    sm: &mut SourceMap,
    main: FileId,
    opts: &PpOptions,
    diags: &mut Diagnostics,
) -> Vec<Token> {
    preprocess_limited(sm, main, opts, diags, MAX_TOKENS)
}

/// [`preprocess`] with another token limit (tests use a small one to stay fast).
pub(crate) fn preprocess_limited(
    sm: &mut SourceMap,
    main: FileId,
    opts: &PpOptions,
    diags: &mut Diagnostics,
    limit: usize,
) -> Vec<Token> {
    let mut pp = Pp::new(sm, main, opts, diags);
    pp.limit = limit;
    let out = pp.run();
    let end = sm.file(main).text.len() as u32;
    let mut toks: Vec<Token> = out.into_iter().map(|t| t.tok).collect();
    toks.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(main, end, end),
        space_before: true,
    });
    toks
}

/// A token inside the preprocessor: the token plus the macros it may not re-expand.
#[derive(Clone, Debug)]
pub(crate) struct PpTok {
    pub tok: Token,
    pub hs: HideSet,
    /// An empty macro argument next to `##` (C99 "placemarker"); removed after pasting.
    pub placemarker: bool,
}

impl PpTok {
    fn plain(tok: Token) -> PpTok {
        PpTok {
            tok,
            hs: HideSet::EMPTY,
            placemarker: false,
        }
    }
}

/// Where the expansion loop reads tokens: a stack of pending tokens (top = next), then,
/// for the main stream only, the files.
pub(crate) struct Input {
    pub stack: Vec<PpTok>,
    pub from_files: bool,
}

/// State of one `#if` group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CondState {
    /// This branch is being read.
    Active,
    /// No branch taken yet; looking for a true `#elif` or an `#else`.
    Seeking,
    /// A branch was taken (or the whole group is inside a skipped group): skip to `#endif`.
    Done,
}

#[derive(Clone, Debug)]
struct CondFrame {
    span: Span,
    state: CondState,
    seen_else: bool,
}

/// A file being read.
struct FileState {
    file: FileId,
    lines: std::vec::IntoIter<LexedLine>,
    cur: std::vec::IntoIter<Token>,
    /// Number of open `#if` groups when the file was entered: its own groups lie above.
    cond_base: usize,
    /// Canonical path on disk, for `#pragma once` (None for text that is not on disk).
    canon: Option<PathBuf>,
    /// Lexical errors of no single line (an unterminated comment), reported at the end.
    late_diags: Vec<Diagnostic>,
}

pub(crate) struct Pp<'a> {
    sm: &'a mut SourceMap,
    diags: &'a mut Diagnostics,
    opts: &'a PpOptions,
    main: FileId,
    macros: HashMap<String, Rc<Macro>>,
    syms: HashMap<String, MacroSym>,
    hs: HideSets,
    files: Vec<FileState>,
    conds: Vec<CondFrame>,
    /// The kernel's folder and the `--include-root` confinement.
    search: include::Search,
    once: HashSet<PathBuf>,
    /// The `<built-in>` file holding predefined and `-D` macros (their def_site is None).
    builtin_file: Option<FileId>,
    counter: u64,
    /// Tokens produced so far by output and expansion; capped by `limit`.
    produced: usize,
    limit: usize,
    /// Tokens currently held by argument pre-expansions in progress.
    live_arg_tokens: usize,
    /// Inside an `#if` line: the operand of `defined` is not expanded.
    in_if: bool,
    /// Set after a fatal limit: everything stops.
    aborted: bool,
}

impl<'a> Pp<'a> {
    fn new(
        sm: &'a mut SourceMap,
        main: FileId,
        opts: &'a PpOptions,
        diags: &'a mut Diagnostics,
    ) -> Pp<'a> {
        let search = include::search(sm, main, opts);
        let mut pp = Pp {
            sm,
            diags,
            opts,
            main,
            macros: HashMap::new(),
            syms: HashMap::new(),
            hs: HideSets::default(),
            files: Vec::new(),
            conds: Vec::new(),
            search,
            once: HashSet::new(),
            builtin_file: None,
            counter: 0,
            produced: 0,
            limit: MAX_TOKENS,
            live_arg_tokens: 0,
            in_if: false,
            aborted: false,
        };
        pp.define_builtins();
        pp
    }

    fn run(&mut self) -> Vec<PpTok> {
        let canon = std::fs::canonicalize(&self.sm.file(self.main).path).ok();
        self.push_file(self.main, canon);
        // The built-in file is read first (it sits on top of the stack).
        let text = predefined::builtin_text(self.opts);
        let b = self.sm.add_file("<built-in>", "<built-in>", text);
        self.builtin_file = Some(b);
        self.push_file(b, None);
        let mut inp = Input {
            stack: Vec::new(),
            from_files: true,
        };
        let mut out = Vec::new();
        self.expand_stream(&mut inp, &mut out, 0);
        out
    }

    fn push_file(&mut self, file: FileId, canon: Option<PathBuf>) {
        let lexed = lex_lines(&self.sm.file(file).text, file);
        self.files.push(FileState {
            late_diags: lexed.diags,
            file,
            lines: lexed.lines.into_iter(),
            cur: Vec::new().into_iter(),
            cond_base: self.conds.len(),
            canon,
        });
    }

    fn sym(&mut self, name: &str) -> MacroSym {
        if let Some(s) = self.syms.get(name) {
            return *s;
        }
        let s = MacroSym(self.syms.len() as u32);
        self.syms.insert(name.to_string(), s);
        s
    }

    fn skipping(&self) -> bool {
        self.conds
            .last()
            .is_some_and(|f| f.state != CondState::Active)
    }

    /// Counts produced tokens; on passing the limit reports once and stops everything.
    fn charge(&mut self, n: usize, at: Span) -> bool {
        self.produced = self.produced.saturating_add(n);
        if self.produced > self.limit && !self.aborted {
            self.aborted = true;
            self.diags.error(
                at,
                format!(
                    "preprocessing produced more than {} tokens; stopping (runaway macro expansion?)",
                    self.limit
                ),
            );
        }
        !self.aborted
    }

    /// The next token of the files, after directives and skipped groups.
    fn next_file_token(&mut self) -> Option<Token> {
        loop {
            if self.aborted {
                return None;
            }
            let fs = self.files.last_mut()?;
            if let Some(t) = fs.cur.next() {
                return Some(t);
            }
            let Some(line) = fs.lines.next() else {
                self.end_file();
                continue;
            };
            let is_directive = line
                .tokens
                .first()
                .is_some_and(|t| t.is_punct(crate::frontend::token::Punct::Hash));
            if is_directive {
                if let Some(t) = self.directive(line) {
                    return Some(t);
                }
                continue;
            }
            if self.skipping() {
                continue;
            }
            self.report(line.diags);
            if let Some(fs) = self.files.last_mut() {
                fs.cur = line.tokens.into_iter();
            }
        }
    }

    fn report(&mut self, diags: Vec<Diagnostic>) {
        for d in diags {
            self.diags.push(d);
        }
    }

    /// Leaves the current file: its unclosed `#if` groups are errors.
    fn end_file(&mut self) {
        let Some(fs) = self.files.pop() else { return };
        self.report(fs.late_diags);
        while self.conds.len() > fs.cond_base {
            if let Some(f) = self.conds.pop() {
                self.diags
                    .error(f.span, "unterminated conditional directive");
            }
        }
    }

    fn current_file(&self) -> Option<FileId> {
        self.files.last().map(|f| f.file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runaway_expansion_stops_at_the_limit() {
        // 2^40 tokens if unchecked.
        let mut src = String::from("#define m0 x x\n");
        for i in 1..40 {
            src.push_str(&format!("#define m{i} m{} m{}\n", i - 1, i - 1));
        }
        src.push_str("m39\n");
        let mut sm = SourceMap::new();
        let main = sm.add_file("k.cl", "k.cl", src);
        let mut diags = Diagnostics::default();
        let toks = preprocess_limited(&mut sm, main, &PpOptions::default(), &mut diags, 100_000);
        assert_eq!(diags.error_count(), 1, "{diags:?}");
        assert!(diags.list[0].message.contains("more than 100000 tokens"));
        assert!(toks.len() <= 100_001);
        assert_eq!(toks.last().map(|t| &t.kind), Some(&TokenKind::Eof));
    }
}
