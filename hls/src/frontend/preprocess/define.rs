//! Macro definitions: `#define` and `#undef` parsing, redefinition checks, built-in macros.

use std::rc::Rc;

use super::hideset::MacroSym;
use super::Pp;
use crate::diag::{Diagnostic, Span};
use crate::frontend::token::{Punct, Token, TokenKind};

/// Macros whose expansion is computed, not spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Builtin {
    File,
    Line,
    Counter,
    /// The `_Pragma("...")` operator.
    Pragma,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum MacroKind {
    Object,
    /// `params` includes the variadic one (`__VA_ARGS__` or a GNU named `args...`) last.
    Function {
        params: Vec<String>,
        variadic: bool,
    },
    Builtin(Builtin),
}

#[derive(Clone, Debug)]
pub(crate) struct Macro {
    pub name: String,
    pub sym: MacroSym,
    pub kind: MacroKind,
    pub body: Vec<Token>,
    /// For each body token, the index of the parameter it names (function-like only).
    pub body_param: Vec<Option<usize>>,
    /// The name in the `#define`; None for predefined and `-D` macros.
    pub def_site: Option<Span>,
}

impl Macro {
    pub fn param_count(&self) -> usize {
        match &self.kind {
            MacroKind::Function { params, .. } => params.len(),
            _ => 0,
        }
    }

    pub fn is_variadic(&self) -> bool {
        matches!(self.kind, MacroKind::Function { variadic: true, .. })
    }

    /// Same definition in the sense of C99 6.10.3p2: same parameters, same body tokens
    /// with the same whitespace separation.
    fn same_as(&self, other: &Macro) -> bool {
        self.kind == other.kind
            && self.body.len() == other.body.len()
            && self
                .body
                .iter()
                .zip(&other.body)
                .enumerate()
                .all(|(i, (a, b))| a.kind == b.kind && (i == 0 || a.space_before == b.space_before))
    }
}

impl Pp<'_> {
    pub(super) fn define_builtins(&mut self) {
        for (name, b) in [
            ("__FILE__", Builtin::File),
            ("__LINE__", Builtin::Line),
            ("__COUNTER__", Builtin::Counter),
            ("_Pragma", Builtin::Pragma),
        ] {
            let sym = self.sym(name);
            let m = Macro {
                name: name.to_string(),
                sym,
                kind: MacroKind::Builtin(b),
                body: Vec::new(),
                body_param: Vec::new(),
                def_site: None,
            };
            self.macros.insert(name.to_string(), Rc::new(m));
        }
    }

    /// `#define`: `toks` are the tokens after the word `define`; `at` is that word.
    pub(super) fn define(&mut self, toks: &[Token], at: Span) {
        let m = match self.parse_define(toks, at) {
            Ok(m) => m,
            Err(d) => return self.diags.push(d),
        };
        if let Some(old) = self.macros.get(&m.name) {
            if let MacroKind::Builtin(_) = old.kind {
                let span = m.def_site.unwrap_or(at);
                self.diags
                    .warning(span, format!("redefining builtin macro '{}'", m.name));
            } else if !old.same_as(&m) {
                let span = m.def_site.unwrap_or(at);
                let mut d = Diagnostic::warning(span, format!("'{}' macro redefined", m.name));
                if let Some(prev) = old.def_site {
                    d = d.with_note(Some(prev), "previous definition is here");
                }
                self.diags.push(d);
            }
        }
        self.macros.insert(m.name.clone(), Rc::new(m));
    }

    fn parse_define(&mut self, toks: &[Token], at: Span) -> Result<Macro, Diagnostic> {
        let name_tok = macro_name(toks, at, "define")?;
        let name = name_tok.ident().unwrap_or_default().to_string();
        let def_site = if Some(name_tok.span.file) == self.builtin_file {
            None
        } else {
            Some(name_tok.span)
        };
        let mut rest = &toks[1..];
        let mut kind = MacroKind::Object;
        if rest
            .first()
            .is_some_and(|t| t.is_punct(Punct::LParen) && !t.space_before)
        {
            let (params, variadic, used) = parse_params(rest)?;
            rest = &rest[used..];
            kind = MacroKind::Function { params, variadic };
        }
        let body: Vec<Token> = rest.to_vec();
        let body_param = check_body(&body, &kind)?;
        let sym = self.sym(&name);
        Ok(Macro {
            name,
            sym,
            kind,
            body,
            body_param,
            def_site,
        })
    }

    /// `#undef`: `toks` are the tokens after the word `undef`.
    pub(super) fn undef(&mut self, toks: &[Token], at: Span) {
        match macro_name(toks, at, "undef") {
            Ok(t) => {
                if let Some(extra) = toks.get(1) {
                    self.diags
                        .warning(extra.span, "extra tokens at end of #undef directive");
                }
                if let Some(name) = t.ident() {
                    self.macros.remove(name);
                }
            }
            Err(d) => self.diags.push(d),
        }
    }
}

/// The macro name a directive names (`#define X`, `#ifdef X`, ...).
pub(super) fn macro_name<'t>(
    toks: &'t [Token],
    at: Span,
    directive: &str,
) -> Result<&'t Token, Diagnostic> {
    let Some(t) = toks.first() else {
        return Err(Diagnostic::error(
            at,
            format!("macro name missing in #{directive}"),
        ));
    };
    match t.ident() {
        Some("defined") => Err(Diagnostic::error(
            t.span,
            "'defined' cannot be used as a macro name",
        )),
        Some(_) => Ok(t),
        None => Err(Diagnostic::error(
            t.span,
            "macro name must be an identifier",
        )),
    }
}

/// Parses `(a, b, ...)` starting at the `(`; returns the names, whether variadic, and the
/// number of tokens used.
fn parse_params(toks: &[Token]) -> Result<(Vec<String>, bool, usize), Diagnostic> {
    let mut params: Vec<String> = Vec::new();
    let mut i = 1;
    let open = toks[0].span;
    if toks.get(1).is_some_and(|t| t.is_punct(Punct::RParen)) {
        return Ok((params, false, 2));
    }
    loop {
        let Some(t) = toks.get(i) else {
            return Err(Diagnostic::error(
                open,
                "missing ')' in macro parameter list",
            ));
        };
        let mut variadic = false;
        if t.is_punct(Punct::Ellipsis) {
            params.push("__VA_ARGS__".to_string());
            variadic = true;
        } else if let Some(name) = t.ident() {
            if name == "__VA_ARGS__" {
                return Err(Diagnostic::error(
                    t.span,
                    "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
                ));
            }
            if params.iter().any(|p| p == name) {
                return Err(Diagnostic::error(
                    t.span,
                    format!("duplicate macro parameter name '{name}'"),
                ));
            }
            params.push(name.to_string());
            // GNU named variadic parameter: `args...`.
            if toks.get(i + 1).is_some_and(|n| n.is_punct(Punct::Ellipsis)) {
                variadic = true;
                i += 1;
            }
        } else {
            return Err(Diagnostic::error(
                t.span,
                "invalid token in macro parameter list",
            ));
        }
        i += 1;
        match toks.get(i) {
            Some(t) if t.is_punct(Punct::RParen) => return Ok((params, variadic, i + 1)),
            Some(t) if t.is_punct(Punct::Comma) && !variadic => i += 1,
            Some(t) if variadic => {
                return Err(Diagnostic::error(t.span, "missing ')' after '...'"));
            }
            Some(t) => {
                return Err(Diagnostic::error(
                    t.span,
                    "expected comma in macro parameter list",
                ))
            }
            None => {
                return Err(Diagnostic::error(
                    open,
                    "missing ')' in macro parameter list",
                ))
            }
        }
    }
}

/// Checks the `#` and `##` rules of a body and maps parameter names to indices.
fn check_body(body: &[Token], kind: &MacroKind) -> Result<Vec<Option<usize>>, Diagnostic> {
    let (params, variadic): (&[String], bool) = match kind {
        MacroKind::Function { params, variadic } => (params, *variadic),
        _ => (&[], false),
    };
    if let Some(t) = body.first().filter(|t| t.is_punct(Punct::HashHash)) {
        return Err(Diagnostic::error(
            t.span,
            "'##' cannot appear at either end of a macro expansion",
        ));
    }
    if let Some(t) = body.last().filter(|t| t.is_punct(Punct::HashHash)) {
        return Err(Diagnostic::error(
            t.span,
            "'##' cannot appear at either end of a macro expansion",
        ));
    }
    let index: Vec<Option<usize>> = body
        .iter()
        .map(|t| match &t.kind {
            TokenKind::Ident(s) => params.iter().position(|p| p == s),
            _ => None,
        })
        .collect();
    for (i, t) in body.iter().enumerate() {
        if t.is_ident("__VA_ARGS__")
            && !(variadic && params.last().is_some_and(|p| p == "__VA_ARGS__"))
        {
            return Err(Diagnostic::error(
                t.span,
                "__VA_ARGS__ can only appear in the expansion of a C99 variadic macro",
            ));
        }
        let is_fn = matches!(kind, MacroKind::Function { .. });
        if is_fn && t.is_punct(Punct::Hash) && index.get(i + 1).copied().flatten().is_none() {
            return Err(Diagnostic::error(
                t.span,
                "'#' is not followed by a macro parameter",
            ));
        }
    }
    Ok(index)
}
