//! The controller: numbered states, the register updates each state makes, and its
//! transitions, turned into one state register and one clocked process at the end.

use std::collections::{BTreeMap, BTreeSet};

use crate::rtl::expr::{BinOp, Const, Expr};
use crate::rtl::netlist::{Module, NetId, SrcLoc};

/// A state of the controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub u32);

/// Width of the state register (more states are refused).
pub const STATE_BITS: u32 = 16;

#[derive(Clone, Debug)]
pub enum Next {
    Goto(StateId),
    /// `cond ? then : else`.
    Branch(Expr, StateId, StateId),
}

/// One register update: `if (state active && when) reg <= value`.
#[derive(Clone, Debug)]
pub struct Upd {
    pub reg: NetId,
    pub value: Expr,
    pub when: Option<Expr>,
}

#[derive(Clone, Debug)]
struct State {
    updates: Vec<Upd>,
    /// The state leaves (and its plain updates happen) when this holds; `None`: after one
    /// cycle.
    advance: Option<Expr>,
    next: Option<Next>,
    loc: Option<SrcLoc>,
}

/// The states being built, and the values driven onto shared nets (stream ports, unit
/// inputs) in particular states.
pub struct Fsm {
    pub state: NetId,
    states: Vec<State>,
    drives: BTreeMap<NetId, Vec<(Expr, Expr)>>,
}

impl Fsm {
    pub fn new(m: &mut Module) -> Fsm {
        Fsm {
            state: m.reg("state", STATE_BITS),
            states: Vec::new(),
            drives: BTreeMap::new(),
        }
    }

    pub fn add(&mut self) -> StateId {
        self.states.push(State {
            updates: Vec::new(),
            advance: None,
            next: None,
            loc: None,
        });
        StateId(self.states.len() as u32 - 1)
    }

    pub fn count(&self) -> usize {
        self.states.len()
    }

    /// `state == s`.
    pub fn active(&self, s: StateId) -> Expr {
        Expr::bin(
            BinOp::Eq,
            Expr::Net(self.state),
            Expr::lit(STATE_BITS, s.0 as u64),
        )
    }

    /// The state is active and leaving this cycle.
    pub fn leaving(&self, s: StateId) -> Expr {
        match &self.states[s.0 as usize].advance {
            Some(a) => Expr::land(self.active(s), a.clone()),
            None => self.active(s),
        }
    }

    /// A register takes `value` when the state leaves.
    pub fn set(&mut self, s: StateId, reg: NetId, value: Expr) {
        self.states[s.0 as usize].updates.push(Upd {
            reg,
            value,
            when: None,
        });
    }

    /// A register takes `value` in every cycle of the state where `when` holds.
    pub fn set_when(&mut self, s: StateId, reg: NetId, value: Expr, when: Expr) {
        self.states[s.0 as usize].updates.push(Upd {
            reg,
            value,
            when: Some(when),
        });
    }

    pub fn wait_for(&mut self, s: StateId, cond: Expr) {
        self.states[s.0 as usize].advance = Some(cond);
    }

    pub fn goto(&mut self, s: StateId, next: Next) {
        self.states[s.0 as usize].next = Some(next);
    }

    pub fn locate(&mut self, s: StateId, loc: Option<SrcLoc>) {
        self.states[s.0 as usize].loc = loc;
    }

    /// `net` carries `value` while `cond` holds (0 when nothing drives it).
    pub fn drive(&mut self, net: NetId, cond: Expr, value: Expr) {
        self.drives.entry(net).or_default().push((cond, value));
    }

    /// Writes the state register's process (reset to `idle`) and the drivers of shared
    /// nets into `m`. `extra` are updates outside any state (pulse defaults), applied
    /// first so the states' updates win.
    pub fn finish(
        self,
        m: &mut Module,
        clk: NetId,
        rst: NetId,
        idle: StateId,
        resets: &[(NetId, Const)],
        defaults: &[(NetId, Expr)],
    ) -> Result<BTreeSet<NetId>, String> {
        if self.states.len() >= (1 << STATE_BITS) {
            return Err(format!(
                "the controller needs {} states (at most {})",
                self.states.len(),
                (1u32 << STATE_BITS) - 1
            ));
        }
        let p = m.process(clk, Some(rst));
        m.reset_value(p, self.state, Const::new(STATE_BITS, idle.0 as u64));
        for (r, c) in resets {
            m.reset_value(p, *r, c.clone());
        }
        for (r, v) in defaults {
            m.update(p, *r, v.clone(), None);
        }
        for (i, s) in self.states.iter().enumerate() {
            let id = StateId(i as u32);
            let leave = self.leaving(id);
            let active = self.active(id);
            for u in &s.updates {
                let when = match &u.when {
                    Some(w) => Expr::land(active.clone(), w.clone()),
                    None => leave.clone(),
                };
                m.update(p, u.reg, u.value.clone(), Some(when));
                if let Some(x) = m.proc_mut(p).updates.last_mut() {
                    x.loc = s.loc.clone();
                }
            }
            let Some(next) = &s.next else {
                return Err(format!("state {i} has no successor"));
            };
            let target = match next {
                Next::Goto(t) => Expr::lit(STATE_BITS, t.0 as u64),
                Next::Branch(c, t, e) => Expr::mux(
                    c.clone(),
                    Expr::lit(STATE_BITS, t.0 as u64),
                    Expr::lit(STATE_BITS, e.0 as u64),
                ),
            };
            m.update(p, self.state, target, Some(leave));
            if let Some(x) = m.proc_mut(p).updates.last_mut() {
                x.loc = s.loc.clone();
            }
        }
        let driven = self.drives.keys().copied().collect();
        for (net, list) in self.drives {
            let e = select(m, net, list);
            m.assign(net, e);
        }
        Ok(driven)
    }
}

/// Drivers of one net per level of the selection tree: long priority chains become
/// groups of this many, each named by a wire, so no line nor mux chain grows with the
/// number of controller states.
const FANIN: usize = 8;

fn is_const(e: &Expr, v: u64) -> bool {
    matches!(e, Expr::Const(c) if c.width == 1 && c.limbs[0] == v)
}

/// `cond` without the `&& 1'b1` the drivers often carry.
fn simplify(cond: Expr) -> Expr {
    match cond {
        Expr::Bin(BinOp::LogicAnd, a, b) if is_const(&b, 1) => simplify(*a),
        Expr::Bin(BinOp::LogicAnd, a, b) if is_const(&a, 1) => simplify(*b),
        e => e,
    }
}

/// The first `(cond, value)` whose condition holds, 0 when none does (the drivers'
/// priority order is kept), as a tree of at most [`FANIN`] inputs per node: each group
/// gives a wire `any` (one of its conditions holds) and a wire with its selection.
fn select(m: &mut Module, net: NetId, list: Vec<(Expr, Expr)>) -> Expr {
    let w = m.net(net).width;
    let name = m.net(net).name.clone();
    let mut list: Vec<(Expr, Expr)> = list
        .into_iter()
        .map(|(c, v)| (simplify(c), v))
        .filter(|(c, _)| !is_const(c, 0))
        .collect();
    let chain = |items: Vec<(Expr, Expr)>| {
        let mut e = Expr::lit(w, 0);
        for (c, v) in items.into_iter().rev() {
            e = Expr::mux(c, v, e);
        }
        e
    };
    let mut level = 0;
    while list.len() > FANIN {
        let mut next = Vec::new();
        let mut groups = Vec::new();
        while !list.is_empty() {
            let rest = list.split_off(FANIN.min(list.len()));
            groups.push(std::mem::replace(&mut list, rest));
        }
        for (g, items) in groups.into_iter().enumerate() {
            let any = m.wire(&format!("{name}_any{level}_{g}"), 1);
            let conds = items.iter().map(|(c, _)| c.clone());
            let or = conds.reduce(Expr::lor).unwrap_or_else(|| Expr::lit(1, 0));
            m.assign(any, or);
            // A 1-bit net driven with constant ones is just the OR of its conditions.
            if w == 1 && items.iter().all(|(_, v)| is_const(v, 1)) {
                next.push((Expr::Net(any), Expr::lit(1, 1)));
                continue;
            }
            let sel = m.wire(&format!("{name}_sel{level}_{g}"), w);
            m.assign(sel, chain(items));
            next.push((Expr::Net(any), Expr::Net(sel)));
        }
        list = next;
        level += 1;
    }
    if w == 1 && list.iter().all(|(_, v)| is_const(v, 1)) {
        return list
            .into_iter()
            .map(|(c, _)| c)
            .reduce(Expr::lor)
            .unwrap_or_else(|| Expr::lit(1, 0));
    }
    chain(list)
}
