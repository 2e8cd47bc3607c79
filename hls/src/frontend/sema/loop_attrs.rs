//! Statement attributes and `#pragma`s: loop hints (unroll, ivdep, pipelining) in both
//! attribute spellings and as Intel/Xilinx pragmas, plus the OPENCL pragmas
//! (FP_CONTRACT, EXTENSION) that set state for the code after them.

use crate::frontend::ast::{Attribute, Pragma, Stmt, StmtKind};

use super::attrs::{canonical, is_accepted, spelling, FUNCTION_ATTRS};
use super::summary::{IvdepInfo, LoopHints, LoopInfo, TripCountHint, UnrollInfo};
use super::{Checker, FpContract};

/// Parses an integer as spelled in a pragma (`4`, `0x10`, `8u`).
fn pragma_int(text: &str) -> Option<u64> {
    let t = text.trim_end_matches(['u', 'U', 'l', 'L']);
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    }
}

impl Checker<'_> {
    /// Attributes and pragmas written before a statement; for loops, records their hints.
    pub(super) fn stmt_prefix(&mut self, s: &Stmt) {
        let is_loop = s.kind.is_loop();
        let mut hints = LoopHints::default();
        for p in &s.pragmas {
            self.pragma(p, Some((is_loop, &mut hints)));
        }
        for a in &s.attrs {
            self.stmt_attr(a, is_loop, &mut hints);
        }
        if !is_loop {
            return;
        }
        let Some((fid, fname)) = self.func.as_ref().map(|f| (f.id, f.name.clone())) else {
            return;
        };
        let kind = match s.kind {
            StmtKind::For { .. } => "for",
            StmtKind::While(..) => "while",
            _ => "do",
        };
        let info = LoopInfo {
            kind: kind.into(),
            function: fname,
            location: self.sm.location(s.span),
            line: self.sm.line_col(s.span).0,
            unroll: hints.unroll.clone(),
            ivdep: hints.ivdep.clone(),
            pipeline: hints.pipeline,
            tripcount: hints.tripcount,
            stmt: s.id,
        };
        self.fn_loops.entry(fid).or_default().push(info);
        self.loop_hints.insert(s.id, hints);
    }

    fn stmt_attr(&mut self, a: &Attribute, is_loop: bool, h: &mut LoopHints) {
        let Some(name) = canonical(a) else {
            self.unknown_attr(a);
            return;
        };
        let loop_attr = matches!(
            name,
            "opencl_unroll_hint"
                | "ivdep"
                | "xcl_pipeline_loop"
                | "nounroll"
                | "xcl_loop_tripcount"
        );
        if loop_attr && !is_loop {
            self.error(
                a.span,
                format!(
                    "'{}' attribute only applies to for, while and do loops",
                    spelling(a)
                ),
            );
            return;
        }
        match name {
            "opencl_unroll_hint" => {
                if let Some(factor) = self.positive_arg(a, true) {
                    h.unroll = Some(UnrollInfo {
                        factor,
                        spelling: spelling(a),
                    });
                }
            }
            "nounroll" => {
                h.unroll = Some(UnrollInfo {
                    factor: Some(1),
                    spelling: spelling(a),
                })
            }
            "ivdep" => {
                if let Some(safelen) = self.positive_arg(a, true) {
                    h.ivdep = Some(IvdepInfo {
                        safelen,
                        spelling: spelling(a),
                    });
                }
            }
            "xcl_pipeline_loop" => {
                if let Some(ii) = self.positive_arg(a, true) {
                    h.pipeline = true;
                    h.pipeline_ii = ii;
                }
            }
            "xcl_loop_tripcount" => h.tripcount = self.tripcount_args(a),
            "fallthrough" => {}
            n if FUNCTION_ATTRS.contains(&n) => self.error(
                a.span,
                format!(
                    "'{}' attribute only applies to kernel functions",
                    spelling(a)
                ),
            ),
            n if is_accepted(n) => {}
            _ => self.unknown_attr(a),
        }
    }

    /// `xcl_loop_tripcount(min, max[, avg])`: non-negative, with min <= avg <= max.
    fn tripcount_args(&mut self, a: &Attribute) -> Option<TripCountHint> {
        let vals = self.int_args(a)?;
        let bad = |c: &mut Self, why: &str| {
            c.error(a.span, format!("'{}' attribute {why}", spelling(a)));
            None
        };
        if !(2..=3).contains(&vals.len()) {
            return bad(self, "takes two or three arguments (min, max[, avg])");
        }
        let Ok(v) = vals
            .iter()
            .map(|&v| u64::try_from(v))
            .collect::<Result<Vec<u64>, _>>()
        else {
            return bad(self, "requires non-negative integral constants");
        };
        let (min, max) = (v[0], v[1]);
        let avg = v
            .get(2)
            .copied()
            .unwrap_or(min / 2 + max / 2 + (min % 2 + max % 2) / 2);
        if min > max || avg < min || avg > max {
            return bad(self, "needs min <= avg <= max");
        }
        Some(TripCountHint { min, max, avg })
    }

    /// A `#pragma`, at file scope (`target` None) or before a statement (whether that
    /// statement is a loop, and the hints to fill).
    pub(super) fn pragma(&mut self, p: &Pragma, target: Option<(bool, &mut LoopHints)>) {
        let w = p.words();
        let words: Vec<&str> = w.iter().map(|s| s.as_str()).collect();
        match words.as_slice() {
            ["OPENCL", "FP_CONTRACT", state] | ["STDC", "FP_CONTRACT", state] => {
                let st = match *state {
                    "ON" => FpContract::On,
                    "OFF" => FpContract::Off,
                    "DEFAULT" => FpContract::Default,
                    _ => {
                        self.error(
                            p.span,
                            "expected ON, OFF or DEFAULT in '#pragma OPENCL FP_CONTRACT'",
                        );
                        return;
                    }
                };
                if st == FpContract::On {
                    // Contraction is a permission, not a duty: keeping two roundings is
                    // conforming, and it is what the interpreter and hardware compute.
                    self.warning(
                        p.span,
                        "ocl-hls does not contract floating-point expressions: `a * b + c` \
                         keeps two roundings, as with FP_CONTRACT OFF (call fma() for one)",
                    );
                }
                self.fp_contract.push((p.span, st));
            }
            ["OPENCL", "EXTENSION", ext, ":", state] => {
                let on = match *state {
                    "enable" => true,
                    "disable" => false,
                    _ => {
                        self.error(
                            p.span,
                            "expected 'enable' or 'disable' in '#pragma OPENCL EXTENSION'",
                        );
                        return;
                    }
                };
                if *ext == "cl_khr_fp16" || (*ext == "all" && !on) {
                    self.fp16 = on;
                }
            }
            ["OPENCL", ..] => self.warning(
                p.span,
                format!("unknown OpenCL pragma '{}' ignored", w.join(" ")),
            ),
            [first, ..]
                if ["unroll", "nounroll", "ivdep", "loop_coalesce", "ii"].contains(first) =>
            {
                match target {
                    Some((true, h)) => self.loop_pragma(p, &words, h),
                    _ => self.error(
                        p.span,
                        format!("'#pragma {first}' must be followed by a for, while or do loop"),
                    ),
                }
            }
            _ => self.warning(p.span, format!("unknown pragma '{}' ignored", w.join(" "))),
        }
    }

    fn loop_pragma(&mut self, p: &Pragma, words: &[&str], h: &mut LoopHints) {
        let spelled = format!("#pragma {}", words[0]);
        let positive = |c: &mut Self, t: &str| -> Option<u64> {
            match pragma_int(t) {
                Some(n) if n > 0 => Some(n),
                _ => {
                    c.error(
                        p.span,
                        format!("'{spelled}' needs a positive integer constant, got '{t}'"),
                    );
                    None
                }
            }
        };
        match words {
            ["unroll"] => {
                h.unroll = Some(UnrollInfo {
                    factor: None,
                    spelling: spelled.clone(),
                })
            }
            ["unroll", n] => {
                if let Some(n) = positive(self, n) {
                    h.unroll = Some(UnrollInfo {
                        factor: Some(n),
                        spelling: spelled.clone(),
                    });
                }
            }
            ["nounroll"] => {
                h.unroll = Some(UnrollInfo {
                    factor: Some(1),
                    spelling: spelled.clone(),
                })
            }
            ["ivdep"] => {
                h.ivdep = Some(IvdepInfo {
                    safelen: None,
                    spelling: spelled.clone(),
                })
            }
            ["ivdep", rest @ ..] => self.ivdep_pragma(p, rest, h),
            ["loop_coalesce"] => h.coalesce = Some(None),
            ["loop_coalesce", n] => {
                if let Some(n) = positive(self, n) {
                    h.coalesce = Some(Some(n));
                }
            }
            ["ii", n] => h.ii = positive(self, n),
            _ => self.error(p.span, format!("malformed '{}'", words.join(" "))),
        }
    }

    /// `#pragma ivdep safelen(N)` and `#pragma ivdep array(name)`, in any order.
    fn ivdep_pragma(&mut self, p: &Pragma, rest: &[&str], h: &mut LoopHints) {
        let mut safelen = None;
        let mut i = 0;
        while i < rest.len() {
            match (
                rest.get(i),
                rest.get(i + 1),
                rest.get(i + 2),
                rest.get(i + 3),
            ) {
                (Some(&"safelen"), Some(&"("), Some(n), Some(&")")) => {
                    match pragma_int(n) {
                        Some(v) if v > 0 => safelen = Some(v),
                        _ => {
                            self.error(
                                p.span,
                                format!(
                                    "'#pragma ivdep safelen' needs a positive integer, got '{n}'"
                                ),
                            );
                            return;
                        }
                    }
                    i += 4;
                }
                (Some(&"array"), Some(&"("), Some(name), Some(&")")) => {
                    h.ivdep_arrays.push(name.to_string());
                    i += 4;
                }
                _ => {
                    self.error(
                        p.span,
                        format!("malformed '#pragma ivdep {}'", rest.join(" ")),
                    );
                    return;
                }
            }
        }
        h.ivdep = Some(IvdepInfo {
            safelen,
            spelling: "#pragma ivdep".into(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::pragma_int;

    #[test]
    fn pragma_integers() {
        assert_eq!(pragma_int("4"), Some(4));
        assert_eq!(pragma_int("0x10"), Some(16));
        assert_eq!(pragma_int("8u"), Some(8));
        assert_eq!(pragma_int("N"), None);
    }
}
