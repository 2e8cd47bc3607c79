//! Banks for on-chip memories that a pipelined iteration writes (or reads) more often
//! than their ports allow (`ohls_banked_ram`, one read and one write lane per bank). A
//! *bank group* is a set of accesses of one iteration that hit different banks in every
//! iteration, and so do any of them from different iterations that share a cycle. The
//! schedulers let a group's accesses share a cycle (a lane each); any other access of the
//! memory takes all N lanes, as it may hit any bank.
//!
//! Cyclic banks (word `a` in bank `a mod N`): accesses at constant distances from each
//! other, no two a multiple of N words apart, that move a multiple of N words per
//! iteration each stay in one bank (`group`). Block banks (word `a` in bank `a / B`, B
//! words per bank): accesses whose byte ranges over the whole loop (`AffineLoop::span`)
//! fall in disjoint runs of banks (`block_group`), like `t[i]` and `t[i + 64]` of a
//! 128-word array in two blocks while `i < 64`.

use std::collections::BTreeSet;

use crate::analysis::affine::AffineLoop;
use crate::ir::{BlockId, OpId};

use super::Layout;

/// An access: its block and op.
pub type At = (BlockId, OpId);

/// Bank counts tried, smallest first.
pub const BANK_COUNTS: [u32; 3] = [2, 4, 8];

/// The largest bank group among `accesses` (of one kind, to one memory of `word`-byte
/// words) under `banks` cyclic banks; empty when no access is a whole word.
pub fn group(affine: &AffineLoop, accesses: &[At], banks: u32, word: u32) -> BTreeSet<At> {
    let (w, m) = (word as i64, banks as i64 * word as i64);
    let whole = |a: At| affine.width(a) == Some(word as u64);
    let mut best = BTreeSet::new();
    for &r in accesses.iter().filter(|a| whole(**a)) {
        let mut taken = BTreeSet::new();
        let mut g = BTreeSet::new();
        for &a in accesses.iter().filter(|a| whole(**a)) {
            let Some(d) = affine.offset_in_step(r, a, m) else {
                continue;
            };
            if d.rem_euclid(w) == 0 && taken.insert(d.div_euclid(w).rem_euclid(banks as i64)) {
                g.insert(a);
            }
        }
        if g.len() > best.len() {
            best = g;
        }
    }
    best
}

/// The largest bank group among `accesses` (of one kind) to block-banked memory `l`: of
/// its whole-word accesses that stay inside it, those whose runs of banks over the whole
/// loop no two share.
pub fn block_group(affine: &AffineLoop, accesses: &[At], l: &Layout) -> BTreeSet<At> {
    let word = l.word as i64;
    let Ok(bytes) = i64::try_from(l.bank_depth() * l.word as u64) else {
        return BTreeSet::new();
    };
    let size = bytes.saturating_mul(l.banks as i64);
    let runs = accesses
        .iter()
        .filter(|a| affine.width(**a) == Some(l.word as u64))
        .filter_map(|&a| {
            let (lo, hi) = affine.span(a)?;
            let end = hi.checked_add(word - 1)?;
            (lo >= 0 && end < size && bytes > 0).then(|| (lo / bytes, end / bytes, a))
        })
        .collect();
    disjoint(runs)
}

/// The most of `runs` (first and last bank, access) no two of which share a bank: the
/// one ending first, then the next that starts after it, and so on (which is optimal
/// for intervals).
fn disjoint(mut runs: Vec<(i64, i64, At)>) -> BTreeSet<At> {
    runs.sort_by_key(|r| (r.1, r.0, r.2));
    let mut out = BTreeSet::new();
    let mut end = i64::MIN;
    for (lo, hi, a) in runs {
        if lo > end {
            out.insert(a);
            end = hi;
        }
    }
    out
}

/// Cycles per iteration the lanes of `banks` banks need for `accesses` of one kind, of
/// which `grouped` form a bank group (a lane each; the others all `banks` lanes).
pub fn lane_cycles(accesses: usize, grouped: usize, banks: u32) -> u64 {
    let n = banks as u64;
    let uses = grouped as u64 + n * (accesses - grouped) as u64;
    uses.div_ceil(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(i: u32) -> At {
        (BlockId(0), OpId(i.into()))
    }

    #[test]
    fn block_runs_that_share_no_bank_form_the_group() {
        // t[i] in banks 0-1, t[i + 128] in 2-3, t[2i] in 0-3: the first two.
        let g = disjoint(vec![(0, 1, at(0)), (0, 3, at(1)), (2, 3, at(2))]);
        assert_eq!(g, BTreeSet::from([at(0), at(2)]));
        // Runs that meet in bank 1 cannot both be in it; a single bank each can.
        let g = disjoint(vec![(0, 1, at(0)), (1, 2, at(1)), (3, 3, at(2))]);
        assert_eq!(g, BTreeSet::from([at(0), at(2)]));
        let g = disjoint(vec![
            (3, 3, at(0)),
            (1, 1, at(1)),
            (0, 0, at(2)),
            (2, 2, at(3)),
        ]);
        assert_eq!(g.len(), 4);
        // Two accesses in the same bank: one of them.
        assert_eq!(disjoint(vec![(1, 1, at(0)), (1, 1, at(1))]).len(), 1);
    }
}
