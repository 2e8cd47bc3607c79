//! The IR verifier: structural and type rules every pass must keep. Run after each pass in
//! debug builds; a failure is a compiler bug, reported with the kernel and block.

use std::collections::HashSet;

use super::*;

/// Checks a kernel; returns every broken rule.
pub fn verify_kernel(k: &Kernel) -> Result<(), Vec<String>> {
    let mut v = Verifier {
        k,
        errors: Vec::new(),
        seen_blocks: HashSet::new(),
        loops: Vec::new(),
    };
    v.region(&k.body);
    for (i, b) in k.blocks.iter().enumerate() {
        v.block(BlockId(i as u32), b);
    }
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

/// Checks every kernel of a module.
pub fn verify_module(m: &Module) -> Result<(), Vec<String>> {
    let errs: Vec<String> = m
        .kernels
        .iter()
        .filter_map(|k| verify_kernel(k).err())
        .flatten()
        .collect();
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs)
    }
}

struct Verifier<'a> {
    k: &'a Kernel,
    errors: Vec<String>,
    seen_blocks: HashSet<BlockId>,
    loops: Vec<LoopId>,
}

impl Verifier<'_> {
    fn err(&mut self, msg: String) {
        self.errors.push(format!("kernel {}: {msg}", self.k.name));
    }

    fn use_block(&mut self, b: BlockId) {
        if b.0 as usize >= self.k.blocks.len() {
            self.err(format!("b{} does not exist", b.0));
        } else if !self.seen_blocks.insert(b) {
            self.err(format!("b{} is placed twice", b.0));
        }
    }

    fn cond(&mut self, (b, op): (BlockId, OpId)) {
        self.use_block(b);
        let Some(block) = self.k.blocks.get(b.0 as usize) else {
            return;
        };
        match block.graph.node_weight(op.0) {
            Some(o) if o.ty == Some(Ty::I(1)) => {}
            Some(o) => self.err(format!("condition in b{} has type {:?}, not i1", b.0, o.ty)),
            None => self.err(format!("condition op missing from b{}", b.0)),
        }
    }

    fn region(&mut self, r: &Region) {
        for n in &r.0 {
            match n {
                Node::Block(b) => self.use_block(*b),
                Node::If {
                    cond, then, els, ..
                } => {
                    self.cond(*cond);
                    self.region(then);
                    self.region(els);
                }
                Node::Loop(id) => {
                    let Some(l) = self.k.loops.get(id.0 as usize) else {
                        self.err(format!("L{} does not exist", id.0));
                        continue;
                    };
                    if let Some(c) = l.cond {
                        self.cond(c);
                    }
                    if l.kind == LoopKind::Once && (l.cond.is_some() || !l.latch.0.is_empty()) {
                        self.err(format!("L{} runs once but has a condition or latch", id.0));
                    }
                    self.loops.push(*id);
                    self.region(&l.body);
                    self.loops.pop();
                    // A latch may not leave its own loop early: it runs after `continue`.
                    self.region(&l.latch);
                }
                Node::Break(id) if !self.loops.contains(id) => {
                    self.err(format!("break L{} outside that loop", id.0))
                }
                Node::Continue(id) if !self.loops.contains(id) => {
                    self.err(format!("continue L{} outside that loop", id.0))
                }
                Node::Continue(id) if self.k.loops[id.0 as usize].kind == LoopKind::Once => {
                    self.err(format!("continue L{} targets a run-once region", id.0))
                }
                Node::Break(_) | Node::Continue(_) | Node::Return => {}
            }
        }
    }

    fn block(&mut self, id: BlockId, b: &Block) {
        if b.order.len() != b.graph.node_count() {
            self.err(format!(
                "b{}: order lists {} of {} ops",
                id.0,
                b.order.len(),
                b.graph.node_count()
            ));
        }
        let mut done = HashSet::new();
        for &o in &b.order {
            for p in b.operands(o).iter().chain(b.order_preds(o).iter()) {
                if !done.contains(p) {
                    self.err(format!(
                        "b{}: an op uses a value not computed before it",
                        id.0
                    ));
                }
            }
            done.insert(o);
            self.op(id, b, o);
        }
    }

    fn op(&mut self, bid: BlockId, b: &Block, id: OpId) {
        let op = b.op(id);
        let args = b.operands(id);
        let ty = |o: &OpId| b.op(*o).ty.clone();
        let want = |n: usize| args.len() == n;
        let ok = match &op.kind {
            OpKind::Const(v) => {
                op.ty
                    .as_ref()
                    .is_some_and(|t| t.lanes() as usize == v.len())
                    && want(0)
            }
            OpKind::Param(i) => {
                want(0)
                    && self
                        .k
                        .params
                        .get(*i as usize)
                        .is_some_and(|p| Some(&p.ty) == op.ty.as_ref())
            }
            OpKind::ReadVar(v) => {
                want(0)
                    && self
                        .k
                        .vars
                        .get(v.0 as usize)
                        .is_some_and(|x| Some(&x.ty) == op.ty.as_ref())
            }
            OpKind::WriteVar(v) => {
                want(1)
                    && op.ty.is_none()
                    && self
                        .k
                        .vars
                        .get(v.0 as usize)
                        .is_some_and(|x| Some(&x.ty) == ty(&args[0]).as_ref())
            }
            OpKind::ObjectAddr(o) => {
                want(0)
                    && (o.0 as usize) < self.k.objects.len()
                    && op.ty.as_ref().is_some_and(Ty::is_ptr)
            }
            OpKind::PtrAdd => want(2) && ty(&args[0]) == op.ty && ty(&args[1]) == Some(Ty::I(64)),
            OpKind::PtrDiff => want(2) && op.ty == Some(Ty::I(64)),
            OpKind::Unary(_) => want(1) && ty(&args[0]) == op.ty,
            OpKind::Binary(_) => want(2) && ty(&args[0]) == op.ty && ty(&args[1]) == op.ty,
            OpKind::Cmp(_) => {
                want(2)
                    && ty(&args[0]) == ty(&args[1])
                    && op.ty == ty(&args[0]).map(|t| Ty::vec(Ty::I(1), t.lanes()))
            }
            OpKind::Select => {
                want(3)
                    && ty(&args[1]) == op.ty
                    && ty(&args[2]) == op.ty
                    && ty(&args[0]).is_some_and(|c| {
                        *c.elem() == Ty::I(1)
                            && (c.lanes() == 1 || Some(c.lanes()) == op.ty.as_ref().map(Ty::lanes))
                    })
            }
            OpKind::Conv(_) => {
                want(1) && ty(&args[0]).map(|t| t.lanes()) == op.ty.as_ref().map(Ty::lanes)
            }
            OpKind::Bitcast => {
                want(1)
                    && ty(&args[0]).map(|t| t.store_size()) == op.ty.as_ref().map(Ty::store_size)
            }
            OpKind::Extract(l) => {
                want(1)
                    && ty(&args[0])
                        .is_some_and(|t| *l < t.lanes() && Some(t.elem()) == op.ty.as_ref())
            }
            OpKind::Insert(l) => {
                want(2) && ty(&args[0]) == op.ty && op.ty.as_ref().is_some_and(|t| *l < t.lanes())
            }
            OpKind::Shuffle(lanes) => {
                !args.is_empty()
                    && args.len() <= 2
                    && op
                        .ty
                        .as_ref()
                        .is_some_and(|t| t.lanes() as usize == lanes.len())
            }
            OpKind::Splat => {
                want(1)
                    && op
                        .ty
                        .as_ref()
                        .is_some_and(|t| ty(&args[0]).as_ref() == Some(t.elem()))
            }
            OpKind::Build => op
                .ty
                .as_ref()
                .is_some_and(|t| t.lanes() as usize == args.len()),
            OpKind::Load { .. } => {
                want(1) && ty(&args[0]).is_some_and(|t| t.is_ptr()) && op.ty.is_some()
            }
            OpKind::Store { .. } => {
                want(2) && ty(&args[0]).is_some_and(|t| t.is_ptr()) && op.ty.is_none()
            }
            OpKind::Atomic { .. } => !args.is_empty() && ty(&args[0]).is_some_and(|t| t.is_ptr()),
            OpKind::Barrier { .. } | OpKind::MemFence { .. } => want(0) && op.ty.is_none(),
            OpKind::WorkItem(_) => args.len() <= 1 && op.ty.is_some(),
            OpKind::Builtin(_) => true,
        };
        if !ok {
            let shown: Vec<String> = args.iter().map(|a| format!("{:?}", ty(a))).collect();
            self.err(format!(
                "b{}: malformed {:?} : {:?} with operands [{}]",
                bid.0,
                op.kind,
                op.ty,
                shown.join(", ")
            ));
        }
    }
}
