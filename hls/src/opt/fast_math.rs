//! The OpenCL floating-point build options (`clBuildProgram` spellings): which of them a
//! build or run was given, the macro the specification ties to one of them, and the
//! option strings passed on to the POCL reference so both compilers are asked for the
//! same thing. Without them the opt stage changes no float result (`reciprocal.rs` only
//! rewrites divisions whose result keeps its bits); with `-cl-unsafe-math-optimizations`
//! it rounds the reciprocal of any constant divisor.

/// The options, as given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct MathFlags {
    pub fast_relaxed: bool,
    pub unsafe_math: bool,
    pub mad_enable: bool,
    pub finite_only: bool,
    pub no_signed_zeros: bool,
}

/// Sets one flag.
type Setter = fn(&mut MathFlags);

/// Every option: its spelling and the flag it sets.
const OPTIONS: [(&str, Setter); 5] = [
    ("-cl-fast-relaxed-math", |f| f.fast_relaxed = true),
    ("-cl-unsafe-math-optimizations", |f| f.unsafe_math = true),
    ("-cl-mad-enable", |f| f.mad_enable = true),
    ("-cl-finite-math-only", |f| f.finite_only = true),
    ("-cl-no-signed-zeros", |f| f.no_signed_zeros = true),
];

impl MathFlags {
    /// The spellings this compiler takes.
    pub fn spellings() -> impl Iterator<Item = &'static str> {
        OPTIONS.iter().map(|o| o.0)
    }

    /// Sets the flag spelled `option`; `false` when it is none of them.
    pub fn set(&mut self, option: &str) -> bool {
        match OPTIONS.iter().find(|o| o.0 == option) {
            Some((_, f)) => {
                f(self);
                true
            }
            None => false,
        }
    }

    /// The options as `clBuildProgram` takes them, in the order of [`Self::spellings`].
    pub fn build_options(&self) -> Vec<&'static str> {
        let on = [
            self.fast_relaxed,
            self.unsafe_math,
            self.mad_enable,
            self.finite_only,
            self.no_signed_zeros,
        ];
        OPTIONS
            .iter()
            .zip(on)
            .filter(|(_, on)| *on)
            .map(|(o, _)| o.0)
            .collect()
    }

    /// `-cl-fast-relaxed-math` implies the others (OpenCL 1.2, 5.6.4.2);
    /// `-cl-unsafe-math-optimizations` implies `-cl-no-signed-zeros` and
    /// `-cl-mad-enable`.
    pub fn effective(&self) -> MathFlags {
        let unsafe_math = self.unsafe_math || self.fast_relaxed;
        MathFlags {
            fast_relaxed: self.fast_relaxed,
            unsafe_math,
            mad_enable: self.mad_enable || unsafe_math,
            finite_only: self.finite_only || self.fast_relaxed,
            no_signed_zeros: self.no_signed_zeros || unsafe_math,
        }
    }

    /// The macros the program sees: `__FAST_RELAXED_MATH__` under
    /// `-cl-fast-relaxed-math`, as the specification says.
    pub fn defines(&self) -> Vec<(String, Option<String>)> {
        if self.fast_relaxed {
            vec![("__FAST_RELAXED_MATH__".to_string(), Some("1".to_string()))]
        } else {
            Vec::new()
        }
    }
}

/// Command-line arguments with each `-cl-...` option respelled `--cl-...`, the form the
/// argument parser takes long options in (compilers spell them with one dash).
pub fn respell_args<I: IntoIterator<Item = std::ffi::OsString>>(
    args: I,
) -> Vec<std::ffi::OsString> {
    args.into_iter()
        .map(|a| match a.to_str() {
            Some(s) if MathFlags::spellings().any(|o| o == s) => format!("-{s}").into(),
            _ => a,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_sets_its_flag_and_comes_back_as_a_build_option() {
        let mut f = MathFlags::default();
        for s in MathFlags::spellings() {
            assert!(f.set(s), "{s}");
        }
        assert_eq!(
            f.build_options(),
            MathFlags::spellings().collect::<Vec<_>>()
        );
        assert!(!f.set("-cl-opt-disable"));
        assert_eq!(MathFlags::default().build_options(), Vec::<&str>::new());
    }

    #[test]
    fn fast_relaxed_math_implies_the_others_and_defines_its_macro() {
        let mut f = MathFlags::default();
        f.set("-cl-fast-relaxed-math");
        let e = f.effective();
        assert!(e.unsafe_math && e.mad_enable && e.finite_only && e.no_signed_zeros);
        assert_eq!(f.defines()[0].0, "__FAST_RELAXED_MATH__");
        let mut u = MathFlags::default();
        u.set("-cl-unsafe-math-optimizations");
        let e = u.effective();
        assert!(e.mad_enable && e.no_signed_zeros && !e.finite_only);
        assert!(u.defines().is_empty());
    }

    #[test]
    fn only_the_known_options_are_respelled() {
        let args = ["ocl-hls", "build", "-cl-mad-enable", "-cl-bogus", "-D", "X"];
        let out = respell_args(args.iter().map(std::ffi::OsString::from));
        let out: Vec<&str> = out.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(
            out,
            [
                "ocl-hls",
                "build",
                "--cl-mad-enable",
                "-cl-bogus",
                "-D",
                "X"
            ]
        );
    }
}
