//! Rewrite rules as data, one file per topic. A rule is a left-hand pattern, a right-hand
//! pattern or builder, and the conditions on its pattern variables' classes (constants of
//! a kind, widths). Every rule is an equality that holds for every input at every width
//! it matches, by the interpreter's definitions (see `lang.rs`); the rule tests check that
//! on random and edge-case inputs. There is no general commutativity or associativity:
//! only constants move (to the right of commutative ops, and together), so the e-graph
//! stays small.

mod address;
mod casts;
mod disjoint;
mod divide;
mod divrem;
mod fold;
mod identities;
mod narrow;
mod quotient;
mod select;
mod strength;

use egg::{Applier, ConditionalApplier, Id, Pattern, PatternAst, Rewrite, Subst, Symbol, Var};

use super::facts::{konst, width, Facts, Graph};
use super::lang::{mask, Node};

/// What a variable's class must be for a rule to fire.
#[derive(Clone, Copy, Debug)]
pub enum Cond {
    Const(&'static str),
    NotConst(&'static str),
    Is(&'static str, Val),
    Width(&'static str, u32),
}

/// Constants by property (at the class's width).
#[derive(Clone, Copy, Debug)]
pub enum Val {
    Zero,
    One,
    /// All bits set (-1).
    Ones,
}

/// Builds the right-hand side from the matched class and variables; `None` when it does not apply.
pub type Builder = fn(&mut Graph, Id, &Subst) -> Option<Id>;

pub enum Rhs {
    Pat(String),
    Build(Builder),
}

pub struct Rule {
    pub name: String,
    pub lhs: String,
    pub rhs: Rhs,
    pub when: Vec<Cond>,
}

/// A rule with a pattern on the right.
pub fn pat(name: &str, lhs: &str, rhs: &str, when: &[Cond]) -> Rule {
    Rule {
        name: name.to_string(),
        lhs: lhs.to_string(),
        rhs: Rhs::Pat(rhs.to_string()),
        when: when.to_vec(),
    }
}

/// A rule whose right side a function builds.
pub fn build(name: &str, lhs: &str, f: Builder, when: &[Cond]) -> Rule {
    Rule {
        name: name.to_string(),
        lhs: lhs.to_string(),
        rhs: Rhs::Build(f),
        when: when.to_vec(),
    }
}

/// The widths integer ops have in the IR (rules naming a cast are made for each).
pub const WIDTHS: [u8; 5] = [1, 8, 16, 32, 64];

/// The class a variable of the match is bound to.
pub fn v(s: &Subst, name: &str) -> Id {
    let var: Var = name.parse().expect("a pattern variable");
    s[var]
}

/// A constant of `w` bits.
pub fn c(g: &mut Graph, w: u32, value: u64) -> Id {
    g.add(Node::Const(w as u8, value & mask(w)))
}

fn holds(g: &Graph, s: &Subst, cond: &Cond) -> bool {
    match *cond {
        Cond::Const(x) => konst(g, v(s, x)).is_some(),
        Cond::NotConst(x) => konst(g, v(s, x)).is_none(),
        Cond::Width(x, w) => width(g, v(s, x)) == w,
        Cond::Is(x, val) => {
            let id = v(s, x);
            let m = mask(width(g, id));
            konst(g, id)
                == Some(match val {
                    Val::Zero => 0,
                    Val::One => 1,
                    Val::Ones => m,
                })
        }
    }
}

/// The conditions of a rule, checked before it applies.
struct When(Vec<Cond>);

impl egg::Condition<Node, Facts> for When {
    fn check(&self, g: &mut Graph, _eclass: Id, s: &Subst) -> bool {
        self.0.iter().all(|c| holds(g, s, c))
    }
}

/// A builder as an applier: unions what it builds with the matched class.
struct Built(Builder);

impl Applier<Node, Facts> for Built {
    fn apply_one(
        &self,
        g: &mut Graph,
        eclass: Id,
        s: &Subst,
        _ast: Option<&PatternAst<Node>>,
        _rule: Symbol,
    ) -> Vec<Id> {
        match (self.0)(g, eclass, s) {
            Some(id) if g.union(eclass, id) => vec![id],
            _ => Vec::new(),
        }
    }
}

impl Rule {
    pub fn rewrite(&self) -> Rewrite<Node, Facts> {
        let lhs: Pattern<Node> = self
            .lhs
            .parse()
            .unwrap_or_else(|e| panic!("rule {}: {e}", self.name));
        let when = When(self.when.clone());
        let r = match &self.rhs {
            Rhs::Pat(p) => {
                let rhs: Pattern<Node> = p
                    .parse()
                    .unwrap_or_else(|e| panic!("rule {}: {e}", self.name));
                Rewrite::new(
                    self.name.as_str(),
                    lhs,
                    ConditionalApplier {
                        condition: when,
                        applier: rhs,
                    },
                )
            }
            Rhs::Build(f) => Rewrite::new(
                self.name.as_str(),
                lhs,
                ConditionalApplier {
                    condition: when,
                    applier: Built(*f),
                },
            ),
        };
        r.unwrap_or_else(|e| panic!("rule {}: {e}", self.name))
    }
}

/// Every rule, by topic.
pub fn all() -> Vec<Rule> {
    let mut v = Vec::new();
    v.extend(identities::rules());
    v.extend(fold::rules());
    v.extend(quotient::rules());
    v.extend(select::rules());
    v.extend(casts::rules());
    v.extend(strength::rules());
    v.extend(divide::rules());
    v.extend(divrem::rules());
    v.extend(address::rules());
    v.extend(disjoint::rules());
    v.extend(narrow::rules());
    v
}

/// The rewrites of every rule.
pub fn rewrites() -> Vec<Rewrite<Node, Facts>> {
    all().iter().map(Rule::rewrite).collect()
}
