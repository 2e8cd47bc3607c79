//! Lifetime-aware placement after modulo scheduling. The iterative modulo scheduler
//! places every op as early as its inputs allow, so a value loaded in cycle 0 and used
//! by the eighth link of an unrolled multiply-add chain rides 35 pipeline registers (in
//! matmul_tiled, 16 such loads were 9,000 of the datapath's 15,000 flip-flops). This pass
//! moves pure ops and on-chip loads within the slack the schedule leaves them, to where
//! the pipeline holds fewer bits: first every such op as late as it can go (its inputs,
//! often one address shared by many loads, then ride instead of its result), then single
//! moves either way that lower the count. II, depth and every rule of the modulo checker
//! stay as they were; the result is kept only when it holds fewer bits.

use std::collections::HashMap;
use std::hash::Hash;

use crate::board::Limits;
use crate::ir::{BlockId, Kernel, OpId, OpKind};

use super::list::{capacity, EPS_NS};
use super::loop_graph::{DepKind, LoopGraph};
use super::modulo::ModuloSchedule;
use super::modulo_check::check_modulo;
use super::timing::{span, Resource};

/// What the pass may do with one node of the loop graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Movable {
    /// The op may start in any cycle its dependences, units and clock allow (pure
    /// operations and loads of on-chip memories; not variable accesses, effects, nor
    /// the exit test).
    pub moves: bool,
    /// Bits of its result a pipeline register holds per cycle (0 for constants and
    /// values that stay put for the whole loop).
    pub bits: u32,
    /// The node of an operand this op never reads (the address of a wide access's member
    /// that rides along with its issuer).
    pub unread: Option<usize>,
    /// A movable integer or address computation (not a float op nor a load): what the
    /// second start moves late alone, so that an address computed from narrow indices
    /// rides as the indices instead of as the address.
    pub index: bool,
}

/// A run of chain positions with no reader before its end at least this long (and
/// [`DELAY_RAM_BITS`] in all) is one delay RAM in the datapath (the thresholds
/// `datapath::pipe` builds by): counted as [`DELAY_RAM_COST`] bits whatever its length.
const DELAY_RAM_DEPTH: i64 = crate::datapath::DELAY_RAM_MIN_DEPTH as i64;
const DELAY_RAM_BITS: i64 = crate::datapath::DELAY_RAM_MIN_BITS as i64;
/// A delay RAM's pointers, incrementers and output register, in flip-flop bits (about
/// 30 ALMs at 4 flip-flops each).
const DELAY_RAM_COST: i64 = 120;

/// The pipeline register bits of a schedule under the pass's model: per value, its
/// width times the chain positions from its result to its last reader in the iteration.
pub fn register_bits<K: Copy + Eq + Hash>(
    g: &LoopGraph<K>,
    s: &ModuloSchedule<K>,
    facts: &[Movable],
) -> u64 {
    let t: Vec<i64> = g.nodes.iter().map(|n| s.cycle[&n.key] as i64).collect();
    let p = Placer::new(g, s, 0.0, None, facts);
    (0..g.nodes.len()).map(|u| p.held(u, &t)).sum()
}

/// Moves the ops `facts` allows to where the schedule holds fewer register bits; returns
/// the bits before and after (equal when nothing better was found).
pub fn shorten_lifetimes<K: Copy + Eq + Hash + Ord>(
    g: &LoopGraph<K>,
    s: &mut ModuloSchedule<K>,
    period_ns: f64,
    limits: &Limits,
    facts: &[Movable],
) -> (u64, u64) {
    let mut p = Placer::new(g, s, period_ns, Some(limits), facts);
    let before = p.total();
    let start = p.t.clone();
    // Three starts, each improved by single moves, the one holding the fewest bits
    // kept: as scheduled, every movable op as late as it goes, and the index arithmetic
    // alone as late as it goes (single moves cannot find that: each step alone holds a
    // value as wide).
    let mut best = (before, start.clone());
    for late in [None, Some(false), Some(true)] {
        p.reset(&start);
        if let Some(index_only) = late {
            p.latest(index_only);
        }
        for _ in 0..2 {
            if !p.improve() {
                break;
            }
        }
        let held = p.total();
        if held < best.0 {
            best = (held, p.t.clone());
        }
    }
    p.reset(&best.1);
    let after = p.total();
    if after >= before {
        return (before, before);
    }
    let mut out = s.clone();
    for (n, &c) in g.nodes.iter().zip(&p.t) {
        out.cycle.insert(n.key, c as u32);
    }
    // The checker is the judge: a move it rejects is a bug here, and the ASAP schedule
    // stays.
    let broken = check_modulo(g, period_ns, limits, &out);
    debug_assert!(broken.is_empty(), "lifetime placement broke the schedule");
    if !broken.is_empty() {
        return (before, before);
    }
    *s = out;
    (before, after)
}

struct Placer<'a, K> {
    g: &'a LoopGraph<K>,
    ii: i64,
    depth: i64,
    period_ns: f64,
    limits: Option<&'a Limits>,
    facts: &'a [Movable],
    ins: Vec<Vec<usize>>,
    outs: Vec<Vec<usize>>,
    t: Vec<i64>,
    /// Units in use per limited resource and modulo slot.
    usage: HashMap<(Resource, i64), u32>,
}

impl<'a, K: Copy + Eq + Hash> Placer<'a, K> {
    fn new(
        g: &'a LoopGraph<K>,
        s: &ModuloSchedule<K>,
        period_ns: f64,
        limits: Option<&'a Limits>,
        facts: &'a [Movable],
    ) -> Placer<'a, K> {
        let n = g.nodes.len();
        let mut ins = vec![Vec::new(); n];
        let mut outs = vec![Vec::new(); n];
        for (i, e) in g.edges.iter().enumerate() {
            ins[e.to].push(i);
            outs[e.from].push(i);
        }
        let t: Vec<i64> = g.nodes.iter().map(|n| s.cycle[&n.key] as i64).collect();
        let mut p = Placer {
            g,
            ii: s.ii.max(1) as i64,
            depth: s.depth as i64,
            period_ns,
            limits,
            facts,
            ins,
            outs,
            t,
            usage: HashMap::new(),
        };
        for v in 0..n {
            p.claim(v, p.t[v], true);
        }
        p
    }

    fn reset(&mut self, t: &[i64]) {
        for v in 0..t.len() {
            self.claim(v, self.t[v], false);
        }
        self.t = t.to_vec();
        for v in 0..t.len() {
            self.claim(v, self.t[v], true);
        }
    }

    fn weight(&self, e: usize) -> i64 {
        let e = &self.g.edges[e];
        e.delay as i64 - e.distance as i64 * self.ii
    }

    /// Bits value `u` holds in registers when the ops start at `t`. As the datapath
    /// builds it (`datapath::pipe`), a value rides a chain of registers that each hold it
    /// for II cycles, as far as its last reader in the iteration; a long run between two
    /// readers is one delay RAM.
    fn held(&self, u: usize, t: &[i64]) -> u64 {
        let bits = self.facts[u].bits as i64;
        if bits == 0 {
            return 0;
        }
        let avail = t[u] + self.g.nodes[u].timing.latency as i64;
        // The chain position a reader at cycle `r` takes the value from (0: the wire).
        let position = |r: i64| {
            if r > avail {
                (r - avail - 1) / self.ii + 1
            } else {
                0
            }
        };
        let mut taps: Vec<i64> = self.outs[u]
            .iter()
            .map(|&e| &self.g.edges[e])
            .filter(|e| e.kind == DepKind::Data && e.distance == 0)
            .filter(|e| self.facts[e.to].unread != Some(u))
            .map(|e| position(t[e.to]))
            .collect();
        taps.sort_unstable();
        let mut at = 0;
        let mut sum = 0;
        for p in taps {
            let run = p - at;
            sum += if run >= DELAY_RAM_DEPTH && run * bits >= DELAY_RAM_BITS {
                DELAY_RAM_COST
            } else {
                run * bits
            };
            at = at.max(p);
        }
        sum as u64
    }

    fn total(&self) -> u64 {
        (0..self.t.len()).map(|u| self.held(u, &self.t)).sum()
    }

    /// The bits of `v`'s value and of the values it uses, were `v` to start at `at`.
    fn local(&mut self, v: usize, at: i64) -> u64 {
        let was = self.t[v];
        self.t[v] = at;
        let mut sum = self.held(v, &self.t);
        let mut seen: Vec<usize> = Vec::new();
        for &e in &self.ins[v] {
            let u = self.g.edges[e].from;
            if u != v && !seen.contains(&u) {
                seen.push(u);
                sum += self.held(u, &self.t);
            }
        }
        self.t[v] = was;
        sum
    }

    /// The cycles `v` may start in with every other op where it is.
    fn bounds(&self, v: usize) -> (i64, i64) {
        let mut lo = 0;
        let mut hi = self.depth - span(&self.g.nodes[v].timing) as i64;
        for &e in &self.ins[v] {
            let from = self.g.edges[e].from;
            if from != v {
                lo = lo.max(self.t[from] + self.weight(e));
            }
        }
        for &e in &self.outs[v] {
            let to = self.g.edges[e].to;
            if to != v {
                hi = hi.min(self.t[to] - self.weight(e));
            }
        }
        (lo, hi)
    }

    fn demands(&self, v: usize, at: i64) -> Vec<(Resource, i64, u32)> {
        let Some(limits) = self.limits else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for d in &self.g.nodes[v].timing.demands {
            if capacity(d.resource, limits) == u32::MAX {
                continue;
            }
            for c in at..at + d.cycles as i64 {
                out.push((d.resource, c.rem_euclid(self.ii), d.units));
            }
        }
        out
    }

    fn claim(&mut self, v: usize, at: i64, add: bool) {
        for (r, s, u) in self.demands(v, at) {
            let x = self.usage.entry((r, s)).or_default();
            *x = if add { *x + u } else { x.saturating_sub(u) };
        }
    }

    fn units_fit(&mut self, v: usize, at: i64) -> bool {
        let Some(limits) = self.limits else {
            return true;
        };
        self.claim(v, self.t[v], false);
        let mut want: HashMap<(Resource, i64), u32> = HashMap::new();
        for (r, s, u) in self.demands(v, at) {
            *want.entry((r, s)).or_default() += u;
        }
        let ok = want.into_iter().all(|((r, s), u)| {
            self.usage.get(&(r, s)).copied().unwrap_or(0) + u <= capacity(r, limits)
        });
        self.claim(v, self.t[v], true);
        ok
    }

    fn chains(&self, e: usize) -> bool {
        let e = &self.g.edges[e];
        e.kind == DepKind::Data
            && self.g.nodes[e.from].timing.latency == 0
            && self.t[e.to] + e.distance as i64 * self.ii == self.t[e.from]
    }

    /// Nanoseconds from the cycle's registers to `v`'s inputs along chained edges.
    fn arrival(&self, v: usize, memo: &mut HashMap<usize, f64>) -> f64 {
        if let Some(&a) = memo.get(&v) {
            return a;
        }
        let mut a: f64 = 0.0;
        for &e in &self.ins[v] {
            if self.chains(e) {
                let u = self.g.edges[e].from;
                a = a.max(self.arrival(u, memo) + self.g.nodes[u].timing.delay_ns);
            }
        }
        memo.insert(v, a);
        a
    }

    /// Whether every chain through `v`, started at `at`, fits the clock period.
    fn clock_fits(&mut self, v: usize, at: i64) -> bool {
        let was = self.t[v];
        self.t[v] = at;
        let mut memo = HashMap::new();
        let mut todo = vec![v];
        let mut seen = vec![v];
        let mut ok = true;
        while let Some(w) = todo.pop() {
            let a = self.arrival(w, &mut memo);
            if a > 0.0 && a + self.g.nodes[w].timing.delay_ns > self.period_ns + EPS_NS {
                ok = false;
                break;
            }
            for &e in &self.outs[w] {
                let to = self.g.edges[e].to;
                if self.chains(e) && !seen.contains(&to) {
                    seen.push(to);
                    todo.push(to);
                }
            }
        }
        self.t[v] = was;
        ok
    }

    fn try_move(&mut self, v: usize, at: i64) -> bool {
        if !(self.units_fit(v, at) && self.clock_fits(v, at)) {
            return false;
        }
        self.claim(v, self.t[v], false);
        self.t[v] = at;
        self.claim(v, at, true);
        true
    }

    /// Every movable op (or with `index_only` every index computation) as late as it
    /// goes, consumers first (edges within an iteration run forward in node order).
    fn latest(&mut self, index_only: bool) {
        for v in (0..self.t.len()).rev() {
            if !self.facts[v].moves || (index_only && !self.facts[v].index) {
                continue;
            }
            let (_, hi) = self.bounds(v);
            let mut at = hi;
            while at > self.t[v] && !self.try_move(v, at) {
                at -= 1;
            }
        }
    }

    /// One sweep of single moves that lower the bits; whether any was made.
    fn improve(&mut self) -> bool {
        let mut moved = false;
        for v in (0..self.t.len()).rev() {
            if !self.facts[v].moves {
                continue;
            }
            let (lo, hi) = self.bounds(v);
            let cur = self.t[v];
            let now = self.local(v, cur);
            let mut better: Vec<(u64, i64)> = (lo..=hi)
                .filter(|&c| c != cur)
                .map(|c| (self.local(v, c), c))
                .filter(|&(b, _)| b < now)
                .collect();
            // The fewest bits first; among equals the latest cycle.
            better.sort_by_key(|&(b, c)| (b, std::cmp::Reverse(c)));
            for (_, c) in better {
                if self.try_move(v, c) {
                    moved = true;
                    break;
                }
            }
        }
        moved
    }
}

/// Per variable, the bits below which every value the kernel writes to it has no
/// constant zeros (a work-item counter written as a zero-extended byte keeps 8): its
/// register, which starts at zero, keeps no more.
fn var_bits(k: &Kernel) -> HashMap<crate::ir::VarId, u32> {
    let mut out: HashMap<crate::ir::VarId, u32> = HashMap::new();
    for b in &k.blocks {
        for &o in &b.order {
            if let OpKind::WriteVar(v) = b.op(o).kind {
                let bits = b
                    .operands(o)
                    .first()
                    .map_or(64, |&a| kept_bits(b, a, &HashMap::new()));
                let e = out.entry(v).or_insert(0);
                *e = (*e).max(bits);
            }
        }
    }
    out
}

/// The bits of integer op `o` below which the netlist has no constant zeros: a zero
/// extension keeps its operand's, a mask with a constant its constant's, a read of a
/// variable what its writes keep (`vars`, from [`var_bits`]).
fn kept_bits(b: &crate::ir::Block, o: OpId, vars: &HashMap<crate::ir::VarId, u32>) -> u32 {
    use crate::ir::{BinOp, Conv};
    let op = b.op(o);
    let width = op.ty.as_ref().map_or(0, |t| t.bits());
    let args = b.operands(o);
    let narrower = match &op.kind {
        OpKind::ReadVar(v) => vars.get(v).copied(),
        OpKind::Conv(Conv::Int {
            from_signed: false,
            sat: false,
            ..
        }) => args.first().map(|&a| kept_bits(b, a, vars)),
        OpKind::Binary(BinOp::And) => args
            .iter()
            .filter_map(|&a| match &b.op(a).kind {
                OpKind::Const(lanes) if lanes.len() == 1 => Some(64 - lanes[0].leading_zeros()),
                _ => None,
            })
            .min(),
        OpKind::Const(lanes) if lanes.len() == 1 => Some(64 - lanes[0].leading_zeros()),
        _ => None,
    };
    narrower.map_or(width, |n| n.min(width))
}

/// Which ops of loop body `g` the lifetime placement may move, and the bits each value
/// holds: pure operations and loads of on-chip memories move (not a wide load's members,
/// which ride with their issuer, nor the exit test); constants, arguments, work-item
/// values and variables the loop never writes cost no registers.
pub(super) fn movable(
    k: &Kernel,
    g: &LoopGraph<(BlockId, OpId)>,
    exit: Option<usize>,
    wide: &crate::memory::widen::WideAccesses,
) -> Vec<Movable> {
    use crate::frontend::types::AddrSpace;
    use crate::ir::{Base, Ty};
    let op = |i: usize| {
        let (b, o) = g.nodes[i].key;
        k.block(b).op(o)
    };
    let largest = k.objects.iter().map(|o| o.size).max().unwrap_or(1);
    let vars = var_bits(k);
    let on_chip = 64 - largest.leading_zeros();
    let written: std::collections::HashSet<crate::ir::VarId> = (0..g.nodes.len())
        .filter_map(|i| match op(i).kind {
            OpKind::WriteVar(v) => Some(v),
            _ => None,
        })
        .collect();
    (0..g.nodes.len())
        .map(|i| {
            let key = g.nodes[i].key;
            let o = op(i);
            let moves = Some(i) != exit
                && match &o.kind {
                    OpKind::Unary(_)
                    | OpKind::Binary(_)
                    | OpKind::Cmp(_)
                    | OpKind::Select
                    | OpKind::Conv(_)
                    | OpKind::Bitcast
                    | OpKind::Extract(_)
                    | OpKind::Insert(_)
                    | OpKind::Shuffle(_)
                    | OpKind::Splat
                    | OpKind::Build
                    | OpKind::PtrAdd
                    | OpKind::PtrDiff => true,
                    OpKind::Load {
                        base: Some(Base::Object(_)),
                        ..
                    } => wide.group(key).is_none(),
                    _ => false,
                };
            let free = match &o.kind {
                OpKind::Const(_)
                | OpKind::Param(_)
                | OpKind::ObjectAddr(_)
                | OpKind::WorkItem(_) => true,
                OpKind::ReadVar(v) => !written.contains(v),
                _ => false,
            };
            // What synthesis keeps of a value: addresses are 32 bits on the boards' buses
            // and as wide as the largest object on chip; integers without the high bits
            // the netlist itself makes zero (the launch bounds the opt stage knows are not
            // in the netlist: what it could narrow by them it has narrowed).
            let bits = match &o.ty {
                _ if free => 0,
                Some(Ty::Ptr(AddrSpace::Local | AddrSpace::Private)) => on_chip,
                Some(t) if t.is_ptr() => 32,
                Some(Ty::I(_)) => kept_bits(k.block(key.0), key.1, &vars),
                Some(t) => t.bits(),
                None => 0,
            };
            // A wide access's member that rides along never reads its own address.
            let unread = if wide.rides_along(key) {
                let a = k.block(key.0).operands(key.1).first().copied();
                a.and_then(|a| g.nodes.iter().position(|n| n.key == (key.0, a)))
            } else {
                None
            };
            let index = moves
                && !matches!(o.kind, OpKind::Load { .. })
                && matches!(&o.ty, Some(Ty::I(_)) | Some(Ty::Ptr(_)));
            Movable {
                moves,
                bits,
                unread,
                index,
            }
        })
        .collect()
}
