//! The `memory` stage: the shape of every on-chip memory (the kernel's objects: private
//! arrays and structs, `__local` arrays, `__constant` tables, the group form's per
//! work-item storage; and `__local` pointer arguments). Per memory it picks the word
//! (the widest piece every access is made of, so one RAM read serves a whole `float`
//! rather than four bytes) and the number of read replicas (copies that every write
//! updates, each with a read port of its own, so that a pipelined iteration reading an
//! array several times still starts every cycle). The scheduler sees the replicas as read
//! ports; the datapath builds the RAMs as planned. Global accesses of one iteration to
//! neighbouring elements of a buffer are grouped into wide accesses (`widen`). A memory
//! that a pipelined iteration writes several times where cyclic banks would let the
//! writes share a cycle is banked instead of replicated (`banks`). The source's
//! `numbanks` / `xcl_array_partition(cyclic | complete, ...)` set cyclic banks,
//! `xcl_array_partition(block, ...)` block banks (runs of consecutive words), and
//! `max_replicates` caps the replicas.

pub mod banks;
pub mod widen;

use std::collections::BTreeMap;

use crate::analysis::loops::shapes;
pub use crate::frontend::sema::BankMapping;
use crate::ir::{Base, Kernel, OpKind, ParamKind};
use crate::opt::ranges::Ranges;

/// The most read replicas of one memory.
pub const MAX_REPLICAS: u32 = 8;
/// Replication stops where the copies of one memory would pass this many bytes.
pub const MAX_REPLICATED_BYTES: u64 = 64 * 1024;
/// The widest RAM word, in bytes.
pub const MAX_WORD: u32 = 32;

/// The plan for every on-chip memory of a kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryPlan {
    pub memories: BTreeMap<Base, Layout>,
    /// Global accesses of one iteration merged into wide ones.
    pub wide: widen::WideAccesses,
    /// The range analysis of the kernel planned (after `opt`), which the address
    /// analysis of the later stages reads (`analysis::affine`).
    pub ranges: Ranges,
    /// The accesses of banked memories that form their loop's bank group (`banks`): each
    /// takes one lane; any other access of a banked memory takes them all.
    pub bank_groups: std::collections::BTreeSet<banks::At>,
}

/// One on-chip memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bytes per RAM word: every access is a whole number of words at a word boundary.
    pub word: u32,
    /// Words per copy (of a block-banked memory: `banks` blocks of a power of two).
    pub depth: u64,
    /// Copies: each has its own read port; every write goes to all of them.
    pub replicas: u32,
    /// Banks (1: none), each with a read and a write lane (`banks`); a banked memory has
    /// one copy.
    pub banks: u32,
    /// Which bank a word is in (cyclic when not banked).
    pub mapping: BankMapping,
}

impl Layout {
    /// Words per bank.
    pub fn bank_depth(&self) -> u64 {
        self.depth.div_ceil(self.banks.max(1) as u64)
    }
}

/// The depth of a memory of `depth` words in `banks` blocks: blocks of a power of two
/// words (at least the two `ohls_banked_ram` needs), so that a word's bank is its
/// address's high bits and its offset the low ones.
pub fn block_depth(depth: u64, banks: u32) -> u64 {
    let n = banks.max(1) as u64;
    depth.div_ceil(n).max(2).next_power_of_two() * n
}

impl MemoryPlan {
    /// Gives the schedulers each memory's ports: read replicas as read ports, banks as
    /// lanes (see `banks`).
    pub fn set_ports(&self, limits: &mut crate::board::oplib::Limits) {
        limits.memory_read_ports = self
            .memories
            .iter()
            .filter(|(_, l)| l.replicas > 1 || l.banks > 1)
            .map(|(b, l)| (*b, l.replicas.max(l.banks)))
            .collect();
        limits.memory_banks = self
            .memories
            .iter()
            .filter(|(_, l)| l.banks > 1)
            .map(|(b, l)| (*b, l.banks))
            .collect();
        limits.memory_bank_groups = self.bank_groups.clone();
    }

    pub fn layout(&self, b: Base) -> Option<&Layout> {
        self.memories.get(&b)
    }
}

/// Plans the on-chip memories of group-form kernel `k`; `__local` pointer arguments hold
/// up to `local_max_bytes`, or as far as `ranges` bound their accesses.
pub fn plan(k: &Kernel, ranges: &Ranges, local_max_bytes: u64, beat_bytes: u32) -> MemoryPlan {
    let mut sizes: BTreeMap<Base, u64> = BTreeMap::new();
    for (i, o) in k.objects.iter().enumerate() {
        sizes.insert(Base::Object(crate::ir::ObjectId(i as u32)), o.size);
    }
    for (i, p) in k.params.iter().enumerate() {
        if p.kind == ParamKind::LocalBuffer {
            let base = Base::Param(i as u32);
            let reach = reach(k, ranges, base).unwrap_or(u64::MAX);
            sizes.insert(base, reach.min(local_max_bytes).max(1));
        }
    }
    // The word: the largest power of two dividing every access's size and offset.
    let mut word: BTreeMap<Base, u32> = sizes.keys().map(|b| (*b, MAX_WORD)).collect();
    for blk in &k.blocks {
        for &o in &blk.order {
            let op = blk.op(o);
            let Some((base, bytes, align)) = access(blk, o) else {
                continue;
            };
            let Some(w) = word.get_mut(&base) else {
                continue;
            };
            let piece = lowbit(bytes).min(lowbit(align));
            *w = (*w).min(piece);
            if matches!(op.kind, OpKind::Atomic { .. }) {
                // An atomic reads and writes its bytes in one state: keep it one word.
                *w = (*w).min(lowbit(bytes));
            }
        }
    }
    // Replicas: the most reads of the memory in one iteration of a loop that holds no
    // loop (a pipeline candidate).
    let candidates: Vec<Candidate> = shapes(k)
        .iter()
        .filter(|s| s.inner.is_empty())
        .map(|s| Candidate::new(k, s, ranges, &sizes))
        .collect();
    let mut reads: BTreeMap<Base, u32> = BTreeMap::new();
    for c in &candidates {
        for (b, (r, _)) in &c.accesses {
            let e = reads.entry(*b).or_default();
            *e = (*e).max(r.len() as u32);
        }
    }
    let atomic = atomic_memories(k);
    let memories = sizes
        .iter()
        .map(|(b, &size)| {
            let w = word[b].max(1);
            let depth = size.div_ceil(w as u64).max(1);
            let copies_fit = (MAX_REPLICATED_BYTES / (depth * w as u64).max(1)).max(1);
            let hints = match b {
                Base::Object(o) => k.object(*o).hints,
                Base::Param(_) => Default::default(),
            };
            let want = reads.get(b).copied().unwrap_or(1).max(1);
            let replicas = want
                .min(MAX_REPLICAS)
                .min(copies_fit as u32)
                .min(hints.max_replicates.unwrap_or(u32::MAX))
                .max(1);
            // `numbanks` / `xcl_array_partition` decide; an atomic keeps one bank.
            let (banks, mapping) = match hints.banks {
                Some(n) if !atomic.contains(b) => (n.max(1), hints.mapping),
                _ if atomic.contains(b) => (1, BankMapping::Cyclic),
                _ => (
                    bank_count(&candidates, *b, w, depth, replicas),
                    BankMapping::Cyclic,
                ),
            };
            let mapping = if banks > 1 {
                mapping
            } else {
                BankMapping::Cyclic
            };
            let depth = match mapping {
                BankMapping::Block => block_depth(depth, banks),
                BankMapping::Cyclic => depth,
            };
            (
                *b,
                Layout {
                    word: w,
                    depth,
                    replicas: if banks > 1 { 1 } else { replicas },
                    banks,
                    mapping,
                },
            )
        })
        .collect::<BTreeMap<Base, Layout>>();
    // Per banked memory and candidate, the group its lanes serve one each.
    let mut bank_groups = std::collections::BTreeSet::new();
    for (b, l) in memories.iter().filter(|(_, l)| l.banks > 1) {
        for c in &candidates {
            if let Some((reads, writes)) = c.accesses.get(b) {
                for a in [reads, writes] {
                    bank_groups.extend(match l.mapping {
                        BankMapping::Cyclic => banks::group(&c.affine, a, l.banks, l.word),
                        BankMapping::Block => banks::block_group(&c.affine, a, l),
                    });
                }
            }
        }
    }
    MemoryPlan {
        memories,
        bank_groups,
        wide: widen::plan(k, beat_bytes, Some(ranges)),
        ranges: ranges.clone(),
    }
}

/// A pipeline candidate (a loop holding no loop): its address analysis and, per on-chip
/// memory, the loads and the stores of one iteration.
struct Candidate {
    affine: crate::analysis::affine::AffineLoop,
    accesses: BTreeMap<Base, (Vec<banks::At>, Vec<banks::At>)>,
}

impl Candidate {
    fn new(
        k: &Kernel,
        s: &crate::analysis::loops::LoopShape,
        ranges: &Ranges,
        memories: &BTreeMap<Base, u64>,
    ) -> Candidate {
        let mut accesses: BTreeMap<Base, (Vec<banks::At>, Vec<banks::At>)> = BTreeMap::new();
        for ib in &s.blocks {
            let blk = k.block(ib.block);
            for &o in &blk.order {
                let (b, load) = match blk.op(o).kind {
                    OpKind::Load { base: Some(b), .. } => (b, true),
                    OpKind::Store { base: Some(b), .. } => (b, false),
                    _ => continue,
                };
                if memories.contains_key(&b) {
                    let e = accesses.entry(b).or_default();
                    if load { &mut e.0 } else { &mut e.1 }.push((ib.block, o));
                }
            }
        }
        Candidate {
            affine: crate::analysis::affine::AffineLoop::new(k, s, Some(ranges)),
            accesses,
        }
    }

    /// Cycles per iteration the ports of memory `b` need: with `replicas` copies and one
    /// write port, or with `banks` cyclic banks.
    fn port_cycles(&self, b: Base, word: u32, replicas: u32, banks: u32) -> u64 {
        let Some((reads, writes)) = self.accesses.get(&b) else {
            return 0;
        };
        if banks <= 1 {
            return (reads.len() as u64)
                .div_ceil(replicas.max(1) as u64)
                .max(writes.len() as u64);
        }
        [reads, writes]
            .iter()
            .map(|a| {
                let g = banks::group(&self.affine, a, banks, word).len();
                banks::lane_cycles(a.len(), g, banks)
            })
            .max()
            .unwrap_or(0)
    }
}

/// The banks of memory `b` (`word`-byte words, `depth` words), or 1: banks only where
/// they make no candidate's port cycles per iteration worse than `replicas` copies, and
/// either one better or the same in fewer M10K blocks (copies multiply the bits, banks
/// split them); the slowest candidate the fastest, then the fewest blocks and banks.
fn bank_count(candidates: &[Candidate], b: Base, word: u32, depth: u64, replicas: u32) -> u32 {
    let cycles = |banks: u32| -> Vec<u64> {
        candidates
            .iter()
            .map(|c| c.port_cycles(b, word, replicas, banks))
            .collect()
    };
    let blocks = |banks: u32, copies: u32| {
        crate::analysis::memories::m10k(8 * word as u64, depth.div_ceil(banks as u64), copies).total
    };
    let copies = cycles(1);
    let copied_blocks = blocks(1, replicas);
    let mut best: Option<(u64, u64, u32)> = None;
    for n in banks::BANK_COUNTS {
        if depth < 2 * n as u64 {
            break;
        }
        let banked = cycles(n);
        let no_worse = banked.iter().zip(&copies).all(|(x, c)| x <= c);
        let m10k = blocks(n, n);
        if !no_worse || (banked == copies && m10k >= copied_blocks) {
            continue;
        }
        let key = (banked.iter().copied().max().unwrap_or(0), m10k, n);
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    best.map_or(1, |(_, _, n)| n)
}

/// Memories an atomic updates: they keep one bank (an atomic reads and writes its word
/// in one state through the controller's port).
fn atomic_memories(k: &Kernel) -> std::collections::BTreeSet<Base> {
    k.blocks
        .iter()
        .flat_map(|blk| blk.graph.node_weights())
        .filter_map(|op| match op.kind {
            OpKind::Atomic { base, .. } => base,
            _ => None,
        })
        .collect()
}

/// The bytes from the start of `__local` argument `base` that its accesses can reach:
/// every address is the argument plus offsets the range analysis bounds. A launch may
/// pass a larger buffer; a kernel reaching past its end is undefined, so the RAM needs
/// no more. `None` when some address is not of that form (a pointer kept in a variable).
fn reach(k: &Kernel, ranges: &Ranges, base: Base) -> Option<u64> {
    let mut most = 0u64;
    for (bi, blk) in k.blocks.iter().enumerate() {
        let b = crate::ir::BlockId(bi as u32);
        for &o in &blk.order {
            let op = blk.op(o);
            let on_base = match op.kind {
                OpKind::Load { base: at, .. }
                | OpKind::Store { base: at, .. }
                | OpKind::Atomic { base: at, .. } => at == Some(base),
                _ => false,
            };
            if !on_base {
                continue;
            }
            let bytes = match &op.kind {
                OpKind::Store { .. } => blk.op(blk.operands(o)[1]).ty.as_ref()?.store_size(),
                _ => op.ty.as_ref()?.store_size(),
            };
            let from = offset(blk, b, ranges, blk.operands(o)[0])?;
            most = most.max(from.checked_add(bytes)?);
        }
    }
    Some(most)
}

/// The largest byte offset of pointer `p` (in block `b`) from the `__local` argument it
/// is built on.
fn offset(
    blk: &crate::ir::Block,
    b: crate::ir::BlockId,
    ranges: &Ranges,
    p: crate::ir::OpId,
) -> Option<u64> {
    match blk.op(p).kind {
        OpKind::Param(_) => Some(0),
        OpKind::PtrAdd => {
            let a = blk.operands(p);
            offset(blk, b, ranges, a[0])?.checked_add(ranges.op(b, a[1])?)
        }
        _ => None,
    }
}

/// A load, store or atomic on memory `base`: its bytes and alignment.
fn access(blk: &crate::ir::Block, o: crate::ir::OpId) -> Option<(Base, u32, u32)> {
    let op = blk.op(o);
    let (base, align, load) = match &op.kind {
        OpKind::Load { base, align, .. } => (*base, *align, true),
        OpKind::Store { base, align, .. } => (*base, *align, false),
        OpKind::Atomic { base, .. } => (*base, 0, true),
        _ => return None,
    };
    let ty = if load {
        op.ty.clone()
    } else {
        let v = *blk.operands(o).get(1)?;
        blk.op(v).ty.clone()
    };
    let bytes = ty.map(|t| t.bits().div_ceil(8)).unwrap_or(1).max(1);
    // An atomic is naturally aligned (OpenCL requires it).
    let align = if align == 0 { bytes } else { align };
    Some((base?, bytes, align))
}

/// The largest power of two dividing `x` (`x` > 0).
fn lowbit(x: u32) -> u32 {
    1 << x.max(1).trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_of(src: &str) -> (Kernel, MemoryPlan) {
        let c = crate::frontend::check_source("k.cl", src, &Default::default());
        assert!(!c.has_errors(), "{:?}", c.diags.list);
        let p = c.program.as_ref().expect("a program");
        let m = crate::lower::lower(p, &c.sources).expect("lowers");
        let k = m.kernels[0].clone();
        let g = crate::workitems::to_group_form(&k).expect("group form");
        let ranges = crate::opt::ranges::analyze(&g.kernel, &crate::opt::ranges::Launch::of(&g));
        let p = plan(&g.kernel, &ranges, 1024, 32);
        (g.kernel, p)
    }

    fn by_name<'a>(k: &Kernel, p: &'a MemoryPlan, name: &str) -> &'a Layout {
        let i = k
            .objects
            .iter()
            .position(|o| o.name == name)
            .unwrap_or_else(|| panic!("no object {name}"));
        &p.memories[&Base::Object(crate::ir::ObjectId(i as u32))]
    }

    #[test]
    fn a_float_array_gets_float_words_and_a_replica_per_read_of_an_iteration() {
        let (k, p) = plan_of(
            "__kernel __attribute__((reqd_work_group_size(16, 1, 1)))
             void s(__global float *o) {
                 __local float t[18];
                 int i = get_local_id(0);
                 t[i + 1] = o[i];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 o[i] = t[i] + t[i + 1] + t[i + 2];
             }",
        );
        let t = by_name(&k, &p, "t");
        assert_eq!((t.word, t.depth, t.replicas), (4, 18, 3));
    }

    #[test]
    fn a_local_argument_holds_what_its_bounded_accesses_reach() {
        // Inside the loop the work-item counter is at most 63 and s <= 32: the highest
        // int reached is scratch[95].
        let (_, p) = plan_of(
            "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
             void r(__global int *o, __local int *scratch) {
                 uint lid = get_local_id(0);
                 scratch[lid] = o[lid];
                 barrier(CLK_LOCAL_MEM_FENCE);
                 for (uint s = 32; s > 0; s >>= 1) {
                     if (lid < s)
                         scratch[lid] += scratch[lid + s];
                     barrier(CLK_LOCAL_MEM_FENCE);
                 }
                 o[lid] = scratch[lid];
             }",
        );
        let l = &p.memories[&Base::Param(1)];
        assert_eq!((l.word, l.depth, l.replicas), (4, 96, 2));
        // An index the analysis cannot bound (signed, may be negative) keeps the maximum.
        let (_, p) = plan_of(
            "__kernel void r(__global int *o, __local int *scratch, int k) {
                 scratch[get_local_id(0) + k] = 1;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 o[0] = scratch[0];
             }",
        );
        assert_eq!(p.memories[&Base::Param(1)].depth, 1024 / 4);
    }

    #[test]
    fn four_stores_to_neighbouring_words_bank_the_array_four_ways() {
        let (k, p) = plan_of(
            "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
             void s(__global uint *o) {
                 __local uint t[256];
                 uint l = get_local_id(0);
                 uint v = o[get_global_id(0)];
                 t[4 * l] = v; t[4 * l + 1] = v + 1; t[4 * l + 2] = v + 2; t[4 * l + 3] = v;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 o[get_global_id(0)] = t[4 * (63 - l)] + t[4 * (63 - l) + 1]
                     + t[4 * (63 - l) + 2] + t[4 * (63 - l) + 3];
             }",
        );
        let t = by_name(&k, &p, "t");
        assert_eq!((t.word, t.depth, t.replicas, t.banks), (4, 256, 1, 4));
    }

    #[test]
    fn stores_at_data_dependent_words_keep_one_bank() {
        // No bank count keeps the five stores apart: the array stays one RAM (II 5).
        let (k, p) = plan_of(
            "__kernel __attribute__((reqd_work_group_size(32, 1, 1)))
             void s(__global uint *o) {
                 __local uint t[128];
                 uint l = get_local_id(0);
                 uint v = o[get_global_id(0)];
                 uint r = v & 3;
                 t[4 * l + r] = 1; t[4 * l + ((r + 1) & 3)] = 2;
                 t[4 * l + ((r + 2) & 3)] = 3; t[4 * l + ((r + 3) & 3)] = 4;
                 t[4 * l + ((v >> 2) & 3)] = 5;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 o[get_global_id(0)] = t[4 * ((l + 1) % 32)];
             }",
        );
        assert_eq!(by_name(&k, &p, "t").banks, 1);
    }

    #[test]
    fn banks_that_would_slow_another_loop_are_not_chosen() {
        // Banks would let the two stores share a cycle, but the second loop's two loads
        // (one lane apart from nothing: `k` is unknown) would then take every lane each
        // where two read replicas serve them in one cycle.
        let (k, p) = plan_of(
            "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
             void s(__global uint *o, uint k) {
                 __local uint t[128];
                 uint l = get_local_id(0);
                 t[2 * l] = o[l]; t[2 * l + 1] = l;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 o[l] = t[l] + t[(l * k) & 127];
             }",
        );
        let t = by_name(&k, &p, "t");
        assert_eq!((t.banks, t.replicas), (1, 2));
    }

    #[test]
    fn a_large_array_read_in_groups_is_banked_rather_than_copied() {
        // Four reads per work-item at neighbouring words: four copies of 16 KiB or four
        // banks of 4 KiB serve them at the same II; the banks take a quarter of the M10Ks.
        let (k, p) = plan_of(
            "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
             void s(__global uint *o) {
                 __local uint t[4096];
                 uint l = get_local_id(0);
                 for (uint i = l; i < 4096; i += 64)
                     t[i] = i;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 o[l] = t[4 * l] + t[4 * l + 1] + t[4 * l + 2] + t[4 * l + 3];
             }",
        );
        let t = by_name(&k, &p, "t");
        assert_eq!((t.replicas, t.banks), (1, 4));
    }

    #[test]
    fn block_banks_group_accesses_that_stay_in_different_blocks() {
        // t[l] stays in the first half and t[l + 64] in the second: two blocks serve
        // both stores of an iteration, and both loads, in one cycle. u[l] and u[l + 32]
        // may both be in block 0 (l < 64): not a group; nor is t's data-dependent load.
        let (k, p) = plan_of(
            "__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
             void s(__global uint *o) {
                 __local uint t[128] __attribute__((xcl_array_partition(block, 2, 1)));
                 __local uint u[128] __attribute__((xcl_array_partition(block, 2, 1)));
                 uint l = get_local_id(0);
                 uint v = o[get_global_id(0)];
                 t[l] = v; t[l + 64] = v + 1;
                 u[l] = v; u[l + 32] = v + 2;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 o[get_global_id(0)] = t[63 - l] + t[l + 64] + u[l] + u[l + 32] + t[v & 127];
             }",
        );
        let t = by_name(&k, &p, "t");
        assert_eq!(
            (t.word, t.depth, t.banks, t.mapping),
            (4, 128, 2, BankMapping::Block)
        );
        let on = |name: &str| {
            let i = k.objects.iter().position(|o| o.name == name).unwrap();
            let b = Base::Object(crate::ir::ObjectId(i as u32));
            p.bank_groups
                .iter()
                .filter(|(blk, o)| match k.block(*blk).op(*o).kind {
                    OpKind::Load { base, .. } | OpKind::Store { base, .. } => base == Some(b),
                    _ => false,
                })
                .count()
        };
        // t: two stores and two of the three loads; u: one store and one load (a group of
        // one takes one lane).
        assert_eq!(on("t"), 4);
        assert_eq!(on("u"), 2);
    }

    #[test]
    fn block_banks_are_a_power_of_two_words_each() {
        // 96 words in 4 blocks: 32 words each (the last one unused), bank = address >> 5.
        assert_eq!(block_depth(96, 4), 128);
        assert_eq!(block_depth(128, 2), 128);
        assert_eq!(block_depth(3, 2), 4);
    }

    #[test]
    fn a_byte_access_makes_byte_words() {
        let (k, p) = plan_of(
            "__kernel void s(__global uchar *o) {
                 __local uint t[4];
                 t[get_local_id(0) & 3] = 1;
                 barrier(CLK_LOCAL_MEM_FENCE);
                 o[get_global_id(0)] = ((__local uchar *)t)[get_local_id(0) & 15];
             }",
        );
        assert_eq!(by_name(&k, &p, "t").word, 1);
    }
}
