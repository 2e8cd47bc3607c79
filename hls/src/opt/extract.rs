//! Extraction that prices what the block builds: the rebuilt block computes each chosen
//! e-class once however many roots read it (`splice.rs`), so a choice is priced by the
//! classes it reaches, each once (the DAG), not by egg's tree cost, which counts a
//! shared part in every user. egg's tree extraction gives the start; then, class by
//! class, another e-node is taken when it makes the whole selection cheaper and keeps
//! it acyclic (a local search, as the DAG problem is NP-hard). This is what lets a
//! remainder reuse the quotient its block computes anyway (`rules/divrem.rs`), and
//! neighbouring addresses share their common part. A selection's price is its area plus
//! the weighed cycles of its critical path (the longest chain of units from the region's
//! inputs to a root), so `--latency-weight` trades the two.

use std::collections::HashMap;

use egg::{Extractor, Id, Language, RecExpr};

use super::cost::{self, NodeCost, Pricer};
use super::facts::Graph;
use super::lang::Node;

/// Passes over the selection before the search stops (each pass tries every e-node of
/// every class the selection reaches).
const PASSES: usize = 4;

/// The chosen e-node of every class the roots reach.
pub struct Choice {
    pick: HashMap<Id, Node>,
    own: HashMap<Id, (f64, f64)>,
    /// The selection's price, each class it reaches counted once.
    pub price: f64,
    /// The weight of a cycle of latency the price was made with.
    w: f64,
}

/// The price of the block's own computing ops, each op once (copies of one computation
/// too, as the block builds them), with the critical path through them.
pub fn original_price(g: &Graph, pricer: &Pricer, region: &crate::opt::region::Region) -> f64 {
    let mut area = 0.0;
    let mut path: HashMap<Id, f64> = HashMap::new();
    let mut longest = 0.0f64;
    // `orig` is in block order, so an op's operands come before it.
    for (o, n) in &region.orig {
        let n = n.clone().map_children(|c| g.find(c));
        let (a, c) = cost::own(g, pricer, &n);
        area += a;
        let d = c + n
            .children()
            .iter()
            .map(|k| path.get(k).copied().unwrap_or(0.0))
            .fold(0.0, f64::max);
        let e = path.entry(g.find(region.class_of[o])).or_insert(0.0);
        *e = e.max(d);
        longest = longest.max(d);
    }
    pricer.total(area, longest)
}

/// The e-graph as dense arrays for the search: per class (by index), per e-node its own
/// area and cycles and its children's class indices.
struct Dense {
    index: HashMap<Id, usize>,
    ids: Vec<Id>,
    nodes: Vec<Vec<DenseNode>>,
}

struct DenseNode {
    area: f64,
    cycles: f64,
    kids: Vec<usize>,
}

impl Dense {
    fn new(g: &Graph, pricer: &Pricer) -> Dense {
        let ids: Vec<Id> = g.classes().map(|c| c.id).collect();
        let index: HashMap<Id, usize> = ids.iter().enumerate().map(|(i, c)| (*c, i)).collect();
        let nodes = ids
            .iter()
            .map(|c| {
                g[*c]
                    .nodes
                    .iter()
                    .map(|n| {
                        let kids = n.children().iter().map(|k| index[&g.find(*k)]).collect();
                        let (area, cycles) = cost::own(g, pricer, n);
                        DenseNode { area, cycles, kids }
                    })
                    .collect()
            })
            .collect();
        Dense { index, ids, nodes }
    }
}

/// The walk that prices a selection: each class's area once, the longest path to each
/// class; a cycle makes it fail.
struct Walk {
    /// 0: not seen in this walk; `stamp`: finished; `stamp + 1`: on the path.
    mark: Vec<u64>,
    /// Cycles of the longest path ending at each finished class.
    path: Vec<f64>,
    stamp: u64,
}

impl Walk {
    fn new(classes: usize) -> Walk {
        Walk {
            mark: vec![0; classes],
            path: vec![0.0; classes],
            stamp: 1,
        }
    }

    fn price(
        &mut self,
        d: &Dense,
        pricer: &Pricer,
        pick: &[usize],
        roots: &[usize],
    ) -> Option<f64> {
        self.stamp += 2;
        let mut area = 0.0;
        let mut longest = 0.0f64;
        for r in roots {
            area += self.visit(d, pick, *r)?;
            longest = longest.max(self.path[*r]);
        }
        Some(pricer.total(area, longest))
    }

    fn visit(&mut self, d: &Dense, pick: &[usize], c: usize) -> Option<f64> {
        if self.mark[c] == self.stamp {
            return Some(0.0);
        }
        if self.mark[c] == self.stamp + 1 {
            return None;
        }
        self.mark[c] = self.stamp + 1;
        let node = &d.nodes[c][pick[c]];
        let mut total = node.area;
        let mut path = 0.0f64;
        for k in &node.kids {
            total += self.visit(d, pick, *k)?;
            path = path.max(self.path[*k]);
        }
        self.path[c] = path + node.cycles;
        self.mark[c] = self.stamp;
        Some(total)
    }

    /// The classes the selection reaches (after a successful `price`).
    fn reached(&self) -> Vec<usize> {
        (0..self.mark.len())
            .filter(|c| self.mark[*c] == self.stamp)
            .collect()
    }
}

/// The local search from `pick`: class by class, another e-node is taken when it makes
/// the selection cheaper and keeps it acyclic. The selection and its price.
fn search(
    d: &Dense,
    pricer: &Pricer,
    walk: &mut Walk,
    mut pick: Vec<usize>,
    roots: &[usize],
) -> (Vec<usize>, f64) {
    let mut best = walk.price(d, pricer, &pick, roots).unwrap_or(f64::INFINITY);
    for _ in 0..PASSES {
        if !best.is_finite() {
            break;
        }
        let mut improved = false;
        for c in walk.reached() {
            let current = pick[c];
            for n in 0..d.nodes[c].len() {
                if n == current {
                    continue;
                }
                pick[c] = n;
                match walk.price(d, pricer, &pick, roots) {
                    Some(p) if p < best - 1e-6 => {
                        best = p;
                        improved = true;
                        break;
                    }
                    _ => pick[c] = current,
                }
            }
        }
        // The marks must describe the kept selection for the next pass.
        best = walk.price(d, pricer, &pick, roots).unwrap_or(f64::INFINITY);
        if !improved {
            break;
        }
    }
    (pick, best)
}

impl Choice {
    /// The selection for `roots`: the DAG search from two starts, keeping the cheaper.
    /// egg's tree extraction counts a shared part in every user; the other start counts
    /// it once per node (the optimist's bound), which reaches forms that only pay off
    /// shared, such as `x % 7` as `x - ((q << 3) - q)` with one quotient `q`. A swap of
    /// one class at a time cannot reach those from the first start.
    pub fn new(g: &Graph, pricer: &Pricer, roots: &[Id]) -> Choice {
        let d = Dense::new(g, pricer);
        let roots: Vec<usize> = roots
            .iter()
            .filter_map(|r| d.index.get(&g.find(*r)).copied())
            .collect();
        let mut walk = Walk::new(d.ids.len());
        let (pick, best) = [false, true]
            .into_iter()
            .map(|shared| {
                let ext = Extractor::new(g, NodeCost { g, pricer, shared });
                let start: Vec<usize> = d
                    .ids
                    .iter()
                    .map(|c| {
                        let best = ext.find_best_node(*c);
                        g[*c].nodes.iter().position(|n| n == best).unwrap_or(0)
                    })
                    .collect();
                search(&d, pricer, &mut walk, start, &roots)
            })
            // On a tie the tree start is kept.
            .reduce(|a, b| if b.1 < a.1 - 1e-6 { b } else { a })
            .expect("two starts");
        let chosen = d
            .ids
            .iter()
            .zip(&pick)
            .map(|(c, i)| (*c, g[*c].nodes[*i].clone()))
            .collect();
        Choice::of(g, pricer, chosen, best)
    }

    fn of(g: &Graph, pricer: &Pricer, pick: HashMap<Id, Node>, price: f64) -> Choice {
        let own = pick
            .iter()
            .map(|(c, n)| (*c, cost::own(g, pricer, n)))
            .collect();
        Choice {
            pick,
            own,
            price,
            w: pricer.w.latency,
        }
    }

    /// The chosen e-node of class `id`.
    pub fn node(&self, g: &Graph, id: Id) -> Option<&Node> {
        self.pick.get(&g.find(id))
    }

    /// The chosen expression of class `id` as a tree, and its price with every class
    /// counted once: area, plus the weighed cycles of its critical path.
    pub fn expr(&self, g: &Graph, id: Id) -> (RecExpr<Node>, f64) {
        let mut expr = RecExpr::default();
        let mut built: HashMap<Id, (Id, f64)> = HashMap::new();
        let mut area = 0.0;
        let (_, path) = self.add(g, g.find(id), &mut expr, &mut built, &mut area);
        (expr, area + path * self.w)
    }

    /// Adds class `c` to `expr`: its id there and the cycles of the longest path to it.
    fn add(
        &self,
        g: &Graph,
        c: Id,
        expr: &mut RecExpr<Node>,
        built: &mut HashMap<Id, (Id, f64)>,
        area: &mut f64,
    ) -> (Id, f64) {
        if let Some(i) = built.get(&c) {
            return *i;
        }
        let Some(n) = self.pick.get(&c) else {
            return (expr.add(Node::Leaf(u32::MAX)), 0.0);
        };
        let (own_area, own_cycles) = self.own.get(&c).copied().unwrap_or((0.0, 0.0));
        *area += own_area;
        let mut path = 0.0f64;
        let n = n.clone().map_children(|ch| {
            let (i, p) = self.add(g, g.find(ch), expr, built, area);
            path = path.max(p);
            i
        });
        let i = (expr.add(n), path + own_cycles);
        built.insert(c, i);
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BoardSet;
    use crate::frontend::types::AddrSpace;
    use crate::opt::facts::{Facts, Kind};
    use crate::opt::rules;

    fn choose(exprs: &[&str]) -> Vec<String> {
        choose_weighing(exprs, None)
    }

    /// The choice for `exprs` with `latency` logic units per cycle of critical path.
    fn choose_weighing(exprs: &[&str], latency: Option<f64>) -> Vec<String> {
        let boards = BoardSet::builtin().expect("boards");
        let pricer = Pricer::weighing(boards.get("de10-nano").expect("de10-nano"), latency);
        let mut g = Graph::new(Facts {
            leaves: vec![
                Kind::Int(32),
                Kind::Int(32),
                Kind::Ptr(AddrSpace::Global),
                Kind::Int(64),
                Kind::Int(8),
            ],
            ..Facts::default()
        });
        let roots: Vec<Id> = exprs
            .iter()
            .map(|e| g.add_expr(&e.parse().expect("an expression")))
            .collect();
        let runner = egg::Runner::default()
            .with_egraph(g)
            .with_iter_limit(12)
            .run(&rules::rewrites());
        let g = runner.egraph;
        let choice = Choice::new(&g, &pricer, &roots);
        roots
            .iter()
            .map(|r| choice.expr(&g, *r).0.to_string())
            .collect()
    }

    #[test]
    fn a_remainder_next_to_its_quotient_reuses_the_divider() {
        let got = choose(&["(sdiv in0 in1)", "(srem in0 in1)"]);
        assert_eq!(got[0], "(sdiv in0 in1)");
        // `x - (x / y) * y`, the 32-bit product split around the 27x27 DSP
        // (`mul-split-dsp`).
        assert!(
            got[1].starts_with("(sub in0 ")
                && got[1].contains("(sdiv in0 in1)")
                && !got[1].contains("srem"),
            "{got:?}"
        );
    }

    /// A 32-bit product of two 32-bit values: the low 27 bits of each on one DSP
    /// multiplier (shared by both uses), the 5-bit cross products into the top 5 bits. A
    /// 64-bit or 8-bit product stays whole, and so does one whose operands fit the DSP or
    /// one of whose operands is a narrow sign extension.
    #[test]
    fn a_32_bit_product_is_split_around_the_27_bit_dsp_multiplier() {
        let lo = "(mul (zext32 (trunc27 in0)) (zext32 (trunc27 in1)))";
        let cross = "(add (mul (trunc5 (lshr in0 27i32)) (trunc5 in1)) \
                     (mul (trunc5 in0) (trunc5 (lshr in1 27i32))))";
        let cross = cross.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(
            choose(&["(mul in0 in1)"]),
            vec![format!(
                "(or (zext32 (trunc27 {lo})) (shl (zext32 (add (trunc5 (lshr {lo} 27i32)) \
                 {cross})) 27i32))"
            )]
        );
        assert_eq!(
            choose(&["(mul in3 in3)", "(mul in4 in4)"]),
            vec!["(mul in3 in3)", "(mul in4 in4)"]
        );
        assert_eq!(
            choose(&["(mul (lshr in0 5i32) (lshr in1 5i32))"]),
            vec!["(mul (lshr in0 5i32) (lshr in1 5i32))"]
        );
        // A sign-extended char: synthesis multiplies its 8 significant bits.
        assert_eq!(
            choose(&["(mul (sext32 in4) in1)"]),
            vec!["(mul (sext32 in4) in1)"]
        );
    }

    #[test]
    fn a_lone_remainder_keeps_its_divider() {
        assert_eq!(choose(&["(urem in0 in1)"]), vec!["(urem in0 in1)"]);
    }

    #[test]
    fn a_remainder_by_a_constant_is_a_multiply_at_any_weight() {
        for w in [0.0, 16.0, 200.0] {
            let got = choose_weighing(&["(urem in0 7i32)"], Some(w));
            assert!(!got[0].contains("urem"), "weight {w}: {got:?}");
        }
    }
}
