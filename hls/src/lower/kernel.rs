//! The kernel-level driver: parameters, the storage of every variable (a `Var`, or an
//! `Object` for aggregates and address-taken variables), `__constant` tables, and the
//! body of the kernel.

use crate::diag::{Diagnostics, SourceMap, Span};
use crate::frontend::ast::{Declaration, Item};
use crate::frontend::sema::{FuncId, Program, SymbolId, SymbolKind};
use crate::frontend::types::{AddrSpace, Type};
use crate::ir::{Kernel, Object, ObjectId, OpKind, Param, ParamKind, Ty};

use super::types::{ir_ty, is_aggregate, layout};
use super::{bases, scan, Frame, Lowerer, Storage, R};

/// Lowers one kernel function (and every function it calls, inlined).
pub fn lower_kernel(p: &Program, sm: &SourceMap, fid: FuncId) -> Result<Kernel, Diagnostics> {
    let f = p.function(fid);
    let attrs = p
        .kernel(&f.name)
        .map(|k| k.attrs.clone())
        .unwrap_or_default();
    let mut l = Lowerer::new(p, sm, Kernel::new(&f.name, f.span, attrs));
    l.open_region();
    let done = l.kernel_body(fid);
    let body = l.close_region();
    if done.is_err() || l.diags.has_errors() {
        return Err(l.diags);
    }
    l.k.body = body;
    bases::resolve(&mut l.k);
    Ok(l.k)
}

impl Lowerer<'_> {
    fn kernel_body(&mut self, fid: FuncId) -> R<()> {
        let f = self.p.function(fid);
        let Some(Item::Function(def)) = f.def_item.and_then(|i| self.p.ast.items.get(i)) else {
            return self.fail(f.span, format!("kernel '{}' has no body", f.name));
        };
        let facts = self.facts_of(fid, &def.body);
        let mut frame = Frame {
            func: fid,
            syms: Default::default(),
            ret: None,
            once: None,
            top: true,
        };
        for (i, &sid) in f.params.iter().enumerate() {
            let st = self.kernel_param(i as u32, sid, &facts)?;
            frame.syms.insert(sid, st);
        }
        self.frames.push(frame);
        let r = self.stmt(&def.body);
        self.frames.pop();
        r
    }

    /// The facts of a function body, scanned once per kernel.
    pub fn facts_of(&mut self, fid: FuncId, body: &crate::frontend::ast::Stmt) -> scan::FnFacts {
        if let Some(f) = self.facts.get(&fid) {
            return f.clone();
        }
        let f = scan::scan_body(self.p, body);
        self.facts.insert(fid, f.clone());
        f
    }

    fn kernel_param(&mut self, index: u32, sid: SymbolId, facts: &scan::FnFacts) -> R<Storage> {
        let sym = self.p.symbol(sid);
        let span = sym.span;
        let (ty, kind) = match &sym.ty {
            Type::Pointer(ptr) => match ptr.space {
                AddrSpace::Global | AddrSpace::Constant => (Ty::Ptr(ptr.space), ParamKind::Buffer { space: ptr.space }),
                AddrSpace::Local => (Ty::Ptr(AddrSpace::Local), ParamKind::LocalBuffer),
                _ => return self.fail(span, "kernel pointer parameters must point into __global, __constant or __local memory"),
            },
            Type::Record(_) => {
                let o = self.new_object(&sym.name, &sym.ty, AddrSpace::Private, sym.align, span)?;
                self.k.params.push(Param {
                    name: sym.name.clone(),
                    ty: Ty::Ptr(AddrSpace::Private),
                    kind: ParamKind::Struct { object: o },
                    span,
                });
                return Ok(Storage::Object(o, AddrSpace::Private));
            }
            t => match ir_ty(t) {
                Some(ty) => (ty, ParamKind::Value),
                None => return self.fail(span, format!("kernel parameter '{}' has a type hardware cannot take", sym.name)),
            },
        };
        self.k.params.push(Param {
            name: sym.name.clone(),
            ty: ty.clone(),
            kind,
            span,
        });
        if !facts.addr_taken.contains(&sid) && !facts.assigned.contains(&sid) {
            return Ok(Storage::Param(index));
        }
        let v = self.op(OpKind::Param(index), ty, span, &[]);
        self.bind_value(sid, &v)
    }

    /// Gives a parameter (of the kernel or of an inlined function) fresh storage holding `v`.
    pub fn bind_value(&mut self, sid: SymbolId, v: &super::Val) -> R<Storage> {
        let sym = self.p.symbol(sid);
        let span = sym.span;
        let st = self.new_storage(sid)?;
        match st {
            Storage::Var(var) => self.write_var(var, v, span),
            Storage::Object(o, space) => {
                let ptr = self.op(OpKind::ObjectAddr(o), Ty::Ptr(space), span, &[]);
                let ty = sym.ty.clone();
                self.store_typed(&ptr, space, &ty, v, sym.align, span)?;
            }
            Storage::Param(_) => {}
        }
        Ok(st)
    }

    /// Storage for a new instance of a local variable or parameter of the current frame
    /// (or of the frame about to be pushed, whose function is `func`).
    pub fn new_storage(&mut self, sid: SymbolId) -> R<Storage> {
        let sym = self.p.symbol(sid);
        let taken = self.taken_in_any_frame(sid);
        if sym.space == AddrSpace::Private && !taken && !is_aggregate(&sym.ty) {
            if let Some(ty) = ir_ty(&sym.ty) {
                return Ok(Storage::Var(self.k.new_var(&sym.name, ty, sym.span)));
            }
        }
        if sym.space == AddrSpace::Local {
            if let Some(o) = self.locals.get(&sid) {
                return Ok(Storage::Object(*o, AddrSpace::Local));
            }
            let o = self.new_object(&sym.name, &sym.ty, AddrSpace::Local, sym.align, sym.span)?;
            self.k.objects[o.0 as usize].hints = self.hints_of(sid);
            self.locals.insert(sid, o);
            return Ok(Storage::Object(o, AddrSpace::Local));
        }
        let o = self.new_object(&sym.name, &sym.ty, AddrSpace::Private, sym.align, sym.span)?;
        self.k.objects[o.0 as usize].hints = self.hints_of(sid);
        Ok(Storage::Object(o, AddrSpace::Private))
    }

    /// What symbol `sid`'s memory attributes ask of its RAM.
    fn hints_of(&self, sid: SymbolId) -> crate::frontend::sema::MemoryHints {
        self.p.memory_hints.get(&sid).copied().unwrap_or_default()
    }

    fn taken_in_any_frame(&self, sid: SymbolId) -> bool {
        self.facts.values().any(|f| f.addr_taken.contains(&sid))
    }

    pub fn new_object(
        &mut self,
        name: &str,
        ty: &Type,
        space: AddrSpace,
        align: u64,
        span: Span,
    ) -> R<ObjectId> {
        let Some(l) = layout(self.p, ty) else {
            return self.fail(span, format!("'{name}' has a type of unknown size"));
        };
        Ok(self.k.new_object(Object {
            name: name.to_string(),
            space,
            size: l.size,
            align: align.max(1),
            init: None,
            span,
            hints: Default::default(),
        }))
    }

    /// Where a symbol lives in the current frame (creating `__constant` objects on first use).
    pub fn lookup(&self, sid: SymbolId) -> Option<Storage> {
        if let Some(s) = self.frame().and_then(|f| f.syms.get(&sid)) {
            return Some(*s);
        }
        self.globals
            .get(&sid)
            .map(|o| Storage::Object(*o, AddrSpace::Constant))
    }

    /// Like [`Self::lookup`], creating the object of a program-scope `__constant` variable.
    pub fn storage(&mut self, sid: SymbolId, span: Span) -> R<Storage> {
        if let Some(s) = self.lookup(sid) {
            return Ok(s);
        }
        let sym = self.p.symbol(sid);
        if matches!(sym.kind, SymbolKind::Global { .. }) {
            let o = self.constant_object(sid)?;
            return Ok(Storage::Object(o, AddrSpace::Constant));
        }
        self.fail(
            span,
            format!("'{}' is used before its declaration was lowered", sym.name),
        )
    }

    /// A `__constant` variable (program scope or function scope): an object whose bytes
    /// are its evaluated initializer.
    pub fn constant_object(&mut self, sid: SymbolId) -> R<ObjectId> {
        if let Some(o) = self.globals.get(&sid) {
            return Ok(*o);
        }
        let sym = self.p.symbol(sid);
        let o = self.new_object(&sym.name, &sym.ty, AddrSpace::Constant, sym.align, sym.span)?;
        let size = self.k.object(o).size;
        let decl = self.p.decl_symbols.iter().position(|s| *s == Some(sid));
        let entries = decl
            .and_then(|d| {
                self.p
                    .inits
                    .get(&crate::frontend::ast::DeclaratorId(d as u32))
            })
            .cloned()
            .unwrap_or_default();
        let bytes = self.const_init_bytes(size, &entries, sym.span)?;
        self.k.objects[o.0 as usize].init = Some(bytes);
        self.globals.insert(sid, o);
        Ok(o)
    }

    /// A declaration statement: storage for each variable, then its initializer.
    pub fn declaration(&mut self, d: &Declaration) -> R<()> {
        for id in &d.declarators {
            let Some(sid) = self.p.symbol_of(id.declarator.id) else {
                continue;
            };
            let sym = self.p.symbol(sid);
            match sym.kind {
                SymbolKind::Local => {}
                SymbolKind::Global { .. } => {
                    // A function-scope `__constant` variable is a program-wide table.
                    let o = self.constant_object(sid)?;
                    if let Some(f) = self.frames.last_mut() {
                        f.syms.insert(sid, Storage::Object(o, AddrSpace::Constant));
                    }
                    continue;
                }
                _ => continue,
            }
            let st = self.new_storage(sid)?;
            if let Some(f) = self.frames.last_mut() {
                f.syms.insert(sid, st);
            }
            if id.init.is_some() {
                let entries = self
                    .p
                    .inits
                    .get(&id.declarator.id)
                    .cloned()
                    .unwrap_or_default();
                self.init_storage(st, sid, &entries)?;
            }
        }
        Ok(())
    }
}
