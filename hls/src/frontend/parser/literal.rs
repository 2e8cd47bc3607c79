//! Decoding of literal spellings: integer and floating constants, characters and strings.

use crate::frontend::ast::FloatSuffix;

/// Decodes an integer constant: (value, unsigned suffix, long suffix, written in decimal).
pub(crate) fn parse_int(text: &str) -> Result<(u64, bool, bool, bool), String> {
    let body_end = text
        .char_indices()
        .rev()
        .take_while(|(_, c)| matches!(c, 'u' | 'U' | 'l' | 'L'))
        .last()
        .map(|(i, _)| i)
        .unwrap_or(text.len());
    let (body, suffix) = text.split_at(body_end);
    let lower = suffix.to_ascii_lowercase();
    let unsigned = lower.contains('u');
    let longs = lower.matches('l').count();
    if lower.matches('u').count() > 1 || longs > 2 {
        return Err(format!("invalid suffix '{suffix}' on integer constant"));
    }
    if longs == 2 {
        return Err("'long long' constants are reserved in OpenCL C; 'l' gives 64 bits".into());
    }
    let (digits, radix, decimal) =
        if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (h, 16, false)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8, false)
        } else {
            (body, 10, true)
        };
    if digits.is_empty() {
        return Err(format!("invalid integer constant '{text}'"));
    }
    let mut value: u64 = 0;
    for c in digits.chars() {
        let d = c
            .to_digit(radix)
            .ok_or_else(|| format!("invalid digit '{c}' in integer constant '{text}'"))?;
        value = value
            .checked_mul(radix as u64)
            .and_then(|v| v.checked_add(d as u64))
            .ok_or_else(|| {
                format!("integer constant '{text}' is too large for any integer type")
            })?;
    }
    Ok((value, unsigned, longs == 1, decimal))
}

/// Splits a floating constant into its numeric text and suffix.
pub(crate) fn parse_float(text: &str) -> Result<(String, FloatSuffix), String> {
    let is_hex = text.starts_with("0x") || text.starts_with("0X");
    let mut body = text;
    let mut suffix = FloatSuffix::None;
    if let Some(last) = text.chars().last() {
        // In a hex float the suffix follows the binary exponent; `f` before `p` is a digit.
        let can_strip = !is_hex || text.contains(['p', 'P']);
        if can_strip {
            match last {
                'f' | 'F' => {
                    suffix = FloatSuffix::F;
                    body = &text[..text.len() - 1];
                }
                'h' | 'H' => {
                    suffix = FloatSuffix::H;
                    body = &text[..text.len() - 1];
                }
                'l' | 'L' => {
                    return Err("'long double' constants are not supported in OpenCL C".into())
                }
                _ => {}
            }
        }
    }
    if is_hex {
        if !body.contains(['p', 'P']) {
            return Err(format!(
                "hexadecimal floating constant '{text}' needs an exponent"
            ));
        }
        if parse_hex_float(body).is_none() {
            return Err(format!("invalid floating constant '{text}'"));
        }
    } else if body.parse::<f64>().is_err() {
        return Err(format!("invalid floating constant '{text}'"));
    }
    Ok((body.to_string(), suffix))
}

/// The exact value of a hexadecimal floating constant (`0x1.8p3`), when it fits in f64
/// without rounding the mantissa beyond 64 bits.
pub fn parse_hex_float(text: &str) -> Option<f64> {
    let body = text
        .strip_prefix("0x")
        .or_else(|| text.strip_prefix("0X"))?;
    let (mant, exp) = body.split_once(['p', 'P'])?;
    let exp: i64 = exp.parse().ok()?;
    let (int_part, frac_part) = mant.split_once('.').unwrap_or((mant, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let mut m: u128 = 0;
    let mut shift: i64 = 0;
    for c in int_part.chars() {
        m = m.checked_mul(16)? + c.to_digit(16)? as u128;
    }
    for c in frac_part.chars() {
        m = m.checked_mul(16)? + c.to_digit(16)? as u128;
        shift -= 4;
    }
    let e = exp.checked_add(shift)?;
    let v = m as f64 * 2f64.powi(e.clamp(-2000, 2000) as i32);
    Some(v)
}

/// Decodes one escape sequence starting after the backslash; returns (byte value, chars used).
fn escape(chars: &[char]) -> Result<(u32, usize), String> {
    let c = *chars.first().ok_or("incomplete escape sequence")?;
    Ok(match c {
        'n' => (10, 1),
        't' => (9, 1),
        'r' => (13, 1),
        'a' => (7, 1),
        'b' => (8, 1),
        'f' => (12, 1),
        'v' => (11, 1),
        '\\' | '\'' | '"' | '?' => (c as u32, 1),
        '0'..='7' => {
            let mut v = 0u32;
            let mut n = 0;
            while n < 3 && n < chars.len() && chars[n].is_digit(8) {
                v = v * 8 + chars[n].to_digit(8).unwrap_or(0);
                n += 1;
            }
            (v & 0xFF, n)
        }
        'x' => {
            let mut v = 0u32;
            let mut n = 1;
            while n < chars.len() && chars[n].is_ascii_hexdigit() {
                v = v
                    .wrapping_mul(16)
                    .wrapping_add(chars[n].to_digit(16).unwrap_or(0));
                n += 1;
            }
            if n == 1 {
                return Err("\\x used with no following hex digits".into());
            }
            (v & 0xFF, n)
        }
        _ => return Err(format!("unknown escape sequence '\\{c}'")),
    })
}

fn unquote(text: &str, q: char) -> Result<Vec<u8>, String> {
    let inner: Vec<char> = text
        .strip_prefix(q)
        .and_then(|t| t.strip_suffix(q))
        .ok_or_else(|| format!("unterminated literal {text}"))?
        .chars()
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < inner.len() {
        if inner[i] == '\\' {
            let (v, n) = escape(&inner[i + 1..])?;
            out.push(v as u8);
            i += 1 + n;
        } else {
            let mut buf = [0u8; 4];
            out.extend_from_slice(inner[i].encode_utf8(&mut buf).as_bytes());
            i += 1;
        }
    }
    Ok(out)
}

/// A character constant's value as an `int` (a plain char is signed, as in clang).
pub(crate) fn parse_char(text: &str) -> Result<i64, String> {
    let bytes = unquote(text, '\'')?;
    match bytes.as_slice() {
        [b] => Ok(*b as i8 as i64),
        [] => Err("empty character constant".into()),
        _ => Err("multi-character character constants are not supported".into()),
    }
}

/// A string literal's bytes (without the terminating NUL).
pub(crate) fn parse_string(text: &str) -> Result<Vec<u8>, String> {
    unquote(text, '"')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_int("10"), Ok((10, false, false, true)));
        assert_eq!(parse_int("0x7FFu"), Ok((0x7ff, true, false, false)));
        assert_eq!(parse_int("017"), Ok((15, false, false, false)));
        assert_eq!(
            parse_int("2654435761u"),
            Ok((2654435761, true, false, true))
        );
        assert_eq!(parse_int("5UL"), Ok((5, true, true, true)));
        assert!(parse_int("09").is_err());
        assert!(parse_int("99999999999999999999999").is_err());
    }

    #[test]
    fn floats() {
        assert_eq!(parse_float("1.0f"), Ok(("1.0".into(), FloatSuffix::F)));
        assert_eq!(parse_float("1e-3"), Ok(("1e-3".into(), FloatSuffix::None)));
        assert_eq!(
            parse_float("0x1.fp3f"),
            Ok(("0x1.fp3".into(), FloatSuffix::F))
        );
        assert_eq!(parse_hex_float("0x1.8p1"), Some(3.0));
        assert_eq!(parse_hex_float("0x1.fffffep127"), Some(f32::MAX as f64));
        assert!(parse_float("0x1.f").is_err());
    }

    #[test]
    fn chars_and_strings() {
        assert_eq!(parse_char("'a'"), Ok(97));
        assert_eq!(parse_char("'\\n'"), Ok(10));
        assert_eq!(parse_char("'\\xff'"), Ok(-1));
        assert_eq!(parse_string("\"a\\0b\""), Ok(vec![b'a', 0, b'b']));
    }
}
