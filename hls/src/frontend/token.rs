//! Tokens shared by the lexer, the preprocessor and the parser.

use crate::diag::Span;

/// C punctuators. `[[` is two `LBracket`s; the parser pairs them for `[[cl::...]]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Dot,
    Arrow,
    PlusPlus,
    MinusMinus,
    Amp,
    Star,
    Plus,
    Minus,
    Tilde,
    Bang,
    Slash,
    Percent,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Ne,
    Caret,
    Pipe,
    AmpAmp,
    PipePipe,
    Question,
    Colon,
    ColonColon,
    Semi,
    Ellipsis,
    Assign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    PlusAssign,
    MinusAssign,
    ShlAssign,
    ShrAssign,
    AmpAssign,
    CaretAssign,
    PipeAssign,
    Comma,
    Hash,
    HashHash,
}

impl Punct {
    pub fn as_str(self) -> &'static str {
        use Punct::*;
        match self {
            LParen => "(",
            RParen => ")",
            LBracket => "[",
            RBracket => "]",
            LBrace => "{",
            RBrace => "}",
            Dot => ".",
            Arrow => "->",
            PlusPlus => "++",
            MinusMinus => "--",
            Amp => "&",
            Star => "*",
            Plus => "+",
            Minus => "-",
            Tilde => "~",
            Bang => "!",
            Slash => "/",
            Percent => "%",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            Caret => "^",
            Pipe => "|",
            AmpAmp => "&&",
            PipePipe => "||",
            Question => "?",
            Colon => ":",
            ColonColon => "::",
            Semi => ";",
            Ellipsis => "...",
            Assign => "=",
            StarAssign => "*=",
            SlashAssign => "/=",
            PercentAssign => "%=",
            PlusAssign => "+=",
            MinusAssign => "-=",
            ShlAssign => "<<=",
            ShrAssign => ">>=",
            AmpAssign => "&=",
            CaretAssign => "^=",
            PipeAssign => "|=",
            Comma => ",",
            Hash => "#",
            HashHash => "##",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// Identifiers and keywords alike; the parser decides which words are keywords.
    Ident(String),
    /// An integer constant as spelled, suffix included (`0x1Fu`, `10`, `7ul`).
    Int(String),
    /// A floating constant as spelled, suffix included (`1.0f`, `1e-3`, `0x1p3f`, `2.h`).
    Float(String),
    /// A character constant as spelled, quotes included (`'a'`, `'\n'`).
    Char(String),
    /// A string literal as spelled, quotes included.
    Str(String),
    Punct(Punct),
    /// A `#pragma` line that reached the parser: the tokens after `pragma`
    /// (`unroll 4`, `ivdep safelen(8)`, `OPENCL FP_CONTRACT OFF`).
    Pragma(Vec<Token>),
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
    /// Whitespace came before this token (needed for `#` stringification and printing).
    pub space_before: bool,
}

impl Token {
    pub fn is_punct(&self, p: Punct) -> bool {
        matches!(self.kind, TokenKind::Punct(q) if q == p)
    }

    pub fn is_ident(&self, name: &str) -> bool {
        matches!(&self.kind, TokenKind::Ident(s) if s == name)
    }

    pub fn ident(&self) -> Option<&str> {
        match &self.kind {
            TokenKind::Ident(s) => Some(s),
            _ => None,
        }
    }

    /// The token's spelling, as it would be printed back.
    pub fn text(&self) -> String {
        match &self.kind {
            TokenKind::Ident(s)
            | TokenKind::Int(s)
            | TokenKind::Float(s)
            | TokenKind::Char(s)
            | TokenKind::Str(s) => s.clone(),
            TokenKind::Punct(p) => p.as_str().to_string(),
            TokenKind::Pragma(toks) => {
                let body: Vec<String> = toks.iter().map(|t| t.text()).collect();
                format!("#pragma {}", body.join(" "))
            }
            TokenKind::Eof => String::new(),
        }
    }
}
