//! Interned hide sets (C's "painted blue" rule): the macros a token must not re-expand.

use std::collections::HashMap;

/// A macro name interned for hide sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct MacroSym(pub u32);

/// An interned, sorted set of macro symbols; `HideSet::EMPTY` is the empty set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct HideSet(u32);

impl HideSet {
    pub const EMPTY: HideSet = HideSet(0);
}

/// The table of hide sets. Sets are shared by id, so a token carries four bytes and the
/// set operations done on every expansion are memoized.
#[derive(Debug)]
pub(crate) struct HideSets {
    sets: Vec<Vec<MacroSym>>,
    index: HashMap<Vec<MacroSym>, HideSet>,
    adds: HashMap<(HideSet, MacroSym), HideSet>,
    unions: HashMap<(HideSet, HideSet), HideSet>,
}

impl Default for HideSets {
    fn default() -> Self {
        let mut index = HashMap::new();
        index.insert(Vec::new(), HideSet::EMPTY);
        HideSets {
            sets: vec![Vec::new()],
            index,
            adds: HashMap::new(),
            unions: HashMap::new(),
        }
    }
}

impl HideSets {
    fn get(&self, h: HideSet) -> &[MacroSym] {
        self.sets
            .get(h.0 as usize)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    fn intern(&mut self, v: Vec<MacroSym>) -> HideSet {
        if let Some(h) = self.index.get(&v) {
            return *h;
        }
        let h = HideSet(self.sets.len() as u32);
        self.sets.push(v.clone());
        self.index.insert(v, h);
        h
    }

    pub fn contains(&self, h: HideSet, s: MacroSym) -> bool {
        self.get(h).binary_search(&s).is_ok()
    }

    pub fn add(&mut self, h: HideSet, s: MacroSym) -> HideSet {
        if let Some(r) = self.adds.get(&(h, s)) {
            return *r;
        }
        let mut v = self.get(h).to_vec();
        if let Err(pos) = v.binary_search(&s) {
            v.insert(pos, s);
        }
        let r = self.intern(v);
        self.adds.insert((h, s), r);
        r
    }

    pub fn union(&mut self, a: HideSet, b: HideSet) -> HideSet {
        if a == b || b == HideSet::EMPTY {
            return a;
        }
        if a == HideSet::EMPTY {
            return b;
        }
        if let Some(r) = self.unions.get(&(a, b)) {
            return *r;
        }
        let mut v: Vec<MacroSym> = self.get(a).iter().chain(self.get(b)).copied().collect();
        v.sort_unstable();
        v.dedup();
        let r = self.intern(v);
        self.unions.insert((a, b), r);
        r
    }

    pub fn intersect(&mut self, a: HideSet, b: HideSet) -> HideSet {
        if a == b {
            return a;
        }
        if a == HideSet::EMPTY || b == HideSet::EMPTY {
            return HideSet::EMPTY;
        }
        let other = self.get(b);
        let v: Vec<MacroSym> = self
            .get(a)
            .iter()
            .filter(|s| other.binary_search(s).is_ok())
            .copied()
            .collect();
        self.intern(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut t = HideSets::default();
        let a = t.add(HideSet::EMPTY, MacroSym(3));
        let ab = t.add(a, MacroSym(1));
        let b = t.add(HideSet::EMPTY, MacroSym(1));
        assert!(t.contains(ab, MacroSym(3)) && t.contains(ab, MacroSym(1)));
        assert!(!t.contains(a, MacroSym(1)));
        assert_eq!(t.union(a, b), ab);
        assert_eq!(t.intersect(ab, b), b);
        assert_eq!(t.intersect(a, b), HideSet::EMPTY);
        assert_eq!(t.add(ab, MacroSym(3)), ab);
    }
}
