//! A set of boards (the built-in ones or a folder of board files) and lookup by name or
//! alias.

use std::path::Path;

use super::builtin;
use super::load::{load_file, parse, BoardError};
use super::types::Board;

#[derive(Clone, Debug)]
pub struct BoardSet {
    /// Sorted by name.
    pub boards: Vec<Board>,
}

impl BoardSet {
    /// The boards compiled into the binary (the repository's `boards/`).
    pub fn builtin() -> Result<BoardSet, Vec<BoardError>> {
        let mut boards = Vec::new();
        let mut errors = Vec::new();
        for (file, text) in builtin::FILES {
            match parse(text, &Path::new("<builtin>").join(file)) {
                Ok(b) => boards.push(b),
                Err(e) => errors.extend(e),
            }
        }
        BoardSet::finish(boards, errors)
    }

    /// Every `*.yaml` file of a folder; all files are read and every error returned.
    pub fn load_dir(dir: &Path) -> Result<BoardSet, Vec<BoardError>> {
        let entries = std::fs::read_dir(dir).map_err(|e| {
            vec![BoardError::new(
                dir,
                None,
                format!("cannot read the folder: {e}"),
            )]
        })?;
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
        paths.sort();
        let mut boards = Vec::new();
        let mut errors = Vec::new();
        for p in paths {
            match load_file(&p) {
                Ok(b) => boards.push(b),
                Err(e) => errors.extend(e),
            }
        }
        if boards.is_empty() && errors.is_empty() {
            errors.push(BoardError::new(dir, None, "no board files (*.yaml) here"));
        }
        BoardSet::finish(boards, errors)
    }

    /// Sorts the boards and rejects a name or alias used twice.
    fn finish(
        mut boards: Vec<Board>,
        mut errors: Vec<BoardError>,
    ) -> Result<BoardSet, Vec<BoardError>> {
        boards.sort_by(|a, b| a.name.cmp(&b.name));
        let mut seen: Vec<(&str, &Board)> = Vec::new();
        for b in &boards {
            for n in std::iter::once(&b.name).chain(&b.aliases) {
                if let Some((_, first)) = seen.iter().find(|(s, _)| *s == n.as_str()) {
                    errors.push(BoardError::new(
                        &b.path,
                        None,
                        format!("the name `{n}` is already used by {}", first.path.display()),
                    ));
                } else {
                    seen.push((n, b));
                }
            }
        }
        if errors.is_empty() {
            Ok(BoardSet { boards })
        } else {
            Err(errors)
        }
    }

    /// The board called `name` or having it as an alias.
    pub fn get(&self, name: &str) -> Option<&Board> {
        self.boards
            .iter()
            .find(|b| b.name == name || b.aliases.iter().any(|a| a == name))
    }

    /// Like [`get`](Self::get), with an error listing the known boards.
    pub fn resolve(&self, name: &str) -> Result<&Board, String> {
        self.get(name).ok_or_else(|| {
            let names: Vec<&str> = self.boards.iter().map(|b| b.name.as_str()).collect();
            format!("unknown board `{name}`; known boards: {}", names.join(", "))
        })
    }
}
