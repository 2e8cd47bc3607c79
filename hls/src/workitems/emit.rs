//! Building the group-form body: each segment wrapped in its loop nest over the local ids
//! (z outer, x inner: the interpreter's order of work-items), group-level control reading
//! its condition variable, `return` turned into moving on to the next work-item.

use std::collections::BTreeSet;

use crate::diag::{Diagnostic, Span};
use crate::frontend::sema::summary::{LoopHints, UnrollInfo};
use crate::frontend::types::AddrSpace;
use crate::ir::{
    Base, BinOp, BlockId, CmpOp, Kernel, Loop, LoopId, LoopKind, Node, ObjectId, OpKind, Region,
    Ty, VarId,
};

use super::ids::{Expander, IdEnv};
use super::regions::{GNode, Tree};
use super::rewrite::{self, Storage};

pub struct Emitter<'a> {
    pub env: &'a IdEnv,
    pub st: &'a Storage,
    pub reinit: &'a [Vec<ObjectId>],
    /// Per segment: run once per group (`once.rs`), without a work-item loop.
    pub once: &'a [bool],
    /// Variables computed again at the start of every segment that reads them.
    pub remat: &'a std::collections::BTreeMap<VarId, super::remat::Expr>,
    /// Work-items per cycle (more than 1) and how the source or the tool asked for them.
    pub lanes: Option<(u64, String)>,
}

impl Emitter<'_> {
    pub fn body(&self, k: &mut Kernel, tree: &Tree) -> Result<Region, Diagnostic> {
        self.gnodes(k, tree, &tree.top)
    }

    fn gnodes(&self, k: &mut Kernel, tree: &Tree, g: &[GNode]) -> Result<Region, Diagnostic> {
        let mut out = Vec::new();
        for n in g {
            match n {
                GNode::Seg(i) => out.extend(self.seg(k, tree, *i)?),
                GNode::If {
                    cvar,
                    then,
                    els,
                    span,
                } => {
                    let cond = read_cond(k, *cvar, *span);
                    let then = self.gnodes(k, tree, then)?;
                    let els = self.gnodes(k, tree, els)?;
                    out.push(Node::If {
                        cond,
                        then,
                        els,
                        span: *span,
                    });
                }
                GNode::Loop {
                    id,
                    cvar,
                    body,
                    latch,
                } => {
                    let span = k.lp(*id).span;
                    let cond = cvar.map(|v| read_cond(k, v, span));
                    let body = self.gnodes(k, tree, body)?;
                    let latch = self.gnodes(k, tree, latch)?;
                    let l = &mut k.loops[id.0 as usize];
                    l.cond = cond;
                    l.body = body;
                    l.latch = latch;
                    out.push(Node::Loop(*id));
                }
                GNode::Break(l) => out.push(Node::Break(*l)),
                GNode::Continue(l) => out.push(Node::Continue(*l)),
            }
        }
        Ok(Region(out))
    }

    /// Segment `i` inside its work-item loop: one loop over every work-item of the group,
    /// x fastest (the interpreter's order). The dimensions are flattened into one loop,
    /// rather than nested, so that a pipeline runs the whole group without draining at
    /// the end of each row; the latch steps x and carries into y and z.
    fn seg(&self, k: &mut Kernel, tree: &Tree, i: usize) -> Result<Vec<Node>, Diagnostic> {
        // A segment split off by `guards.rs` loops over the other dimensions only.
        let fixed = tree.segs[i].fixed.map(|(d, c, _)| (d, c));
        let span = tree.segs[i].fixed.map_or(k.span, |f| f.2);
        let dims: Vec<(usize, VarId)> = (0..3)
            .filter(|d| fixed.is_none_or(|f| f.0 != *d))
            .filter_map(|d| self.env.lid[d].map(|v| (d, v)))
            .collect();
        let seg_nodes = Region(tree.segs[i].nodes.clone());
        // Run once: a segment every work-item would run alike, or one split off for a
        // single work-item (its local id fixed, no other dimension to loop over).
        let single = fixed.filter(|_| dims.is_empty());
        if self.once[i] || single.is_some() {
            let mut s = SegRewrite {
                em: self,
                inner: None,
                may_return: false,
                own_loops: Vec::new(),
                used_lin: false,
                at: span,
                escapes: Vec::new(),
                cached: Default::default(),
            };
            let mut nodes = Vec::new();
            if let Some((d, c)) = single.filter(|_| !self.once[i]) {
                let var =
                    self.env.lid[d].unwrap_or_else(|| unreachable!("dimension {d} has size 1"));
                let b = k.new_block();
                let mut x = Expander {
                    b: k.block_mut(b),
                    env: self.env,
                    span,
                    used_lin: false,
                };
                let c = x.c64(c);
                x.add(OpKind::WriteVar(var), None, &[c]);
                if self.env.lid[1].is_some() || self.env.lid[2].is_some() {
                    let v = x.compute_lin();
                    x.add(OpKind::WriteVar(self.env.lin), None, &[v]);
                }
                nodes.push(Node::Block(b));
                let (read, _) = var_uses(k, &seg_nodes);
                nodes.extend(self.recompute(k, &mut s, read.into_iter()));
            }
            nodes.extend(s.region(k, &seg_nodes)?);
            return Ok(nodes);
        }
        let Some(&(outer, _)) = dims.last() else {
            return Err(Diagnostic::error(span, "internal: no work-item loop"));
        };
        // A per-work-item variable lives in a register while its work-item runs the
        // segment: loaded once at the start, stored back once in the latch (which every
        // way of ending the work-item reaches), rather than a private access per use.
        let (read, written) = var_uses(k, &seg_nodes);
        let cached: BTreeSet<VarId> = read
            .union(&written)
            .filter(|v| self.st.vars.contains_key(v))
            .copied()
            .collect();
        let inner = new_loop(k, span);
        k.loops[inner.0 as usize].hints.fixed_id = fixed;
        // SIMD lanes: the work-item loop unrolled by the lane count, so that N work-items
        // start every cycle (their neighbouring accesses become wide ones).
        if let Some((n, spelling)) = &self.lanes {
            k.loops[inner.0 as usize].hints.unroll = Some(UnrollInfo {
                factor: Some(*n),
                spelling: spelling.clone(),
            });
        }
        let mut s = SegRewrite {
            em: self,
            inner: Some(inner),
            may_return: tree.segs[i].tail,
            own_loops: Vec::new(),
            used_lin: false,
            at: span,
            escapes: Vec::new(),
            cached: cached.iter().copied().collect(),
        };
        let mut nodes = s.region(k, &seg_nodes)?;
        // The segment that computes a value reads it afterwards, except in a later round
        // of a group-level loop.
        let again = read
            .iter()
            .filter(|v| !written.contains(v) || tree.segs[i].in_loop)
            .copied();
        if let Some(b) = self.recompute(k, &mut s, again) {
            nodes.insert(0, b);
        }
        let latch = k.new_block();
        let back: Vec<VarId> = cached
            .iter()
            .filter(|v| written.contains(v))
            .copied()
            .collect();
        let latch_lin = self.store_back(k.block_mut(latch), span, &back);
        self.step(k.block_mut(latch), span, &dims);
        let head = self.head(k, s.used_lin || latch_lin, &self.reinit[i], &cached);
        if let Some(h) = head {
            nodes.insert(0, Node::Block(h));
        }
        // The loop runs while the outermost counter is inside its size.
        let cond = k.new_block();
        let mut x = Expander {
            b: k.block_mut(cond),
            env: self.env,
            span,
            used_lin: false,
        };
        let (l, n) = (x.local_id(outer), x.local_size(outer));
        let c = x.add(OpKind::Cmp(CmpOp::ULt), Some(Ty::I(1)), &[l, n]);
        let init = k.new_block();
        let mut x = Expander {
            b: k.block_mut(init),
            env: self.env,
            span,
            used_lin: false,
        };
        let zero = x.c64(0);
        for &(_, var) in &dims {
            x.add(OpKind::WriteVar(var), None, &[zero]);
        }
        if let Some((d, c)) = fixed {
            let var = self.env.lid[d].unwrap_or_else(|| unreachable!("dimension {d} has size 1"));
            let c = x.c64(c);
            x.add(OpKind::WriteVar(var), None, &[c]);
        }
        let l = &mut k.loops[inner.0 as usize];
        l.cond = Some((cond, c));
        l.body = Region(nodes);
        l.latch = Region(vec![Node::Block(latch)]);
        let body = vec![Node::Block(init), Node::Loop(inner)];
        if s.escapes.is_empty() {
            return Ok(body);
        }
        let mut all = Vec::new();
        for &(_, flag) in &s.escapes {
            all.push(Node::Block(set_flag(k, flag, false)));
        }
        all.extend(body);
        for (how, flag) in s.escapes {
            let cond = read_cond(k, flag, span);
            all.push(Node::If {
                cond,
                then: Region(vec![how.node()]),
                els: Region::default(),
                span,
            });
        }
        Ok(all)
    }

    /// A block computing again those of `vars` that are recomputed from ids (`remat.rs`),
    /// rewritten for the segment; `None` when there are none.
    fn recompute(
        &self,
        k: &mut Kernel,
        s: &mut SegRewrite,
        vars: impl Iterator<Item = VarId>,
    ) -> Option<Node> {
        let again: Vec<VarId> = vars.filter(|v| self.remat.contains_key(v)).collect();
        if again.is_empty() {
            return None;
        }
        let b = k.new_block();
        for v in again {
            self.remat[&v].write(k.block_mut(b), v);
        }
        s.block(k, b);
        Some(Node::Block(b))
    }

    /// The latch of the flattened work-item loop: x steps; a counter that reaches its size
    /// goes back to 0 and carries into the next dimension; the outermost one only steps
    /// (the loop's test ends the group when it reaches its size).
    fn step(&self, b: &mut crate::ir::Block, span: Span, dims: &[(usize, VarId)]) {
        let mut x = Expander {
            b,
            env: self.env,
            span,
            used_lin: false,
        };
        let one = x.c64(1);
        let zero = (dims.len() > 1).then(|| x.c64(0));
        let mut carry: Option<crate::ir::OpId> = None;
        for (i, &(d, var)) in dims.iter().enumerate() {
            let l = x.local_id(d);
            let up = x.add(OpKind::Binary(BinOp::Add), Some(Ty::I(64)), &[l, one]);
            let next = match carry {
                None => up,
                Some(c) => x.add(OpKind::Select, Some(Ty::I(64)), &[c, up, l]),
            };
            if i + 1 == dims.len() {
                x.add(OpKind::WriteVar(var), None, &[next]);
                break;
            }
            let n = x.local_size(d);
            let full = x.add(OpKind::Cmp(CmpOp::Eq), Some(Ty::I(1)), &[up, n]);
            let wrap = match carry {
                None => full,
                Some(c) => x.add(OpKind::Binary(BinOp::And), Some(Ty::I(1)), &[c, full]),
            };
            let zero = zero.unwrap_or_else(|| x.c64(0));
            let v = x.add(OpKind::Select, Some(Ty::I(64)), &[wrap, zero, next]);
            x.add(OpKind::WriteVar(var), None, &[v]);
            carry = Some(wrap);
        }
    }

    /// Stores the registers of per-work-item variables `vars` back to their slots;
    /// returns whether it read the linear id.
    fn store_back(&self, b: &mut crate::ir::Block, span: Span, vars: &[VarId]) -> bool {
        let mut x = Expander {
            b,
            env: self.env,
            span,
            used_lin: false,
        };
        for v in vars {
            let val = x.add(OpKind::ReadVar(*v), Some(self.st.tys[v].clone()), &[]);
            let (p, slot) = self.slot_ptr(&mut x, *v);
            let store = OpKind::Store {
                space: AddrSpace::Private,
                base: Some(Base::Object(slot.object)),
                align: slot.align,
            };
            x.add(store, None, &[p, val]);
        }
        x.used_lin
    }

    fn slot_ptr(&self, x: &mut Expander, v: VarId) -> (crate::ir::OpId, rewrite::Slot) {
        let slot = self.st.vars[&v];
        let ptr = Some(Ty::Ptr(AddrSpace::Private));
        let a = x.add(OpKind::ObjectAddr(slot.object), ptr.clone(), &[]);
        let l = x.lin();
        let s = x.c64(slot.stride);
        let off = x.add(OpKind::Binary(BinOp::Mul), Some(Ty::I(64)), &[l, s]);
        (x.add(OpKind::PtrAdd, ptr, &[a, off]), slot)
    }

    /// The block starting each work-item: its linear id, fresh initial bytes of the
    /// single private objects that have some, and the registers of the per-work-item
    /// variables the segment uses.
    fn head(
        &self,
        k: &mut Kernel,
        lin: bool,
        reinit: &[ObjectId],
        cached: &BTreeSet<VarId>,
    ) -> Option<BlockId> {
        if !lin && reinit.is_empty() && cached.is_empty() {
            return None;
        }
        let b = k.new_block();
        let objects: Vec<(ObjectId, Vec<u8>, u64)> = reinit
            .iter()
            .map(|o| {
                let obj = k.object(*o);
                (*o, obj.init.clone().unwrap_or_default(), obj.align)
            })
            .collect();
        let span = k.span;
        let mut x = Expander {
            b: k.block_mut(b),
            env: self.env,
            span,
            used_lin: false,
        };
        let flat = self.env.lid[1].is_some() || self.env.lid[2].is_some();
        if lin || (flat && !cached.is_empty()) {
            let v = x.compute_lin();
            x.add(OpKind::WriteVar(self.env.lin), None, &[v]);
        }
        for (o, bytes, align) in objects {
            store_bytes(&mut x, o, &bytes, align);
        }
        for v in cached {
            let ty = self.st.tys[v].clone();
            let (p, slot) = self.slot_ptr(&mut x, *v);
            let load = OpKind::Load {
                space: AddrSpace::Private,
                base: Some(Base::Object(slot.object)),
                align: slot.align,
            };
            let val = x.add(load, Some(ty), &[p]);
            x.add(OpKind::WriteVar(*v), None, &[val]);
        }
        Some(b)
    }
}

/// Stores `bytes` at the start of private object `o` in the widest aligned pieces.
fn store_bytes(x: &mut Expander, o: ObjectId, bytes: &[u8], align: u64) {
    let ptr = Some(Ty::Ptr(AddrSpace::Private));
    let base = x.add(OpKind::ObjectAddr(o), ptr.clone(), &[]);
    let mut at = 0usize;
    while at < bytes.len() {
        let w = [8usize, 4, 2, 1]
            .into_iter()
            .find(|w| *w as u64 <= align.max(1) && at.is_multiple_of(*w) && at + w <= bytes.len())
            .unwrap_or(1);
        let mut word = [0u8; 8];
        word[..w].copy_from_slice(&bytes[at..at + w]);
        let off = x.c64(at as u64);
        let p = x.add(OpKind::PtrAdd, ptr.clone(), &[base, off]);
        let v = x.add(
            OpKind::Const(vec![u64::from_le_bytes(word)]),
            Some(Ty::I(8 * w as u8)),
            &[],
        );
        let store = OpKind::Store {
            space: AddrSpace::Private,
            base: Some(Base::Object(o)),
            align: w as u32,
        };
        x.add(store, None, &[p, v]);
        at += w;
    }
}

/// The variables read and written anywhere in `r`.
pub(super) fn var_uses(k: &Kernel, r: &Region) -> (BTreeSet<VarId>, BTreeSet<VarId>) {
    let mut blocks = Vec::new();
    crate::analysis::loops::all_blocks(k, r, &mut blocks);
    let (mut read, mut written) = (BTreeSet::new(), BTreeSet::new());
    for o in blocks.iter().flat_map(|b| k.block(*b).graph.node_weights()) {
        match o.kind {
            OpKind::ReadVar(v) => {
                read.insert(v);
            }
            OpKind::WriteVar(v) => {
                written.insert(v);
            }
            _ => {}
        }
    }
    (read, written)
}

pub(super) fn new_loop(k: &mut Kernel, span: Span) -> LoopId {
    k.loops.push(Loop {
        kind: LoopKind::While,
        cond: None,
        body: Region::default(),
        latch: Region::default(),
        hints: LoopHints::default(),
        span,
    });
    LoopId(k.loops.len() as u32 - 1)
}

fn set_flag(k: &mut Kernel, v: VarId, on: bool) -> BlockId {
    let b = k.new_block();
    let span = k.var(v).span;
    let blk = k.block_mut(b);
    let c = blk.add(OpKind::Const(vec![on as u64]), Some(Ty::I(1)), span, &[]);
    blk.add(OpKind::WriteVar(v), None, span, &[c]);
    b
}

fn read_cond(k: &mut Kernel, v: VarId, span: Span) -> (BlockId, crate::ir::OpId) {
    let b = k.new_block();
    let c = k
        .block_mut(b)
        .add(OpKind::ReadVar(v), Some(Ty::I(1)), span, &[]);
    (b, c)
}

/// Rewrites the nodes of one segment.
struct SegRewrite<'a, 'b> {
    em: &'a Emitter<'b>,
    /// The work-item loop; `None` for a run-once segment (which has no way out).
    inner: Option<LoopId>,
    may_return: bool,
    own_loops: Vec<LoopId>,
    used_lin: bool,
    /// The innermost `if` or loop around the node at hand (a `return` has no span).
    at: Span,
    /// Where the group goes after this segment, with the flag variable recording it.
    escapes: Vec<(Leave, VarId)>,
    /// Per-work-item variables held in a register (see [`Emitter::seg`]).
    cached: std::collections::HashSet<VarId>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Leave {
    Break(LoopId),
    Continue(LoopId),
    Return,
}

impl Leave {
    fn node(self) -> Node {
        match self {
            Leave::Break(l) => Node::Break(l),
            Leave::Continue(l) => Node::Continue(l),
            Leave::Return => Node::Return,
        }
    }
}

impl SegRewrite<'_, '_> {
    /// Ends the work-item: continues the work-item loop. A run-once segment has no way
    /// out (`once.rs`), so it never gets here.
    fn next_item(&self) -> Node {
        match self.inner {
            Some(l) => Node::Continue(l),
            None => Node::Return,
        }
    }

    /// Records that work-items leave this way: sets the flag and ends the work-item's
    /// segment. The group follows after the segment (the way is uniform: checked when
    /// cutting).
    fn leave(&mut self, k: &mut Kernel, how: Leave, out: &mut Vec<Node>) -> Node {
        let flag = match self.escapes.iter().find(|e| e.0 == how) {
            Some(e) => e.1,
            None => {
                let name = match how {
                    Leave::Break(l) => format!("__leave_break{}", l.0),
                    Leave::Continue(l) => format!("__leave_continue{}", l.0),
                    Leave::Return => "__leave_return".to_string(),
                };
                let v = k.new_var(&name, Ty::I(1), self.at);
                self.escapes.push((how, v));
                v
            }
        };
        out.push(Node::Block(set_flag(k, flag, true)));
        self.next_item()
    }

    fn block(
        &mut self,
        k: &mut Kernel,
        b: BlockId,
    ) -> std::collections::HashMap<crate::ir::OpId, crate::ir::OpId> {
        let (map, lin) = rewrite::block(k, b, self.em.env, self.em.st, &self.cached);
        self.used_lin |= lin;
        map
    }

    fn region(&mut self, k: &mut Kernel, r: &Region) -> Result<Vec<Node>, Diagnostic> {
        let mut out = Vec::new();
        for n in &r.0 {
            let node = match n {
                Node::Block(b) => {
                    self.block(k, *b);
                    Node::Block(*b)
                }
                Node::If {
                    cond,
                    then,
                    els,
                    span,
                } => {
                    let map = self.block(k, cond.0);
                    let outer = std::mem::replace(&mut self.at, *span);
                    let then = Region(self.region(k, then)?);
                    let els = Region(self.region(k, els)?);
                    self.at = outer;
                    Node::If {
                        cond: (cond.0, map[&cond.1]),
                        then,
                        els,
                        span: *span,
                    }
                }
                Node::Loop(id) => {
                    let l = k.lp(*id).clone();
                    let cond = l.cond.map(|(b, op)| (b, self.block(k, b)[&op]));
                    self.own_loops.push(*id);
                    let outer = std::mem::replace(&mut self.at, l.span);
                    let body = Region(self.region(k, &l.body)?);
                    let latch = Region(self.region(k, &l.latch)?);
                    self.at = outer;
                    let lp = &mut k.loops[id.0 as usize];
                    lp.cond = cond;
                    lp.body = body;
                    lp.latch = latch;
                    Node::Loop(*id)
                }
                Node::Break(l) if !self.own_loops.contains(l) => {
                    self.leave(k, Leave::Break(*l), &mut out)
                }
                Node::Continue(l) if !self.own_loops.contains(l) => {
                    self.leave(k, Leave::Continue(*l), &mut out)
                }
                Node::Break(_) | Node::Continue(_) => n.clone(),
                Node::Return if self.may_return => self.next_item(),
                Node::Return => self.leave(k, Leave::Return, &mut out),
            };
            out.push(node);
        }
        Ok(out)
    }
}
