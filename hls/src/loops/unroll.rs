//! Loop unrolling driven by `Loop::hints.unroll` (every spelling the frontend accepts:
//! `opencl_unroll_hint(n)`, `[[cl::unroll_hint(n)]]`, `#pragma unroll n`), innermost
//! loops first so an outer loop copies its inner loops already unrolled.
//!
//! - Factor 1 never unrolls.
//! - No factor ("full"): a counted loop with a constant trip count becomes that many
//!   straight-line copies with the counter a constant in each; otherwise the loop stays
//!   rolled and the report says why.
//! - Factor F on a counted loop: a main loop runs F copies (the counter `k + j * step` in
//!   copy `j`) while at least F iterations remain, tested without overflow as
//!   `k CMP bound && distance(k, bound) > (F - 1) * |step|`; the rest run in the original
//!   loop (the remainder), or as straight-line copies when the trip count is known. A
//!   known trip count no larger than F unrolls fully.
//! - Factor F on any other loop (unknown counters, `break`, do-while): F copies per
//!   iteration, each after the first behind the loop's own exit test (`if (!cond) break`),
//!   which keeps every trip count exact.
//! - No hint: the tool fully unrolls small counted loops with constant trips whose only
//!   memory is private arrays and `__constant` tables (FIR windows, shift registers), so
//!   the arrays can become registers (reported as the tool's choice).
//!
//! A `continue` inside an unrolled copy leaves that copy only: the copy is wrapped in a
//! run-once region and the `continue` becomes its `break`. An unrolled loop larger than
//! the size limit is an error at the loop, with the factor and the size it would have.

use std::collections::{HashMap, HashSet};

use super::copy::{self, once, Copier, Subst};
use super::counted::{self, Counted};
use super::{LoopNote, Options, TripShare, UnrollDecision};
use crate::analysis::loops::all_blocks;
use crate::diag::{Diagnostic, SourceMap, Span};
use crate::frontend::sema::summary::LoopHints;
use crate::frontend::types::AddrSpace;
use crate::ir::{
    BinOp, Block, BlockId, CmpOp, Kernel, Loop, LoopId, LoopKind, Node, OpKind, Region, Ty, VarId,
};

/// Names of the group-form work-item counters (see `workitems`): those loops are never
/// unrolled here (their trip count is the work-group size, and the pipeliner overlaps
/// work-items instead).
const LID_VARS: [&str; 3] = ["__lid_x", "__lid_y", "__lid_z"];

pub struct Unroller<'a> {
    pub opts: &'a Options,
    pub sm: &'a SourceMap,
    pub decisions: Vec<UnrollDecision>,
    /// Per loop of the result, what unrolling made of it.
    pub notes: HashMap<LoopId, LoopNote>,
    /// Blocks made here (the clean-up passes work on them).
    pub made: Vec<BlockId>,
    pub errors: Vec<Diagnostic>,
    /// Per variable, the blocks of the input that read it; per loop, its blocks.
    readers: HashMap<VarId, Vec<BlockId>>,
    inside: HashMap<LoopId, HashSet<BlockId>>,
}

/// How an unrolled loop leaves a copy early.
#[derive(Default)]
struct Exits {
    /// `break` of the loop itself.
    brk: bool,
    /// `continue` of the loop itself.
    cont: bool,
    /// `break`/`continue` of an enclosing loop, or `return`.
    leaves: bool,
    /// The body holds a loop.
    inner: bool,
}

impl Exits {
    fn of(r: &Region, me: LoopId, k: &Kernel) -> Exits {
        let mut e = Exits::default();
        e.scan(r, me, k, &mut HashSet::new());
        e
    }

    fn scan(&mut self, r: &Region, me: LoopId, k: &Kernel, nested: &mut HashSet<LoopId>) {
        for n in &r.0 {
            match n {
                Node::Break(l) if *l == me => self.brk = true,
                Node::Continue(l) if *l == me => self.cont = true,
                Node::Break(l) | Node::Continue(l) if !nested.contains(l) => self.leaves = true,
                Node::Return => self.leaves = true,
                Node::If { then, els, .. } => {
                    self.scan(then, me, k, nested);
                    self.scan(els, me, k, nested);
                }
                Node::Loop(id) => {
                    self.inner = true;
                    nested.insert(*id);
                    let l = k.lp(*id);
                    self.scan(&l.body, me, k, nested);
                    self.scan(&l.latch, me, k, nested);
                }
                _ => {}
            }
        }
    }
}

/// Ops in a region's blocks (nested control included).
pub fn ops(k: &Kernel, r: &Region) -> usize {
    let mut blocks = Vec::new();
    all_blocks(k, r, &mut blocks);
    blocks.iter().map(|b| k.block(*b).len()).sum()
}

impl<'a> Unroller<'a> {
    pub fn new(k: &Kernel, opts: &'a Options, sm: &'a SourceMap) -> Unroller<'a> {
        let mut readers: HashMap<VarId, Vec<BlockId>> = HashMap::new();
        let mut blocks = Vec::new();
        all_blocks(k, &k.body, &mut blocks);
        for b in &blocks {
            for o in k.block(*b).graph.node_weights() {
                if let OpKind::ReadVar(v) = o.kind {
                    readers.entry(v).or_default().push(*b);
                }
            }
        }
        let inside = (0..k.loops.len() as u32)
            .map(|i| {
                let mut v = Vec::new();
                all_blocks(k, &Region(vec![Node::Loop(LoopId(i))]), &mut v);
                (LoopId(i), v.into_iter().collect())
            })
            .collect();
        Unroller {
            opts,
            sm,
            decisions: Vec::new(),
            notes: HashMap::new(),
            made: Vec::new(),
            errors: Vec::new(),
            readers,
            inside,
        }
    }

    /// Unrolls every loop of a region (inner loops first); joins the blocks of a region
    /// where a loop became straight-line code.
    pub fn region(&mut self, k: &mut Kernel, r: Region) -> Region {
        let mut out: Vec<Node> = Vec::new();
        let mut changed = false;
        for n in r.0 {
            match n {
                Node::Loop(id) => {
                    let body = std::mem::take(&mut k.loops[id.0 as usize].body);
                    k.loops[id.0 as usize].body = self.region(k, body);
                    let latch = std::mem::take(&mut k.loops[id.0 as usize].latch);
                    k.loops[id.0 as usize].latch = self.region(k, latch);
                    match self.unroll(k, id, &out) {
                        Some(nodes) => {
                            changed = true;
                            out.extend(nodes);
                        }
                        None => out.push(Node::Loop(id)),
                    }
                }
                Node::If {
                    cond,
                    then,
                    els,
                    span,
                } => {
                    let then = self.region(k, then);
                    let els = self.region(k, els);
                    out.push(Node::If {
                        cond,
                        then,
                        els,
                        span,
                    });
                }
                other => out.push(other),
            }
        }
        if changed {
            out = super::merge::join_runs(k, out, &mut self.made);
        }
        Region(out)
    }

    fn location(&self, span: Span) -> String {
        self.sm.location(span)
    }

    /// Whether `var` is read outside loop `id` (in the input kernel).
    fn read_outside(&self, var: VarId, id: LoopId) -> bool {
        let inside = self.inside.get(&id);
        self.readers
            .get(&var)
            .is_some_and(|bs| bs.iter().any(|b| !inside.is_some_and(|s| s.contains(b))))
    }

    fn decide(
        &mut self,
        l: &Loop,
        asked: &str,
        applied: u64,
        how: &str,
        reason: Option<String>,
        sizes: (usize, usize),
    ) {
        self.decisions.push(UnrollDecision {
            location: self.location(l.span),
            asked: asked.to_string(),
            spelling: l.hints.unroll.as_ref().map(|u| u.spelling.clone()),
            applied,
            how: how.to_string(),
            reason,
            ops_before: sizes.0,
            ops_after: sizes.1,
        });
    }

    /// The error for an unrolling over the size limit; `copy` is the ops one copy adds,
    /// for the largest factor that would fit.
    fn too_big(&mut self, l: &Loop, what: String, size: usize, copy: usize) -> Option<Vec<Node>> {
        let fits = self.opts.max_ops / copy.max(1);
        let advice = if fits >= 2 {
            format!("a factor of at most {fits} fits (`opencl_unroll_hint({fits})`)")
        } else {
            "one copy of the body alone is too large: remove the hint".to_string()
        };
        self.errors.push(Diagnostic::error(
            l.span,
            format!(
                "{what} would make {size} operations, over the unrolling limit of {}; {advice}",
                self.opts.max_ops
            ),
        ));
        None
    }

    /// Unrolls loop `id` when its hints (or the tool's rule) ask for it: the nodes that
    /// replace it, or `None` to keep it as it is.
    fn unroll(&mut self, k: &mut Kernel, id: LoopId, before: &[Node]) -> Option<Vec<Node>> {
        let l = k.lp(id).clone();
        // A work-item loop has a hint only from `num_simd_work_items` (lanes).
        if l.kind == LoopKind::Once || (is_work_item_loop(k, &l) && l.hints.unroll.is_none()) {
            return None;
        }
        let counted = counted::recognize(k, id, before);
        let body = ops(k, &l.body);
        let whole = body + ops(k, &l.latch) + l.cond.map_or(0, |(b, _)| k.block(b).len());
        // Counted only as far as the rule that reads the count needs.
        let cap = match l.hints.unroll {
            None => self.opts.auto_trips,
            Some(_) => self.opts.trip_cap,
        };
        let trips = counted.as_ref().ok().and_then(|c| c.trips(cap));
        let asked = match &l.hints.unroll {
            None => return self.auto(k, id, &l, counted.ok(), trips, body),
            Some(u) => u.factor,
        };
        let asked_text = asked.map_or("full".to_string(), |f| f.to_string());
        if !matches!(asked, Some(0) | Some(1)) && holds_work_items(k, &l.body) {
            let reason = "its body holds a barrier: each copy would be its own work-item \
                          loops, run one after another, for no overlap; kept rolled"
                .to_string();
            self.decide(
                &l,
                &asked_text,
                1,
                "not unrolled",
                Some(reason.clone()),
                (whole, whole),
            );
            self.note(id, &asked_text, 1, reason, TripShare::All);
            k.loops[id.0 as usize].hints.unroll = None;
            return None;
        }
        match asked {
            Some(0) | Some(1) => {
                self.decide(&l, &asked_text, 1, "not unrolled", None, (whole, whole));
                self.note(
                    id,
                    &asked_text,
                    1,
                    "factor 1: not unrolled".into(),
                    TripShare::All,
                );
                k.loops[id.0 as usize].hints.unroll = None;
                None
            }
            None => match (counted, trips) {
                (Ok(c), Some(Ok(t))) => {
                    let size = full_size(t, body);
                    if size > self.opts.max_ops {
                        return self.too_big(
                            &l,
                            format!("fully unrolling this loop ({t} iterations)"),
                            size,
                            body,
                        );
                    }
                    let nodes = self.full(k, id, &l, &c, t);
                    let after = region_ops(k, &nodes);
                    self.decide(&l, &asked_text, t, "full", None, (whole, after));
                    Some(nodes)
                }
                (Ok(_), Some(Err(()))) => self.too_big(
                    &l,
                    format!(
                        "fully unrolling this loop (more than {} iterations)",
                        self.opts.trip_cap
                    ),
                    usize::MAX,
                    body,
                ),
                (counted, _) => {
                    let why = match counted {
                        Ok(_) => "its trip count is not a compile-time constant".to_string(),
                        Err(e) => format!("it is not a counted loop with constant bounds ({e})"),
                    };
                    let reason = format!("full unrolling asked, but {why}: kept rolled");
                    self.decide(
                        &l,
                        &asked_text,
                        1,
                        "not unrolled",
                        Some(reason.clone()),
                        (whole, whole),
                    );
                    self.note(id, &asked_text, 1, reason, TripShare::All);
                    k.loops[id.0 as usize].hints.unroll = None;
                    None
                }
            },
            Some(f) => self.partial(k, id, &l, counted, trips, f, &asked_text, (body, whole)),
        }
    }

    /// A factor F >= 2 on loop `id`.
    #[allow(clippy::too_many_arguments)]
    fn partial(
        &mut self,
        k: &mut Kernel,
        id: LoopId,
        l: &Loop,
        counted: Result<Counted, String>,
        trips: Option<Result<u64, ()>>,
        f: u64,
        asked: &str,
        (body, whole): (usize, usize),
    ) -> Option<Vec<Node>> {
        let exits = Exits::of(&l.body, id, k);
        let mut why_tested = None;
        if let Ok(c) = &counted {
            if let Some(Ok(t)) = trips {
                if t <= f {
                    let size = full_size(t, body);
                    if size > self.opts.max_ops {
                        return self.too_big(
                            l,
                            format!("unrolling this loop by {f} (fully: {t} iterations)"),
                            size,
                            body,
                        );
                    }
                    let nodes = self.full(k, id, l, c, t);
                    let after = region_ops(k, &nodes);
                    let reason =
                        format!("the trip count {t} is not larger than the factor: fully unrolled");
                    self.decide(l, asked, t, "full", Some(reason), (whole, after));
                    return Some(nodes);
                }
            }
            let live = self.read_outside(c.var, id);
            if exits.brk {
                why_tested = Some("the body can `break`".to_string());
            } else if is_work_item_loop(k, l) && (exits.leaves || exits.cont || exits.inner) {
                // The lanes' copies would hold loops (an early `return`, a `continue` of
                // the work-item loop by now, puts each copy in a run-once region): the
                // work-item loop would not be pipelined.
                why_tested =
                    Some("its body holds a loop, a `switch` or an early `return`".to_string());
            } else if exits.leaves && live {
                why_tested =
                    Some("the body can leave the loop and the counter is read after it".into());
            } else if guard_distance(c, f).is_none() {
                why_tested = Some("the factor times the step does not fit the counter".into());
            } else {
                let size = body.saturating_mul(f as usize).saturating_add(whole);
                if size > self.opts.max_ops {
                    return self.too_big(l, format!("unrolling this loop by {f}"), size, body);
                }
                let known = trips.and_then(Result::ok);
                let nodes = self.main_loop(k, id, l, c, f, known, exits.cont);
                let after = region_ops(k, &nodes);
                let how = if nodes.iter().filter(|n| matches!(n, Node::Loop(_))).count() > 1 {
                    "main loop + remainder loop"
                } else {
                    "main loop + straight-line remainder"
                };
                self.decide(l, asked, f, how, None, (whole, after));
                return Some(nodes);
            }
        }
        if is_work_item_loop(k, l) {
            // Lanes behind exit tests would leave the work-item loop unpipelined: slower
            // than one lane.
            let reason = match &why_tested {
                Some(w) => format!(
                    "lanes need every work-item to run the whole body, but {w}; one \
                     work-item per cycle"
                ),
                None => format!(
                    "lanes need a work-item loop with a known count: \
                     reqd_work_group_size(X, 1, 1) with X a multiple of {f}{}; one \
                     work-item per cycle",
                    counted
                        .as_ref()
                        .err()
                        .map(|e| format!(" (here: {e})"))
                        .unwrap_or_default()
                ),
            };
            self.decide(
                l,
                asked,
                1,
                "not unrolled",
                Some(reason.clone()),
                (whole, whole),
            );
            self.note(id, asked, 1, reason, TripShare::All);
            k.loops[id.0 as usize].hints.unroll = None;
            return None;
        }
        let size = whole.saturating_mul(f as usize);
        if size > self.opts.max_ops {
            return self.too_big(l, format!("unrolling this loop by {f}"), size, whole);
        }
        let why = why_tested.unwrap_or_else(|| match &counted {
            Err(e) => format!("not a counted loop: {e}"),
            Ok(_) => String::new(),
        });
        let nodes = self.exit_tested(k, id, l, f, exits.cont);
        let after = region_ops(k, &nodes);
        self.decide(
            l,
            asked,
            f,
            "copies with exit tests",
            Some(why.clone()),
            (whole, after),
        );
        self.note(
            id,
            asked,
            f,
            format!("{f} copies per iteration, each behind the exit test ({why})"),
            TripShare::CeilDiv(f),
        );
        Some(nodes)
    }

    /// The tool's own choice on a loop without hints.
    fn auto(
        &mut self,
        k: &mut Kernel,
        id: LoopId,
        l: &Loop,
        counted: Option<Counted>,
        trips: Option<Result<u64, ()>>,
        body: usize,
    ) -> Option<Vec<Node>> {
        let c = counted?;
        let Some(Ok(t)) = trips else { return None };
        let exits = Exits::of(&l.body, id, k);
        if exits.inner || t > self.opts.auto_trips || full_size(t, body) > self.opts.auto_ops {
            return None;
        }
        if !private_only(k, &l.body) {
            return None;
        }
        let whole = body + ops(k, &l.latch) + l.cond.map_or(0, |(b, _)| k.block(b).len());
        let nodes = self.full(k, id, l, &c, t);
        let after = region_ops(k, &nodes);
        let reason = format!(
            "the tool's choice: {t} iterations over private arrays and constant tables, \
             unrolled so their indices become constants"
        );
        self.decide(l, "none", t, "full", Some(reason), (whole, after));
        Some(nodes)
    }

    fn note(&mut self, id: LoopId, asked: &str, applied: u64, note: String, share: TripShare) {
        self.notes.insert(
            id,
            LoopNote {
                asked: Some(asked.to_string()),
                applied,
                note,
                share,
            },
        );
    }

    /// Copies `r` with the counter substituted; notes of copied loops follow them.
    fn copy(
        &mut self,
        k: &mut Kernel,
        r: &Region,
        subst: Option<Subst>,
        retarget: &HashMap<(bool, LoopId), Node>,
    ) -> Region {
        let mut cp = Copier::new(subst, retarget);
        let out = cp.region(k, r);
        self.made.extend(cp.made);
        for (old, new) in cp.loops {
            if let Some(n) = self.notes.get(&old).cloned() {
                self.notes.insert(new, n);
            }
        }
        out
    }

    /// One copy of the body; with a `continue` in it, inside its own run-once region.
    fn body_copy(
        &mut self,
        k: &mut Kernel,
        id: LoopId,
        l: &Loop,
        subst: Option<Subst>,
        cont: bool,
        brk: Option<LoopId>,
    ) -> Vec<Node> {
        let mut retarget = HashMap::new();
        if let Some(b) = brk {
            retarget.insert((false, id), Node::Break(b));
        }
        let wrap = cont.then(|| once(k, Region::default(), l.span));
        if let Some(w) = wrap {
            retarget.insert((true, id), Node::Break(w));
        }
        let r = self.copy(k, &l.body, subst, &retarget);
        match wrap {
            Some(w) => {
                k.loops[w.0 as usize].body = r;
                vec![Node::Loop(w)]
            }
            None => r.0,
        }
    }

    /// Full unrolling of a counted loop with `t` iterations: the copies with the counter
    /// a constant in each (the condition is pure and the latch only steps the counter,
    /// so both go). The counter's final value is written when code after the loop reads
    /// it; when a copy can leave early, each copy writes its own value first.
    fn full(&mut self, k: &mut Kernel, id: LoopId, l: &Loop, c: &Counted, t: u64) -> Vec<Node> {
        let exits = Exits::of(&l.body, id, k);
        let live = self.read_outside(c.var, id);
        let init = c.init.unwrap_or(0);
        let ty = k.var(c.var).ty.clone();
        let outer = exits.brk.then(|| once(k, Region::default(), l.span));
        let mut seq = Vec::new();
        for j in 0..t {
            let v = c.value(init, j);
            if live && (exits.brk || exits.leaves) {
                seq.push(Node::Block(self.write_const(k, c.var, &ty, v, l.span)));
            }
            seq.extend(self.body_copy(k, id, l, Some(Subst::Const(c.var, v)), exits.cont, outer));
        }
        if live {
            seq.push(Node::Block(self.write_const(
                k,
                c.var,
                &ty,
                c.value(init, t),
                l.span,
            )));
        }
        match outer {
            Some(o) => {
                k.loops[o.0 as usize].body = Region(seq);
                vec![Node::Loop(o)]
            }
            None => seq,
        }
    }

    /// A block writing a constant to a variable.
    fn write_const(&mut self, k: &mut Kernel, var: VarId, ty: &Ty, v: u64, span: Span) -> BlockId {
        let b = k.new_block();
        let blk = k.block_mut(b);
        let c = blk.add(OpKind::Const(vec![v]), Some(ty.clone()), span, &[]);
        blk.add(OpKind::WriteVar(var), None, span, &[c]);
        self.made.push(b);
        b
    }

    /// The main loop of a counted loop unrolled by `f`, then the remainder: the original
    /// loop, or straight-line copies when the trip count `known` says how many remain.
    #[allow(clippy::too_many_arguments)]
    fn main_loop(
        &mut self,
        k: &mut Kernel,
        id: LoopId,
        l: &Loop,
        c: &Counted,
        f: u64,
        known: Option<u64>,
        cont: bool,
    ) -> Vec<Node> {
        let d = guard_distance(c, f).unwrap_or(0);
        let (g, map) = copy::copy_block(k, c.cond, None);
        self.made.push(g);
        let ty = Ty::I(c.width as u8);
        let blk = k.block_mut(g);
        let (rd, bd, test) = (map[&c.read], map[&c.bound], map[&c.test]);
        let span = blk.op(test).span;
        let diff = if c.up() { [bd, rd] } else { [rd, bd] };
        let diff = blk.add(OpKind::Binary(BinOp::Sub), Some(ty.clone()), span, &diff);
        let dc = blk.add(OpKind::Const(vec![d]), Some(ty.clone()), span, &[]);
        let far = blk.add(
            OpKind::Cmp(far_cmp(c.cmp)),
            Some(Ty::I(1)),
            span,
            &[diff, dc],
        );
        let guard = blk.add(
            OpKind::Binary(BinOp::And),
            Some(Ty::I(1)),
            span,
            &[test, far],
        );
        let mut body = Vec::new();
        for j in 0..f {
            let step = (c.step as u64).wrapping_mul(j);
            body.extend(self.body_copy(k, id, l, Some(Subst::Offset(c.var, step)), cont, None));
        }
        let latch = k.new_block();
        self.made.push(latch);
        let blk = k.block_mut(latch);
        let r = blk.add(OpKind::ReadVar(c.var), Some(ty.clone()), l.span, &[]);
        let by = super::fold::mask((c.step as u64).wrapping_mul(f), c.width);
        let s = blk.add(OpKind::Const(vec![by]), Some(ty.clone()), l.span, &[]);
        let a = blk.add(
            OpKind::Binary(BinOp::Add),
            Some(ty.clone()),
            l.span,
            &[r, s],
        );
        blk.add(OpKind::WriteVar(c.var), None, l.span, &[a]);
        let body = super::merge::join_runs(k, body, &mut self.made);
        k.loops.push(Loop {
            kind: LoopKind::While,
            cond: Some((g, guard)),
            body: Region(body),
            latch: Region(vec![Node::Block(latch)]),
            hints: divided(&l.hints, f),
            span: l.span,
        });
        let main = LoopId(k.loops.len() as u32 - 1);
        let asked = f.to_string();
        // With a known trip count the main loop's runs follow from the guard; the rest
        // (fewer than f) are copies with constant counters.
        if let (Some(t), Some(init), Some(limit)) = (known, c.init, c.limit) {
            let runs = guard_runs(c, init, limit, f, d, t);
            let left = runs.and_then(|m| t.checked_sub(m.checked_mul(f)?));
            if let (Some(m), Some(left)) = (runs, left) {
                if left < f {
                    self.note(
                        main,
                        &asked,
                        f,
                        format!("{f} copies per iteration ({m} iterations)"),
                        TripShare::Div(f),
                    );
                    let mut out = vec![Node::Loop(main)];
                    let live = self.read_outside(c.var, id);
                    let ty = k.var(c.var).ty.clone();
                    for j in 0..left {
                        let v = c.value(init, m * f + j);
                        out.extend(self.body_copy(
                            k,
                            id,
                            l,
                            Some(Subst::Const(c.var, v)),
                            cont,
                            None,
                        ));
                    }
                    if live {
                        out.push(Node::Block(self.write_const(
                            k,
                            c.var,
                            &ty,
                            c.value(init, t),
                            l.span,
                        )));
                    }
                    return out;
                }
            }
        }
        self.note(
            main,
            &asked,
            f,
            format!(
                "{f} copies per iteration while {f} or more remain; the remainder loop follows"
            ),
            TripShare::Div(f),
        );
        self.note(
            id,
            &asked,
            1,
            format!("remainder of the unrolling by {f} (fewer than {f} iterations)"),
            TripShare::Rem(f),
        );
        k.loops[id.0 as usize].hints.unroll = None;
        vec![Node::Loop(main), Node::Loop(id)]
    }

    /// `f` copies of body and latch per iteration, the loop's exit test before each copy
    /// after the first (`if (!cond) break`): exact for any loop, whatever its counter.
    fn exit_tested(
        &mut self,
        k: &mut Kernel,
        id: LoopId,
        l: &Loop,
        f: u64,
        cont: bool,
    ) -> Vec<Node> {
        let mut body = Vec::new();
        let none = HashMap::new();
        for j in 0..f {
            let last = j + 1 == f;
            body.extend(self.body_copy(k, id, l, None, cont && !last, None));
            if last {
                break;
            }
            body.extend(self.copy(k, &l.latch, None, &none).0);
            if let Some((cb, op)) = l.cond {
                let (nb, map) = copy::copy_block(k, cb, None);
                self.made.push(nb);
                let blk = k.block_mut(nb);
                let span = blk.op(map[&op]).span;
                let one = blk.add(OpKind::Const(vec![1]), Some(Ty::I(1)), span, &[]);
                let not = blk.add(
                    OpKind::Binary(BinOp::Xor),
                    Some(Ty::I(1)),
                    span,
                    &[map[&op], one],
                );
                body.push(Node::If {
                    cond: (nb, not),
                    then: Region(vec![Node::Break(id)]),
                    els: Region::default(),
                    span: l.span,
                });
            }
        }
        let body = super::merge::join_runs(k, body, &mut self.made);
        let lp = &mut k.loops[id.0 as usize];
        lp.body = Region(body);
        lp.hints = divided(&l.hints, f);
        vec![Node::Loop(id)]
    }
}

fn full_size(t: u64, body: usize) -> usize {
    (t as usize).saturating_mul(body.max(1))
}

fn region_ops(k: &Kernel, nodes: &[Node]) -> usize {
    ops(k, &Region(nodes.to_vec()))
}

/// The distance `(f - 1) * |step|` the main loop's guard compares with, when it fits the
/// counter's width (below half its range, so the distance test means what it says).
fn guard_distance(c: &Counted, f: u64) -> Option<u64> {
    let d = (f - 1).checked_mul(c.step.unsigned_abs())?;
    let half = if c.width >= 64 {
        1u64 << 63
    } else {
        1u64 << (c.width - 1)
    };
    (d < half).then_some(d)
}

/// The unsigned test of the distance to the bound: `>` for strict comparisons (and
/// `!=`), `>=` for `<=`/`>=`.
fn far_cmp(c: CmpOp) -> CmpOp {
    match c {
        CmpOp::SLe | CmpOp::ULe | CmpOp::SGe | CmpOp::UGe => CmpOp::UGe,
        _ => CmpOp::UGt,
    }
}

/// How many times the main loop's guard holds from `init` (each run steps f times);
/// `None` past the `t` iterations the loop has (the guard and the count disagree).
fn guard_runs(c: &Counted, init: u64, limit: u64, f: u64, d: u64, t: u64) -> Option<u64> {
    let w = c.width;
    let mut k = init;
    let mut m = 0u64;
    loop {
        let diff = if c.up() {
            limit.wrapping_sub(k)
        } else {
            k.wrapping_sub(limit)
        };
        let diff = super::fold::mask(diff, w);
        let far = super::fold::cmp(far_cmp(c.cmp), diff, d, w)?;
        if !(super::fold::cmp(c.cmp, k, limit, w)? && far) {
            return Some(m);
        }
        m += 1;
        if m.checked_mul(f)? > t {
            return None;
        }
        k = c.value(k, f);
    }
}

/// The hints of a loop whose iterations are `f` of the original's: no unroll hint left,
/// and an `ivdep(safelen N)` promise scaled to `N / f` iterations (a dependence at least
/// N original iterations apart is at least that many new ones apart), dropped below 1.
fn divided(h: &LoopHints, f: u64) -> LoopHints {
    let mut h = h.clone();
    h.unroll = None;
    if let Some(iv) = &mut h.ivdep {
        if let Some(n) = iv.safelen {
            if n / f == 0 {
                h.ivdep = None;
                h.ivdep_arrays.clear();
            } else {
                iv.safelen = Some(n / f);
            }
        }
    }
    h
}

fn is_work_item_loop(k: &Kernel, l: &Loop) -> bool {
    l.latch.0.iter().any(|n| {
        let Node::Block(b) = n else { return false };
        k.block(*b).graph.node_weights().any(|o| match o.kind {
            OpKind::WriteVar(v) => LID_VARS.contains(&k.var(v).name.as_str()),
            _ => false,
        })
    })
}

/// Whether a region holds a group-form work-item loop (the source loop held a barrier).
fn holds_work_items(k: &Kernel, r: &Region) -> bool {
    r.0.iter().any(|n| match n {
        Node::Loop(id) => {
            let l = k.lp(*id);
            is_work_item_loop(k, l) || holds_work_items(k, &l.body) || holds_work_items(k, &l.latch)
        }
        Node::If { then, els, .. } => holds_work_items(k, then) || holds_work_items(k, els),
        _ => false,
    })
}

/// The region's memory ops all touch private or `__constant` kernel objects, at least
/// one of them a private one.
pub fn private_only(k: &Kernel, r: &Region) -> bool {
    let mut blocks = Vec::new();
    all_blocks(k, r, &mut blocks);
    let mut private = false;
    for b in blocks {
        let blk: &Block = k.block(b);
        for o in blk.graph.node_weights() {
            match &o.kind {
                OpKind::Load { space, base, .. } | OpKind::Store { space, base, .. } => {
                    if !matches!(base, Some(crate::ir::Base::Object(_))) {
                        return false;
                    }
                    match space {
                        AddrSpace::Private => private = true,
                        AddrSpace::Constant => {}
                        _ => return false,
                    }
                }
                kind if kind.is_memory() => return false,
                _ => {}
            }
        }
    }
    private
}
