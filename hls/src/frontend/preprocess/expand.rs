//! Macro expansion: invocation, argument collection, substitution with `#` and `##`, and
//! rescanning with hide sets (Prosser's algorithm, C99 6.10.3.4).

use std::rc::Rc;

use super::define::{Builtin, Macro, MacroKind};
use super::hideset::HideSet;
use super::paste::{quote, stringify};
use super::{Input, Pp, PpTok, MAX_ARG_DEPTH, MAX_LIVE_ARG_TOKENS};
use crate::diag::{Expansion, ExpansionId, Span};
use crate::frontend::lexer::lex_lines;
use crate::frontend::token::{Punct, Token, TokenKind};

/// A piece of a macro body after parameter substitution, before pasting.
pub(super) enum Piece {
    Tok(PpTok),
    Paste,
}

impl Pp<'_> {
    /// The next token to scan: pending tokens first, then (main stream only) the files.
    fn next(&mut self, inp: &mut Input) -> Option<PpTok> {
        if let Some(t) = inp.stack.pop() {
            return Some(t);
        }
        if inp.from_files {
            self.next_file_token().map(PpTok::plain)
        } else {
            None
        }
    }

    /// Reads `inp` to its end, expanding macros, and appends the result to `out`.
    pub(super) fn expand_stream(&mut self, inp: &mut Input, out: &mut Vec<PpTok>, depth: u32) {
        while let Some(t) = self.next(inp) {
            if self.in_if && t.tok.is_ident("defined") {
                out.push(t);
                self.defined_operand(inp, out);
                continue;
            }
            let t = match self.expandable(&t) {
                Some(m) => match self.expand_macro(&m, t, inp, depth) {
                    Ok(()) => continue,
                    Err(t) => t,
                },
                None => t,
            };
            let at = t.tok.span;
            out.push(t);
            if !self.charge(1, at) {
                break;
            }
        }
    }

    /// In `#if`, a `defined` that came out of a macro keeps its operand unexpanded, as
    /// gcc and clang do.
    fn defined_operand(&mut self, inp: &mut Input, out: &mut Vec<PpTok>) {
        let Some(mut t) = self.next(inp) else { return };
        if t.tok.is_punct(Punct::LParen) {
            out.push(t);
            let Some(n) = self.next(inp) else { return };
            t = n;
        }
        if t.tok.ident().is_some() {
            out.push(t);
        } else {
            inp.stack.push(t);
        }
    }

    /// Fully expands a token list on its own (a macro argument, an `#if` line, a pragma).
    pub(super) fn expand_list(&mut self, toks: Vec<PpTok>, depth: u32) -> Vec<PpTok> {
        let held = toks.len();
        let too_deep = depth > MAX_ARG_DEPTH;
        if too_deep || self.live_arg_tokens + held > MAX_LIVE_ARG_TOKENS {
            if !self.aborted {
                let at = toks.first().map(|t| t.tok.span).unwrap_or_default();
                let msg = if too_deep {
                    format!("macro invocations nested more than {MAX_ARG_DEPTH} deep in arguments")
                } else {
                    format!("nested macro arguments hold more than {MAX_LIVE_ARG_TOKENS} tokens")
                };
                self.diags.error(at, msg);
                self.aborted = true;
            }
            return toks;
        }
        self.live_arg_tokens += held;
        let mut inp = Input {
            stack: toks.into_iter().rev().collect(),
            from_files: false,
        };
        let mut out = Vec::new();
        self.expand_stream(&mut inp, &mut out, depth);
        self.live_arg_tokens -= held;
        out
    }

    fn expandable(&self, t: &PpTok) -> Option<Rc<Macro>> {
        let TokenKind::Ident(name) = &t.tok.kind else {
            return None;
        };
        let m = self.macros.get(name.as_str())?;
        if self.hs.contains(t.hs, m.sym) {
            None
        } else {
            Some(m.clone())
        }
    }

    fn new_expansion(&mut self, m: &Macro, name: &PpTok) -> ExpansionId {
        self.sm.add_expansion(Expansion {
            macro_name: m.name.clone(),
            call_site: name.tok.span,
            def_site: m.def_site,
        })
    }

    /// Expands one macro use, pushing the result back on `inp` for rescanning. Gives the
    /// name back when it is not a use (a function-like name without `(`).
    fn expand_macro(
        &mut self,
        m: &Macro,
        name: PpTok,
        inp: &mut Input,
        depth: u32,
    ) -> Result<(), PpTok> {
        let (args, hs) = match &m.kind {
            MacroKind::Builtin(b) => return self.expand_builtin(*b, m, name, inp),
            MacroKind::Object => (Vec::new(), self.hs.add(name.hs, m.sym)),
            MacroKind::Function { .. } => {
                match self.next(inp) {
                    Some(p) if p.tok.is_punct(Punct::LParen) => {}
                    Some(p) => {
                        inp.stack.push(p);
                        return Err(name);
                    }
                    None => return Err(name),
                }
                let Some((args, rparen)) = self.collect_args(m, &name, inp) else {
                    return Ok(());
                };
                let common = self.hs.intersect(name.hs, rparen);
                (args, self.hs.add(common, m.sym))
            }
        };
        let exp = self.new_expansion(m, &name);
        let mut result = self.substitute(m, &args, exp, hs, depth);
        if let Some(first) = result.first_mut() {
            first.tok.space_before = name.tok.space_before;
        }
        if self.charge(result.len(), name.tok.span) {
            inp.stack.extend(result.into_iter().rev());
        }
        Ok(())
    }

    /// Reads the arguments after `(` up to the matching `)`; returns them and the hide set
    /// of the `)`. Reports and returns None for a bad invocation (which is then dropped).
    fn collect_args(
        &mut self,
        m: &Macro,
        name: &PpTok,
        inp: &mut Input,
    ) -> Option<(Vec<Vec<PpTok>>, HideSet)> {
        let nparams = m.param_count();
        let variadic = m.is_variadic();
        let mut args: Vec<Vec<PpTok>> = vec![Vec::new()];
        let mut level = 0usize;
        let rparen = loop {
            let Some(t) = self.next(inp) else {
                if !self.aborted {
                    self.diags.error(
                        name.tok.span,
                        format!(
                            "unterminated function-like macro invocation of '{}'",
                            m.name
                        ),
                    );
                }
                return None;
            };
            if t.tok.is_punct(Punct::LParen) {
                level += 1;
            } else if t.tok.is_punct(Punct::RParen) {
                if level == 0 {
                    break t.hs;
                }
                level -= 1;
            } else if t.tok.is_punct(Punct::Comma)
                && level == 0
                && !(variadic && args.len() >= nparams)
            {
                args.push(Vec::new());
                continue;
            }
            if let Some(last) = args.last_mut() {
                last.push(t);
            }
        };
        if nparams == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if variadic && args.len() + 1 == nparams {
            args.push(Vec::new());
        }
        if args.len() != nparams {
            let what = if args.len() > nparams { "many" } else { "few" };
            self.diags.error(
                name.tok.span,
                format!(
                    "too {what} arguments provided to function-like macro invocation of '{}' (expected {nparams}, have {})",
                    m.name,
                    args.len()
                ),
            );
            return None;
        }
        Some((args, rparen))
    }

    /// Replaces parameters in the body (stringified, raw next to `##`, else fully
    /// expanded), pastes, and applies the hide set `hs` to every token.
    fn substitute(
        &mut self,
        m: &Macro,
        args: &[Vec<PpTok>],
        exp: ExpansionId,
        hs: HideSet,
        depth: u32,
    ) -> Vec<PpTok> {
        let body = &m.body;
        let is_fn = matches!(m.kind, MacroKind::Function { .. });
        let param_at = |i: usize| m.body_param.get(i).copied().flatten();
        let is_paste = |i: usize| body.get(i).is_some_and(|t| t.is_punct(Punct::HashHash));
        let mut expanded: Vec<Option<Vec<PpTok>>> = vec![None; args.len()];
        let mut pieces: Vec<Piece> = Vec::with_capacity(body.len());
        let mut i = 0;
        while i < body.len() {
            let t = &body[i];
            if is_fn && t.is_punct(Punct::Hash) {
                if let (Some(j), Some(p)) = (param_at(i + 1), body.get(i + 1)) {
                    let text = stringify(&args[j]);
                    let tok = Token {
                        kind: TokenKind::Str(text),
                        span: retag(t.span.to(p.span), exp),
                        space_before: t.space_before,
                    };
                    pieces.push(Piece::Tok(PpTok::plain(tok)));
                    i += 2;
                    continue;
                }
            }
            if t.is_punct(Punct::HashHash) {
                pieces.push(Piece::Paste);
                i += 1;
                continue;
            }
            // GNU `, ## __VA_ARGS__`: the comma disappears when the variable part is empty.
            if m.is_variadic() && t.is_punct(Punct::Comma) && is_paste(i + 1) {
                if let Some(j) = param_at(i + 2).filter(|j| j + 1 == args.len()) {
                    if !args[j].is_empty() {
                        pieces.push(Piece::Tok(PpTok::plain(retag_tok(t, exp))));
                        push_arg(&mut pieces, &args[j], exp, body[i + 2].space_before);
                    }
                    i += 3;
                    continue;
                }
            }
            if let Some(j) = param_at(i) {
                let raw = (i > 0 && is_paste(i - 1)) || is_paste(i + 1);
                if raw {
                    if args[j].is_empty() {
                        let mut p = PpTok::plain(retag_tok(t, exp));
                        p.placemarker = true;
                        pieces.push(Piece::Tok(p));
                    } else {
                        push_arg(&mut pieces, &args[j], exp, t.space_before);
                    }
                } else {
                    if expanded[j].is_none() {
                        expanded[j] = Some(self.expand_list(args[j].clone(), depth + 1));
                    }
                    if let Some(e) = &expanded[j] {
                        push_arg(&mut pieces, e, exp, t.space_before);
                    }
                }
                i += 1;
                continue;
            }
            pieces.push(Piece::Tok(PpTok::plain(retag_tok(t, exp))));
            i += 1;
        }
        let mut out = self.paste(pieces);
        out.retain(|t| !t.placemarker);
        for t in &mut out {
            t.hs = self.hs.union(t.hs, hs);
        }
        out
    }

    fn expand_builtin(
        &mut self,
        b: Builtin,
        m: &Macro,
        name: PpTok,
        inp: &mut Input,
    ) -> Result<(), PpTok> {
        let kind = match b {
            Builtin::Line => TokenKind::Int(self.sm.line_col(name.tok.span).0.to_string()),
            Builtin::File => {
                let site = self.sm.use_site(name.tok.span);
                TokenKind::Str(quote(&self.sm.file(site.file).name))
            }
            Builtin::Counter => {
                self.counter += 1;
                TokenKind::Int((self.counter - 1).to_string())
            }
            Builtin::Pragma => return self.pragma_operator(name, inp),
        };
        let exp = self.new_expansion(m, &name);
        let tok = Token {
            kind,
            span: retag(name.tok.span, exp),
            space_before: name.tok.space_before,
        };
        inp.stack.push(PpTok {
            tok,
            hs: self.hs.add(name.hs, m.sym),
            placemarker: false,
        });
        Ok(())
    }

    /// `_Pragma("...")`: the string's text becomes a pragma token, as if written `#pragma ...`.
    fn pragma_operator(&mut self, name: PpTok, inp: &mut Input) -> Result<(), PpTok> {
        let mut got = Vec::new();
        for _ in 0..3 {
            match self.next(inp) {
                Some(t) => got.push(t),
                None => break,
            }
        }
        let ok = got.len() == 3
            && got[0].tok.is_punct(Punct::LParen)
            && matches!(got[1].tok.kind, TokenKind::Str(_))
            && got[2].tok.is_punct(Punct::RParen);
        if !ok {
            self.diags.error(
                name.tok.span,
                "_Pragma takes a parenthesized string literal",
            );
            inp.stack.extend(got.into_iter().rev());
            return Ok(());
        }
        let lit = &got[1].tok;
        let text = destringize(&lit.text());
        let lexed = lex_lines(&text, lit.span.file);
        let toks: Vec<Token> = lexed
            .lines
            .into_iter()
            .flat_map(|l| l.tokens)
            .map(|mut t| {
                t.span = lit.span;
                t
            })
            .collect();
        let tok = self.make_pragma(toks, name.tok.span);
        inp.stack.push(PpTok::plain(tok));
        Ok(())
    }
}

fn retag(span: Span, exp: ExpansionId) -> Span {
    Span {
        expansion: exp,
        ..span
    }
}

fn retag_tok(t: &Token, exp: ExpansionId) -> Token {
    Token {
        kind: t.kind.clone(),
        span: retag(t.span, exp),
        space_before: t.space_before,
    }
}

/// Appends an argument's tokens, re-tagged with the expansion; the first takes the spacing
/// of the parameter it replaces.
fn push_arg(pieces: &mut Vec<Piece>, arg: &[PpTok], exp: ExpansionId, space: bool) {
    for (k, a) in arg.iter().enumerate() {
        let mut a = a.clone();
        a.tok.span = retag(a.tok.span, exp);
        if k == 0 {
            a.tok.space_before = space;
        }
        pieces.push(Piece::Tok(a));
    }
}

/// The text of a string literal for `_Pragma`: quotes removed, `\"` and `\\` unescaped.
fn destringize(lit: &str) -> String {
    let inner = lit
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(lit);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&n) = chars.peek() {
                if n == '"' || n == '\\' {
                    out.push(n);
                    chars.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}
