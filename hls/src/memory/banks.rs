//! Cyclic banks for on-chip memories that a pipelined iteration writes (or reads) more
//! often than their ports allow: word `a` of a memory with N banks lives in bank `a mod N`
//! (`ohls_banked_ram`, one read and one write lane per bank). Accesses of one iteration
//! at constant distances from each other, no two a multiple of N words apart, that move a
//! multiple of N words per iteration hit different banks in every iteration, and so do
//! any of them from different iterations that share a cycle: a *bank group*. The
//! schedulers let a group's accesses share a cycle (a lane each); any other access of the
//! memory takes all N lanes, as it may hit any bank.

use std::collections::BTreeSet;

use crate::analysis::affine::AffineLoop;
use crate::ir::{BlockId, OpId};

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

/// Cycles per iteration the lanes of `banks` banks need for `accesses` of one kind, of
/// which `grouped` form a bank group (a lane each; the others all `banks` lanes).
pub fn lane_cycles(accesses: usize, grouped: usize, banks: u32) -> u64 {
    let n = banks as u64;
    let uses = grouped as u64 + n * (accesses - grouped) as u64;
    uses.div_ceil(n)
}
