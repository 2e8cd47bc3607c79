//! Prices from the board's operator library: an e-node costs what the unit the scheduler
//! would give the IR op costs (the same classes as `schedule::classify`), weighed into
//! one number: logic, plus registers and DSP blocks at the device's ratio of logic to
//! them (a scarce DSP is worth many ALMs). Latency is priced on the critical path of
//! what a choice builds (`extract.rs`): cycles through the longest chain of units, times
//! a weight (`--latency-weight`). The same weights price whole blocks of IR, which is how
//! a rewrite is accepted and measured.

use egg::{CostFunction, Id, Language};

use super::facts::{hi, konst, may_set, object_base, width, Graph, Kind};
use super::lang::{Bin, Node};
use crate::board::{Board, OpClass, OpLibrary};
use crate::frontend::types::AddrSpace;
use crate::ir::{Block, OpId, OpKind};
use crate::schedule::classify::shape;

/// How the parts of a unit's cost add up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Logic units one register is worth.
    pub register: f64,
    /// Logic units one DSP block is worth.
    pub dsp: f64,
    /// Logic units one cycle on the critical path is worth (`--latency-weight`, the flag
    /// that weighs area against latency): 0 prices area only.
    pub latency: f64,
}

impl Weights {
    /// The device's own ratios (a DSP is worth `logic / dsps` ALMs: what share of the
    /// part it takes), or a Cyclone V's when the board names no resources; a cycle of
    /// latency is priced as the board's 32-bit adder unless `latency` says otherwise, so
    /// that a 34-cycle divider on the path is not judged by its area alone.
    pub fn of(board: &Board, latency: Option<f64>) -> Weights {
        let (reg, dsp) = match &board.resources {
            Some(r) if r.registers > 0 && r.dsps.count > 0 => (
                r.logic.count as f64 / r.registers as f64,
                r.logic.count as f64 / r.dsps.count as f64,
            ),
            _ => (0.25, 374.0),
        };
        let adder = board.library().cost(OpClass::IntAdd, 32).area.logic;
        Weights {
            register: reg,
            dsp,
            latency: latency.unwrap_or(adder as f64),
        }
    }
}

/// A price: area parts and their weighed total (latency is not in it: it is a path's,
/// not a unit's).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Price {
    pub ops: u64,
    pub logic: u64,
    pub registers: u64,
    pub dsps: u64,
    pub score: f64,
}

impl std::ops::AddAssign for Price {
    fn add_assign(&mut self, o: Price) {
        self.ops += o.ops;
        self.logic += o.logic;
        self.registers += o.registers;
        self.dsps += o.dsps;
        self.score += o.score;
    }
}

pub struct Pricer {
    pub lib: OpLibrary,
    pub w: Weights,
}

impl Pricer {
    /// The board's prices, a cycle of latency weighed as its 32-bit adder.
    pub fn new(board: &Board) -> Pricer {
        Pricer::weighing(board, None)
    }

    /// The board's prices with `latency` logic units per cycle on the critical path
    /// (`None`: the board's default).
    pub fn weighing(board: &Board, latency: Option<f64>) -> Pricer {
        Pricer {
            lib: board.library(),
            w: Weights::of(board, latency),
        }
    }

    /// The cycles a unit of `class` adds to a path: its latency plus its combinational
    /// delay as a share of the clock period (chained units share a cycle).
    pub fn cycles(&self, class: OpClass, width: u32) -> f64 {
        let c = self.lib.cost(class, width);
        let part = if self.lib.period_ns.is_finite() && self.lib.period_ns > 0.0 {
            c.delay_ns / self.lib.period_ns
        } else {
            0.0
        };
        c.latency as f64 + part
    }

    /// A priced path: area `score` plus the weighed cycles of its critical path.
    pub fn total(&self, score: f64, cycles: f64) -> f64 {
        score + cycles * self.w.latency
    }

    /// `lanes` units of `class` at `width` bits.
    pub fn price(&self, class: OpClass, width: u32, lanes: u32) -> Price {
        let c = self.lib.cost(class, width);
        let n = lanes.max(1) as u64;
        let (logic, registers, dsps) = (c.area.logic * n, c.area.registers * n, c.area.dsps * n);
        Price {
            ops: 1,
            logic,
            registers,
            dsps,
            score: logic as f64 + registers as f64 * self.w.register + dsps as f64 * self.w.dsp,
        }
    }

    /// Every op of every block of a kernel.
    pub fn kernel(&self, k: &crate::ir::Kernel) -> Price {
        let mut p = Price::default();
        for b in &k.blocks {
            p += self.block(b);
        }
        p
    }

    /// Every op of a block.
    pub fn block(&self, b: &Block) -> Price {
        let mut p = Price::default();
        for &o in &b.order {
            let s = shape(o, b);
            let width = match s.class {
                OpClass::IntMul if s.lanes == 1 => b
                    .operands(o)
                    .iter()
                    .map(|a| ir_bits(b, *a, 4))
                    .max()
                    .unwrap_or(s.width),
                _ => s.width,
            };
            let mut q = self.price(s.class, width, s.lanes);
            if matches!(b.op(o).kind, OpKind::Const(_)) {
                q.ops = 0;
            }
            p += q;
        }
        p
    }
}

/// The bits the values of IR op `o` need, as far as its shape tells (constants,
/// zero-extensions, masks, logical right shifts; `depth` ops deep): what synthesis keeps
/// of a multiplier's input.
fn ir_bits(b: &Block, o: OpId, depth: u32) -> u32 {
    use crate::ir::{BinOp, Conv, Ty};
    let op = b.op(o);
    let full = match op.ty {
        Some(Ty::I(w)) => w as u32,
        _ => 64,
    };
    let args = b.operands(o);
    let konst = |a: OpId| match &b.op(a).kind {
        OpKind::Const(v) if v.len() == 1 => Some(v[0]),
        _ => None,
    };
    let bits = match &op.kind {
        OpKind::Const(v) if v.len() == 1 => 64 - v[0].leading_zeros(),
        _ if depth == 0 => full,
        OpKind::Conv(Conv::Int {
            from_signed: false,
            sat: false,
            ..
        }) => ir_bits(b, args[0], depth - 1),
        OpKind::Binary(BinOp::And) => match konst(args[1]) {
            Some(k) => (64 - k.leading_zeros()).min(ir_bits(b, args[0], depth - 1)),
            None => full,
        },
        OpKind::Binary(BinOp::LShr) => match konst(args[1]) {
            Some(k) if k < full as u64 => ir_bits(b, args[0], depth - 1).saturating_sub(k as u32),
            _ => full,
        },
        _ => full,
    };
    bits.clamp(1, full)
}

/// The bits a class's values need (its bound's length), at most its width.
fn needed_bits(g: &Graph, id: egg::Id) -> u32 {
    (64 - hi(g, id).leading_zeros()).clamp(1, width(g, id))
}

/// The unit class of an e-node, as `schedule::classify` gives it for the IR op it
/// becomes (constant shift counts and power-of-two multiplies and unsigned divisions are
/// wiring there), and its width. A multiply is priced at the bits its operands need:
/// synthesis drops a multiplier's constant-zero high input bits (Yosys `wreduce`), so a
/// 64-bit product of a zero-extended 32-bit value and a 30-bit constant is a 32-bit
/// multiplier.
pub fn class(g: &Graph, n: &Node) -> (OpClass, u32) {
    let ch = n.children();
    let w = |i: usize| width(g, ch[i]);
    let rhs_pow2 = || {
        ch.get(1)
            .and_then(|c| konst(g, *c))
            .is_some_and(u64::is_power_of_two)
    };
    let rhs_const = || ch.get(1).and_then(|c| konst(g, *c)).is_some();
    match n {
        Node::Bin(b, _) => {
            let class = match b {
                Bin::Add | Bin::Sub => OpClass::IntAdd,
                Bin::Mul if rhs_pow2() => OpClass::Wire,
                Bin::Mul => OpClass::IntMul,
                Bin::UDiv | Bin::URem if rhs_pow2() => OpClass::Wire,
                Bin::UDiv | Bin::URem | Bin::SDiv | Bin::SRem => OpClass::IntDiv,
                Bin::Shl | Bin::LShr | Bin::AShr if rhs_const() => OpClass::Wire,
                Bin::Shl | Bin::LShr | Bin::AShr => OpClass::Shift,
                Bin::And | Bin::Or | Bin::Xor => OpClass::IntLogic,
            };
            match class {
                OpClass::IntMul => (class, needed_bits(g, ch[0]).max(needed_bits(g, ch[1]))),
                // Logic on the bits both operands may have set: where one is known
                // zero, the other passes (or the result is zero) as wiring.
                OpClass::IntLogic => match (may_set(g, ch[0]) & may_set(g, ch[1])).count_ones() {
                    0 => (OpClass::Wire, 0),
                    n => (class, n),
                },
                _ => (class, w(0)),
            }
        }
        Node::Neg(_) => (OpClass::IntAdd, w(0)),
        Node::Not(_) => (OpClass::IntLogic, w(0)),
        Node::Cmp(..) => (OpClass::IntCmp, w(0)),
        Node::Select(_) => (OpClass::Mux, w(1)),
        // A pointer into a kernel object is its byte offset there: the object's address
        // is 0, so an offset from it is wiring. (Other pointer additions keep the price of
        // a 64-bit adder: cheaper, they would win over offsets the narrowing rules build
        // at the width they need, which also keep the registers of pointer variables
        // narrow.)
        Node::PtrAdd([p, _]) => match g[*p].data.kind {
            Kind::Ptr(AddrSpace::Local | AddrSpace::Private) if object_base(g, *p) => {
                (OpClass::Wire, 0)
            }
            _ => (OpClass::IntAdd, 64),
        },
        Node::ZExt(..) | Node::SExt(..) | Node::Trunc(..) | Node::Const(..) | Node::Leaf(_) => {
            (OpClass::Wire, 0)
        }
    }
}

/// Tree cost for egg's extractor: area summed over the tree, cycles along its longest
/// path, compared by their weighed total; a small charge per node prefers fewer ops
/// among equal prices (and the plain form of a wire-priced op, such as a power-of-two
/// divide).
pub struct NodeCost<'a> {
    pub g: &'a Graph,
    pub pricer: &'a Pricer,
    /// Count the children's area as if shared (their largest, not their sum): a lower
    /// bound of the DAG's price, a second start for the DAG search.
    pub shared: bool,
}

/// A tree's area score and the cycles of its critical path, ordered by
/// [`Pricer::total`] of the two.
#[derive(Clone, Copy, Debug)]
pub struct TreeCost {
    pub area: f64,
    pub cycles: f64,
    total: f64,
}

impl PartialEq for TreeCost {
    fn eq(&self, o: &TreeCost) -> bool {
        self.total == o.total
    }
}

impl PartialOrd for TreeCost {
    fn partial_cmp(&self, o: &TreeCost) -> Option<std::cmp::Ordering> {
        self.total.partial_cmp(&o.total)
    }
}

impl CostFunction<Node> for NodeCost<'_> {
    type Cost = TreeCost;

    fn cost<C: FnMut(Id) -> TreeCost>(&mut self, n: &Node, mut costs: C) -> TreeCost {
        let (own_area, own_cycles) = own(self.g, self.pricer, n);
        let (area, path) = n.children().iter().fold((own_area, 0.0f64), |(a, d), c| {
            let k = costs(*c);
            let a = if self.shared {
                a.max(own_area + k.area)
            } else {
                a + k.area
            };
            (a, d.max(k.cycles))
        });
        let cycles = path + own_cycles;
        TreeCost {
            area,
            cycles,
            total: self.pricer.total(area, cycles),
        }
    }
}

/// The extractor's charge per op: a hundredth of a logic unit, and up to as much again
/// by its result's width, so that among equal prices the fewest ops win and then the
/// narrowest (`mul (trunc32 x) 64` over `trunc32 (mul x 64)`, which later analyses read
/// better: the narrow product of a small value is known not to reach the sign bit).
pub fn tie_break(g: &Graph, n: &Node) -> f64 {
    charge(node_width(n, |c| width(g, c)))
}

fn charge(width: u32) -> f64 {
    0.01 + 0.01 * f64::from(width) / 64.0
}

/// The result width of `n`, from its operands' (`child`) where its kind does not say.
fn node_width(n: &Node, child: impl Fn(Id) -> u32) -> u32 {
    match n {
        Node::Cmp(..) => 1,
        Node::ZExt(w, _) | Node::SExt(w, _) | Node::Trunc(w, _) | Node::Const(w, _) => *w as u32,
        Node::Select([_, x, _]) => child(*x),
        _ => n.children().first().map_or(64, |c| child(*c)),
    }
}

/// The extractor's charges ([`tie_break`]) summed over the computing nodes of an
/// expression it chose (leaves' widths from `g`'s analysis).
pub fn tie_breaks(g: &Graph, e: &egg::RecExpr<Node>) -> f64 {
    let mut widths: Vec<u32> = Vec::with_capacity(e.as_ref().len());
    let mut sum = 0.0;
    for n in e.as_ref() {
        let w = match n {
            Node::Leaf(i) => g.analysis.leaves.get(*i as usize).map_or(64, |k| k.bits()),
            _ => node_width(n, |c| widths[usize::from(c)]),
        };
        if !matches!(n, Node::Leaf(_) | Node::Const(..)) {
            sum += charge(w);
        }
        widths.push(w);
    }
    sum
}

/// The area score and the cycles of `n` alone, without its children; the area carries
/// the extractor's tie-break charge.
pub fn own(g: &Graph, pricer: &Pricer, n: &Node) -> (f64, f64) {
    match n {
        Node::Leaf(_) | Node::Const(..) => (0.0, 0.0),
        _ => {
            let (class, width) = class(g, n);
            (
                pricer.price(class, width, 1).score + tie_break(g, n),
                pricer.cycles(class, width),
            )
        }
    }
}
