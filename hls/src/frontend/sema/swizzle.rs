//! Vector component selection: `.xyzw`/`.rgba` letters, `.s0123` hex lanes, and
//! `.lo .hi .even .odd` halves, parsed into lane indices.

/// The lanes a swizzle selects on a vector of `lanes` lanes, or a message saying why
/// the name is not a valid component selection.
pub fn parse_swizzle(name: &str, lanes: u8) -> Result<Vec<u8>, String> {
    // A 3-lane vector behaves as 4 lanes for lo/hi/even/odd (the 4th lane is undefined).
    let stored = if lanes == 3 { 4 } else { lanes };
    let half =
        |pick: &dyn Fn(u8) -> bool| -> Vec<u8> { (0..stored).filter(|i| pick(*i)).collect() };
    let lanes_out = match name {
        "lo" => half(&|i| i < stored / 2),
        "hi" => half(&|i| i >= stored / 2),
        "even" => half(&|i| i % 2 == 0),
        "odd" => half(&|i| i % 2 == 1),
        _ => parse_components(name, lanes)?,
    };
    if ![1, 2, 3, 4, 8, 16].contains(&lanes_out.len()) {
        return Err(format!(
            "vector component selection '.{name}' selects {} components; 1, 2, 3, 4, 8 or 16 are allowed",
            lanes_out.len()
        ));
    }
    Ok(lanes_out)
}

fn parse_components(name: &str, lanes: u8) -> Result<Vec<u8>, String> {
    let bad = |why: &str| {
        Err(format!(
            "invalid vector component selection '.{name}': {why}"
        ))
    };
    if let Some(hex) = name.strip_prefix(['s', 'S']) {
        if hex.is_empty() {
            return bad("no lanes");
        }
        let mut out = Vec::new();
        for c in hex.chars() {
            let Some(d) = c.to_digit(16) else {
                return bad("not a hex lane number");
            };
            if d >= lanes as u32 {
                return Err(format!(
                    "vector component '{c}' is out of range for a vector of {lanes} lanes"
                ));
            }
            out.push(d as u8);
        }
        return Ok(out);
    }
    let sets = ["xyzw", "rgba"];
    let Some(set) = sets
        .iter()
        .find(|s| name.chars().next().is_some_and(|c| s.contains(c)))
    else {
        return bad("unknown component");
    };
    let mut out = Vec::new();
    for c in name.chars() {
        let Some(i) = set.find(c) else {
            return bad("components from different sets (xyzw, rgba, s0..sF) may not be mixed");
        };
        if i >= lanes as usize {
            return Err(format!(
                "vector component '{c}' is out of range for a vector of {lanes} lanes"
            ));
        }
        out.push(i as u8);
    }
    Ok(out)
}

/// A swizzle can be assigned to only when no lane repeats.
pub fn is_assignable(lanes: &[u8]) -> bool {
    let mut seen = 0u32;
    for l in lanes {
        if seen & (1 << l) != 0 {
            return false;
        }
        seen |= 1 << l;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_and_hex() {
        assert_eq!(parse_swizzle("wzyx", 4), Ok(vec![3, 2, 1, 0]));
        assert_eq!(parse_swizzle("xy", 2), Ok(vec![0, 1]));
        assert_eq!(parse_swizzle("s0123", 8), Ok(vec![0, 1, 2, 3]));
        assert_eq!(parse_swizzle("SF", 16), Ok(vec![15]));
        assert_eq!(parse_swizzle("xxyy", 4), Ok(vec![0, 0, 1, 1]));
        assert!(parse_swizzle("w", 3).is_err());
        assert!(parse_swizzle("s8", 8).is_err());
        assert!(parse_swizzle("xr", 4).is_err());
        assert!(parse_swizzle("xyzwx", 4).is_err());
        assert!(parse_swizzle("q", 4).is_err());
    }

    #[test]
    fn halves() {
        assert_eq!(parse_swizzle("hi", 4), Ok(vec![2, 3]));
        assert_eq!(parse_swizzle("lo", 2), Ok(vec![0]));
        assert_eq!(parse_swizzle("odd", 8), Ok(vec![1, 3, 5, 7]));
        assert_eq!(parse_swizzle("hi", 3), Ok(vec![2, 3]));
        assert_eq!(parse_swizzle("even", 16).map(|v| v.len()), Ok(8));
    }

    #[test]
    fn repeated_lanes_are_not_assignable() {
        assert!(is_assignable(&[0, 1, 2]));
        assert!(!is_assignable(&[0, 0]));
    }
}
