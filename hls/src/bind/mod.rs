//! Binding: which hardware unit instance each multi-cycle op runs on, as a side table
//! keyed by (block, op) that the datapath generator reads, never a decision it takes
//! while it writes the netlist.
//!
//! Policy today: one instance per op (the FSM runs one block at a time and starts units
//! in their op's state, so sharing would only save area). Sharing expensive units where
//! a pipelined loop's II leaves them idle is the next step; the checker already holds
//! the rule a shared unit must keep.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::board::{OpClass, OpLibrary};
use crate::ir::{BlockId, Kernel, OpId};
use crate::schedule::{classify, shape, KernelSchedule};

/// A unit instance, an index into [`Binding::units`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct UnitId(pub u32);

/// One unit instance: its operator class, the instance name the Verilog uses (a vector
/// op gets one template per lane, `NAME_lI`), and the ops bound to it.
#[derive(Clone, Debug, Serialize)]
pub struct Unit {
    pub class: OpClass,
    pub name: String,
    /// Initiation interval of the unit on the board (cycles before it takes a new op).
    pub ii: u32,
    pub ops: Vec<(u32, u32)>,
}

/// The binding of one kernel (group form).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Binding {
    pub units: Vec<Unit>,
    #[serde(skip)]
    of: BTreeMap<(BlockId, OpId), UnitId>,
}

impl Binding {
    /// The unit op `o` of block `b` runs on, when its class needs one.
    pub fn unit(&self, b: BlockId, o: OpId) -> Option<(UnitId, &Unit)> {
        let id = *self.of.get(&(b, o))?;
        Some((id, &self.units[id.0 as usize]))
    }
}

/// One unit instance for the report: its instance name, operator class, II and the ops
/// bound to it at their source lines.
#[derive(Clone, Debug, Serialize)]
pub struct UnitReport {
    pub name: String,
    pub class: OpClass,
    pub ii: u32,
    pub ops: Vec<String>,
}

impl Binding {
    /// Every unit with its ops, for `report.json` (`k` is the kernel bound: the group form).
    pub fn report(&self, k: &Kernel, sm: &crate::diag::SourceMap) -> Vec<UnitReport> {
        self.units
            .iter()
            .map(|u| UnitReport {
                name: u.name.clone(),
                class: u.class,
                ii: u.ii,
                ops: u
                    .ops
                    .iter()
                    .filter_map(|&(b, o)| {
                        let blk = k.blocks.get(b as usize)?;
                        let op = blk
                            .graph
                            .node_weight(petgraph::graph::NodeIndex::new(o as usize))?;
                        Some(format!(
                            "{} at {}",
                            crate::ir::print::kind_text(&op.kind),
                            crate::rtl::netlist::SrcLoc::of_span(sm, op.span)
                        ))
                    })
                    .collect(),
            })
            .collect()
    }
}

/// Classes built from a multi-cycle template instance: the ops the binding places.
pub fn needs_unit(class: OpClass) -> bool {
    matches!(
        class,
        OpClass::IntDiv
            | OpClass::FpAdd
            | OpClass::FpMul
            | OpClass::FpFma
            | OpClass::FpDiv
            | OpClass::FpSqrt
            | OpClass::FpCmp
            | OpClass::FpMinMax
            | OpClass::FpToInt
            | OpClass::IntToFp
            | OpClass::FpToHalf
            | OpClass::HalfToFp
            | OpClass::MathFn
    )
}

/// Binds every unit op of `k` to an instance of its own.
pub fn bind(k: &Kernel, lib: &OpLibrary) -> Binding {
    let mut b = Binding::default();
    for (bi, blk) in k.blocks.iter().enumerate() {
        let bid = BlockId(bi as u32);
        for &o in &blk.order {
            let s = shape(o, blk);
            if !needs_unit(s.class) {
                continue;
            }
            let id = UnitId(b.units.len() as u32);
            b.units.push(Unit {
                class: s.class,
                name: format!("u{}_{}", id.0, s.class.name()),
                ii: lib.cost(s.class, s.width).ii.max(1),
                ops: vec![(bid.0, o.0.index() as u32)],
            });
            b.of.insert((bid, o), id);
        }
    }
    b
}

/// Every broken rule of binding `b` for `k` scheduled as `sched`: each unit op is bound
/// to a unit of its class, and two ops sharing a unit in one block never occupy it in the
/// same cycle (blocks run one at a time).
pub fn check(k: &Kernel, sched: &KernelSchedule, b: &Binding) -> Vec<String> {
    let mut v = Vec::new();
    for (bi, blk) in k.blocks.iter().enumerate() {
        let bid = BlockId(bi as u32);
        for &o in &blk.order {
            let class = classify(o, blk);
            match (needs_unit(class), b.unit(bid, o)) {
                (true, None) => v.push(format!(
                    "b{bi} op {}: a {class} op has no unit",
                    o.0.index()
                )),
                (_, Some((_, u))) if u.class != class => v.push(format!(
                    "b{bi} op {}: a {class} op is bound to {} ({})",
                    o.0.index(),
                    u.name,
                    u.class
                )),
                _ => {}
            }
        }
    }
    for u in &b.units {
        let mut busy: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        for &(bi, o) in &u.ops {
            let start = sched
                .schedules
                .get(bi as usize)
                .and_then(|s| {
                    s.cycle
                        .get(&OpId(petgraph::graph::NodeIndex::new(o as usize)))
                })
                .copied()
                .unwrap_or(0);
            for c in start..start + u.ii {
                if let Some(other) = busy.insert((bi, c), o) {
                    v.push(format!(
                        "{}: ops {other} and {o} of b{bi} both use it in cycle {c}",
                        u.name
                    ));
                }
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSet;

    fn compiled(src: &str) -> (Kernel, KernelSchedule, OpLibrary) {
        let c = crate::frontend::check_source("k.cl", src, &Default::default());
        let m = crate::lower::lower(c.program.as_ref().expect("program"), &c.sources)
            .expect("lowering");
        let g = crate::workitems::to_group_form(&m.kernels[0]).expect("group form");
        let boards = BoardSet::builtin().expect("boards");
        let lib = boards.get("sim").expect("sim").library();
        let s = crate::schedule::schedule_kernel(&g.kernel, &lib, &lib.limits).expect("schedule");
        (g.kernel, s, lib)
    }

    const SRC: &str = "__kernel void k(__global float *a, __global int *q) {
        int i = get_global_id(0);
        a[i] = a[i] * 2.0f + 1.0f;
        q[i] = q[i] / 3;
    }";

    #[test]
    fn every_unit_op_gets_its_own_instance() {
        let (k, s, lib) = compiled(SRC);
        let b = bind(&k, &lib);
        let classes: Vec<OpClass> = b.units.iter().map(|u| u.class).collect();
        assert!(classes.contains(&OpClass::FpMul), "{classes:?}");
        assert!(classes.contains(&OpClass::FpAdd), "{classes:?}");
        assert!(classes.contains(&OpClass::IntDiv), "{classes:?}");
        assert!(b.units.iter().all(|u| u.ops.len() == 1));
        assert_eq!(check(&k, &s, &b), Vec::<String>::new());
    }

    #[test]
    fn the_checker_rejects_a_unit_shared_in_one_cycle_and_a_missing_unit() {
        let (k, s, lib) = compiled(SRC);
        let mut b = bind(&k, &lib);
        // Two ops issued in the same cycle on one unit: build a block where that holds by
        // putting one op on its unit twice.
        let u = &mut b.units[0];
        let first = u.ops[0];
        u.ops.push(first);
        let v = check(&k, &s, &b);
        assert!(v.iter().any(|m| m.contains("both use it")), "{v:?}");
        let mut b = bind(&k, &lib);
        let key = *b.of.keys().next().expect("a bound op");
        b.of.remove(&key);
        let v = check(&k, &s, &b);
        assert!(v.iter().any(|m| m.contains("has no unit")), "{v:?}");
    }
}
