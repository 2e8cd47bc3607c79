//! Lowering: turns the checked program into the kernel IR, one [`ir::Kernel`] per kernel,
//! with user functions inlined, C operator semantics made explicit and pointer bases
//! resolved where they are statically known.

mod access;
mod arith;
mod assign;
mod async_copy;
mod bases;
mod builder;
mod builtins;
mod bytes;
mod calls;
mod consts;
mod convert;
mod expr;
mod init;
mod kernel;
mod logic;
mod memory;
mod scan;
mod stmt;
mod switch;
mod types;

use std::collections::HashMap;

use crate::diag::{Diagnostics, SourceMap, Span};
use crate::frontend::ast::{Expr, ExprId};
use crate::frontend::sema::{FuncId, Program, SymbolId};
use crate::frontend::types::AddrSpace;
use crate::ir::{self, BlockId, Kernel, LoopId, ObjectId, OpId, VarId};

pub use builder::Val;

/// Lowers every kernel of a checked program. Constructs the lowering cannot turn into
/// hardware (goto, ...) are errors with their source span, never panics.
pub fn lower(program: &Program, sm: &SourceMap) -> Result<ir::Module, Diagnostics> {
    // Lowering recurses over the tree like the checker: give it the frontend's stack.
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("lower".into())
            .stack_size(crate::frontend::FRONTEND_STACK)
            .spawn_scoped(scope, || lower_here(program, sm));
        match worker {
            Ok(handle) => match handle.join() {
                Ok(r) => r,
                Err(p) => std::panic::resume_unwind(p),
            },
            Err(_) => lower_here(program, sm),
        }
    })
}

fn lower_here(program: &Program, sm: &SourceMap) -> Result<ir::Module, Diagnostics> {
    let mut module = ir::Module::default();
    let mut diags = Diagnostics::default();
    for (i, f) in program.functions.iter().enumerate() {
        if !f.is_kernel || f.def_item.is_none() {
            continue;
        }
        match kernel::lower_kernel(program, sm, FuncId(i as u32)) {
            Ok(k) => {
                if cfg!(debug_assertions) {
                    if let Err(errs) = ir::verify::verify_kernel(&k) {
                        panic!(
                            "lowering produced invalid IR for kernel '{}':\n{}",
                            k.name,
                            errs.join("\n")
                        );
                    }
                }
                module.kernels.push(k);
            }
            Err(d) => diags.extend(d),
        }
    }
    if diags.has_errors() {
        Err(diags)
    } else {
        Ok(module)
    }
}

/// Lowering of one kernel stopped at an error already recorded in the diagnostics.
#[derive(Debug)]
pub struct Failed;

pub type R<T> = Result<T, Failed>;

/// Where a variable of the source lives.
#[derive(Clone, Copy, Debug)]
pub enum Storage {
    Var(VarId),
    Object(ObjectId, AddrSpace),
    /// A kernel parameter never assigned: read straight from the parameter.
    Param(u32),
}

/// The result of an inlined function call.
#[derive(Clone, Copy, Debug)]
pub enum RetSlot {
    Var(VarId),
    /// A struct result: the object it is copied into.
    Object(ObjectId),
}

/// One function being lowered (the kernel itself, or an inlined call).
pub struct Frame {
    pub func: FuncId,
    pub syms: HashMap<SymbolId, Storage>,
    pub ret: Option<RetSlot>,
    /// The run-once loop `return` leaves when the function returns early.
    pub once: Option<LoopId>,
    /// The kernel's own body: `return` ends the work-item.
    pub top: bool,
}

/// What `break` and `continue` may target, innermost last.
#[derive(Clone, Copy, Debug)]
pub enum Jump {
    Loop(LoopId),
    Switch(LoopId),
    /// The boundary of an inlined function: jumps never cross it.
    Function,
}

pub struct Lowerer<'a> {
    pub p: &'a Program,
    pub sm: &'a SourceMap,
    pub diags: Diagnostics,
    pub k: Kernel,
    pub b: builder::Builder,
    pub spills: HashMap<(BlockId, OpId), VarId>,
    pub frames: Vec<Frame>,
    pub jumps: Vec<Jump>,
    /// Real loops around the statement being lowered (objects declared inside one are
    /// initialised by stores each time, not by initial bytes).
    pub loop_depth: u32,
    /// `__constant` program-scope variables already given an object in this kernel.
    pub globals: HashMap<SymbolId, ObjectId>,
    /// `__local` variables already given an object in this kernel: a helper's (accepted
    /// as Intel's compiler does) is one variable however often the helper is inlined.
    pub locals: HashMap<SymbolId, ObjectId>,
    /// String literals already given a constant object.
    pub strings: HashMap<Vec<u8>, ObjectId>,
    pub facts: HashMap<FuncId, scan::FnFacts>,
    /// Expressions by id, for initializer entries.
    pub exprs: Vec<Option<&'a Expr>>,
}

impl<'a> Lowerer<'a> {
    pub fn new(p: &'a Program, sm: &'a SourceMap, k: Kernel) -> Self {
        Lowerer {
            p,
            sm,
            diags: Diagnostics::default(),
            k,
            b: builder::Builder::default(),
            spills: HashMap::new(),
            frames: Vec::new(),
            jumps: Vec::new(),
            loop_depth: 0,
            globals: HashMap::new(),
            strings: HashMap::new(),
            locals: HashMap::new(),
            facts: HashMap::new(),
            exprs: scan::index_exprs(p),
        }
    }

    /// Records an error and stops lowering the kernel.
    pub fn fail<T>(&mut self, span: Span, msg: impl Into<String>) -> R<T> {
        self.diags.error(span, msg);
        Err(Failed)
    }

    pub fn frame(&self) -> Option<&Frame> {
        self.frames.last()
    }

    /// The expression with id `id`.
    pub fn expr_by_id(&mut self, id: ExprId, span: Span) -> R<&'a Expr> {
        match self.exprs.get(id.0 as usize).copied().flatten() {
            Some(e) => Ok(e),
            None => self.fail(
                span,
                "internal error: an initializer names an unknown expression",
            ),
        }
    }
}
