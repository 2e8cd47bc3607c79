//! What `--explain-rewrites` prints: for every root of a replaced block whose expression
//! changed, the source span of the op, the expression before and after (in the e-graph
//! language, region inputs as `inN`), and the board's price of each. The saving of one
//! root is an estimate: a subexpression two roots share is priced in both.

use std::collections::{BTreeMap, HashMap};

use egg::{Id, Language, RecExpr};

use super::cost::Pricer;
use super::extract::Choice;
use super::facts::Graph;
use super::lang::Node;
use super::region::Region;
use crate::diag::Span;
use crate::ir::{Block, BlockId, OpId};
use crate::schedule::classify::shape;

/// One root whose computation changed.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Rewrite {
    pub block: u32,
    #[serde(skip)]
    pub span: Span,
    pub before: String,
    pub after: String,
    /// Board prices (weighed score) of the old op tree and of the chosen expression.
    pub cost_before: f64,
    pub cost_after: f64,
}

/// Rules that applied in one block's e-graph (whether or not extraction used them).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct BlockRules {
    pub block: u32,
    pub fired: BTreeMap<String, usize>,
}

/// Tree nodes (shared parts counted at every use) above which an expression is not
/// printed: its text would grow with every level of sharing.
const MAX_PRINTED: u64 = 400;

/// `e` as text, or its size when the text would be too long.
pub fn text(e: &RecExpr<Node>) -> String {
    let mut size: Vec<u64> = Vec::with_capacity(e.as_ref().len());
    for n in e.as_ref() {
        let s = n
            .children()
            .iter()
            .fold(1u64, |acc, c| acc.saturating_add(size[usize::from(*c)]));
        size.push(s);
    }
    match size.last() {
        Some(s) if *s > MAX_PRINTED => format!("<{s} nodes>"),
        _ => e.to_string(),
    }
}

/// The old expression of root `o`, as the region's e-nodes (children in the tree, not
/// classes), and the price of its ops with the weighed cycles of its longest path.
fn old_tree(old: &Block, r: &Region, o: OpId, pricer: &Pricer) -> (String, f64) {
    let mut w = OldTree {
        old,
        leaves: r
            .leaves
            .iter()
            .enumerate()
            .map(|(i, l)| (*l, i as u32))
            .collect(),
        expr: RecExpr::default(),
        built: HashMap::new(),
        cost: 0.0,
        pricer,
    };
    let (_, path) = w.add(o);
    (text(&w.expr), pricer.total(w.cost, path))
}

struct OldTree<'a> {
    old: &'a Block,
    leaves: HashMap<OpId, u32>,
    expr: RecExpr<Node>,
    /// Per op its node and the cycles of the longest path to it.
    built: HashMap<OpId, (Id, f64)>,
    cost: f64,
    pricer: &'a Pricer,
}

impl OldTree<'_> {
    fn add(&mut self, o: OpId) -> (Id, f64) {
        if let Some(i) = self.built.get(&o) {
            return *i;
        }
        let id = self.build(o);
        self.built.insert(o, id);
        id
    }

    fn build(&mut self, o: OpId) -> (Id, f64) {
        if let Some(i) = self.leaves.get(&o) {
            return (self.expr.add(Node::Leaf(*i)), 0.0);
        }
        let old = self.old;
        let args = old.operands(o);
        let (kids, paths): (Vec<Id>, Vec<f64>) = args.iter().map(|a| self.add(*a)).unzip();
        let s = shape(o, old);
        self.cost += self.pricer.price(s.class, s.width, s.lanes).score;
        let path = paths.into_iter().fold(0.0, f64::max) + self.pricer.cycles(s.class, s.width);
        let node = match old.op(o).kind {
            crate::ir::OpKind::PtrAdd => Node::PtrAdd([Id::from(0usize); 2]),
            // Every other op of the region is one `node_of` knows.
            _ => match super::region::node_of(old, o) {
                Some(n) => n,
                None => return (self.expr.add(Node::Leaf(u32::MAX)), path),
            },
        };
        // A cast to its own width is no e-node: the operand stands for it.
        if matches!(node, Node::ZExt(..) | Node::SExt(..) | Node::Trunc(..))
            && old.op(o).ty == old.op(args[0]).ty
        {
            return (kids[0], path);
        }
        let mut node = node;
        for (c, k) in node.children_mut().iter_mut().zip(&kids) {
            *c = *k;
        }
        (self.expr.add(node), path)
    }
}

/// The rewrites of a replaced block: every root whose chosen expression differs from the
/// old one.
pub fn block(
    b: BlockId,
    old: &Block,
    r: &Region,
    g: &Graph,
    choice: &Choice,
    pricer: &Pricer,
) -> Vec<Rewrite> {
    let mut out = Vec::new();
    for &o in &r.roots {
        let class = g.find(r.class_of[&o]);
        let (before, cost_before) = old_tree(old, r, o, pricer);
        let (best, cost_after) = choice.expr(g, class);
        let after = text(&best);
        if after != before {
            out.push(Rewrite {
                block: b.0,
                span: old.op(o).span,
                before,
                after,
                cost_before,
                // Less the extractor's tie-break charges.
                cost_after: cost_after - super::cost::tie_breaks(g, &best),
            });
        }
    }
    out
}

/// The `--explain-rewrites` text of one kernel's report: the totals, then per replaced
/// block the rules that applied in it and each changed root at its source line.
pub fn render(r: &super::OptReport, sm: &crate::diag::SourceMap) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    if r.disabled {
        let _ = writeln!(s, "opt: kernel {}: the stage is off (--no-opt)", r.kernel);
        return s;
    }
    let pct = |a: f64, b: f64| if a > 0.0 { (b - a) / a * 100.0 } else { 0.0 };
    let stops: Vec<String> = r.stops.iter().map(|(k, n)| format!("{k} x{n}")).collect();
    let _ = writeln!(
        s,
        "opt: kernel {}: {} of {} blocks rewritten; price {:.0} -> {:.0} ({:+.1}%), logic {} -> {}, \
         DSPs {} -> {}; {:.1} ms; saturation: {}; a cycle on a block's critical path priced as {} logic units",
        r.kernel,
        r.replaced,
        r.regions,
        r.before.score,
        r.after.score,
        pct(r.before.score, r.after.score),
        r.before.logic,
        r.after.logic,
        r.before.dsps,
        r.after.dsps,
        r.millis,
        stops.join(", "),
        r.latency_weight
    );
    if r.readdressed > 0 {
        let _ = writeln!(
            s,
            "  {} access{} waiting for a load's data given {} own copy of a shared address (fewer bits ride the pipeline)",
            r.readdressed,
            if r.readdressed == 1 { "" } else { "es" },
            if r.readdressed == 1 { "its" } else { "their" }
        );
    }
    if r.truncations > 0 {
        let _ = writeln!(
            s,
            "  {} truncation{} pushed below the arithmetic only {} read (one narrow form for equal computations)",
            r.truncations,
            if r.truncations == 1 { "" } else { "s" },
            if r.truncations == 1 { "it" } else { "they" }
        );
    }
    if r.bit_tests > 0 {
        let _ = writeln!(
            s,
            "  {} compare{} with a constant built as a bit test (the sign bit, or high bits tested for zero)",
            r.bit_tests,
            if r.bit_tests == 1 { "" } else { "s" },
        );
    }
    for span in &r.reciprocal_spans {
        let at = crate::rtl::netlist::SrcLoc::of_span(sm, *span);
        let _ = writeln!(
            s,
            "  {at}: a division by a constant is a multiply by its reciprocal"
        );
    }
    for b in &r.block_rules {
        let mut fired: Vec<(&String, &usize)> = b.fired.iter().collect();
        fired.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
        let names: Vec<String> = fired.iter().map(|(k, n)| format!("{k} x{n}")).collect();
        let _ = writeln!(
            s,
            "  block b{}: rules applied: {}",
            b.block,
            names.join(", ")
        );
        for w in r.rewrites.iter().filter(|w| w.block == b.block) {
            let at = crate::rtl::netlist::SrcLoc::of_span(sm, w.span);
            let _ = writeln!(s, "    {at}: {}", w.before);
            let _ = writeln!(s, "      => {}", w.after);
            let _ = writeln!(
                s,
                "      saves {:.1} (price {:.1} -> {:.1}, an estimate: shared parts count in every root)",
                w.cost_before - w.cost_after,
                w.cost_before,
                w.cost_after
            );
        }
    }
    s
}
