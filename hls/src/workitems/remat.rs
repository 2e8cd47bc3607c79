//! Variables that are a small pure function of the work-item's ids and the kernel's
//! parameters (`int tx = get_local_id(0); int row = get_global_id(1);`) are computed
//! again at the start of every segment that reads them instead of kept per work-item
//! across barriers: a few adders rather than a private RAM each, and a value the range
//! analysis can bound (a load from per-work-item storage bounds nothing).

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::diag::Span;
use crate::ir::{BinOp, Block, BlockId, Kernel, Node, OpId, OpKind, Ty, VarId};

use super::regions::Tree;

/// The most ops one recomputed value may take.
const MAX_OPS: usize = 16;

/// One op of a recomputed value; operands index earlier ops of the same [`Expr`].
#[derive(Clone, Debug)]
struct ExprOp {
    kind: OpKind,
    ty: Option<Ty>,
    span: Span,
    args: Vec<usize>,
}

/// A value as a list of ops in dependency order; the last is the value.
#[derive(Clone, Debug, Default)]
pub struct Expr(Vec<ExprOp>);

pub struct Remat {
    /// The recomputed variables and their values (other such variables inlined).
    pub vars: BTreeMap<VarId, Expr>,
}

/// Ops a value may be recomputed from: integer arithmetic without division, no memory,
/// no floating point, no builtin.
fn cheap(kind: &OpKind) -> bool {
    match kind {
        OpKind::Const(_)
        | OpKind::Param(_)
        | OpKind::WorkItem(_)
        | OpKind::ReadVar(_)
        | OpKind::Unary(_)
        | OpKind::Cmp(_)
        | OpKind::Select
        | OpKind::Conv(_)
        | OpKind::Bitcast
        | OpKind::PtrAdd => true,
        OpKind::Binary(op) => {
            use BinOp::*;
            matches!(op, Add | Sub | Mul | Shl | LShr | AShr | And | Or | Xor)
        }
        _ => false,
    }
}

/// The blocks at the top level of some segment (run by every work-item of it): its
/// blocks and the blocks that compute the conditions of its `if`s.
fn top_blocks(tree: &Tree) -> HashSet<BlockId> {
    tree.segs
        .iter()
        .flat_map(|s| &s.nodes)
        .filter_map(|n| match n {
            Node::Block(b) => Some(*b),
            Node::If { cond, .. } => Some(cond.0),
            _ => None,
        })
        .collect()
}

pub fn find(k: &Kernel, tree: &Tree) -> Remat {
    let top = top_blocks(tree);
    let mut writes: HashMap<VarId, Vec<(BlockId, OpId)>> = HashMap::new();
    for (b, blk) in k.blocks.iter().enumerate() {
        for &o in &blk.order {
            if let OpKind::WriteVar(v) = blk.op(o).kind {
                writes.entry(v).or_default().push((BlockId(b as u32), o));
            }
        }
    }
    // Candidates: written once, by every work-item of a segment.
    let mut defs: BTreeMap<VarId, (BlockId, OpId)> = writes
        .iter()
        .filter(|(_, w)| w.len() == 1 && top.contains(&w[0].0))
        .map(|(v, w)| {
            let (b, o) = w[0];
            (*v, (b, k.block(b).operands(o)[0]))
        })
        .collect();
    loop {
        let before = defs.len();
        let ok: Vec<VarId> = defs
            .iter()
            .filter(|(_, (b, o))| build(k, &defs, *b, *o).is_some())
            .map(|(v, _)| *v)
            .collect();
        defs.retain(|v, _| ok.contains(v));
        if defs.len() == before {
            break;
        }
    }
    let vars = defs
        .iter()
        .filter_map(|(v, (b, o))| Some((*v, build(k, &defs, *b, *o)?)))
        .collect();
    Remat { vars }
}

/// The value of op `o` of block `b` as an expression, reading only recomputed variables
/// (inlined); `None` when it needs anything else or grows past [`MAX_OPS`].
fn build(k: &Kernel, defs: &BTreeMap<VarId, (BlockId, OpId)>, b: BlockId, o: OpId) -> Option<Expr> {
    fn go(
        k: &Kernel,
        defs: &BTreeMap<VarId, (BlockId, OpId)>,
        b: BlockId,
        o: OpId,
        out: &mut Vec<ExprOp>,
        depth: usize,
    ) -> Option<usize> {
        let blk = k.block(b);
        let op = blk.op(o);
        if !cheap(&op.kind) || out.len() >= MAX_OPS || depth > MAX_OPS {
            return None;
        }
        if let OpKind::ReadVar(w) = op.kind {
            let &(db, dop) = defs.get(&w)?;
            return go(k, defs, db, dop, out, depth + 1);
        }
        let mut args = Vec::new();
        for a in blk.operands(o) {
            args.push(go(k, defs, b, a, out, depth + 1)?);
        }
        out.push(ExprOp {
            kind: op.kind.clone(),
            ty: op.ty.clone(),
            span: op.span,
            args,
        });
        Some(out.len() - 1)
    }
    let mut out = Vec::new();
    go(k, defs, b, o, &mut out, 0)?;
    Some(Expr(out))
}

/// Whether integer type `ty` holds every local id below `size` as a non-negative value,
/// so a conversion to it keeps an id's value.
pub fn holds_ids(ty: &Ty, size: u64) -> bool {
    match crate::loops::fold::width(ty) {
        Some(bits) => bits >= 64 || size < 1u64 << (bits - 1),
        None => false,
    }
}

impl Expr {
    /// The dimension `d` when the value is `get_local_id(d)` itself, through integer
    /// conversions that keep every id below `size[d]`.
    pub fn local_id(&self, size: [u64; 3]) -> Option<usize> {
        fn go(ops: &[ExprOp], i: usize, size: [u64; 3]) -> Option<usize> {
            let op = &ops[i];
            match (&op.kind, op.args.as_slice()) {
                (OpKind::Conv(crate::ir::Conv::Int { .. }), [a]) => {
                    let d = go(ops, *a, size)?;
                    holds_ids(op.ty.as_ref()?, size[d]).then_some(d)
                }
                (OpKind::WorkItem(crate::ir::WorkItemFn::LocalId), [a]) => match &ops[*a].kind {
                    OpKind::Const(w) if w.first().is_some_and(|d| *d < 3) => Some(w[0] as usize),
                    _ => None,
                },
                _ => None,
            }
        }
        go(&self.0, self.0.len().checked_sub(1)?, size)
    }

    /// Adds the ops to `blk` and writes the value to `v`.
    pub fn write(&self, blk: &mut Block, v: VarId) {
        let mut ids: Vec<OpId> = Vec::new();
        for e in &self.0 {
            let args: Vec<OpId> = e.args.iter().map(|a| ids[*a]).collect();
            ids.push(blk.add(e.kind.clone(), e.ty.clone(), e.span, &args));
        }
        if let (Some(&value), Some(last)) = (ids.last(), self.0.last()) {
            blk.add(OpKind::WriteVar(v), None, last.span, &[value]);
        }
    }
}
