//! What must be kept per work-item: variables a segment may read before writing them
//! (their value comes from an earlier segment, or an earlier round of a group-level loop)
//! and private objects used by more than one segment or inside a group-level loop. The
//! rest stays single: each work-item of a segment writes it before reading it.

use std::collections::{HashMap, HashSet};

use crate::frontend::types::AddrSpace;
use crate::ir::{Base, BlockId, Kernel, Node, ObjectId, OpKind, ParamKind, Region, VarId};

use super::regions::Tree;

/// What one segment touches.
#[derive(Default)]
struct SegUse {
    /// Variables some path through the segment reads before writing.
    exposed: HashSet<VarId>,
    written: HashSet<VarId>,
    objects: HashSet<ObjectId>,
    /// A private access through a pointer of unknown object.
    unknown_private: bool,
}

/// Variables known written on every path so far; `None` once the path has left (after
/// `break`, `continue`, `return`), which counts as everything written.
type Defined = Option<HashSet<VarId>>;

fn meet(a: Defined, b: Defined) -> Defined {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(a), Some(b)) => Some(a.intersection(&b).copied().collect()),
    }
}

impl SegUse {
    fn block(&mut self, k: &Kernel, b: BlockId, def: &mut Defined) {
        let blk = k.block(b);
        for &o in &blk.order {
            match &blk.op(o).kind {
                OpKind::ReadVar(v) if def.as_ref().is_some_and(|d| !d.contains(v)) => {
                    self.exposed.insert(*v);
                }
                OpKind::WriteVar(v) => {
                    self.written.insert(*v);
                    if let Some(d) = def {
                        d.insert(*v);
                    }
                }
                // The lowering takes addresses it may not use (declarations).
                OpKind::ObjectAddr(obj) if blk.graph.neighbors(o.0).next().is_some() => {
                    self.objects.insert(*obj);
                }
                OpKind::Load { space, base, .. }
                | OpKind::Store { space, base, .. }
                | OpKind::Atomic { space, base, .. } => match base {
                    Some(Base::Object(obj)) => {
                        self.objects.insert(*obj);
                    }
                    Some(Base::Param(_)) => {}
                    None => {
                        self.unknown_private |=
                            matches!(space, AddrSpace::Private | AddrSpace::Generic)
                    }
                },
                OpKind::Builtin(c) if c.params.iter().any(|t| t.is_pointer()) => {
                    self.unknown_private = true;
                }
                _ => {}
            }
        }
    }

    fn region(&mut self, k: &Kernel, r: &Region, def: &mut Defined) {
        for n in &r.0 {
            match n {
                Node::Block(b) => self.block(k, *b, def),
                Node::If {
                    cond, then, els, ..
                } => {
                    self.block(k, cond.0, def);
                    let mut t = def.clone();
                    self.region(k, then, &mut t);
                    let mut e = def.clone();
                    self.region(k, els, &mut e);
                    *def = meet(t, e);
                }
                Node::Loop(id) => {
                    let l = k.lp(*id);
                    // The first round sees the least; what the loop writes may not run.
                    if let (crate::ir::LoopKind::While, Some((c, _))) = (l.kind, l.cond) {
                        self.block(k, c, def);
                    }
                    let mut inner = def.clone();
                    self.region(k, &l.body, &mut inner);
                    let mut latch = def.clone();
                    self.region(k, &l.latch, &mut latch);
                    if let (crate::ir::LoopKind::DoWhile, Some((c, _))) = (l.kind, l.cond) {
                        let mut at_test = def.clone();
                        self.block(k, c, &mut at_test);
                    }
                }
                Node::Break(_) | Node::Continue(_) | Node::Return => *def = None,
            }
        }
    }
}

/// Storage decisions for the whole kernel.
pub struct Plan {
    /// Variables kept per work-item.
    pub promoted: Vec<VarId>,
    /// Private objects kept per work-item.
    pub replicated: Vec<ObjectId>,
    /// Per segment: single private objects with initial bytes to store again for every
    /// work-item.
    pub reinit: Vec<Vec<ObjectId>>,
}

/// `scalars` hold the same value in every work-item (`once.rs`): one copy serves all.
pub fn plan(k: &Kernel, tree: &Tree, scalars: &HashSet<VarId>) -> Plan {
    let uses: Vec<SegUse> = tree
        .segs
        .iter()
        .map(|s| {
            let mut u = SegUse::default();
            u.region(k, &Region(s.nodes.clone()), &mut Some(HashSet::new()));
            u
        })
        .collect();
    let several = tree.segs.len() > 1 || tree.segs.iter().any(|s| s.in_loop);

    let mut promoted = Vec::new();
    for v in 0..k.vars.len() {
        let v = VarId(v as u32);
        let needed = !scalars.contains(&v)
            && uses.iter().enumerate().any(|(i, u)| {
                u.exposed.contains(&v)
                    && uses
                        .iter()
                        .enumerate()
                        .any(|(j, w)| w.written.contains(&v) && (i != j || tree.segs[i].in_loop))
            });
        if needed {
            promoted.push(v);
        }
    }

    let struct_copies: HashSet<ObjectId> = k
        .params
        .iter()
        .filter_map(|p| match p.kind {
            ParamKind::Struct { object } => Some(object),
            _ => None,
        })
        .collect();
    let unknown = several && uses.iter().any(|u| u.unknown_private);
    let mut users: HashMap<ObjectId, Vec<usize>> = HashMap::new();
    for (i, u) in uses.iter().enumerate() {
        for o in &u.objects {
            users.entry(*o).or_default().push(i);
        }
    }
    // Private objects nothing stores to (tables like `int lut[4] = {3, 1, 4, 1};`) hold
    // their initial bytes in every work-item: one copy serves them all, set up once.
    let stored: std::collections::HashSet<ObjectId> = k
        .blocks
        .iter()
        .flat_map(|b| b.graph.node_weights())
        .filter_map(|o| match o.kind {
            crate::ir::OpKind::Store {
                base: Some(crate::ir::Base::Object(id)),
                ..
            }
            | crate::ir::OpKind::Atomic {
                base: Some(crate::ir::Base::Object(id)),
                ..
            } => Some(id),
            _ => None,
        })
        .collect();
    let mut replicated = Vec::new();
    let mut reinit = vec![Vec::new(); tree.segs.len()];
    for (i, o) in k.objects.iter().enumerate() {
        let id = ObjectId(i as u32);
        if o.space != AddrSpace::Private || struct_copies.contains(&id) {
            continue;
        }
        let any_store = uses.iter().any(|u| u.unknown_private);
        if o.init.is_some() && !stored.contains(&id) && !any_store {
            continue;
        }
        let Some(segs) = users.get(&id) else {
            continue;
        };
        if unknown || segs.len() > 1 || segs.iter().any(|s| tree.segs[*s].in_loop) {
            replicated.push(id);
        } else if o.init.is_some() {
            reinit[segs[0]].push(id);
        }
    }
    Plan {
        promoted,
        replicated,
        reinit,
    }
}
