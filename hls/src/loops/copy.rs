//! Copying IR: a block's ops replayed into another block (with a loop counter replaced
//! and the integer ops that become constant folded), and whole regions copied with fresh
//! blocks and loops (with `break`/`continue` retargeted). Unrolling is built from these.
//!
//! Replaying through `Block::add` rebuilds the ordering edges (memory ops after the
//! previous memory op, variable accesses after the writes they depend on) exactly as
//! lowering made them, so a copy or a merge of blocks is ordered like straight-line
//! source; any extra ordering edge of the source between two copied ops is kept too.

use std::collections::{HashMap, HashSet};

use super::fold;
use crate::ir::{
    Block, BlockId, Edge, Kernel, Loop, LoopId, LoopKind, Node, Op, OpId, OpKind, Region, Ty, VarId,
};

/// What reads of the loop counter become in a copy.
#[derive(Clone, Copy, Debug)]
pub enum Subst {
    /// The counter's value in this copy (full unrolling).
    Const(VarId, u64),
    /// The counter plus this many (wrapping) steps' worth (partial unrolling: copy `j`
    /// of an iteration that starts at `k` runs at `k + j * step`).
    Offset(VarId, u64),
}

/// Appends copies of `src`'s ops to `dst`. Returns the map from `src`'s ops to the ops
/// standing for them in `dst`.
pub fn append(dst: &mut Block, src: &Block, subst: Option<Subst>) -> HashMap<OpId, OpId> {
    let mut map = HashMap::new();
    // The ops of `dst` known to be integer constants (value, type), for folding.
    let mut consts: HashMap<OpId, u64> = dst
        .order
        .iter()
        .filter_map(|o| match &dst.op(*o).kind {
            OpKind::Const(l)
                if l.len() == 1
                    && dst
                        .op(*o)
                        .ty
                        .as_ref()
                        .is_some_and(|t| fold::width(t).is_some()) =>
            {
                Some((*o, l[0]))
            }
            _ => None,
        })
        .collect();
    let mut verbatim = HashSet::new();
    for &id in &src.order {
        let op = src.op(id);
        let args: Vec<OpId> = src.operands(id).iter().map(|a| map[a]).collect();
        let new = match (&op.kind, subst) {
            (OpKind::ReadVar(v), Some(Subst::Const(var, value))) if *v == var => {
                let value = fold::mask(value, op.ty.as_ref().and_then(fold::width).unwrap_or(64));
                let c = dst.add(OpKind::Const(vec![value]), op.ty.clone(), op.span, &[]);
                consts.insert(c, value);
                c
            }
            (OpKind::ReadVar(v), Some(Subst::Offset(var, add))) if *v == var && add != 0 => {
                let w = op.ty.as_ref().and_then(fold::width).unwrap_or(64);
                let r = dst.add(op.kind.clone(), op.ty.clone(), op.span, &[]);
                let c = dst.add(
                    OpKind::Const(vec![fold::mask(add, w)]),
                    op.ty.clone(),
                    op.span,
                    &[],
                );
                consts.insert(c, fold::mask(add, w));
                dst.add(
                    OpKind::Binary(crate::ir::BinOp::Add),
                    op.ty.clone(),
                    op.span,
                    &[r, c],
                )
            }
            _ => match folded(dst, op, &args, &consts) {
                Some(v) => {
                    let c = dst.add(OpKind::Const(vec![v]), op.ty.clone(), op.span, &[]);
                    consts.insert(c, v);
                    c
                }
                None => {
                    let n = dst.add(op.kind.clone(), op.ty.clone(), op.span, &args);
                    if let OpKind::Const(l) = &op.kind {
                        if l.len() == 1 && op.ty.as_ref().is_some_and(|t| fold::width(t).is_some())
                        {
                            consts.insert(n, l[0]);
                        }
                    }
                    verbatim.insert(id);
                    n
                }
            },
        };
        map.insert(id, new);
    }
    keep_extra_order(dst, src, &map, &verbatim);
    map
}

/// The constant an integer op of `src` becomes when all its operands are constants in
/// `dst` (only ops that were not constants already: those are copied as they are).
fn folded(dst: &Block, op: &Op, args: &[OpId], consts: &HashMap<OpId, u64>) -> Option<u64> {
    if args.is_empty() || op.kind.has_effect() {
        return None;
    }
    let ty = op.ty.as_ref()?;
    let vals: Option<Vec<(u64, &Ty)>> = args
        .iter()
        .map(|a| Some((*consts.get(a)?, dst.op(*a).ty.as_ref()?)))
        .collect();
    fold::eval(&op.kind, ty, &vals?)
}

/// Ordering edges of `src` between two ops copied as they were, that the replay did not
/// make again.
fn keep_extra_order(
    dst: &mut Block,
    src: &Block,
    map: &HashMap<OpId, OpId>,
    verbatim: &HashSet<OpId>,
) {
    use petgraph::visit::{EdgeRef, IntoEdgeReferences};
    let extra: Vec<(OpId, OpId)> = src
        .graph
        .edge_references()
        .filter(|e| *e.weight() == Edge::Order)
        .map(|e| (OpId(e.source()), OpId(e.target())))
        .filter(|(a, b)| verbatim.contains(a) && verbatim.contains(b))
        .map(|(a, b)| (map[&a], map[&b]))
        .collect();
    for (a, b) in extra {
        if dst.graph.find_edge(a.0, b.0).is_none() {
            dst.graph.add_edge(a.0, b.0, Edge::Order);
        }
    }
}

/// A new block holding a copy of block `b` (see [`append`]).
pub fn copy_block(
    k: &mut Kernel,
    b: BlockId,
    subst: Option<Subst>,
) -> (BlockId, HashMap<OpId, OpId>) {
    let mut nb = Block::default();
    let map = append(&mut nb, k.block(b), subst);
    let id = k.new_block();
    *k.block_mut(id) = nb;
    (id, map)
}

/// Copies regions with fresh blocks and loops.
pub struct Copier<'a> {
    pub subst: Option<Subst>,
    /// `break`/`continue` nodes of the unrolled loop, replaced (a `continue` of copy `j`
    /// becomes the `break` of a run-once region around copy `j`).
    pub retarget: &'a HashMap<(bool, LoopId), Node>,
    /// Loops copied so far (nested `break`/`continue` follow their loop's copy).
    pub loops: HashMap<LoopId, LoopId>,
    /// Every block made, for the clean-up passes.
    pub made: Vec<BlockId>,
}

impl<'a> Copier<'a> {
    pub fn new(subst: Option<Subst>, retarget: &'a HashMap<(bool, LoopId), Node>) -> Copier<'a> {
        Copier {
            subst,
            retarget,
            loops: HashMap::new(),
            made: Vec::new(),
        }
    }

    fn block(&mut self, k: &mut Kernel, b: BlockId) -> (BlockId, HashMap<OpId, OpId>) {
        let (id, map) = copy_block(k, b, self.subst);
        self.made.push(id);
        (id, map)
    }

    pub fn region(&mut self, k: &mut Kernel, r: &Region) -> Region {
        Region(r.0.iter().map(|n| self.node(k, n)).collect())
    }

    fn node(&mut self, k: &mut Kernel, n: &Node) -> Node {
        match n {
            Node::Block(b) => Node::Block(self.block(k, *b).0),
            Node::If {
                cond,
                then,
                els,
                span,
            } => {
                let (c, map) = self.block(k, cond.0);
                Node::If {
                    cond: (c, map[&cond.1]),
                    then: self.region(k, then),
                    els: self.region(k, els),
                    span: *span,
                }
            }
            Node::Loop(id) => {
                let old = k.lp(*id).clone();
                let new = LoopId(k.loops.len() as u32);
                k.loops.push(Loop {
                    body: Region::default(),
                    latch: Region::default(),
                    ..old.clone()
                });
                self.loops.insert(*id, new);
                let cond = old.cond.map(|(b, o)| {
                    let (nb, map) = self.block(k, b);
                    (nb, map[&o])
                });
                let body = self.region(k, &old.body);
                let latch = self.region(k, &old.latch);
                let l = &mut k.loops[new.0 as usize];
                l.cond = cond;
                l.body = body;
                l.latch = latch;
                Node::Loop(new)
            }
            Node::Break(l) => self.exit(false, *l),
            Node::Continue(l) => self.exit(true, *l),
            Node::Return => Node::Return,
        }
    }

    fn exit(&self, is_continue: bool, l: LoopId) -> Node {
        if let Some(n) = self.retarget.get(&(is_continue, l)) {
            return n.clone();
        }
        let l = self.loops.get(&l).copied().unwrap_or(l);
        if is_continue {
            Node::Continue(l)
        } else {
            Node::Break(l)
        }
    }
}

/// A new run-once region around `body` (a `break` of it goes to its end).
pub fn once(k: &mut Kernel, body: Region, span: crate::diag::Span) -> LoopId {
    k.loops.push(Loop {
        kind: LoopKind::Once,
        cond: None,
        body,
        latch: Region::default(),
        hints: Default::default(),
        span,
    });
    LoopId(k.loops.len() as u32 - 1)
}

/// A copy of `b` in which `f` may stand in for ops: given the new block, the op and its
/// operands already mapped, it returns the op that replaces it, or `None` to copy it.
/// Ordering edges of `b` between two copied ops are kept.
pub fn rebuild(
    b: &Block,
    mut f: impl FnMut(&mut Block, OpId, &[OpId]) -> Option<OpId>,
) -> (Block, HashMap<OpId, OpId>) {
    let mut out = Block::default();
    let mut map = HashMap::new();
    let mut verbatim = HashSet::new();
    for &id in &b.order {
        let args: Vec<OpId> = b.operands(id).iter().map(|a| map[a]).collect();
        let new = match f(&mut out, id, &args) {
            Some(n) => n,
            None => {
                let op = b.op(id);
                verbatim.insert(id);
                out.add(op.kind.clone(), op.ty.clone(), op.span, &args)
            }
        };
        map.insert(id, new);
    }
    keep_extra_order(&mut out, b, &map, &verbatim);
    (out, map)
}
