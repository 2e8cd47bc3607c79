//! Tests of the modulo scheduler and its checker on hand-built loop bodies on the sim
//! board's library (recurrences, memory ports, limited units, chains forwarded across
//! iterations), deliberately broken schedules and random bodies. The real loop bodies
//! of the kernels are in `modulo_kernel_tests`.

use crate::board::{Board, BoardSet, Limits, OpLibrary};
use crate::diag::Span;
use crate::frontend::types::AddrSpace;
use crate::ir::{Base, BinOp, Block, OpId, OpKind, Ty, VarId};

use super::loop_graph::{var_recurrences, CarriedDep, DepKind, LoopGraph};
use super::modulo::{schedule_loop_block, ModuloSchedule};
use super::modulo_check::{check_loop_block, check_modulo, ModuloViolation};
use super::sink::{register_bits, shorten_lifetimes, Movable};
use super::timing::{op_timing, order_gap, MemKey, Resource};

fn board(name: &str) -> Board {
    BoardSet::builtin()
        .expect("built-in boards")
        .get(name)
        .expect("board")
        .clone()
}

/// The sim board with memory units that accept a command every other cycle (as
/// `ohls_axi_rd` does), so port occupancy modulo the II shows.
fn sim() -> (OpLibrary, Limits) {
    let mut b = board("sim");
    for t in b
        .operators
        .global_load
        .iter_mut()
        .chain(b.operators.global_store.iter_mut())
    {
        t.ii = 2;
    }
    let lib = b.library();
    let limits = lib.limits.clone();
    (lib, limits)
}

fn add(b: &mut Block, kind: OpKind, ty: Option<Ty>, ops: &[OpId]) -> OpId {
    b.add(kind, ty, Span::default(), ops)
}

fn load(b: &mut Block, param: u32, addr: OpId, ty: Ty) -> OpId {
    let kind = OpKind::Load {
        space: AddrSpace::Global,
        base: Some(Base::Param(param)),
        align: 4,
    };
    add(b, kind, Some(ty), &[addr])
}

fn store(b: &mut Block, param: u32, addr: OpId, v: OpId) -> OpId {
    let kind = OpKind::Store {
        space: AddrSpace::Global,
        base: Some(Base::Param(param)),
        align: 4,
    };
    add(b, kind, None, &[addr, v])
}

fn ptr(b: &mut Block, param: u32) -> OpId {
    add(
        b,
        OpKind::Param(param),
        Some(Ty::Ptr(AddrSpace::Global)),
        &[],
    )
}

/// Schedules a one-block body with its variable recurrences plus `extra`, and asserts
/// the checker accepts the result.
fn schedule(b: &Block, extra: &[CarriedDep]) -> (ModuloSchedule, Vec<CarriedDep>) {
    let (lib, limits) = sim();
    let mut carried = var_recurrences(b, &lib, &limits);
    carried.extend_from_slice(extra);
    let s = schedule_loop_block(b, &carried, &lib, &limits).expect("a modulo schedule");
    let v = check_loop_block(b, &carried, &lib, &limits, &s).expect("graph");
    assert!(v.is_empty(), "{v:?} in {s:?}");
    (s, carried)
}

fn violations(b: &Block, carried: &[CarriedDep], s: &ModuloSchedule) -> Vec<ModuloViolation<OpId>> {
    let (lib, limits) = sim();
    check_loop_block(b, carried, &lib, &limits, s).expect("graph")
}

/// `acc += a[i]` in floats: the accumulator's recurrence goes through the adder.
fn float_accumulator() -> (Block, OpId, OpId) {
    let mut b = Block::default();
    let a = ptr(&mut b, 0);
    let x = load(&mut b, 0, a, Ty::F32);
    let acc = add(&mut b, OpKind::ReadVar(VarId(0)), Some(Ty::F32), &[]);
    let sum = add(
        &mut b,
        OpKind::Binary(BinOp::FAdd),
        Some(Ty::F32),
        &[acc, x],
    );
    add(&mut b, OpKind::WriteVar(VarId(0)), None, &[sum]);
    (b, x, sum)
}

#[test]
fn a_float_accumulator_runs_at_the_adder_latency() {
    let (b, x, sum) = float_accumulator();
    let (s, _) = schedule(&b, &[]);
    let fp_add = sim().0.cost(crate::board::OpClass::FpAdd, 32).latency;
    assert_eq!((s.ii, s.mii), (fp_add, fp_add));
    // The load's 44 cycles come before the adder, not inside the recurrence.
    assert!(s.cycle[&sum] >= s.cycle[&x] + 44, "{s:?}");
    // The accumulator's register is written in the cycle the sum arrives.
    assert_eq!(s.depth, s.cycle[&sum] + fp_add + 1);
    assert_eq!(s.stages, s.depth.div_ceil(s.ii));
    assert_eq!(s.stage(&sum), Some(s.cycle[&sum] / s.ii));
    assert_eq!(s.slot(&sum), Some(s.cycle[&sum] % s.ii));
}

#[test]
fn loads_sharing_a_read_port_take_turns_in_the_reservation_table() {
    // Three loads of one buffer, each holding its port 2 cycles (the unit's II): II 6.
    let mut b = Block::default();
    let p = ptr(&mut b, 0);
    let ls: Vec<OpId> = (0..3).map(|_| load(&mut b, 0, p, Ty::I(32))).collect();
    let s1 = add(
        &mut b,
        OpKind::Binary(BinOp::Add),
        Some(Ty::I(32)),
        &[ls[0], ls[1]],
    );
    let s2 = add(
        &mut b,
        OpKind::Binary(BinOp::Add),
        Some(Ty::I(32)),
        &[s1, ls[2]],
    );
    let q = ptr(&mut b, 1);
    store(&mut b, 1, q, s2);
    let (s, _) = schedule(&b, &[]);
    assert_eq!((s.ii, s.mii), (6, 6));
    let mut slots: Vec<u32> = ls.iter().map(|l| s.cycle[l] % 6).collect();
    slots.sort();
    assert!(slots.windows(2).all(|w| w[1] >= w[0] + 2), "{slots:?}");
}

#[test]
fn one_divider_serves_three_divisions_at_ii_3() {
    let mut b = Block::default();
    let x = add(&mut b, OpKind::Param(0), Some(Ty::I(32)), &[]);
    let mut v = x;
    for _ in 0..3 {
        v = add(
            &mut b,
            OpKind::Binary(BinOp::SDiv),
            Some(Ty::I(32)),
            &[v, x],
        );
    }
    let (s, _) = schedule(&b, &[]);
    assert_eq!(s.ii, 3);
    assert!(
        s.depth >= 3 * 34,
        "the divisions depend on each other: {s:?}"
    );
}

#[test]
fn a_memory_dependence_at_distance_8_spreads_its_round_trip() {
    // a[i + 8] = a[i] * 3: the store feeds the load 8 iterations later.
    let mut b = Block::default();
    let p = ptr(&mut b, 0);
    let x = load(&mut b, 0, p, Ty::I(32));
    let three = add(&mut b, OpKind::Const(vec![3]), Some(Ty::I(32)), &[]);
    let y = add(
        &mut b,
        OpKind::Binary(BinOp::Mul),
        Some(Ty::I(32)),
        &[x, three],
    );
    let st = store(&mut b, 0, p, y);
    let (lib, limits) = sim();
    let gap = order_gap(
        &op_timing(st, &b, &lib, &limits),
        &op_timing(x, &b, &lib, &limits),
    );
    let dep = |distance| CarriedDep {
        from: st,
        to: x,
        distance,
        latency: gap,
        kind: DepKind::Order,
    };
    let (s8, c8) = schedule(&b, &[dep(8)]);
    // load 44 + mul 3 + store's order gap 44 around the cycle, over 8 iterations.
    let round = s8.cycle[&st] - s8.cycle[&x] + gap;
    assert_eq!(s8.ii, round.div_ceil(8).max(4), "{s8:?}");
    let (s1, _) = schedule(&b, &[dep(1)]);
    assert_eq!(s1.ii, 44 + 3 + gap);
    // At distance 1 the II of distance 8 breaks the carried edge.
    let mut bad = s1.clone();
    bad.ii = s8.ii;
    bad.stages = bad.depth.div_ceil(bad.ii);
    let v = violations(&b, &[dep(1)], &bad);
    assert!(
        v.iter().any(|v| matches!(v, ModuloViolation::Dependence { from, to, distance: 1, .. } if *from == st && *to == x)),
        "{v:?}"
    );
    assert!(violations(&b, &c8, &s8).is_empty());
}

/// `x = x + 1 + 1 + ...` with `n` chained integer adds (2 ns each at 32 bits).
fn add_chain(n: usize) -> (Block, Vec<OpId>) {
    let mut b = Block::default();
    let one = add(&mut b, OpKind::Const(vec![1]), Some(Ty::I(32)), &[]);
    let mut v = add(&mut b, OpKind::ReadVar(VarId(0)), Some(Ty::I(32)), &[]);
    let mut adds = Vec::new();
    for _ in 0..n {
        v = add(
            &mut b,
            OpKind::Binary(BinOp::Add),
            Some(Ty::I(32)),
            &[v, one],
        );
        adds.push(v);
    }
    add(&mut b, OpKind::WriteVar(VarId(0)), None, &[v]);
    (b, adds)
}

#[test]
fn a_combinational_recurrence_within_the_period_runs_at_ii_1() {
    let (b, adds) = add_chain(5);
    let (s, _) = schedule(&b, &[]);
    assert_eq!((s.ii, s.mii), (1, 1));
    assert!(
        adds.iter().all(|a| s.cycle[a] == s.cycle[&adds[0]]),
        "{s:?}"
    );
}

#[test]
fn a_chain_forwarded_into_the_next_iteration_must_fit_the_period() {
    // Six adds (12 ns) do not fit a 10 ns cycle: one register inside the recurrence, and
    // at II 1 the next iteration's chain would start where this one ends.
    let (b, adds) = add_chain(6);
    let (s, carried) = schedule(&b, &[]);
    assert_eq!((s.ii, s.mii), (2, 1), "{s:?}");
    let mut bad = s.clone();
    bad.ii = 1;
    bad.stages = bad.depth;
    let v = violations(&b, &carried, &bad);
    assert!(
        v.iter().any(|v| matches!(v, ModuloViolation::Chain { .. })),
        "{v:?}"
    );
    // All six adds in one cycle break the chain within one iteration too.
    let mut flat = s.clone();
    for a in &adds {
        flat.cycle.insert(*a, 0);
    }
    let v = violations(&b, &carried, &flat);
    assert!(
        v.iter()
            .any(|v| matches!(v, ModuloViolation::Chain { op, .. } if op == &adds[5])),
        "{v:?}"
    );
}

#[test]
fn the_checker_rejects_broken_schedules() {
    let (b, x, sum) = float_accumulator();
    let (s, carried) = schedule(&b, &[]);
    // The adder before its operand's load has delivered.
    let mut early = s.clone();
    early.cycle.insert(sum, s.cycle[&x] + 1);
    let v = violations(&b, &carried, &early);
    assert!(
        v.iter().any(|v| matches!(v, ModuloViolation::Dependence { from, to, distance: 0, .. } if *from == x && *to == sum)),
        "{v:?}"
    );
    // An II below the recurrence: the next iteration reads the accumulator too soon.
    let mut fast = s.clone();
    fast.ii = s.ii - 1;
    fast.stages = fast.depth.div_ceil(fast.ii);
    let v = violations(&b, &carried, &fast);
    assert!(
        v.iter()
            .any(|v| matches!(v, ModuloViolation::Dependence { distance: 1, .. })),
        "{v:?}"
    );
    // Depth, stages, a missing op and one that is not in the body.
    let mut short = s.clone();
    short.depth -= 1;
    let v = violations(&b, &carried, &short);
    assert!(
        v.iter().any(|v| matches!(v, ModuloViolation::Depth { .. })),
        "{v:?}"
    );
    let mut staged = s.clone();
    staged.stages += 1;
    assert_eq!(
        violations(&b, &carried, &staged),
        [ModuloViolation::Stages {
            stages: s.stages + 1,
            expected: s.stages
        }]
    );
    let mut missing = s.clone();
    missing.cycle.remove(&x);
    missing.cycle.insert(OpId(99.into()), 0);
    assert_eq!(
        violations(&b, &carried, &missing),
        [
            ModuloViolation::Unscheduled(x),
            ModuloViolation::Unknown(OpId(99.into()))
        ]
    );
}

#[test]
fn the_checker_counts_ports_modulo_the_ii() {
    // Two loads of one buffer 4 cycles apart at II 4 collide in slot 0 (each holds the
    // port 2 cycles); 2 cycles apart they do not.
    let mut b = Block::default();
    let p = ptr(&mut b, 0);
    let l1 = load(&mut b, 0, p, Ty::I(32));
    let l2 = load(&mut b, 0, p, Ty::I(32));
    let (s, carried) = schedule(&b, &[]);
    assert_eq!(s.ii, 4);
    let mut bad = s.clone();
    bad.cycle.insert(l1, 0);
    bad.cycle.insert(l2, 4);
    bad.depth = 4 + 44;
    bad.stages = bad.depth.div_ceil(4);
    let v = violations(&b, &carried, &bad);
    let port = Resource::ReadPort(MemKey::Base(Base::Param(0)));
    assert!(
        v.contains(&ModuloViolation::Resource {
            resource: port,
            slot: 0,
            used: 2,
            limit: 1
        }),
        "{v:?}"
    );
    bad.cycle.insert(l2, 2);
    assert!(violations(&b, &carried, &bad).is_empty());
}

#[test]
fn a_carried_dependence_outside_the_body_is_an_error() {
    let (b, x, _) = float_accumulator();
    let (lib, limits) = sim();
    let bad = CarriedDep {
        from: x,
        to: OpId(77.into()),
        distance: 1,
        latency: 1,
        kind: DepKind::Order,
    };
    let e = schedule_loop_block(&b, &[bad], &lib, &limits).expect_err("refused");
    assert!(e.message.contains("outside the loop body"), "{e}");
    let zero = CarriedDep {
        to: x,
        distance: 0,
        ..bad
    };
    let e = LoopGraph::from_block(&b, &[zero], &lib, &limits).expect_err("refused");
    assert!(e.message.contains("distance 0"), "{e}");
}

/// A small deterministic generator for the random bodies below.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A random one-block body of integer and float ops, global loads and stores and
/// variable accesses, with its variable recurrences and a few carried memory orders.
fn random_body(rng: &mut XorShift, lib: &OpLibrary, limits: &Limits) -> (Block, Vec<CarriedDep>) {
    let mut b = Block::default();
    let ptrs: Vec<OpId> = (0..3).map(|p| ptr(&mut b, p)).collect();
    let mut ints = vec![add(&mut b, OpKind::Param(3), Some(Ty::I(32)), &[])];
    let mut floats = vec![add(&mut b, OpKind::Param(4), Some(Ty::F32), &[])];
    let mut mems = Vec::new();
    for _ in 0..4 + rng.below(20) {
        let i = ints[rng.below(ints.len())];
        let j = ints[rng.below(ints.len())];
        let f = floats[rng.below(floats.len())];
        let p = rng.below(3);
        match rng.below(9) {
            0 => ints.push(add(
                &mut b,
                OpKind::Binary(BinOp::Add),
                Some(Ty::I(32)),
                &[i, j],
            )),
            1 => ints.push(add(
                &mut b,
                OpKind::Binary(BinOp::Mul),
                Some(Ty::I(32)),
                &[i, j],
            )),
            2 => ints.push(add(
                &mut b,
                OpKind::Binary(BinOp::SDiv),
                Some(Ty::I(32)),
                &[i, j],
            )),
            3 => floats.push(add(
                &mut b,
                OpKind::Binary(BinOp::FAdd),
                Some(Ty::F32),
                &[f, f],
            )),
            4 => {
                let l = load(&mut b, p as u32, ptrs[p], Ty::I(32));
                mems.push(l);
                ints.push(l);
            }
            5 => mems.push(store(&mut b, p as u32, ptrs[p], i)),
            6 => ints.push(add(
                &mut b,
                OpKind::ReadVar(VarId(p as u32)),
                Some(Ty::I(32)),
                &[],
            )),
            7 => {
                add(&mut b, OpKind::WriteVar(VarId(p as u32)), None, &[i]);
            }
            _ => ints.push(add(
                &mut b,
                OpKind::Binary(BinOp::Xor),
                Some(Ty::I(32)),
                &[i, j],
            )),
        }
    }
    let mut carried = var_recurrences(&b, lib, limits);
    for _ in 0..rng.below(3) {
        if mems.is_empty() {
            break;
        }
        let from = mems[rng.below(mems.len())];
        let to = mems[rng.below(mems.len())];
        carried.push(CarriedDep {
            from,
            to,
            distance: 1 + rng.below(8) as u32,
            latency: order_gap(
                &op_timing(from, &b, lib, limits),
                &op_timing(to, &b, lib, limits),
            ),
            kind: DepKind::Order,
        });
    }
    (b, carried)
}

#[test]
fn random_bodies_always_get_a_schedule_the_checker_accepts() {
    let (lib, limits) = sim();
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut above_mii = 0;
    for round in 0..300 {
        let (b, carried) = random_body(&mut rng, &lib, &limits);
        let s = schedule_loop_block(&b, &carried, &lib, &limits)
            .unwrap_or_else(|e| panic!("round {round}: {e}"));
        let v = check_loop_block(&b, &carried, &lib, &limits, &s).expect("graph");
        assert!(v.is_empty(), "round {round}: {v:?}");
        assert!(s.ii >= s.mii);
        above_mii += (s.ii > s.mii) as usize;
    }
    // Iterative modulo scheduling reaches the lower bound on nearly every body.
    eprintln!("{above_mii} of 300 random bodies above their MII");
    assert!(above_mii <= 15, "{above_mii} of 300 above the MII");
}

/// The movable ops of a hand-built body as `schedule::loops` marks a kernel's: pure
/// operations and loads of on-chip objects move; constants, arguments and object
/// addresses cost no registers.
fn movable_of(b: &Block) -> Vec<Movable> {
    b.order
        .iter()
        .map(|&o| {
            let op = b.op(o);
            let moves = match &op.kind {
                OpKind::Binary(_) | OpKind::PtrAdd | OpKind::Conv(_) => true,
                OpKind::Load { base, .. } => matches!(base, Some(Base::Object(_))),
                _ => false,
            };
            let free = matches!(
                op.kind,
                OpKind::Const(_) | OpKind::Param(_) | OpKind::ObjectAddr(_)
            );
            let bits = match &op.ty {
                Some(t) if !free => t.bits().min(32),
                _ => 0,
            };
            Movable {
                moves,
                bits,
                unread: None,
                index: moves
                    && !matches!(op.kind, OpKind::Load { .. })
                    && op
                        .ty
                        .as_ref()
                        .is_some_and(|t| t.is_ptr() || matches!(t, Ty::I(_))),
            }
        })
        .collect()
}

#[test]
fn lifetime_placement_keeps_random_schedules_valid_and_never_holds_more() {
    let (lib, limits) = sim();
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let mut fewer = 0;
    for round in 0..300 {
        let (b, carried) = random_body(&mut rng, &lib, &limits);
        let g = LoopGraph::from_block(&b, &carried, &lib, &limits).expect("graph");
        let mut s = schedule_loop_block(&b, &carried, &lib, &limits).expect("schedule");
        let asap = s.clone();
        let facts = movable_of(&b);
        let (before, after) = shorten_lifetimes(&g, &mut s, lib.period_ns, &limits, &facts);
        let v = check_modulo(&g, lib.period_ns, &limits, &s);
        assert!(v.is_empty(), "round {round}: {v:?}");
        assert_eq!(
            (s.ii, s.depth, s.stages),
            (asap.ii, asap.depth, asap.stages)
        );
        assert!(after <= before, "round {round}: {before} -> {after} bits");
        assert_eq!(register_bits(&g, &asap, &facts), before);
        assert_eq!(register_bits(&g, &s, &facts), after);
        fewer += (after < before) as usize;
    }
    eprintln!("{fewer} of 300 random bodies hold fewer register bits");
    assert!(fewer > 0, "the placement never helped");
}

/// matmul_tiled's inner product, unrolled: eight loads of a local tile at one shared
/// address plus a constant, each feeding one link of a chain of float adds. Scheduled
/// as soon as possible, every loaded value rides to its link; placed, each load waits
/// next to its link and only the shared address rides.
#[test]
fn unrolled_tile_loads_wait_next_to_their_link_of_the_chain() {
    let (lib, limits) = sim();
    let mut b = Block::default();
    let acc_var = VarId(0);
    let row_var = VarId(1);
    let tile = add(
        &mut b,
        OpKind::ObjectAddr(crate::ir::ObjectId(0)),
        Some(Ty::Ptr(AddrSpace::Local)),
        &[],
    );
    let row = add(&mut b, OpKind::ReadVar(row_var), Some(Ty::I(64)), &[]);
    let next = add(&mut b, OpKind::Const(vec![1]), Some(Ty::I(64)), &[]);
    let row_next = add(
        &mut b,
        OpKind::Binary(BinOp::Add),
        Some(Ty::I(64)),
        &[row, next],
    );
    add(&mut b, OpKind::WriteVar(row_var), None, &[row_next]);
    let four = add(&mut b, OpKind::Const(vec![32]), Some(Ty::I(64)), &[]);
    let off = add(
        &mut b,
        OpKind::Binary(BinOp::Mul),
        Some(Ty::I(64)),
        &[row, four],
    );
    let base = add(
        &mut b,
        OpKind::PtrAdd,
        Some(Ty::Ptr(AddrSpace::Local)),
        &[tile, off],
    );
    let mut acc = add(&mut b, OpKind::ReadVar(acc_var), Some(Ty::F32), &[]);
    let mut loads = Vec::new();
    for k in 0..8u64 {
        let c = add(&mut b, OpKind::Const(vec![4 * k]), Some(Ty::I(64)), &[]);
        let p = add(
            &mut b,
            OpKind::PtrAdd,
            Some(Ty::Ptr(AddrSpace::Local)),
            &[base, c],
        );
        let kind = OpKind::Load {
            space: AddrSpace::Local,
            base: Some(Base::Object(crate::ir::ObjectId(0))),
            align: 4,
        };
        let x = add(&mut b, kind, Some(Ty::F32), &[p]);
        loads.push(x);
        acc = add(
            &mut b,
            OpKind::Binary(BinOp::FAdd),
            Some(Ty::F32),
            &[acc, x],
        );
    }
    add(&mut b, OpKind::WriteVar(acc_var), None, &[acc]);
    let carried = var_recurrences(&b, &lib, &limits);
    let g = LoopGraph::from_block(&b, &carried, &lib, &limits).expect("graph");
    let mut s = schedule_loop_block(&b, &carried, &lib, &limits).expect("schedule");
    let last = loads[7];
    let use_of_last = b
        .order
        .iter()
        .find(|&&o| b.operands(o).contains(&last) && matches!(b.op(o).kind, OpKind::Binary(_)))
        .copied()
        .expect("the add");
    let read = g
        .nodes
        .iter()
        .find(|n| n.key == last)
        .map(|n| n.timing.latency)
        .expect("node");
    assert!(
        s.cycle[&last] + read + 30 < s.cycle[&use_of_last],
        "as soon as possible, the last load is far ahead of its add: {s:?}"
    );
    let facts = movable_of(&b);
    let (before, after) = shorten_lifetimes(&g, &mut s, lib.period_ns, &limits, &facts);
    assert!(check_modulo(&g, lib.period_ns, &limits, &s).is_empty());
    assert!(after * 3 < before, "{before} -> {after} bits");
    // The last load now starts one read latency before the add that takes it.
    assert_eq!(s.cycle[&last] + read, s.cycle[&use_of_last]);
}
