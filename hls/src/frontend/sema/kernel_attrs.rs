//! Kernel function attributes: work-group sizes, vec_type_hint, sub-groups and the FPGA
//! vendors' kernel attributes, validated and gathered into [`KernelAttrs`].

use crate::frontend::ast::{AttrArg, Attribute, ExprKind};
use crate::frontend::types::{builtin_type_from_name, Type};

use super::attrs::{
    canonical, is_accepted, spelling, AttrSite, DeclAttrs, FUNCTION_ATTRS, LOOP_ATTRS,
};
use super::{Checker, FuncId, KernelAttrs};

impl Checker<'_> {
    /// Validates the attributes written on a function and records them for kernels.
    pub(super) fn function_attrs(
        &mut self,
        fid: FuncId,
        is_kernel: bool,
        before: &[Attribute],
        after: &[Attribute],
    ) {
        let mut k = KernelAttrs {
            vec_type_hint: "int".into(),
            ..KernelAttrs::default()
        };
        for a in before.iter().chain(after) {
            let Some(name) = canonical(a) else {
                self.unknown_attr(a);
                k.unknown.push(spelling(a));
                continue;
            };
            if FUNCTION_ATTRS.contains(&name) && !is_kernel {
                self.error(
                    a.span,
                    format!(
                        "'{}' attribute only applies to kernel functions",
                        spelling(a)
                    ),
                );
                continue;
            }
            match name {
                "reqd_work_group_size" => k.reqd_work_group_size = self.three_sizes(a),
                "work_group_size_hint" => k.work_group_size_hint = self.three_sizes(a),
                "vec_type_hint" => {
                    if let Some(t) = self.vec_type_hint(a) {
                        k.vec_type_hint = t;
                        k.vec_type_hint_explicit = true;
                    }
                }
                "required_num_sub_groups" => {
                    k.required_num_sub_groups = self.positive_arg(a, false).flatten()
                }
                "max_work_group_size" | "xcl_max_work_group_size" => {
                    k.max_work_group_size = self.one_or_three(a);
                }
                "num_simd_work_items" => {
                    if let Some(Some(n)) = self.positive_arg(a, false) {
                        if [1, 2, 4, 8, 16].contains(&n) {
                            k.num_simd_work_items = Some(n);
                        } else {
                            self.error(
                                a.span,
                                format!("num_simd_work_items({n}) must be 1, 2, 4, 8 or 16"),
                            );
                        }
                    }
                }
                "num_compute_units" => {
                    if let Some(v) = self.int_args(a) {
                        if v.is_empty() || v.len() > 3 || v.iter().any(|x| *x <= 0) {
                            self.error(
                                a.span,
                                "num_compute_units takes one to three positive integer constants",
                            );
                        } else {
                            k.num_compute_units = Some(v.iter().map(|x| *x as u64).collect());
                        }
                    }
                }
                "xcl_pipeline_workitems" => k.xcl_pipeline_workitems = true,
                "aligned" | "packed" | "endian" | "max_size" => {
                    let mut d = DeclAttrs::default();
                    self.decl_attrs(std::slice::from_ref(a), AttrSite::Variable, &mut d);
                    if name != "aligned" {
                        self.error(
                            a.span,
                            format!("'{}' attribute does not apply to functions", spelling(a)),
                        );
                    }
                }
                n if LOOP_ATTRS.contains(&n) => {
                    self.error(
                        a.span,
                        format!("'{}' attribute only applies to loops", spelling(a)),
                    );
                }
                n if is_accepted(n) => {}
                _ => {
                    self.unknown_attr(a);
                    k.unknown.push(spelling(a));
                }
            }
        }
        if let (Some(simd), Some(r)) = (k.num_simd_work_items, k.reqd_work_group_size) {
            if r[0] % simd != 0 {
                let at = before
                    .iter()
                    .chain(after)
                    .find(|a| a.name == "num_simd_work_items");
                if let Some(a) = at {
                    self.error(
                        a.span,
                        format!("num_simd_work_items({simd}) must divide the first reqd_work_group_size dimension {}", r[0]),
                    );
                }
            }
        }
        if is_kernel {
            self.kernel_attrs.insert(fid, k);
        }
    }

    /// Exactly three positive integer constants.
    fn three_sizes(&mut self, a: &Attribute) -> Option<[u64; 3]> {
        let v = self.int_args(a)?;
        if v.len() != 3 {
            self.error(
                a.span,
                format!(
                    "'{}' attribute requires exactly 3 arguments, {} given",
                    spelling(a),
                    v.len()
                ),
            );
            return None;
        }
        if let Some(bad) = v.iter().find(|x| **x <= 0) {
            self.error(
                a.span,
                format!(
                    "'{}' attribute requires positive integer constants, got {bad}",
                    spelling(a)
                ),
            );
            return None;
        }
        Some([v[0] as u64, v[1] as u64, v[2] as u64])
    }

    /// Intel's `max_work_group_size(N)` or `(X, Y, Z)`; one value is stored as `[N, 1, 1]`.
    fn one_or_three(&mut self, a: &Attribute) -> Option<[u64; 3]> {
        let v = self.int_args(a)?;
        if (v.len() != 1 && v.len() != 3) || v.iter().any(|x| *x <= 0) {
            self.error(
                a.span,
                format!(
                    "'{}' attribute takes one or three positive integer constants",
                    spelling(a)
                ),
            );
            return None;
        }
        Some(if v.len() == 1 {
            [v[0] as u64, 1, 1]
        } else {
            [v[0] as u64, v[1] as u64, v[2] as u64]
        })
    }

    /// `vec_type_hint(T)`: T must be a built-in scalar or vector type.
    fn vec_type_hint(&mut self, a: &Attribute) -> Option<String> {
        let arg = match a.args.as_deref() {
            Some([arg]) => arg,
            _ => {
                self.error(a.span, "'vec_type_hint' attribute takes one type argument");
                return None;
            }
        };
        let ty = match arg {
            AttrArg::Type(t) => self.type_name_type(t).map(|x| x.0),
            AttrArg::Expr(e) => match &e.kind {
                ExprKind::Ident(i) => builtin_type_from_name(&i.name),
                _ => None,
            },
        };
        match ty {
            Some(t @ (Type::Scalar(_) | Type::Vector(..))) => Some(t.to_string()),
            _ => {
                let what = match arg {
                    AttrArg::Expr(e) => self.sm.snippet(e.span).to_string(),
                    AttrArg::Type(t) => self.sm.snippet(t.span).to_string(),
                };
                self.error(
                    a.span,
                    format!("invalid type '{what}' in 'vec_type_hint': a built-in scalar or vector type is required"),
                );
                None
            }
        }
    }
}
