//! Reading board files: YAML text to a [`Board`], with errors that name the file, the
//! line and column and the field; then the checks serde cannot make (see `validate`).

use std::fmt;
use std::path::{Path, PathBuf};

use super::types::Board;
use super::validate::validate;

/// A problem with one board file.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardError {
    pub file: PathBuf,
    /// 1-based line and column, when known.
    pub line_col: Option<(usize, usize)>,
    pub message: String,
}

impl BoardError {
    pub fn new(file: &Path, line_col: Option<(usize, usize)>, message: impl Into<String>) -> Self {
        BoardError {
            file: file.to_path_buf(),
            line_col,
            message: message.into(),
        }
    }
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line_col {
            Some((l, c)) => write!(
                f,
                "{}:{l}:{c}: error: {}",
                self.file.display(),
                self.message
            ),
            None => write!(f, "{}: error: {}", self.file.display(), self.message),
        }
    }
}

impl std::error::Error for BoardError {}

/// Parses and validates board text; `path` names the file in errors.
pub fn parse(text: &str, path: &Path) -> Result<Board, Vec<BoardError>> {
    let mut board: Board = serde_yaml_ng::from_str(text).map_err(|e| {
        let line_col = e.location().map(|l| (l.line(), l.column()));
        let mut message = e.to_string();
        // The location goes in front, like a compiler diagnostic.
        if let Some(cut) = message.rfind(" at line ") {
            message.truncate(cut);
        }
        vec![BoardError::new(path, line_col, message)]
    })?;
    board.path = path.to_path_buf();
    let errors = validate(&board, text);
    if errors.is_empty() {
        Ok(board)
    } else {
        Err(errors)
    }
}

/// Reads one board file.
pub fn load_file(path: &Path) -> Result<Board, Vec<BoardError>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| vec![BoardError::new(path, None, format!("cannot read: {e}"))])?;
    parse(&text, path)
}

/// The first line (1-based) whose text starts, after indentation, with `key:`, and the
/// column of the key: validation errors point there because serde keeps no spans.
pub fn locate(text: &str, key: &str) -> Option<(usize, usize)> {
    let want = format!("{key}:");
    text.lines().enumerate().find_map(|(i, line)| {
        let trimmed = line.trim_start().trim_start_matches("- ");
        trimmed
            .starts_with(&want)
            .then(|| (i + 1, line.len() - trimmed.len() + 1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_finds_keys_and_list_items() {
        let text = "a: 1\nops:\n  fp_div:\n    - {latency: 1}\n  - name: x\n";
        assert_eq!(locate(text, "fp_div"), Some((3, 3)));
        assert_eq!(locate(text, "name"), Some((5, 5)));
        assert_eq!(locate(text, "fp_add"), None);
    }

    #[test]
    fn yaml_errors_carry_the_location_in_front() {
        let errs = parse("name: x\nbogus: [", Path::new("b/x.yaml"))
            .err()
            .unwrap_or_default();
        assert_eq!(errs.len(), 1);
        assert!(errs[0].line_col.is_some(), "{}", errs[0]);
        assert!(!errs[0].message.contains(" at line "), "{}", errs[0]);
        assert!(errs[0].to_string().starts_with("b/x.yaml:"), "{}", errs[0]);
    }
}
