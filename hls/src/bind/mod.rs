//! Binding: which hardware unit instance each multi-cycle op runs on, as a side table
//! keyed by (block, op) that the datapath generator reads, never a decision it takes
//! while it writes the netlist.
//!
//! Policy: ops of one shape (class, op and types: the same template) share a unit where
//! their reservations do not meet. In a pipelined loop an op reserves its fully pipelined
//! unit in one slot of the modulo reservation table (`cycle % II`), so a loop at II 3
//! needs about a third of the units. The FSM runs one block at a time and a state waits
//! for the units it starts, so there an op reserves its unit for its II from its start
//! cycle in its block.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::board::{OpClass, OpLibrary};
use crate::ir::{BlockId, Kernel, LoopId, OpId};
use crate::pipeline::PipelinePlan;
use crate::schedule::loops::LoopSchedules;
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
    /// The pipelined loop whose ops share it (`None`: a unit of the FSM).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline: Option<u32>,
}

/// The binding of one kernel (group form).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Binding {
    pub units: Vec<Unit>,
    #[serde(skip)]
    of: BTreeMap<(BlockId, OpId), UnitId>,
    /// The units of pipelined loops' ops (a versioned loop's ops have one in each table:
    /// its ordered version runs on the FSM).
    #[serde(skip)]
    piped: BTreeMap<(BlockId, OpId), UnitId>,
}

impl Binding {
    /// The FSM unit op `o` of block `b` runs on, when its class needs one.
    pub fn unit(&self, b: BlockId, o: OpId) -> Option<(UnitId, &Unit)> {
        let id = *self.of.get(&(b, o))?;
        Some((id, &self.units[id.0 as usize]))
    }

    /// The unit op `o` of block `b` runs on in its pipelined loop.
    pub fn pipe_unit(&self, b: BlockId, o: OpId) -> Option<(UnitId, &Unit)> {
        let id = *self.piped.get(&(b, o))?;
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
    /// The pipelined loop (`L<n>`) whose ops share it; absent for the FSM's units.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline: Option<String>,
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
                pipeline: u.pipeline.map(|l| format!("L{l}")),
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

/// What makes two ops interchangeable on one unit: the class, the op (its kind without
/// operands) and every type, so that the datapath picks the same template and ports.
fn sharing_key(k: &Kernel, b: BlockId, o: OpId) -> String {
    let blk = k.block(b);
    let op = blk.op(o);
    let tys: Vec<String> = std::iter::once(op.ty.as_ref())
        .chain(blk.operands(o).iter().map(|a| blk.op(*a).ty.as_ref()))
        .map(|t| t.map(|t| t.to_string()).unwrap_or_default())
        .collect();
    format!(
        "{} {} {}",
        classify(o, blk).name(),
        crate::ir::print::kind_text(&op.kind),
        tys.join(",")
    )
}

/// Binds every unit op of `k`: ops of the FSM (list schedules `sched`) to instances
/// shared across cycles and blocks, ops of the pipelined loops of `plan` (modulo
/// schedules `loops`) to instances shared across slots.
pub fn bind(
    k: &Kernel,
    lib: &OpLibrary,
    sched: &KernelSchedule,
    loops: &LoopSchedules,
    plan: &PipelinePlan,
) -> Binding {
    let mut b = Binding::default();
    let add = |b: &mut Binding, class: OpClass, width: u32, op: (BlockId, OpId), lp| {
        let id = UnitId(b.units.len() as u32);
        let prefix = match lp {
            Some(LoopId(l)) => format!("p{l}u"),
            None => "u".into(),
        };
        b.units.push(Unit {
            class,
            name: format!("{prefix}{}_{}", id.0, class.name()),
            ii: lib.cost(class, width).ii.max(1),
            ops: vec![(op.0 .0, op.1 .0.index() as u32)],
            pipeline: lp.map(|l: LoopId| l.0),
        });
        id
    };
    // Pipelined loops: the first unit of the op's shape free in its slot.
    for (&lp, pl) in &plan.loops {
        let Some(ms) = loops.loops.get(&lp) else {
            continue;
        };
        let mut free: Free<u32> = BTreeMap::new();
        for &(bid, o) in &pl.ops {
            let s = shape(o, k.block(bid));
            if !needs_unit(s.class) {
                continue;
            }
            // A unit taking a new op less often than every cycle is the op's alone.
            let busy = match lib.cost(s.class, s.width).ii {
                0 | 1 => vec![ms.slot(&(bid, o)).unwrap_or(0)],
                _ => (0..ms.ii.max(1)).collect(),
            };
            let cands = free.entry(sharing_key(k, bid, o)).or_default();
            let id = place(&mut b, cands, busy, (bid, o), |b| {
                add(b, s.class, s.width, (bid, o), Some(lp))
            });
            b.piped.insert((bid, o), id);
        }
    }
    let inside = plan.pipeline_only();
    // The FSM: everything not only in a pipelined loop. A cycle's state waits for the
    // units it starts and keeps their results in registers, so a unit is free again in
    // the block's next cycle it has not reserved (its II) and in any other block.
    let mut free: Free<(BlockId, u32)> = BTreeMap::new();
    for (bi, blk) in k.blocks.iter().enumerate() {
        let bid = BlockId(bi as u32);
        for &o in &blk.order {
            let s = shape(o, blk);
            if !needs_unit(s.class) || inside.contains(&(bid, o)) {
                continue;
            }
            let start = start_cycle(sched, bid, o);
            let ii = lib.cost(s.class, s.width).ii.max(1);
            let busy: Vec<(BlockId, u32)> = (start..start + ii).map(|c| (bid, c)).collect();
            let cands = free.entry(sharing_key(k, bid, o)).or_default();
            let id = place(&mut b, cands, busy, (bid, o), |b| {
                add(b, s.class, s.width, (bid, o), None)
            });
            b.of.insert((bid, o), id);
        }
    }
    b
}

/// Per sharing key, the units of that shape with what each is reserved in (slots of a
/// pipelined loop, or (block, cycle)s of the FSM).
type Free<R> = BTreeMap<String, Vec<(UnitId, Vec<R>)>>;

/// Binds `op`, reserving `busy`, to the first unit of `cands` none of whose reservations
/// meets it, or to a unit `new` makes when there is none.
fn place<R: PartialEq>(
    b: &mut Binding,
    cands: &mut Vec<(UnitId, Vec<R>)>,
    busy: Vec<R>,
    op: (BlockId, OpId),
    new: impl FnOnce(&mut Binding) -> UnitId,
) -> UnitId {
    let free = cands
        .iter_mut()
        .find(|(_, taken)| busy.iter().all(|r| !taken.contains(r)));
    if let Some((id, taken)) = free {
        taken.extend(busy);
        b.units[id.0 as usize]
            .ops
            .push((op.0 .0, op.1 .0.index() as u32));
        return *id;
    }
    let id = new(b);
    cands.push((id, busy));
    id
}

/// The list schedule's start cycle of op `o` of block `b`.
fn start_cycle(sched: &KernelSchedule, b: BlockId, o: OpId) -> u32 {
    sched
        .schedules
        .get(b.0 as usize)
        .and_then(|s| s.cycle.get(&o))
        .copied()
        .unwrap_or(0)
}

/// Every broken rule of binding `b` for `k` scheduled as `sched` (pipelined loops: `loops`
/// and `plan`): each unit op is bound to a unit of its class, two ops sharing an FSM unit
/// in one block never occupy it in the same cycle (blocks run one at a time), and two ops
/// sharing a pipelined loop's unit start in different slots of its II.
pub fn check(
    k: &Kernel,
    sched: &KernelSchedule,
    loops: &LoopSchedules,
    plan: &PipelinePlan,
    b: &Binding,
) -> Vec<String> {
    let mut v = Vec::new();
    let inside = plan.pipeline_only();
    for (lp, pl) in &plan.loops {
        let Some(ms) = loops.loops.get(lp) else {
            continue;
        };
        let mut taken: BTreeMap<(UnitId, u32), OpId> = BTreeMap::new();
        for &(bid, o) in &pl.ops {
            let class = classify(o, k.block(bid));
            let Some((id, u)) = b.pipe_unit(bid, o) else {
                if needs_unit(class) {
                    v.push(format!(
                        "L{} b{} op {}: a {class} op has no unit",
                        lp.0,
                        bid.0,
                        o.0.index()
                    ));
                }
                continue;
            };
            if u.class != class {
                v.push(format!(
                    "b{} op {}: a {class} op is bound to {} ({})",
                    bid.0,
                    o.0.index(),
                    u.name,
                    u.class
                ));
            }
            let slot = ms.slot(&(bid, o)).unwrap_or(0);
            if let Some(other) = taken.insert((id, slot), o) {
                v.push(format!(
                    "{}: ops {} and {} of L{} both start in slot {slot}",
                    u.name,
                    other.0.index(),
                    o.0.index(),
                    lp.0
                ));
            }
        }
    }
    for (bi, blk) in k.blocks.iter().enumerate() {
        let bid = BlockId(bi as u32);
        for &o in &blk.order {
            if inside.contains(&(bid, o)) {
                continue;
            }
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
    for u in b.units.iter().filter(|u| u.pipeline.is_none()) {
        let mut busy: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        for &(bi, o) in &u.ops {
            let start = start_cycle(
                sched,
                BlockId(bi),
                OpId(petgraph::graph::NodeIndex::new(o as usize)),
            );
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

    fn none() -> LoopSchedules {
        LoopSchedules::default()
    }

    fn plan() -> PipelinePlan {
        PipelinePlan::default()
    }

    const SRC: &str = "__kernel void k(__global float *a, __global int *q) {
        int i = get_global_id(0);
        a[i] = a[i] * 2.0f + 1.0f;
        q[i] = q[i] / 3;
    }";

    #[test]
    fn every_unit_op_gets_a_unit_of_its_class() {
        let (k, s, lib) = compiled(SRC);
        let b = bind(&k, &lib, &s, &Default::default(), &Default::default());
        let classes: Vec<OpClass> = b.units.iter().map(|u| u.class).collect();
        assert!(classes.contains(&OpClass::FpMul), "{classes:?}");
        assert!(classes.contains(&OpClass::FpAdd), "{classes:?}");
        assert!(classes.contains(&OpClass::IntDiv), "{classes:?}");
        // a[i] * 2.0f + 1.0f and q[i] / 3: one op of each class, nothing to share.
        assert!(b.units.iter().all(|u| u.ops.len() == 1));
        assert_eq!(check(&k, &s, &none(), &plan(), &b), Vec::<String>::new());
    }

    #[test]
    fn the_checker_rejects_a_unit_shared_in_one_cycle_and_a_missing_unit() {
        let (k, s, lib) = compiled(SRC);
        let mut b = bind(&k, &lib, &s, &none(), &plan());
        // Two ops issued in the same cycle on one unit: build a block where that holds by
        // putting one op on its unit twice.
        let u = &mut b.units[0];
        let first = u.ops[0];
        u.ops.push(first);
        let v = check(&k, &s, &none(), &plan(), &b);
        assert!(v.iter().any(|m| m.contains("both use it")), "{v:?}");
        let mut b = bind(&k, &lib, &s, &none(), &plan());
        let key = *b.of.keys().next().expect("a bound op");
        b.of.remove(&key);
        let v = check(&k, &s, &none(), &plan(), &b);
        assert!(v.iter().any(|m| m.contains("has no unit")), "{v:?}");
    }

    /// Two loads of one buffer hold its single port for two cycles: at II 2 the two
    /// multiplies start in different slots and share one multiplier, which the checker
    /// accepts and refuses once both are placed in one slot.
    #[test]
    fn a_pipelined_loop_at_ii_2_shares_a_unit_between_slots() {
        let src = "__kernel void k(__global const float *a, __global float *o, int n) {
            int i = get_global_id(0);
            o[i] = a[i] * 3.0f + a[i + n] * 5.0f;
        }";
        let c = crate::frontend::check_source("k.cl", src, &Default::default());
        let m = crate::compile::lower(c.program.as_ref().expect("program"), &c.sources)
            .expect("lowering");
        let boards = BoardSet::builtin().expect("boards");
        let board = boards.get("sim").expect("sim");
        let cfg = crate::project::shell_config_for(board);
        let out = crate::compile::compile(&m.kernels[0], &c.sources, board, &cfg)
            .unwrap_or_else(|d| panic!("{:?}", d.list));
        let (lp, ms) = out.pipelines.loops.iter().next().expect("a pipelined loop");
        assert_eq!(ms.ii, 2, "{lp:?}");
        let b = &out.binding;
        let muls: Vec<&Unit> = b
            .units
            .iter()
            .filter(|u| u.class == OpClass::FpMul)
            .collect();
        assert_eq!(muls.len(), 1, "{muls:?}");
        assert_eq!(muls[0].ops.len(), 2, "{muls:?}");
        assert_eq!(muls[0].pipeline, Some(lp.0));
        let k = &out.group.kernel;
        let check_all =
            |b: &Binding, sched: &LoopSchedules| check(k, &out.schedule, sched, &out.plan, b);
        assert_eq!(check_all(b, &out.pipelines), Vec::<String>::new());
        // Both multiplies in one slot: the shared unit would take two ops at once.
        let mut sched = out.pipelines.clone();
        let ms = sched.loops.get_mut(lp).expect("schedule");
        let [x, y] = [muls[0].ops[0], muls[0].ops[1]].map(|(bb, o)| {
            (
                BlockId(bb),
                OpId(petgraph::graph::NodeIndex::new(o as usize)),
            )
        });
        let cx = ms.cycle[&x];
        ms.cycle.insert(y, cx);
        let v = check_all(b, &sched);
        assert!(v.iter().any(|m| m.contains("both start in slot")), "{v:?}");
    }
}
