//! The `#` and `##` operators: stringizing an argument and pasting two tokens.

use super::expand::Piece;
use super::{Pp, PpTok};
use crate::diag::Span;
use crate::frontend::lexer::lex_one;
use crate::frontend::token::TokenKind;

impl Pp<'_> {
    /// Runs the `##` operators left to right.
    pub(super) fn paste(&mut self, pieces: Vec<Piece>) -> Vec<PpTok> {
        let mut out: Vec<PpTok> = Vec::with_capacity(pieces.len());
        let mut it = pieces.into_iter();
        while let Some(p) = it.next() {
            match p {
                Piece::Tok(t) => out.push(t),
                Piece::Paste => {
                    let Some(Piece::Tok(rhs)) = it.next() else {
                        continue;
                    };
                    match out.pop() {
                        Some(lhs) => self.glue(lhs, rhs, &mut out),
                        None => out.push(rhs),
                    }
                }
            }
        }
        out
    }

    fn glue(&mut self, lhs: PpTok, rhs: PpTok, out: &mut Vec<PpTok>) {
        if lhs.placemarker {
            let mut rhs = rhs;
            rhs.tok.space_before = lhs.tok.space_before;
            return out.push(rhs);
        }
        if rhs.placemarker {
            return out.push(lhs);
        }
        let text = format!("{}{}", lhs.tok.text(), rhs.tok.text());
        let span = self.paste_span(lhs.tok.span, rhs.tok.span);
        match lex_one(&text, span) {
            Some(mut tok) => {
                tok.space_before = lhs.tok.space_before;
                let hs = self.hs.intersect(lhs.hs, rhs.hs);
                out.push(PpTok {
                    tok,
                    hs,
                    placemarker: false,
                });
            }
            None => {
                self.diags.error(
                    lhs.tok.span,
                    format!("pasting formed '{text}', an invalid preprocessing token"),
                );
                out.push(lhs);
                out.push(rhs);
            }
        }
    }

    /// The span of a pasted token: both operands when they are spelled side by side
    /// (`a ## b` in one body), else the left one (an argument and a body token may be far
    /// apart in the file).
    fn paste_span(&self, a: Span, b: Span) -> Span {
        let adjacent = a.file == b.file
            && b.lo >= a.hi
            && matches!(
                self.sm.snippet(Span::new(a.file, a.hi, b.lo)).trim(),
                "" | "##"
            );
        if adjacent {
            a.to(b)
        } else {
            a
        }
    }
}

/// The `#` operator: the argument's spelling as a string literal (C99 6.10.3.2).
pub(super) fn stringify(arg: &[PpTok]) -> String {
    let mut s = String::from("\"");
    let mut first = true;
    for t in arg.iter().filter(|t| !t.placemarker) {
        if !first && t.tok.space_before {
            s.push(' ');
        }
        first = false;
        let text = t.tok.text();
        match t.tok.kind {
            TokenKind::Str(_) | TokenKind::Char(_) => s.push_str(&escape(&text)),
            _ => s.push_str(&text),
        }
    }
    s.push('"');
    s
}

fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    for c in text.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

pub(super) fn quote(text: &str) -> String {
    format!("\"{}\"", escape(text))
}
