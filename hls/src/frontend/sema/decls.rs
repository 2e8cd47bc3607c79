//! Declarations: typedefs, variables (file scope and local, with their address-space
//! rules and layout attributes), function prototypes and the symbols they declare.

use crate::diag::Span;
use crate::frontend::ast::{DeclSpecs, Declaration, InitDeclarator, StorageClass};
use crate::frontend::types::{AddrSpace, FunctionType, Type};

use super::attrs::{AttrSite, DeclAttrs};
use super::typeres::Resolved;
use super::{Checker, FuncId, FunctionInfo, Symbol, SymbolId, SymbolKind};

impl Checker<'_> {
    /// A declaration at file scope or in a block.
    pub(super) fn declaration(&mut self, d: &Declaration) {
        let Some((base, talign)) = self.base_type(&d.specs) else {
            for id in &d.declarators {
                self.poison(id.declarator.name.as_ref());
            }
            return;
        };
        let is_typedef = matches!(d.specs.storage, Some((StorageClass::Typedef, _)));
        if d.declarators.is_empty() {
            // `struct S { ... };` declares only a tag; attributes at the start belong to no object.
            let mut a = DeclAttrs::default();
            self.decl_attrs(&d.specs.attrs, AttrSite::Record, &mut a);
            return;
        }
        for id in &d.declarators {
            let Some(res) = self.derive(base.clone(), talign, &d.specs, &id.declarator) else {
                self.poison(id.declarator.name.as_ref());
                continue;
            };
            if is_typedef {
                self.typedef(&d.specs, id, res);
            } else if let Type::Function(ft) = &res.ty {
                let ft = (**ft).clone();
                if id.init.is_some() {
                    self.error(
                        id.declarator.span,
                        "illegal initializer for a function declaration",
                    );
                }
                if let Some(fid) = self.declare_function(&d.specs, &id.declarator, ft, None) {
                    // A prototype's attributes are validated here; the definition's are the ones kept.
                    let is_kernel = d.specs.kernel.is_some();
                    let kept = self.kernel_attrs.get(&fid).cloned();
                    self.function_attrs(fid, is_kernel, &d.specs.attrs, &id.declarator.attrs);
                    if let Some(k) = kept {
                        self.kernel_attrs.insert(fid, k);
                    }
                }
            } else {
                self.variable(&d.specs, id, res);
            }
        }
    }

    fn typedef(&mut self, specs: &DeclSpecs, id: &InitDeclarator, res: Resolved) {
        let Some(name) = &id.declarator.name else {
            return;
        };
        let mut a = DeclAttrs::default();
        self.decl_attrs(&specs.attrs, AttrSite::Typedef, &mut a);
        self.decl_attrs(&id.declarator.attrs, AttrSite::Typedef, &mut a);
        if let Some(prev) = self.scopes.lookup_here(&name.name) {
            let p = &self.symbols[prev.0 as usize];
            if !(matches!(p.kind, SymbolKind::Typedef) && p.ty == res.ty) {
                self.error(name.span, format!("redefinition of '{}'", name.name));
            }
            return;
        }
        let natural = self.layout_of(&res.ty).map_or(1, |l| l.align);
        // On a typedef `aligned` may lower the alignment as well as raise it.
        let align = a.aligned.or(res.typedef_align).unwrap_or(natural);
        let s = self.add_symbol(Symbol {
            name: name.name.clone(),
            ty: res.ty,
            kind: SymbolKind::Typedef,
            space: AddrSpace::Private,
            quals: res.quals,
            align,
            span: name.span,
        });
        if a.aligned.is_some() || res.typedef_align.is_some() {
            self.typedef_aligns.insert(s, align);
        }
        self.bind_declarator(id.declarator.id, s);
        self.scopes.declare(&name.name, s);
    }

    /// Applies an `endian` attribute of a declaration to the pointer type it qualifies.
    pub(super) fn apply_endian(&mut self, ty: &mut Type, a: &DeclAttrs) {
        let Some((e, span)) = a.endian else { return };
        match ty {
            Type::Pointer(p) if matches!(p.space, AddrSpace::Global | AddrSpace::Constant) => p.endian = e,
            Type::Pointer(_) => self.error(
                span,
                "the endian attribute applies only to pointers into the __global or __constant address space",
            ),
            _ => self.error(span, "the endian attribute applies only to pointer declarations"),
        }
    }

    fn variable(&mut self, specs: &DeclSpecs, id: &InitDeclarator, mut res: Resolved) {
        let Some(name) = &id.declarator.name else {
            return;
        };
        if name.name == "kernel" || name.name == "__kernel" {
            self.error(
                name.span,
                format!(
                    "'{}' is a function qualifier and cannot be used as an identifier",
                    name.name
                ),
            );
        }
        let mut a = DeclAttrs::default();
        self.decl_attrs(&specs.attrs, AttrSite::Variable, &mut a);
        self.decl_attrs(&id.declarator.attrs, AttrSite::Variable, &mut a);
        self.apply_endian(&mut res.ty, &a);
        let file_scope = self.scopes.at_file_scope();
        let space = self.object_space(res.space, file_scope, specs, name.span);
        if !self.fp16 && Self::is_half_value(&res.ty) {
            self.error(
                name.span,
                "declaring variable of type 'half' is not allowed without '#pragma OPENCL EXTENSION cl_khr_fp16 : enable'",
            );
        }
        if matches!(res.ty, Type::Void) {
            self.error(
                name.span,
                format!("variable '{}' has incomplete type 'void'", name.name),
            );
            return;
        }
        if self.scopes.lookup_here(&name.name).is_some() {
            self.error(name.span, format!("redefinition of '{}'", name.name));
            return;
        }
        let mut quals = res.quals;
        if space == AddrSpace::Constant {
            quals.is_const = true;
        }
        // Declared before its initializer is checked, as in C (`int x = sizeof(x);`).
        let kind = if file_scope || space == AddrSpace::Constant {
            SymbolKind::Global {
                init: id.init.clone(),
            }
        } else {
            SymbolKind::Local
        };
        let sid = self.add_symbol(Symbol {
            name: name.name.clone(),
            ty: res.ty.clone(),
            kind,
            space,
            quals,
            align: 1,
            span: name.span,
        });
        self.bind_declarator(id.declarator.id, sid);
        self.scopes.declare(&name.name, sid);
        self.memory_hints_of(sid, &res.ty, &a);
        match &id.init {
            Some(init) => {
                if space == AddrSpace::Local {
                    self.error(name.span, "'__local' variables cannot have an initializer");
                }
                if let Some(t) = self.initialize(id.declarator.id, &res.ty, init) {
                    res.ty = t;
                }
                if space == AddrSpace::Constant {
                    let exprs = super::constinit::init_exprs(init);
                    self.require_constant_init(id.declarator.id, &exprs);
                }
                self.note_pointer_alias(sid, init);
            }
            None if space == AddrSpace::Constant => self.error(
                name.span,
                format!(
                    "variable '{}' in the __constant address space must be initialized",
                    name.name
                ),
            ),
            None => {}
        }
        let Some(lay) = self.layout_of(&res.ty) else {
            self.error(
                name.span,
                format!(
                    "variable '{}' has incomplete type '{}'",
                    name.name,
                    self.type_name(&res.ty)
                ),
            );
            return;
        };
        let align = a
            .aligned
            .or(res.typedef_align)
            .unwrap_or(if a.packed { 1 } else { lay.align });
        let sym = &mut self.symbols[sid.0 as usize];
        sym.ty = res.ty;
        sym.align = align;
    }

    /// The address space of a variable, with OpenCL C 1.2's placement rules.
    fn object_space(
        &mut self,
        written: Option<AddrSpace>,
        file_scope: bool,
        specs: &DeclSpecs,
        at: crate::diag::Span,
    ) -> AddrSpace {
        let span = specs.addr_space.map_or(at, |s| s.1);
        if file_scope {
            match written {
                Some(AddrSpace::Constant) => {}
                Some(AddrSpace::Global) => self.error(
                    span,
                    "program scope variables in the __global address space need OpenCL C 2.0; use __constant",
                ),
                _ => self.error(span, "program scope variables must be declared in the __constant address space"),
            }
            return AddrSpace::Constant;
        }
        match written {
            None | Some(AddrSpace::Private) => AddrSpace::Private,
            Some(AddrSpace::Local) => {
                if let Some(f) = self.func.as_ref().filter(|f| !f.is_kernel) {
                    // Intel's compiler accepts it and real kernels rely on it; the helper is
                    // inlined, so the array belongs to each kernel that calls it.
                    let name = f.name.clone();
                    self.warning(
                        span,
                        format!(
                            "__local variable in non-kernel function '{name}': OpenCL C 1.2 \
                             (6.5.2) allows __local variables only at kernel function scope; \
                             accepted as Intel's compiler does (each kernel calling '{name}' \
                             gets one such variable, shared by all its calls)"
                        ),
                    );
                } else if self.scopes.depth() > 2 {
                    self.error(
                        span,
                        "variables in the __local address space can only be declared in the outermost scope of a kernel function",
                    );
                }
                AddrSpace::Local
            }
            Some(AddrSpace::Constant) => AddrSpace::Constant,
            Some(s) => {
                self.error(
                    span,
                    format!(
                        "function scope variables cannot be declared in the {} address space",
                        s.name()
                    ),
                );
                AddrSpace::Private
            }
        }
    }

    /// Declares (or re-declares) a function; `def` is the item index of its definition.
    pub(super) fn declare_function(
        &mut self,
        specs: &DeclSpecs,
        d: &crate::frontend::ast::Declarator,
        ft: FunctionType,
        def: Option<usize>,
    ) -> Option<FuncId> {
        let name = d.name.as_ref()?;
        let is_kernel = specs.kernel.is_some();
        if let Some(prev) = self.scopes.lookup(&name.name) {
            if let SymbolKind::Function(fid) = self.symbols[prev.0 as usize].kind {
                let f = &self.functions[fid.0 as usize];
                if f.ty != ft {
                    self.error(name.span, format!("conflicting types for '{}'", name.name));
                    return None;
                }
                if def.is_some() && f.def_item.is_some() {
                    self.error(name.span, format!("redefinition of '{}'", name.name));
                    return None;
                }
                let f = &mut self.functions[fid.0 as usize];
                f.is_kernel |= is_kernel;
                if def.is_some() {
                    f.def_item = def;
                    f.span = name.span;
                }
                self.bind_declarator(d.id, prev);
                return Some(fid);
            }
            if self.scopes.lookup_here(&name.name).is_some() {
                self.error(
                    name.span,
                    format!(
                        "redefinition of '{}' as a different kind of symbol",
                        name.name
                    ),
                );
                return None;
            }
        }
        let fid = FuncId(self.functions.len() as u32);
        let sid = self.add_symbol(Symbol {
            name: name.name.clone(),
            ty: Type::Function(Box::new(ft.clone())),
            kind: SymbolKind::Function(fid),
            space: AddrSpace::Private,
            quals: Default::default(),
            align: 1,
            span: name.span,
        });
        self.functions.push(FunctionInfo {
            name: name.name.clone(),
            symbol: sid,
            ty: ft,
            params: Vec::new(),
            is_kernel,
            def_item: def,
            calls: Default::default(),
            span: name.span,
        });
        self.bind_declarator(d.id, sid);
        self.scopes.declare(&name.name, sid);
        Some(fid)
    }

    /// Declares a name whose declaration was wrong, so its uses draw no further errors.
    pub(super) fn poison(&mut self, name: Option<&crate::frontend::ast::Ident>) {
        let Some(name) = name else { return };
        if self.scopes.lookup_here(&name.name).is_some() {
            return;
        }
        let s = self.add_symbol(Symbol {
            name: name.name.clone(),
            ty: Type::Void,
            kind: SymbolKind::Local,
            space: AddrSpace::Private,
            quals: Default::default(),
            align: 1,
            span: name.span,
        });
        self.poisoned.insert(s);
        self.scopes.declare(&name.name, s);
    }

    pub(super) fn sym(&self, s: SymbolId) -> &Symbol {
        &self.symbols[s.0 as usize]
    }
}

impl Checker<'_> {
    /// Records what `numbanks`, `xcl_array_partition` and `max_replicates` ask of
    /// variable `sid`'s memory. Partitions become banks of the flattened array: a cyclic
    /// one of the innermost dimension when its extent is a multiple of N (element `i` in
    /// bank `i mod N`), a complete one of the innermost dimension or of every dimension
    /// (cyclic by that extent), a block one of the outermost dimension when its extent is
    /// a multiple of N (N runs of consecutive elements). Others are not acted on, with a
    /// warning that says what would be.
    fn memory_hints_of(&mut self, sid: SymbolId, ty: &Type, a: &DeclAttrs) {
        use super::attrs::{Partition, MAX_BANKS};
        let mut hints = a.memory;
        let mut dims = Vec::new();
        let mut t = ty;
        while let Type::Array(e, n) = t {
            dims.push(n.unwrap_or(0));
            t = e;
        }
        let bank = |h: &mut super::MemoryHints, n: u32, m: super::BankMapping| {
            h.banks = Some(h.banks.map_or(n, |b| b.max(n)));
            h.mapping = m;
        };
        let innermost = dims.len().max(1);
        match a.partition {
            Some((Partition::Complete, dim, span)) => {
                let extent = match dim {
                    0 => dims.iter().try_fold(1u64, |p, d| p.checked_mul(*d)),
                    d if d as usize == dims.len() => dims.last().copied(),
                    _ => None,
                };
                match extent {
                    Some(e) if e.is_power_of_two() && e <= MAX_BANKS => {
                        bank(&mut hints, e as u32, super::BankMapping::Cyclic)
                    }
                    _ => self.warning(
                        span,
                        format!(
                            "'xcl_array_partition(complete, {dim})' is not acted on: ocl-hls \
                             partitions completely the innermost dimension (dim {innermost}) \
                             or the whole array (dim 0) when it has a power of two up to \
                             {MAX_BANKS} elements (as cyclic banks)"
                        ),
                    ),
                }
            }
            Some((Partition::Cyclic(n), dim, span)) => {
                if dims.len() as u32 == dim && dims.last().is_some_and(|x| x % n as u64 == 0) {
                    bank(&mut hints, n, super::BankMapping::Cyclic);
                } else {
                    self.warning(
                        span,
                        format!(
                            "'xcl_array_partition(cyclic, {n}, {dim})' is not acted on: \
                             ocl-hls banks an array cyclically along its innermost dimension \
                             (dim {innermost}) when its extent is a multiple of the factor"
                        ),
                    );
                }
            }
            // Blocks of the outermost dimension are runs of consecutive elements of the
            // flattened array; blocks of an inner one interleave and are not.
            Some((Partition::Block(n), dim, span)) => {
                if dim == 1 && dims.first().is_some_and(|x| *x > 0 && x % n as u64 == 0) {
                    bank(&mut hints, n, super::BankMapping::Block);
                } else {
                    self.warning(
                        span,
                        format!(
                            "'xcl_array_partition(block, {n}, {dim})' is not acted on: ocl-hls \
                             banks an array in blocks along its outermost dimension (dim 1) \
                             when its extent is a multiple of the factor (blocks of an inner \
                             dimension are not runs of the flattened array)"
                        ),
                    );
                }
            }
            None => {}
        }
        if let Some((w, span)) = a.bankwidth {
            if self.bankwidth(t, w, span) {
                hints.bankwidth = Some(w as u32);
            }
        }
        if hints == Default::default() {
            return;
        }
        if dims.is_empty() {
            self.warning(
                self.symbols[sid.0 as usize].span,
                "memory attributes (numbanks, max_replicates, xcl_array_partition, bankwidth) \
                 apply to arrays; ignored here",
            );
            return;
        }
        self.memory_hints.insert(sid, hints);
    }

    /// `bankwidth(w)` on memory elements of type `elem`: true when it is the element's
    /// size, which the `memory` stage builds as it stands (a word per whole, aligned
    /// access: the element; the report notes a narrower access that splits it). A wider
    /// or narrower word would change how accesses map to words, which the datapath does
    /// not do: those warn with the reason.
    fn bankwidth(&mut self, elem: &Type, w: u64, span: Span) -> bool {
        let Some(size) = self.layout_of(elem).map(|l| l.size) else {
            return false;
        };
        let why = if w == size && w <= crate::memory::MAX_WORD as u64 {
            return true;
        } else if w > crate::memory::MAX_WORD as u64 {
            format!("the widest RAM word is {} bytes", crate::memory::MAX_WORD)
        } else if w > size {
            format!(
                "a {w}-byte word would hold {} {size}-byte elements, and a store of one \
                 needs the RAM's byte enables, which the datapath does not drive (it \
                 writes whole words)",
                w / size.max(1)
            )
        } else {
            format!(
                "a {w}-byte word would split each {size}-byte element over {} words, one \
                 port cycle each; the RAMs keep an element in one word",
                size / w
            )
        };
        self.warning(
            span,
            format!(
                "'bankwidth({w})' is not acted on: {why} (the build summary's `memory` \
                 lines give the word built)"
            ),
        );
        false
    }
}
