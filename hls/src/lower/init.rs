//! Initializers: a variable's value, an object's initial bytes when its initializer is
//! constant (and the declaration runs at most once), stores for the rest, zeros for the
//! parts of an aggregate its initializer leaves out.

use crate::diag::Span;
use crate::frontend::ast::ExprKind;
use crate::frontend::sema::{InitEntry, SymbolId};
use crate::frontend::types::{AddrSpace, Type};
use crate::ir::{ObjectId, OpKind, Ty};

use super::consts::const_bytes;
use super::types::{align_after, elem, layout};
use super::{Lowerer, Storage, Val, R};

impl Lowerer<'_> {
    /// Runs the initializer of a local variable given storage `st`.
    pub fn init_storage(&mut self, st: Storage, sid: SymbolId, entries: &[InitEntry]) -> R<()> {
        let sym = self.p.symbol(sid);
        let (span, ty, align) = (sym.span, sym.ty.clone(), sym.align);
        match st {
            Storage::Var(var) => {
                let vty = self.k.var(var).ty.clone();
                let whole = entries.len() == 1 && entries[0].offset == 0 && entries[0].ty == ty;
                let v = if whole {
                    let e = self.expr_by_id(entries[0].expr, span)?;
                    self.rvalue(e)?
                } else {
                    self.vector_from_entries(&ty, vty, entries, span)?
                };
                self.write_var(var, &v, span);
                Ok(())
            }
            Storage::Object(o, space) => self.init_object(o, space, align, entries, span),
            Storage::Param(_) => Ok(()),
        }
    }

    /// A vector initialized from a brace list: lanes from their entries, zero elsewhere.
    fn vector_from_entries(
        &mut self,
        ty: &Type,
        vty: Ty,
        entries: &[InitEntry],
        span: Span,
    ) -> R<Val> {
        let esize = elem(ty).map_or(1, |s| s.size() as u64);
        let mut acc = self.konst(vty.clone(), 0, span);
        for en in entries {
            let e = self.expr_by_id(en.expr, span)?;
            let v = self.rvalue(e)?;
            if v.ty == vty {
                acc = v;
                continue;
            }
            let lane = (en.offset / esize) as u8;
            acc = self.op(OpKind::Insert(lane), vty.clone(), span, &[&acc, &v]);
        }
        Ok(acc)
    }

    fn init_object(
        &mut self,
        o: ObjectId,
        space: AddrSpace,
        align: u64,
        entries: &[InitEntry],
        span: Span,
    ) -> R<()> {
        let size = self.k.object(o).size;
        let ptr = self.op(OpKind::ObjectAddr(o), Ty::Ptr(space), span, &[]);
        if self.loop_depth == 0 && space == AddrSpace::Private {
            // Runs at most once per work-item: the constant part becomes initial bytes.
            let mut bytes = vec![0u8; size as usize];
            let mut rest = Vec::new();
            for en in entries {
                match self.entry_bytes(en, span)? {
                    Some(b) => put(&mut bytes, en.offset, &b),
                    None => rest.push(en.clone()),
                }
            }
            // A struct copied whole needs no initial bytes.
            let whole = rest.len() == 1 && rest[0].offset == 0 && self.entry_size(&rest[0]) == size;
            if !whole {
                self.k.objects[o.0 as usize].init = Some(bytes);
            }
            for en in &rest {
                self.store_entry(&ptr, space, align, en, span)?;
            }
            return Ok(());
        }
        let mut covered: Vec<(u64, u64)> = Vec::new();
        for en in entries {
            let n = self.entry_size(en);
            covered.push((en.offset, en.offset + n));
        }
        covered.sort();
        let mut at = 0u64;
        for (lo, hi) in covered {
            if lo > at {
                self.zero_fill(&ptr, space, at, lo - at, align, span)?;
            }
            at = at.max(hi);
        }
        if at < size {
            self.zero_fill(&ptr, space, at, size - at, align, span)?;
        }
        for en in entries {
            self.store_entry(&ptr, space, align, en, span)?;
        }
        Ok(())
    }

    fn entry_size(&self, en: &InitEntry) -> u64 {
        layout(self.p, &en.ty).map_or(0, |l| l.size)
    }

    /// The bytes of an entry whose value is a constant.
    fn entry_bytes(&mut self, en: &InitEntry, span: Span) -> R<Option<Vec<u8>>> {
        let e = self.expr_by_id(en.expr, span)?;
        if let (Type::Array(_, n), ExprKind::StrLit(s)) = (&en.ty, &e.kind) {
            let mut b = s.clone();
            b.push(0);
            b.truncate(n.unwrap_or(b.len() as u64) as usize);
            return Ok(Some(b));
        }
        if en.ty.is_pointer() || matches!(en.ty, Type::Record(_) | Type::Array(..)) {
            return Ok(None);
        }
        Ok(self
            .const_value(e)
            .and_then(|v| const_bytes(&v))
            .map(|mut b| {
                // Never write past the entry's own bytes.
                let n = layout(self.p, &en.ty).map_or(b.len() as u64, |l| l.size) as usize;
                b.truncate(n);
                b
            }))
    }

    fn store_entry(
        &mut self,
        ptr: &Val,
        space: AddrSpace,
        align: u64,
        en: &InitEntry,
        span: Span,
    ) -> R<()> {
        let e = self.expr_by_id(en.expr, span)?;
        let dst = self.ptr_add_const(ptr, en.offset as i64, span);
        let a = align_after(align, en.offset);
        if let (Type::Array(..), ExprKind::StrLit(_)) = (&en.ty, &e.kind) {
            let bytes = self.entry_bytes(en, span)?.unwrap_or_default();
            for (i, b) in bytes.iter().enumerate() {
                let d = self.ptr_add_const(&dst, i as i64, span);
                let c = self.konst(Ty::I(8), *b as u64, span);
                self.effect(
                    OpKind::Store {
                        space,
                        base: None,
                        align: 1,
                    },
                    span,
                    &[&d, &c],
                );
            }
            return Ok(());
        }
        let v = self.rvalue(e)?;
        self.store_typed(&dst, space, &en.ty, &v, a, e.span)
    }

    /// The bytes of a `__constant` variable: every entry must be a constant.
    pub fn const_init_bytes(&mut self, size: u64, entries: &[InitEntry], span: Span) -> R<Vec<u8>> {
        let mut bytes = vec![0u8; size as usize];
        for en in entries {
            match self.entry_bytes(en, span)? {
                Some(b) => put(&mut bytes, en.offset, &b),
                None => {
                    let at = self.expr_by_id(en.expr, span)?.span;
                    return self.fail(
                        at,
                        "the initializer of a __constant variable must be a constant expression",
                    );
                }
            }
        }
        Ok(bytes)
    }
}

fn put(bytes: &mut [u8], offset: u64, b: &[u8]) {
    for (i, x) in b.iter().enumerate() {
        if let Some(slot) = bytes.get_mut(offset as usize + i) {
            *slot = *x;
        }
    }
}
