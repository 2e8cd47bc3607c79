//! The kernel IR: structured control (regions of blocks, ifs and loops that keep their
//! attributes and source spans) around blocks whose operations form petgraph dataflow
//! graphs with explicit bit widths. Values cross blocks only through variables (`Var`)
//! and memory (`Object`s and buffers), which keeps every block a self-contained graph the
//! scheduler can work on.

pub mod op;
pub mod print;
pub mod ty;
pub mod verify;

pub use op::{
    AtomicOp, Base, BinOp, Block, BuiltinCall, CmpOp, Conv, Edge, Op, OpId, OpKind, Round, UnOp,
    WorkItemFn,
};
pub use ty::Ty;

use crate::diag::Span;
use crate::frontend::sema::summary::{KernelAttrs, LoopHints};
use crate::frontend::types::AddrSpace;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LoopId(pub u32);

/// Every kernel of a program, lowered.
#[derive(Clone, Debug, Default)]
pub struct Module {
    pub kernels: Vec<Kernel>,
}

/// How the host passes a kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// A pointer to a `__global` or `__constant` buffer the host allocates.
    Buffer { space: AddrSpace },
    /// A `__local` pointer argument: the host gives only its size; each work-group gets
    /// its own memory.
    LocalBuffer,
    /// A scalar or vector passed by value.
    Value,
    /// A struct or union passed by value: the host's bytes are copied into the object for
    /// each work-item, and the parameter's value is a pointer to that copy.
    Struct { object: ObjectId },
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: Ty,
    pub kind: ParamKind,
    pub span: Span,
}

/// A mutable value of one work-item (a C variable whose address is never taken, or a
/// temporary the lowering needed across blocks).
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: Ty,
    pub span: Span,
}

/// Byte-addressed memory the kernel owns: a private array or struct (one per work-item),
/// a `__local` array (one per work-group), or a `__constant` table (one per program).
#[derive(Clone, Debug)]
pub struct Object {
    pub name: String,
    pub space: AddrSpace,
    pub size: u64,
    pub align: u64,
    /// Initial bytes (`__constant` tables, private arrays with constant initializers);
    /// `None` leaves the memory uninitialised (reads before writes are reported).
    pub init: Option<Vec<u8>>,
    pub span: Span,
    /// What the source's memory attributes ask of its RAM (banks, replicas).
    pub hints: crate::frontend::sema::MemoryHints,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKind {
    /// `while` and `for`: test, body, latch.
    While,
    /// `do ... while`: body, latch, test.
    DoWhile,
    /// A region run once that `Break` can leave early (how `switch` is lowered).
    Once,
}

#[derive(Clone, Debug)]
pub struct Loop {
    pub kind: LoopKind,
    /// The block computing the condition and the `i1` op in it; `None` loops forever
    /// (until a `Break` or `Return`).
    pub cond: Option<(BlockId, OpId)>,
    pub body: Region,
    /// Runs after the body and after a `Continue` (a `for` loop's step).
    pub latch: Region,
    pub hints: LoopHints,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Region(pub Vec<Node>);

#[derive(Clone, Debug)]
pub enum Node {
    Block(BlockId),
    /// Runs `cond.0`, then `then` when the `i1` op `cond.1` is true, else `els`.
    If {
        cond: (BlockId, OpId),
        then: Region,
        els: Region,
        span: Span,
    },
    Loop(LoopId),
    /// Leaves the loop (it must enclose this node).
    Break(LoopId),
    /// Goes to the loop's latch.
    Continue(LoopId),
    /// Ends the work-item.
    Return,
}

#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    pub span: Span,
    pub params: Vec<Param>,
    pub attrs: KernelAttrs,
    pub vars: Vec<Var>,
    pub objects: Vec<Object>,
    pub blocks: Vec<Block>,
    pub loops: Vec<Loop>,
    pub body: Region,
    /// Memories whose atomics became plain read-modify-writes in group form
    /// (`workitems/atomics.rs`): the work-items of a loop over them still depend on each
    /// other through these, as they did through the atomics.
    pub shared_rmw: std::collections::BTreeSet<Base>,
}

impl Kernel {
    pub fn new(name: &str, span: Span, attrs: KernelAttrs) -> Kernel {
        Kernel {
            name: name.to_string(),
            span,
            params: Vec::new(),
            attrs,
            vars: Vec::new(),
            objects: Vec::new(),
            blocks: Vec::new(),
            loops: Vec::new(),
            body: Region::default(),
            shared_rmw: Default::default(),
        }
    }

    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.0 as usize]
    }

    pub fn block_mut(&mut self, id: BlockId) -> &mut Block {
        &mut self.blocks[id.0 as usize]
    }

    pub fn new_block(&mut self) -> BlockId {
        self.blocks.push(Block::default());
        BlockId(self.blocks.len() as u32 - 1)
    }

    pub fn new_var(&mut self, name: &str, ty: Ty, span: Span) -> VarId {
        self.vars.push(Var {
            name: name.to_string(),
            ty,
            span,
        });
        VarId(self.vars.len() as u32 - 1)
    }

    pub fn new_object(&mut self, o: Object) -> ObjectId {
        self.objects.push(o);
        ObjectId(self.objects.len() as u32 - 1)
    }

    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id.0 as usize]
    }

    pub fn object(&self, id: ObjectId) -> &Object {
        &self.objects[id.0 as usize]
    }

    pub fn lp(&self, id: LoopId) -> &Loop {
        &self.loops[id.0 as usize]
    }

    /// Puts block `b` right before loop `id` (or right after it, `after`), in the kernel's
    /// body or the loop holding it.
    pub fn insert_beside_loop(&mut self, id: LoopId, b: BlockId, after: bool) {
        /// In `r` or the `if`s it holds (not in nested loops, regions of their own).
        fn go(r: &mut Region, id: LoopId, b: BlockId, after: bool) -> bool {
            if let Some(i) =
                r.0.iter()
                    .position(|n| matches!(n, Node::Loop(l) if *l == id))
            {
                r.0.insert(i + usize::from(after), Node::Block(b));
                return true;
            }
            r.0.iter_mut().any(|n| match n {
                Node::If { then, els, .. } => go(then, id, b, after) || go(els, id, b, after),
                _ => false,
            })
        }
        if go(&mut self.body, id, b, after) {
            return;
        }
        for l in &mut self.loops {
            if go(&mut l.body, id, b, after) || go(&mut l.latch, id, b, after) {
                return;
            }
        }
    }

    /// Parameter `p` is a `__global` or `__constant` buffer (it gets an AXI master).
    pub fn is_buffer(&self, p: u32) -> bool {
        self.params
            .get(p as usize)
            .is_some_and(|x| matches!(x.kind, ParamKind::Buffer { .. }))
    }

    /// Whether the kernel synchronises work-items (and so needs the work-item loop
    /// transformation rather than one loop over all work-items).
    pub fn has_barrier(&self) -> bool {
        self.blocks.iter().any(|b| {
            b.graph
                .node_weights()
                .any(|o| matches!(o.kind, OpKind::Barrier { .. }))
        })
    }
}
