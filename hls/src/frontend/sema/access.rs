//! How kernels use their pointer parameters (read, write, both), found by tracing each
//! memory access back to the pointer it goes through, and the kernel summaries built
//! from it.

use std::collections::{HashMap, HashSet};

use crate::frontend::ast::{BinaryOp, Expr, ExprKind, Initializer, TranslationUnit, UnaryOp};
use crate::frontend::types::{AddrSpace, Type};

use super::summary::{KernelInfo, ParamInfo};
use super::{Checker, FuncId, SymbolId};

#[derive(Debug, Default)]
pub(super) struct AccessFacts {
    pub reads: HashSet<SymbolId>,
    pub writes: HashSet<SymbolId>,
    /// A local pointer variable initialized or assigned from a pointer derived from a
    /// parameter: accesses through it count for the parameter.
    pub aliases: HashMap<SymbolId, SymbolId>,
    /// A pointer derived from a symbol passed as argument `usize` of a user function.
    pub passes: Vec<(SymbolId, FuncId, usize)>,
}

impl Checker<'_> {
    fn expr_ty(&self, e: &Expr) -> Option<&Type> {
        self.info_ref(e).and_then(|i| i.ty.as_ref())
    }

    /// The pointer symbol through which an lvalue expression reaches memory.
    pub(super) fn lvalue_root(&self, e: &Expr) -> Option<SymbolId> {
        match &e.kind {
            ExprKind::Unary(UnaryOp::Deref, p) => self.pointer_root(p),
            ExprKind::Index(a, b) => {
                let base = if matches!(self.expr_ty(a), Some(Type::Pointer(_) | Type::Array(..))) {
                    a
                } else {
                    b
                };
                match self.expr_ty(base) {
                    Some(Type::Array(..)) => self.lvalue_root(base),
                    Some(Type::Vector(..)) => self.lvalue_root(base),
                    _ => self.pointer_root(base),
                }
            }
            ExprKind::Member {
                base, arrow: true, ..
            } => self.pointer_root(base),
            ExprKind::Member {
                base, arrow: false, ..
            } => self.lvalue_root(base),
            _ => None,
        }
    }

    /// The parameter (or other pointer symbol) a pointer value is derived from.
    pub(super) fn pointer_root(&self, e: &Expr) -> Option<SymbolId> {
        match &e.kind {
            ExprKind::Ident(_) => {
                let s = self.info_ref(e)?.symbol?;
                let mut root = s;
                let mut guard = 0;
                while let Some(next) = self.access.aliases.get(&root) {
                    if *next == root || guard > 64 {
                        break;
                    }
                    root = *next;
                    guard += 1;
                }
                match self.sym(s).ty {
                    Type::Pointer(_) => Some(root),
                    Type::Array(..) => None,
                    _ => None,
                }
            }
            ExprKind::Binary(BinaryOp::Add | BinaryOp::Sub, a, b) => {
                self.pointer_root(a).or_else(|| self.pointer_root(b))
            }
            ExprKind::Cast(_, x) | ExprKind::Comma(_, x) => self.pointer_root(x),
            ExprKind::Unary(UnaryOp::AddrOf, x) => self.lvalue_root(x),
            ExprKind::Unary(
                UnaryOp::PostInc | UnaryOp::PostDec | UnaryOp::PreInc | UnaryOp::PreDec,
                x,
            ) => self.pointer_root(x),
            ExprKind::Assign(_, l, _) => self.pointer_root(l),
            ExprKind::Cond(_, a, b) => self.pointer_root(a).or_else(|| self.pointer_root(b)),
            ExprKind::Index(..) | ExprKind::Member { .. } => self.lvalue_root(e),
            _ => None,
        }
    }

    pub(super) fn note_pointer_alias(&mut self, var: SymbolId, init: &Initializer) {
        if let Initializer::Expr(e) = init {
            if self.sym(var).ty.is_pointer() {
                self.note_alias_expr(var, e);
            }
        }
    }

    pub(super) fn note_alias_expr(&mut self, var: SymbolId, e: &Expr) {
        if let Some(r) = self.pointer_root(e) {
            if r != var {
                self.access.aliases.insert(var, r);
            }
        }
    }

    /// (read, write) for a pointer symbol, following calls into user functions.
    fn access_of(&self, s: SymbolId, depth: u32) -> (bool, bool) {
        let mut r = self.access.reads.contains(&s);
        let mut w = self.access.writes.contains(&s);
        if depth > 32 {
            return (r, w);
        }
        for (root, callee, idx) in &self.access.passes {
            if *root != s {
                continue;
            }
            if let Some(p) = self
                .functions
                .get(callee.0 as usize)
                .and_then(|f| f.params.get(*idx))
            {
                let (cr, cw) = self.access_of(*p, depth + 1);
                r |= cr;
                w |= cw;
            }
        }
        (r, w)
    }

    /// Functions reachable from `f` (itself included), in discovery order.
    fn reachable(&self, f: FuncId) -> Vec<FuncId> {
        let mut out = vec![f];
        let mut i = 0;
        while i < out.len() {
            let cur = out[i];
            if let Some(info) = self.functions.get(cur.0 as usize) {
                for c in &info.calls {
                    if !out.contains(c) {
                        out.push(*c);
                    }
                }
            }
            i += 1;
        }
        out
    }

    pub(super) fn kernel_summaries(&self, _tu: &TranslationUnit) -> Vec<KernelInfo> {
        let mut out = Vec::new();
        for (i, f) in self.functions.iter().enumerate() {
            let fid = FuncId(i as u32);
            if !f.is_kernel || f.def_item.is_none() {
                continue;
            }
            let params = f.params.iter().map(|p| self.param_info(*p)).collect();
            let loops = self
                .reachable(fid)
                .iter()
                .flat_map(|g| self.fn_loops.get(g).cloned().unwrap_or_default())
                .collect();
            out.push(KernelInfo {
                name: f.name.clone(),
                location: self.sm.location(f.span),
                params,
                attrs: self.kernel_attrs.get(&fid).cloned().unwrap_or_default(),
                loops,
            });
        }
        out
    }

    fn param_info(&self, p: SymbolId) -> ParamInfo {
        let s = self.sym(p);
        let (kind, space, endian) = match &s.ty {
            Type::Pointer(ptr) => {
                let k = match ptr.space {
                    AddrSpace::Global => "global_buffer",
                    AddrSpace::Constant => "constant_buffer",
                    AddrSpace::Local => "local_buffer",
                    _ => "private_pointer",
                };
                let e = matches!(ptr.space, AddrSpace::Global | AddrSpace::Constant)
                    .then_some(ptr.endian);
                (k, ptr.space, e)
            }
            Type::Scalar(_) | Type::Enum(_) => ("scalar", s.space, None),
            Type::Vector(..) => ("vector", s.space, None),
            Type::Record(_) => ("struct", s.space, None),
            _ => ("other", s.space, None),
        };
        let access = if s.ty.is_pointer() {
            match self.access_of(p, 0) {
                (true, true) => "read_write",
                (true, false) => "read",
                (false, true) => "write",
                (false, false) => "none",
            }
        } else {
            "none"
        };
        ParamInfo {
            name: s.name.clone(),
            ty: self.type_name(&s.ty),
            kind: kind.into(),
            addr_space: space,
            access: access.into(),
            endian,
            max_size: self.max_sizes.get(&p).copied(),
        }
    }
}
