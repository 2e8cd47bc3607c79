//! `#if` expressions: C constant expressions in intmax_t/uintmax_t (C99 6.10.1), with
//! wrapping arithmetic and division by zero reported, never a panic.

use super::literal::{char_literal, int_literal};
use crate::diag::{Diagnostic, Span};
use crate::frontend::token::{Punct, Token, TokenKind};

/// Deepest nesting of parentheses and unary operators accepted.
const MAX_DEPTH: u32 = 256;

/// A value: 64 bits and whether they are read as unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Val {
    pub bits: u64,
    pub unsigned: bool,
}

impl Val {
    pub(super) fn int(v: i64) -> Val {
        Val {
            bits: v as u64,
            unsigned: false,
        }
    }
    fn truth(b: bool) -> Val {
        Val::int(b as i64)
    }
    fn is_true(self) -> bool {
        self.bits != 0
    }
    fn signed(self) -> i64 {
        self.bits as i64
    }
}

/// Evaluates a macro-expanded `#if` line. `defined` may still appear when a macro expanded
/// to it; `is_defined` answers it. `at` is the directive, for errors at the end.
pub(super) fn eval(
    toks: &[Token],
    at: Span,
    is_defined: &dyn Fn(&str) -> bool,
) -> Result<bool, Diagnostic> {
    let mut ev = Eval {
        toks,
        pos: 0,
        depth: 0,
        at,
        is_defined,
    };
    let v = ev.comma(true)?;
    if let Some(t) = ev.peek() {
        return Err(Diagnostic::error(
            t.span,
            format!(
                "token '{}' is not a valid binary operator in a preprocessor subexpression",
                t.text()
            ),
        ));
    }
    Ok(v.is_true())
}

struct Eval<'a> {
    toks: &'a [Token],
    pos: usize,
    depth: u32,
    at: Span,
    is_defined: &'a dyn Fn(&str) -> bool,
}

/// Binary operators by precedence (higher binds tighter).
fn binary_prec(p: Punct) -> Option<u8> {
    use Punct::*;
    Some(match p {
        Star | Slash | Percent => 10,
        Plus | Minus => 9,
        Shl | Shr => 8,
        Lt | Gt | Le | Ge => 7,
        EqEq | Ne => 6,
        Amp => 5,
        Caret => 4,
        Pipe => 3,
        AmpAmp => 2,
        PipePipe => 1,
        _ => return None,
    })
}

impl Eval<'_> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    fn peek_punct(&self) -> Option<Punct> {
        match self.peek()?.kind {
            TokenKind::Punct(p) => Some(p),
            _ => None,
        }
    }

    fn here(&self) -> Span {
        self.peek()
            .or_else(|| self.toks.last())
            .map_or(self.at, |t| t.span)
    }

    fn expect(&mut self, p: Punct, what: &str) -> Result<(), Diagnostic> {
        if self.peek_punct() == Some(p) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Diagnostic::error(
                self.here(),
                format!("expected '{}' {what}", p.as_str()),
            ))
        }
    }

    fn enter(&mut self) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diagnostic::error(
                self.here(),
                "preprocessor expression nested too deeply",
            ));
        }
        Ok(())
    }

    /// `a , b` (allowed in #if by clang and gcc).
    fn comma(&mut self, live: bool) -> Result<Val, Diagnostic> {
        let mut v = self.ternary(live)?;
        while self.peek_punct() == Some(Punct::Comma) {
            self.pos += 1;
            v = self.ternary(live)?;
        }
        Ok(v)
    }

    fn ternary(&mut self, live: bool) -> Result<Val, Diagnostic> {
        let c = self.binary(1, live)?;
        if self.peek_punct() != Some(Punct::Question) {
            return Ok(c);
        }
        self.pos += 1;
        self.enter()?;
        let a = self.comma(live && c.is_true())?;
        self.expect(Punct::Colon, "in conditional expression")?;
        let b = self.ternary(live && !c.is_true())?;
        self.depth -= 1;
        let unsigned = a.unsigned || b.unsigned;
        let v = if c.is_true() { a } else { b };
        Ok(Val {
            bits: v.bits,
            unsigned,
        })
    }

    fn binary(&mut self, min: u8, live: bool) -> Result<Val, Diagnostic> {
        let mut lhs = self.unary(live)?;
        while let Some(p) = self.peek_punct() {
            let Some(prec) = binary_prec(p).filter(|&q| q >= min) else {
                break;
            };
            let op_span = self.here();
            self.pos += 1;
            lhs = match p {
                Punct::AmpAmp => {
                    let rhs = self.binary(prec + 1, live && lhs.is_true())?;
                    Val::truth(lhs.is_true() && rhs.is_true())
                }
                Punct::PipePipe => {
                    let rhs = self.binary(prec + 1, live && !lhs.is_true())?;
                    Val::truth(lhs.is_true() || rhs.is_true())
                }
                _ => {
                    let rhs = self.binary(prec + 1, live)?;
                    apply(p, lhs, rhs, live, op_span)?
                }
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self, live: bool) -> Result<Val, Diagnostic> {
        let Some(t) = self.peek() else {
            return Err(Diagnostic::error(
                self.here(),
                "expected value in preprocessor expression",
            ));
        };
        if let TokenKind::Punct(p) = t.kind {
            if matches!(p, Punct::Plus | Punct::Minus | Punct::Tilde | Punct::Bang) {
                self.pos += 1;
                self.enter()?;
                let v = self.unary(live)?;
                self.depth -= 1;
                return Ok(match p {
                    Punct::Plus => v,
                    Punct::Minus => Val {
                        bits: v.bits.wrapping_neg(),
                        unsigned: v.unsigned,
                    },
                    Punct::Tilde => Val {
                        bits: !v.bits,
                        unsigned: v.unsigned,
                    },
                    _ => Val::truth(!v.is_true()),
                });
            }
            if p == Punct::LParen {
                self.pos += 1;
                self.enter()?;
                let v = self.comma(live)?;
                self.expect(Punct::RParen, "to close '(' in preprocessor expression")?;
                self.depth -= 1;
                return Ok(v);
            }
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Val, Diagnostic> {
        let toks = self.toks;
        let Some(t) = toks.get(self.pos) else {
            return Err(Diagnostic::error(
                self.here(),
                "expected value in preprocessor expression",
            ));
        };
        let span = t.span;
        self.pos += 1;
        match &t.kind {
            TokenKind::Int(s) => int_literal(s).map_err(|m| Diagnostic::error(span, m)),
            TokenKind::Char(s) => char_literal(s).map_err(|m| Diagnostic::error(span, m)),
            TokenKind::Ident(s) if s == "defined" => self.defined_op(span),
            // OpenCL C's `true` is a keyword that clang evaluates to 1 here, as C++ does.
            TokenKind::Ident(s) if s == "true" => Ok(Val::int(1)),
            // Identifiers left after macro expansion are 0 (C99 6.10.1p4).
            TokenKind::Ident(_) => Ok(Val::int(0)),
            TokenKind::Float(_) => Err(Diagnostic::error(
                span,
                "floating point literal in preprocessor expression",
            )),
            _ => Err(Diagnostic::error(
                span,
                format!(
                    "invalid token '{}' at start of a preprocessor expression",
                    t.text()
                ),
            )),
        }
    }

    /// `defined` produced by a macro expansion (undefined behaviour; gcc and clang allow it).
    fn defined_op(&mut self, span: Span) -> Result<Val, Diagnostic> {
        let paren = self.peek_punct() == Some(Punct::LParen);
        if paren {
            self.pos += 1;
        }
        let Some(name) = self.peek().and_then(|t| t.ident()) else {
            return Err(Diagnostic::error(
                span,
                "macro name missing after 'defined'",
            ));
        };
        let yes = (self.is_defined)(name);
        self.pos += 1;
        if paren {
            self.expect(Punct::RParen, "after 'defined'")?;
        }
        Ok(Val::truth(yes))
    }
}

/// A binary operator other than `&&`/`||`, with the usual arithmetic conversions.
fn apply(p: Punct, a: Val, b: Val, live: bool, at: Span) -> Result<Val, Diagnostic> {
    use Punct::*;
    let unsigned = a.unsigned || b.unsigned;
    let arith = |bits: u64| Val { bits, unsigned };
    Ok(match p {
        Star => arith(a.bits.wrapping_mul(b.bits)),
        Plus => arith(a.bits.wrapping_add(b.bits)),
        Minus => arith(a.bits.wrapping_sub(b.bits)),
        Slash | Percent => {
            if b.bits == 0 {
                if live {
                    let what = if p == Slash { "division" } else { "remainder" };
                    return Err(Diagnostic::error(
                        at,
                        format!("{what} by zero in preprocessor expression"),
                    ));
                }
                return Ok(arith(0));
            }
            let bits = match (unsigned, p == Slash) {
                (true, true) => a.bits / b.bits,
                (true, false) => a.bits % b.bits,
                (false, true) => a.signed().wrapping_div(b.signed()) as u64,
                (false, false) => a.signed().wrapping_rem(b.signed()) as u64,
            };
            arith(bits)
        }
        // Shifts keep the left operand's type; counts outside 0..64 shift everything out.
        Shl | Shr => {
            let count = if b.unsigned || b.signed() >= 0 {
                b.bits
            } else {
                u64::MAX
            };
            let bits = match (p, count < 64) {
                (Shl, true) => a.bits << count,
                (Shl, false) => 0,
                (_, true) if a.unsigned => a.bits >> count,
                (_, true) => (a.signed() >> count) as u64,
                (_, false) if !a.unsigned && a.signed() < 0 => u64::MAX,
                (_, false) => 0,
            };
            Val {
                bits,
                unsigned: a.unsigned,
            }
        }
        Lt | Gt | Le | Ge => {
            let ord = if unsigned {
                a.bits.cmp(&b.bits)
            } else {
                a.signed().cmp(&b.signed())
            };
            Val::truth(match p {
                Lt => ord.is_lt(),
                Gt => ord.is_gt(),
                Le => ord.is_le(),
                _ => ord.is_ge(),
            })
        }
        EqEq => Val::truth(a.bits == b.bits),
        Ne => Val::truth(a.bits != b.bits),
        Amp => arith(a.bits & b.bits),
        Caret => arith(a.bits ^ b.bits),
        Pipe => arith(a.bits | b.bits),
        _ => {
            return Err(Diagnostic::error(
                at,
                "invalid operator in preprocessor expression",
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::FileId;
    use crate::frontend::lexer::lex_lines;

    fn ev(src: &str) -> Result<bool, String> {
        let toks: Vec<Token> = lex_lines(src, FileId(0))
            .lines
            .into_iter()
            .flat_map(|l| l.tokens)
            .collect();
        eval(&toks, Span::default(), &|n| n == "FOO").map_err(|d| d.message)
    }

    #[test]
    fn arithmetic_and_precedence() {
        assert_eq!(ev("1 + 2 * 3 == 7"), Ok(true));
        assert_eq!(
            ev("(1 + 2) * 3 == 9 && 10 / 3 == 3 && 10 % 3 == 1"),
            Ok(true)
        );
        assert_eq!(
            ev("1 << 4 == 16 && -16 >> 2 == -4 && (5 & 3) == 1 && (5 ^ 3) == 6"),
            Ok(true)
        );
        assert_eq!(ev("0 ? 1 : 2 == 2"), Ok(true));
        assert_eq!(ev("1 ? 0 : 1"), Ok(false));
        assert_eq!(ev("!0 && ~0 == -1 && -(-3) == 3 && +4 == 4"), Ok(true));
        assert_eq!(ev("(2 || 0) == 1 && (0, 5) == 5"), Ok(true));
        assert_eq!(
            ev("0x10 == 16 && 010 == 8 && 0b11 == 3 && 'a' == 97 && '\\n' == 10"),
            Ok(true)
        );
        assert_eq!(ev("'\\xff' < 0 && '\\0' == 0 && 'ab' == 24930"), Ok(true));
    }

    #[test]
    fn unsigned_arithmetic() {
        assert_eq!(ev("-1 < 0"), Ok(true));
        assert_eq!(ev("-1 < 0u"), Ok(false));
        assert_eq!(ev("0xffffffffffffffff == -1"), Ok(true));
        assert_eq!(ev("18446744073709551615 > 0"), Ok(true));
        assert_eq!(ev("(0u - 1) / 2 == 9223372036854775807"), Ok(true));
        assert_eq!(ev("(1 ? -1 : 0u) > 0"), Ok(true));
        assert_eq!(ev("-9223372036854775807 - 1 < 0"), Ok(true));
        // Wraps instead of overflowing.
        assert_eq!(ev("9223372036854775807 + 1 < 0"), Ok(true));
        assert_eq!(ev("(-9223372036854775807 - 1) / -1 < 0"), Ok(true));
        assert_eq!(ev("1 << 64 == 0 && 1 << -1 == 0"), Ok(true));
    }

    #[test]
    fn defined_and_identifiers() {
        assert_eq!(ev("defined FOO && defined(FOO) && !defined BAR"), Ok(true));
        assert_eq!(ev("UNKNOWN == 0"), Ok(true));
    }

    #[test]
    fn errors_are_reported_not_panics() {
        assert!(ev("1 / 0").unwrap_err().contains("division by zero"));
        assert!(ev("1 % 0").unwrap_err().contains("remainder by zero"));
        assert_eq!(ev("0 && 1 / 0"), Ok(false));
        assert_eq!(ev("1 || 1 / 0"), Ok(true));
        assert_eq!(ev("0 ? 1 / 0 : 2"), Ok(true));
        assert!(ev("1.0").unwrap_err().contains("floating point"));
        assert!(ev("1 +").is_err());
        assert!(ev("(1").is_err());
        assert!(ev("1 2").is_err());
        assert!(ev("\"s\"").is_err());
        assert!(ev("99999999999999999999")
            .unwrap_err()
            .contains("too large"));
        assert!(ev("12abc").unwrap_err().contains("suffix"));
        assert!(ev("08").unwrap_err().contains("invalid digit"));
        assert!(ev("1 ? 2").is_err());
        assert!(ev(&"(".repeat(100_000))
            .unwrap_err()
            .contains("nested too deeply"));
        assert!(ev(&"- ".repeat(100_000))
            .unwrap_err()
            .contains("nested too deeply"));
    }
}
