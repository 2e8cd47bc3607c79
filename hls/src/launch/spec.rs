//! The YAML launch spec of `../shared/conformance/SPEC.md`, read with serde; unknown
//! fields are errors, and every error names the spec file (and, for YAML problems, the
//! line and column).
//!
//! YAML crate: `serde_yaml` is archived (unmaintained since 2024). `serde_yaml_ng` is a
//! maintained fork with the same API, including `Error::location()` for line/column, so
//! it was chosen over writing a parser or taking a less serde-like YAML library.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;

use super::types::{ElemType, Num};

/// A launch spec as written, before it is matched against a kernel.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaunchSpec {
    pub kernel: Option<String>,
    #[serde(default)]
    pub defines: BTreeMap<String, DefineValue>,
    pub global: Vec<u64>,
    pub local: Option<Vec<u64>>,
    #[serde(default)]
    pub args: Vec<ArgSpec>,
    /// The file the spec was read from (relative `file` inits resolve against its folder).
    #[serde(skip)]
    pub path: PathBuf,
}

/// One entry of `args`: exactly one of `buffer`, `scalar`, `local` must be present.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArgSpec {
    pub name: Option<String>,
    pub buffer: Option<BufferSpec>,
    pub scalar: Option<ScalarSpec>,
    pub local: Option<LocalSpec>,
    /// This buffer is an earlier buffer argument's memory, from `offset` bytes on.
    pub same_as: Option<SameAsSpec>,
    pub check: Option<bool>,
    pub tolerance_ulp: Option<u64>,
    /// The buffer's values are ones OpenCL leaves to the implementation (NaN payloads,
    /// float-to-integer conversions out of range without `_sat`): our engines must agree
    /// on them bit for bit, but a CPU OpenCL runtime is no reference for them (its choice
    /// follows its code generation for the host CPU).
    pub implementation_defined: Option<bool>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferSpec {
    #[serde(rename = "type")]
    pub ty: ElemType,
    pub count: u64,
    /// Absent means `zero`.
    #[serde(default)]
    pub init: Init,
}

/// `same_as: {arg: src, offset: 128}`: two parameters see one buffer (SPEC.md).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SameAsSpec {
    pub arg: String,
    #[serde(default)]
    pub offset: u64,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScalarSpec {
    #[serde(rename = "type")]
    pub ty: ElemType,
    pub value: Num,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocalSpec {
    #[serde(rename = "type")]
    pub ty: ElemType,
    pub count: u64,
}

/// How a buffer's initial bytes are made (see `init.rs`): the word `zero` or a map with
/// one key (`{fill: 1}`). Read by hand because serde's YAML crates map enums to YAML tags
/// (`!fill 1`), not to the one-key maps SPEC.md uses.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Init {
    #[default]
    Zero,
    File(PathBuf),
    Fill(Num),
    Iota(IotaSpec),
    Random(RandomSpec),
}

impl<'de> Deserialize<'de> for Init {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(InitVisitor)
    }
}

struct InitVisitor;

const INIT_KINDS: &[&str] = &["zero", "file", "fill", "iota", "random"];

impl<'de> Visitor<'de> for InitVisitor {
    type Value = Init;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("`zero` or a map with one of file, fill, iota, random")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Init, E> {
        match v {
            "zero" => Ok(Init::Zero),
            _ => Err(E::unknown_variant(v, INIT_KINDS)),
        }
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Init, A::Error> {
        let key: String = map
            .next_key()?
            .ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let init = match key.as_str() {
            "zero" => {
                map.next_value::<de::IgnoredAny>()?;
                Init::Zero
            }
            "file" => Init::File(map.next_value()?),
            "fill" => Init::Fill(map.next_value()?),
            "iota" => Init::Iota(map.next_value()?),
            "random" => Init::Random(map.next_value()?),
            other => return Err(de::Error::unknown_variant(other, INIT_KINDS)),
        };
        if let Some(extra) = map.next_key::<String>()? {
            return Err(de::Error::custom(format!(
                "init has one kind, but `{extra}` follows `{key}`"
            )));
        }
        Ok(init)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IotaSpec {
    pub start: Num,
    pub step: Num,
}

#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomSpec {
    pub seed: u64,
    pub min: Num,
    pub max: Num,
}

/// The value of a `defines` entry, as it will appear after `=` in `-DNAME=VALUE`;
/// `None` (a YAML null) means a bare `-DNAME`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefineValue(pub Option<String>);

impl<'de> Deserialize<'de> for DefineValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DefineVisitor)
    }
}

struct DefineVisitor;

impl Visitor<'_> for DefineVisitor {
    type Value = DefineValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number, a string, a boolean or null")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<DefineValue, E> {
        Ok(DefineValue(Some(v.to_string())))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<DefineValue, E> {
        Ok(DefineValue(Some(v.to_string())))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<DefineValue, E> {
        if !v.is_finite() {
            return Err(E::custom(format!("{v} has no C literal spelling")));
        }
        // `{:?}` always writes a `.` or an exponent, so C reads a floating constant.
        Ok(DefineValue(Some(format!("{v:?}"))))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<DefineValue, E> {
        Ok(DefineValue(Some(if v { "1" } else { "0" }.to_string())))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<DefineValue, E> {
        Ok(DefineValue(Some(v.to_string())))
    }
    fn visit_unit<E: de::Error>(self) -> Result<DefineValue, E> {
        Ok(DefineValue(None))
    }
    fn visit_none<E: de::Error>(self) -> Result<DefineValue, E> {
        Ok(DefineValue(None))
    }
}

/// A spec that cannot be used: names the spec file, and where known the line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    pub file: PathBuf,
    pub line_col: Option<(usize, usize)>,
    pub message: String,
}

impl SpecError {
    pub fn new(file: &Path, message: impl Into<String>) -> SpecError {
        SpecError {
            file: file.to_path_buf(),
            line_col: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line_col {
            Some((l, c)) => write!(f, "{}:{l}:{c}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

impl std::error::Error for SpecError {}

impl LaunchSpec {
    /// Reads and parses a spec file.
    pub fn load(path: &Path) -> Result<LaunchSpec, SpecError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| SpecError::new(path, format!("cannot read the spec: {e}")))?;
        LaunchSpec::parse(&text, path)
    }

    /// Parses spec text; `path` is recorded and used in errors.
    pub fn parse(text: &str, path: &Path) -> Result<LaunchSpec, SpecError> {
        let mut spec: LaunchSpec = serde_yaml_ng::from_str(text).map_err(|e| {
            let line_col = e.location().map(|l| (l.line(), l.column()));
            let mut message = e.to_string();
            // The location is already in front, like a compiler diagnostic.
            if let Some(cut) = message.rfind(" at line ") {
                message.truncate(cut);
            }
            SpecError {
                file: path.to_path_buf(),
                line_col,
                message,
            }
        })?;
        spec.path = path.to_path_buf();
        Ok(spec)
    }

    /// The folder relative `file` inits are read from.
    pub fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VADD: &str = "kernel: vadd
defines: {N: 1024, F: 1.5, S: \"x+1\", B: }
global: [1024]
local: [64]
args:
  - name: a
    buffer:
      type: float
      count: 1024
      init: {random: {seed: 1, min: -1.0, max: 1.0}}
    check: true
  - name: n
    scalar: {type: int, value: 1024}
  - name: scratch
    local: {type: float, count: 64}
  - buffer: {type: ulong, count: 4, init: {fill: 18446744073709551615}}
    tolerance_ulp: 3
  - buffer: {type: int, count: 4, init: zero}
  - buffer: {type: int, count: 4, init: {iota: {start: -3, step: 2}}}
  - buffer: {type: uchar, count: 4, init: {file: data.bin}}
  - buffer: {type: half, count: 4}
";

    #[test]
    fn parses_the_documented_format() {
        let s = LaunchSpec::parse(VADD, Path::new("dir/vadd.yaml")).unwrap();
        assert_eq!(s.kernel.as_deref(), Some("vadd"));
        assert_eq!(s.defines["N"], DefineValue(Some("1024".into())));
        assert_eq!(s.defines["F"], DefineValue(Some("1.5".into())));
        assert_eq!(s.defines["S"], DefineValue(Some("x+1".into())));
        assert_eq!(s.defines["B"], DefineValue(None));
        assert_eq!(s.global, vec![1024]);
        assert_eq!(s.local, Some(vec![64]));
        assert_eq!(s.args.len(), 8);
        let a = s.args[0].buffer.as_ref().unwrap();
        assert_eq!(a.ty, ElemType::Float);
        let want = RandomSpec {
            seed: 1,
            min: Num::Float(-1.0),
            max: Num::Float(1.0),
        };
        assert_eq!(a.init, Init::Random(want));
        assert_eq!(s.args[1].scalar.as_ref().unwrap().value, Num::Int(1024));
        assert_eq!(s.args[2].local.as_ref().unwrap().count, 64);
        let big = &s.args[3].buffer.as_ref().unwrap().init;
        assert_eq!(*big, Init::Fill(Num::Int(u64::MAX as i128)));
        assert_eq!(s.args[3].tolerance_ulp, Some(3));
        assert_eq!(s.args[4].buffer.as_ref().unwrap().init, Init::Zero);
        let iota = IotaSpec {
            start: Num::Int(-3),
            step: Num::Int(2),
        };
        assert_eq!(s.args[5].buffer.as_ref().unwrap().init, Init::Iota(iota));
        let file = Init::File("data.bin".into());
        assert_eq!(s.args[6].buffer.as_ref().unwrap().init, file);
        assert_eq!(s.args[7].buffer.as_ref().unwrap().init, Init::Zero);
        assert_eq!(s.dir(), Path::new("dir"));
    }

    #[test]
    fn unknown_field_names_file_line_and_column() {
        let text = "kernel: k\nglobal: [4]\nargs:\n  - name: a\n    bufer: {type: int, count: 4}\n";
        let e = LaunchSpec::parse(text, Path::new("k.yaml")).unwrap_err();
        assert_eq!(e.line_col, Some((5, 5)), "{e}");
        assert!(e.message.contains("unknown field `bufer`"), "{e}");
        assert!(e.to_string().starts_with("k.yaml:5:5: "), "{e}");
    }

    #[test]
    fn bad_values_are_errors_with_location() {
        let cases = [
            (
                "global: [4]\nargs:\n  - buffer: {type: float3, count: 4}\n",
                3,
            ),
            (
                "global: [4]\nargs:\n  - buffer: {type: int, count: -4}\n",
                3,
            ),
            (
                "global: [4]\nargs:\n  - buffer: {type: int, count: 4, init: {fil: 1}}\n",
                3,
            ),
            (
                "global: [4]\nargs:\n  - scalar: {type: int, value: \"7\"}\n",
                3,
            ),
            ("global: [4]\nextra: 1\n", 2),
            ("global: [4\n", 2),
        ];
        for (text, line) in cases {
            let e = LaunchSpec::parse(text, Path::new("s.yaml")).unwrap_err();
            assert_eq!(e.line_col.map(|l| l.0), Some(line), "{text}: {e}");
        }
        let e = LaunchSpec::parse("args: []\n", Path::new("s.yaml")).unwrap_err();
        assert!(e.message.contains("global"), "{e}");
    }

    #[test]
    fn init_has_exactly_one_kind() {
        let two =
            "global: [4]\nargs:\n  - buffer: {type: int, count: 4, init: {fill: 1, zero: }}\n";
        let e = LaunchSpec::parse(two, Path::new("s.yaml")).unwrap_err();
        assert!(
            e.message
                .contains("init has one kind, but `zero` follows `fill`"),
            "{e}"
        );
        let word = "global: [4]\nargs:\n  - buffer: {type: int, count: 4, init: ones}\n";
        let e = LaunchSpec::parse(word, Path::new("s.yaml")).unwrap_err();
        assert!(e.message.contains("unknown variant `ones`"), "{e}");
        let deep =
            "global: [4]\nargs:\n  - buffer: {type: int, count: 4, init: {iota: {start: 1}}}\n";
        let e = LaunchSpec::parse(deep, Path::new("s.yaml")).unwrap_err();
        assert!(e.message.contains("missing field `step`"), "{e}");
    }

    #[test]
    fn missing_file_is_named() {
        let e = LaunchSpec::load(Path::new("/nonexistent/x.yaml")).unwrap_err();
        assert!(e
            .to_string()
            .starts_with("/nonexistent/x.yaml: cannot read"));
    }
}
