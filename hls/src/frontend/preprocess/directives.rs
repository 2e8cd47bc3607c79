//! Directive lines: conditionals, `#include`, `#pragma`, `#error`/`#warning`, dispatch.

use super::define::macro_name;
use super::{cond, include, CondFrame, CondState, Pp, PpTok, MAX_INCLUDE_DEPTH};
use crate::diag::Span;
use crate::frontend::lexer::LexedLine;
use crate::frontend::token::{Punct, Token, TokenKind};

impl Pp<'_> {
    /// Runs one directive line (its first token is `#`); a `#pragma` gives back its token.
    pub(super) fn directive(&mut self, line: LexedLine) -> Option<Token> {
        let skipping = self.skipping();
        if !skipping {
            self.report(line.diags);
        }
        let toks = line.tokens;
        let name_tok = toks.get(1)?;
        let at = name_tok.span;
        let args = &toks[2..];
        let Some(name) = name_tok.ident() else {
            // `# 12 "file"` is a GNU line marker: accepted like `#line`.
            if !skipping && !matches!(name_tok.kind, TokenKind::Int(_)) {
                self.diags.error(at, "invalid preprocessing directive");
            }
            return None;
        };
        match name {
            "if" | "ifdef" | "ifndef" => self.open_cond(name, args, at, skipping),
            "elif" => self.elif(args, at),
            "else" => self.else_(args, at),
            "endif" => self.endif(args, at),
            _ if skipping => {}
            "define" => self.define(args, at),
            "undef" => self.undef(args, at),
            "include" => self.include(args, at),
            "error" => {
                let text = self.rest_text(args, "#error");
                self.diags.error(at, text);
            }
            "warning" => {
                let text = self.rest_text(args, "#warning");
                self.diags.warning(at, text);
            }
            "pragma" => {
                let last = toks.last().map(|t| t.span).unwrap_or(at);
                return self.pragma_directive(args, toks[0].span.to(last));
            }
            "line" => {}
            _ => self
                .diags
                .error(at, format!("invalid preprocessing directive '#{name}'")),
        }
        None
    }

    /// The raw text after a directive word, for `#error` messages.
    fn rest_text(&self, args: &[Token], empty: &str) -> String {
        match (args.first(), args.last()) {
            (Some(a), Some(b)) if a.span.file == b.span.file => {
                let text = self
                    .sm
                    .snippet(Span::new(a.span.file, a.span.lo, b.span.hi));
                text.replace("\\\r\n", "").replace("\\\n", "")
            }
            _ => empty.to_string(),
        }
    }

    fn cond_base(&self) -> usize {
        self.files.last().map_or(0, |f| f.cond_base)
    }

    fn open_cond(&mut self, name: &str, args: &[Token], at: Span, skipping: bool) {
        let state = if skipping {
            CondState::Done
        } else {
            let taken = match name {
                "if" => self.eval_if(args, at),
                _ => {
                    let defined = match macro_name(args, at, name) {
                        Ok(t) => {
                            if let Some(extra) = args.get(1) {
                                self.diags.warning(
                                    extra.span,
                                    format!("extra tokens at end of #{name} directive"),
                                );
                            }
                            self.macros.contains_key(t.ident().unwrap_or_default())
                        }
                        Err(d) => {
                            self.diags.push(d);
                            false
                        }
                    };
                    defined == (name == "ifdef")
                }
            };
            if taken {
                CondState::Active
            } else {
                CondState::Seeking
            }
        };
        self.conds.push(CondFrame {
            span: at,
            state,
            seen_else: false,
        });
    }

    fn top_cond(&mut self, at: Span, directive: &str) -> Option<CondFrame> {
        if self.conds.len() <= self.cond_base() {
            self.diags.error(at, format!("#{directive} without #if"));
            return None;
        }
        self.conds.last().cloned()
    }

    fn set_top(&mut self, state: CondState, seen_else: bool) {
        if let Some(f) = self.conds.last_mut() {
            f.state = state;
            f.seen_else = seen_else;
        }
    }

    fn elif(&mut self, args: &[Token], at: Span) {
        let Some(top) = self.top_cond(at, "elif") else {
            return;
        };
        if top.seen_else {
            self.diags.error(at, "#elif after #else");
        }
        let state = match top.state {
            CondState::Active | CondState::Done => CondState::Done,
            CondState::Seeking if self.eval_if(args, at) => CondState::Active,
            CondState::Seeking => CondState::Seeking,
        };
        self.set_top(state, top.seen_else);
    }

    fn else_(&mut self, args: &[Token], at: Span) {
        let Some(top) = self.top_cond(at, "else") else {
            return;
        };
        if top.seen_else {
            self.diags.error(at, "#else after #else");
        }
        let state = match top.state {
            CondState::Seeking => CondState::Active,
            _ => CondState::Done,
        };
        if state == CondState::Active {
            self.extra_tokens(args, "else");
        }
        self.set_top(state, true);
    }

    fn endif(&mut self, args: &[Token], at: Span) {
        if self.top_cond(at, "endif").is_some() {
            self.conds.pop();
            if !self.skipping() {
                self.extra_tokens(args, "endif");
            }
        }
    }

    fn extra_tokens(&mut self, args: &[Token], directive: &str) {
        if let Some(t) = args.first() {
            self.diags.warning(
                t.span,
                format!("extra tokens at end of #{directive} directive"),
            );
        }
    }

    /// Evaluates an `#if`/`#elif` condition; errors count as false.
    fn eval_if(&mut self, args: &[Token], at: Span) -> bool {
        if args.is_empty() {
            self.diags
                .error(at, "expected value in expression: #if with no expression");
            return false;
        }
        let Some(toks) = self.replace_defined(args) else {
            return false;
        };
        self.in_if = true;
        let expanded: Vec<Token> = self
            .expand_list(toks, 0)
            .into_iter()
            .map(|t| t.tok)
            .collect();
        self.in_if = false;
        let macros = &self.macros;
        match cond::eval(&expanded, at, &|n| macros.contains_key(n)) {
            Ok(v) => v,
            Err(d) => {
                self.diags.push(d);
                false
            }
        }
    }

    /// Replaces `defined X` and `defined(X)` by 1 or 0 before macro expansion.
    fn replace_defined(&mut self, args: &[Token]) -> Option<Vec<PpTok>> {
        let mut out = Vec::with_capacity(args.len());
        let mut i = 0;
        while i < args.len() {
            let t = &args[i];
            if !t.is_ident("defined") {
                out.push(PpTok::plain(t.clone()));
                i += 1;
                continue;
            }
            let paren = args.get(i + 1).is_some_and(|t| t.is_punct(Punct::LParen));
            let name_at = if paren { i + 2 } else { i + 1 };
            let name = match args.get(name_at) {
                Some(n) if n.ident().is_some() => n,
                other => {
                    let span = other.map_or(t.span, |o| o.span);
                    self.diags.error(span, "macro name missing after 'defined'");
                    return None;
                }
            };
            let mut end = name_at;
            if paren {
                end += 1;
                if !args.get(end).is_some_and(|t| t.is_punct(Punct::RParen)) {
                    self.diags.error(name.span, "missing ')' after 'defined'");
                    return None;
                }
            }
            let yes = self.macros.contains_key(name.ident().unwrap_or_default());
            out.push(PpTok::plain(Token {
                kind: TokenKind::Int(if yes { "1" } else { "0" }.to_string()),
                span: t.span.to(args[end].span),
                space_before: t.space_before,
            }));
            i = end + 1;
        }
        Some(out)
    }

    fn include(&mut self, args: &[Token], at: Span) {
        if self.files.len() > MAX_INCLUDE_DEPTH {
            self.diags.error(
                at,
                format!(
                    "#include nested too deeply (more than {MAX_INCLUDE_DEPTH} levels); stopping"
                ),
            );
            self.aborted = true;
            return;
        }
        let direct = self.header_name(args);
        let Some((name, quoted, name_span)) = direct.or_else(|| {
            let toks: Vec<PpTok> = args.iter().cloned().map(PpTok::plain).collect();
            let expanded: Vec<Token> = self
                .expand_list(toks, 0)
                .into_iter()
                .map(|t| t.tok)
                .collect();
            self.header_name(&expanded)
        }) else {
            self.diags
                .error(at, "expected \"FILENAME\" or <FILENAME> after #include");
            return;
        };
        let Some(cur) = self.current_file() else {
            return;
        };
        let found = include::resolve(
            self.sm,
            cur,
            &name,
            quoted,
            &self.opts.include_dirs,
            &self.search,
        );
        let found = match found {
            Ok(f) => f,
            Err(msg) => return self.diags.error(name_span, msg),
        };
        if self.once.contains(&found.path) {
            return;
        }
        match include::read(&found.path) {
            Ok(text) => {
                let id = self.sm.add_file(found.display, &found.path, text);
                self.push_file(id, Some(found.path));
            }
            Err(e) => self
                .diags
                .error(name_span, format!("cannot read '{name}': {e}")),
        }
    }

    /// `"name"` or `<name>` at the start of `toks`: (name, quoted, span of the name).
    fn header_name(&self, toks: &[Token]) -> Option<(String, bool, Span)> {
        let first = toks.first()?;
        if let TokenKind::Str(s) = &first.kind {
            let name = s.strip_prefix('"')?.strip_suffix('"')?;
            return Some((name.to_string(), true, first.span));
        }
        if !first.is_punct(Punct::Lt) {
            return None;
        }
        let close = toks.iter().position(|t| t.is_punct(Punct::Gt))?;
        let gt = &toks[close];
        let raw = first.span.expansion.is_none()
            && gt.span.expansion.is_none()
            && first.span.file == gt.span.file;
        let name = if raw {
            // Spelled directly: take the text as written (a `//` inside is not a comment).
            self.sm
                .snippet(Span::new(first.span.file, first.span.hi, gt.span.lo))
                .to_string()
        } else {
            let mut s = String::new();
            for (k, t) in toks[1..close].iter().enumerate() {
                if k > 0 && t.space_before {
                    s.push(' ');
                }
                s.push_str(&t.text());
            }
            s
        };
        Some((name, false, first.span.to(gt.span)))
    }

    fn pragma_directive(&mut self, args: &[Token], span: Span) -> Option<Token> {
        if args.first().is_some_and(|t| t.is_ident("once")) {
            if let Some(c) = self.files.last().and_then(|f| f.canon.clone()) {
                self.once.insert(c);
            }
            return None;
        }
        Some(self.make_pragma(args.to_vec(), span))
    }

    /// A pragma token; its words are macro-expanded unless it is an `OPENCL` or `STDC`
    /// pragma (Intel kernels write `#pragma unroll UNROLL_FACTOR`).
    pub(super) fn make_pragma(&mut self, toks: Vec<Token>, span: Span) -> Token {
        let raw = toks
            .first()
            .is_some_and(|t| t.is_ident("OPENCL") || t.is_ident("STDC"));
        let body = if raw {
            toks
        } else {
            let pp: Vec<PpTok> = toks.into_iter().map(PpTok::plain).collect();
            self.expand_list(pp, 0).into_iter().map(|t| t.tok).collect()
        };
        Token {
            kind: TokenKind::Pragma(body),
            span,
            space_before: true,
        }
    }
}
