//! The per-memory report (issue 14): for each on-chip memory the RAM the `memory` stage
//! planned (word, depth, read replicas, ports), an estimate of the Cyclone V M10K blocks
//! it takes, and the pipelined loops whose II its ports bound, with the accesses' source
//! lines and the II that costs. Computed from the stage results and the loop analysis's
//! per-resource bounds; nothing is re-run or read back from text.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::diag::SourceMap;
use crate::ir::{Base, Kernel, LoopId, OpKind, ParamKind};
use crate::rtl::netlist::SrcLoc;
use crate::schedule::{MemKey, Resource};

use super::mii::{base_name, ResBound};
use super::LoopReport;

/// One on-chip memory, as `report.json`, the build summary and `report.html` show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemoryReport {
    /// The source name (`__wi_*` for the group form's per-work-item storage).
    pub name: String,
    /// "__local", "__private", "__constant", or "__local argument" for a `__local`
    /// pointer argument (sized by the memory plan from its accesses, not by a launch).
    pub space: String,
    /// `file:line:col` of the declaration, when a source file holds it.
    pub location: Option<String>,
    pub line: Option<u32>,
    /// Bytes per RAM word.
    pub word_bytes: u32,
    /// Words per copy.
    pub depth: u64,
    /// Copies, each with its own read port; every write goes to all of them.
    pub replicas: u32,
    /// Banks (1: none), each a read and a write lane (`memory::banks`).
    pub banks: u32,
    /// Which bank a word is in: "cyclic" (word `a` in bank `a mod banks`) or "block"
    /// (`banks` runs of consecutive words).
    pub mapping: String,
    /// The word `bankwidth(N)` asked for, when the plan built a narrower one (an access
    /// of the memory narrower than its element: a word is the widest piece every access
    /// is made of).
    pub bankwidth_not_built: Option<u32>,
    pub read_ports: u32,
    pub write_ports: u32,
    /// Bits of one copy (`8 * word_bytes * depth`).
    pub bits: u64,
    pub m10k: M10k,
    /// Accesses in the group form (what the hardware runs).
    pub loads: u32,
    pub stores: u32,
    pub atomics: u32,
    /// Pipelined loops whose II this memory's ports raise.
    pub conflicts: Vec<Conflict>,
}

/// How many Cyclone V M10K blocks (10,240 bits each; the DE10 boards' block RAM) the
/// memory takes if every copy is placed in M10Ks.
///
/// An M10K in simple dual-port mode (one read and one write port, as `ohls_ram_1r1w`)
/// is 8K x 1, 4K x 2, 2K x 5, 1K x 10, 512 x 20 or 256 x 40. For a copy of `w` bits by
/// `d` words, a shape of `sd` words by `sw` bits needs `ceil(w / sw) * ceil(d / sd)`
/// blocks; the estimate takes the shape needing the fewest (the first listed on a tie)
/// and multiplies by the replicas. Quartus may put a small memory in MLABs or registers
/// instead, so for those this is an upper bound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct M10k {
    /// The shape chosen, "512 x 20" (words x bits).
    pub shape: String,
    pub per_replica: u64,
    pub total: u64,
}

/// A pipelined loop whose II one memory's read or write ports bound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Conflict {
    pub loop_id: u32,
    pub loop_name: String,
    pub loop_location: String,
    /// "read" or "write".
    pub port: String,
    pub ports: u32,
    /// How many accesses of one iteration hold these ports.
    pub count: u32,
    /// The accesses holding those ports in one iteration, `file:line:col` in program
    /// order, with "(xN)" where N copies share a location (an unrolled body).
    pub accesses: Vec<String>,
    /// The source line of the first of them.
    pub line: u32,
    /// The II these ports allow on their own (port cycles over ports, rounded up).
    pub bound: u32,
    /// The loop's scheduled II.
    pub ii: u32,
    /// The II the loop's other bounds allow (other units and ports, recurrences): the
    /// best the loop could do were this memory's ports no limit.
    pub ii_without: u32,
    /// `ii - ii_without`: cycles per iteration the conflict costs.
    pub costs: u32,
}

/// Per analysed innermost loop, what its resources allow on their own.
pub(crate) struct LoopBounds {
    pub id: LoopId,
    pub res: Vec<ResBound>,
    pub rec_ii: u32,
}

/// Cyclone V M10K shapes in simple dual-port mode: (words, bits).
const M10K_SHAPES: [(u64, u64); 6] = [
    (8192, 1),
    (4096, 2),
    (2048, 5),
    (1024, 10),
    (512, 20),
    (256, 40),
];

/// The M10K estimate of `replicas` copies of `width_bits` x `depth`.
pub fn m10k(width_bits: u64, depth: u64, replicas: u32) -> M10k {
    let (w, d) = (width_bits.max(1), depth.max(1));
    let mut best: Option<(u64, (u64, u64))> = None;
    for (sd, sw) in M10K_SHAPES {
        let n = w.div_ceil(sw).saturating_mul(d.div_ceil(sd));
        if best.is_none_or(|b| n < b.0) {
            best = Some((n, (sd, sw)));
        }
    }
    let (n, (sd, sw)) = best.unwrap_or((0, (0, 0)));
    M10k {
        shape: format!("{sd} x {sw}"),
        per_replica: n,
        total: n.saturating_mul(replicas as u64),
    }
}

/// The report of every on-chip memory of group-form kernel `g` that the hardware
/// accesses (an object no op touches, such as a private array the `loops` stage put in
/// registers, is left out: its RAM has nothing to do and synthesis removes it).
pub(crate) fn report(
    g: &Kernel,
    sm: &SourceMap,
    memory: &crate::memory::MemoryPlan,
    loops: &[LoopReport],
    bounds: &[LoopBounds],
) -> Vec<MemoryReport> {
    let counts = access_counts(g);
    let mut out = Vec::new();
    for (&b, l) in &memory.memories {
        let Some(&(loads, stores, atomics)) = counts.get(&b) else {
            continue;
        };
        let (space, span) = match b {
            Base::Param(i) => {
                let p = g.params.get(i as usize);
                let local = p.is_some_and(|p| p.kind == ParamKind::LocalBuffer);
                let space = if local {
                    "__local argument".to_string()
                } else {
                    "argument".to_string()
                };
                (space, p.map(|p| p.span))
            }
            Base::Object(o) => match g.objects.get(o.0 as usize) {
                Some(x) => (x.space.name().to_string(), Some(x.span)),
                None => ("?".to_string(), None),
            },
        };
        // A span no compiled file holds (an object the group form added) has no line.
        let loc = span
            .filter(|s| (s.file.0 as usize) < sm.files().count())
            .map(|s| SrcLoc::of_span(sm, s));
        let bits = 8 * l.word as u64 * l.depth;
        out.push(MemoryReport {
            name: base_name(g, b),
            space,
            location: loc.as_ref().map(ToString::to_string),
            line: loc.as_ref().map(|x| x.line),
            word_bytes: l.word,
            depth: l.depth,
            replicas: l.replicas,
            banks: l.banks,
            mapping: l.mapping.name().to_string(),
            bankwidth_not_built: match b {
                Base::Object(o) => g.objects.get(o.0 as usize).and_then(|x| x.hints.bankwidth),
                Base::Param(_) => None,
            }
            .filter(|w| *w != l.word),
            // The datapath builds each copy as `ohls_ram_1r1w`: one read port per copy,
            // one write port shared by all; or the banks, a read and a write lane each.
            read_ports: l.replicas.max(l.banks),
            write_ports: l.banks,
            bits,
            m10k: if l.banks > 1 {
                m10k(8 * l.word as u64, l.depth.div_ceil(l.banks as u64), l.banks)
            } else {
                m10k(8 * l.word as u64, l.depth, l.replicas)
            },
            loads,
            stores,
            atomics,
            conflicts: conflicts(b, loops, bounds),
        });
    }
    out
}

/// Loads, stores and atomics per memory in `g`.
fn access_counts(g: &Kernel) -> BTreeMap<Base, (u32, u32, u32)> {
    let mut out: BTreeMap<Base, (u32, u32, u32)> = BTreeMap::new();
    for blk in &g.blocks {
        for &o in &blk.order {
            match blk.op(o).kind {
                OpKind::Load { base: Some(b), .. } => out.entry(b).or_default().0 += 1,
                OpKind::Store { base: Some(b), .. } => out.entry(b).or_default().1 += 1,
                OpKind::Atomic { base: Some(b), .. } => out.entry(b).or_default().2 += 1,
                _ => {}
            }
        }
    }
    out
}

/// The pipelined loops whose II memory `b`'s ports raise above what everything else
/// allows.
fn conflicts(b: Base, loops: &[LoopReport], bounds: &[LoopBounds]) -> Vec<Conflict> {
    let mine = |r: Resource| matches!(r, Resource::ReadPort(MemKey::Base(x)) | Resource::WritePort(MemKey::Base(x)) if x == b);
    let mut out = Vec::new();
    for lb in bounds {
        let Some(lr) = loops.iter().find(|r| r.id == lb.id.0) else {
            continue;
        };
        let Some(ii) = lr.scheduled_ii.filter(|_| lr.pipelined) else {
            continue;
        };
        let ii_without = lb
            .res
            .iter()
            .filter(|u| !mine(u.resource))
            .map(|u| u.ii)
            .chain([lb.rec_ii, 1])
            .max()
            .unwrap_or(1);
        for u in lb.res.iter().filter(|u| mine(u.resource)) {
            if u.ii <= ii_without {
                continue;
            }
            let port = match u.resource {
                Resource::ReadPort(_) => "read",
                _ => "write",
            };
            out.push(Conflict {
                loop_id: lr.id,
                loop_name: lr.name.clone(),
                loop_location: lr.location.clone(),
                port: port.to_string(),
                ports: u.cap,
                count: u.ops.len() as u32,
                accesses: grouped(&u.ops),
                line: u.ops.first().map(|x| x.line).unwrap_or(lr.line),
                bound: u.ii,
                ii,
                ii_without,
                costs: ii.saturating_sub(ii_without),
            });
        }
    }
    out
}

/// Locations in order of first appearance, "(xN)" after one shared by N accesses.
fn grouped(locs: &[SrcLoc]) -> Vec<String> {
    let mut seen: Vec<(String, usize)> = Vec::new();
    for l in locs {
        let s = l.to_string();
        match seen.iter_mut().find(|x| x.0 == s) {
            Some(x) => x.1 += 1,
            None => seen.push((s, 1)),
        }
    }
    seen.into_iter()
        .map(|(s, n)| if n > 1 { format!("{s} (x{n})") } else { s })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn m10k_takes_the_shape_with_fewest_blocks() {
        // 32-bit words, 64 deep: one 256 x 40 block.
        assert_eq!(
            m10k(32, 64, 1),
            M10k {
                shape: "256 x 40".into(),
                per_replica: 1,
                total: 1
            }
        );
        // 8-bit words, 1024 deep: one 1K x 10 block, per copy.
        let m = m10k(8, 1024, 3);
        assert_eq!(
            (m.shape.as_str(), m.per_replica, m.total),
            ("1024 x 10", 1, 3)
        );
        // 32 x 4096: seven 5-bit slices of two 2K x 5 blocks (14), where 1K x 10 or
        // 256 x 40 take 16 and 8K x 1 takes 32.
        let m = m10k(32, 4096, 2);
        assert_eq!(
            (m.shape.as_str(), m.per_replica, m.total),
            ("2048 x 5", 14, 28)
        );
    }
}
