//! The timing model the scheduler and the checker share: each op's latency, delay and
//! the resources it holds (units of its class, memory ports) for how many cycles, and
//! the gap an ordering edge demands. The checker re-derives every constraint from this
//! model on its own; it does not trust the scheduler's bookkeeping.

use std::collections::HashMap;
use std::fmt;

use crate::board::{Limits, OpClass, OpLibrary};
use crate::frontend::types::AddrSpace;
use crate::ir::{Base, Block, OpId, OpKind};

use super::classify::{shape, OpShape};

/// A memory a port belongs to: a buffer argument or an on-chip object, or, when lowering
/// could not tell, every memory of an address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MemKey {
    Base(Base),
    Space(AddrSpace),
}

/// Something ops compete for in a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Resource {
    Unit(OpClass),
    ReadPort(MemKey),
    WritePort(MemKey),
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mem = |m: &MemKey| match m {
            MemKey::Base(Base::Param(i)) => format!("param {i}"),
            MemKey::Base(Base::Object(o)) => format!("object {}", o.0),
            MemKey::Space(s) => format!("any {} memory", s.name()),
        };
        match self {
            Resource::Unit(c) => write!(f, "{c} units"),
            Resource::ReadPort(m) => write!(f, "read ports of {}", mem(m)),
            Resource::WritePort(m) => write!(f, "write ports of {}", mem(m)),
        }
    }
}

/// `units` of `resource` held from the op's start for `cycles` cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Demand {
    pub resource: Resource,
    pub units: u32,
    pub cycles: u32,
}

/// How one op behaves in time.
#[derive(Clone, Debug, PartialEq)]
pub struct OpTiming {
    pub shape: OpShape,
    /// Cycles from start to result, including extra rounds when the op has more lanes
    /// than units are allowed.
    pub latency: u32,
    pub delay_ns: f64,
    pub demands: Vec<Demand>,
    /// Reads memory or a variable and writes nothing (two such ops may issue back to
    /// back without waiting for each other).
    pub pure_read: bool,
    /// A plain store (no result).
    pub pure_write: bool,
    /// The memory a load, store or atomic goes to.
    pub mem: Option<MemKey>,
    pub reads_var: bool,
    pub writes_var: bool,
}

/// The timing of every op of a block under a library and limits.
pub fn block_timing(block: &Block, lib: &OpLibrary, limits: &Limits) -> HashMap<OpId, OpTiming> {
    block
        .order
        .iter()
        .map(|&id| (id, op_timing(id, block, lib, limits)))
        .collect()
}

pub fn op_timing(id: OpId, block: &Block, lib: &OpLibrary, limits: &Limits) -> OpTiming {
    let shape = shape(id, block);
    let cost = lib.cost(shape.class, shape.width);
    let mut latency = cost.latency;
    let mut demands = Vec::new();
    let limit = limits.units_of(shape.class);
    if limit != u32::MAX && !matches!(shape.class, OpClass::Wire | OpClass::Register) {
        // A vector op wider than the units allowed goes through them in rounds.
        let lanes = shape.lanes.max(1);
        let rounds = lanes.div_ceil(limit);
        latency += (rounds - 1) * cost.ii;
        demands.push(Demand {
            resource: Resource::Unit(shape.class),
            units: lanes.min(limit),
            cycles: rounds * cost.ii,
        });
    }
    let mem = mem_key(&block.op(id).kind);
    if let Some(mem) = mem {
        let port = |r| Demand {
            resource: r,
            units: 1,
            cycles: cost.ii,
        };
        if shape.class.reads_memory() {
            demands.push(port(Resource::ReadPort(mem)));
        }
        if shape.class.writes_memory() {
            demands.push(port(Resource::WritePort(mem)));
        }
    }
    let kind = &block.op(id).kind;
    OpTiming {
        shape,
        latency,
        delay_ns: cost.delay_ns,
        demands,
        pure_read: matches!(kind, OpKind::Load { .. } | OpKind::ReadVar(_)),
        pure_write: matches!(kind, OpKind::Store { .. }),
        mem,
        reads_var: matches!(kind, OpKind::ReadVar(_)),
        writes_var: matches!(kind, OpKind::WriteVar(_)),
    }
}

fn mem_key(kind: &OpKind) -> Option<MemKey> {
    match kind {
        OpKind::Load { space, base, .. }
        | OpKind::Store { space, base, .. }
        | OpKind::Atomic { space, base, .. } => Some(match base {
            Some(b) => MemKey::Base(*b),
            None => MemKey::Space(*space),
        }),
        _ => None,
    }
}

/// Cycles from `src`'s start that `dst` must wait across an `Edge::Order`.
/// A variable read may share its cycle with the write that follows it (the register
/// changes at the cycle's end); two reads only keep their issue order; anything else
/// waits until `src` is complete, because buffers may alias and a read and a write to
/// one address go through different AXI units that do not order each other. Stores to
/// one known buffer only keep their issue order: its write unit serves commands in order
/// under one AXI ID, which the interconnect keeps in order too.
pub fn order_gap(src: &OpTiming, dst: &OpTiming) -> u32 {
    let same_buffer = matches!(src.mem, Some(MemKey::Base(_))) && src.mem == dst.mem;
    if src.reads_var && dst.writes_var {
        0
    } else if (src.pure_read && dst.pure_read) || (src.pure_write && dst.pure_write && same_buffer)
    {
        1
    } else {
        src.latency.max(1)
    }
}

/// Cycles an op occupies the block: its latency, at least its own cycle.
pub fn span(t: &OpTiming) -> u32 {
    t.latency.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;
    use crate::ir::{BinOp, Ty, VarId};

    fn store(space: AddrSpace, base: Option<Base>) -> OpKind {
        OpKind::Store {
            space,
            base,
            align: 4,
        }
    }

    fn load(space: AddrSpace, base: Option<Base>) -> OpKind {
        OpKind::Load {
            space,
            base,
            align: 4,
        }
    }

    /// A block: a pointer param, then the given ops on it (stores store the pointer's
    /// low word, loads give i32).
    fn block(kinds: &[OpKind]) -> (Block, Vec<OpId>) {
        let mut b = Block::default();
        let s = Span::default();
        let p = b.add(OpKind::Param(0), Some(Ty::Ptr(AddrSpace::Global)), s, &[]);
        let v = b.add(OpKind::Const(vec![1]), Some(Ty::I(32)), s, &[]);
        let ids = kinds
            .iter()
            .map(|k| match k {
                OpKind::Store { .. } => b.add(k.clone(), None, s, &[p, v]),
                OpKind::Load { .. } => b.add(k.clone(), Some(Ty::I(32)), s, &[p]),
                OpKind::WriteVar(_) => b.add(k.clone(), None, s, &[v]),
                _ => b.add(k.clone(), Some(Ty::I(32)), s, &[v, v]),
            })
            .collect();
        (b, ids)
    }

    fn lib() -> OpLibrary {
        OpLibrary::unit_delay()
    }

    #[test]
    fn order_gaps_wait_for_writes_but_not_between_reads() {
        let g = AddrSpace::Global;
        let (b, ids) = block(&[
            load(g, Some(Base::Param(0))),
            load(g, Some(Base::Param(1))),
            store(g, None),
            OpKind::ReadVar(VarId(0)),
            OpKind::WriteVar(VarId(0)),
        ]);
        let t = |i: usize| op_timing(ids[i], &b, &lib(), &Limits::unlimited());
        let (l0, l1, st, rv, wv) = (t(0), t(1), t(2), t(3), t(4));
        let (mut slow_store, mut slow_load) = (st.clone(), l0.clone());
        slow_store.latency = 7;
        slow_load.latency = 9;
        assert_eq!(order_gap(&slow_load, &l1), 1, "reads keep issue order only");
        assert_eq!(order_gap(&slow_store, &l0), 7, "a read after a write waits");
        assert_eq!(order_gap(&slow_load, &st), 9, "a write after a read waits");
        let mut other = slow_store.clone();
        assert_eq!(
            order_gap(&slow_store, &other),
            7,
            "stores to unknown memory wait"
        );
        let buf = Some(MemKey::Base(Base::Param(1)));
        (slow_store.mem, other.mem) = (buf, buf);
        assert_eq!(
            order_gap(&slow_store, &other),
            1,
            "one buffer's stores stay in order"
        );
        other.mem = Some(MemKey::Base(Base::Param(2)));
        assert_eq!(order_gap(&slow_store, &other), 7, "buffers may alias");
        assert_eq!(
            order_gap(&rv, &wv),
            0,
            "a register may be read and written in one cycle"
        );
        assert_eq!(
            order_gap(&wv, &rv),
            1,
            "a read after a write sees the register next cycle"
        );
    }

    #[test]
    fn ports_belong_to_the_memory_and_atomics_take_both() {
        let (b, ids) = block(&[
            load(AddrSpace::Global, Some(Base::Param(3))),
            store(AddrSpace::Local, None),
            OpKind::Atomic {
                op: crate::ir::AtomicOp::Add,
                space: AddrSpace::Global,
                base: Some(Base::Param(3)),
            },
        ]);
        let t = |i: usize| op_timing(ids[i], &b, &lib(), &Limits::unlimited());
        let r = |d: &[Demand]| d.iter().map(|d| d.resource).collect::<Vec<_>>();
        let buf = MemKey::Base(Base::Param(3));
        assert_eq!(r(&t(0).demands), [Resource::ReadPort(buf)]);
        assert_eq!(
            r(&t(1).demands),
            [Resource::WritePort(MemKey::Space(AddrSpace::Local))]
        );
        assert_eq!(
            r(&t(2).demands),
            [Resource::ReadPort(buf), Resource::WritePort(buf)]
        );
    }

    #[test]
    fn limited_units_are_demanded_per_lane_in_rounds() {
        let mut b = Block::default();
        let s = Span::default();
        let v4 = Ty::vec(Ty::F32, 4);
        let x = b.add(OpKind::Const(vec![0; 4]), Some(v4.clone()), s, &[]);
        let d = b.add(OpKind::Binary(BinOp::FDiv), Some(v4), s, &[x, x]);
        let mut limits = Limits::unlimited();
        limits.units.insert(OpClass::FpDiv, 3);
        let t = op_timing(d, &b, &lib(), &limits);
        // 4 lanes on 3 units: two rounds of II 1, one cycle more latency.
        assert_eq!(t.latency, 2);
        assert_eq!(
            t.demands,
            [Demand {
                resource: Resource::Unit(OpClass::FpDiv),
                units: 3,
                cycles: 2
            }]
        );
    }
}
