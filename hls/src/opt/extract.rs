//! Extraction that prices what the block builds: the rebuilt block computes each chosen
//! e-class once however many roots read it (`splice.rs`), so a choice is priced by the
//! classes it reaches, each once (the DAG), not by egg's tree cost, which counts a
//! shared part in every user. egg's tree extraction gives the start; then, class by
//! class, another e-node is taken when it makes the whole selection cheaper and keeps
//! it acyclic (a local search, as the DAG problem is NP-hard). This is what lets a
//! remainder reuse the quotient its block computes anyway (`rules/divrem.rs`), and
//! neighbouring addresses share their common part.

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
    own: HashMap<Id, f64>,
    /// The selection's price, each class it reaches counted once.
    pub price: f64,
}

/// The price of the block's own computing ops, each op once (copies of one computation
/// too, as the block builds them).
pub fn original_price(g: &Graph, pricer: &Pricer, ops: &[(crate::ir::OpId, Node)]) -> f64 {
    ops.iter()
        .map(|(_, n)| own_price(g, pricer, &n.clone().map_children(|c| g.find(c))))
        .sum()
}

/// The price of `n` alone, without its children (as the tree extraction prices it).
pub fn own_price(g: &Graph, pricer: &Pricer, n: &Node) -> f64 {
    match n {
        Node::Leaf(_) | Node::Const(..) => 0.0,
        _ => {
            let (class, width) = cost::class(g, n);
            pricer.price(class, width, 1).score + 0.01
        }
    }
}

/// The e-graph as dense arrays for the search: per class (by index), per e-node its own
/// price and its children's class indices.
struct Dense {
    index: HashMap<Id, usize>,
    ids: Vec<Id>,
    nodes: Vec<Vec<(f64, Vec<usize>)>>,
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
                        (own_price(g, pricer, n), kids)
                    })
                    .collect()
            })
            .collect();
        Dense { index, ids, nodes }
    }
}

/// The walk that prices a selection: each class once, a cycle makes it fail.
struct Walk {
    /// 0: not seen in this walk; `stamp`: finished; `stamp + 1`: on the path.
    mark: Vec<u64>,
    stamp: u64,
}

impl Walk {
    fn price(&mut self, d: &Dense, pick: &[usize], roots: &[usize]) -> Option<f64> {
        self.stamp += 2;
        let mut total = 0.0;
        for r in roots {
            total += self.visit(d, pick, *r)?;
        }
        Some(total)
    }

    fn visit(&mut self, d: &Dense, pick: &[usize], c: usize) -> Option<f64> {
        if self.mark[c] == self.stamp {
            return Some(0.0);
        }
        if self.mark[c] == self.stamp + 1 {
            return None;
        }
        self.mark[c] = self.stamp + 1;
        let (own, kids) = &d.nodes[c][pick[c]];
        let mut total = *own;
        for k in kids {
            total += self.visit(d, pick, *k)?;
        }
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

impl Choice {
    /// The selection for `roots`: egg's tree extraction, then the DAG search.
    pub fn new(g: &Graph, pricer: &Pricer, roots: &[Id]) -> Choice {
        let ext = Extractor::new(g, NodeCost { g, pricer });
        let d = Dense::new(g, pricer);
        let mut pick: Vec<usize> = d
            .ids
            .iter()
            .map(|c| {
                let best = ext.find_best_node(*c);
                g[*c].nodes.iter().position(|n| n == best).unwrap_or(0)
            })
            .collect();
        let roots: Vec<usize> = roots
            .iter()
            .filter_map(|r| d.index.get(&g.find(*r)).copied())
            .collect();
        let mut walk = Walk {
            mark: vec![0; d.ids.len()],
            stamp: 1,
        };
        let mut best = walk.price(&d, &pick, &roots).unwrap_or(f64::INFINITY);
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
                    match walk.price(&d, &pick, &roots) {
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
            best = walk.price(&d, &pick, &roots).unwrap_or(f64::INFINITY);
            if !improved {
                break;
            }
        }
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
            .map(|(c, n)| (*c, own_price(g, pricer, n)))
            .collect();
        Choice { pick, own, price }
    }

    /// The chosen e-node of class `id`.
    pub fn node(&self, g: &Graph, id: Id) -> Option<&Node> {
        self.pick.get(&g.find(id))
    }

    /// The chosen expression of class `id` as a tree, and its price with every class
    /// counted once.
    pub fn expr(&self, g: &Graph, id: Id) -> (RecExpr<Node>, f64) {
        let mut expr = RecExpr::default();
        let mut built: HashMap<Id, Id> = HashMap::new();
        let mut price = 0.0;
        self.add(g, g.find(id), &mut expr, &mut built, &mut price);
        (expr, price)
    }

    fn add(
        &self,
        g: &Graph,
        c: Id,
        expr: &mut RecExpr<Node>,
        built: &mut HashMap<Id, Id>,
        price: &mut f64,
    ) -> Id {
        if let Some(i) = built.get(&c) {
            return *i;
        }
        let Some(n) = self.pick.get(&c) else {
            return expr.add(Node::Leaf(u32::MAX));
        };
        *price += self.own.get(&c).copied().unwrap_or(0.0);
        let n = n
            .clone()
            .map_children(|ch| self.add(g, g.find(ch), expr, built, price));
        let i = expr.add(n);
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
        let boards = BoardSet::builtin().expect("boards");
        let pricer = Pricer::new(boards.get("de10-nano").expect("de10-nano"));
        let mut g = Graph::new(Facts {
            leaves: vec![
                Kind::Int(32),
                Kind::Int(32),
                Kind::Ptr(AddrSpace::Global),
                Kind::Int(64),
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
        assert_eq!(
            choose(&["(sdiv in0 in1)", "(srem in0 in1)"]),
            vec!["(sdiv in0 in1)", "(sub in0 (mul (sdiv in0 in1) in1))"]
        );
    }

    #[test]
    fn a_lone_remainder_keeps_its_divider() {
        assert_eq!(choose(&["(urem in0 in1)"]), vec!["(urem in0 in1)"]);
    }
}
