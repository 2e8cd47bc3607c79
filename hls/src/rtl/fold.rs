//! Folds comparisons whose result the operands' value ranges already decide (`x >= 0`,
//! `{32'h0, y} <= 64'hffff_ffff`, through selects and products with zero): Verilator
//! proves them constant through wires and refuses them (`UNSIGNED`, `CMPCONST`) under warnings-as-errors, so no emitted module
//! may contain one. Runs on a copy of the netlist just before printing.

use std::collections::HashMap;

use super::expr::{BinOp, Const, Expr};
use super::netlist::{Item, Module, NetId};

/// An unsigned interval `[lo, hi]` a value of at most 64 bits lies in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Range {
    lo: u64,
    hi: u64,
}

fn full(width: u32) -> Option<Range> {
    (width <= 64).then(|| Range {
        lo: 0,
        hi: if width == 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        },
    })
}

struct Ranges<'a> {
    m: &'a Module,
    /// The right-hand side of every wire assigned whole by one assign.
    defs: HashMap<NetId, &'a Expr>,
    memo: HashMap<NetId, Option<Range>>,
}

impl<'a> Ranges<'a> {
    fn new(m: &'a Module) -> Ranges<'a> {
        let defs = m
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Assign(a) if a.lhs.range.is_none() => Some((a.lhs.net, &a.rhs)),
                _ => None,
            })
            .collect();
        Ranges {
            m,
            defs,
            memo: HashMap::new(),
        }
    }

    fn net(&mut self, n: NetId, depth: u32) -> Option<Range> {
        if let Some(r) = self.memo.get(&n) {
            return *r;
        }
        let w = self.m.net(n).width;
        // Wire chains are short; the depth bound only keeps a (buggy) loop finite.
        let r = match self.defs.get(&n) {
            Some(e) if depth < 64 => self.of(e, depth + 1),
            _ => full(w),
        };
        if depth < 64 {
            self.memo.insert(n, r);
        }
        r
    }

    fn of(&mut self, e: &Expr, depth: u32) -> Option<Range> {
        let w = e.width(self.m).ok()?;
        if w > 64 {
            return None;
        }
        match e {
            Expr::Const(c) => Some(Range {
                lo: c.limbs[0],
                hi: c.limbs[0],
            }),
            Expr::Net(n) => self.net(*n, depth),
            Expr::Slice { net, lo, .. } => {
                let r = self.net(*net, depth);
                let fw = full(w)?;
                match r {
                    Some(r) if r.lo == r.hi => {
                        let v = (r.lo >> lo) & fw.hi;
                        Some(Range { lo: v, hi: v })
                    }
                    Some(r) if *lo == 0 && r.hi <= fw.hi => Some(r),
                    _ => Some(fw),
                }
            }
            Expr::Concat(parts) => {
                let mut acc = Range { lo: 0, hi: 0 };
                for p in parts {
                    let pw = p.width(self.m).ok()?;
                    let r = self.of(p, depth).or(full(pw))?;
                    let shift = |v: u64| if pw == 64 { 0 } else { v << pw };
                    acc = Range {
                        lo: shift(acc.lo) | r.lo,
                        hi: shift(acc.hi) | r.hi,
                    };
                }
                Some(acc)
            }
            Expr::Bin(op, a, b) => {
                let (ra, rb) = (self.of(a, depth), self.of(b, depth));
                let fw = full(w)?;
                // Two constants (a signed compare's operands with their sign bits
                // flipped, `x ^ 16'h8000`, once `x` is known): the value itself.
                if let (Some(x), Some(y)) = (ra, rb) {
                    if x.lo == x.hi && y.lo == y.hi {
                        let (x, y) = (x.lo, y.lo);
                        let v = match op {
                            BinOp::And => Some(x & y),
                            BinOp::Or => Some(x | y),
                            BinOp::Xor => Some(x ^ y),
                            BinOp::Add => Some(x.wrapping_add(y)),
                            BinOp::Sub => Some(x.wrapping_sub(y)),
                            BinOp::Mul => Some(x.wrapping_mul(y)),
                            BinOp::Shl => Some(if y >= 64 { 0 } else { x << y }),
                            BinOp::Shr => Some(if y >= 64 { 0 } else { x >> y }),
                            _ => None,
                        };
                        if let Some(v) = v {
                            let v = v & fw.hi;
                            return Some(Range { lo: v, hi: v });
                        }
                    }
                }
                let zero = |r: Option<Range>| r == Some(Range { lo: 0, hi: 0 });
                match (op, ra, rb) {
                    (BinOp::And, Some(x), Some(y)) => Some(Range {
                        lo: 0,
                        hi: x.hi.min(y.hi),
                    }),
                    // `x * 0` (a product with a constant the opt stage kept): Verilator
                    // propagates it and then sees the compare that reads it as constant.
                    (BinOp::Mul, _, _) if zero(ra) || zero(rb) => Some(Range { lo: 0, hi: 0 }),
                    _ if is_compare(*op) => match (ra, rb) {
                        (Some(x), Some(y)) => Some(match decide(*op, x, y) {
                            Some(v) => Range {
                                lo: v as u64,
                                hi: v as u64,
                            },
                            None => fw,
                        }),
                        _ => Some(fw),
                    },
                    _ => Some(fw),
                }
            }
            // A select whose condition is known is its arm; otherwise either arm's value.
            Expr::Mux(c, t, f) => {
                let (rt, rf) = (self.of(t, depth), self.of(f, depth));
                match self.of(c, depth) {
                    Some(Range { lo: 1, hi: 1 }) => rt,
                    Some(Range { lo: 0, hi: 0 }) => rf,
                    _ => match (rt, rf) {
                        (Some(x), Some(y)) => Some(Range {
                            lo: x.lo.min(y.lo),
                            hi: x.hi.max(y.hi),
                        }),
                        _ => full(w),
                    },
                }
            }
            _ => full(w),
        }
    }
}

fn is_compare(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

/// The comparison's value when the operand ranges decide it.
fn decide(op: BinOp, a: Range, b: Range) -> Option<bool> {
    match op {
        BinOp::Lt if a.hi < b.lo => Some(true),
        BinOp::Lt if a.lo >= b.hi => Some(false),
        BinOp::Le if a.hi <= b.lo => Some(true),
        BinOp::Le if a.lo > b.hi => Some(false),
        BinOp::Gt => decide(BinOp::Lt, b, a),
        BinOp::Ge => decide(BinOp::Le, b, a),
        BinOp::Eq | BinOp::Ne => {
            let eq = if a.hi < b.lo || b.hi < a.lo {
                Some(false)
            } else if a.lo == a.hi && a == b {
                Some(true)
            } else {
                None
            };
            eq.map(|e| e == (op == BinOp::Eq))
        }
        _ => None,
    }
}

fn rewrite(e: &mut Expr, r: &mut Ranges) -> bool {
    let mut changed = false;
    match e {
        Expr::Const(_) | Expr::Net(_) | Expr::Slice { .. } => {}
        Expr::Concat(ps) => {
            for p in ps {
                changed |= rewrite(p, r);
            }
        }
        Expr::Repeat(_, a) | Expr::Un(_, a) => changed |= rewrite(a, r),
        Expr::Bin(op, a, b) => {
            changed |= rewrite(a, r);
            changed |= rewrite(b, r);
            let compare = is_compare(*op);
            let known = match compare.then(|| (r.of(a, 0), r.of(b, 0))) {
                Some((Some(ra), Some(rb))) => decide(*op, ra, rb),
                _ => None,
            };
            if let Some(v) = known {
                *e = Expr::Const(Const::new(1, v as u64));
                return true;
            }
        }
        Expr::Mux(c, t, f) => {
            changed |= rewrite(c, r);
            changed |= rewrite(t, r);
            changed |= rewrite(f, r);
            // A select on a folded compare: Verilator would see the chosen arm's range
            // (`1'h0 ? x : 32'hffffffff` then compared as all-ones).
            let pick = match r.of(c, 0) {
                Some(Range { lo: 1, hi: 1 }) => Some(true),
                Some(Range { lo: 0, hi: 0 }) => Some(false),
                _ => None,
            };
            if let Some(p) = pick {
                let arm = if p { &mut **t } else { &mut **f };
                *e = std::mem::replace(arm, Expr::lit(1, 0));
                return true;
            }
        }
    }
    changed
}

/// `m` with every comparison its operand ranges decide replaced by its constant value.
pub fn fold_compares(m: &Module) -> Module {
    let mut out = m.clone();
    loop {
        let mut exprs: Vec<Expr> = Vec::new();
        out.for_each_expr(&mut |e| exprs.push(e.clone()));
        let mut r = Ranges::new(&out);
        let mut changed = false;
        for e in &mut exprs {
            changed |= rewrite(e, &mut r);
        }
        if !changed {
            return out;
        }
        // A folded compare can make a wire constant and decide a compare that reads it.
        let mut it = exprs.into_iter();
        out.for_each_expr_mut(&mut |e| {
            if let Some(n) = it.next() {
                *e = n;
            }
        });
    }
}
