//! Operations and basic blocks: each block is a petgraph dataflow graph whose edges are
//! operands (`Edge::Data(i)`: operand `i`) or ordering constraints between memory
//! operations and barriers (`Edge::Order`).

use petgraph::stable_graph::{NodeIndex, StableDiGraph};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use super::ty::Ty;
use super::{ObjectId, VarId};
use crate::diag::Span;
use crate::frontend::types::AddrSpace;

/// An operation inside one block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpId(pub NodeIndex<u32>);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edge {
    /// The source is operand `i` of the target.
    Data(u8),
    /// The source must happen before the target (memory order, barriers).
    Order,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Two's complement negation.
    Neg,
    /// Bitwise complement.
    Not,
    FNeg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    /// Shift counts are already reduced modulo the width by lowering (OpenCL C rule), so
    /// a count of the width or more never reaches these.
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
    FAdd,
    FSub,
    FMul,
    FDiv,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    SLt,
    SLe,
    SGt,
    SGe,
    ULt,
    ULe,
    UGt,
    UGe,
    /// Ordered comparisons: false when either side is NaN (C's `==`, `<`, ...).
    FEq,
    FLt,
    FLe,
    FGt,
    FGe,
    /// Unordered-or-not-equal: C's `!=` on floats (true when either side is NaN).
    FNe,
}

/// IEEE rounding modes of `convert_*` (`_rte` is the default for int to float, `_rtz` for
/// float to int).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Round {
    Rte,
    Rtz,
    Rtp,
    Rtn,
}

/// Conversions; the destination type is the op's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conv {
    /// Integer to integer: truncate or extend (sign-extend when `from_signed`); with `sat`,
    /// clamp to the destination's range (signed when `to_signed`).
    Int {
        from_signed: bool,
        to_signed: bool,
        sat: bool,
    },
    /// Float to integer; without `sat`, out-of-range results are whatever the hardware
    /// gives (OpenCL leaves them undefined), NaN included.
    FloatToInt {
        to_signed: bool,
        round: Round,
        sat: bool,
    },
    IntToFloat {
        from_signed: bool,
        round: Round,
    },
    /// Between f16, f32 and f64 (widening is exact and ignores the rounding).
    Float {
        round: Round,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    Sub,
    Xchg,
    Inc,
    Dec,
    /// operands: pointer, comparand, new value.
    CmpXchg,
    SMin,
    SMax,
    UMin,
    UMax,
    And,
    Or,
    Xor,
    /// A plain atomic load (2.0 `atomic_load`): operands: pointer.
    Load,
    /// A plain atomic store: operands: pointer, value; no result.
    Store,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorkItemFn {
    WorkDim,
    GlobalSize,
    GlobalId,
    LocalSize,
    EnqueuedLocalSize,
    LocalId,
    NumGroups,
    GroupId,
    GlobalOffset,
    GlobalLinearId,
    LocalLinearId,
}

/// Where a pointer points: a kernel buffer argument or an object of the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Base {
    Param(u32),
    Object(ObjectId),
}

#[derive(Clone, Debug, PartialEq)]
pub enum OpKind {
    /// A constant: one entry per lane, the lane's bits zero-extended to 64.
    Const(Vec<u64>),
    /// Kernel parameter `i`: a scalar or vector value, or a pointer to the start of a
    /// buffer (`__global`, `__constant`, `__local` argument).
    Param(u32),
    ReadVar(VarId),
    /// Operand 0 is the value. No result.
    WriteVar(VarId),
    /// A pointer to the first byte of an object.
    ObjectAddr(ObjectId),
    /// Operand 0 a pointer, operand 1 a signed byte offset (i64).
    PtrAdd,
    /// Operands: two pointers into the same object; result: their byte distance (i64).
    PtrDiff,
    Unary(UnOp),
    Binary(BinOp),
    /// Result `i1`, or a vector of `i1` lanes for vector operands.
    Cmp(CmpOp),
    /// Operands: condition (`i1` or `i1` lanes), value if true, value if false.
    Select,
    Conv(Conv),
    /// Reinterprets the bits (OpenCL `as_*`); sizes match.
    Bitcast,
    /// Operand 0 a vector: its lane.
    Extract(u8),
    /// Operand 0 a vector, operand 1 a scalar: the vector with that lane replaced.
    Insert(u8),
    /// Lanes picked from operand 0 (and operand 1, numbered after operand 0's lanes).
    Shuffle(Vec<u8>),
    /// Operand 0 a scalar, repeated into every lane of the result.
    Splat,
    /// Operands are the lanes, in order.
    Build,
    /// Operand 0 the pointer. `base` is known statically when lowering could tell which
    /// argument or object the pointer points into (the hardware needs it).
    Load {
        space: AddrSpace,
        base: Option<Base>,
        align: u32,
    },
    /// Operand 0 the pointer, operand 1 the value. No result.
    Store {
        space: AddrSpace,
        base: Option<Base>,
        align: u32,
    },
    /// Operands: pointer, then the values the operation takes; result: the old value.
    Atomic {
        op: AtomicOp,
        space: AddrSpace,
        base: Option<Base>,
    },
    /// `barrier(flags)`: every work-item of the group waits here.
    Barrier {
        flags: u32,
    },
    MemFence {
        flags: u32,
    },
    /// Operand 0 (when the function takes one) the dimension index.
    WorkItem(WorkItemFn),
    /// A built-in function the IR has no primitive for (math, integer, common, geometric,
    /// relational...); operands are the arguments converted to the signature's types.
    Builtin(BuiltinCall),
}

/// A call of an OpenCL built-in by name with its resolved OpenCL signature: IR integer
/// types carry no signedness, so `abs`, `min`, `mul_hi`... need the source types.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltinCall {
    pub name: String,
    pub params: Vec<crate::frontend::types::Type>,
    pub ret: crate::frontend::types::Type,
}

impl OpKind {
    /// Operations that read or write memory or synchronise: kept in program order.
    pub fn is_memory(&self) -> bool {
        match self {
            OpKind::Load { .. }
            | OpKind::Store { .. }
            | OpKind::Atomic { .. }
            | OpKind::Barrier { .. }
            | OpKind::MemFence { .. } => true,
            // `fract`, `modf`, `sincos`, `frexp`, `remquo`... write through a pointer.
            OpKind::Builtin(call) => call.params.iter().any(|t| t.is_pointer()),
            _ => false,
        }
    }

    /// Operations with an effect besides their result.
    pub fn has_effect(&self) -> bool {
        self.is_memory() || matches!(self, OpKind::WriteVar(_))
    }
}

#[derive(Clone, Debug)]
pub struct Op {
    pub kind: OpKind,
    /// The result type; `None` for operations without a result (stores, barriers).
    pub ty: Option<Ty>,
    pub span: Span,
}

/// A straight-line block: a dataflow graph plus the order ops were created in, which is
/// always a topological order (operands are created before their users).
#[derive(Clone, Debug, Default)]
pub struct Block {
    pub graph: StableDiGraph<Op, Edge, u32>,
    pub order: Vec<OpId>,
}

impl Block {
    /// Adds an op with its operands (in order). Memory ops are ordered after the
    /// block's previous memory op; variable reads/writes after the previous access to the
    /// same variable, so the order of effects is explicit in the graph.
    pub fn add(&mut self, kind: OpKind, ty: Option<Ty>, span: Span, operands: &[OpId]) -> OpId {
        let preds = self.ordering_predecessors(&kind);
        let id = OpId(self.graph.add_node(Op { kind, ty, span }));
        for (i, o) in operands.iter().enumerate() {
            self.graph.add_edge(o.0, id.0, Edge::Data(i as u8));
        }
        for p in preds {
            if !operands.contains(&p) {
                self.graph.add_edge(p.0, id.0, Edge::Order);
            }
        }
        self.order.push(id);
        id
    }

    /// The earlier ops a new op must follow: the previous memory op for a memory op; for
    /// a variable read the last write of that variable; for a write the last write and
    /// every read since it.
    fn ordering_predecessors(&self, kind: &OpKind) -> Vec<OpId> {
        let var = |k: &OpKind| match k {
            OpKind::ReadVar(v) | OpKind::WriteVar(v) => Some(*v),
            _ => None,
        };
        if kind.is_memory() {
            return self
                .order
                .iter()
                .rev()
                .copied()
                .find(|o| self.graph[o.0].kind.is_memory())
                .into_iter()
                .collect();
        }
        let Some(v) = var(kind) else {
            return Vec::new();
        };
        let is_write = matches!(kind, OpKind::WriteVar(_));
        let mut preds = Vec::new();
        for o in self.order.iter().rev().copied() {
            let other = &self.graph[o.0].kind;
            if var(other) != Some(v) {
                continue;
            }
            let other_writes = matches!(other, OpKind::WriteVar(_));
            if other_writes || is_write {
                preds.push(o);
            }
            if other_writes {
                break;
            }
        }
        preds
    }

    pub fn op(&self, id: OpId) -> &Op {
        &self.graph[id.0]
    }

    /// The operands of an op, in position order.
    pub fn operands(&self, id: OpId) -> Vec<OpId> {
        let mut v: Vec<(u8, OpId)> = self
            .graph
            .edges_directed(id.0, Direction::Incoming)
            .filter_map(|e| match e.weight() {
                Edge::Data(i) => Some((*i, OpId(e.source()))),
                Edge::Order => None,
            })
            .collect();
        v.sort();
        v.into_iter().map(|(_, o)| o).collect()
    }

    /// Ops that must happen before `id` without being its operands.
    pub fn order_preds(&self, id: OpId) -> Vec<OpId> {
        self.graph
            .edges_directed(id.0, Direction::Incoming)
            .filter(|e| *e.weight() == Edge::Order)
            .map(|e| OpId(e.source()))
            .collect()
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}
