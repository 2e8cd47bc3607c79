//! The e-class analysis: every class's type (an integer width or a pointer), when all its
//! inputs are constants its value, an unsigned upper bound of its value (from the
//! leaves' bounds, which the kernel-wide range analysis gives, through `bounds.rs`), and
//! its known trailing zero bits (what shifts and multiplies by constants leave). A
//! class with a value gets the constant node, so folding happens as the e-graph grows and
//! every rule sees constants as constants; the narrowing rules read the bounds.

use egg::{merge_option, Analysis, DidMerge, EGraph, Id};

use super::bounds::{self, Operand};
use super::lang::{eval, mask, Node};
use crate::frontend::types::AddrSpace;

/// What flows through a class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Int(u8),
    Ptr(AddrSpace),
}

impl Kind {
    /// The width of an integer (64 for a pointer, as the cost model counts it).
    pub fn bits(self) -> u32 {
        match self {
            Kind::Int(w) => w as u32,
            Kind::Ptr(_) => 64,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Data {
    pub kind: Kind,
    pub konst: Option<u64>,
    /// No value of the class is above this (unsigned, at its width).
    pub hi: u64,
    /// Every value of the class is a multiple of `2^tz` (its known trailing zeros).
    pub tz: u32,
}

/// The analysis, holding the types of the region's leaves and their bounds (a leaf
/// without one in `leaf_hi` is bounded by its width only).
#[derive(Clone, Debug, Default)]
pub struct Facts {
    pub leaves: Vec<Kind>,
    pub leaf_hi: Vec<u64>,
    /// Leaves that are a kernel object's address: 0 in the datapath, where a pointer into
    /// an object is its byte offset there (`datapath/objects.rs`). Only prices read it.
    pub bases: Vec<bool>,
}

pub type Graph = EGraph<Node, Facts>;

/// The type of `node` from its children's.
fn kind_of(g: &Graph, node: &Node) -> Kind {
    let child = |i: usize| g[node.children()[i]].data.kind;
    match node {
        Node::Bin(..) | Node::Neg(_) | Node::Not(_) => child(0),
        Node::Cmp(..) => Kind::Int(1),
        Node::Select(_) => child(1),
        Node::ZExt(w, _) | Node::SExt(w, _) | Node::Trunc(w, _) | Node::Const(w, _) => {
            Kind::Int(*w)
        }
        Node::PtrAdd(_) => child(0),
        Node::Leaf(i) => g.analysis.leaves[*i as usize],
    }
}

use egg::Language;

impl Analysis<Node> for Facts {
    type Data = Data;

    fn make(g: &mut Graph, node: &Node, _id: Id) -> Data {
        let kind = kind_of(g, node);
        let bits = kind.bits();
        let konst = eval(node, bits, |i| {
            let d = &g[node.children()[i]].data;
            d.konst.map(|v| (v, d.kind.bits()))
        });
        let hi = match (konst, node) {
            (Some(v), _) => v,
            (None, Node::Leaf(i)) => g
                .analysis
                .leaf_hi
                .get(*i as usize)
                .copied()
                .unwrap_or(mask(bits))
                .min(mask(bits)),
            (None, _) => bounds::hi(node, bits, |i| {
                let d = &g[node.children()[i]].data;
                Operand {
                    hi: d.hi,
                    bits: d.kind.bits(),
                    konst: d.konst,
                }
            }),
        };
        // An input bounded by zero is zero (the global offset, which the core never
        // sets). Computed values are left to the rules, which fold them anyway.
        let konst = match (konst, kind, node) {
            (None, Kind::Int(_), Node::Leaf(_)) if hi == 0 => Some(0),
            _ => konst,
        };
        let tz = match konst {
            Some(v) => bounds::tz(&Node::Const(bits as u8, v), bits, |_| (0, None)),
            None => bounds::tz(node, bits, |i| {
                let d = &g[node.children()[i]].data;
                (d.tz, d.konst)
            }),
        };
        Data {
            kind,
            konst,
            hi,
            tz,
        }
    }

    fn merge(&mut self, a: &mut Data, b: Data) -> DidMerge {
        debug_assert_eq!(a.kind, b.kind, "a rule merged classes of different types");
        if let (Some(x), Some(y)) = (a.konst, b.konst) {
            debug_assert_eq!(x, y, "a rule merged different constants");
        }
        // Both bounds hold for the one value: keep the tighter.
        let hi = a.hi.min(b.hi);
        let tz = a.tz.max(b.tz);
        let bounds = DidMerge(hi < a.hi || tz > a.tz, hi < b.hi || tz > b.tz);
        a.hi = hi;
        a.tz = tz;
        merge_option(&mut a.konst, b.konst, |_, _| DidMerge(false, false)) | bounds
    }

    fn modify(g: &mut Graph, id: Id) {
        let d = g[id].data.clone();
        if let (Some(v), Kind::Int(w)) = (d.konst, d.kind) {
            let c = g.add(Node::Const(w, v));
            g.union(id, c);
            // The constant says everything: drop the other ways of computing it.
            g[id].nodes.retain(|n| n.is_leaf());
        }
    }
}

/// Whether a class holds a kernel object's address (a leaf in [`Facts::bases`]).
pub fn object_base(g: &Graph, id: Id) -> bool {
    g[id].nodes.iter().any(|n| match n {
        Node::Leaf(i) => g.analysis.bases.get(*i as usize).copied().unwrap_or(false),
        _ => false,
    })
}

/// The constant value of a class, if it has one.
pub fn konst(g: &Graph, id: Id) -> Option<u64> {
    g[id].data.konst
}

/// The integer width of a class (64 for pointers).
pub fn width(g: &Graph, id: Id) -> u32 {
    g[id].data.kind.bits()
}

/// The unsigned upper bound of a class's value.
pub fn hi(g: &Graph, id: Id) -> u64 {
    g[id].data.hi
}

/// The bits a class's values may have set (by its bound and known trailing zeros).
pub fn may_set(g: &Graph, id: Id) -> u64 {
    let d = &g[id].data;
    bounds::may_set(d.hi, d.tz)
}
