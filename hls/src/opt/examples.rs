//! The rules on small expressions: what the cheapest form of an expression becomes on a
//! board (examples that read like the rule they show), and the soundness check every
//! rule goes through: after saturation, every e-node of every class evaluates to the same
//! value on random and edge-case inputs, at every width, and every rule fires somewhere
//! in the corpus (so none escapes the check).

use std::collections::{BTreeSet, HashMap};

use egg::{Extractor, Id, Language, RecExpr, Runner};

use super::cost::{NodeCost, Pricer};
use super::facts::{Facts, Graph, Kind};
use super::lang::{eval, mask, Node};
use super::rules;
use crate::board::BoardSet;
use crate::frontend::types::AddrSpace;

const LEAF_WIDTHS: [u8; 5] = [1, 8, 16, 32, 64];

/// Leaves `in0..in9` are two of each width (in0, in1: i1; in2, in3: i8; ...); `in10` is a
/// pointer.
fn leaves() -> Vec<Kind> {
    let mut v: Vec<Kind> = LEAF_WIDTHS
        .iter()
        .flat_map(|w| [Kind::Int(*w), Kind::Int(*w)])
        .collect();
    v.push(Kind::Ptr(AddrSpace::Global));
    v
}

fn leaf(w: u8, second: bool) -> String {
    let i = LEAF_WIDTHS
        .iter()
        .position(|x| *x == w)
        .expect("a leaf width")
        * 2;
    format!("in{}", i + second as usize)
}

/// Saturates `expr`; the e-graph, its root and the rules that applied.
fn saturate(expr: &str) -> (Graph, Id, BTreeSet<String>) {
    let e: RecExpr<Node> = expr.parse().unwrap_or_else(|err| panic!("{expr}: {err}"));
    let mut g = Graph::new(Facts {
        leaves: leaves(),
        ..Facts::default()
    });
    let root = g.add_expr(&e);
    let runner = Runner::default()
        .with_egraph(g)
        .with_iter_limit(12)
        .with_node_limit(20_000)
        .run(&rules::rewrites());
    let fired = runner
        .iterations
        .iter()
        .flat_map(|i| i.applied.keys().map(|k| k.to_string()))
        .collect();
    let root = runner.egraph.find(root);
    (runner.egraph, root, fired)
}

/// The cheapest form of `expr` on the de10-nano, printed.
fn best(expr: &str) -> String {
    let boards = BoardSet::builtin().expect("boards");
    let pricer = Pricer::new(boards.get("de10-nano").expect("de10-nano"));
    let (g, root, _) = saturate(expr);
    let ext = Extractor::new(
        &g,
        NodeCost {
            g: &g,
            pricer: &pricer,
            shared: false,
        },
    );
    ext.find_best(root).1.to_string()
}

/// Every node of every class evaluates alike when the leaves take `values` (pointers as
/// 64-bit integers); the first disagreement, if any.
fn disagreement(g: &Graph, values: &[u64]) -> Option<String> {
    let mut val: HashMap<Id, u64> = HashMap::new();
    let width = |id: Id| g[id].data.kind.bits();
    let node_value = |n: &Node, val: &HashMap<Id, u64>, w: u32| -> Option<u64> {
        match n {
            Node::Leaf(i) => Some(values[*i as usize] & mask(w)),
            Node::PtrAdd([p, o]) => {
                Some(val.get(&g.find(*p))?.wrapping_add(*val.get(&g.find(*o))?))
            }
            _ => eval(n, w, |i| {
                let c = g.find(n.children()[i]);
                val.get(&c).map(|v| (*v, width(c)))
            }),
        }
    };
    loop {
        let mut changed = false;
        for class in g.classes() {
            if val.contains_key(&class.id) {
                continue;
            }
            let w = width(class.id);
            if let Some(v) = class.nodes.iter().find_map(|n| node_value(n, &val, w)) {
                val.insert(class.id, v);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for class in g.classes() {
        let w = width(class.id);
        for n in &class.nodes {
            if let (Some(v), Some(want)) = (node_value(n, &val, w), val.get(&class.id)) {
                if v != *want {
                    return Some(format!(
                        "{n} = {v:#x} but its class is {want:#x} (inputs {values:x?})"
                    ));
                }
            }
        }
    }
    None
}

/// Input sets: edge cases (0, 1, all ones, the sign bit, its neighbours) and random.
fn inputs() -> Vec<Vec<u64>> {
    let edges = [
        0u64,
        1,
        u64::MAX,
        0x80,
        0x7F,
        0x8000,
        0x7FFF,
        0x8000_0000,
        0x7FFF_FFFF,
        1 << 63,
        (1 << 63) - 1,
        7,
        8,
        9,
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let n = leaves().len();
    let mut sets: Vec<Vec<u64>> = edges.iter().map(|e| vec![*e; n]).collect();
    for i in 0..60 {
        sets.push(
            (0..n)
                .map(|j| {
                    let r = next();
                    // Mix edge values with random ones, and small magnitudes of both signs.
                    match (i + j) % 4 {
                        0 => edges[(r % edges.len() as u64) as usize],
                        1 => r % 64,
                        2 => (r % 64).wrapping_neg(),
                        _ => r,
                    }
                })
                .collect(),
        );
    }
    sets
}

fn assert_sound(expr: &str) -> BTreeSet<String> {
    let (g, _, fired) = saturate(expr);
    for vals in inputs() {
        if let Some(d) = disagreement(&g, &vals) {
            panic!("{expr}: after {fired:?}: {d}");
        }
    }
    fired
}

/// Expressions that make every rule fire, at every width it applies to.
fn corpus() -> Vec<String> {
    let mut v = Vec::new();
    let templates = [
        "(add 5i{w} {x})",
        "(mul 3i{w} {x})",
        "(and 3i{w} {x})",
        "(or 3i{w} {x})",
        "(xor 3i{w} {x})",
        "(add {x} 0i{w})",
        "(sub {x} 0i{w})",
        "(sub {x} {x})",
        "(sub {x} 5i{w})",
        "(sub 0i{w} {x})",
        "(add {x} (neg {y}))",
        "(sub {x} (neg {y}))",
        "(add (sub {x} {y}) {y})",
        "(sub (add {x} {y}) {y})",
        "(add {x} {x})",
        "(mul {x} 0i{w})",
        "(mul {x} 1i{w})",
        "(mul {x} -1i{w})",
        "(udiv {x} 1i{w})",
        "(sdiv {x} 1i{w})",
        "(sdiv {x} -1i{w})",
        "(urem {x} 1i{w})",
        "(srem {x} 1i{w})",
        "(srem {x} -1i{w})",
        "(and {x} 0i{w})",
        "(and {x} -1i{w})",
        "(and {x} {x})",
        "(or {x} 0i{w})",
        "(or {x} -1i{w})",
        "(or {x} {x})",
        "(xor {x} 0i{w})",
        "(xor {x} -1i{w})",
        "(xor {x} {x})",
        "(shl {x} 0i{w})",
        "(lshr {x} 0i{w})",
        "(ashr {x} 0i{w})",
        "(not (not {x}))",
        "(neg (neg {x}))",
        "(and {x} (not {x}))",
        "(add (add {x} 3i{w}) 4i{w})",
        "(mul (mul {x} 3i{w}) 5i{w})",
        "(and (and {x} 3i{w}) 6i{w})",
        "(or (or {x} 3i{w}) 6i{w})",
        "(xor (xor {x} 3i{w}) 6i{w})",
        "(shl (shl {x} 1i{w}) 2i{w})",
        "(lshr (lshr {x} 1i{w}) 2i{w})",
        "(ashr (ashr {x} 1i{w}) 2i{w})",
        "(shl (shl {x} 5i{w}) 4i{w})",
        "(mul (add {x} 1i{w}) 4i{w})",
        "(shl (add {x} 1i{w}) 2i{w})",
        "(add (mul {x} 3i{w}) (mul {x} 5i{w}))",
        "(select {b} {x} {x})",
        "(select 1i1 {x} {y})",
        "(select 0i1 {x} {y})",
        "(select (not {b}) {x} {y})",
        "(select {b} 1i{w} 0i{w})",
        "(select {b} -1i{w} 0i{w})",
        "(ult {x} 0i{w})",
        "(uge {x} 0i{w})",
        "(ugt {x} -1i{w})",
        "(ule {x} -1i{w})",
        "(mul {x} 10i{w})",
        "(mul {x} -4i{w})",
        "(mul {x} 7i{w})",
        "(mul {x} 85i{w})",
        "(udiv {x} 8i{w})",
        "(urem {x} 8i{w})",
        "(sdiv {x} 8i{w})",
        "(srem {x} 8i{w})",
        "(sdiv {x} 2i{w})",
        "(srem {x} 4i{w})",
        "(udiv {x} 3i{w})",
        "(udiv {x} 7i{w})",
        "(udiv {x} 10i{w})",
        "(urem {x} 7i{w})",
        "(urem {x} 12i{w})",
        "(sdiv {x} 7i{w})",
        "(sdiv {x} -3i{w})",
        "(sdiv {x} 100i{w})",
        "(srem {x} -7i{w})",
        "(srem {x} 10i{w})",
        "(udiv {x} 200i{w})",
        "(mul {x} {y})",
        "(mul (lshr {x} 1i{w}) {y})",
        "(add (udiv {x} {y}) (urem {x} {y}))",
        "(add (sdiv {x} {y}) (srem {x} {y}))",
        "(sgt (sdiv {x} 8i{w}) 0i{w})",
        "(slt (sdiv {x} 8i{w}) 3i{w})",
        "(sgt (sdiv {x} 10i{w}) 2i{w})",
        "(slt (sdiv {x} -8i{w}) 3i{w})",
        "(ugt (udiv {x} 10i{w}) 5i{w})",
        "(ult (udiv {x} 10i{w}) 5i{w})",
        "(ult (udiv {x} 3i{w}) 0i{w})",
    ];
    let cmps = [
        "eq", "ne", "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge",
    ];
    // Values the masks and shifts bound, so that the narrowing rules fire (and are checked
    // on inputs their bounds come from, not on assumed ones).
    let narrow = [
        "(add (and {x} 255i{w}) (and {y} 127i{w}))",
        "(add (and {x} 255i{w}) (and {y} 255i{w}))",
        "(mul (and {x} 15i{w}) (and {y} 15i{w}))",
        "(mul (and {x} 255i{w}) (and {y} 255i{w}))",
        "(or (and {x} 15i{w}) (and {y} 255i{w}))",
        "(xor (and {x} 15i{w}) (and {y} 255i{w}))",
        "(and {x} (and {y} 255i{w}))",
        "(urem (and {x} 255i{w}) (and {y} 15i{w}))",
        "(urem (and {x} 255i{w}) 0i{w})",
        "(udiv (and {x} 255i{w}) 7i{w})",
        "(udiv (and {x} 255i{w}) (and {y} 15i{w}))",
        "(shl (and {x} 15i{w}) 3i{w})",
        "(shl (and {x} 1i{w}) 7i{w})",
        "(shl (and {x} 255i{w}) 12i{w})",
        "(lshr (and {x} 255i{w}) 3i{w})",
        "(lshr (and {x} 255i{w}) 9i{w})",
        "(ashr (lshr {x} 1i{w}) 5i{w})",
        "(ashr (and {x} 255i{w}) 3i{w})",
        "(select {b} (and {x} 255i{w}) (and {y} 15i{w}))",
        "(sub (and {x} 255i{w}) (and {y} 15i{w}))",
        "(sub (and {x} 127i{w}) (and {y} 127i{w}))",
        "(sdiv (and {x} 255i{w}) (and {y} 15i{w}))",
        "(srem (lshr {x} 1i{w}) (and {y} 15i{w}))",
        "(udiv (and {x} 4095i{w}) 12i{w})",
        // Disjoint bits: a shifted or scaled value and one below the shift, in either
        // order, and a masked high part (the `add-disjoint` rule).
        "(add (shl {x} 4i{w}) (and {y} 15i{w}))",
        "(add (and {y} 7i{w}) (mul {x} 8i{w}))",
        "(add (and {x} -16i{w}) (and {y} 12i{w}))",
        "(add (shl {x} 3i{w}) 5i{w})",
        "(add (add {x} (shl {y} 3i{w})) (and {x} 7i{w}))",
        "(add (and {y} 3i{w}) (add (shl {x} 2i{w}) {y}))",
        "(udiv (and {x} 7i{w}) 12i{w})",
        "(urem (and {x} 65535i{w}) 1000i{w})",
    ];
    for w in [8u8, 16, 32, 64] {
        let (x, y, b) = (leaf(w, false), leaf(w, true), leaf(1, false));
        let fill = |t: &str| {
            t.replace("{x}", &x)
                .replace("{y}", &y)
                .replace("{b}", &b)
                .replace("{w}", &w.to_string())
        };
        v.extend(templates.iter().map(|t| fill(t)));
        v.extend(narrow.iter().map(|t| fill(t)));
        for c in cmps {
            v.push(fill(&format!(
                "({c} (and {{x}} 255i{{w}}) (and {{y}} 127i{{w}}))"
            )));
            v.push(fill(&format!("({c} (lshr {{x}} 1i{{w}}) 255i{{w}})")));
            v.push(fill(&format!("({c} {{x}} {{x}})")));
            v.push(fill(&format!("(not ({c} {{x}} {{y}}))")));
            v.push(fill(&format!("({c} 5i{{w}} {{x}})")));
        }
    }
    let b = leaf(1, false);
    v.extend([
        format!("(select {b} 0i1 1i1)"),
        format!("(select {b} 1i1 0i1)"),
        format!("(ne {b} 0i1)"),
        format!("(eq {b} 1i1)"),
        format!("(eq {b} 0i1)"),
        "(ptradd in10 0i64)".into(),
        "(ptradd (ptradd in10 4i64) 8i64)".into(),
        format!("(ptradd in10 (add {} 4i64))", leaf(64, false)),
        format!(
            "(ptradd (ptradd in10 (shl {} 5i64)) (and {} 28i64))",
            leaf(64, false),
            leaf(64, true)
        ),
    ]);
    for w in LEAF_WIDTHS {
        for m in LEAF_WIDTHS {
            for s in LEAF_WIDTHS {
                let x = leaf(s, false);
                if m > w && s < m {
                    v.push(format!("(trunc{w} (zext{m} {x}))"));
                    v.push(format!("(trunc{w} (sext{m} {x}))"));
                }
                if m > w && s > m {
                    v.push(format!("(trunc{w} (trunc{m} {x}))"));
                }
                if w > m && m > s {
                    v.push(format!("(zext{w} (zext{m} {x}))"));
                    v.push(format!("(sext{w} (sext{m} {x}))"));
                    v.push(format!("(sext{w} (zext{m} {x}))"));
                }
            }
            if m > w {
                for op in ["add", "sub", "mul", "and", "or", "xor"] {
                    v.push(format!(
                        "(trunc{w} ({op} {} {}))",
                        leaf(m, false),
                        leaf(m, true)
                    ));
                }
            }
        }
        for n in LEAF_WIDTHS
            .into_iter()
            .filter(|n| *n > 1 && *n < w && w > 8)
        {
            let x = leaf(n, false);
            // Bounded operands, so that the sums cannot wrap; and one that may.
            let small = format!("(lshr {x} 2i{n})");
            v.push(format!("(sext{w} (add {small} -1i{n}))"));
            v.push(format!("(sext{w} (add {small} 1i{n}))"));
            v.push(format!("(sext{w} (add {x} 1i{n}))"));
            v.push(format!("(zext{w} (add {small} 3i{n}))"));
            v.push(format!("(zext{w} (add {x} 3i{n}))"));
        }
        if w > 1 {
            let x = leaf(1, false);
            v.push(format!("(eq (zext{w} {x}) 1i{w})"));
            v.push(format!("(ne (zext{w} {x}) 0i{w})"));
            v.push(format!("(eq (zext{w} {x}) 2i{w})"));
        }
    }
    v
}

#[test]
fn every_rule_is_sound_on_random_and_edge_inputs_and_fires_in_the_corpus() {
    let mut fired = BTreeSet::new();
    for e in corpus() {
        fired.extend(assert_sound(&e));
    }
    let never: Vec<String> = rules::all()
        .into_iter()
        .map(|r| r.name)
        .filter(|n| !fired.contains(n))
        .collect();
    assert!(
        never.is_empty(),
        "rules no corpus expression fires: {never:?}"
    );
}

#[test]
fn division_by_every_8_bit_constant_is_exact_for_every_input() {
    for d in 1..=255u64 {
        for op in ["udiv", "sdiv", "urem", "srem"] {
            let expr = format!("({op} in2 {d}i8)");
            let (g, _, _) = saturate(&expr);
            for x in 0..=255u64 {
                let mut vals = vec![0; leaves().len()];
                vals[2] = x;
                if let Some(e) = disagreement(&g, &vals) {
                    panic!("{expr}: {e}");
                }
            }
        }
    }
}

#[test]
fn division_by_constants_at_16_and_32_bits_is_exact_on_many_inputs() {
    let divisors = [
        3u64,
        5,
        6,
        7,
        9,
        10,
        11,
        12,
        13,
        25,
        100,
        641,
        1000,
        3641,
        32767,
        65535,
        1 << 20 | 1,
        0x7FFF_FFFF,
        0x8000_0001,
        0xFFFF_FFFE,
    ];
    for w in [16u8, 32] {
        for &d in &divisors {
            for op in ["udiv", "sdiv", "urem", "srem"] {
                let expr = format!("({op} {} {}i{w})", leaf(w, false), d & mask(w as u32));
                assert_sound(&expr);
            }
        }
    }
}

#[test]
fn a_multiply_by_ten_becomes_two_shifts_and_an_add() {
    assert_eq!(
        best("(mul in6 10i32)"),
        "(add (shl in6 1i32) (shl in6 3i32))"
    );
}

#[test]
fn a_multiply_by_seven_is_a_shift_minus_the_value() {
    assert_eq!(best("(mul in6 7i32)"), "(sub (shl in6 3i32) in6)");
}

#[test]
fn unsigned_division_by_three_is_a_multiply_high() {
    assert_eq!(
        best("(udiv in6 3i32)"),
        "(trunc32 (lshr (mul (zext64 in6) 2863311531i64) 33i64))"
    );
}

#[test]
fn signed_division_by_four_is_a_biased_shift() {
    assert_eq!(
        best("(sdiv in6 4i32)"),
        "(ashr (add in6 (lshr (ashr in6 31i32) 30i32)) 2i32)"
    );
}

#[test]
fn unsigned_remainder_by_eight_is_a_mask_or_the_wiring_the_board_prices_as_free() {
    // Both cost nothing on the board (a power-of-two remainder is wiring); the plain op wins.
    assert_eq!(best("(urem in6 8i32)"), "(urem in6 8i32)");
}

#[test]
fn constants_are_gathered_and_folded() {
    assert_eq!(best("(add (add in6 3i32) 4i32)"), "(add in6 7i32)");
    assert_eq!(best("(sub (mul 3i32 5i32) 15i32)"), "0i32");
    assert_eq!(best("(shl (shl in6 3i32) 2i32)"), "(shl in6 5i32)");
}

#[test]
fn a_truncated_wide_sum_is_added_narrow() {
    assert_eq!(
        best("(trunc32 (add (zext64 in6) (zext64 in7)))"),
        "(add in6 in7)"
    );
}

#[test]
fn a_select_of_one_and_zero_is_its_condition() {
    assert_eq!(best("(select in0 1i32 0i32)"), "(zext32 in0)");
    assert_eq!(best("(select (not in0) in6 in7)"), "(select in0 in7 in6)");
}

#[test]
fn self_cancelling_ops_vanish() {
    assert_eq!(best("(sub in6 in6)"), "0i32");
    assert_eq!(best("(xor (add in6 in7) (add in6 in7))"), "0i32");
    assert_eq!(best("(ult in6 in6)"), "0i1");
}

#[test]
fn pointer_offsets_merge() {
    assert_eq!(
        best("(ptradd (ptradd in10 4i64) 8i64)"),
        "(ptradd in10 12i64)"
    );
}

#[test]
fn a_sum_of_bits_that_cannot_overlap_is_an_or_priced_as_wiring() {
    // `gid * 16 + lid` with `lid < 16`: the adder's carry chain becomes wiring.
    assert_eq!(
        best("(add (shl in6 4i32) (and in7 15i32))"),
        "(or (shl in6 4i32) (and in7 15i32))"
    );
    // `row * n + t * 8 + tx` with `tx < 8`: one adder.
    assert_eq!(
        best("(add (add (mul in6 in7) (shl in4 3i32)) (and in7 7i32))"),
        "(add (mul in6 in7) (or (shl in4 3i32) (and in7 7i32)))"
    );
    // One bit in common (bit 4): still an adder.
    assert_eq!(
        best("(add (shl in6 4i32) (and in7 31i32))"),
        "(add (shl in6 4i32) (and in7 31i32))"
    );
}

#[test]
fn a_sum_of_small_values_is_added_at_the_width_that_holds_it() {
    // 255 + 127 needs 9 bits: a 16-bit adder.
    assert_eq!(
        best("(add (and in8 255i64) (and in9 127i64))"),
        "(zext64 (add (zext16 (trunc8 in8)) (and (trunc16 in9) 127i16)))"
    );
}

#[test]
fn a_compare_of_small_values_is_narrow_and_unsigned() {
    assert_eq!(
        best("(slt (and in8 1000i64) 64i64)"),
        "(ult (and (trunc16 in8) 1000i16) 64i16)"
    );
}

#[test]
fn a_sum_that_may_carry_out_of_32_bits_stays_wide() {
    assert_eq!(
        best("(add (zext64 in6) (zext64 in7))"),
        "(add (zext64 in6) (zext64 in7))"
    );
}

#[test]
fn a_quotient_of_a_value_below_the_divisor_is_zero() {
    assert_eq!(best("(udiv (and in6 255i32) 1000i32)"), "0i32");
}

#[test]
fn an_even_divisor_is_shifted_out_and_the_multiplier_sized_by_the_bound() {
    // x < 4096: x / 12 = (x >> 2) / 3 on 10 bits, M = 683 (10 bits), p = 11.
    assert_eq!(
        best("(udiv (and in6 4095i32) 12i32)"),
        "(lshr (mul (lshr (and in6 4095i32) 2i32) 683i32) 11i32)"
    );
}

#[test]
fn a_signed_division_of_values_that_are_not_negative_is_unsigned() {
    assert_eq!(
        best("(sdiv (lshr in6 1i32) (and in7 255i32))"),
        "(udiv (lshr in6 1i32) (zext32 (trunc8 in7)))"
    );
}

#[test]
fn an_index_minus_one_is_subtracted_at_32_bits_once() {
    // The sum of a value below 2^29 and -1 cannot wrap at 32 bits, so it is built once,
    // 32 bits wide (cheaper than moving -72 = 2^64 - 72 out to a 64-bit add), and the
    // multiply by 72 is two shifts of it and one add.
    assert_eq!(
        best("(mul (sext64 (add (lshr in6 3i32) -1i32)) 72i64)"),
        "(add (shl (sext64 (add (lshr in6 3i32) 4294967295i32)) 3i64) \
         (shl (sext64 (add (lshr in6 3i32) 4294967295i32)) 6i64))"
    );
}

#[test]
fn a_quotient_compared_with_a_constant_is_a_compare_of_the_dividend() {
    // `n / 8 > 0` (the trip test of `for (t = 0; t < n / 8; t++)`): no rounding adder.
    assert_eq!(best("(sgt (sdiv in6 8i32) 0i32)"), "(sgt in6 7i32)");
    assert_eq!(best("(ult (udiv in6 10i32) 5i32)"), "(ult in6 50i32)");
    // A negative divisor has no such form.
    assert!(!best("(sgt (sdiv in6 -8i32) 0i32)").starts_with("(sgt in6 "));
}

#[test]
fn offsets_with_no_bit_in_common_are_one_pointer_addition() {
    // `&tile[ty][k]` of a float tile with rows of 8: the tile, plus `ty * 32 | k * 4`.
    assert_eq!(
        best("(ptradd (ptradd in10 (shl (and in8 7i64) 5i64)) 12i64)"),
        "(ptradd in10 (or (shl (and in8 7i64) 5i64) 12i64))"
    );
}
