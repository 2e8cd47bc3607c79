//! The minimum initiation interval of one loop: ResMII (ops per iteration competing for
//! the board's limited units and memory ports) and RecMII (loop-carried dependences
//! through variables and memory, with the library's latencies), each with its reason.

use std::collections::{BTreeMap, HashMap};

use crate::board::{Limits, OpLibrary};
use crate::diag::SourceMap;
use crate::frontend::types::AddrSpace;
use crate::ir::{Base, BlockId, Kernel, OpId, OpKind, ParamKind};
use crate::rtl::netlist::SrcLoc;
use crate::schedule::list::{capacity, edge_delay, preds};
use crate::schedule::loop_graph::{DepEdge, DepKind, LoopGraph, LoopNode};
use crate::schedule::timing::{op_timing, order_gap, OpTiming};
use crate::schedule::{MemKey, Resource};

use super::affine::{AffineLoop, Dep};
use super::loops::LoopShape;

/// A lower bound on the II and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    pub ii: u32,
    pub reason: String,
    /// Memory dependences the affine address analysis settled (removed or spaced out).
    pub notes: Vec<String>,
}

/// What one limited resource (a unit class, a memory's read or write ports) costs one
/// iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResBound {
    pub resource: Resource,
    /// `cycles / cap`, rounded up: the II this resource alone allows.
    pub ii: u32,
    /// Units (ports) of the resource.
    pub cap: u32,
    /// Unit cycles the iteration's ops hold it.
    pub cycles: u64,
    /// Where the ops holding it come from, in program order (one per op).
    pub ops: Vec<SrcLoc>,
}

/// Which memory dependences cross iterations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemDeps {
    /// A source loop without `ivdep`: a store and a load (or two stores) of one memory.
    All,
    /// `ivdep`: none on the covered memories (all when `arrays` is empty), or at least
    /// `safelen` iterations apart.
    Ivdep {
        safelen: Option<u64>,
        arrays: Vec<String>,
    },
    /// A work-item loop: work-items of a barrier-free region share memory only through
    /// atomics (anything else would be a data race, undefined in OpenCL).
    AtomicsOnly,
}

impl MemDeps {
    /// The memory dependences loop `s` of `k` keeps across iterations: none but atomics
    /// for a work-item loop, per its `ivdep` hint for a source loop, else all.
    pub fn of_loop(k: &Kernel, s: &LoopShape) -> MemDeps {
        let l = k.lp(s.id);
        match (s.work_item_dim, &l.hints.ivdep) {
            (Some(_), _) if !l.hints.flattened => MemDeps::AtomicsOnly,
            (_, Some(iv)) => MemDeps::Ivdep {
                safelen: iv.safelen,
                arrays: l.hints.ivdep_arrays.clone(),
            },
            (_, None) => MemDeps::All,
        }
    }
}

/// The ops of one iteration in program order, with their timing.
pub struct Iteration<'a> {
    k: &'a Kernel,
    sm: &'a SourceMap,
    ops: Vec<IterOp>,
    index: HashMap<(BlockId, OpId), usize>,
    /// Successors with the cycles the edge demands and its kind; always to a later index.
    succ: Vec<Vec<(usize, u32, DepKind)>>,
    affine: AffineLoop,
    /// A wide group's riding members (`share_ports`): the index of the issuer that moves
    /// their bytes.
    issued_by: HashMap<usize, usize>,
    /// The clock period: a chain of combinational ops longer than it takes more cycles.
    period_ns: f64,
}

/// What a memory op does, for ordering the iteration's memory ops.
#[derive(Clone, Copy, Debug)]
enum Access {
    /// A load (`write: false`), store or atomic on one memory.
    Mem { mem: MemKey, write: bool },
    /// A barrier, fence or pointer-writing builtin: ordered with every memory op.
    Any,
}

impl Access {
    fn of(kind: &OpKind, mem: Option<MemKey>) -> Option<Access> {
        if !kind.is_memory() {
            return None;
        }
        Some(match (kind, mem) {
            (OpKind::Load { .. }, Some(mem)) => Access::Mem { mem, write: false },
            (OpKind::Store { .. } | OpKind::Atomic { .. }, Some(mem)) => {
                Access::Mem { mem, write: true }
            }
            _ => Access::Any,
        })
    }
}

struct IterOp {
    block: BlockId,
    op: OpId,
    t: OpTiming,
    conditional: bool,
}

/// A longest path within an iteration: its cycles, when its last result settles in the
/// last of them (ns; 0 when registered), and its steps (each op with the cycles the path
/// waits after it).
type Longest = (u32, f64, Vec<(usize, u32)>);

/// A dependence from one iteration to a later one.
struct Carried {
    from: usize,
    to: usize,
    delay: u32,
    distance: u64,
    /// The distance comes from the affine address analysis.
    affine: bool,
}

impl<'a> Iteration<'a> {
    pub fn new(
        k: &'a Kernel,
        sm: &'a SourceMap,
        shape: &LoopShape,
        lib: &OpLibrary,
        limits: &Limits,
        ranges: Option<&crate::opt::ranges::Ranges>,
    ) -> Iteration<'a> {
        let mut it = Iteration {
            k,
            sm,
            ops: Vec::new(),
            index: HashMap::new(),
            succ: Vec::new(),
            affine: AffineLoop::new(k, shape, ranges),
            issued_by: HashMap::new(),
            period_ns: lib.period_ns,
        };
        let mut writes: HashMap<crate::ir::VarId, Vec<usize>> = HashMap::new();
        // The iteration's memory ops so far: (index, what it does to which memory).
        let mut mem_ops: Vec<(usize, Access)> = Vec::new();
        for ib in &shape.blocks {
            let block = k.block(ib.block);
            let first = it.ops.len();
            for &id in &block.order {
                let i = it.ops.len();
                it.index.insert((ib.block, id), i);
                it.ops.push(IterOp {
                    block: ib.block,
                    op: id,
                    t: op_timing(id, block, lib, limits),
                    conditional: ib.conditional,
                });
                it.succ.push(Vec::new());
                let kind = &block.op(id).kind;
                let access = Access::of(kind, it.ops[i].t.mem);
                for p in preds(block, id) {
                    let Some(&j) = it.index.get(&(ib.block, p.op)) else {
                        continue;
                    };
                    // Memory ops are ordered by what they touch (below), not by the
                    // block's chain of all of them.
                    if !p.data && access.is_some() && mem_ops.iter().any(|m| m.0 == j) {
                        continue;
                    }
                    let d = edge_delay(&it.ops[j].t, &it.ops[i].t, p.data);
                    let kind = if p.data {
                        DepKind::Data
                    } else {
                        DepKind::Order
                    };
                    it.succ[j].push((i, d, kind));
                }
                if let Some(a) = access {
                    for &(j, b) in &mem_ops {
                        if it.conflict(b, a, j, i) {
                            let d = order_gap(&it.ops[j].t, &it.ops[i].t);
                            it.succ[j].push((i, d, DepKind::Order));
                        }
                    }
                    mem_ops.push((i, a));
                }
                // Values flow between blocks through variable registers (forwarded: a
                // pipeline reads the value where it is computed).
                if let OpKind::ReadVar(v) = kind {
                    for &w in writes.get(v).into_iter().flatten() {
                        if w < first {
                            let d = it.ops[w].t.latency;
                            it.succ[w].push((i, d, DepKind::Data));
                        }
                    }
                }
                if let OpKind::WriteVar(v) = kind {
                    writes.entry(*v).or_default().push(i);
                }
            }
        }
        it.bank_lanes(limits);
        it
    }

    /// On a banked memory an access outside its loop's bank group (`memory::banks`, as
    /// the memory plan found it) may hit any bank: it takes every lane of its kind.
    fn bank_lanes(&mut self, limits: &Limits) {
        for o in &mut self.ops {
            let Some(MemKey::Base(base)) = o.t.mem else {
                continue;
            };
            let Some(&banks) = limits.memory_banks.get(&base) else {
                continue;
            };
            let plain = matches!(
                self.k.block(o.block).op(o.op).kind,
                OpKind::Load { .. } | OpKind::Store { .. }
            );
            if !plain || limits.memory_bank_groups.contains(&(o.block, o.op)) {
                continue;
            }
            for d in &mut o.t.demands {
                if matches!(d.resource, Resource::ReadPort(_) | Resource::WritePort(_)) {
                    d.units = banks;
                }
            }
        }
    }

    /// Whether memory op `a` (index `i`) must keep its program order after the earlier
    /// memory op `b` (index `j`) of the same iteration: one of them writes, and they may
    /// touch the same bytes. Different memories never meet (distinct buffers are the loop
    /// versioning's business: a pipelined loop runs where they do not overlap); accesses
    /// of one memory whose affine addresses are provably apart do not either. Barriers,
    /// fences and builtins that write through a pointer keep their order with everything.
    fn conflict(&self, b: Access, a: Access, j: usize, i: usize) -> bool {
        match (b, a) {
            (Access::Mem { mem: mb, write: wb }, Access::Mem { mem: ma, write: wa }) => {
                (wa || wb)
                    && self.may_alias(mb, ma)
                    && !self.affine.apart(
                        (self.ops[j].block, self.ops[j].op),
                        (self.ops[i].block, self.ops[i].op),
                    )
            }
            _ => true,
        }
    }

    /// The accesses a wide group carries (`memory::widen`) hold no memory port of their
    /// own: the group's issuer takes one for all. The issuer also moves every member's
    /// bytes, so it is tied to them: a store group's issuer (its last member) starts no
    /// earlier than any member (it writes their values), a load group's members no
    /// earlier than the issuer (its first member: their lanes come with its answer); and
    /// a member's ordering with the iteration's other memory accesses is the issuer's
    /// (a store member's bytes are written when its issuer runs, a load member's read
    /// when its issuer runs).
    pub fn share_ports(&mut self, wide: &crate::memory::widen::WideAccesses) {
        let mut riders = Vec::new();
        for (i, o) in self.ops.iter_mut().enumerate() {
            if wide.rides_along((o.block, o.op)) {
                o.t.demands.retain(|d| {
                    !matches!(d.resource, Resource::ReadPort(_) | Resource::WritePort(_))
                });
                riders.push(i);
            }
        }
        for m in riders {
            let key = (self.ops[m].block, self.ops[m].op);
            let Some(&g) = wide.group(key).and_then(|w| self.index.get(&w.issuer)) else {
                continue;
            };
            let load = matches!(self.kind(m), OpKind::Load { .. });
            if load {
                // Issuer first in program order: g < m.
                self.succ[g].push((m, 0, DepKind::Order));
                for x in 0..m {
                    let into: Vec<(u32, DepKind)> = self.succ[x]
                        .iter()
                        .filter(|e| e.0 == m && e.2 == DepKind::Order)
                        .map(|e| (e.1, e.2))
                        .collect();
                    if x != g && x < g {
                        for (d, k) in into {
                            self.succ[x].push((g, d, k));
                        }
                    }
                }
            } else {
                // Issuer last in program order: m < g.
                self.succ[m].push((g, 0, DepKind::Order));
                let out: Vec<(usize, u32, DepKind)> = self.succ[m]
                    .iter()
                    .filter(|e| e.0 > g && e.2 == DepKind::Order)
                    .copied()
                    .collect();
                self.succ[g].extend(out);
            }
            self.issued_by.insert(m, g);
        }
    }

    /// Every store of one iteration with a later load of the same iteration that may read
    /// its bytes: the same memory (buffers that might alias are the loop versioning's
    /// business), not proven apart by their affine addresses (the copies of an unrolled
    /// body touch neighbouring elements).
    pub fn stores_before_loads(&self) -> Vec<((BlockId, OpId), (BlockId, OpId))> {
        let at = |i: usize| (self.ops[i].block, self.ops[i].op);
        let mut out = Vec::new();
        for a in 0..self.ops.len() {
            let Some(ma) = self.ops[a].t.mem else {
                continue;
            };
            if !matches!(self.kind(a), OpKind::Store { .. }) {
                continue;
            }
            for b in a + 1..self.ops.len() {
                let Some(mb) = self.ops[b].t.mem else {
                    continue;
                };
                if matches!(self.kind(b), OpKind::Load { .. })
                    && self.may_alias(ma, mb)
                    && self.affine.dep(at(a), at(b)) != Dep::Never
                {
                    out.push((at(a), at(b)));
                }
            }
        }
        out
    }

    fn kind(&self, i: usize) -> &OpKind {
        &self.k.block(self.ops[i].block).op(self.ops[i].op).kind
    }

    fn loc(&self, i: usize) -> SrcLoc {
        SrcLoc::of_span(
            self.sm,
            self.k.block(self.ops[i].block).op(self.ops[i].op).span,
        )
    }

    /// ResMII: per unit class and memory port, the cycles all ops of one iteration hold
    /// it, over the units the board allows.
    pub fn res_mii(&self, limits: &Limits) -> Bound {
        let mut best = Bound {
            ii: 1,
            reason: String::new(),
            notes: Vec::new(),
        };
        for u in self.res_bounds(limits) {
            if u.ii > best.ii {
                best = Bound {
                    ii: u.ii,
                    reason: self.res_reason(u.ii, u.resource, u.cap, u.cycles, u.ops.len() as u32),
                    notes: Vec::new(),
                };
            }
        }
        best
    }

    /// The bound each limited resource puts on the II on its own, in resource order
    /// (ResMII is the largest): the per-memory report reads which memory's ports bind
    /// a loop, and what the II would be without them, from these rather than from the
    /// reason text.
    pub fn res_bounds(&self, limits: &Limits) -> Vec<ResBound> {
        let mut use_: BTreeMap<Resource, (u64, Vec<SrcLoc>)> = BTreeMap::new();
        for (i, o) in self.ops.iter().enumerate() {
            for d in &o.t.demands {
                let e = use_.entry(d.resource).or_default();
                e.0 += d.units as u64 * d.cycles as u64;
                e.1.push(self.loc(i));
            }
        }
        use_.into_iter()
            .filter_map(|(resource, (cycles, ops))| {
                let cap = capacity(resource, limits);
                if cap == u32::MAX || cap == 0 {
                    return None;
                }
                let ii = cycles.div_ceil(cap as u64).min(u32::MAX as u64) as u32;
                Some(ResBound {
                    resource,
                    ii,
                    cap,
                    cycles,
                    ops,
                })
            })
            .collect()
    }

    fn res_reason(&self, ii: u32, r: Resource, cap: u32, cycles: u64, ops: u32) -> String {
        let plural = |n: u64, s: &str| {
            if n == 1 {
                format!("1 {s}")
            } else {
                format!("{n} {s}s")
            }
        };
        // An access holds its port for the unit's II (AXI units take a command every
        // other cycle at best).
        let hold = cycles / ops.max(1) as u64;
        let (what, port) = match r {
            Resource::ReadPort(m) => (
                format!("{} from {}", plural(ops as u64, "load"), self.mem_name(m)),
                "read port",
            ),
            Resource::WritePort(m) => (
                format!("{} to {}", plural(ops as u64, "store"), self.mem_name(m)),
                "write port",
            ),
            Resource::Unit(c) => {
                return format!(
                    "{ii}: {} on {} ({cycles} unit cycles per iteration)",
                    plural(ops as u64, &format!("{c} op")),
                    plural(cap as u64, &format!("{c} unit"))
                )
            }
        };
        let held = if hold > 1 {
            format!(", each holding it {hold} cycles (the unit's II)")
        } else {
            String::new()
        };
        format!("{ii}: {what} on {}{held}", plural(cap as u64, port))
    }

    fn mem_name(&self, m: MemKey) -> String {
        match m {
            MemKey::Base(b) => format!("`{}`", base_name(self.k, b)),
            MemKey::Space(s) => format!("any {} memory", s.name()),
        }
    }

    /// RecMII: over every dependence carried to a later iteration, the longest path from
    /// its target back to its source within one iteration plus its own delay, spread over
    /// its distance.
    pub fn rec_mii(&self, mem: &MemDeps) -> Bound {
        let (carried, notes) = self.carried(mem);
        let mut best = Bound {
            ii: 1,
            reason: String::new(),
            notes: notes.clone(),
        };
        for c in carried {
            let Some((len, settle, path)) = self.longest(c.to, c.from) else {
                continue;
            };
            // A recurrence of combinational ops only, its value forwarded to the next
            // iteration within the cycle it settles in: the chains of consecutive
            // iterations follow each other, so the part of a cycle it takes counts too.
            let comb = c.delay == 0 && path.iter().all(|(i, _)| self.ops[*i].t.latency == 0);
            let cycle = len as u64 + c.delay as u64 + u64::from(comb && settle > 0.0 && len > 0);
            let ii = cycle.div_ceil(c.distance.max(1)).min(u32::MAX as u64) as u32;
            if ii > best.ii {
                best = Bound {
                    ii,
                    reason: self.rec_reason(ii, &c, &path),
                    notes: notes.clone(),
                };
            }
        }
        best
    }

    /// The iteration as the modulo scheduler takes it: every op (keyed by block and op),
    /// the edges within the iteration (forwarded variables and cross-block memory order
    /// included) and the dependences `mem` carries to later iterations.
    pub fn graph(&self, mem: &MemDeps) -> LoopGraph<(BlockId, OpId)> {
        let nodes = self
            .ops
            .iter()
            .map(|o| LoopNode {
                key: (o.block, o.op),
                timing: o.t.clone(),
            })
            .collect();
        let mut edges = Vec::new();
        for (from, succ) in self.succ.iter().enumerate() {
            for &(to, delay, kind) in succ {
                edges.push(DepEdge {
                    from,
                    to,
                    delay,
                    distance: 0,
                    kind,
                });
            }
        }
        for c in self.carried(mem).0 {
            let var = matches!(self.kind(c.from), OpKind::WriteVar(_));
            // A riding member's bytes move when its issuer runs.
            let at = |i: usize| self.issued_by.get(&i).copied().unwrap_or(i);
            edges.push(DepEdge {
                from: at(c.from),
                to: at(c.to),
                delay: c.delay,
                distance: c.distance.min(u32::MAX as u64) as u32,
                // A variable's value is forwarded to the later iteration's read.
                kind: if var { DepKind::Data } else { DepKind::Order },
            });
        }
        LoopGraph { nodes, edges }
    }

    fn carried(&self, mem: &MemDeps) -> (Vec<Carried>, Vec<String>) {
        let mut out = Vec::new();
        let mut notes = Vec::new();
        // Variables: a read not preceded by an unconditional write of the iteration sees
        // the value of an earlier iteration; so does a variable's first write when it is
        // conditional (where its guard fails the variable keeps that value: a pipeline
        // muxes the new value over the register).
        let mut written: HashMap<crate::ir::VarId, bool> = HashMap::new();
        let mut carried_reads = Vec::new();
        for i in 0..self.ops.len() {
            match self.kind(i) {
                OpKind::ReadVar(v) if !written.get(v).copied().unwrap_or(false) => {
                    carried_reads.push((i, *v))
                }
                OpKind::WriteVar(v) => {
                    if self.ops[i].conditional && !written.contains_key(v) {
                        carried_reads.push((i, *v));
                    }
                    let e = written.entry(*v).or_default();
                    *e |= !self.ops[i].conditional;
                }
                _ => {}
            }
        }
        for (r, v) in carried_reads {
            for w in 0..self.ops.len() {
                if matches!(self.kind(w), OpKind::WriteVar(x) if *x == v) {
                    out.push(Carried {
                        from: w,
                        to: r,
                        delay: self.ops[w].t.latency,
                        distance: 1,
                        affine: false,
                    });
                }
            }
        }
        // Memory: accesses to one memory where one side writes.
        let mems: Vec<(usize, MemKey)> = (0..self.ops.len())
            .filter_map(|i| self.ops[i].t.mem.map(|m| (i, m)))
            .collect();
        for &(a, ma) in &mems {
            for &(b, mb) in &mems {
                let (ta, tb) = (&self.ops[a].t, &self.ops[b].t);
                let writes = ta.shape.class.writes_memory() || tb.shape.class.writes_memory();
                if !writes || !self.may_alias(ma, mb) {
                    continue;
                }
                // Work-items share memory through atomics, and through the plain
                // read-modify-writes group form made of them.
                let shares = |i, m| {
                    matches!(self.kind(i), OpKind::Atomic { .. })
                        || matches!(m, MemKey::Base(x) if self.k.shared_rmw.contains(&x))
                };
                let at = |i: usize| (self.ops[i].block, self.ops[i].op);
                let dep = self.affine.dep(at(a), at(b));
                // What the addresses prove, against `floor` (ivdep's safelen) otherwise.
                let mut proven = false;
                let mut by_address = |floor: u64| match dep {
                    Dep::Unknown => Some(floor),
                    Dep::Distance(d) => {
                        proven = true;
                        Some(d.max(floor))
                    }
                    Dep::SameIterationOnly | Dep::Never => {
                        // Each unordered pair once; a store against itself says nothing;
                        // an unrolled body's copies share their source lines, so a note
                        // already given is not repeated.
                        if a < b {
                            let note = self.affine_note(a, b, dep);
                            if !notes.contains(&note) {
                                notes.push(note);
                            }
                        }
                        None
                    }
                };
                let distance = match mem {
                    MemDeps::All => match by_address(1) {
                        Some(d) => d,
                        None => continue,
                    },
                    MemDeps::AtomicsOnly if shares(a, ma) && shares(b, mb) => match by_address(1) {
                        Some(d) => d,
                        None => continue,
                    },
                    MemDeps::AtomicsOnly => continue,
                    MemDeps::Ivdep { safelen, arrays } => {
                        let covered = |m| match m {
                            MemKey::Base(x) => {
                                arrays.is_empty()
                                    || arrays.iter().any(|n| *n == base_name(self.k, x))
                            }
                            MemKey::Space(_) => arrays.is_empty(),
                        };
                        let floor = match (covered(ma) && covered(mb), safelen) {
                            (false, _) => 1,
                            (true, Some(n)) => (*n).max(1),
                            (true, None) => continue,
                        };
                        match by_address(floor) {
                            Some(d) => d,
                            None => continue,
                        }
                    }
                };
                out.push(Carried {
                    from: a,
                    to: b,
                    delay: order_gap(ta, tb),
                    distance,
                    affine: proven,
                });
            }
        }
        (out, notes)
    }

    fn affine_note(&self, a: usize, b: usize, dep: Dep) -> String {
        let what = match dep {
            Dep::SameIterationOnly => "touch the same element only within one iteration",
            _ => "never touch the same bytes in different iterations",
        };
        format!(
            "{} at {} and {} at {} {what}: no loop-carried dependence",
            self.access(a),
            self.loc(a),
            self.access(b),
            self.loc(b)
        )
    }

    fn may_alias(&self, a: MemKey, b: MemKey) -> bool {
        let space = |m: MemKey| match m {
            MemKey::Space(s) => Some(s),
            MemKey::Base(Base::Param(i)) => match self.k.params.get(i as usize).map(|p| &p.kind) {
                Some(ParamKind::Buffer { space }) => Some(*space),
                Some(ParamKind::LocalBuffer) => Some(AddrSpace::Local),
                _ => None,
            },
            MemKey::Base(Base::Object(o)) => self.k.objects.get(o.0 as usize).map(|x| x.space),
        };
        match (a, b) {
            (MemKey::Base(x), MemKey::Base(y)) => x == y,
            _ => space(a).is_some() && space(a) == space(b),
        }
    }

    /// The longest path from `from` to `to` (cycles) and its steps (each op with the
    /// cycles the path waits after it), when `to` is reachable. Ops without latency chain
    /// within a cycle as the scheduler chains them: while their summed delay fits the
    /// clock period (a chain past it starts a new cycle, as a recurrence of 16 adders
    /// takes several).
    fn longest(&self, from: usize, to: usize) -> Option<Longest> {
        if from == to {
            return Some((0, 0.0, vec![(from, 0)]));
        }
        if to < from {
            return None;
        }
        let n = to - from + 1;
        // Per op: the cycle it starts in and when its result settles in that cycle (ns;
        // 0 for a registered result).
        let out = |i: usize, arrive: f64| {
            let t = &self.ops[i].t;
            if t.latency == 0 {
                arrive + t.delay_ns
            } else {
                0.0
            }
        };
        let mut dist: Vec<Option<(u32, f64)>> = vec![None; n];
        let mut prev = vec![usize::MAX; n];
        dist[0] = Some((0, out(from, 0.0)));
        for i in from..=to {
            let Some((d, ns)) = dist[i - from] else {
                continue;
            };
            for &(j, w, kind) in &self.succ[i] {
                if j > to {
                    continue;
                }
                let (mut c, mut arrive) = if w > 0 || kind != DepKind::Data {
                    (d + w, 0.0)
                } else {
                    (d, ns)
                };
                if arrive > 0.0 && arrive + self.ops[j].t.delay_ns > self.period_ns + 1e-9 {
                    c += 1;
                    arrive = 0.0;
                }
                let next = (c, out(j, arrive));
                let later = |x: (u32, f64)| next.0 > x.0 || (next.0 == x.0 && next.1 > x.1);
                if dist[j - from].is_none_or(later) {
                    dist[j - from] = Some(next);
                    prev[j - from] = i;
                }
            }
        }
        let settle = dist[n - 1]?.1;
        let dist: Vec<Option<u32>> = dist.into_iter().map(|x| x.map(|x| x.0)).collect();
        let len = dist[n - 1]?;
        let mut path = vec![(to, 0)];
        let mut at = to;
        while at != from {
            let p = prev[at - from];
            if p == usize::MAX {
                return None;
            }
            let wait = dist[at - from]? - dist[p - from]?;
            path.push((p, wait));
            at = p;
        }
        path.reverse();
        Some((len, settle, path))
    }

    fn rec_reason(&self, ii: u32, c: &Carried, path: &[(usize, u32)]) -> String {
        let mut steps: Vec<(usize, u32)> = path.to_vec();
        // The last op waits the carried edge's own delay before the next iteration.
        if let Some(last) = steps.last_mut() {
            last.1 = c.delay;
        }
        let units: Vec<String> = steps
            .iter()
            .filter(|(_, w)| *w > 0)
            .map(|&(i, w)| {
                let class = self.ops[i].t.shape.class;
                let s = if w == 1 { "" } else { "s" };
                format!("{class} ({w} cycle{s})")
            })
            .collect();
        let comb = path.iter().all(|(i, _)| self.ops[*i].t.latency == 0);
        let through = if comb && path.iter().any(|(_, w)| *w > 0) {
            // A chain longer than the clock period (see `longest`).
            let ns: f64 = path.iter().map(|(i, _)| self.ops[*i].t.delay_ns).sum();
            format!(
                "a chain of {} combinational ops ({ns:.1} ns at a {:.1} ns clock)",
                path.len(),
                self.period_ns
            )
        } else if units.is_empty() {
            "combinational logic and a register".to_string()
        } else {
            units.join(" + ")
        };
        let apart = if c.affine {
            let s = if c.distance == 1 { "" } else { "s" };
            format!(
                "{} iteration{s} later (affine addresses: dependence distance {})",
                c.distance, c.distance
            )
        } else if c.distance > 1 {
            format!("{} iterations later (ivdep safelen)", c.distance)
        } else {
            "in the next iteration (same memory, no ivdep)".to_string()
        };
        match self.kind(c.from) {
            OpKind::WriteVar(v) => format!(
                "{ii}: `{}` at {} is carried to the next iteration through {through}",
                self.k.var(*v).name,
                self.loc(c.from)
            ),
            _ => format!(
                "{ii}: {} at {} before {} at {} {apart}, through {through}",
                self.access(c.from),
                self.loc(c.from),
                self.access(c.to),
                self.loc(c.to)
            ),
        }
    }

    fn access(&self, i: usize) -> String {
        let what = match self.kind(i) {
            OpKind::Load { .. } => "load from",
            OpKind::Store { .. } => "store to",
            OpKind::Atomic { .. } => "atomic on",
            _ => "access to",
        };
        match self.ops[i].t.mem {
            Some(m) => format!("{what} {}", self.mem_name(m)),
            None => what.to_string(),
        }
    }
}

/// The source name of a buffer argument or kernel object.
pub fn base_name(k: &Kernel, b: Base) -> String {
    match b {
        Base::Param(i) => k
            .params
            .get(i as usize)
            .map(|p| p.name.clone())
            .unwrap_or_else(|| format!("param {i}")),
        Base::Object(o) => k
            .objects
            .get(o.0 as usize)
            .map(|x| x.name.clone())
            .unwrap_or_else(|| format!("object {}", o.0)),
    }
}
