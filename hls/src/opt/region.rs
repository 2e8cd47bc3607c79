//! A block's pure region: the scalar integer operations (and pointer additions) that
//! have no effect and no ordering constraint, put into one e-graph. Every other op a pure
//! op reads is a leaf; pure ops read by other ops or by the control structure (an `if`'s
//! or loop's condition) are the roots the rebuilt block must still provide.

use std::collections::{HashMap, HashSet};

use egg::Id;
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use super::facts::{Facts, Graph, Kind};
use super::lang::{mask, Bin, ICmp, Node};
use crate::diag::Span;
use crate::ir::{BinOp, Block, CmpOp, Conv, Edge, OpId, OpKind, Ty, UnOp};

pub struct Region {
    pub graph: Graph,
    /// The class of every pure op.
    pub class_of: HashMap<OpId, Id>,
    /// Leaf `i` is this op of the block.
    pub leaves: Vec<OpId>,
    /// Pure ops something outside the region reads.
    pub roots: Vec<OpId>,
    /// The e-node each computing op of the block was (children as the classes they were
    /// then): the block as it is, to price against the chosen one.
    pub orig: Vec<(OpId, Node)>,
    /// The span of the first op of each class, for the ops rebuilt from it.
    pub spans: HashMap<Id, Span>,
}

fn int_width(t: Option<&Ty>) -> Option<u8> {
    match t {
        Some(Ty::I(w)) => Some(*w),
        _ => None,
    }
}

fn bin(b: BinOp) -> Option<Bin> {
    Some(match b {
        BinOp::Add => Bin::Add,
        BinOp::Sub => Bin::Sub,
        BinOp::Mul => Bin::Mul,
        BinOp::UDiv => Bin::UDiv,
        BinOp::SDiv => Bin::SDiv,
        BinOp::URem => Bin::URem,
        BinOp::SRem => Bin::SRem,
        BinOp::Shl => Bin::Shl,
        BinOp::LShr => Bin::LShr,
        BinOp::AShr => Bin::AShr,
        BinOp::And => Bin::And,
        BinOp::Or => Bin::Or,
        BinOp::Xor => Bin::Xor,
        BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv => return None,
    })
}

pub(super) fn cmp(c: CmpOp) -> Option<ICmp> {
    Some(match c {
        CmpOp::Eq => ICmp::Eq,
        CmpOp::Ne => ICmp::Ne,
        CmpOp::SLt => ICmp::SLt,
        CmpOp::SLe => ICmp::SLe,
        CmpOp::SGt => ICmp::SGt,
        CmpOp::SGe => ICmp::SGe,
        CmpOp::ULt => ICmp::ULt,
        CmpOp::ULe => ICmp::ULe,
        CmpOp::UGt => ICmp::UGt,
        CmpOp::UGe => ICmp::UGe,
        _ => return None,
    })
}

/// Whether `o` belongs in the e-graph. Float ops stay outside (rewriting them needs the
/// fast-math build options), as do vectors.
pub fn is_pure(b: &Block, o: OpId) -> bool {
    let ordered = b
        .graph
        .edges_directed(o.0, Direction::Incoming)
        .chain(b.graph.edges_directed(o.0, Direction::Outgoing))
        .any(|e| *e.weight() == Edge::Order);
    if ordered {
        return false;
    }
    let op = b.op(o);
    let ty = op.ty.as_ref();
    let arg_int = |i: usize| {
        b.operands(o)
            .get(i)
            .is_some_and(|a| int_width(b.op(*a).ty.as_ref()).is_some())
    };
    match &op.kind {
        OpKind::Const(v) => v.len() == 1 && int_width(ty).is_some(),
        OpKind::Binary(x) => bin(*x).is_some() && int_width(ty).is_some(),
        OpKind::Unary(UnOp::Neg | UnOp::Not) => int_width(ty).is_some(),
        OpKind::Cmp(c) => cmp(*c).is_some() && arg_int(0),
        OpKind::Select => int_width(ty).is_some() && arg_int(0),
        OpKind::Conv(Conv::Int { sat: false, .. }) => int_width(ty).is_some() && arg_int(0),
        OpKind::PtrAdd => true,
        _ => false,
    }
}

/// The e-node of a pure op, given its operands' classes; `Err(class)` when the op is
/// the identity (a cast to its own width).
fn node(b: &Block, o: OpId, args: &[Id]) -> Result<Node, Id> {
    let op = b.op(o);
    let w = int_width(op.ty.as_ref()).unwrap_or(64);
    Ok(match &op.kind {
        OpKind::Const(v) => Node::Const(w, v[0] & mask(w as u32)),
        OpKind::Binary(x) => Node::Bin(bin(*x).expect("pure"), [args[0], args[1]]),
        OpKind::Unary(UnOp::Neg) => Node::Neg(args[0]),
        OpKind::Unary(_) => Node::Not(args[0]),
        OpKind::Cmp(c) => Node::Cmp(cmp(*c).expect("pure"), [args[0], args[1]]),
        OpKind::Select => Node::Select([args[0], args[1], args[2]]),
        OpKind::Conv(Conv::Int { from_signed, .. }) => {
            let from = b.operands(o)[0];
            let fw = int_width(b.op(from).ty.as_ref()).expect("pure");
            match fw.cmp(&w) {
                std::cmp::Ordering::Equal => return Err(args[0]),
                std::cmp::Ordering::Greater => Node::Trunc(w, args[0]),
                std::cmp::Ordering::Less if *from_signed => Node::SExt(w, args[0]),
                std::cmp::Ordering::Less => Node::ZExt(w, args[0]),
            }
        }
        _ => Node::PtrAdd([args[0], args[1]]),
    })
}

/// The e-node op `o` would become, with placeholder children (for the range analysis,
/// which reads operands by position); `None` for an op the e-graph never holds or one
/// that is not a scalar integer.
pub fn node_of(b: &Block, o: OpId) -> Option<Node> {
    let op = b.op(o);
    let w = int_width(op.ty.as_ref())?;
    let args = b.operands(o);
    let scalar = |a: &OpId| matches!(b.op(*a).ty, Some(Ty::I(_)));
    let ok = match &op.kind {
        OpKind::Const(v) => v.len() == 1,
        OpKind::Binary(x) => bin(*x).is_some() && args.iter().all(scalar),
        OpKind::Unary(UnOp::Neg | UnOp::Not) => args.iter().all(scalar),
        OpKind::Cmp(c) => cmp(*c).is_some() && args.iter().all(scalar),
        OpKind::Select => args.iter().all(scalar),
        OpKind::Conv(Conv::Int { sat: false, .. }) => args.iter().all(scalar),
        _ => false,
    };
    if !ok {
        return None;
    }
    let ids = [Id::from(0usize); 3];
    // A cast to its own width is bounded like its operand, as a zero-extension is.
    Some(node(b, o, &ids).unwrap_or(Node::ZExt(w, ids[0])))
}

/// The region of block `b`; `conds` are its ops the control structure reads, `hi` the
/// range analysis's bound of an op, if any. `None` when the block has no pure op that
/// computes something.
pub fn build(b: &Block, conds: &HashSet<OpId>, hi: &dyn Fn(OpId) -> Option<u64>) -> Option<Region> {
    let pure: HashSet<OpId> = b.order.iter().copied().filter(|o| is_pure(b, *o)).collect();
    let computing = pure
        .iter()
        .filter(|o| !matches!(b.op(**o).kind, OpKind::Const(_)))
        .count();
    if computing == 0 {
        return None;
    }
    let mut g = Graph::new(Facts::default());
    let mut class_of = HashMap::new();
    let mut leaf_of: HashMap<OpId, Id> = HashMap::new();
    let mut leaves = Vec::new();
    let mut spans = HashMap::new();
    let mut orig = Vec::new();
    for &o in &b.order {
        if !pure.contains(&o) {
            continue;
        }
        let mut args = Vec::new();
        for a in b.operands(o) {
            if let Some(id) = class_of.get(&a) {
                args.push(*id);
                continue;
            }
            if let Some(id) = leaf_of.get(&a) {
                args.push(*id);
                continue;
            }
            let kind = match b.op(a).ty.as_ref()? {
                Ty::I(w) => Kind::Int(*w),
                Ty::Ptr(s) => Kind::Ptr(*s),
                _ => return None,
            };
            g.analysis.leaves.push(kind);
            g.analysis.leaf_hi.push(hi(a).unwrap_or(u64::MAX));
            g.analysis
                .bases
                .push(matches!(b.op(a).kind, OpKind::ObjectAddr(_)));
            let id = g.add(Node::Leaf(leaves.len() as u32));
            leaves.push(a);
            leaf_of.insert(a, id);
            args.push(id);
        }
        let id = match node(b, o, &args) {
            Ok(n) => {
                if !matches!(n, Node::Const(..)) {
                    orig.push((o, n.clone()));
                }
                g.add(n)
            }
            Err(same) => same,
        };
        // The range analysis may know more than the e-node's operands say (a relation
        // between them, such as a global id's parts).
        let id = g.find(id);
        if let Some(h) = hi(o) {
            if h < g[id].data.hi {
                g[id].data.hi = h;
            }
        }
        spans.entry(g.find(id)).or_insert(b.op(o).span);
        class_of.insert(o, id);
    }
    let roots = b
        .order
        .iter()
        .copied()
        .filter(|o| pure.contains(o))
        .filter(|o| {
            conds.contains(o)
                || b.graph
                    .edges_directed(o.0, Direction::Outgoing)
                    .any(|e| !pure.contains(&OpId(e.target())))
        })
        .collect();
    g.rebuild();
    Some(Region {
        graph: g,
        class_of,
        leaves,
        roots,
        orig,
        spans,
    })
}
