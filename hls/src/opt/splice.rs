//! Splicing the chosen expressions back: the block is rebuilt in its old order, each
//! effectful or opaque op as it was (with its ordering edges) and each root's extracted
//! expression built just before its first reader, shared per e-class. Conditions the
//! control structure reads are mapped to their new ops.

use std::collections::HashMap;

use egg::Id;

use super::extract::Choice;
use super::facts::{Graph, Kind};
use super::lang::{Bin, ICmp, Node};
use super::region::Region;
use crate::diag::Span;
use crate::ir::{BinOp, Block, CmpOp, Conv, Edge, Op, OpId, OpKind, Ty, UnOp};

fn binop(b: Bin) -> BinOp {
    match b {
        Bin::Add => BinOp::Add,
        Bin::Sub => BinOp::Sub,
        Bin::Mul => BinOp::Mul,
        Bin::UDiv => BinOp::UDiv,
        Bin::SDiv => BinOp::SDiv,
        Bin::URem => BinOp::URem,
        Bin::SRem => BinOp::SRem,
        Bin::Shl => BinOp::Shl,
        Bin::LShr => BinOp::LShr,
        Bin::AShr => BinOp::AShr,
        Bin::And => BinOp::And,
        Bin::Or => BinOp::Or,
        Bin::Xor => BinOp::Xor,
    }
}

fn cmpop(c: ICmp) -> CmpOp {
    match c {
        ICmp::Eq => CmpOp::Eq,
        ICmp::Ne => CmpOp::Ne,
        ICmp::SLt => CmpOp::SLt,
        ICmp::SLe => CmpOp::SLe,
        ICmp::SGt => CmpOp::SGt,
        ICmp::SGe => CmpOp::SGe,
        ICmp::ULt => CmpOp::ULt,
        ICmp::ULe => CmpOp::ULe,
        ICmp::UGt => CmpOp::UGt,
        ICmp::UGe => CmpOp::UGe,
    }
}

const ZEXT: Conv = Conv::Int {
    from_signed: false,
    to_signed: false,
    sat: false,
};

struct Builder<'a> {
    old: &'a Block,
    r: &'a Region,
    g: &'a Graph,
    choice: &'a Choice,
    new: Block,
    /// Old opaque op -> its copy.
    kept: HashMap<OpId, OpId>,
    /// Canonical class -> the op computing it.
    built: HashMap<Id, OpId>,
}

impl Builder<'_> {
    fn add(&mut self, kind: OpKind, ty: Option<Ty>, span: Span, args: &[OpId]) -> OpId {
        let id = OpId(self.new.graph.add_node(Op { kind, ty, span }));
        for (i, a) in args.iter().enumerate() {
            self.new.graph.add_edge(a.0, id.0, Edge::Data(i as u8));
        }
        self.new.order.push(id);
        id
    }

    /// The op computing class `id`, built (with what it needs) if not yet. `None` when
    /// the chosen expression reads an opaque op that comes later in the block.
    fn class(&mut self, id: Id, span: Span) -> Option<OpId> {
        let id = self.g.find(id);
        if let Some(o) = self.built.get(&id) {
            return Some(*o);
        }
        let span = self.r.spans.get(&id).copied().unwrap_or(span);
        let node = self.choice.node(self.g, id)?.clone();
        let ty = match self.g[id].data.kind {
            Kind::Int(w) => Ty::I(w),
            Kind::Ptr(s) => Ty::Ptr(s),
        };
        let mut args = Vec::new();
        for c in egg::Language::children(&node) {
            args.push(self.class(*c, span)?);
        }
        let kind = match node {
            Node::Leaf(i) => {
                let o = *self.kept.get(&self.r.leaves[i as usize])?;
                self.built.insert(id, o);
                return Some(o);
            }
            Node::Const(_, v) => OpKind::Const(vec![v]),
            Node::Bin(b, _) => OpKind::Binary(binop(b)),
            Node::Neg(_) => OpKind::Unary(UnOp::Neg),
            Node::Not(_) => OpKind::Unary(UnOp::Not),
            Node::Cmp(c, _) => OpKind::Cmp(cmpop(c)),
            Node::Select(_) => OpKind::Select,
            Node::ZExt(..) | Node::Trunc(..) => OpKind::Conv(ZEXT),
            Node::SExt(..) => OpKind::Conv(Conv::Int {
                from_signed: true,
                to_signed: true,
                sat: false,
            }),
            Node::PtrAdd(_) => OpKind::PtrAdd,
        };
        let o = self.add(kind, Some(ty), span, &args);
        self.built.insert(id, o);
        Some(o)
    }
}

/// The rebuilt block and, for every op in `conds`, its new id; `None` when the
/// expressions cannot be placed in the old order.
pub fn splice(
    old: &Block,
    r: &Region,
    g: &Graph,
    choice: &Choice,
    conds: &[OpId],
) -> Option<(Block, HashMap<OpId, OpId>)> {
    let mut b = Builder {
        old,
        r,
        g,
        choice,
        new: Block::default(),
        kept: HashMap::new(),
        built: HashMap::new(),
    };
    for &o in &old.order {
        if r.class_of.contains_key(&o) {
            continue;
        }
        let op = b.old.op(o).clone();
        let mut args = Vec::new();
        for a in b.old.operands(o) {
            args.push(match r.class_of.get(&a) {
                Some(id) => b.class(*id, op.span)?,
                None => *b.kept.get(&a)?,
            });
        }
        let n = b.add(op.kind, op.ty, op.span, &args);
        for p in b.old.order_preds(o) {
            let np = *b.kept.get(&p)?;
            b.new.graph.add_edge(np.0, n.0, Edge::Order);
        }
        b.kept.insert(o, n);
    }
    let mut map = HashMap::new();
    for &c in conds {
        let n = match r.class_of.get(&c) {
            Some(id) => b.class(*id, old.op(c).span)?,
            None => *b.kept.get(&c)?,
        };
        // A condition must stay a distinct op of type i1 in this block.
        if b.new.op(n).ty != Some(Ty::I(1)) {
            return None;
        }
        map.insert(c, n);
    }
    Some((b.new, map))
}
