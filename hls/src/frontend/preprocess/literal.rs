//! Values of integer and character constants in `#if` expressions.

use super::cond::Val;

/// Value of an integer constant: decimal, octal, hex or binary, with a u/l/ll suffix.
pub(super) fn int_literal(s: &str) -> Result<Val, String> {
    let (radix, prefix) = match s.get(..2) {
        Some("0x" | "0X") => (16, 2),
        Some("0b" | "0B") => (2, 2),
        _ => (10, 0),
    };
    let rest = &s[prefix..];
    // Digits run to the first character that cannot be one (octal and binary digits are
    // checked below, so `08` is "invalid digit", not a suffix).
    let scan = if radix == 16 { 16 } else { 10 };
    let end = rest.find(|c: char| !c.is_digit(scan)).unwrap_or(rest.len());
    let (digits, suffix) = rest.split_at(end);
    let lower = suffix.to_ascii_lowercase();
    let unsigned_suffix = match lower.as_str() {
        "" | "l" | "ll" => false,
        "u" | "ul" | "lu" | "ull" | "llu" => true,
        _ => return Err(format!("invalid suffix '{suffix}' on integer constant")),
    };
    let (radix, body) = if radix == 10 && digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (radix, digits)
    };
    if body.is_empty() {
        return Err(format!("invalid integer constant '{s}'"));
    }
    let mut v: u64 = 0;
    for c in body.chars() {
        let d = c
            .to_digit(radix)
            .ok_or_else(|| format!("invalid digit '{c}' in integer constant '{s}'"))?;
        v = v
            .checked_mul(radix as u64)
            .and_then(|v| v.checked_add(d as u64))
            .ok_or_else(|| {
                format!("integer literal '{s}' is too large to be represented in any integer type")
            })?;
    }
    Ok(Val {
        bits: v,
        unsigned: unsigned_suffix || v > i64::MAX as u64,
    })
}

/// Value of a character constant (OpenCL `char` is signed: `'\xff'` is -1).
pub(super) fn char_literal(s: &str) -> Result<Val, String> {
    let inner = s
        .strip_prefix('\'')
        .and_then(|r| r.strip_suffix('\''))
        .ok_or_else(|| format!("invalid character constant {s}"))?;
    let mut chars = inner.chars().peekable();
    let mut vals: Vec<u32> = Vec::new();
    while let Some(c) = chars.next() {
        if c != '\\' {
            vals.push(c as u32);
            continue;
        }
        let e = chars.next().ok_or("incomplete escape sequence")?;
        let v = match e {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            '\\' | '\'' | '"' | '?' => e as u32,
            'x' => {
                let mut v: u32 = 0;
                let mut any = false;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(16)) {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    any = true;
                    chars.next();
                }
                if !any {
                    return Err("\\x used with no following hex digits".into());
                }
                v
            }
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                v
            }
            other => other as u32,
        };
        vals.push(v);
    }
    let v: i64 = match vals.as_slice() {
        [one] if *one < 256 => *one as u8 as i8 as i64,
        [one] => *one as i64,
        many => many
            .iter()
            .fold(0i64, |acc, &c| acc.wrapping_shl(8) | (c & 0xff) as i64) as i32
            as i64,
    };
    Ok(Val::int(v))
}
