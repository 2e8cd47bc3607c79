//! The parser: preprocessed tokens to the syntax tree of `ast.rs`, with error recovery so one
//! run reports every syntax error it can. Submodules parse one grammar area each.

mod attrs;
mod decl;
mod expr;
mod literal;
mod specs;
mod stmt;

use std::collections::HashMap;

use crate::diag::{Diagnostic, Diagnostics, SourceMap, Span};
use crate::frontend::ast::*;
use crate::frontend::token::{Punct, Token, TokenKind};

/// Stop reporting after this many syntax errors: the rest are usually follow-ons.
const MAX_ERRORS: usize = 50;

/// Typedef names every OpenCL C program sees (the checker gives them their types).
pub const PREDEFINED_TYPEDEFS: &[&str] = &[
    "size_t",
    "ptrdiff_t",
    "intptr_t",
    "uintptr_t",
    "atomic_int",
    "atomic_uint",
    "atomic_long",
    "atomic_ulong",
    "atomic_float",
    "atomic_double",
    "atomic_flag",
    "atomic_intptr_t",
    "atomic_uintptr_t",
    "atomic_size_t",
    "atomic_ptrdiff_t",
    "cl_mem_fence_flags",
    "memory_order",
    "memory_scope",
];

/// Parses a whole translation unit. Syntax errors go to `diags`; the tree holds whatever
/// could be recovered around them.
pub fn parse(tokens: Vec<Token>, sm: &SourceMap, diags: &mut Diagnostics) -> TranslationUnit {
    let mut p = Parser::new(tokens, sm, diags);
    let mut items = Vec::new();
    while !p.at_eof() {
        let before = p.pos;
        if let Some(item) = p.item() {
            items.push(item);
        }
        if p.pos == before {
            // No progress: skip a token so the loop always ends.
            p.bump();
        }
    }
    TranslationUnit {
        items,
        expr_count: p.next_expr,
        stmt_count: p.next_stmt,
        declarator_count: p.next_decl,
    }
}

/// Raised when a production cannot continue; the caller recovers at a synchronising token.
#[derive(Debug)]
pub(crate) struct Fail;

pub(crate) type PResult<T> = Result<T, Fail>;

pub(crate) struct Parser<'a> {
    toks: Vec<Token>,
    pos: usize,
    sm: &'a SourceMap,
    diags: &'a mut Diagnostics,
    /// Scopes of ordinary identifiers: `true` marks a typedef name, `false` a name that
    /// shadows one.
    scopes: Vec<HashMap<String, bool>>,
    errors: usize,
    /// Expression nesting, bounded so hostile input cannot overflow the stack.
    pub(crate) depth: u32,
    /// Statement nesting, bounded likewise.
    pub(crate) nesting: u32,
    next_expr: u32,
    next_stmt: u32,
    next_decl: u32,
    eof: Token,
}

impl<'a> Parser<'a> {
    fn new(mut toks: Vec<Token>, sm: &'a SourceMap, diags: &'a mut Diagnostics) -> Parser<'a> {
        let last_span = toks.last().map(|t| t.span).unwrap_or_default();
        if !matches!(toks.last().map(|t| &t.kind), Some(TokenKind::Eof)) {
            toks.push(Token {
                kind: TokenKind::Eof,
                span: last_span,
                space_before: false,
            });
        }
        let eof = toks.last().cloned().unwrap_or(Token {
            kind: TokenKind::Eof,
            span: last_span,
            space_before: false,
        });
        let mut global = HashMap::new();
        for name in PREDEFINED_TYPEDEFS {
            global.insert(name.to_string(), true);
        }
        Parser {
            toks,
            pos: 0,
            sm,
            diags,
            scopes: vec![global],
            errors: 0,
            depth: 0,
            nesting: 0,
            next_expr: 0,
            next_stmt: 0,
            next_decl: 0,
            eof,
        }
    }

    // ------------------------------------------------------------ token cursor

    pub(crate) fn peek(&self) -> &Token {
        self.toks.get(self.pos).unwrap_or(&self.eof)
    }

    pub(crate) fn peek_at(&self, n: usize) -> &Token {
        self.toks.get(self.pos + n).unwrap_or(&self.eof)
    }

    pub(crate) fn at_eof(&self) -> bool {
        matches!(self.peek().kind, TokenKind::Eof)
    }

    pub(crate) fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    pub(crate) fn is(&self, p: Punct) -> bool {
        self.peek().is_punct(p)
    }

    pub(crate) fn is_word(&self, w: &str) -> bool {
        self.peek().is_ident(w)
    }

    pub(crate) fn eat(&mut self, p: Punct) -> bool {
        if self.is(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    pub(crate) fn eat_word(&mut self, w: &str) -> bool {
        if self.is_word(w) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// The span of the token just consumed.
    pub(crate) fn prev_span(&self) -> Span {
        if self.pos == 0 {
            return self.peek().span;
        }
        self.toks[self.pos - 1].span
    }

    pub(crate) fn span_from(&self, start: Span) -> Span {
        self.sm.join(start, self.prev_span())
    }

    /// Expects a punctuator; on a mismatch reports "expected 'X' <context>" where the
    /// missing token belongs: right after the previous token, as clang does.
    pub(crate) fn expect(&mut self, p: Punct, context: &str) -> PResult<Span> {
        if self.is(p) {
            return Ok(self.bump().span);
        }
        let at = self.after_prev();
        let found = self.describe(self.peek());
        self.error(
            at,
            format!("expected '{}' {}, found {}", p.as_str(), context, found),
        );
        Err(Fail)
    }

    /// A zero-width span just after the previous token (where a missing `;` belongs).
    pub(crate) fn after_prev(&self) -> Span {
        if self.pos == 0 {
            return self.peek().span;
        }
        let prev = self.sm.use_site(self.prev_span());
        Span::new(prev.file, prev.hi, prev.hi)
    }

    pub(crate) fn describe(&self, t: &Token) -> String {
        match &t.kind {
            TokenKind::Eof => "end of file".to_string(),
            TokenKind::Pragma(_) => "'#pragma'".to_string(),
            _ => format!("'{}'", t.text()),
        }
    }

    pub(crate) fn expect_ident(&mut self, context: &str) -> PResult<Ident> {
        let t = self.peek().clone();
        if let TokenKind::Ident(name) = &t.kind {
            if is_reserved_word(name) {
                self.error(
                    t.span,
                    format!("'{name}' is a reserved word and cannot be used as {context}"),
                );
                return Err(Fail);
            }
            self.bump();
            return Ok(Ident {
                name: name.clone(),
                span: t.span,
            });
        }
        let found = self.describe(&t);
        self.error(t.span, format!("expected {context}, found {found}"));
        Err(Fail)
    }

    // ------------------------------------------------------------ diagnostics and recovery

    pub(crate) fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.errors += 1;
        if self.errors <= MAX_ERRORS {
            self.diags.push(Diagnostic::error(span, msg));
        } else if self.errors == MAX_ERRORS + 1 {
            self.diags.push(Diagnostic::error(
                span,
                "too many syntax errors; stopping here",
            ));
        }
    }

    /// Skips to just after the next `;` at this nesting depth, or to (not past) a `}` that
    /// closes the current block. Balanced brackets are skipped whole.
    pub(crate) fn recover_statement(&mut self) {
        let mut depth = 0i32;
        loop {
            let t = self.peek();
            match &t.kind {
                TokenKind::Eof => return,
                TokenKind::Punct(Punct::Semi) if depth <= 0 => {
                    self.bump();
                    return;
                }
                TokenKind::Punct(Punct::LBrace | Punct::LParen | Punct::LBracket) => depth += 1,
                TokenKind::Punct(Punct::RBrace) if depth <= 0 => return,
                TokenKind::Punct(Punct::RBrace | Punct::RParen | Punct::RBracket) => {
                    depth -= 1;
                    if depth == 0 && t.is_punct(Punct::RBrace) {
                        self.bump();
                        // A `}` closing a block we skipped into ends a construct like a
                        // function body; a following `;` belongs to it too.
                        self.eat(Punct::Semi);
                        return;
                    }
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ------------------------------------------------------------ ids

    pub(crate) fn expr(&mut self, kind: ExprKind, span: Span) -> Expr {
        let id = ExprId(self.next_expr);
        self.next_expr += 1;
        Expr { id, kind, span }
    }

    pub(crate) fn stmt_id(&mut self) -> StmtId {
        let id = StmtId(self.next_stmt);
        self.next_stmt += 1;
        id
    }

    pub(crate) fn declarator_id(&mut self) -> DeclaratorId {
        let id = DeclaratorId(self.next_decl);
        self.next_decl += 1;
        id
    }

    // ------------------------------------------------------------ typedef scopes

    pub(crate) fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    pub(crate) fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    pub(crate) fn declare_name(&mut self, name: &str, is_typedef: bool) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), is_typedef);
        }
    }

    pub(crate) fn is_typedef_name(&self, name: &str) -> bool {
        for s in self.scopes.iter().rev() {
            if let Some(t) = s.get(name) {
                return *t;
            }
        }
        false
    }

    // ------------------------------------------------------------ top level

    fn item(&mut self) -> Option<Item> {
        if let TokenKind::Pragma(toks) = &self.peek().kind {
            let pragma = Pragma {
                tokens: toks.clone(),
                span: self.peek().span,
            };
            self.bump();
            return Some(Item::Pragma(pragma));
        }
        if self.eat(Punct::Semi) {
            return None;
        }
        match self.external_declaration() {
            Ok(item) => item,
            Err(Fail) => {
                self.recover_statement();
                None
            }
        }
    }
}

/// Words that can never name a variable, function or type in OpenCL C.
pub(crate) fn is_reserved_word(w: &str) -> bool {
    matches!(
        w,
        "kernel"
            | "__kernel"
            | "global"
            | "__global"
            | "local"
            | "__local"
            | "constant"
            | "__constant"
            | "private"
            | "__private"
            | "generic"
            | "__generic"
            | "auto"
            | "break"
            | "case"
            | "char"
            | "const"
            | "continue"
            | "default"
            | "do"
            | "double"
            | "else"
            | "enum"
            | "extern"
            | "float"
            | "for"
            | "goto"
            | "if"
            | "inline"
            | "int"
            | "long"
            | "register"
            | "restrict"
            | "return"
            | "short"
            | "signed"
            | "sizeof"
            | "static"
            | "struct"
            | "switch"
            | "typedef"
            | "union"
            | "unsigned"
            | "void"
            | "volatile"
            | "while"
            | "half"
            | "bool"
            | "true"
            | "false"
            | "uchar"
            | "ushort"
            | "uint"
            | "ulong"
            | "__attribute__"
            | "read_only"
            | "write_only"
            | "read_write"
            | "__read_only"
            | "__write_only"
            | "__read_write"
            | "vec_step"
    )
}

#[cfg(test)]
mod tests;
