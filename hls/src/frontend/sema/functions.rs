//! Function definitions: the signature, kernel rules (void return, parameter address
//! spaces, `endian`/`max_size` on parameters), parameter symbols, and the body.

use std::collections::HashMap;

use crate::frontend::ast::{FunctionDef, ParamDecl, StmtKind};
use crate::frontend::types::{AddrSpace, Scalar, Type};

use super::attrs::{AttrSite, DeclAttrs};
use super::typeres::adjust_param;
use super::{Checker, FnCtx, FuncId, Symbol, SymbolKind};

impl Checker<'_> {
    pub(super) fn function_def(&mut self, item: usize, f: &FunctionDef) {
        let is_kernel = f.specs.kernel.is_some();
        let Some((base, _)) = self.base_type(&f.specs) else {
            self.poison(f.declarator.name.as_ref());
            return;
        };
        let Some(res) = self.derive(base, None, &f.specs, &f.declarator) else {
            self.poison(f.declarator.name.as_ref());
            return;
        };
        let Type::Function(ft) = res.ty else {
            self.error(
                f.declarator.span,
                "a function definition needs a function declarator",
            );
            return;
        };
        let name_span = f.declarator.name.as_ref().map_or(f.span, |n| n.span);
        if !self.fp16 && Self::is_half_value(&ft.ret) {
            self.error(
                name_span,
                "a function returning 'half' needs '#pragma OPENCL EXTENSION cl_khr_fp16 : enable'",
            );
        }
        if is_kernel && ft.ret != Type::Void {
            self.error(
                name_span,
                format!(
                    "kernel function '{}' must have a void return type",
                    f.name()
                ),
            );
        }
        let Some(fid) = self.declare_function(&f.specs, &f.declarator, (*ft).clone(), Some(item))
        else {
            return;
        };
        self.function_attrs(fid, is_kernel, &f.specs.attrs, &f.declarator.attrs);
        self.func = Some(FnCtx {
            id: fid,
            name: f.name().to_string(),
            ret: ft.ret.clone(),
            is_kernel,
            loops: 0,
            switches: Vec::new(),
            labels: HashMap::new(),
            gotos: Vec::new(),
        });
        self.scopes.push();
        let mut params = Vec::new();
        let has_params = !ft.params.is_empty() || f.params().is_empty();
        if has_params {
            for (i, p) in f.params().iter().enumerate() {
                if let Some(s) = self.param(fid, i as u32, p, is_kernel) {
                    params.push(s);
                }
            }
        }
        self.functions[fid.0 as usize].params = params;
        match &f.body.kind {
            StmtKind::Compound(items) => {
                for s in items {
                    self.stmt(s);
                }
            }
            _ => self.stmt(&f.body),
        }
        self.finish_labels();
        self.scopes.pop();
        self.func = None;
    }

    fn param(
        &mut self,
        fid: FuncId,
        index: u32,
        p: &ParamDecl,
        is_kernel: bool,
    ) -> Option<super::SymbolId> {
        let Some(res) = self.resolve(&p.specs, &p.declarator) else {
            self.poison(p.declarator.name.as_ref());
            return None;
        };
        let mut ty = adjust_param(res.ty, p.specs.addr_space.map(|s| s.0));
        let mut a = DeclAttrs::default();
        self.decl_attrs(&p.specs.attrs, AttrSite::Param, &mut a);
        self.decl_attrs(&p.declarator.attrs, AttrSite::Param, &mut a);
        self.apply_endian(&mut ty, &a);
        let at = p.declarator.name.as_ref().map_or(p.span, |n| n.span);
        if !self.fp16 && Self::is_half_value(&ty) {
            self.error(
                at,
                "declaring a parameter of type 'half' is not allowed without '#pragma OPENCL EXTENSION cl_khr_fp16 : enable'",
            );
        }
        if is_kernel {
            self.kernel_param_rules(&ty, at, p);
        }
        let sym_name = p
            .declarator
            .name
            .as_ref()
            .map(|n| n.name.clone())
            .unwrap_or_default();
        let space = match p.specs.addr_space {
            Some((s, _)) if !matches!(ty, Type::Pointer(_)) => s,
            _ => AddrSpace::Private,
        };
        if let Some((n, span)) = a.max_size {
            self.max_size_rules(&ty, n, span, is_kernel);
        }
        if let Some(name) = &p.declarator.name {
            if self.scopes.lookup_here(&name.name).is_some() {
                self.error(
                    name.span,
                    format!("redefinition of parameter '{}'", name.name),
                );
            }
        }
        let align = self.layout_of(&ty).map_or(1, |l| l.align);
        let s = self.add_symbol(Symbol {
            name: sym_name.clone(),
            ty,
            kind: SymbolKind::Param { index },
            space,
            quals: res.quals,
            align,
            span: at,
        });
        if let Some((n, _)) = a.max_size {
            self.max_sizes.insert(s, n);
        }
        self.bind_declarator(p.declarator.id, s);
        if !sym_name.is_empty() {
            self.scopes.declare(&sym_name, s);
        }
        let _ = fid;
        Some(s)
    }

    fn kernel_param_rules(&mut self, ty: &Type, at: crate::diag::Span, p: &ParamDecl) {
        match ty {
            Type::Pointer(ptr) => {
                if ptr.pointee.is_pointer() {
                    self.error(
                        at,
                        "kernel parameter cannot be declared as a pointer to a pointer",
                    );
                }
                if !matches!(
                    ptr.space,
                    AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local
                ) {
                    self.error(
                        at,
                        "pointer arguments to kernel functions must point into the __global, __constant or __local address space",
                    );
                }
            }
            Type::Scalar(Scalar::Bool) => self.error(
                at,
                "'bool' cannot be used as the type of a kernel parameter",
            ),
            _ => {}
        }
        if let Some((s, span)) = p.specs.addr_space {
            if !ty.is_pointer() && s != AddrSpace::Private {
                self.error(
                    span,
                    format!(
                        "kernel parameters passed by value cannot be in the {} address space",
                        s.name()
                    ),
                );
            }
        }
    }

    fn max_size_rules(&mut self, ty: &Type, n: u64, span: crate::diag::Span, is_kernel: bool) {
        let ok_space = matches!(ty, Type::Pointer(p) if matches!(p.space, AddrSpace::Local | AddrSpace::Constant));
        if !is_kernel || !ok_space {
            self.error(
                span,
                "the max_size attribute applies only to __local or __constant pointer parameters of kernels",
            );
        } else if n > self.opts.max_local_bytes {
            self.error(
                span,
                format!(
                    "max_size({n}) exceeds the device's local memory size of {} bytes",
                    self.opts.max_local_bytes
                ),
            );
        }
    }
}
