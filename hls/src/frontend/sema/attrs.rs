//! Attribute basics shared by every site: canonical names across both spellings, integer
//! constant arguments, and the declaration attributes `aligned`, `packed`, `endian`, `max_size`.

use crate::diag::Span;
use crate::frontend::ast::{AttrArg, AttrSyntax, Attribute, ExprKind};
use crate::frontend::layout::MAX_ALIGN;
use crate::frontend::types::Endian;

use super::Checker;

/// Where an attribute list was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AttrSite {
    Variable,
    Field,
    Param,
    Typedef,
    /// A struct, union or enum type.
    Record,
}

/// The layout and pointer attributes found on one declaration.
#[derive(Clone, Debug, Default)]
pub(super) struct DeclAttrs {
    pub aligned: Option<u64>,
    pub packed: bool,
    pub endian: Option<(Endian, Span)>,
    pub max_size: Option<(u64, Span)>,
    /// `numbanks(N)` and `max_replicates(N)` of a variable.
    pub memory: super::MemoryHints,
    /// `xcl_array_partition(kind, ..., dim)`: the kind, dim and where, for the variable's
    /// checker to match against the array's dimensions.
    pub partition: Option<(Partition, u32, Span)>,
    /// `bankwidth(N)`: bytes per bank word, and where.
    pub bankwidth: Option<(u64, Span)>,
}

/// What `xcl_array_partition` asks for (the dimension aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Partition {
    /// `(cyclic, N, dim)`: element `i` of the dimension in part `i mod N`.
    Cyclic(u32),
    /// `(block, N, dim)`: N runs of consecutive elements of the dimension.
    Block(u32),
    /// `(complete, dim)`: a part per element of the dimension.
    Complete,
}

/// Kernel function attributes (validated in `kernel_attrs.rs`).
pub(super) const FUNCTION_ATTRS: &[&str] = &[
    "reqd_work_group_size",
    "work_group_size_hint",
    "vec_type_hint",
    "required_num_sub_groups",
    "max_work_group_size",
    "num_simd_work_items",
    "num_compute_units",
    "xcl_pipeline_workitems",
    "xcl_max_work_group_size",
];

/// Loop attributes (validated in `loop_attrs.rs`).
pub(super) const LOOP_ATTRS: &[&str] = &[
    "opencl_unroll_hint",
    "unroll_hint",
    "ivdep",
    "xcl_pipeline_loop",
    "xcl_loop_tripcount",
];

/// Attributes we know and accept without acting on them: function and variable hints of
/// GNU C and of the FPGA vendors' compilers (memory banking is decided by later stages).
const ACCEPTED: &[&str] = &[
    "always_inline",
    "noinline",
    "inline",
    "overloadable",
    "const",
    "pure",
    "unused",
    "used",
    "maybe_unused",
    "deprecated",
    "nosvm",
    "xcl_array_partition",
    "xcl_array_reshape",
    "xcl_dataflow",
    "xcl_reqd_pipe_depth",
    "numbanks",
    "bankwidth",
    "singlepump",
    "doublepump",
    "memory",
    "register",
    "numreadports",
    "numwriteports",
    "merge",
    "bank_bits",
    "private_copies",
    "max_replicates",
    "simple_dual_port",
    "force_pow2_depth",
];

/// The attribute's name with the OpenCL C++ spellings mapped to the OpenCL C ones;
/// `None` for a namespace we do not know.
pub(super) fn canonical(a: &Attribute) -> Option<&str> {
    let name = a.name.as_str();
    if a.syntax == AttrSyntax::Gnu {
        return Some(name);
    }
    match a.namespace.as_deref() {
        None | Some("cl") | Some("gnu") | Some("clang") | Some("intel") | Some("xilinx") => {}
        Some(_) => return None,
    }
    Some(match name {
        "required_work_group_size" => "reqd_work_group_size",
        "unroll_hint" => "opencl_unroll_hint",
        n => n,
    })
}

/// How the attribute was written, for summaries: `cl::unroll_hint`, `opencl_unroll_hint`.
pub(super) fn spelling(a: &Attribute) -> String {
    match &a.namespace {
        Some(ns) => format!("{ns}::{}", a.name),
        None => a.name.clone(),
    }
}

pub(super) fn is_accepted(name: &str) -> bool {
    ACCEPTED.contains(&name)
}

/// The most banks `numbanks` and `xcl_array_partition` may ask for.
pub(super) const MAX_BANKS: u64 = 16;

/// The vendors' memory-shaping hints among [`ACCEPTED`]: the `memory` stage chooses words,
/// read replicas and banks from the accesses instead, so each gets a warning, not silence.
const MEMORY_HINTS: &[&str] = &[
    "xcl_array_partition",
    "xcl_array_reshape",
    "numbanks",
    "bankwidth",
    "singlepump",
    "doublepump",
    "memory",
    "register",
    "numreadports",
    "numwriteports",
    "merge",
    "bank_bits",
    "private_copies",
    "max_replicates",
    "simple_dual_port",
    "force_pow2_depth",
];

impl Checker<'_> {
    pub(super) fn unknown_attr(&mut self, a: &Attribute) {
        self.warning(
            a.name_span,
            format!("unknown attribute '{}' ignored", spelling(a)),
        );
    }

    /// The attribute's arguments as integer constants (type-checking each expression).
    /// Errors point at the attribute.
    pub(super) fn int_args(&mut self, a: &Attribute) -> Option<Vec<i128>> {
        let args = a.args.as_deref().unwrap_or(&[]);
        let mut out = Vec::new();
        let mut ok = true;
        for arg in args {
            match arg {
                AttrArg::Expr(e) => {
                    let t = self.rvalue(e);
                    match (t, self.value_of(e)) {
                        (Some(_), Some(v)) => out.push(v),
                        (Some(_), None) => {
                            self.error(
                                a.span,
                                format!(
                                    "'{}' attribute requires an integer constant expression argument",
                                    spelling(a)
                                ),
                            );
                            ok = false;
                        }
                        (None, _) => ok = false,
                    }
                }
                AttrArg::Type(t) => {
                    self.error(
                        t.span,
                        format!(
                            "'{}' attribute takes integer arguments, not a type",
                            spelling(a)
                        ),
                    );
                    ok = false;
                }
            }
        }
        ok.then_some(out)
    }

    /// One positive integer constant argument, or none when `optional` allows it.
    pub(super) fn positive_arg(&mut self, a: &Attribute, optional: bool) -> Option<Option<u64>> {
        let vals = self.int_args(a)?;
        match vals.as_slice() {
            [] if optional => Some(None),
            [v] if *v > 0 => Some(u64::try_from(*v).ok()),
            [v] => {
                self.error(
                    a.span,
                    format!(
                        "'{}' attribute requires a positive integral constant, got {v}",
                        spelling(a)
                    ),
                );
                None
            }
            _ => {
                let want = if optional {
                    "at most one argument"
                } else {
                    "exactly one argument"
                };
                self.error(a.span, format!("'{}' attribute takes {want}", spelling(a)));
                None
            }
        }
    }

    /// `endian(host)` / `endian(device)`.
    pub(super) fn endian_arg(&mut self, a: &Attribute) -> Option<Endian> {
        let word = match a.args.as_deref() {
            Some([AttrArg::Expr(e)]) => match &e.kind {
                ExprKind::Ident(i) => Some(i.name.as_str()),
                _ => None,
            },
            _ => None,
        };
        match word {
            Some("host") => Some(Endian::Host),
            Some("device") => Some(Endian::Device),
            _ => {
                self.error(
                    a.span,
                    "the endian attribute takes one argument: host or device",
                );
                None
            }
        }
    }

    /// Collects `aligned`, `packed`, `endian` and `max_size`; other attributes valid at
    /// `site` are left to their own checker, the rest draw a warning or an error.
    pub(super) fn decl_attrs(&mut self, attrs: &[Attribute], site: AttrSite, out: &mut DeclAttrs) {
        for a in attrs {
            let Some(name) = canonical(a) else {
                self.unknown_attr(a);
                continue;
            };
            match name {
                "aligned" => {
                    if let Some(n) = self.alignment(a) {
                        out.aligned = Some(out.aligned.map_or(n, |m| m.max(n)));
                    }
                }
                "packed" => {
                    if a.args.is_some() {
                        self.error(a.span, "the packed attribute takes no arguments");
                    }
                    if site == AttrSite::Typedef {
                        self.warning(a.name_span, "'packed' attribute ignored when parsing type");
                    } else {
                        out.packed = true;
                    }
                }
                "endian" => {
                    if let Some(e) = self.endian_arg(a) {
                        out.endian = Some((e, a.span));
                    }
                }
                "max_size" => {
                    if site != AttrSite::Param {
                        self.error(
                            a.span,
                            "the max_size attribute applies only to kernel pointer parameters",
                        );
                    } else if let Some(Some(n)) = self.positive_arg(a, false) {
                        out.max_size = Some((n, a.span));
                    }
                }
                n if FUNCTION_ATTRS.contains(&n) => {
                    self.error(
                        a.span,
                        format!(
                            "'{}' attribute only applies to kernel functions",
                            spelling(a)
                        ),
                    );
                }
                n if LOOP_ATTRS.contains(&n) => {
                    self.error(
                        a.span,
                        format!("'{}' attribute only applies to loops", spelling(a)),
                    );
                }
                "numbanks" if site == AttrSite::Variable => match self.positive_arg(a, false) {
                    Some(Some(n)) if n.is_power_of_two() && n <= MAX_BANKS => {
                        out.memory.banks = Some(n as u32)
                    }
                    Some(_) => self.error(
                        a.span,
                        format!("numbanks takes a power of two from 1 to {MAX_BANKS}"),
                    ),
                    None => {}
                },
                "max_replicates" if site == AttrSite::Variable => {
                    if let Some(Some(n)) = self.positive_arg(a, false) {
                        out.memory.max_replicates = Some(n.min(u32::MAX as u64) as u32);
                    }
                }
                "xcl_array_partition" if site == AttrSite::Variable => {
                    if let Some((p, dim)) = self.partition_args(a) {
                        out.partition = Some((p, dim, a.span));
                    }
                }
                "bankwidth" if site == AttrSite::Variable => match self.positive_arg(a, false) {
                    Some(Some(n)) if n.is_power_of_two() => out.bankwidth = Some((n, a.span)),
                    Some(_) => self.error(a.span, "bankwidth takes a power of two (bytes)"),
                    None => {}
                },
                n if MEMORY_HINTS.contains(&n) => self.warning(
                    a.name_span,
                    format!(
                        "'{}' is not acted on: ocl-hls shapes on-chip memories from their \
                         accesses (RAM words, read replicas and cyclic banks; the build \
                         summary's `memory` lines say what it chose)",
                        spelling(a)
                    ),
                ),
                n if is_accepted(n) => {}
                _ => self.unknown_attr(a),
            }
        }
    }

    /// `xcl_array_partition(cyclic | block, factor, dim)` with a power-of-two factor up
    /// to [`MAX_BANKS`], or `(complete, dim)`: the partition and its dimension; an error
    /// for malformed arguments (the declaration's checker matches the dimension).
    fn partition_args(&mut self, a: &Attribute) -> Option<(Partition, u32)> {
        let args = a.args.as_deref().unwrap_or(&[]);
        let kind = match args.first() {
            Some(AttrArg::Expr(e)) => match &e.kind {
                ExprKind::Ident(i) => Some(i.name.clone()),
                _ => None,
            },
            _ => None,
        };
        let num = |g: &mut Self, e: &AttrArg| match e {
            AttrArg::Expr(e) => g.rvalue(e).and_then(|_| g.value_of(e)),
            AttrArg::Type(_) => None,
        };
        let dim = |d: i128| d.min(u32::MAX as i128) as u32;
        match (kind.as_deref(), args.len()) {
            (Some(k @ ("cyclic" | "block")), 3) => {
                let (f, d) = (num(self, &args[1]), num(self, &args[2]));
                match (f, d) {
                    (Some(f), Some(d))
                        if f > 0
                            && (f as u128).is_power_of_two()
                            && f as u64 <= MAX_BANKS
                            && d >= 1 =>
                    {
                        let p = if k == "cyclic" {
                            Partition::Cyclic(f as u32)
                        } else {
                            Partition::Block(f as u32)
                        };
                        Some((p, dim(d)))
                    }
                    _ => {
                        self.error(
                            a.span,
                            format!(
                                "xcl_array_partition({k}, factor, dim) takes a power-of-two \
                                 factor from 1 to {MAX_BANKS} and a dimension from 1"
                            ),
                        );
                        None
                    }
                }
            }
            (Some("complete"), 2) => match num(self, &args[1]) {
                Some(d) if d >= 0 => Some((Partition::Complete, dim(d))),
                _ => {
                    self.error(
                        a.span,
                        "xcl_array_partition(complete, dim) takes a dimension from 1 \
                         (0: every dimension)",
                    );
                    None
                }
            },
            _ => {
                self.error(
                    a.span,
                    "xcl_array_partition takes (cyclic, factor, dim), (block, factor, dim) or \
                     (complete, dim)",
                );
                None
            }
        }
    }

    /// `aligned` / `aligned(n)`: a power-of-two constant; no factor means the largest.
    fn alignment(&mut self, a: &Attribute) -> Option<u64> {
        if a.args.as_ref().is_none_or(|v| v.is_empty()) {
            return Some(MAX_ALIGN);
        }
        let vals = self.int_args(a)?;
        match vals.as_slice() {
            [v] if *v > 0 && (*v as u128).is_power_of_two() && *v <= (1 << 29) => Some(*v as u64),
            [v] => {
                self.error(
                    a.span,
                    format!("requested alignment {v} is not a positive power of 2"),
                );
                None
            }
            _ => {
                self.error(a.span, "the aligned attribute takes at most one argument");
                None
            }
        }
    }
}
