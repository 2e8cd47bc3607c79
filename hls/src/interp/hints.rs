//! Checking `ivdep` promises: while a loop with an ivdep hint runs, every byte its
//! iterations read or write through memory ops is recorded with the last two distinct
//! iterations that read and wrote it; an access that depends on an earlier iteration
//! closer than `safelen` (any earlier iteration for plain ivdep) breaks the promise.

use std::collections::HashMap;

use crate::diag::Span;
use crate::ir::LoopId;

/// What one loop promises.
#[derive(Clone, Debug)]
pub struct Promise {
    pub safelen: Option<u64>,
    /// Base words the promise covers (`None`: all memory).
    pub arrays: Option<Vec<u64>>,
    pub span: Span,
}

const NONE: u64 = u64::MAX;

/// The last and the previous distinct iteration that read / wrote a byte.
#[derive(Clone, Copy)]
struct History {
    read: [u64; 2],
    write: [u64; 2],
}

impl History {
    fn note(slot: &mut [u64; 2], it: u64) {
        if slot[0] != it {
            slot[1] = slot[0];
            slot[0] = it;
        }
    }

    /// The latest iteration other than `it` in a history.
    fn other(slot: &[u64; 2], it: u64) -> u64 {
        if slot[0] == it {
            slot[1]
        } else {
            slot[0]
        }
    }
}

#[derive(Clone)]
struct Active {
    l: LoopId,
    iter: u64,
    bytes: HashMap<(u64, u64), History>,
}

/// A broken promise: the message and the loop's span.
pub struct Broken {
    pub message: String,
    pub span: Span,
}

#[derive(Clone)]
pub struct IvdepState {
    promises: Vec<Option<Promise>>,
    /// How to name each base word in messages.
    names: HashMap<u64, String>,
    active: Vec<Active>,
}

impl IvdepState {
    pub fn new(promises: Vec<Option<Promise>>, names: HashMap<u64, String>) -> IvdepState {
        IvdepState {
            promises,
            names,
            active: Vec::new(),
        }
    }

    pub fn is_active(&self) -> bool {
        !self.active.is_empty()
    }

    /// Drops loops left without passing their exit (a break or return out of them).
    fn unwind_to(&mut self, l: LoopId) -> Option<usize> {
        let pos = self.active.iter().rposition(|a| a.l == l)?;
        self.active.truncate(pos + 1);
        Some(pos)
    }

    pub fn enter(&mut self, l: LoopId) {
        if let Some(pos) = self.unwind_to(l) {
            self.active.truncate(pos);
        }
        self.active.push(Active {
            l,
            iter: NONE,
            bytes: HashMap::new(),
        });
    }

    pub fn iterate(&mut self, l: LoopId) {
        if let Some(pos) = self.unwind_to(l) {
            let a = &mut self.active[pos];
            a.iter = a.iter.wrapping_add(1);
        }
    }

    pub fn exit(&mut self, l: LoopId) {
        if let Some(pos) = self.unwind_to(l) {
            self.active.truncate(pos);
        }
    }

    /// Every work-item starts outside all loops.
    pub fn reset(&mut self) {
        self.active.clear();
    }

    pub fn access(&mut self, base: u64, off: u64, size: usize, write: bool) -> Result<(), Broken> {
        for a in &mut self.active {
            let Some(Some(p)) = self.promises.get(a.l.0 as usize) else {
                continue;
            };
            if p.arrays.as_ref().is_some_and(|v| !v.contains(&base)) || a.iter == NONE {
                continue;
            }
            let j = a.iter;
            for b in off..off + size as u64 {
                let h = a.bytes.entry((base, b)).or_insert(History {
                    read: [NONE; 2],
                    write: [NONE; 2],
                });
                let w = History::other(&h.write, j);
                let r = if write {
                    History::other(&h.read, j)
                } else {
                    NONE
                };
                // The closest earlier iteration that conflicts.
                let (i, what) = match (w, r) {
                    (NONE, NONE) => (NONE, ""),
                    (w, NONE) => (w, "written"),
                    (NONE, r) => (r, "read"),
                    (w, r) if w >= r => (w, "written"),
                    (_, r) => (r, "read"),
                };
                if i != NONE && i < j {
                    let d = j - i;
                    if p.safelen.is_none_or(|s| d < s) {
                        let name = self
                            .names
                            .get(&base)
                            .cloned()
                            .unwrap_or_else(|| "memory".into());
                        let bound = match p.safelen {
                            Some(s) => format!("distance {d} < safelen {s}"),
                            None => format!("distance {d}; ivdep without safelen promises none"),
                        };
                        return Err(Broken {
                            message: format!(
                                "ivdep promise broken: iteration {j} {} byte {b} of {name} {what} by iteration {i} ({bound})",
                                if write { "writes" } else { "reads" }
                            ),
                            span: p.span,
                        });
                    }
                }
                if write {
                    History::note(&mut h.write, j);
                } else {
                    History::note(&mut h.read, j);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(safelen: Option<u64>) -> IvdepState {
        let p = Promise {
            safelen,
            arrays: None,
            span: Span::default(),
        };
        IvdepState::new(
            vec![Some(p)],
            HashMap::from([(1, "buffer 'a'".to_string())]),
        )
    }

    #[test]
    fn distance_against_safelen() {
        let l = LoopId(0);
        // a[i + 4] = a[i]: distance 4.
        for (safelen, broken) in [(Some(4), false), (Some(5), true), (None, true)] {
            let mut s = state(safelen);
            s.enter(l);
            let mut err = None;
            for i in 0..10u64 {
                s.iterate(l);
                if let Err(e) = s
                    .access(1, i * 4, 4, false)
                    .and_then(|_| s.access(1, (i + 4) * 4, 4, true))
                {
                    err = Some(e.message);
                    break;
                }
            }
            assert_eq!(err.is_some(), broken, "{safelen:?}: {err:?}");
            if let Some(m) = err {
                assert!(
                    m.contains("iteration 4 reads byte 16 of buffer 'a' written by iteration 0"),
                    "{m}"
                );
            }
        }
    }

    #[test]
    fn anti_dependence_after_own_read() {
        // Iteration 0 reads x; iteration 1 reads then writes x: the write conflicts with
        // iteration 0's read even though iteration 1 read it last.
        let l = LoopId(0);
        let mut s = state(None);
        s.enter(l);
        s.iterate(l);
        assert!(s.access(1, 0, 4, false).is_ok());
        s.iterate(l);
        assert!(s.access(1, 0, 4, false).is_ok());
        let e = s
            .access(1, 0, 4, true)
            .err()
            .map(|b| b.message)
            .unwrap_or_default();
        assert!(
            e.contains("writes byte 0") && e.contains("read by iteration 0"),
            "{e}"
        );
    }

    #[test]
    fn same_iteration_is_fine() {
        let l = LoopId(0);
        let mut s = state(None);
        s.enter(l);
        for i in 0..4 {
            s.iterate(l);
            assert!(s.access(1, i * 4, 4, false).is_ok());
            assert!(s.access(1, i * 4, 4, true).is_ok());
        }
    }
}
