//! The program text and build options given to the OpenCL runtime: `[[...]]` attribute
//! lists stripped (a stock OpenCL C 1.2 compiler does not know them; SPEC.md allows
//! dropping them because they are hints), with line numbers kept, and floating-point
//! contraction switched off by default as in ocl-hls.

use std::path::Path;

/// What the runtime compiles: the kernel text with attribute lists stripped, after a
/// `#pragma OPENCL FP_CONTRACT OFF`. OpenCL lets a compiler fuse `a * b + c` unless the
/// program says otherwise, and POCL does; ocl-hls never contracts (DESIGN.md: no fusing
/// unless the program asks for it), so the reference must not either or the two differ in
/// the last bit. A kernel's own `FP_CONTRACT` pragmas still apply after it. `#line 1`
/// keeps the runtime's line numbers those of the file.
pub fn reference_source(src: &str) -> String {
    format!(
        "#pragma OPENCL FP_CONTRACT OFF\n#line 1\n{}",
        strip_attributes(src)
    )
}

/// Removes every `[[ ... ]]` attribute list (brackets balanced), keeping its line breaks
/// so diagnostics still point at the right lines. Comments and string or character
/// literals are copied untouched.
pub fn strip_attributes(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        let skip = if rest.starts_with(b"//") {
            rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            find(rest, b"*/").map_or(rest.len(), |p| p + 2)
        } else if rest[0] == b'"' || rest[0] == b'\'' {
            literal_len(rest)
        } else if rest.starts_with(b"[[") {
            let n = attribute_len(rest);
            out.extend(rest[..n].iter().filter(|&&c| c == b'\n'));
            i += n;
            continue;
        } else {
            1
        };
        out.extend_from_slice(&rest[..skip]);
        i += skip;
    }
    // Only whole ASCII runs were removed, so the bytes are still UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Length of a string or character literal starting at `s[0]` (up to the end of the line
/// when it is not closed).
fn literal_len(s: &[u8]) -> usize {
    let quote = s[0];
    let mut i = 1;
    while i < s.len() {
        match s[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => i += 1,
        }
    }
    s.len()
}

/// Length of a balanced `[[ ... ]]` starting at `s[0]` (to the end when unbalanced).
fn attribute_len(s: &[u8]) -> usize {
    let mut depth = 0usize;
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b'"' | b'\'' => {
                i += literal_len(&s[i..]);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    s.len()
}

/// The build options: `-I` the kernel's folder, then each extra include folder, then the
/// `-D` definitions in order (a later one for the same name wins, as with a compiler).
pub fn build_options(
    kernel_dir: &Path,
    includes: &[&Path],
    defines: &[(String, Option<String>)],
) -> Result<String, String> {
    let mut opts = vec!["-cl-kernel-arg-info".to_string()];
    for dir in std::iter::once(kernel_dir).chain(includes.iter().copied()) {
        let d = dir
            .to_str()
            .ok_or_else(|| format!("{}: not UTF-8", dir.display()))?;
        // The runtime splits options at blanks; such a folder cannot be passed with -I.
        if d.chars()
            .any(|c| c.is_whitespace() || c == '"' || c == '\0')
        {
            return Err(format!(
                "include folder `{d}` has a blank or a quote in its path"
            ));
        }
        opts.push(format!("-I{}", if d.is_empty() { "." } else { d }));
    }
    for (name, value) in defines {
        opts.push(match value {
            Some(v) => format!("-D{name}={v}"),
            None => format!("-D{name}"),
        });
    }
    Ok(opts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_attribute_lists_keeping_lines() {
        let src = "[[cl::ivdep(8)]]\nfor (;;) a[b[i]] = 1;\nx [[cl::unroll_hint(\n 2)]] y;\n";
        let got = strip_attributes(src);
        assert_eq!(got, "\nfor (;;) a[b[i]] = 1;\nx \n y;\n");
        assert_eq!(got.lines().count(), src.lines().count());
    }

    #[test]
    fn leaves_comments_and_literals() {
        let src = "// [[a]]\n/* [[b]] */ s = \"[[c]]\"; c = '['; [[d]]z\n";
        assert_eq!(
            strip_attributes(src),
            "// [[a]]\n/* [[b]] */ s = \"[[c]]\"; c = '['; z\n"
        );
    }

    #[test]
    fn options() {
        let defs = vec![
            ("N".to_string(), Some("4".to_string())),
            ("F".to_string(), None),
        ];
        let o = build_options(Path::new("/k"), &[Path::new("/inc")], &defs).unwrap();
        assert_eq!(o, "-cl-kernel-arg-info -I/k -I/inc -DN=4 -DF");
        assert!(build_options(Path::new("/a b"), &[], &[]).is_err());
        assert_eq!(
            build_options(Path::new(""), &[], &[]).unwrap(),
            "-cl-kernel-arg-info -I."
        );
    }
}
