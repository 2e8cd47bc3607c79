//! The checked program: the AST plus the side tables later stages (lowering, the
//! interpreter) read: symbols, per-expression facts, records, functions, kernels, loops.

use std::collections::{BTreeSet, HashMap};

use crate::diag::Span;
use crate::frontend::ast::{
    DeclaratorId, ExprId, Initializer, RecordKind, StmtId, TranslationUnit,
};
use crate::frontend::builtins::BuiltinSig;
use crate::frontend::types::{AddrSpace, EnumId, FunctionType, Quals, RecordId, Type};

use super::summary::{KernelInfo, LoopHints};

/// Index into [`Program::symbols`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymbolId(pub u32);

/// Index into [`Program::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);

#[derive(Clone, Debug)]
pub enum SymbolKind {
    /// A file-scope `__constant` variable and its initializer.
    Global {
        init: Option<Initializer>,
    },
    Local,
    /// The `index`th parameter of its function.
    Param {
        index: u32,
    },
    Function(FuncId),
    Typedef,
    EnumConst(i64),
}

#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    pub ty: Type,
    pub kind: SymbolKind,
    /// Where the object lives (`__private` for functions, typedefs and enum constants).
    pub space: AddrSpace,
    pub quals: Quals,
    /// Alignment of the object after `aligned`/`packed` (the type's alignment otherwise).
    pub align: u64,
    pub span: Span,
}

/// Which function a call goes to.
#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    User(FuncId),
    Builtin(BuiltinSig),
}

/// What the checker learned about one expression.
#[derive(Clone, Debug, Default)]
pub struct ExprInfo {
    /// `None` after an error in the expression (follow-on errors are suppressed).
    pub ty: Option<Type>,
    pub lvalue: bool,
    /// The address space of the object an lvalue designates.
    pub space: Option<AddrSpace>,
    /// The lvalue designates a const object (assignments to it are errors).
    pub is_const: bool,
    /// The symbol an identifier names.
    pub symbol: Option<SymbolId>,
    /// The implicit conversion applied where the value is used: the target type. An array
    /// converted to a pointer is decay; a scalar converted to a vector type is converted
    /// to the element type, then replicated; `bool` means "compared against zero".
    /// In `a op= b` the conversion on `a` is to the type the operation is computed in (the
    /// result converts back to `a`'s type). A scalar shift count keeps its own type.
    pub conv: Option<Type>,
    pub callee: Option<Callee>,
    /// Lanes selected by a vector member access (`.wzyx` is `[3, 2, 1, 0]`).
    pub swizzle: Option<Vec<u8>>,
    /// The value of an integer constant expression, already wrapped to its type.
    pub value: Option<i128>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    pub name: Option<String>,
    pub ty: Type,
    /// Byte offset; for bit-fields the byte holding the first bit.
    pub offset: u64,
    pub align: u64,
    /// Bit-fields: the first bit inside the byte at `offset` (LSB first) and the width.
    pub bit_offset: Option<u32>,
    pub bit_width: Option<u32>,
}

#[derive(Clone, Debug)]
pub struct RecordInfo {
    pub name: Option<String>,
    pub kind: RecordKind,
    pub fields: Vec<FieldInfo>,
    pub size: u64,
    pub align: u64,
    /// False for a forward declaration never completed.
    pub complete: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct EnumInfo {
    pub name: Option<String>,
    pub variants: Vec<(String, i64)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FunctionInfo {
    pub name: String,
    pub symbol: SymbolId,
    pub ty: FunctionType,
    /// Parameter symbols of the definition (empty for a prototype never defined).
    pub params: Vec<SymbolId>,
    pub is_kernel: bool,
    /// Index in `ast.items` of the definition.
    pub def_item: Option<usize>,
    pub calls: BTreeSet<FuncId>,
    pub span: Span,
}

/// One store of an initializer: the object is zero-filled first, then each entry writes
/// the (converted) value of `expr` at byte `offset` as type `ty`.
#[derive(Clone, Debug, PartialEq)]
pub struct InitEntry {
    pub offset: u64,
    pub ty: Type,
    pub expr: ExprId,
}

/// State of `#pragma OPENCL FP_CONTRACT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FpContract {
    On,
    Off,
    Default,
}

#[derive(Debug)]
pub struct Program {
    pub ast: TranslationUnit,
    pub symbols: Vec<Symbol>,
    /// Indexed by `DeclaratorId`.
    pub decl_symbols: Vec<Option<SymbolId>>,
    /// Indexed by `ExprId`.
    pub exprs: Vec<ExprInfo>,
    pub records: Vec<RecordInfo>,
    pub enums: Vec<EnumInfo>,
    pub functions: Vec<FunctionInfo>,
    /// Flattened initializers of variables, by declarator.
    pub inits: HashMap<DeclaratorId, Vec<InitEntry>>,
    pub kernels: Vec<KernelInfo>,
    pub loop_hints: HashMap<StmtId, LoopHints>,
    /// Memory-shaping attributes of variables (`numbanks`, `max_replicates`, ...).
    pub memory_hints: HashMap<SymbolId, super::summary::MemoryHints>,
    /// Each `FP_CONTRACT` pragma in source order: where it stands and the state it sets.
    pub fp_contract: Vec<(Span, FpContract)>,
}

impl Program {
    pub fn expr(&self, id: ExprId) -> &ExprInfo {
        static EMPTY: ExprInfo = ExprInfo {
            ty: None,
            lvalue: false,
            space: None,
            is_const: false,
            symbol: None,
            conv: None,
            callee: None,
            swizzle: None,
            value: None,
        };
        self.exprs.get(id.0 as usize).unwrap_or(&EMPTY)
    }

    pub fn symbol(&self, id: SymbolId) -> &Symbol {
        &self.symbols[id.0 as usize]
    }

    pub fn symbol_of(&self, d: DeclaratorId) -> Option<SymbolId> {
        self.decl_symbols.get(d.0 as usize).copied().flatten()
    }

    pub fn record(&self, id: RecordId) -> Option<&RecordInfo> {
        self.records.get(id.0 as usize)
    }

    pub fn enum_info(&self, id: EnumId) -> Option<&EnumInfo> {
        self.enums.get(id.0 as usize)
    }

    pub fn function(&self, id: FuncId) -> &FunctionInfo {
        &self.functions[id.0 as usize]
    }

    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
    }

    pub fn kernel(&self, name: &str) -> Option<&KernelInfo> {
        self.kernels.iter().find(|k| k.name == name)
    }
}
