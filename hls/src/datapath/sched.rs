//! Straight-line blocks to controller states, following the list scheduler: ops that
//! start in the same cycle share a state, combinational ops chained in a cycle are wires
//! between each other, and a value used in a later cycle is captured in a register when
//! its cycle's last state leaves.
//!
//! The schedule's cycles are kept in order but stretched: a cycle's state waits for the
//! units it starts (sticky flags when several run) and each memory access keeps a state
//! of its own in front of its cycle's state (one access at a time, handshakes stall the
//! controller). So the schedule's latency cycles collapse into waits, and an op that uses
//! a memory or unit result lands at least one state after it even where the library
//! promised it in the same cycle.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::fsm::{Next, StateId};
use super::ops::Placed;
use super::Gen;
use crate::diag::Diagnostic;
use crate::ir::{BlockId, OpId, OpKind, Ty};
use crate::rtl::expr::{Const, Expr};
use crate::rtl::netlist::NetId;
use crate::schedule::list::preds;

/// A combinational value: `wire` in the states of `cycle`, `reg` (once some later state
/// needs it) captured when the cycle's last state leaves.
#[derive(Clone, Debug)]
pub struct CombVal {
    pub cycle: u32,
    pub wire: NetId,
    pub reg: Option<NetId>,
    width: u32,
}

/// What the report says about one scheduled block.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BlockFacts {
    pub block: u32,
    /// The scheduler's length in cycles (fixed latencies, no memory stalls).
    pub schedule_cycles: u32,
    /// Controller states the block runs through (each at least one cycle).
    pub states: usize,
}

/// The states of one schedule cycle.
#[derive(Default)]
struct Cycle {
    /// Memory accesses, in block order, each in a state of its own.
    mem: Vec<StateId>,
    /// The state starting units, writing variables and capturing registers.
    main: Option<StateId>,
    needed: bool,
    /// Units started in `main`: done condition, result, result register.
    units: Vec<(Expr, Expr, NetId)>,
    /// Combinational values whose register the cycle's last state fills.
    captures: Vec<(NetId, NetId)>,
}

fn is_memory(k: &OpKind) -> bool {
    matches!(
        k,
        OpKind::Load { .. } | OpKind::Store { .. } | OpKind::Atomic { .. }
    )
}

/// Ops that never start a unit, so they need no state of their own in their cycle.
fn surely_comb(k: &OpKind, ty: Option<&Ty>, operand_f64: bool) -> bool {
    let f64 = operand_f64 || ty.is_some_and(|t| t.elem() == &Ty::F64);
    let int = ty.is_some_and(|t| !t.is_float());
    match k {
        OpKind::ReadVar(_) => true,
        _ if f64 => false,
        OpKind::Bitcast
        | OpKind::Extract(_)
        | OpKind::Insert(_)
        | OpKind::Shuffle(_)
        | OpKind::Splat
        | OpKind::Build
        | OpKind::PtrAdd
        | OpKind::PtrDiff
        | OpKind::Select
        | OpKind::Unary(_) => true,
        OpKind::Binary(b) => {
            use crate::ir::BinOp as B;
            int && !matches!(b, B::UDiv | B::SDiv | B::URem | B::SRem)
        }
        _ => false,
    }
}

impl Gen<'_> {
    fn sched_err(&self, b: BlockId, what: String) -> Diagnostic {
        Diagnostic::error(
            self.k.span,
            format!(
                "internal error: kernel {}, block {}: {what}",
                self.k.name, b.0
            ),
        )
    }

    /// The states of block `b`, continuing to `next`; returns the entry state. `export`
    /// is an op whose value is read after the block (a branch condition).
    pub fn block(
        &mut self,
        b: BlockId,
        next: StateId,
        export: Option<OpId>,
    ) -> Result<StateId, Diagnostic> {
        let blk = self.k.block(b);
        // The schedule stage checked every schedule before this stage ran.
        let sched = self
            .sched
            .schedules
            .get(b.0 as usize)
            .ok_or_else(|| self.sched_err(b, "the block has no schedule".into()))?;
        let order = blk.order.clone();
        // Start cycles stretched so that a memory or unit result is used one state later.
        let mut cyc: HashMap<OpId, u32> = HashMap::new();
        let mut seq: HashSet<OpId> = HashSet::new();
        let mut free: HashSet<OpId> = HashSet::new();
        let mut cycles: BTreeMap<u32, Cycle> = BTreeMap::new();
        let scratch = self.scratch_state();
        for o in order {
            let at = |x: &OpId| sched.cycle.get(x).copied().unwrap_or(0);
            let mut c = at(&o);
            for p in preds(self.k.block(b), o) {
                if free.contains(&p.op) {
                    continue;
                }
                let later = seq.contains(&p.op) || at(&o) > at(&p.op);
                let pc = cyc.get(&p.op).copied().unwrap_or(0);
                c = c.max(pc + later as u32);
            }
            cyc.insert(o, c);
            // Operands from earlier cycles come from registers.
            for a in self.k.block(b).operands(o) {
                self.need_register(b, a, c, &mut cycles);
            }
            self.cur = Some((b, c));
            self.cur_op = Some((b, o));
            if self.op_free(b, o)? {
                free.insert(o);
                continue;
            }
            let op = self.k.block(b).op(o).clone();
            if is_memory(&op.kind) {
                let s = self.memory(b, o)?;
                cycles.entry(c).or_default().mem.push(s);
                seq.insert(o);
                continue;
            }
            let f64_arg = self.k.block(b).operands(o).iter().any(|a| {
                self.k
                    .block(b)
                    .op(*a)
                    .ty
                    .as_ref()
                    .is_some_and(|t| t.elem() == &Ty::F64)
            });
            let comb_only = surely_comb(&op.kind, op.ty.as_ref(), f64_arg);
            let s = if comb_only {
                scratch
            } else {
                self.main_state(c, &mut cycles)
            };
            match self.op_in_state(b, o, s)? {
                Placed::Write => {
                    cycles.entry(c).or_default().needed = true;
                }
                Placed::Comb(wire) => {
                    let width = self.m.net(wire).width;
                    self.comb.insert(
                        (b, o),
                        CombVal {
                            cycle: c,
                            wire,
                            reg: None,
                            width,
                        },
                    );
                }
                Placed::Unit { done, value, reg } => {
                    if comb_only {
                        return Err(
                            self.sched_err(b, "a unit where only wires were expected".into())
                        );
                    }
                    let cy = cycles.entry(c).or_default();
                    cy.needed = true;
                    cy.units.push((done, value, reg));
                    seq.insert(o);
                }
            }
        }
        if let Some(x) = export {
            self.need_register(b, x, u32::MAX, &mut cycles);
        }
        self.cur = None;
        self.cur_op = None;
        let schedule_cycles = sched.length;
        let states = self.chain(cycles, next)?;
        self.blocks.push(BlockFacts {
            block: b.0,
            schedule_cycles,
            states: states.len(),
        });
        Ok(states.first().copied().unwrap_or(next))
    }

    /// A state never entered, for ops that cannot start a unit.
    pub(super) fn scratch_state(&mut self) -> StateId {
        if let Some(s) = self.scratch {
            return s;
        }
        let s = self.fsm.add();
        self.fsm.goto(s, Next::Goto(s));
        self.scratch = Some(s);
        s
    }

    fn main_state(&mut self, c: u32, cycles: &mut BTreeMap<u32, Cycle>) -> StateId {
        let cy = cycles.entry(c).or_default();
        match cy.main {
            Some(s) => s,
            None => {
                let s = self.fsm.add();
                cy.main = Some(s);
                s
            }
        }
    }

    /// A register for combinational value `a` of block `b` when it is read in cycle `c`
    /// (`u32::MAX`: after the block) and was computed in another.
    fn need_register(&mut self, b: BlockId, a: OpId, c: u32, cycles: &mut BTreeMap<u32, Cycle>) {
        let Some(v) = self.comb.get(&(b, a)).cloned() else {
            return;
        };
        if v.cycle == c || v.reg.is_some() {
            return;
        }
        let name = self.fresh("q");
        let reg = self.m.reg(&name, v.width);
        if let Some(l) = self.m.net(v.wire).loc.clone() {
            self.m.set_loc(reg, l);
        }
        if let Some(x) = self.comb.get_mut(&(b, a)) {
            x.reg = Some(reg);
        }
        cycles
            .entry(v.cycle)
            .or_default()
            .captures
            .push((reg, v.wire));
    }

    /// Orders the cycles' states, fills their waits and captures; returns the states.
    fn chain(
        &mut self,
        cycles: BTreeMap<u32, Cycle>,
        next: StateId,
    ) -> Result<Vec<StateId>, Diagnostic> {
        let mut states = Vec::new();
        for (_, mut cy) in cycles {
            // Registers filled by the cycle's last state need one when no access is.
            let needed = cy.needed || (!cy.captures.is_empty() && cy.mem.is_empty());
            let main = match cy.main {
                Some(s) if needed => Some(s),
                Some(s) => {
                    // Made for an op that turned out to be wires: never entered.
                    self.fsm.goto(s, Next::Goto(next));
                    None
                }
                None if needed => Some(self.fsm.add()),
                None => None,
            };
            cy.main = main;
            let last = main.or(cy.mem.last().copied());
            if let Some(last) = last {
                for (reg, wire) in &cy.captures {
                    self.fsm.set(last, *reg, Expr::Net(*wire));
                }
            }
            if let Some(s) = main {
                self.wait_units(s, &cy.units);
            }
            states.extend(cy.mem.iter().copied());
            states.extend(main);
        }
        for w in states.windows(2) {
            self.fsm.goto(w[0], Next::Goto(w[1]));
        }
        if let Some(l) = states.last() {
            self.fsm.goto(*l, Next::Goto(next));
        }
        Ok(states)
    }

    /// State `s` leaves once every unit it started has delivered; each result is
    /// captured when its unit's `done` holds.
    fn wait_units(&mut self, s: StateId, units: &[(Expr, Expr, NetId)]) {
        match units {
            [] => {}
            [(done, value, reg)] => {
                self.fsm.wait_for(s, done.clone());
                self.fsm.set(s, *reg, value.clone());
            }
            _ => {
                let mut all = Expr::lit(1, 1);
                for (done, value, reg) in units {
                    let name = self.fresh("got");
                    let flag = self.m.reg(&name, 1);
                    self.resets.push((flag, Const::zero(1)));
                    self.fsm.set_when(s, *reg, value.clone(), done.clone());
                    self.fsm.set_when(s, flag, Expr::lit(1, 1), done.clone());
                    self.fsm.set(s, flag, Expr::lit(1, 0));
                    all = Expr::land(all, Expr::lor(Expr::Net(flag), done.clone()));
                }
                self.fsm.wait_for(s, all);
            }
        }
    }
}
