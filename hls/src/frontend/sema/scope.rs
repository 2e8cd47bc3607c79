//! Nested scopes (file, function, block, for-init) for ordinary identifiers and for the
//! tags of structs, unions and enums.

use std::collections::HashMap;

use crate::frontend::types::{EnumId, RecordId};

use super::program::SymbolId;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    Record(RecordId),
    Enum(EnumId),
}

#[derive(Default, Debug)]
struct Frame {
    names: HashMap<String, SymbolId>,
    tags: HashMap<String, Tag>,
}

#[derive(Debug)]
pub struct Scopes {
    frames: Vec<Frame>,
}

impl Default for Scopes {
    fn default() -> Self {
        Scopes {
            frames: vec![Frame::default()],
        }
    }
}

impl Scopes {
    pub fn push(&mut self) {
        self.frames.push(Frame::default());
    }

    pub fn pop(&mut self) {
        if self.frames.len() > 1 {
            self.frames.pop();
        }
    }

    /// 1 at file scope, 2 in a function's outermost block, more inside nested blocks.
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    pub fn at_file_scope(&self) -> bool {
        self.frames.len() == 1
    }

    pub fn lookup(&self, name: &str) -> Option<SymbolId> {
        self.frames
            .iter()
            .rev()
            .find_map(|f| f.names.get(name).copied())
    }

    /// The symbol of this name declared in the innermost scope, if any.
    pub fn lookup_here(&self, name: &str) -> Option<SymbolId> {
        self.frames.last().and_then(|f| f.names.get(name).copied())
    }

    pub fn declare(&mut self, name: &str, sym: SymbolId) {
        if let Some(f) = self.frames.last_mut() {
            f.names.insert(name.to_string(), sym);
        }
    }

    pub fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.frames
            .iter()
            .rev()
            .find_map(|f| f.tags.get(name).copied())
    }

    pub fn lookup_tag_here(&self, name: &str) -> Option<Tag> {
        self.frames.last().and_then(|f| f.tags.get(name).copied())
    }

    pub fn declare_tag(&mut self, name: &str, tag: Tag) {
        if let Some(f) = self.frames.last_mut() {
            f.tags.insert(name.to_string(), tag);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_scopes_shadow_and_pop() {
        let mut s = Scopes::default();
        s.declare("x", SymbolId(0));
        s.push();
        assert_eq!(s.lookup("x"), Some(SymbolId(0)));
        assert_eq!(s.lookup_here("x"), None);
        s.declare("x", SymbolId(1));
        assert_eq!(s.lookup("x"), Some(SymbolId(1)));
        s.pop();
        assert_eq!(s.lookup("x"), Some(SymbolId(0)));
        s.pop();
        assert!(s.at_file_scope());
    }
}
