//! Building regions and blocks: the current block ops are appended to, the stack of
//! regions under construction, and values that cross into later blocks through
//! spill variables (created lazily, when a value is first used outside its block).

use crate::diag::Span;
use crate::frontend::sema::LoopHints;
use crate::ir::{BlockId, Loop, LoopId, LoopKind, Node, OpId, OpKind, Region, Ty, VarId};

use super::Lowerer;

/// A value computed by the lowering: an op in a block, with its type.
#[derive(Clone, Debug)]
pub struct Val {
    pub block: BlockId,
    pub op: OpId,
    pub ty: Ty,
}

/// Regions being built, innermost last, and the block currently open in the innermost.
#[derive(Default)]
pub struct Builder {
    regions: Vec<Region>,
    cur: Option<BlockId>,
    /// The innermost region ended with a jump: what follows is unreachable.
    dead: Vec<bool>,
}

impl Lowerer<'_> {
    /// The block ops go to, opened (and placed in the innermost region) when needed.
    pub fn cur_block(&mut self) -> BlockId {
        if let Some(b) = self.b.cur {
            return b;
        }
        let b = self.k.new_block();
        self.push_node(Node::Block(b));
        self.b.cur = Some(b);
        b
    }

    /// Appends an op to the current block.
    pub fn emit(&mut self, kind: OpKind, ty: Option<Ty>, span: Span, operands: &[OpId]) -> OpId {
        let b = self.cur_block();
        self.k.block_mut(b).add(kind, ty, span, operands)
    }

    /// Appends an op with a result and returns it as a value.
    pub fn op(&mut self, kind: OpKind, ty: Ty, span: Span, operands: &[&Val]) -> Val {
        let ids: Vec<OpId> = operands.iter().map(|v| self.get(v)).collect();
        let block = self.cur_block();
        let op = self
            .k
            .block_mut(block)
            .add(kind, Some(ty.clone()), span, &ids);
        Val { block, op, ty }
    }

    /// Appends an op without a result (stores, barriers, variable writes).
    pub fn effect(&mut self, kind: OpKind, span: Span, operands: &[&Val]) {
        let ids: Vec<OpId> = operands.iter().map(|v| self.get(v)).collect();
        self.emit(kind, None, span, &ids);
    }

    /// The op standing for `v` in the current block: `v` itself, or a read of the
    /// variable it was spilled to at the end of its own block.
    pub fn get(&mut self, v: &Val) -> OpId {
        let here = self.cur_block();
        if here == v.block {
            return v.op;
        }
        let var = match self.spills.get(&(v.block, v.op)) {
            Some(var) => *var,
            None => {
                let span = self.k.block(v.block).op(v.op).span;
                let var = self.k.new_var("tmp", v.ty.clone(), span);
                self.k
                    .block_mut(v.block)
                    .add(OpKind::WriteVar(var), None, span, &[v.op]);
                self.spills.insert((v.block, v.op), var);
                var
            }
        };
        let span = self.k.block(v.block).op(v.op).span;
        self.k
            .block_mut(here)
            .add(OpKind::ReadVar(var), Some(v.ty.clone()), span, &[])
    }

    pub fn const_val(&mut self, ty: Ty, lanes: Vec<u64>, span: Span) -> Val {
        self.op(OpKind::Const(lanes), ty, span, &[])
    }

    /// A scalar integer or float constant of type `ty` (bits already in the low bits).
    pub fn konst(&mut self, ty: Ty, bits: u64, span: Span) -> Val {
        let lanes = vec![bits; ty.lanes() as usize];
        self.const_val(ty, lanes, span)
    }

    pub fn read_var(&mut self, var: VarId, span: Span) -> Val {
        let ty = self.k.var(var).ty.clone();
        self.op(OpKind::ReadVar(var), ty, span, &[])
    }

    pub fn write_var(&mut self, var: VarId, v: &Val, span: Span) {
        self.effect(OpKind::WriteVar(var), span, &[v]);
    }

    /// Places a control node after the current block; ops after it go to a new block.
    pub fn push_node(&mut self, n: Node) {
        if !matches!(n, Node::Block(_)) {
            self.b.cur = None;
        }
        if let Some(r) = self.b.regions.last_mut() {
            r.0.push(n);
        }
    }

    /// Places a jump (break, continue, return): the rest of the region is unreachable.
    pub fn push_jump(&mut self, n: Node) {
        self.push_node(n);
        if let Some(d) = self.b.dead.last_mut() {
            *d = true;
        }
    }

    /// Whether the innermost region already ended with a jump.
    pub fn is_dead(&self) -> bool {
        self.b.dead.last().copied().unwrap_or(false)
    }

    pub fn open_region(&mut self) {
        self.b.regions.push(Region::default());
        self.b.dead.push(false);
        self.b.cur = None;
    }

    pub fn close_region(&mut self) -> Region {
        self.b.cur = None;
        self.b.dead.pop();
        self.b.regions.pop().unwrap_or_default()
    }

    /// The condition block and `i1` op for an `If` or loop testing `v`: the current block
    /// itself when `v` was computed in it (it is taken out of its region, since the node
    /// runs it), otherwise a fresh block reading `v`.
    pub fn cond_of(&mut self, v: &Val) -> (BlockId, OpId) {
        let cur = self.b.cur;
        if cur == Some(v.block) {
            if let Some(r) = self.b.regions.last_mut() {
                if matches!(r.0.last(), Some(Node::Block(b)) if Some(*b) == cur) {
                    r.0.pop();
                    self.b.cur = None;
                    return (v.block, v.op);
                }
            }
        }
        let fresh = self.start_detached();
        let op = self.get(v);
        self.end_detached();
        (fresh, op)
    }

    /// Ends a block opened by [`Self::start_detached`].
    pub fn end_detached(&mut self) {
        self.b.cur = None;
    }

    /// Starts ops in a block that is not placed in any region (a loop condition block).
    pub fn start_detached(&mut self) -> BlockId {
        let b = self.k.new_block();
        self.b.cur = Some(b);
        b
    }

    /// A new loop with empty regions (filled in once its body is lowered, which needs
    /// the id for its `break`s).
    pub fn new_loop(&mut self, kind: LoopKind, hints: LoopHints, span: Span) -> LoopId {
        self.k.loops.push(Loop {
            kind,
            cond: None,
            body: Region::default(),
            latch: Region::default(),
            hints,
            span,
        });
        LoopId(self.k.loops.len() as u32 - 1)
    }

    pub fn loop_mut(&mut self, id: LoopId) -> &mut Loop {
        &mut self.k.loops[id.0 as usize]
    }
}
