//! Matches a launch spec against a kernel's signature and produces a ready launch:
//! the kernel chosen, arguments checked in order, work sizes checked, buffer bytes built.

use std::path::PathBuf;

use super::init;
use super::spec::{ArgSpec, LaunchSpec, SameAsSpec, SpecError};
use super::types::ElemType;
use crate::frontend::sema::KernelInfo;

/// What a kernel parameter takes, as far as a launch is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// A `__global` or `__constant` pointer.
    Buffer,
    /// A `__local` pointer.
    Local,
    /// A by-value scalar; `None` when its type is not one a spec can name (e.g. `size_t`).
    Scalar(Option<ElemType>),
    /// Anything a spec cannot supply (by-value vectors and structs, private pointers).
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamSig {
    pub name: String,
    /// The parameter's type as the source (or the runtime) spells it, for messages.
    pub type_name: String,
    pub kind: ParamKind,
}

/// The part of a kernel a launch needs to know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelSig {
    pub name: String,
    pub params: Vec<ParamSig>,
    pub reqd_work_group_size: Option<[u64; 3]>,
}

impl KernelSig {
    /// The signature of a kernel as the frontend reports it.
    pub fn from_info(k: &KernelInfo) -> KernelSig {
        let params = k
            .params
            .iter()
            .map(|p| ParamSig {
                name: p.name.clone(),
                type_name: p.ty.clone(),
                kind: match p.kind.as_str() {
                    "global_buffer" | "constant_buffer" => ParamKind::Buffer,
                    "local_buffer" => ParamKind::Local,
                    "scalar" => ParamKind::Scalar(ElemType::from_c_name(&p.ty)),
                    _ => ParamKind::Other,
                },
            })
            .collect();
        KernelSig {
            name: k.name.clone(),
            params,
            reqd_work_group_size: k.attrs.reqd_work_group_size,
        }
    }
}

/// A buffer argument with its initial bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferArg {
    pub ty: ElemType,
    pub count: u64,
    pub bytes: Vec<u8>,
    pub check: bool,
    pub tolerance_ulp: Option<u64>,
    /// See `ArgSpec::implementation_defined`: not compared with a CPU OpenCL runtime.
    pub implementation_defined: bool,
    /// `same_as`: this parameter sees argument `arg`'s memory from `offset` bytes on
    /// (`bytes` are then what it sees at the start). Every engine must pass the one
    /// buffer twice.
    pub same_as: Option<SameAs>,
}

/// Where an aliasing buffer argument points: into argument `arg`'s buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SameAs {
    /// The index of the earlier argument (a buffer of its own).
    pub arg: usize,
    /// Bytes from that buffer's start; a multiple of [`SUB_BUFFER_ALIGN`].
    pub offset: u64,
}

/// The base-address alignment OpenCL runtimes ask of sub-buffers (SPEC.md).
pub const SUB_BUFFER_ALIGN: u64 = 128;

#[derive(Clone, Debug, PartialEq)]
pub enum ArgValue {
    Buffer(BufferArg),
    /// A by-value scalar: its little-endian bytes.
    Scalar {
        ty: ElemType,
        bytes: Vec<u8>,
    },
    /// A `__local` pointer: the size of the region.
    Local {
        ty: ElemType,
        count: u64,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct LaunchArg {
    /// The parameter's name in the source.
    pub name: String,
    pub value: ArgValue,
}

/// A launch ready to run: every check of SPEC.md done, inputs built.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    pub kernel: String,
    /// `-D` definitions: name and optional value, in name order.
    pub defines: Vec<(String, Option<String>)>,
    pub global: Vec<u64>,
    pub local: Vec<u64>,
    pub args: Vec<LaunchArg>,
    pub spec_path: PathBuf,
}

impl Launch {
    /// Buffer arguments with their parameter names, in order.
    pub fn buffers(&self) -> impl Iterator<Item = (&str, &BufferArg)> {
        self.args.iter().filter_map(|a| match &a.value {
            ArgValue::Buffer(b) => Some((a.name.as_str(), b)),
            _ => None,
        })
    }
}

impl Launch {
    /// Per argument its final bytes, given an engine's finals for the buffers of their
    /// own (`None` elsewhere): a `same_as` argument gets the part of its target it sees.
    pub fn with_aliases(&self, mut finals: Vec<Option<Vec<u8>>>) -> Vec<Option<Vec<u8>>> {
        for (i, a) in self.args.iter().enumerate() {
            if let ArgValue::Buffer(BufferArg {
                same_as: Some(s), ..
            }) = &a.value
            {
                let seen = finals
                    .get(s.arg)
                    .and_then(|t| t.as_ref())
                    .map(|t| t.get(s.offset as usize..).unwrap_or_default().to_vec());
                if let Some(slot) = finals.get_mut(i) {
                    *slot = seen;
                }
            }
        }
        finals
    }
}

/// Picks the kernel a spec names (or the only one) from the kernels of a file.
pub fn select_kernel<'k>(
    spec: &LaunchSpec,
    kernels: &'k [KernelSig],
) -> Result<&'k KernelSig, SpecError> {
    let names = || {
        let v: Vec<&str> = kernels.iter().map(|k| k.name.as_str()).collect();
        if v.is_empty() {
            "the file has no kernels".to_string()
        } else {
            format!("kernels in the file: {}", v.join(", "))
        }
    };
    match &spec.kernel {
        Some(name) => kernels
            .iter()
            .find(|k| &k.name == name)
            .ok_or_else(|| SpecError::new(&spec.path, format!("no kernel `{name}` ({})", names()))),
        None if kernels.len() == 1 => Ok(&kernels[0]),
        None => Err(SpecError::new(
            &spec.path,
            format!(
                "`kernel:` is needed when a file does not have exactly one kernel ({})",
                names()
            ),
        )),
    }
}

/// Checks `spec` against the kernel it names among `kernels` and builds the launch.
/// `max_group` bounds the work-group size picked when neither the spec nor the kernel
/// fixes it.
pub fn resolve(
    spec: &LaunchSpec,
    kernels: &[KernelSig],
    max_group: u64,
) -> Result<Launch, SpecError> {
    let err = |m: String| SpecError::new(&spec.path, m);
    let k = select_kernel(spec, kernels)?;
    let defines = defines(spec).map_err(err)?;
    let global = check_global(&spec.global).map_err(err)?;
    let local = match &spec.local {
        Some(l) => check_local(&global, l, k.reqd_work_group_size).map_err(err)?,
        None => match k.reqd_work_group_size {
            Some(r) => check_local(&global, &r[..global.len()], Some(r))
                .map_err(|m| err(format!("{m} (from reqd_work_group_size)")))?,
            None => choose_local(&global, max_group),
        },
    };
    if spec.args.len() != k.params.len() {
        return Err(err(format!(
            "kernel `{}` has {} parameters ({}), the spec gives {} args",
            k.name,
            k.params.len(),
            k.params
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            spec.args.len()
        )));
    }
    let mut args = Vec::with_capacity(k.params.len());
    for (i, (a, p)) in spec.args.iter().zip(&k.params).enumerate() {
        let value = match &a.same_as {
            Some(s) => resolve_alias(a, s, p, &args),
            None => resolve_arg(spec, a, p),
        }
        .map_err(|m| err(format!("args[{i}] (parameter `{}`): {m}", p.name)))?;
        args.push(LaunchArg {
            name: p.name.clone(),
            value,
        });
    }
    Ok(Launch {
        kernel: k.name.clone(),
        defines,
        global,
        local,
        args,
        spec_path: spec.path.clone(),
    })
}

fn defines(spec: &LaunchSpec) -> Result<Vec<(String, Option<String>)>, String> {
    let mut out = Vec::new();
    for (name, value) in &spec.defines {
        let ident = name
            .chars()
            .enumerate()
            .all(|(i, c)| c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()));
        if name.is_empty() || !ident {
            return Err(format!("defines: `{name}` is not a macro name"));
        }
        if let Some(v) = &value.0 {
            // Build options are split at blanks and end at NUL: such values cannot be passed.
            if v.chars()
                .any(|c| c.is_whitespace() || c == '\0' || c == '"' || c == '\'')
            {
                return Err(format!(
                    "defines: the value of `{name}` has a blank or a quote"
                ));
            }
        }
        out.push((name.clone(), value.0.clone()));
    }
    Ok(out)
}

fn check_global(g: &[u64]) -> Result<Vec<u64>, String> {
    if g.is_empty() || g.len() > 3 {
        return Err(format!(
            "global has {} dimensions; 1 to 3 are allowed",
            g.len()
        ));
    }
    if g.contains(&0) {
        return Err("global sizes must be at least 1".into());
    }
    g.iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d))
        .filter(|n| *n <= 1 << 32)
        .ok_or("global has more than 2^32 work-items")?;
    Ok(g.to_vec())
}

fn check_local(global: &[u64], l: &[u64], reqd: Option<[u64; 3]>) -> Result<Vec<u64>, String> {
    if l.len() != global.len() {
        return Err(format!(
            "local has {} dimensions but global has {}",
            l.len(),
            global.len()
        ));
    }
    for (d, (&g, &w)) in global.iter().zip(l).enumerate() {
        if w == 0 || g % w != 0 {
            return Err(format!(
                "local size {w} does not divide global size {g} in dimension {d}"
            ));
        }
    }
    if let Some(r) = reqd {
        let padded: Vec<u64> = (0..3).map(|d| l.get(d).copied().unwrap_or(1)).collect();
        if padded != r {
            return Err(format!(
                "local {l:?} differs from the kernel's reqd_work_group_size({}, {}, {})",
                r[0], r[1], r[2]
            ));
        }
    }
    Ok(l.to_vec())
}

/// The work-group size used when nothing fixes it: per dimension, in order, the largest
/// divisor of the global size that keeps the group within `max_group` work-items.
pub fn choose_local(global: &[u64], max_group: u64) -> Vec<u64> {
    let mut room = max_group.max(1);
    global
        .iter()
        .map(|&g| {
            let w = (1..=g.min(room)).rev().find(|w| g % w == 0).unwrap_or(1);
            room /= w;
            w
        })
        .collect()
}

/// A `same_as` argument: the earlier buffer it names, seen from `offset`.
fn resolve_alias(
    a: &ArgSpec,
    s: &SameAsSpec,
    p: &ParamSig,
    earlier: &[LaunchArg],
) -> Result<ArgValue, String> {
    if let Some(n) = &a.name {
        if n != &p.name {
            return Err(format!("the spec names it `{n}`"));
        }
    }
    if a.buffer.is_some() || a.scalar.is_some() || a.local.is_some() {
        return Err("`same_as` takes the place of `buffer`, `scalar` and `local`".into());
    }
    if p.kind != ParamKind::Buffer {
        return Err(format!(
            "`same_as` needs a __global or __constant pointer, not `{}`",
            p.type_name
        ));
    }
    let Some((index, target)) = earlier.iter().enumerate().find(|(_, e)| e.name == s.arg) else {
        return Err(format!(
            "`same_as: {{arg: {}}}` names no earlier argument",
            s.arg
        ));
    };
    let b = match &target.value {
        ArgValue::Buffer(b) if b.same_as.is_none() => b,
        ArgValue::Buffer(_) => {
            return Err(format!(
                "`{}` is itself `same_as` another; name the buffer it points into",
                s.arg
            ))
        }
        _ => return Err(format!("`{}` is not a buffer argument", s.arg)),
    };
    if !s.offset.is_multiple_of(SUB_BUFFER_ALIGN) {
        return Err(format!(
            "offset {} is not a multiple of {SUB_BUFFER_ALIGN} bytes (the sub-buffer alignment)",
            s.offset
        ));
    }
    let len = b.bytes.len() as u64;
    if s.offset >= len {
        return Err(format!(
            "offset {} is not inside `{}` ({len} bytes)",
            s.offset, s.arg
        ));
    }
    if a.tolerance_ulp.is_some() && !b.ty.is_float() {
        return Err(format!("tolerance_ulp needs a float buffer, not {}", b.ty));
    }
    let bytes = b.bytes[s.offset as usize..].to_vec();
    Ok(ArgValue::Buffer(BufferArg {
        ty: b.ty,
        count: bytes.len() as u64 / b.ty.size() as u64,
        bytes,
        check: a.check.unwrap_or(true),
        tolerance_ulp: a.tolerance_ulp,
        implementation_defined: a.implementation_defined.unwrap_or(false),
        same_as: Some(SameAs {
            arg: index,
            offset: s.offset,
        }),
    }))
}

fn resolve_arg(spec: &LaunchSpec, a: &ArgSpec, p: &ParamSig) -> Result<ArgValue, String> {
    if let Some(n) = &a.name {
        if n != &p.name {
            return Err(format!("the spec names it `{n}`"));
        }
    }
    let given = [a.buffer.is_some(), a.scalar.is_some(), a.local.is_some()];
    if given.iter().filter(|g| **g).count() != 1 {
        return Err("give exactly one of `buffer`, `scalar`, `local`".into());
    }
    let what = |k: &ParamKind| match k {
        ParamKind::Buffer => "a __global or __constant pointer",
        ParamKind::Local => "a __local pointer",
        ParamKind::Scalar(_) => "a by-value scalar",
        ParamKind::Other => "a parameter a spec cannot supply",
    };
    let mismatch = |given: &str| {
        format!(
            "the spec gives a {given}, but `{}` is {}",
            p.type_name,
            what(&p.kind)
        )
    };
    if a.buffer.is_none()
        && (a.check.is_some() || a.tolerance_ulp.is_some() || a.implementation_defined.is_some())
    {
        return Err(
            "`check`, `tolerance_ulp` and `implementation_defined` apply to buffers only".into(),
        );
    }
    if let Some(b) = &a.buffer {
        if p.kind != ParamKind::Buffer {
            return Err(mismatch("buffer"));
        }
        if a.tolerance_ulp.is_some() && !b.ty.is_float() {
            return Err(format!("tolerance_ulp needs a float buffer, not {}", b.ty));
        }
        let bytes = init::build(b.ty, b.count, &b.init, spec.dir())?;
        return Ok(ArgValue::Buffer(BufferArg {
            ty: b.ty,
            count: b.count,
            bytes,
            check: a.check.unwrap_or(true),
            tolerance_ulp: a.tolerance_ulp,
            implementation_defined: a.implementation_defined.unwrap_or(false),
            same_as: None,
        }));
    }
    if let Some(s) = &a.scalar {
        match &p.kind {
            ParamKind::Scalar(Some(t)) if *t == s.ty => {}
            ParamKind::Scalar(Some(t)) => {
                return Err(format!(
                    "the spec gives a {} scalar, the parameter is {t}",
                    s.ty
                ))
            }
            _ => return Err(mismatch("scalar")),
        }
        let bytes = s.ty.encode(s.value)?;
        return Ok(ArgValue::Scalar { ty: s.ty, bytes });
    }
    match &a.local {
        Some(l) if p.kind == ParamKind::Local => {
            init::buffer_bytes(l.ty, l.count)?;
            Ok(ArgValue::Local {
                ty: l.ty,
                count: l.count,
            })
        }
        _ => Err(mismatch("local")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn sig(reqd: Option<[u64; 3]>) -> Vec<KernelSig> {
        let p = |name: &str, ty: &str, kind| ParamSig {
            name: name.into(),
            type_name: ty.into(),
            kind,
        };
        vec![
            KernelSig {
                name: "k".into(),
                params: vec![
                    p("a", "float*", ParamKind::Buffer),
                    p("n", "int", ParamKind::Scalar(Some(ElemType::Int))),
                    p("tmp", "float*", ParamKind::Local),
                ],
                reqd_work_group_size: reqd,
            },
            KernelSig {
                name: "other".into(),
                params: vec![],
                reqd_work_group_size: None,
            },
        ]
    }

    const ARGS: &str = "args:
  - name: a
    buffer: {type: float, count: 8, init: {fill: 2.5}}
  - scalar: {type: int, value: -7}
  - local: {type: float, count: 4}
";

    fn spec(head: &str, args: &str) -> LaunchSpec {
        LaunchSpec::parse(&format!("{head}{args}"), Path::new("t.yaml")).unwrap()
    }

    fn fails(head: &str, args: &str, reqd: Option<[u64; 3]>, want: &str) {
        let e = resolve(&spec(head, args), &sig(reqd), 256).unwrap_err();
        assert!(e.to_string().starts_with("t.yaml: "), "{e}");
        assert!(e.message.contains(want), "wanted `{want}` in: {e}");
    }

    #[test]
    fn a_good_spec_resolves() {
        let l = resolve(
            &spec("kernel: k\nglobal: [8]\nlocal: [4]\n", ARGS),
            &sig(None),
            256,
        )
        .unwrap();
        assert_eq!(l.kernel, "k");
        assert_eq!(l.local, vec![4]);
        assert_eq!(l.args[1].name, "n");
        assert_eq!(
            l.args[1].value,
            ArgValue::Scalar {
                ty: ElemType::Int,
                bytes: (-7i32).to_le_bytes().to_vec()
            }
        );
        let (name, b) = l.buffers().next().unwrap();
        assert_eq!(name, "a");
        assert_eq!(b.bytes, 2.5f32.to_le_bytes().repeat(8));
        assert!(b.check);
    }

    #[test]
    fn local_comes_from_reqd_then_from_the_tool() {
        let head = "kernel: k\nglobal: [8, 6]\n";
        let l = resolve(&spec(head, ARGS), &sig(Some([2, 3, 1])), 256).unwrap();
        assert_eq!(l.local, vec![2, 3]);
        let l = resolve(&spec(head, ARGS), &sig(None), 16).unwrap();
        assert_eq!(l.local, vec![8, 2]);
        assert_eq!(choose_local(&[1000, 7, 3], 64), vec![50, 1, 1]);
    }

    #[test]
    fn kernel_selection_errors() {
        fails(
            "kernel: nope\nglobal: [8]\n",
            ARGS,
            None,
            "no kernel `nope` (kernels in the file: k, other)",
        );
        fails("global: [8]\n", ARGS, None, "`kernel:` is needed");
    }

    #[test]
    fn size_errors() {
        fails("kernel: k\nglobal: []\n", ARGS, None, "1 to 3 are allowed");
        fails(
            "kernel: k\nglobal: [1,1,1,1]\n",
            ARGS,
            None,
            "1 to 3 are allowed",
        );
        fails(
            "kernel: k\nglobal: [8]\nlocal: [3]\n",
            ARGS,
            None,
            "does not divide",
        );
        fails(
            "kernel: k\nglobal: [8]\nlocal: [4, 1]\n",
            ARGS,
            None,
            "local has 2 dimensions",
        );
        fails(
            "kernel: k\nglobal: [8]\nlocal: [4]\n",
            ARGS,
            Some([8, 1, 1]),
            "reqd_work_group_size(8, 1, 1)",
        );
        fails(
            "kernel: k\nglobal: [6]\n",
            ARGS,
            Some([4, 1, 1]),
            "from reqd_work_group_size",
        );
        fails("kernel: k\nglobal: [0]\n", ARGS, None, "at least 1");
    }

    #[test]
    fn argument_errors() {
        let h = "kernel: k\nglobal: [8]\n";
        fails(
            h,
            "args: []\n",
            None,
            "has 3 parameters (a, n, tmp), the spec gives 0",
        );
        let swap = ARGS.replace("name: a", "name: b");
        fails(
            h,
            &swap,
            None,
            "args[0] (parameter `a`): the spec names it `b`",
        );
        let as_scalar = ARGS.replace(
            "buffer: {type: float, count: 8, init: {fill: 2.5}}",
            "scalar: {type: float, value: 1}",
        );
        fails(h, &as_scalar, None, "is a __global or __constant pointer");
        let wrong_ty = ARGS.replace("type: int, value: -7", "type: uint, value: 7");
        fails(
            h,
            &wrong_ty,
            None,
            "gives a uint scalar, the parameter is int",
        );
        let too_big = ARGS.replace("value: -7", "value: 2147483648000");
        fails(h, &too_big, None, "does not fit in int");
        let tol = ARGS.replace(
            "    buffer: {type: float",
            "    tolerance_ulp: 2\n    buffer: {type: int",
        );
        fails(h, &tol, None, "tolerance_ulp needs a float buffer");
        let chk = ARGS.replace("  - scalar:", "  - check: true\n    scalar:");
        fails(h, &chk, None, "apply to buffers only");
        let both = ARGS.replace(
            "  - local: {type: float, count: 4}",
            "  - local: {type: float, count: 4}\n    buffer: {type: int, count: 1}",
        );
        fails(h, &both, None, "exactly one of");
        let zero = ARGS.replace("count: 4}", "count: 0}");
        fails(h, &zero, None, "count must be at least 1");
        let bad_fill = ARGS.replace("type: float, count: 8", "type: int, count: 8");
        fails(h, &bad_fill, None, "2.5 is not an integer");
    }

    #[test]
    fn define_errors() {
        let h = "kernel: k\nglobal: [8]\ndefines: {\"1X\": 1}\n";
        fails(h, ARGS, None, "not a macro name");
        let h = "kernel: k\nglobal: [8]\ndefines: {X: \"a b\"}\n";
        fails(h, ARGS, None, "has a blank");
    }
}

#[cfg(test)]
mod frontend_tests {
    use super::*;
    use crate::frontend::{check_source, Options};
    use std::path::Path;

    #[test]
    fn signature_from_the_frontend() {
        let src = "__kernel __attribute__((reqd_work_group_size(8, 2, 1)))
void k(__global const float *a, __constant int *t, __local uint *tmp, uint n, char c,
       float4 v)
{ }
__kernel void other(void) { }
";
        let checked = check_source("k.cl", src, &Options::default());
        let program = checked.program.expect("the frontend accepts the kernel");
        let sigs: Vec<KernelSig> = program.kernels.iter().map(KernelSig::from_info).collect();
        let k = &sigs[0];
        assert_eq!(k.name, "k");
        assert_eq!(k.reqd_work_group_size, Some([8, 2, 1]));
        let kinds: Vec<&ParamKind> = k.params.iter().map(|p| &p.kind).collect();
        assert_eq!(
            kinds,
            [
                &ParamKind::Buffer,
                &ParamKind::Buffer,
                &ParamKind::Local,
                &ParamKind::Scalar(Some(ElemType::Uint)),
                &ParamKind::Scalar(Some(ElemType::Char)),
                &ParamKind::Other,
            ]
        );
        let names: Vec<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["a", "t", "tmp", "n", "c", "v"]);
        let spec = LaunchSpec::parse(
            "kernel: k\nglobal: [16, 4]\nargs:
  - buffer: {type: float, count: 4}
  - buffer: {type: int, count: 4}
  - local: {type: uint, count: 16}
  - scalar: {type: uint, value: 4}
  - scalar: {type: char, value: -1}
  - scalar: {type: float, value: 1}\n",
            Path::new("k.yaml"),
        )
        .unwrap();
        let e = resolve(&spec, &sigs, 256).unwrap_err();
        assert!(e.message.contains("args[5] (parameter `v`)"), "{e}");
        let ok = spec.args[..5].to_vec();
        let spec = LaunchSpec { args: ok, ..spec };
        let sigs5 = vec![KernelSig {
            params: k.params[..5].to_vec(),
            ..k.clone()
        }];
        let l = resolve(&spec, &sigs5, 256).unwrap();
        assert_eq!(l.local, vec![8, 2]);
    }
}
