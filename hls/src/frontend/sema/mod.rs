//! The semantic checker: resolves names and types, applies OpenCL C's conversion rules,
//! validates attributes and lays out records, and records what it learned in a [`Program`].

mod access;
mod assign;
mod attrs;
mod calls;
pub mod consteval;
mod constinit;
pub mod conv;
mod decls;
mod expr;
mod expr_cast;
mod expr_ops;
mod functions;
mod init;
mod kernel_attrs;
mod loop_attrs;
mod program;
mod records;
mod scope;
mod stmts;
pub mod summary;
pub mod swizzle;
mod typeres;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_clang;
#[cfg(test)]
mod tests_decls;
#[cfg(test)]
mod tests_rules;

use std::collections::HashMap;

use crate::diag::{Diagnostics, SourceMap, Span};
use crate::frontend::ast::{DeclaratorId, Expr, Ident, Item, StmtId, TranslationUnit};
use crate::frontend::types::{AddrSpace, Quals, Scalar, Type};

pub use program::*;
pub use summary::{
    BankMapping, IvdepInfo, KernelAttrs, KernelInfo, LoopHints, LoopInfo, MemoryHints, ParamInfo,
    UnrollInfo,
};

#[derive(Clone, Debug)]
pub struct SemaOptions {
    /// Device limit for `max_size(N)` on __local/__constant pointer parameters (bytes);
    /// 64 KiB by default, boards may set it.
    pub max_local_bytes: u64,
}

impl Default for SemaOptions {
    fn default() -> Self {
        SemaOptions {
            max_local_bytes: 65536,
        }
    }
}

/// Checks a translation unit. Always returns a Program (possibly partial); errors and
/// warnings go to `diags`.
pub fn check(
    tu: TranslationUnit,
    sm: &SourceMap,
    opts: &SemaOptions,
    diags: &mut Diagnostics,
) -> Program {
    let mut c = Checker::new(sm, opts, diags, &tu);
    c.predefine_typedefs();
    for (i, item) in tu.items.iter().enumerate() {
        match item {
            Item::Function(f) => c.function_def(i, f),
            Item::Decl(d) => c.declaration(d),
            Item::Pragma(p) => c.pragma(p, None),
        }
    }
    c.check_recursion();
    let kernels = c.kernel_summaries(&tu);
    c.into_program(tu, kernels)
}

/// What the checker tracks while inside a function body.
struct FnCtx {
    id: FuncId,
    name: String,
    ret: Type,
    is_kernel: bool,
    loops: u32,
    switches: Vec<stmts::SwitchCtx>,
    labels: HashMap<String, Span>,
    gotos: Vec<Ident>,
}

/// The checker's working state; becomes the [`Program`] at the end.
struct Checker<'a> {
    sm: &'a SourceMap,
    opts: &'a SemaOptions,
    diags: &'a mut Diagnostics,
    scopes: scope::Scopes,
    symbols: Vec<Symbol>,
    decl_symbols: Vec<Option<SymbolId>>,
    exprs: Vec<ExprInfo>,
    records: Vec<RecordInfo>,
    enums: Vec<EnumInfo>,
    functions: Vec<FunctionInfo>,
    inits: HashMap<DeclaratorId, Vec<InitEntry>>,
    loop_hints: HashMap<StmtId, LoopHints>,
    /// Memory-shaping attributes of variables.
    memory_hints: HashMap<SymbolId, MemoryHints>,
    fp_contract: Vec<(Span, FpContract)>,
    /// `cl_khr_fp16` is enabled at this point of the source.
    fp16: bool,
    func: Option<FnCtx>,
    /// Loops found in each function, by `FuncId`.
    fn_loops: HashMap<FuncId, Vec<LoopInfo>>,
    kernel_attrs: HashMap<FuncId, KernelAttrs>,
    /// Names whose declaration had an error: uses are silently typeless.
    poisoned: std::collections::HashSet<SymbolId>,
    /// `max_size(N)` of parameters.
    max_sizes: HashMap<SymbolId, u64>,
    /// Alignment of typedefs declared with `aligned`.
    typedef_aligns: HashMap<SymbolId, u64>,
    access: access::AccessFacts,
    /// Every call to a user function: (caller, callee, call expression span).
    call_sites: Vec<(FuncId, FuncId, Span)>,
}

impl<'a> Checker<'a> {
    fn new(
        sm: &'a SourceMap,
        opts: &'a SemaOptions,
        diags: &'a mut Diagnostics,
        tu: &TranslationUnit,
    ) -> Self {
        Checker {
            sm,
            opts,
            diags,
            scopes: scope::Scopes::default(),
            symbols: Vec::new(),
            decl_symbols: vec![None; tu.declarator_count as usize],
            exprs: vec![ExprInfo::default(); tu.expr_count as usize],
            records: Vec::new(),
            enums: Vec::new(),
            functions: Vec::new(),
            inits: HashMap::new(),
            loop_hints: HashMap::new(),
            memory_hints: HashMap::new(),
            fp_contract: Vec::new(),
            fp16: false,
            func: None,
            fn_loops: HashMap::new(),
            kernel_attrs: HashMap::new(),
            max_sizes: HashMap::new(),
            poisoned: Default::default(),
            typedef_aligns: HashMap::new(),
            access: access::AccessFacts::default(),
            call_sites: Vec::new(),
        }
    }

    fn into_program(self, ast: TranslationUnit, kernels: Vec<KernelInfo>) -> Program {
        Program {
            ast,
            symbols: self.symbols,
            decl_symbols: self.decl_symbols,
            exprs: self.exprs,
            records: self.records,
            enums: self.enums,
            functions: self.functions,
            inits: self.inits,
            kernels,
            loop_hints: self.loop_hints,
            memory_hints: self.memory_hints,
            fp_contract: self.fp_contract,
        }
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.error(span, msg);
    }

    fn warning(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.warning(span, msg);
    }

    /// The side-table entry of an expression (grown on demand so a bad id cannot panic).
    fn info(&mut self, e: &Expr) -> &mut ExprInfo {
        let i = e.id.0 as usize;
        if i >= self.exprs.len() {
            self.exprs.resize(i + 1, ExprInfo::default());
        }
        &mut self.exprs[i]
    }

    fn info_ref(&self, e: &Expr) -> Option<&ExprInfo> {
        self.exprs.get(e.id.0 as usize)
    }

    fn value_of(&self, e: &Expr) -> Option<i128> {
        self.info_ref(e).and_then(|i| i.value)
    }

    fn add_symbol(&mut self, sym: Symbol) -> SymbolId {
        self.symbols.push(sym);
        SymbolId(self.symbols.len() as u32 - 1)
    }

    fn bind_declarator(&mut self, d: DeclaratorId, s: SymbolId) {
        let i = d.0 as usize;
        if i >= self.decl_symbols.len() {
            self.decl_symbols.resize(i + 1, None);
        }
        self.decl_symbols[i] = Some(s);
    }

    /// `size_t` and friends, and the OpenCL 2.0 atomic types, which are plain scalars here.
    fn predefine_typedefs(&mut self) {
        let defs = [
            ("size_t", Scalar::ULong),
            ("uintptr_t", Scalar::ULong),
            ("ptrdiff_t", Scalar::Long),
            ("intptr_t", Scalar::Long),
            ("atomic_int", Scalar::Int),
            ("atomic_uint", Scalar::UInt),
            ("atomic_long", Scalar::Long),
            ("atomic_ulong", Scalar::ULong),
            ("atomic_float", Scalar::Float),
            ("atomic_double", Scalar::Double),
            ("atomic_flag", Scalar::Int),
            ("atomic_size_t", Scalar::ULong),
            ("cl_mem_fence_flags", Scalar::UInt),
            ("memory_order", Scalar::Int),
            ("memory_scope", Scalar::Int),
        ];
        for (name, s) in defs {
            let id = self.add_symbol(Symbol {
                name: name.to_string(),
                ty: Type::Scalar(s),
                kind: SymbolKind::Typedef,
                space: AddrSpace::Private,
                quals: Quals::default(),
                align: s.size() as u64,
                span: Span::default(),
            });
            self.scopes.declare(name, id);
        }
    }

    /// Size and alignment of a type, with the records defined so far.
    fn layout_of(&self, ty: &Type) -> Option<crate::frontend::layout::Layout> {
        let recs = |r: crate::frontend::types::RecordId| {
            self.records
                .get(r.0 as usize)
                .filter(|i| i.complete)
                .map(|i| crate::frontend::layout::Layout {
                    size: i.size,
                    align: i.align,
                })
        };
        crate::frontend::layout::type_layout(ty, &recs)
    }

    /// The spelling of a type for messages and summaries (`struct rec`, not `record#0`).
    fn type_name(&self, ty: &Type) -> String {
        match ty {
            Type::Record(r) => match self.records.get(r.0 as usize) {
                Some(info) => {
                    let kw = match info.kind {
                        crate::frontend::ast::RecordKind::Struct => "struct",
                        crate::frontend::ast::RecordKind::Union => "union",
                    };
                    format!("{kw} {}", info.name.as_deref().unwrap_or("<anonymous>"))
                }
                None => ty.to_string(),
            },
            Type::Enum(e) => match self.enums.get(e.0 as usize) {
                Some(info) => format!("enum {}", info.name.as_deref().unwrap_or("<anonymous>")),
                None => ty.to_string(),
            },
            Type::Pointer(p) => {
                let c = if p.pointee_quals.is_const {
                    "const "
                } else {
                    ""
                };
                format!("{} {}{} *", p.space.name(), c, self.type_name(&p.pointee))
            }
            Type::Array(t, Some(n)) => format!("{}[{}]", self.type_name(t), n),
            Type::Array(t, None) => format!("{}[]", self.type_name(t)),
            _ => ty.to_string(),
        }
    }

    /// Whether a type is, or contains as a value, `half` (pointers to half are fine).
    fn is_half_value(ty: &Type) -> bool {
        match ty {
            Type::Scalar(Scalar::Half) | Type::Vector(Scalar::Half, _) => true,
            Type::Array(t, _) => Self::is_half_value(t),
            _ => false,
        }
    }
}
