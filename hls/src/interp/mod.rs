//! The reference interpreter for the kernel IR: runs a kernel over an NDRange with the
//! semantics of a conforming OpenCL CPU implementation (bit-exact integer and IEEE float
//! arithmetic, bounds-checked memory, barriers), reporting bad launches, out-of-bounds or
//! uninitialised accesses, divergent barriers and broken ivdep promises as errors.
//!
//! The kernel is compiled once per launch into a linear instruction list over frame slots
//! (`compile.rs`, `ops.rs`), which `exec.rs` runs work-item by work-item.
//!
//! Where OpenCL leaves results open, the interpreter gives what POCL gives on this x86-64
//! machine (each choice measured with `ocl-ref` and kept by a differential test):
//! out-of-range float to integer conversions (`convert.rs`), NaN payloads of half stores,
//! `nan()`, `fmod`/`remainder`/`fract`, `fmin`/`fmax` of signed zeros, float `max`/`min`
//! with NaN, `dot`/`cross` rounding, `mad` as a separately rounded multiply and add.
//! Integer division by zero does not trap (`eval.rs` documents the values).

mod builtins;
mod common;
mod compile;
pub mod convert;
mod eval;
mod exec;
mod float_fns;
mod geometric;
mod hints;
mod ieee;
mod inst;
mod integer;
mod math;
mod memory;
mod ndrange;
mod ops;
mod peephole;
mod relational;
mod value;

use std::collections::HashMap;

use crate::diag::{Diagnostic, Span};
use crate::frontend::types::AddrSpace;
use crate::ir::{self, Base, ParamKind};
use memory::MemRegion;

#[derive(Clone, Debug, PartialEq)]
pub enum ArgValue {
    /// A __global/__constant buffer: its initial bytes.
    Buffer(Vec<u8>),
    /// The buffer of argument `arg` (a `Buffer` of its own), seen from `offset` bytes on:
    /// the host passed one buffer twice.
    SameAs { arg: u32, offset: u64 },
    /// A __local buffer argument: its size in bytes.
    Local(u64),
    /// A by-value argument (scalar, vector or struct): its little-endian bytes.
    Value(Vec<u8>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    pub work_dim: u32,
    pub global: [u64; 3],
    pub local: [u64; 3],
    pub args: Vec<ArgValue>,
}

#[derive(Clone, Debug)]
pub struct Options {
    /// Check `ivdep` promises (slower: every memory access in such loops is recorded).
    pub check_hints: bool,
    /// Executed-op bound that stops runaway loops.
    pub max_steps: u64,
    /// A read of never-written `__private` bytes stops the run (`--strict`); by default
    /// it is a warning and reads zero bytes.
    pub strict: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            check_hints: false,
            max_steps: 10_000_000_000,
            strict: false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Outcome {
    /// Final bytes of each Buffer argument (None for others).
    pub buffers: Vec<Option<Vec<u8>>>,
    pub work_items: u64,
    pub ops_executed: u64,
    /// Warnings of the run (reads of never-written private bytes), one per location.
    pub warnings: Vec<InterpError>,
}

#[derive(Clone, Debug)]
pub struct InterpError {
    pub message: String,
    pub span: Option<Span>,
    /// Further places the error involves (the other barrier of a divergence...).
    pub notes: Vec<(Option<Span>, String)>,
}

impl InterpError {
    fn plain(message: impl Into<String>) -> InterpError {
        InterpError {
            message: message.into(),
            span: None,
            notes: Vec::new(),
        }
    }

    /// As a warning diagnostic (the run went on), for `diag::render`.
    pub fn to_warning(&self) -> Diagnostic {
        match self.span {
            Some(s) => Diagnostic::warning(s, self.message.clone()),
            None => Diagnostic::global(self.message.clone()),
        }
    }

    /// As a diagnostic, for `diag::render`.
    pub fn to_diagnostic(&self) -> Diagnostic {
        let mut d = match self.span {
            Some(s) => Diagnostic::error(s, self.message.clone()),
            None => Diagnostic::global(self.message.clone()),
        };
        for (s, m) in &self.notes {
            d = d.with_note(*s, m.clone());
        }
        d
    }
}

impl std::fmt::Display for InterpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

fn check_launch(kernel: &ir::Kernel, launch: &Launch) -> Result<([u64; 3], [u64; 3]), InterpError> {
    let k = &kernel.name;
    if !(1..=3).contains(&launch.work_dim) {
        return Err(InterpError::plain(format!(
            "work_dim must be 1, 2 or 3, not {}",
            launch.work_dim
        )));
    }
    let (mut global, mut local) = ([1u64; 3], [1u64; 3]);
    for d in 0..launch.work_dim as usize {
        let (g, l) = (launch.global[d], launch.local[d]);
        if g == 0 || l == 0 {
            return Err(InterpError::plain(format!(
                "global and local sizes must be non-zero (dimension {d}: {g} / {l})"
            )));
        }
        if g % l != 0 {
            return Err(InterpError::plain(format!(
                "local size {l} does not divide global size {g} in dimension {d}"
            )));
        }
        global[d] = g;
        local[d] = l;
    }
    if let Some(r) = kernel.attrs.reqd_work_group_size {
        if r != local {
            return Err(InterpError::plain(format!(
                "kernel '{k}' requires work-group size ({}, {}, {}) but the launch uses ({}, {}, {})",
                r[0], r[1], r[2], local[0], local[1], local[2]
            )));
        }
    }
    if launch.args.len() != kernel.params.len() {
        return Err(InterpError::plain(format!(
            "kernel '{k}' takes {} arguments but the launch gives {}",
            kernel.params.len(),
            launch.args.len()
        )));
    }
    for (p, a) in kernel.params.iter().zip(&launch.args) {
        let bad = |want: &str| {
            Err(InterpError {
                message: format!("argument '{}' of kernel '{k}' must be {want}", p.name),
                span: Some(p.span),
                notes: Vec::new(),
            })
        };
        match (&p.kind, a) {
            (ParamKind::Buffer { .. }, ArgValue::Buffer(_))
            | (ParamKind::LocalBuffer, ArgValue::Local(_)) => {}
            (ParamKind::Buffer { .. }, ArgValue::SameAs { arg, offset }) => {
                match launch.args.get(*arg as usize) {
                    Some(ArgValue::Buffer(b)) if *offset <= b.len() as u64 => {}
                    _ => {
                        return bad(&format!(
                            "a buffer argument's memory ({offset} bytes into argument {arg})"
                        ))
                    }
                }
            }
            (ParamKind::Value, ArgValue::Value(b)) if b.len() as u64 == p.ty.store_size() => {}
            (ParamKind::Struct { object }, ArgValue::Value(b))
                if kernel
                    .objects
                    .get(object.0 as usize)
                    .is_some_and(|o| o.size == b.len() as u64) => {}
            (ParamKind::Buffer { .. }, _) => return bad("a buffer"),
            (ParamKind::LocalBuffer, _) => return bad("a __local size"),
            (ParamKind::Value, _) => {
                return bad(&format!("a value of {} bytes", p.ty.store_size()))
            }
            (ParamKind::Struct { object }, _) => {
                let size = kernel
                    .objects
                    .get(object.0 as usize)
                    .map(|o| o.size)
                    .unwrap_or(0);
                return bad(&format!("a struct value of {size} bytes"));
            }
        }
    }
    Ok((global, local))
}

fn ivdep_state(kernel: &ir::Kernel) -> IvdepSetup {
    let mut names = HashMap::new();
    for (i, p) in kernel.params.iter().enumerate() {
        names.insert(
            value::base_word(Base::Param(i as u32)),
            format!("'{}'", p.name),
        );
    }
    for (i, o) in kernel.objects.iter().enumerate() {
        names.insert(
            value::base_word(Base::Object(ir::ObjectId(i as u32))),
            format!("'{}'", o.name),
        );
    }
    let promises: Vec<Option<hints::Promise>> = kernel
        .loops
        .iter()
        .map(|l| {
            let iv = l.hints.ivdep.as_ref()?;
            let arrays = (!l.hints.ivdep_arrays.is_empty()).then(|| {
                let named = |n: &str| l.hints.ivdep_arrays.iter().any(|a| a == n);
                let mut v: Vec<u64> = Vec::new();
                for (i, p) in kernel.params.iter().enumerate() {
                    if named(&p.name) {
                        v.push(value::base_word(Base::Param(i as u32)));
                    }
                }
                for (i, o) in kernel.objects.iter().enumerate() {
                    if named(&o.name) {
                        v.push(value::base_word(Base::Object(ir::ObjectId(i as u32))));
                    }
                }
                v
            });
            Some(hints::Promise {
                safelen: iv.safelen,
                arrays,
                span: l.span,
            })
        })
        .collect();
    let track = promises.iter().map(Option::is_some).collect();
    IvdepSetup {
        track,
        state: hints::IvdepState::new(promises, names),
    }
}

struct IvdepSetup {
    track: Vec<bool>,
    state: hints::IvdepState,
}

/// Runs `kernel` over the launch's NDRange.
pub fn run(kernel: &ir::Kernel, launch: &Launch, opts: &Options) -> Result<Outcome, InterpError> {
    let (global, local) = check_launch(kernel, launch)?;
    let iv = opts.check_hints.then(|| ivdep_state(kernel));
    let track = iv.as_ref().map(|s| s.track.clone()).unwrap_or_default();
    let prog = compile::compile(kernel, &launch.args, track)?;

    let mut params = Vec::new();
    let mut local_regions = Vec::new();
    for (i, (p, a)) in kernel.params.iter().zip(&launch.args).enumerate() {
        params.push(match a {
            ArgValue::Buffer(b) => {
                let space = match p.kind {
                    ParamKind::Buffer {
                        space: AddrSpace::Constant,
                    } => "__constant buffer",
                    _ => "buffer",
                };
                MemRegion::new(format!("{space} '{}'", p.name), b.clone(), false)
            }
            // Its pointer points into the other argument's region (`ops.rs`).
            ArgValue::SameAs { .. } => MemRegion::default(),
            ArgValue::Local(n) => {
                local_regions.push((true, i));
                MemRegion::new(
                    format!("__local memory '{}'", p.name),
                    vec![0; *n as usize],
                    true,
                )
            }
            ArgValue::Value(_) => MemRegion::new(format!("value '{}'", p.name), Vec::new(), false),
        });
    }
    let mut objects = Vec::new();
    let mut is_private = Vec::new();
    for (i, o) in kernel.objects.iter().enumerate() {
        is_private.push(o.space == AddrSpace::Private);
        objects.push(match o.space {
            AddrSpace::Local => {
                local_regions.push((false, i));
                MemRegion::new(
                    format!("__local memory '{}'", o.name),
                    vec![0; o.size as usize],
                    true,
                )
            }
            AddrSpace::Private => MemRegion::default(),
            _ => {
                let mut b = o.init.clone().unwrap_or_default();
                b.resize(o.size as usize, 0);
                MemRegion::new(format!("{} memory '{}'", o.space.name(), o.name), b, false)
            }
        });
    }
    let struct_args: Vec<(usize, Vec<u8>)> = kernel
        .params
        .iter()
        .zip(&launch.args)
        .filter_map(|(p, a)| match (&p.kind, a) {
            (ParamKind::Struct { object }, ArgValue::Value(b)) => {
                Some((object.0 as usize, b.clone()))
            }
            _ => None,
        })
        .collect();
    let private = memory::private_template(kernel, &struct_args);
    let has_private = is_private.iter().any(|p| *p);
    let has_barrier = prog
        .insts
        .iter()
        .any(|i| matches!(i, inst::Inst::Barrier { .. }));

    let mut env = exec::Env {
        prog: &prog,
        work_dim: launch.work_dim,
        global,
        local,
        is_private: &is_private,
        params,
        objects,
        steps: 0,
        max_steps: opts.max_steps,
        strict: opts.strict,
        warnings: Vec::new(),
        warned: Default::default(),
    };
    let fresh = ndrange::Fresh {
        private: &private,
        hints: iv.as_ref().map(|s| &s.state),
        has_private,
    };
    let work_items = ndrange::run_all(&mut env, &fresh, &local_regions, has_barrier)?;
    let buffers = launch
        .args
        .iter()
        .zip(env.params)
        .map(|(a, r)| matches!(a, ArgValue::Buffer(_)).then_some(r.bytes))
        .collect();
    Ok(Outcome {
        buffers,
        work_items,
        ops_executed: env.steps,
        warnings: env.warnings,
    })
}
