//! A pipelined loop (the `pipeline` stage's plan, the `modulo` stage's schedule) as one
//! controller state: a new iteration enters every II cycles, each op runs at its
//! scheduled cycle of its iteration, and one stall signal freezes the whole pipeline.
//!
//! Scheme: iteration time `t` is stage `t / II`, slot `t % II`. A valid bit per stage
//! says an iteration is there; `slot` counts the cycles of a stage. Everything moves
//! only when `en` (no stall) holds: the slot counter, the valid bits at a stage's end,
//! every unit (their `en` inputs) and every value register, so a stalled pipeline keeps
//! each iteration's place and the units' fixed latencies stay exact. The pipeline stalls
//! while a memory unit cannot take a request or has not delivered a response the
//! schedule expects at that cycle.
//!
//! Values: an op's result is a wire in the cycle it becomes available (`avail`: its
//! start, plus the unit's latency). A later user reads a chain of registers, each taken
//! from the one before when the next iteration's value arrives (every II cycles), so a
//! value that lives longer than II cycles rotates through the chain without clobbering.
//! A long stretch of a chain that only carries the value along (across a memory
//! latency) is a RAM delay line instead, which moves with the same enable.
//! Variables are one register each: a read after a write of the same iteration takes the
//! written value; a read before it takes the register, forwarded from the previous
//! iteration's write when that lands in the same cycle; only the last write of an
//! iteration updates the register.
//!
//! If-conversion: every block of the iteration runs; a load, store or variable write in
//! a block inside an `if` also needs the block's guard (the tests on its way, which the
//! schedule computes first), and a guarded variable write gives the new value where the
//! guard holds and the value before where it does not.
//!
//! Exit: the `while` test is known within the first stage (the schedule makes sure), and
//! every side effect comes at or after it, gated by it, so an iteration that fails the
//! test does nothing and the next one is not admitted. A work-item loop running across
//! work-groups instead steps the group counters and resets the local ids there. The
//! state is left once no stage is valid and the loop's memory units are idle (all
//! stores acknowledged), so the FSM after it sees memory as the loop left it.

use std::collections::HashMap;

use super::fsm::{Next, StateId};
use super::{port, Gen};
use crate::diag::Diagnostic;
use crate::ir::{BlockId, LoopId, OpId, OpKind, VarId, WorkItemFn};
use crate::rtl::expr::{BinOp, Const, Expr};
use crate::rtl::netlist::{Instance, NetId, SrcLoc};

/// The pipeline's control while its ops are generated (read by `Gen::unit`).
#[derive(Clone)]
pub(crate) struct PipeCtx {
    /// No stall: the units' `en`.
    pub en: Expr,
    /// The op's start slot: a unit's `in_valid`.
    pub issue: Expr,
    /// Latency of the last unit started for the op being generated.
    pub latency: Option<u32>,
    /// The pipeline's controller state.
    pub run: StateId,
}

/// A value of one iteration: a wire in cycle `avail` (`None`: constant, valid always),
/// then the chain (an index into [`Chains::list`]) holding it `II`, `2 II`... cycles
/// later.
struct Val {
    avail: Option<u32>,
    wire: NetId,
    chain: Option<usize>,
}

/// A run of at least this many chain positions that nobody reads but the last becomes
/// one `ohls_delay_ram` instead of registers. Yosys (`synth_intel_alm`) maps a 16-deep,
/// 32-bit line to 32 MLAB cells (16 ALMs), 40 flip-flops and ~17 LUTs, where the
/// registers are 512 flip-flops (128 ALMs once registers bound the design); a 240-deep
/// one (the DE10-Nano memory latency) to 2 M10K per 32 bits and 16 flip-flops. In a
/// design that logic bounds, registers share ALMs with the logic while a line's fixed
/// cost (two pointers, their incrementers, the output register: ~30 ALMs) is added:
/// integer_ops' 17 lines of 16-19 positions took it from 10,712 to 11,257 ALMs with the
/// opt stage on. Runs as long as a memory latency are what the lines are for.
pub(crate) const DELAY_RAM_MIN_DEPTH: usize = 64;
/// ... and at least this many bits in all: the pointers cost the same for a 1-bit flag,
/// where they are worth about as much as the flip-flops they replace.
pub(crate) const DELAY_RAM_MIN_BITS: usize = 256;

/// One value's chain: position `i` holds the value `(i + 1) II` cycles after it is
/// captured from `src` in slot `phase`.
struct Chain {
    src: NetId,
    phase: u32,
    width: u32,
    loc: Option<SrcLoc>,
    /// Per position, its register's name and the register once a user reads it; the
    /// positions only passed through get theirs when the chain is emitted, unless they
    /// end up inside a delay line.
    taps: Vec<(String, Option<NetId>)>,
}

/// The loop's chains, built as users ask for positions.
#[derive(Default)]
struct Chains {
    list: Vec<Chain>,
    /// (chain, position) in the order positions were first needed: the order the
    /// registers' updates are emitted in.
    order: Vec<(usize, usize)>,
}

/// What the report says about a pipelined loop.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PipeFacts {
    #[serde(rename = "loop")]
    pub lp: u32,
    pub ii: u32,
    pub depth: u32,
    pub stages: u32,
    pub cross_group: bool,
}

/// The loop being generated.
struct Pipe {
    ii: u32,
    valid: NetId,
    slot: Option<NetId>,
    vals: HashMap<(BlockId, OpId), Val>,
    chains: Chains,
    /// Stall terms: a memory unit not ready where the schedule needs it.
    stall_terms: Vec<Expr>,
    /// The exit test: its wire in `exit_at`, its register after.
    exit: Option<(u32, Expr, NetId)>,
}

impl Pipe {
    /// The cycle's slot is `t % II`.
    fn in_slot(&self, t: u32) -> Expr {
        match self.slot {
            Some(s) => Expr::bin(
                BinOp::Eq,
                Expr::Net(s),
                Expr::lit(slot_bits(self.ii), (t % self.ii) as u64),
            ),
            None => Expr::lit(1, 1),
        }
    }

    /// An iteration is at time `t` this cycle (and has not failed its exit test).
    fn at(&self, t: u32) -> Expr {
        let stage = t / self.ii;
        let v = Expr::land(Expr::bit(self.valid, stage), self.in_slot(t));
        match &self.exit {
            Some((x, wire, _)) if t == *x => Expr::land(v, wire.clone()),
            Some((x, _, q)) if t > *x && t < self.ii => Expr::land(v, Expr::Net(*q)),
            _ => v,
        }
    }
}

fn slot_bits(ii: u32) -> u32 {
    (32 - (ii.max(2) - 1).leading_zeros()).max(1)
}

impl Gen<'_> {
    /// Loop `id` as a pipeline continuing to `next`; returns its entry state.
    pub(super) fn pipelined(&mut self, id: LoopId, next: StateId) -> Result<StateId, Diagnostic> {
        let span = self.k.lp(id).span;
        let ierr = |m: String| {
            Diagnostic::error(
                span,
                format!("internal error: pipelined loop L{}: {m}", id.0),
            )
        };
        let pl = self
            .plan
            .loops
            .get(&id)
            .cloned()
            .ok_or_else(|| ierr("no plan".into()))?;
        let ms = self
            .pipes
            .loops
            .get(&id)
            .ok_or_else(|| ierr("no modulo schedule".into()))?;
        // Values the loop's ordered version (when versioned) left behind are not the
        // pipeline's.
        for k in &pl.ops {
            self.comb.remove(k);
            self.vals.remove(k);
        }
        let ii = ms.ii.max(1);
        let cycle = |k: &(BlockId, OpId)| ms.cycle.get(k).copied().unwrap_or(0);
        // Stages: up to the last value any op produces (a load's response, a unit's
        // result).
        let last = pl
            .ops
            .iter()
            .map(|k| cycle(k) + pl.latency.get(k).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        let stages = last / ii + 1;
        let tag = format!("p{}", id.0);
        let pre = self.fsm.add();
        let run = self.fsm.add();
        let loc = SrcLoc::of_span(self.sm, span);
        self.fsm.locate(pre, Some(loc.clone()));
        self.fsm.locate(run, Some(loc.clone()));
        let valid = self.m.reg(&format!("{tag}_valid"), stages);
        self.m.set_loc(valid, loc.clone());
        self.resets.push((valid, Const::zero(stages)));
        let admit = self.m.reg(&format!("{tag}_admit"), 1);
        self.resets.push((admit, Const::zero(1)));
        let slot = (ii > 1).then(|| {
            let s = self.m.reg(&format!("{tag}_slot"), slot_bits(ii));
            self.resets.push((s, Const::zero(slot_bits(ii))));
            s
        });
        let stall = self.m.wire(&format!("{tag}_stall"), 1);
        let en = self.m.wire(&format!("{tag}_en"), 1);
        self.m.assign(en, Expr::lnot(Expr::Net(stall)));
        let mut p = Pipe {
            ii,
            valid,
            slot,
            vals: HashMap::new(),
            chains: Chains::default(),
            stall_terms: Vec::new(),
            exit: None,
        };
        let scratch = self.scratch_state();
        // The last write of each variable in the iteration, and the SSA value of a
        // variable after each write.
        let mut last_write: HashMap<VarId, (BlockId, OpId)> = HashMap::new();
        for &(b, o) in &pl.ops {
            if let OpKind::WriteVar(v) = self.k.block(b).op(o).kind {
                last_write.insert(v, (b, o));
            }
        }
        let mut ssa: HashMap<VarId, (BlockId, OpId)> = HashMap::new();
        let mut alias: HashMap<(BlockId, OpId), (BlockId, OpId)> = HashMap::new();
        let key = |alias: &HashMap<(BlockId, OpId), (BlockId, OpId)>, k: (BlockId, OpId)| {
            alias.get(&k).copied().unwrap_or(k)
        };
        let mut forwards: Vec<(NetId, VarId)> = Vec::new();
        // Per variable, the value its last write commits.
        let mut committed: HashMap<VarId, (BlockId, OpId)> = HashMap::new();
        let mut buffers_used: Vec<(String, bool)> = Vec::new();
        // Per on-chip memory, direction (write?) and slot: the read copies or write lanes
        // taken so far.
        let mut ports_used: PortsUsed = HashMap::new();
        // Wide loads' request conditions to fill in once every op is there: the blocks
        // of their members, the time, the 1-bit wire.
        let mut any_guard: Vec<(Vec<BlockId>, u32, NetId)> = Vec::new();
        // Per store unit an ordered load waits on: the stores sent, counting this cycle's.
        let mut sent_counts: HashMap<String, (NetId, NetId)> = HashMap::new();
        for &(b, o) in &pl.ops {
            let t = cycle(&(b, o));
            let op = self.k.block(b).op(o).clone();
            let args = self.k.block(b).operands(o);
            let oloc = SrcLoc::of_span(self.sm, op.span);
            self.cur_op = Some((b, o));
            // Every op reaches the exit test below, free ones and aliases too.
            'op: {
                match &op.kind {
                    OpKind::ReadVar(v) => {
                        if let Some(src) = ssa.get(v).copied() {
                            // The value written earlier in this iteration: users read it.
                            alias.insert((b, o), src);
                            break 'op;
                        }
                        let tw = last_write.get(v).map(cycle);
                        let w = self
                            .register_read(*v, (t, ii), tw, &mut forwards, oloc)
                            .map_err(ierr)?;
                        let avail = last_write.contains_key(v).then_some(t);
                        p.vals.insert(
                            (b, o),
                            Val {
                                avail,
                                wire: w,
                                chain: None,
                            },
                        );
                    }
                    OpKind::WriteVar(v) => {
                        let mut src = key(&alias, (b, args[0]));
                        if let Some(guard) = pl.guards.get(&b) {
                            // If-converted: the new value where the guard holds, else the
                            // value before (an earlier write, or the register, which holds the
                            // previous iteration's value until this iteration's last write).
                            let new = self.pipe_value(&mut p, src, t)?;
                            // Before any write of this iteration: the register, forwarded
                            // like a read when the previous iteration's last write lands in
                            // this very cycle.
                            let prior = match ssa.get(v).copied() {
                                Some(k) => self.pipe_value(&mut p, k, t)?,
                                None => self
                                    .register_read(
                                        *v,
                                        (t, ii),
                                        last_write.get(v).map(cycle),
                                        &mut forwards,
                                        oloc.clone(),
                                    )
                                    .map_err(ierr)?,
                            };
                            let g = self.pipe_guard(&mut p, guard, t, &alias)?;
                            let (name, width) = (self.fresh("pm"), self.m.net(new).width);
                            let w = self.m.wire(&name, width);
                            self.m.set_loc(w, oloc);
                            self.m
                                .assign(w, Expr::mux(g, Expr::Net(new), Expr::Net(prior)));
                            p.vals.insert(
                                (b, o),
                                Val {
                                    avail: Some(t),
                                    wire: w,
                                    chain: None,
                                },
                            );
                            src = (b, o);
                        }
                        ssa.insert(*v, src);
                        if last_write.get(v) == Some(&(b, o)) {
                            committed.insert(*v, src);
                            let val = self.pipe_value(&mut p, src, t)?;
                            let when = Expr::land(p.at(t), Expr::Net(en));
                            self.fsm
                                .set_when(run, self.vars[v.0 as usize], Expr::Net(val), when);
                        }
                    }
                    OpKind::Load {
                        base: Some(base), ..
                    } if self.objs.contains_key(base) => {
                        let ram = self.objs[base].clone();
                        let (re, raddr, rdata) =
                            next_port(&mut ports_used, &ram.reads, (*base, false, t % ii))
                                .ok_or_else(|| {
                                    ierr(
                                        "more reads of one memory in a slot than it has copies"
                                            .into(),
                                    )
                                })?;
                        let addr = self.pipe_value(&mut p, key(&alias, (b, args[0])), t)?;
                        let at = self.pipe_at(&mut p, pl.guards.get(&b), t, &alias)?;
                        let word = self.ram_word_addr(&ram, addr);
                        let fire = Expr::land(at, Expr::Net(en));
                        self.fsm.drive(re, fire.clone(), Expr::lit(1, 1));
                        self.fsm.drive(raddr, fire, word);
                        // The RAM's read is registered: the word is there the next cycle and
                        // stays until the copy's next read (which a stall holds back).
                        let width = op.ty.as_ref().map(|t| t.bits()).unwrap_or(8);
                        let name = self.fresh("prd");
                        let w = self.m.wire(&name, width);
                        self.m.set_loc(w, oloc);
                        self.m.assign(
                            w,
                            Expr::Slice {
                                net: rdata,
                                hi: width - 1,
                                lo: 0,
                            },
                        );
                        p.vals.insert(
                            (b, o),
                            Val {
                                avail: Some(t + 1),
                                wire: w,
                                chain: None,
                            },
                        );
                    }
                    OpKind::Store {
                        base: Some(base), ..
                    } if self.objs.contains_key(base) => {
                        let ram = self.objs[base].clone();
                        let (we, waddr, wdata) =
                            next_port(&mut ports_used, &ram.writes, (*base, true, t % ii))
                                .ok_or_else(|| {
                                    ierr(
                                        "more writes of one memory in a slot than it has lanes"
                                            .into(),
                                    )
                                })?;
                        let addr = self.pipe_value(&mut p, key(&alias, (b, args[0])), t)?;
                        let data = self.pipe_value(&mut p, key(&alias, (b, args[1])), t)?;
                        let at = self.pipe_at(&mut p, pl.guards.get(&b), t, &alias)?;
                        let word = self.ram_word_addr(&ram, addr);
                        let fire = Expr::land(at, Expr::Net(en));
                        let dw = self.m.net(data).width;
                        let value = if dw < 8 * ram.word {
                            Expr::zext(Expr::Net(data), 8 * ram.word - dw)
                        } else {
                            Expr::Net(data)
                        };
                        self.fsm.drive(we, fire.clone(), Expr::lit(1, 1));
                        self.fsm.drive(waddr, fire.clone(), word);
                        self.fsm.drive(wdata, fire, value);
                    }
                    OpKind::Load { base, .. } => {
                        // A wide group's other members take their lanes of its issuer's answer.
                        if self.memory.wide.rides_along((b, o)) {
                            break 'op;
                        }
                        let group = self.memory.wide.group((b, o)).cloned();
                        let buf = self.buffer(*base, op.span)?;
                        buffers_used.push((buf.clone(), true));
                        let lat = pl.latency.get(&(b, o)).copied().unwrap_or(1).max(1);
                        let addr = self.pipe_value(&mut p, key(&alias, (b, args[0])), t)?;
                        let aw = self.cfg.addr_width;
                        let below = group
                            .as_ref()
                            .and_then(|g| g.offset_of((b, o)))
                            .unwrap_or(0);
                        let q = |g: &Gen, n: &str| port(&g.m, &format!("{buf}_ld_{n}"));
                        let (rv, rr, ra) = (
                            q(self, "req_valid")?,
                            q(self, "req_ready")?,
                            q(self, "req_addr")?,
                        );
                        let (sv, sr, sd) = (
                            q(self, "resp_valid")?,
                            q(self, "resp_ready")?,
                            q(self, "resp_data")?,
                        );
                        // An access narrower than the unit's element asks for the element
                        // holding it and takes its own bytes from the answer (the plan
                        // makes sure it does not straddle two).
                        let unit_bits = self.m.net(sd).width;
                        let own_bits = match &group {
                            Some(g) => g.bytes() * 8,
                            None => op
                                .ty
                                .as_ref()
                                .map_or(unit_bits, |t| t.bits().div_ceil(8) * 8),
                        };
                        let narrow = own_bits < unit_bits;
                        let tp = t + lat;
                        // A group with members under other guards is requested where any
                        // member's guard holds; those guards' tests may come later in
                        // program order (the schedule has them ready by `t`), so the
                        // request's condition is filled in after the iteration's ops.
                        let (at, atp) = match group.as_ref().filter(|g| g.spans_blocks()) {
                            None => (
                                self.pipe_at(&mut p, pl.guards.get(&b), t, &alias)?,
                                self.pipe_at(&mut p, pl.guards.get(&b), tp, &alias)?,
                            ),
                            Some(g) => {
                                let (na, np) = (self.fresh("pgr"), self.fresh("pgr"));
                                let wa = self.m.wire(&na, 1);
                                let wp = self.m.wire(&np, 1);
                                let blocks: Vec<BlockId> = g.lanes.iter().map(|m| m.0).collect();
                                any_guard.push((blocks.clone(), t, wa));
                                any_guard.push((blocks, tp, wp));
                                (Expr::Net(wa), Expr::Net(wp))
                            }
                        };
                        // A narrower access's own address (its group's, for a wide one)
                        // gives the request, rounded down, and its offset in the answer.
                        let (req, own) = if narrow {
                            let name = self.fresh("pla");
                            let own = self.m.wire(&name, aw);
                            self.m.assign(own, group_address(addr, aw, below));
                            let below_unit = (unit_bits / 8 - 1) as u64;
                            let keep = !below_unit & (u64::MAX >> (64 - aw.min(64)));
                            let req = Expr::bin(BinOp::And, Expr::Net(own), Expr::lit(aw, keep));
                            (req, Some(own))
                        } else {
                            (group_address(addr, aw, below), None)
                        };
                        self.fsm.drive(ra, at.clone(), req);
                        self.fsm
                            .drive(rv, Expr::land(at.clone(), Expr::Net(en)), Expr::lit(1, 1));
                        // A load after earlier iterations' stores it may read waits until
                        // the store of iteration `i - distance` is acknowledged: the count
                        // of stores sent as that store went (the schedule issued it
                        // already) rides a chain to this load's stage `distance`
                        // iterations later, and the unit's count of acknowledged stores
                        // must reach it.
                        for w in pl.ordered_loads.get(&(b, o)).into_iter().flatten() {
                            let sop = self.k.block(w.store.0).op(w.store.1).clone();
                            let OpKind::Store { base, .. } = &sop.kind else {
                                continue;
                            };
                            let sbuf = self.buffer(*base, sop.span)?;
                            let (sent, now) = match sent_counts.get(&sbuf) {
                                Some(n) => *n,
                                None => {
                                    let n = self.st_sent_counter(&sbuf, pre, run)?;
                                    sent_counts.insert(sbuf.clone(), n);
                                    n
                                }
                            };
                            let mut at_store = Val {
                                avail: Some(cycle(&w.store)),
                                wire: now,
                                chain: None,
                            };
                            let need =
                                self.delayed(ii, &mut p.chains, &mut at_store, t + w.distance * ii);
                            let acked = port(&self.m, &format!("{sbuf}_st_acked"))?;
                            let name = self.fresh("pow");
                            let ahead = self.m.wire(&name, 32);
                            self.m.assign(
                                ahead,
                                Expr::bin(BinOp::Sub, Expr::Net(acked), Expr::Net(need)),
                            );
                            // Behind (wrapping): the store is not acknowledged yet. A
                            // count above the stores sent so far is no store of this run
                            // (the chain's positions before its first `distance`
                            // iterations hold older values): nothing to wait for.
                            let name = self.fresh("pos");
                            let since = self.m.wire(&name, 32);
                            self.m.assign(
                                since,
                                Expr::bin(BinOp::Sub, Expr::Net(sent), Expr::Net(need)),
                            );
                            let sign = |n: NetId| Expr::Slice {
                                net: n,
                                hi: 31,
                                lo: 31,
                            };
                            let behind = Expr::land(sign(ahead), Expr::lnot(sign(since)));
                            let waiting = Expr::land(at.clone(), behind);
                            // The unit would hold the store for a longer burst: waiting, the
                            // load has it written out now.
                            let flush = port(&self.m, &format!("{sbuf}_st_flush"))?;
                            self.fsm.drive(flush, waiting.clone(), Expr::lit(1, 1));
                            p.stall_terms.push(waiting);
                        }
                        p.stall_terms
                            .push(Expr::land(at, Expr::lnot(Expr::Net(rr))));
                        self.fsm
                            .drive(sr, Expr::land(atp.clone(), Expr::Net(en)), Expr::lit(1, 1));
                        p.stall_terms
                            .push(Expr::land(atp, Expr::lnot(Expr::Net(sv))));
                        let (name, width) = (self.fresh("pld"), own_bits);
                        let w = self.m.wire(&name, width);
                        self.m.set_loc(w, oloc.clone());
                        if let Some(own) = own {
                            // The access's byte offset in the element, taken from its
                            // address with the request and kept until the answer arrives
                            // (a few bits, not the address).
                            let off_bits = (unit_bits / 8).trailing_zeros();
                            let name = self.fresh("plo");
                            let off = self.m.wire(&name, off_bits);
                            self.m.assign(
                                off,
                                Expr::Slice {
                                    net: own,
                                    hi: off_bits - 1,
                                    lo: 0,
                                },
                            );
                            let mut held = Val {
                                avail: Some(t),
                                wire: off,
                                chain: None,
                            };
                            let off_tp = self.delayed(p.ii, &mut p.chains, &mut held, tp);
                            let shift = Expr::Concat(vec![Expr::Net(off_tp), Expr::lit(3, 0)]);
                            let name = self.fresh("pls");
                            let shifted = self.m.wire(&name, unit_bits);
                            self.m
                                .assign(shifted, Expr::bin(BinOp::Shr, Expr::Net(sd), shift));
                            self.m.assign(
                                w,
                                Expr::Slice {
                                    net: shifted,
                                    hi: width - 1,
                                    lo: 0,
                                },
                            );
                        } else {
                            self.m.assign(w, Expr::Net(sd));
                        }
                        let lanes = match &group {
                            Some(g) => g
                                .lanes
                                .iter()
                                .enumerate()
                                .map(|(i, m)| (*m, i as u32 * g.lane_bytes * 8, g.lane_bytes * 8))
                                .collect(),
                            None => vec![((b, o), 0, width)],
                        };
                        for (m, lo, bits) in lanes {
                            let wire = if bits == width {
                                w
                            } else {
                                let name = self.fresh("pln");
                                let lane = self.m.wire(&name, bits);
                                self.m.set_loc(lane, oloc.clone());
                                self.m.assign(
                                    lane,
                                    Expr::Slice {
                                        net: w,
                                        hi: lo + bits - 1,
                                        lo,
                                    },
                                );
                                lane
                            };
                            p.vals.insert(
                                m,
                                Val {
                                    avail: Some(tp),
                                    wire,
                                    chain: None,
                                },
                            );
                        }
                    }
                    OpKind::Store { base, .. } => {
                        // A wide group's issuer (its last member) writes every member's lane.
                        if self.memory.wide.rides_along((b, o)) {
                            break 'op;
                        }
                        let group = self.memory.wide.group((b, o)).cloned();
                        let buf = self.buffer(*base, op.span)?;
                        buffers_used.push((buf.clone(), false));
                        let aw = self.cfg.addr_width;
                        let addr = self.pipe_value(&mut p, key(&alias, (b, args[0])), t)?;
                        let below = group
                            .as_ref()
                            .and_then(|g| g.offset_of((b, o)))
                            .unwrap_or(0);
                        let data = match &group {
                            None => self.pipe_value(&mut p, key(&alias, (b, args[1])), t)?,
                            Some(g) => {
                                let mut parts = Vec::new();
                                for m in g.lanes.iter().rev() {
                                    let v = self.k.block(m.0).operands(m.1)[1];
                                    let n = self.pipe_value(&mut p, key(&alias, (m.0, v)), t)?;
                                    parts.push(Expr::Net(n));
                                }
                                let name = self.fresh("pst");
                                let w = self.m.wire(&name, g.bytes() * 8);
                                self.m.set_loc(w, oloc.clone());
                                self.m.assign(w, Expr::Concat(parts));
                                w
                            }
                        };
                        let q = |g: &Gen, n: &str| port(&g.m, &format!("{buf}_st_{n}"));
                        let (rv, rr, ra, rd) = (
                            q(self, "req_valid")?,
                            q(self, "req_ready")?,
                            q(self, "req_addr")?,
                            q(self, "req_data")?,
                        );
                        // A group with members under other guards writes where any
                        // member's guard holds, each member's bytes where its own does.
                        let cross = group.as_ref().filter(|g| g.spans_blocks());
                        let (at, lane_strb) = match cross {
                            None => (self.pipe_at(&mut p, pl.guards.get(&b), t, &alias)?, None),
                            Some(g) => {
                                let mut any = Expr::lit(1, 0);
                                let mut parts = Vec::new();
                                for m in g.lanes.iter().rev() {
                                    let on = match pl.guards.get(&m.0) {
                                        Some(gd) => self.pipe_guard(&mut p, gd, t, &alias)?,
                                        None => Expr::lit(1, 1),
                                    };
                                    any = Expr::lor(any, on.clone());
                                    parts.extend((0..g.lane_bytes).map(|_| on.clone()));
                                }
                                (Expr::land(p.at(t), any), Some(Expr::Concat(parts)))
                            }
                        };
                        self.fsm
                            .drive(ra, at.clone(), group_address(addr, aw, below));
                        // Zero-extended to the unit's element; a masked unit writes only the
                        // store's own bytes.
                        let (dw, uw) = (self.m.net(data).width, self.m.net(rd).width);
                        let value = if dw < uw {
                            Expr::zext(Expr::Net(data), uw - dw)
                        } else {
                            Expr::Net(data)
                        };
                        self.fsm.drive(rd, at.clone(), value);
                        if let Some(strb) = self.m.port(&format!("{buf}_st_req_strb")) {
                            let n = self.m.net(strb).width;
                            let mine = dw.div_ceil(8).min(n);
                            let mask = if mine >= 64 {
                                u64::MAX
                            } else {
                                (1u64 << mine) - 1
                            };
                            let value = match lane_strb {
                                Some(e) if mine < n => Expr::zext(e, n - mine),
                                Some(e) => e,
                                None => Expr::lit(n, mask),
                            };
                            self.fsm.drive(strb, at.clone(), value);
                        }
                        self.fsm
                            .drive(rv, Expr::land(at.clone(), Expr::Net(en)), Expr::lit(1, 1));
                        p.stall_terms
                            .push(Expr::land(at, Expr::lnot(Expr::Net(rr))));
                    }
                    _ => {
                        if self.op_free(b, o)? {
                            let wire = self.vals[&(b, o)];
                            // The group counters change under a loop running across groups:
                            // an iteration keeps the group it was admitted in.
                            let moving = pl.cross_group.is_some()
                                && matches!(op.kind, OpKind::WorkItem(WorkItemFn::GroupId));
                            let avail = moving.then_some(0);
                            p.vals.insert(
                                (b, o),
                                Val {
                                    avail,
                                    wire,
                                    chain: None,
                                },
                            );
                            break 'op;
                        }
                        for a in &args {
                            let n = self.pipe_value(&mut p, key(&alias, (b, *a)), t)?;
                            self.vals.insert((b, *a), n);
                        }
                        self.pipe = Some(PipeCtx {
                            en: Expr::Net(en),
                            issue: p.in_slot(t),
                            latency: None,
                            run,
                        });
                        let c = self.compute(scratch, b, o);
                        let ctx = self.pipe.take();
                        let c = c?;
                        let width = op.ty.as_ref().map(|t| t.bits()).unwrap_or(1);
                        let name = self.fresh("pw");
                        let w = self.m.wire(&name, width);
                        self.m.set_loc(w, oloc);
                        let avail = match c {
                            super::ops::Computed::Comb(e) => {
                                self.m.assign(w, e);
                                t
                            }
                            super::ops::Computed::Unit { value, .. } => {
                                self.m.assign(w, value);
                                let lat = ctx.and_then(|c| c.latency).ok_or_else(|| {
                                    ierr("a unit of unknown latency in a pipeline".into())
                                })?;
                                t + lat
                            }
                        };
                        p.vals.insert(
                            (b, o),
                            Val {
                                avail: Some(avail),
                                wire: w,
                                chain: None,
                            },
                        );
                    }
                }
            }
            if (b, o) == pl.exit {
                // The exit test, before any side effect (the schedule puts them after it).
                let xk = key(&alias, pl.exit);
                let xa = p.vals[&xk].avail.unwrap_or(0);
                if xa >= ii {
                    return Err(ierr(format!(
                        "the exit test is known at cycle {xa}, after the first stage"
                    )));
                }
                let xn = self.pipe_value(&mut p, xk, xa)?;
                let xw = self.m.net(xn).width;
                let xe = if xw == 1 {
                    Expr::Net(xn)
                } else {
                    Expr::bin(BinOp::Ne, Expr::Net(xn), Expr::lit(xw, 0))
                };
                let xq = self.m.reg(&format!("{tag}_go"), 1);
                self.resets.push((xq, Const::zero(1)));
                self.fsm.set_when(
                    run,
                    xq,
                    xe.clone(),
                    Expr::land(p.in_slot(xa), Expr::Net(en)),
                );
                p.exit = Some((xa, xe, xq));
            }
        }
        let Some((xa, xe, xq)) = p.exit.clone() else {
            return Err(ierr("the exit test is not in the iteration".into()));
        };
        for (blocks, t, w) in any_guard {
            let mut any = Expr::lit(1, 0);
            for b in blocks {
                let on = self.pipe_at(&mut p, pl.guards.get(&b), t, &alias)?;
                any = Expr::lor(any, on);
            }
            self.m.assign(w, any);
        }
        // Forwarded variable reads (the previous iteration's write in the same cycle).
        for (w, v) in forwards {
            let wk = last_write[&v];
            let tw = cycle(&wk);
            let src = committed[&v];
            let val = self.pipe_value(&mut p, src, tw)?;
            // Not gated by `en`: a stall freezes writer and reader alike, and the stall
            // itself may depend on this read (an exit test gating a memory request).
            let fire = p.at(tw);
            self.m.assign(
                w,
                Expr::mux(fire, Expr::Net(val), Expr::Net(self.vars[v.0 as usize])),
            );
        }
        let chains = std::mem::take(&mut p.chains);
        self.emit_chains(&p, chains, run, en);
        // Stall.
        let stall_e = p
            .stall_terms
            .iter()
            .cloned()
            .reduce(Expr::lor)
            .unwrap_or_else(|| Expr::lit(1, 0));
        self.m.assign(stall, stall_e);
        // Admission and the valid bits, at the end of each stage.
        let dec = if xa == ii - 1 {
            xe.clone()
        } else {
            Expr::Net(xq)
        };
        let end = Expr::land(p.in_slot(ii - 1), Expr::Net(en));
        let v0 = Expr::bit(valid, 0);
        let exiting = Expr::land(v0.clone(), Expr::lnot(dec.clone()));
        let (steps, last_group) = self.group_step();
        let keep_going = match pl.cross_group {
            Some(_) => Expr::land(exiting.clone(), Expr::lnot(last_group)),
            None => Expr::lit(1, 0),
        };
        let admit_next = Expr::land(
            Expr::Net(admit),
            Expr::lor(Expr::lnot(exiting.clone()), keep_going.clone()),
        );
        let mut bits = vec![admit_next.clone(), Expr::land(v0, dec.clone())];
        for s in 2..stages {
            bits.push(Expr::bit(valid, s - 1));
        }
        bits.truncate(stages as usize);
        bits.reverse();
        let shifted = if stages == 1 {
            admit_next.clone()
        } else {
            Expr::Concat(bits)
        };
        self.fsm.set_when(run, valid, shifted, end.clone());
        // The shifts until the stages past 0 are all clear: an iteration entering stage
        // 1 leaves the last stage `stages - 1` shifts later, and the latest to enter is
        // the last to leave. The idle test reads this count, not a wide OR of every
        // valid bit (a LUT per six stages: 100 ALMs for a 500-stage loop).
        let drained = (stages > 1).then(|| {
            let w = slot_bits(stages);
            let d = self.m.reg(&format!("{tag}_drain"), w);
            self.resets.push((d, Const::zero(w)));
            let zero = Expr::bin(BinOp::Eq, Expr::Net(d), Expr::lit(w, 0));
            let next = Expr::mux(
                Expr::land(Expr::bit(valid, 0), dec.clone()),
                Expr::lit(w, (stages - 1) as u64),
                Expr::mux(
                    zero.clone(),
                    Expr::lit(w, 0),
                    Expr::bin(BinOp::Sub, Expr::Net(d), Expr::lit(w, 1)),
                ),
            );
            self.fsm.set_when(run, d, next, end.clone());
            zero
        });
        self.fsm.set_when(run, admit, admit_next, end.clone());
        if let Some(s) = slot {
            let w = slot_bits(ii);
            let nxt = Expr::mux(
                Expr::bin(BinOp::Eq, Expr::Net(s), Expr::lit(w, (ii - 1) as u64)),
                Expr::lit(w, 0),
                Expr::bin(BinOp::Add, Expr::Net(s), Expr::lit(w, 1)),
            );
            self.fsm.set_when(run, s, nxt, Expr::Net(en));
        }
        // Across work-groups: the next group and its local ids at the end of a group.
        if let Some(init) = pl.cross_group {
            let step = Expr::land(end.clone(), keep_going);
            for (net, e) in steps {
                self.fsm.set_when(run, net, e, step.clone());
            }
            let blk = self.k.block(init);
            for &o in &blk.order.clone() {
                if let OpKind::WriteVar(v) = blk.op(o).kind {
                    let a = self.k.block(init).operands(o)[0];
                    let OpKind::Const(c) = &self.k.block(init).op(a).kind else {
                        return Err(ierr("a group reset that is not a constant".into()));
                    };
                    let w = self.m.net(self.vars[v.0 as usize]).width;
                    let value = c.first().copied().unwrap_or(0);
                    self.fsm.set_when(
                        run,
                        self.vars[v.0 as usize],
                        Expr::lit(w, value),
                        step.clone(),
                    );
                }
            }
        }
        // Entry: earlier writes acknowledged, load units forget what they held; the
        // first iteration enters stage 0.
        let gate = self.writes_done(None)?;
        self.fsm.wait_for(pre, gate);
        // No stage is valid here (the loop state is left only once all are clear), so
        // setting bit 0 alone is the same as loading 1, and it leaves the other bits
        // plain enabled shift registers rather than a LUT per bit choosing 0.
        self.fsm.set(
            pre,
            valid,
            Expr::bin(BinOp::Or, Expr::Net(valid), Expr::lit(stages, 1)),
        );
        self.fsm.set(pre, admit, Expr::lit(1, 1));
        if let Some(s) = slot {
            self.fsm.set(pre, s, Expr::lit(slot_bits(ii), 0));
        }
        buffers_used.sort();
        buffers_used.dedup();
        let mut idle = Expr::land(
            Expr::lnot(Expr::Net(admit)),
            Expr::lnot(Expr::bit(valid, 0)),
        );
        if let Some(zero) = drained {
            idle = Expr::land(idle, zero);
        }
        for (buf, load) in &buffers_used {
            let unit = if *load { "ld" } else { "st" };
            if *load {
                let f = port(&self.m, &format!("{buf}_ld_flush"))?;
                let act = self.fsm.active(pre);
                self.fsm.drive(f, act, Expr::lit(1, 1));
            }
            let i = port(&self.m, &format!("{buf}_{unit}_idle"))?;
            idle = Expr::land(idle, Expr::Net(i));
            if let Some(pn) = self.m.port(&format!("{buf}_pipe")) {
                let act = self.fsm.active(run);
                self.fsm.drive(pn, act, Expr::lit(1, 1));
            }
        }
        self.fsm.goto(pre, Next::Goto(run));
        self.fsm.wait_for(run, idle);
        self.fsm.goto(run, Next::Goto(next));
        self.cur_op = None;
        let running = self.fsm.active(run);
        let on = |e: Expr| Expr::land(running.clone(), e);
        self.probes.push(super::counters::LoopProbe {
            lp: id.0,
            run: running.clone(),
            issue: on(Expr::Net(admit)),
            stall: on(Expr::Net(stall)),
            issue_stall: on(Expr::land(Expr::Net(admit), Expr::Net(stall))),
            admitted: on(Expr::land(end.clone(), Expr::bit(valid, 0))),
            passed: on(Expr::land(
                end.clone(),
                Expr::land(Expr::bit(valid, 0), dec.clone()),
            )),
        });
        self.pipe_facts.push(PipeFacts {
            lp: id.0,
            ii,
            depth: last + 1,
            stages,
            cross_group: pl.cross_group.is_some(),
        });
        Ok(pre)
    }

    /// The word address in `ram` of byte offset `addr` (a pointer into the object).
    fn ram_word_addr(&mut self, ram: &super::objects::Ram, addr: NetId) -> Expr {
        let pw = self.m.net(addr).width;
        let words = Expr::bin(
            BinOp::Shr,
            Expr::Net(addr),
            Expr::lit(pw, ram.word_shift() as u64),
        );
        if ram.aw > pw {
            return Expr::zext(words, ram.aw - pw);
        }
        let name = self.fresh("pwa");
        let w = self.m.wire(&name, pw);
        self.m.assign(w, words);
        Expr::Slice {
            net: w,
            hi: ram.aw - 1,
            lo: 0,
        }
    }

    /// Variable `v`'s register as an iteration reads it at cycle `t`, before the
    /// iteration's own first write: a wire that takes the previous iteration's last
    /// write when that lands in cycle `t` too (`forwards` connects it once the written
    /// value exists), the register otherwise.
    fn register_read(
        &mut self,
        v: VarId,
        (t, ii): (u32, u32),
        last_write_at: Option<u32>,
        forwards: &mut Vec<(NetId, VarId)>,
        loc: SrcLoc,
    ) -> Result<NetId, String> {
        let reg = self.vars[v.0 as usize];
        let (name, width) = (self.fresh("pv"), self.m.net(reg).width);
        let w = self.m.wire(&name, width);
        self.m.set_loc(w, loc);
        match last_write_at {
            Some(tw) if tw > t + ii => {
                return Err(format!(
                    "variable {} is written at cycle {tw}, after the next iteration reads it \
                     at {}",
                    self.k.vars[v.0 as usize].name,
                    t + ii
                ))
            }
            Some(tw) if tw == t + ii => forwards.push((w, v)),
            _ => self.m.assign(w, Expr::Net(reg)),
        }
        Ok(w)
    }

    /// A side effect of an iteration at time `t` happens this cycle: the iteration is
    /// there (`Pipe::at`) and, in an if-converted block, its guard holds.
    fn pipe_at(
        &mut self,
        p: &mut Pipe,
        guard: Option<&crate::pipeline::Guard>,
        t: u32,
        alias: &HashMap<(BlockId, OpId), (BlockId, OpId)>,
    ) -> Result<Expr, Diagnostic> {
        let at = p.at(t);
        Ok(match guard {
            Some(g) => Expr::land(at, self.pipe_guard(p, g, t, alias)?),
            None => at,
        })
    }

    /// The guard of an if-converted block at time `t`: every test on its way, each as
    /// its arm needs it.
    fn pipe_guard(
        &mut self,
        p: &mut Pipe,
        guard: &crate::pipeline::Guard,
        t: u32,
        alias: &HashMap<(BlockId, OpId), (BlockId, OpId)>,
    ) -> Result<Expr, Diagnostic> {
        let mut e = Expr::lit(1, 1);
        for (c, polarity) in guard {
            let k = alias.get(c).copied().unwrap_or(*c);
            let n = self.pipe_value(p, k, t)?;
            let w = self.m.net(n).width;
            let truth = if w == 1 {
                Expr::Net(n)
            } else {
                Expr::bin(BinOp::Ne, Expr::Net(n), Expr::lit(w, 0))
            };
            e = Expr::land(e, if *polarity { truth } else { Expr::lnot(truth) });
        }
        Ok(e)
    }

    /// The net holding value `k` of the iteration at time `t`.
    fn pipe_value(
        &mut self,
        p: &mut Pipe,
        k: (BlockId, OpId),
        t: u32,
    ) -> Result<NetId, Diagnostic> {
        let Some(v) = p.vals.get_mut(&k) else {
            return Err(Diagnostic::error(
                self.k.block(k.0).op(k.1).span,
                "internal error: a pipelined op uses a value not computed before it",
            ));
        };
        if let Some(a) = v.avail.filter(|a| t < *a) {
            return Err(Diagnostic::error(
                self.k.block(k.0).op(k.1).span,
                format!(
                    "internal error: a pipelined op at cycle {t} uses a value available at {a}"
                ),
            ));
        }
        Ok(self.delayed(p.ii, &mut p.chains, v, t))
    }

    /// Value `v` (available at or before `t`) as the iteration holds it at cycle `t`:
    /// its wire, or the chain position holding it then (the chain grown on first use).
    fn delayed(&mut self, ii: u32, chains: &mut Chains, v: &mut Val, t: u32) -> NetId {
        let a = match v.avail {
            Some(a) if t > a => a,
            _ => return v.wire,
        };
        let need = ((t - a - 1) / ii) as usize + 1;
        let c = match v.chain {
            Some(c) => c,
            None => {
                chains.list.push(Chain {
                    src: v.wire,
                    phase: a % ii,
                    width: self.m.net(v.wire).width,
                    loc: self.m.net(v.wire).loc.clone(),
                    taps: Vec::new(),
                });
                v.chain = Some(chains.list.len() - 1);
                chains.list.len() - 1
            }
        };
        // Every position gets its name now, read or not, so names do not depend on
        // which positions end up in registers.
        while chains.list[c].taps.len() < need {
            let name = self.fresh("pq");
            chains.order.push((c, chains.list[c].taps.len()));
            chains.list[c].taps.push((name, None));
        }
        let chain = &mut chains.list[c];
        if let Some(r) = chain.taps[need - 1].1 {
            return r;
        }
        let r = self.m.reg(&chain.taps[need - 1].0, chain.width);
        if let Some(l) = chain.loc.clone() {
            self.m.set_loc(r, l);
        }
        chain.taps[need - 1].1 = Some(r);
        r
    }

    /// The chains' hardware: a register per position, taking the one before (or the
    /// value's wire) every II cycles while the pipeline runs; a long run of positions
    /// nobody reads but its last is one RAM delay line with the same enable instead.
    /// The line equals the registers for every value captured since reset: its output is
    /// the value `depth` enabled edges back and holds while the enable is low; only what
    /// it shows before `depth` edges differs (RAM content instead of never-reset
    /// registers' content), which no valid iteration reads.
    fn emit_chains(&mut self, p: &Pipe, mut chains: Chains, run: StateId, en: NetId) {
        // Per chain position: `Some(depth)` at the last position of a delay line of
        // `depth` positions, `None` inside one.
        let mut line: HashMap<(usize, usize), Option<usize>> = HashMap::new();
        for (c, chain) in chains.list.iter_mut().enumerate() {
            let mut start = 0;
            for i in 0..chain.taps.len() {
                if chain.taps[i].1.is_none() {
                    continue;
                }
                let depth = i + 1 - start;
                if depth >= DELAY_RAM_MIN_DEPTH
                    && depth * chain.width as usize >= DELAY_RAM_MIN_BITS
                {
                    for j in start..i {
                        line.insert((c, j), None);
                    }
                    line.insert((c, i), Some(depth));
                } else {
                    for j in start..i {
                        let r = self.m.reg(&chain.taps[j].0, chain.width);
                        if let Some(l) = chain.loc.clone() {
                            self.m.set_loc(r, l);
                        }
                        chain.taps[j].1 = Some(r);
                    }
                }
                start = i + 1;
            }
        }
        for (c, i) in std::mem::take(&mut chains.order) {
            let chain = &chains.list[c];
            let when = Expr::land(p.in_slot(chain.phase), Expr::Net(en));
            match line.get(&(c, i)) {
                Some(None) => {}
                Some(Some(depth)) => {
                    let Some(out) = chain.taps[i].1 else { continue };
                    let first = i + 1 - depth;
                    let src = match first {
                        0 => chain.src,
                        _ => chain.taps[first - 1].1.unwrap_or(chain.src),
                    };
                    self.m.make_wire(out);
                    let mut inst =
                        Instance::new("ohls_delay_ram", &format!("{}_line", chain.taps[i].0))
                            .param("WIDTH", chain.width as i64)
                            .param("DEPTH", *depth as i64)
                            .input("clk", 1, self.clk)
                            .input("rst", 1, self.rst)
                            .input("en", 1, Expr::land(self.fsm.active(run), when))
                            .input("in", chain.width, Expr::Net(src))
                            .output("out", chain.width, out);
                    inst.loc = chain.loc.clone();
                    self.m.instance(inst);
                }
                None => {
                    let Some(reg) = chain.taps[i].1 else { continue };
                    let src = match i {
                        0 => chain.src,
                        _ => chain.taps[i - 1].1.unwrap_or(chain.src),
                    };
                    self.fsm.set_when(run, reg, Expr::Net(src), when);
                }
            }
        }
    }
}

impl Gen<'_> {
    /// The count of stores buffer `buf`'s store unit has taken: before this cycle (a
    /// register) and as of its end (a wire: the register plus this cycle's store), in the
    /// numbering of the unit's `acked`. Loop entry (state `pre`) starts it at `acked`:
    /// every store before the loop is acknowledged then (a pipeline leaves its state only
    /// once its store units are idle).
    fn st_sent_counter(
        &mut self,
        buf: &str,
        pre: StateId,
        run: StateId,
    ) -> Result<(NetId, NetId), Diagnostic> {
        let acked = port(&self.m, &format!("{buf}_st_acked"))?;
        let (rv, rr) = (
            port(&self.m, &format!("{buf}_st_req_valid"))?,
            port(&self.m, &format!("{buf}_st_req_ready"))?,
        );
        let name = self.fresh("pss");
        let sent = self.m.reg(&name, 32);
        self.resets.push((sent, Const::zero(32)));
        let name = self.fresh("psn");
        let now = self.m.wire(&name, 32);
        let fire = Expr::land(Expr::Net(rv), Expr::Net(rr));
        self.m.assign(
            now,
            Expr::bin(BinOp::Add, Expr::Net(sent), Expr::zext(fire.clone(), 31)),
        );
        self.fsm.set(pre, sent, Expr::Net(acked));
        self.fsm.set_when(run, sent, Expr::Net(now), fire);
        Ok((sent, now))
    }

    /// `net` delayed by the latency of the unit just started in a pipeline (a register
    /// chain that moves with the pipeline), or `net` itself outside one: what a unit's
    /// result post-processing reads of the unit's operands.
    pub(super) fn pipe_delayed(&mut self, net: NetId) -> NetId {
        let Some(ctx) = self.pipe.clone() else {
            return net;
        };
        let width = self.m.net(net).width;
        let mut cur = net;
        for _ in 0..ctx.latency.unwrap_or(0) {
            let name = self.fresh("pd");
            let r = self.m.reg(&name, width);
            self.fsm
                .set_when(ctx.run, r, Expr::Net(cur), ctx.en.clone());
            cur = r;
        }
        cur
    }
}

/// The fixed latency of a pipelined unit template with `params` (`None`: not one).
pub(super) fn unit_latency(module: &str, params: &[(&str, i64)]) -> Option<u32> {
    let param = |n: &str| params.iter().find(|p| p.0 == n).map(|p| p.1);
    match module {
        "ohls_fp_add" => Some(6),
        "ohls_fp_mul" => Some(4),
        "ohls_fp_div" => Some(16),
        "ohls_fp_sqrt" => Some(14),
        "ohls_fp_fma" => Some(5),
        "ohls_fp_cmp" => Some(1),
        "ohls_div" => param("WIDTH").map(|w| w as u32 + 2),
        "ohls_int_to_fp" | "ohls_fp_to_int" => Some(2),
        "ohls_fp_to_half" | "ohls_half_to_fp" => Some(1),
        // Binary64 units at their templates' default LATENCY (`datapath::double`).
        "ohls_dp_add" => Some(6),
        "ohls_dp_mul" => Some(4),
        "ohls_dp_cmp" | "ohls_dp_from_fp32" | "ohls_dp_to_fp32" | "ohls_dp_to_half" => Some(1),
        "ohls_dp_from_int" | "ohls_dp_to_int" => Some(2),
        _ => None,
    }
}

/// The low `aw` bits of address `addr` less `below` bytes: a wide group's address from one
/// of its members'.
fn group_address(addr: NetId, aw: u32, below: u32) -> Expr {
    let a = Expr::Slice {
        net: addr,
        hi: aw - 1,
        lo: 0,
    };
    if below == 0 {
        a
    } else {
        Expr::bin(crate::rtl::expr::BinOp::Sub, a, Expr::lit(aw, below as u64))
    }
}

/// Per on-chip memory, direction (write?) and slot, the ports taken so far.
type PortsUsed = HashMap<(crate::ir::Base, bool, u32), usize>;

/// The next of `ports` (read copies or write lanes of a memory) free in a slot: the
/// schedule keeps their number within what the memory has.
fn next_port(
    used: &mut PortsUsed,
    ports: &[(NetId, NetId, NetId)],
    at: (crate::ir::Base, bool, u32),
) -> Option<(NetId, NetId, NetId)> {
    let n = used.entry(at).or_insert(0);
    let port = ports.get(*n).copied()?;
    *n += 1;
    Some(port)
}
