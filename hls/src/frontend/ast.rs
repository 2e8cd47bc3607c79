//! The syntax tree the parser builds. It records what was written, attributes included, in
//! the places they were written; the checker (`sema`) gives it meaning through side tables
//! keyed by [`ExprId`] and [`StmtId`].

use crate::diag::Span;
use crate::frontend::token::Token;
use crate::frontend::types::{AddrSpace, Scalar};

/// Dense index of an expression: every `Expr` the parser creates gets the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub u32);

/// Dense index of a statement: every `Stmt` the parser creates gets the next one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StmtId(pub u32);

/// Dense index of a declarator (variable, parameter, function, typedef, field):
/// the checker maps it to the symbol it declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeclaratorId(pub u32);

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TranslationUnit {
    pub items: Vec<Item>,
    /// How many ids were handed out, so side tables can be sized up front.
    pub expr_count: u32,
    pub stmt_count: u32,
    pub declarator_count: u32,
}

/// Items are few per file: boxing the large variant would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Item {
    Function(FunctionDef),
    /// Globals (`__constant` tables), typedefs, struct/enum declarations, prototypes.
    Decl(Declaration),
    /// A file-scope `#pragma` (`OPENCL FP_CONTRACT OFF`, `OPENCL EXTENSION cl_khr_fp16 : enable`).
    Pragma(Pragma),
}

#[derive(Clone, Debug)]
pub struct Pragma {
    /// The tokens after `pragma`.
    pub tokens: Vec<Token>,
    pub span: Span,
}

impl Pragma {
    /// The pragma's words, e.g. `["unroll", "4"]`, `["OPENCL", "FP_CONTRACT", "OFF"]`.
    pub fn words(&self) -> Vec<String> {
        self.tokens.iter().map(|t| t.text()).collect()
    }
}

// ---------------------------------------------------------------- attributes

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrSyntax {
    /// `__attribute__((name(args)))`
    Gnu,
    /// `[[ns::name(args)]]`; `namespace` is `Some("cl")` for `[[cl::...]]`.
    Cxx11,
}

#[derive(Clone, Debug)]
pub struct Attribute {
    pub syntax: AttrSyntax,
    /// `cl` in `[[cl::ivdep]]`, `intel` in `[[intel::ivdep]]`; `None` for GNU attributes.
    pub namespace: Option<String>,
    /// The name with GNU's optional `__x__` underscores removed (`__aligned__` is `aligned`).
    pub name: String,
    pub name_span: Span,
    /// `None` when written without parentheses (`aligned`, `ivdep`, `opencl_unroll_hint`).
    pub args: Option<Vec<AttrArg>>,
    /// The whole attribute, name through closing parenthesis.
    pub span: Span,
}

#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum AttrArg {
    Expr(Expr),
    /// A type argument, as in `vec_type_hint(float4)`.
    Type(TypeName),
}

// ---------------------------------------------------------------- declarations

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageClass {
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessQual {
    ReadOnly,
    WriteOnly,
    ReadWrite,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TypeQuals {
    pub is_const: bool,
    pub is_volatile: bool,
    pub is_restrict: bool,
}

/// Declaration specifiers: everything before the declarators.
#[derive(Clone, Debug)]
pub struct DeclSpecs {
    pub storage: Option<(StorageClass, Span)>,
    /// `__kernel` / `kernel` was written (its span).
    pub kernel: Option<Span>,
    pub inline: bool,
    pub quals: TypeQuals,
    pub addr_space: Option<(AddrSpace, Span)>,
    pub access: Option<(AccessQual, Span)>,
    pub ty: TypeSpec,
    /// GNU attributes written among the specifiers, e.g. before `struct` or after
    /// `__kernel`. By the OpenCL placement rule these qualify the declared entity (the
    /// variable or function), not a struct type defined here.
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TypeSpec {
    Void,
    /// `int`, `unsigned char`, `uint`, `size_t` is NOT here (it is a typedef name).
    Scalar(Scalar, Span),
    Vector(Scalar, u8, Span),
    /// A typedef name, including the predefined `size_t`, `ptrdiff_t`, ...
    Named(Ident),
    Record(Box<RecordSpec>),
    Enum(Box<EnumSpec>),
    /// `event_t`, `sampler_t`, `image2d_t`, ...
    Opaque(&'static str, Span),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    Struct,
    Union,
}

#[derive(Clone, Debug)]
pub struct RecordSpec {
    pub kind: RecordKind,
    pub name: Option<Ident>,
    /// `None` for a reference (`struct S x;`), `Some` when the body is written here.
    pub fields: Option<Vec<FieldDecl>>,
    /// Attributes between the keyword and the name or body (`struct __attribute__((packed)) {`):
    /// these qualify the type.
    pub attrs_inside: Vec<Attribute>,
    /// Attributes right after the closing brace: these qualify the type.
    pub attrs_after: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FieldDecl {
    pub specs: DeclSpecs,
    /// Each declarator with its bit-field width, if any.
    pub declarators: Vec<(Declarator, Option<Expr>)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct EnumSpec {
    pub name: Option<Ident>,
    pub variants: Option<Vec<(Ident, Option<Expr>)>>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

/// A declarator: the declared name and the pointer/array/function derivations around it.
#[derive(Clone, Debug)]
pub struct Declarator {
    pub id: DeclaratorId,
    /// `None` in abstract declarators (type names, unnamed parameters).
    pub name: Option<Ident>,
    /// Derivations in the order they apply to the base type: `int *a[3]` is
    /// `[Pointer, Array(3)]` (array of pointers); `int (*p)[3]` is `[Array(3), Pointer]`.
    pub derived: Vec<Derived>,
    /// Attributes after the declarator (`int x[2] __attribute__((packed))`,
    /// `__global int *p __attribute__((endian(host)))`) and C++11 attributes written
    /// before a parameter (`[[cl::max_size(N)]] __local int *p`): these qualify the entity.
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Derived {
    Pointer {
        quals: TypeQuals,
        /// An address space written after the `*` (`int * __global p`): the pointer itself lives there.
        addr_space: Option<AddrSpace>,
        attrs: Vec<Attribute>,
        span: Span,
    },
    Array {
        size: Option<Expr>,
        span: Span,
    },
    Function {
        params: Vec<ParamDecl>,
        variadic: bool,
        span: Span,
    },
}

#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub specs: DeclSpecs,
    pub declarator: Declarator,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Declaration {
    pub specs: DeclSpecs,
    pub declarators: Vec<InitDeclarator>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct InitDeclarator {
    pub declarator: Declarator,
    pub init: Option<Initializer>,
}

#[derive(Clone, Debug)]
pub enum Initializer {
    Expr(Expr),
    /// `{ a, .f = b, [2] = c, { ... } }`
    List(Vec<(Vec<Designator>, Initializer)>, Span),
}

#[derive(Clone, Debug)]
pub enum Designator {
    Field(Ident),
    Index(Expr),
}

#[derive(Clone, Debug)]
pub struct TypeName {
    pub specs: DeclSpecs,
    /// An abstract declarator (no name).
    pub declarator: Declarator,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FunctionDef {
    pub specs: DeclSpecs,
    /// Its last derivation is `Derived::Function`.
    pub declarator: Declarator,
    pub body: Stmt,
    pub span: Span,
}

impl FunctionDef {
    pub fn name(&self) -> &str {
        self.declarator
            .name
            .as_ref()
            .map(|i| i.name.as_str())
            .unwrap_or("")
    }

    pub fn params(&self) -> &[ParamDecl] {
        match self.declarator.derived.last() {
            Some(Derived::Function { params, .. }) => params,
            _ => &[],
        }
    }
}

// ---------------------------------------------------------------- statements

#[derive(Clone, Debug)]
pub struct Stmt {
    pub id: StmtId,
    pub kind: StmtKind,
    pub span: Span,
    /// Statement attributes written before it (`__attribute__((opencl_unroll_hint(4)))`,
    /// `[[cl::ivdep(8)]]`, `__attribute__((xcl_pipeline_loop))`).
    pub attrs: Vec<Attribute>,
    /// `#pragma` lines directly before it (`unroll 4`, `ivdep safelen(8)`).
    pub pragmas: Vec<Pragma>,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// An expression statement; `None` is the empty statement `;`.
    Expr(Option<Expr>),
    Decl(Declaration),
    Compound(Vec<Stmt>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For {
        /// A `Decl` or `Expr` statement.
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    Switch(Expr, Box<Stmt>),
    Case(Expr, Box<Stmt>),
    Default(Box<Stmt>),
    Break,
    Continue,
    Return(Option<Expr>),
    Goto(Ident),
    Labeled(Ident, Box<Stmt>),
}

impl StmtKind {
    pub fn is_loop(&self) -> bool {
        matches!(
            self,
            StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::For { .. }
        )
    }
}

// ---------------------------------------------------------------- expressions

#[derive(Clone, Debug)]
pub struct Expr {
    pub id: ExprId,
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    /// No suffix: a `double` constant (a `float` one when doubles are not enabled).
    None,
    /// `f` / `F`
    F,
    /// `h` / `H` (needs `cl_khr_fp16`)
    H,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer constant. `value` is exact (up to u64::MAX; larger is a parse error).
    /// `decimal` matters for C's choice of type (decimal constants never become unsigned).
    IntLit {
        value: u64,
        unsigned: bool,
        long: bool,
        decimal: bool,
    },
    /// A floating constant. `text` is the spelling without the suffix, so the checker can
    /// round it once, straight to the target type.
    FloatLit {
        text: String,
        suffix: FloatSuffix,
    },
    CharLit(i64),
    /// `true` or `false`: OpenCL C keywords of type `bool` (clang parses them as C++ does).
    BoolLit(bool),
    StrLit(Vec<u8>),
    Ident(Ident),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `a = b` when the op is `None`, `a op= b` otherwise.
    Assign(Option<BinaryOp>, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Cast(Box<TypeName>, Box<Expr>),
    /// `(float4)(a, b, c)`: a cast to a vector type followed by a parenthesised list.
    /// `(float4)(x)` is parsed as a literal with one component (a replicated scalar).
    VectorLit(Box<TypeName>, Vec<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    /// `.name` or `->name`; also vector swizzles (`.xyzw`, `.s01`, `.lo`).
    Member {
        base: Box<Expr>,
        arrow: bool,
        member: Ident,
    },
    SizeofExpr(Box<Expr>),
    SizeofType(Box<TypeName>),
    AlignofExpr(Box<Expr>),
    AlignofType(Box<TypeName>),
    VecStepExpr(Box<Expr>),
    VecStepType(Box<TypeName>),
    Comma(Box<Expr>, Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
}

impl BinaryOp {
    pub fn as_str(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            Rem => "%",
            Add => "+",
            Sub => "-",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            BitAnd => "&",
            BitXor => "^",
            BitOr => "|",
            LogAnd => "&&",
            LogOr => "||",
        }
    }

    pub fn is_comparison(self) -> bool {
        use BinaryOp::*;
        matches!(self, Lt | Gt | Le | Ge | Eq | Ne)
    }

    pub fn is_logical(self) -> bool {
        matches!(self, BinaryOp::LogAnd | BinaryOp::LogOr)
    }
}
