//! The OpenCL C lexer: text to tokens grouped in logical lines (after backslash-newline
//! splicing), with comments turned into whitespace.

use crate::diag::{Diagnostic, Diagnostics, FileId, SourceMap, Span};
use crate::frontend::token::{Punct, Token, TokenKind};

/// One logical line: its tokens and the lexical errors found on it. The errors are kept
/// with the line so the preprocessor can drop those of lines in skipped `#if` groups.
#[derive(Clone, Debug, Default)]
pub struct LexedLine {
    pub tokens: Vec<Token>,
    pub diags: Vec<Diagnostic>,
}

/// A lexed file: its non-empty logical lines, and errors that belong to no single line
/// (an unterminated block comment swallows the rest of the file, so it is always reported).
#[derive(Clone, Debug, Default)]
pub struct LexedFile {
    pub lines: Vec<LexedLine>,
    pub diags: Vec<Diagnostic>,
}

/// Lexes one file's text into tokens (no preprocessing), ending with one `Eof`.
/// Comments become whitespace; bad characters and unterminated literals give a diagnostic
/// with the span, and lexing continues.
pub fn lex(sm: &SourceMap, file: FileId, diags: &mut Diagnostics) -> Vec<Token> {
    let text = &sm.file(file).text;
    let lexed = lex_lines(text, file);
    let mut out = Vec::new();
    for line in lexed.lines {
        for d in line.diags {
            diags.push(d);
        }
        out.extend(line.tokens);
    }
    // An unterminated comment runs to the end: it comes last in source order too.
    for d in lexed.diags {
        diags.push(d);
    }
    let end = text.len() as u32;
    out.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(file, end, end),
        space_before: true,
    });
    out
}

/// Lexes `text` (the contents of `file`) into logical lines. Spans are byte offsets into
/// `text`. The first token of every line after the first has `space_before` set, since a
/// newline is whitespace when a macro argument spans lines.
pub fn lex_lines(text: &str, file: FileId) -> LexedFile {
    let src = Spliced::new(text);
    let mut lx = Lexer {
        src: &src,
        file,
        pos: 0,
        out: LexedFile::default(),
        line: LexedLine::default(),
        space: false,
    };
    lx.run();
    lx.out
}

/// Lexes `text` and returns its single token with `span`, or `None` when `text` is not
/// exactly one token (used to check the result of `##` pasting).
pub fn lex_one(text: &str, span: Span) -> Option<Token> {
    if text.contains('\n') {
        return None;
    }
    let lexed = lex_lines(text, span.file);
    if !lexed.diags.is_empty() || lexed.lines.len() != 1 {
        return None;
    }
    let line = lexed.lines.into_iter().next()?;
    if !line.diags.is_empty() || line.tokens.len() != 1 {
        return None;
    }
    let mut tok = line.tokens.into_iter().next()?;
    // A comment or space inside the pasted text would not survive as one token.
    if tok.span.lo != 0 || tok.span.hi as usize != text.len() {
        return None;
    }
    tok.span = span;
    tok.space_before = false;
    Some(tok)
}

/// Whether a pp-number is a floating constant by the C rules: hexadecimal with `.` or an
/// exponent `p`, decimal with `.` or an exponent `e`.
pub fn number_is_float(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() > 1 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X') {
        s.bytes().any(|c| matches!(c, b'.' | b'p' | b'P'))
    } else {
        s.bytes().any(|c| matches!(c, b'.' | b'e' | b'E'))
    }
}

/// The text with backslash-newlines removed, and a map back to offsets in the original.
struct Spliced {
    bytes: Vec<u8>,
    /// `map[i]` is the original offset of `bytes[i]`; one extra entry for the end.
    /// Empty when nothing was spliced (then offsets are the identity).
    map: Vec<u32>,
}

impl Spliced {
    fn new(text: &str) -> Spliced {
        let raw = text.as_bytes();
        if !raw.contains(&b'\\') {
            return Spliced {
                bytes: raw.to_vec(),
                map: Vec::new(),
            };
        }
        let mut bytes = Vec::with_capacity(raw.len());
        let mut map = Vec::with_capacity(raw.len() + 1);
        let mut i = 0;
        while i < raw.len() {
            if raw[i] == b'\\' {
                if let Some(skip) = splice_len(&raw[i..]) {
                    i += skip;
                    continue;
                }
            }
            bytes.push(raw[i]);
            map.push(i as u32);
            i += 1;
        }
        map.push(raw.len() as u32);
        Spliced { bytes, map }
    }

    fn orig(&self, i: usize) -> u32 {
        if self.map.is_empty() {
            i as u32
        } else {
            self.map.get(i).copied().unwrap_or(u32::MAX)
        }
    }

    /// The original span of spliced bytes `lo..hi` (hi exclusive, hi > lo).
    fn span(&self, file: FileId, lo: usize, hi: usize) -> Span {
        let start = self.orig(lo);
        let end = self.orig(hi.saturating_sub(1).max(lo)).saturating_add(1);
        Span::new(file, start, end.max(start))
    }
}

/// Length of a line splice starting at a backslash: `\` then optional spaces/tabs (like
/// gcc and clang, which warn) then `\n` or `\r\n`.
fn splice_len(s: &[u8]) -> Option<usize> {
    let mut j = 1;
    while j < s.len() && (s[j] == b' ' || s[j] == b'\t') {
        j += 1;
    }
    match s.get(j) {
        Some(b'\n') => Some(j + 1),
        Some(b'\r') if s.get(j + 1) == Some(&b'\n') => Some(j + 2),
        _ => None,
    }
}

struct Lexer<'a> {
    src: &'a Spliced,
    file: FileId,
    pos: usize,
    out: LexedFile,
    line: LexedLine,
    space: bool,
}

impl Lexer<'_> {
    fn peek(&self, k: usize) -> u8 {
        self.src.bytes.get(self.pos + k).copied().unwrap_or(0)
    }

    fn run(&mut self) {
        let n = self.src.bytes.len();
        while self.pos < n {
            let c = self.peek(0);
            match c {
                b'\n' => {
                    self.end_line();
                    self.pos += 1;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    self.space = true;
                    self.pos += 1;
                }
                b'/' if self.peek(1) == b'/' => {
                    while self.pos < n && self.peek(0) != b'\n' {
                        self.pos += 1;
                    }
                    self.space = true;
                }
                b'/' if self.peek(1) == b'*' => self.block_comment(),
                b'a'..=b'z' | b'A'..=b'Z' | b'_' | b'$' => self.ident(),
                b'0'..=b'9' => self.number(),
                b'.' if self.peek(1).is_ascii_digit() => self.number(),
                b'\'' | b'"' => self.quoted(c),
                0x80..=0xff => self.non_ascii(),
                _ => self.punct(),
            }
        }
        self.end_line();
    }

    fn end_line(&mut self) {
        let line = std::mem::take(&mut self.line);
        if !line.tokens.is_empty() || !line.diags.is_empty() {
            self.out.lines.push(line);
        }
        self.space = true;
    }

    fn push(&mut self, kind: TokenKind, lo: usize) {
        let span = self.src.span(self.file, lo, self.pos);
        self.line.tokens.push(Token {
            kind,
            span,
            space_before: self.space,
        });
        self.space = false;
    }

    fn text(&self, lo: usize) -> String {
        String::from_utf8_lossy(&self.src.bytes[lo..self.pos]).into_owned()
    }

    fn error(&mut self, lo: usize, hi: usize, msg: String) {
        let span = self.src.span(self.file, lo, hi.max(lo + 1));
        self.line.diags.push(Diagnostic::error(span, msg));
    }

    fn block_comment(&mut self) {
        let lo = self.pos;
        self.pos += 2;
        let n = self.src.bytes.len();
        while self.pos < n {
            if self.peek(0) == b'*' && self.peek(1) == b'/' {
                self.pos += 2;
                self.space = true;
                return;
            }
            self.pos += 1;
        }
        let span = self.src.span(self.file, lo, lo + 2);
        self.out
            .diags
            .push(Diagnostic::error(span, "unterminated /* comment"));
    }

    fn ident(&mut self) {
        let lo = self.pos;
        while matches!(self.peek(0), b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'$') {
            self.pos += 1;
        }
        let t = self.text(lo);
        self.push(TokenKind::Ident(t), lo);
    }

    fn number(&mut self) {
        let lo = self.pos;
        self.pos += 1;
        loop {
            let c = self.peek(0);
            if matches!(c, b'e' | b'E' | b'p' | b'P') && matches!(self.peek(1), b'+' | b'-') {
                self.pos += 2;
            } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
                self.pos += 1;
            } else {
                break;
            }
        }
        let t = self.text(lo);
        let kind = if number_is_float(&t) {
            TokenKind::Float(t)
        } else {
            TokenKind::Int(t)
        };
        self.push(kind, lo);
    }

    /// A character constant or string literal; stops at the end of the line.
    fn quoted(&mut self, q: u8) {
        let lo = self.pos;
        self.pos += 1;
        loop {
            match self.peek(0) {
                b'\\' if self.pos + 1 < self.src.bytes.len() && self.peek(1) != b'\n' => {
                    self.pos += 2
                }
                c if c == q => {
                    self.pos += 1;
                    break;
                }
                b'\n' => return self.unterminated(lo, q),
                _ if self.pos >= self.src.bytes.len() => return self.unterminated(lo, q),
                _ => self.pos += 1,
            }
        }
        let t = self.text(lo);
        if q == b'\'' {
            if t.len() == 2 {
                self.error(lo, self.pos, "empty character constant".into());
                return;
            }
            self.push(TokenKind::Char(t), lo);
        } else {
            self.push(TokenKind::Str(t), lo);
        }
    }

    fn unterminated(&mut self, lo: usize, q: u8) {
        let msg = format!("missing terminating {} character", q as char);
        self.error(lo, lo + 1, msg);
        self.space = true;
    }

    fn non_ascii(&mut self) {
        let lo = self.pos;
        let lead = self.peek(0);
        let len = match lead {
            0xf0..=0xff => 4,
            0xe0..=0xef => 3,
            0xc0..=0xdf => 2,
            _ => 1,
        };
        self.pos = (self.pos + len).min(self.src.bytes.len());
        let t = self.text(lo);
        self.error(
            lo,
            self.pos,
            format!("non-ASCII character '{t}' outside of a literal or comment"),
        );
        self.space = true;
    }

    fn punct(&mut self) {
        let lo = self.pos;
        let three = [self.peek(0), self.peek(1), self.peek(2)];
        let Some((p, len)) = match_punct(three) else {
            self.pos += 1;
            let c = three[0];
            let shown = if c.is_ascii_graphic() {
                (c as char).to_string()
            } else {
                format!("\\x{c:02x}")
            };
            self.error(
                lo,
                self.pos,
                format!("invalid character '{shown}' in source"),
            );
            self.space = true;
            return;
        };
        self.pos += len;
        self.push(TokenKind::Punct(p), lo);
    }
}

/// The longest punctuator at the start of `s` and its length.
fn match_punct(s: [u8; 3]) -> Option<(Punct, usize)> {
    use Punct::*;
    let three = match &s {
        b"<<=" => Some(ShlAssign),
        b">>=" => Some(ShrAssign),
        b"..." => Some(Ellipsis),
        _ => None,
    };
    if let Some(p) = three {
        return Some((p, 3));
    }
    let two = match &[s[0], s[1]] {
        b"->" => Some(Arrow),
        b"++" => Some(PlusPlus),
        b"--" => Some(MinusMinus),
        b"<<" => Some(Shl),
        b">>" => Some(Shr),
        b"<=" => Some(Le),
        b">=" => Some(Ge),
        b"==" => Some(EqEq),
        b"!=" => Some(Ne),
        b"&&" => Some(AmpAmp),
        b"||" => Some(PipePipe),
        b"::" => Some(ColonColon),
        b"*=" => Some(StarAssign),
        b"/=" => Some(SlashAssign),
        b"%=" => Some(PercentAssign),
        b"+=" => Some(PlusAssign),
        b"-=" => Some(MinusAssign),
        b"&=" => Some(AmpAssign),
        b"^=" => Some(CaretAssign),
        b"|=" => Some(PipeAssign),
        b"##" => Some(HashHash),
        _ => None,
    };
    if let Some(p) = two {
        return Some((p, 2));
    }
    let one = match s[0] {
        b'(' => LParen,
        b')' => RParen,
        b'[' => LBracket,
        b']' => RBracket,
        b'{' => LBrace,
        b'}' => RBrace,
        b'.' => Dot,
        b'&' => Amp,
        b'*' => Star,
        b'+' => Plus,
        b'-' => Minus,
        b'~' => Tilde,
        b'!' => Bang,
        b'/' => Slash,
        b'%' => Percent,
        b'<' => Lt,
        b'>' => Gt,
        b'^' => Caret,
        b'|' => Pipe,
        b'?' => Question,
        b':' => Colon,
        b';' => Semi,
        b'=' => Assign,
        b',' => Comma,
        b'#' => Hash,
        _ => return None,
    };
    Some((one, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        let f = lex_lines(text, FileId(0));
        assert!(f.diags.is_empty(), "{:?}", f.diags);
        f.lines
            .into_iter()
            .flat_map(|l| {
                assert!(l.diags.is_empty(), "{:?}", l.diags);
                l.tokens
            })
            .map(|t| t.kind)
            .collect()
    }

    fn int(s: &str) -> TokenKind {
        TokenKind::Int(s.into())
    }
    fn float(s: &str) -> TokenKind {
        TokenKind::Float(s.into())
    }
    fn p(p: Punct) -> TokenKind {
        TokenKind::Punct(p)
    }

    #[test]
    fn numbers_are_classified_by_c_rules() {
        assert_eq!(
            kinds("1.0f 0x1F 10ul 1e-3 0x1.8p3f 2.h .5 0x1e3 1E+5f 7"),
            vec![
                float("1.0f"),
                int("0x1F"),
                int("10ul"),
                float("1e-3"),
                float("0x1.8p3f"),
                float("2.h"),
                float(".5"),
                int("0x1e3"),
                float("1E+5f"),
                int("7")
            ]
        );
    }

    #[test]
    fn punctuators_take_the_longest_match() {
        use Punct::*;
        assert_eq!(
            kinds("a<<=b...->::##.. >>= x+++y"),
            vec![
                TokenKind::Ident("a".into()),
                p(ShlAssign),
                TokenKind::Ident("b".into()),
                p(Ellipsis),
                p(Arrow),
                p(ColonColon),
                p(HashHash),
                p(Dot),
                p(Dot),
                p(ShrAssign),
                TokenKind::Ident("x".into()),
                p(PlusPlus),
                p(Plus),
                TokenKind::Ident("y".into()),
            ]
        );
    }

    #[test]
    fn comments_splices_and_crlf() {
        let f = lex_lines(
            "int /* c\n */ a; // x \\\n still comment\r\nb\\\r\nc 'x' \"s\\\"\"",
            FileId(0),
        );
        assert!(f.diags.is_empty());
        assert_eq!(f.lines.len(), 2);
        let l0: Vec<String> = f.lines[0].tokens.iter().map(|t| t.text()).collect();
        assert_eq!(l0, ["int", "a", ";"]);
        let l1: Vec<String> = f.lines[1].tokens.iter().map(|t| t.text()).collect();
        assert_eq!(l1, ["bc", "'x'", "\"s\\\"\""]);
        // `bc` is spelled across the splice: its span covers `b\\\r\nc` in the original.
        let bc = &f.lines[1].tokens[0];
        assert_eq!(bc.span.hi - bc.span.lo, 5);
        assert!(f.lines[0].tokens[1].space_before);
    }

    #[test]
    fn errors_do_not_stop_lexing() {
        let f = lex_lines("a @ b 'x\nc \"str\nd é e\n/* open", FileId(0));
        let msgs: Vec<String> = f
            .lines
            .iter()
            .flat_map(|l| l.diags.iter().map(|d| d.message.clone()))
            .chain(f.diags.iter().map(|d| d.message.clone()))
            .collect();
        assert_eq!(msgs.len(), 5, "{msgs:?}");
        assert!(msgs[0].contains("invalid character '@'"));
        assert!(msgs[1].contains("missing terminating '"));
        assert!(msgs[2].contains("missing terminating \""));
        assert!(msgs[3].contains("non-ASCII character 'é'"));
        assert!(msgs[4].contains("unterminated /* comment"));
        let words: Vec<String> = f
            .lines
            .iter()
            .flat_map(|l| l.tokens.iter().map(|t| t.text()))
            .collect();
        assert_eq!(words, ["a", "b", "c", "d", "e"]);
        assert_eq!(f.diags[0].span.map(|s| s.lo), Some(23));
    }

    #[test]
    fn lex_one_accepts_only_single_tokens() {
        let sp = Span::new(FileId(0), 3, 4);
        assert_eq!(
            lex_one("ab", sp).map(|t| t.kind),
            Some(TokenKind::Ident("ab".into()))
        );
        assert_eq!(lex_one("<<=", sp).map(|t| t.span), Some(sp));
        assert!(lex_one("a+", sp).is_none());
        assert!(lex_one("//", sp).is_none());
        assert!(lex_one("", sp).is_none());
    }

    #[test]
    fn lex_appends_eof() {
        let mut sm = SourceMap::new();
        let f = sm.add_file("k.cl", "k.cl", "x\n".into());
        let mut d = Diagnostics::default();
        let t = lex(&sm, f, &mut d);
        assert_eq!(t.len(), 2);
        assert_eq!(t[1].kind, TokenKind::Eof);
    }
}
