//! Wide global accesses: the loads (stores) of one loop iteration that read (write)
//! neighbouring elements of one buffer — the copies of an unrolled body, `y[i]`,
//! `y[i + 1]`, ... — become one access of the buffer's memory unit, up to a bus beat, so
//! that a pipelined loop unrolled by 4 still issues one request per buffer and cycle.
//!
//! The IR keeps the separate accesses (the FSM and an ordered version of the loop run
//! them one by one); the groups are a side table the modulo scheduler (one memory port
//! use per group) and the pipelined datapath (one request, lanes sliced out) read. A
//! group's loads are issued with its first member (program order) and its stores with
//! its last, so a member moves only past accesses to the same buffer that its affine
//! address proves apart from it; accesses to other buffers are the loop versioning's
//! business (a pipelined loop runs only where its buffers do not overlap).

use std::collections::{BTreeMap, HashMap};

use crate::analysis::affine::AffineLoop;
use crate::analysis::loops::shapes;
use crate::frontend::types::AddrSpace;
use crate::ir::{Base, BlockId, Kernel, OpId, OpKind};

type OpKey = (BlockId, OpId);

/// One wide access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WideGroup {
    /// A load group: the member that issues the request (the first in program order);
    /// a store group: the last.
    pub issuer: OpKey,
    /// The members from the lowest address up; member `i` is `lane_bytes` x `i` bytes
    /// above the group's address.
    pub lanes: Vec<OpKey>,
    pub lane_bytes: u32,
    /// The alignment the lowest member's access promises.
    pub align: u32,
}

impl WideGroup {
    /// Bytes the group moves.
    pub fn bytes(&self) -> u32 {
        self.lane_bytes * self.lanes.len() as u32
    }

    /// Its members are in more than one block (each under its own guard).
    pub fn spans_blocks(&self) -> bool {
        self.lanes.iter().any(|m| m.0 != self.lanes[0].0)
    }

    /// Bytes from the group's address to member `m`'s.
    pub fn offset_of(&self, m: OpKey) -> Option<u32> {
        let i = self.lanes.iter().position(|x| *x == m)?;
        Some(i as u32 * self.lane_bytes)
    }
}

/// Every wide group of a kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WideAccesses {
    pub groups: Vec<WideGroup>,
    of: HashMap<OpKey, usize>,
}

impl WideAccesses {
    /// The group access `m` belongs to.
    pub fn group(&self, m: OpKey) -> Option<&WideGroup> {
        self.of.get(&m).map(|&g| &self.groups[g])
    }

    /// Access `m` is merged into a group another member issues.
    pub fn rides_along(&self, m: OpKey) -> bool {
        self.group(m).is_some_and(|g| g.issuer != m)
    }
}

/// A candidate: a global access of a buffer parameter.
struct Access {
    key: OpKey,
    pos: usize,
    load: bool,
    param: u32,
    bytes: u32,
    ty: Option<crate::ir::Ty>,
    align: u32,
}

/// The wide groups of `k`'s innermost loops, each at most `beat` bytes.
pub fn plan(k: &Kernel, beat: u32, ranges: Option<&crate::opt::ranges::Ranges>) -> WideAccesses {
    let mut out = WideAccesses::default();
    let (mut groups, mut singles) = (Vec::new(), Vec::new());
    for s in shapes(k) {
        if !s.inner.is_empty() {
            continue;
        }
        let aff = AffineLoop::new(k, &s, ranges);
        // One iteration's ops in program order, across its blocks: accesses in different
        // blocks (the guarded copies of an unrolled body, lanes behind `if (i < n)`)
        // group like those of one block, each member keeping its own guard (a load
        // group is requested where any member's guard holds, a store group writes each
        // member's bytes where its guard holds).
        let seq: Vec<OpKey> = s
            .blocks
            .iter()
            .flat_map(|ib| k.block(ib.block).order.iter().map(move |&o| (ib.block, o)))
            .collect();
        let guards = crate::analysis::loops::block_guards(k, &s);
        let mut acc = Vec::new();
        for (pos, &(b, o)) in seq.iter().enumerate() {
            let blk = k.block(b);
            let op = blk.op(o);
            let (load, space, base, align, ty) = match &op.kind {
                OpKind::Load { space, base, align } => (true, space, base, align, op.ty.clone()),
                OpKind::Store { space, base, align } => (
                    false,
                    space,
                    base,
                    align,
                    blk.operands(o).get(1).and_then(|v| blk.op(*v).ty.clone()),
                ),
                _ => continue,
            };
            let Some(Base::Param(p)) = base else { continue };
            let buffer = k.is_buffer(*p);
            let global = matches!(space, AddrSpace::Global | AddrSpace::Constant);
            let bytes = ty.as_ref().map(|t| t.bits().div_ceil(8)).unwrap_or(0);
            if !buffer || !global || !bytes.is_power_of_two() || bytes >= beat {
                continue;
            }
            acc.push(Access {
                key: (b, o),
                pos,
                load,
                param: *p,
                bytes,
                ty,
                align: *align,
            });
        }
        singles.extend(acc.iter().filter(|a| a.load).map(|a| (a.param, a.bytes)));
        let it = Iter {
            k,
            pos: seq.iter().enumerate().map(|(i, x)| (*x, i)).collect(),
            seq: &seq,
            guards: guards.as_ref(),
        };
        groups.extend(loop_groups(&it, &acc, &aff, beat));
    }
    // A buffer's loads share one unit as wide as the widest (see `pipeline`); a narrower
    // access goes through it only when it lies within one of its elements, so a load
    // group less aligned than its size and narrower than the unit is left as its members.
    let mut unit: BTreeMap<u32, u32> = BTreeMap::new();
    for (p, bytes) in singles.into_iter().chain(
        groups
            .iter()
            .filter(|g| g.load)
            .map(|g| (g.param, g.group.bytes())),
    ) {
        let u = unit.entry(p).or_default();
        *u = (*u).max(bytes);
    }
    for g in groups {
        let bytes = g.group.bytes();
        if g.load && bytes < unit[&g.param] && g.group.align < bytes {
            continue;
        }
        let i = out.groups.len();
        for m in &g.group.lanes {
            out.of.insert(*m, i);
        }
        out.groups.push(g.group);
    }
    out
}

/// A group as `block_groups` finds it, with its buffer and direction.
struct Found {
    group: WideGroup,
    param: u32,
    load: bool,
}

/// One iteration of an innermost loop: its ops in program order (and each one's
/// position) and, where the iteration is if-converted, the guards of its blocks.
struct Iter<'a> {
    k: &'a Kernel,
    seq: &'a [OpKey],
    pos: HashMap<OpKey, usize>,
    guards: Option<&'a std::collections::BTreeMap<BlockId, crate::analysis::loops::Guard>>,
}

/// The groups of one iteration's accesses `acc`.
fn loop_groups(it: &Iter, acc: &[Access], aff: &AffineLoop, beat: u32) -> Vec<Found> {
    let mut out = Vec::new();
    let mut taken = vec![false; acc.len()];
    for a in 0..acc.len() {
        if taken[a] {
            continue;
        }
        // Its class: same direction, buffer and type, addresses a known distance apart.
        // An address accessed twice (a value loaded again after a store elsewhere that
        // might alias it) gives a second layer: each layer's neighbours group on their
        // own, so every lane is one access.
        let mut class: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
        for (c, x) in acc.iter().enumerate() {
            if taken[c] || x.load != acc[a].load || x.param != acc[a].param || x.ty != acc[a].ty {
                continue;
            }
            if let Some(d) = aff.offset(acc[a].key, x.key) {
                class.entry(d).or_default().push(c);
            }
        }
        for &c in class.values().flatten() {
            taken[c] = true;
        }
        let layers = class.values().map(Vec::len).max().unwrap_or(0);
        for layer in 0..layers {
            let entries: Vec<(i64, usize)> = class
                .iter()
                .filter_map(|(d, cs)| cs.get(layer).map(|&c| (*d, c)))
                .collect();
            out.extend(
                group_runs(it, acc, aff, beat, &entries)
                    .into_iter()
                    .map(|group| Found {
                        group,
                        param: acc[a].param,
                        load: acc[a].load,
                    }),
            );
        }
    }
    out
}

/// The groups of one layer of a class (`entries`: distance and access, by distance):
/// runs of neighbours cut into powers of two up to a beat.
fn group_runs(
    it: &Iter,
    acc: &[Access],
    aff: &AffineLoop,
    beat: u32,
    entries: &[(i64, usize)],
) -> Vec<WideGroup> {
    let mut out = Vec::new();
    let Some(&(_, first)) = entries.first() else {
        return out;
    };
    let w = acc[first].bytes as i64;
    let max_lanes = (beat / acc[first].bytes).max(1) as usize;
    let mut i = 0;
    while i < entries.len() {
        let mut j = i + 1;
        while j < entries.len() && entries[j].0 == entries[j - 1].0 + w {
            j += 1;
        }
        let mut at = i;
        while at < j {
            let n = prev_power_of_two((j - at).min(max_lanes));
            let lanes: Vec<usize> = entries[at..at + n].iter().map(|e| e.1).collect();
            if n >= 2 && legal(it, acc, &lanes, aff) {
                let issuer = if acc[lanes[0]].load {
                    lanes.iter().min_by_key(|&&l| acc[l].pos)
                } else {
                    lanes.iter().max_by_key(|&&l| acc[l].pos)
                };
                out.push(WideGroup {
                    issuer: acc[*issuer.expect("lanes")].key,
                    lanes: lanes.iter().map(|&l| acc[l].key).collect(),
                    lane_bytes: acc[lanes[0]].bytes,
                    // The declared alignment, or what the address provably has (an
                    // unrolled counter's multiples of 4 make `in[i]` 16-byte aligned).
                    align: acc[lanes[0]].align.max(1).max(
                        aff.align(acc[lanes[0]].key)
                            .map_or(1, |a| a.min(u64::from(beat)) as u32),
                    ),
                });
                at += n;
            } else {
                at += 1;
            }
        }
        i = j;
    }
    out
}

fn prev_power_of_two(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        1 << (usize::BITS - 1 - n.leading_zeros())
    }
}

/// Whether every member may move to the issuer: loads up to the first member, stores down
/// to the last, past nothing of their buffer that may touch their bytes and past no
/// other side effect than loads and stores of other buffers. Members in blocks of other
/// guards need guards the issuer can know: none where the loop may leave early, and for
/// a load group (requested where any member's guard holds) tests that use no load or
/// other memory op from the issuer on, so they can be computed before it.
fn legal(it: &Iter, acc: &[Access], lanes: &[usize], aff: &AffineLoop) -> bool {
    let load = acc[lanes[0]].load;
    let param = acc[lanes[0]].param;
    let first = lanes.iter().map(|&l| acc[l].pos).min().unwrap_or(0);
    let last = lanes.iter().map(|&l| acc[l].pos).max().unwrap_or(0);
    let issuer = if load { first } else { last };
    let block_of = |pos: usize| it.seq[pos].0;
    let none = Vec::new();
    let tests_of = |b: BlockId| {
        it.guards
            .and_then(|g| g.get(&b))
            .unwrap_or(&none)
            .iter()
            .map(|(t, _)| *t)
    };
    for &l in lanes {
        let m = &acc[l];
        if block_of(m.pos) != block_of(issuer) {
            let Some(_) = it.guards else { return false };
            if load {
                let own: Vec<OpKey> = tests_of(block_of(issuer)).collect();
                let early = tests_of(block_of(m.pos))
                    .filter(|t| !own.contains(t))
                    .all(|t| computable_before(it, t, issuer));
                if !early {
                    return false;
                }
            }
        }
        let (lo, hi) = if load {
            (issuer, m.pos)
        } else {
            (m.pos, issuer)
        };
        for pos in lo + 1..hi {
            let here = it.seq[pos];
            let ok = match &it.k.block(here.0).op(here.1).kind {
                // Loads reorder freely with loads.
                OpKind::Load { .. } if load => true,
                OpKind::Load { base, .. } | OpKind::Store { base, .. } => {
                    base.is_some_and(|x| x != Base::Param(param)) || aff.apart(here, m.key)
                }
                kind => !kind.is_memory(),
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

/// Whether test `t` depends on no memory op at or after position `issuer` of the
/// iteration: through its block's operands and, for a variable it reads, every write of
/// the variable earlier in the iteration (a variable not written before is the previous
/// iteration's).
fn computable_before(it: &Iter, t: OpKey, issuer: usize) -> bool {
    let mut todo = vec![t];
    let mut seen = std::collections::HashSet::new();
    while let Some((b, o)) = todo.pop() {
        if !seen.insert((b, o)) {
            continue;
        }
        let blk = it.k.block(b);
        let kind = &blk.op(o).kind;
        let pos = it.pos.get(&(b, o)).copied().unwrap_or(0);
        if kind.is_memory() && pos >= issuer {
            return false;
        }
        if let OpKind::ReadVar(v) = kind {
            todo.extend(it.seq[..pos].iter().filter(
                |(wb, wo)| matches!(it.k.block(*wb).op(*wo).kind, OpKind::WriteVar(x) if x == *v),
            ));
        }
        todo.extend(blk.operands(o).into_iter().map(|a| (b, a)));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::prev_power_of_two;

    #[test]
    fn runs_are_cut_into_powers_of_two() {
        assert_eq!(prev_power_of_two(1), 1);
        assert_eq!(prev_power_of_two(3), 2);
        assert_eq!(prev_power_of_two(4), 4);
        assert_eq!(prev_power_of_two(7), 4);
    }
}

#[cfg(test)]
mod kernel_tests {

    /// The wide groups of the kernel in `src`, as (lanes, bytes) per group.
    fn groups(src: &str) -> Vec<(usize, u32)> {
        crate::compile::compile_for_sim(src)
            .memory
            .wide
            .groups
            .iter()
            .map(|g| (g.lanes.len(), g.bytes()))
            .collect()
    }

    #[test]
    fn an_unrolled_bodys_neighbouring_accesses_become_one_wide_access_each() {
        let src = "__kernel void k(__global const float *x, __global float *y, int n) {\n\
                   __attribute__((opencl_unroll_hint(4)))\n\
                   for (int i = 0; i < n; i++) y[i] = 2.0f * x[i] + y[i];\n}";
        // x's loads, y's loads, y's stores: four floats each.
        assert_eq!(groups(src), [(4, 16), (4, 16), (4, 16)]);
    }

    #[test]
    fn a_store_between_loads_of_the_same_bytes_keeps_them_apart() {
        // y[2i + 1] is loaded after a store to it: one load of y[2i] and y[2i + 1] at
        // the first load would read the old value.
        let src = "__kernel void k(__global float *y, __global float *z, int n, float v) {\n\
                   for (int i = 0; i < n; i++) {\n\
                   float a = y[2 * i]; y[2 * i + 1] = v; float b = y[2 * i + 1];\n\
                   z[i] = a * b; }\n}";
        assert_eq!(groups(src), []);
    }

    #[test]
    fn values_loaded_twice_form_one_wide_access_per_layer() {
        // in[i] is loaded again after the store to out (which might alias it): each of
        // the two loads of every element joins its own 16-byte group.
        let src = "__kernel void k(__global const uint *in, __global uint *out,\n\
                   __global uint *sums) { uint s = 0;\n\
                   __attribute__((opencl_unroll_hint(4)))\n\
                   for (uint i = 0; i < 1000u; i++) { out[i] = in[i] ^ 4u; s = s * 3u + in[i]; }\n\
                   sums[0] = s; }";
        assert_eq!(groups(src), [(4, 16), (4, 16), (4, 16)]);
    }

    #[test]
    fn a_load_group_less_aligned_than_its_size_and_narrower_than_the_unit_splits() {
        // Loop 1's pairs x[i], x[i + 1] with i odd are 8 bytes at a 4-byte boundary;
        // loop 2's groups make x's load unit 16 bytes wide, and such a pair may
        // straddle two of its elements: loop 1's pairs stay single loads.
        let src = |start: u32| {
            format!(
                "__kernel void k(__global const uint *x, __global uint *y) {{\n\
                 __attribute__((opencl_unroll_hint(2)))\n\
                 for (uint i = {start}; i < 101u; i++) y[i] = x[i] + 1u;\n\
                 __attribute__((opencl_unroll_hint(4)))\n\
                 for (uint i = 0; i < 100u; i++) y[i] = x[i] * 3u;\n}}"
            )
        };
        assert_eq!(groups(&src(1)), [(2, 8), (4, 16), (4, 16)]);
        // From 0 the counter is even (writes 0, += 2, and its final 100... all even),
        // so every pair is 8-byte aligned and lies in one 16-byte element.
        assert_eq!(groups(&src(0)), [(2, 8), (2, 8), (4, 16), (4, 16)]);
    }

    #[test]
    fn stores_at_an_offset_past_the_narrowed_sign_bit_still_merge() {
        // `opt` builds `11000 + i` (bytes: 44000 + 4i, below 2^16) at 16 bits, where the
        // constant 44000 has its sign bit set; the address is still 44000 + 4i.
        let src = "__kernel __attribute__((reqd_work_group_size(1, 1, 1)))\n\
                   void k(__global const uint *in, __global uint *out, __global uint *sums) {\n\
                   uint s = 0;\n\
                   __attribute__((opencl_unroll_hint(4)))\n\
                   for (uint i = 0; i < 1000u; i++) { out[11000 + i] = in[i] ^ 4u; s = s * 3u + in[i]; }\n\
                   sums[0] = s; }";
        assert_eq!(groups(src), [(4, 16), (4, 16), (4, 16)]);
    }

    #[test]
    fn guarded_lanes_group_across_their_blocks() {
        // Four lanes, each behind its own `i < n`: one wide access per buffer, each lane
        // keeping its guard.
        let src = "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
                   __attribute__((num_simd_work_items(4)))
                   void k(__global const int *a, __global int *c, int n) {
                   size_t i = get_global_id(0);
                   if (i < n) c[i] = a[i] + 1;
}";
        assert_eq!(groups(src), [(4, 16), (4, 16)]);
        // A guard computed from a load of another lane cannot be known when the first
        // lane's request goes out: b's loads stay single (a's group, c's stores merge).
        let src = "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
                   __attribute__((num_simd_work_items(4)))
                   void k(__global const int *a, __global const int *b, __global int *c) {
                   size_t i = get_global_id(0);
                   if (a[i] > 0) c[i] = b[i];
}";
        assert_eq!(groups(src), [(4, 16), (4, 16)]);
    }

    #[test]
    fn stores_through_the_opt_stages_narrowed_index_arithmetic_still_merge() {
        // The opt stage builds the work-item index at 32 bits and zero-extends it (ids
        // below 2^32 by the launch); the address analysis must see through that. (One
        // lane: the tool's lanes would group across work-items.)
        let src = "__kernel __attribute__((reqd_work_group_size(32, 1, 1)))
                   __attribute__((num_simd_work_items(1)))
                   void k(__global const int *a, __global int *out) {
                   size_t i = get_global_id(0); int x = a[i]; size_t o = i * 4;
                   out[o] = x; out[o + 1] = x + 1; out[o + 2] = x * 3; out[o + 3] = x ^ 5;
}";
        assert_eq!(groups(src), [(4, 16)]);
    }
}
