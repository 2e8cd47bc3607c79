//! Board files: the built-in boards load and resolve by alias; broken files give errors
//! with file:line:column naming the field; `ocl-hls boards` lists them.

use std::path::{Path, PathBuf};
use std::process::Command;

use ocl_hls::board::{BoardError, BoardSet, OpClass};

fn boards_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../boards")
}

fn builtin() -> BoardSet {
    match BoardSet::builtin() {
        Ok(s) => s,
        Err(e) => panic!("built-in boards: {}", render(&e)),
    }
}

fn render(errs: &[BoardError]) -> String {
    errs.iter().map(|e| format!("{e}\n")).collect()
}

#[test]
fn every_board_file_loads_and_matches_the_builtin_copy() {
    let set = match BoardSet::load_dir(&boards_dir()) {
        Ok(s) => s,
        Err(e) => panic!("{}", render(&e)),
    };
    let names: Vec<&str> = set.boards.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "de1-soc",
            "de10-nano",
            "de10-standard",
            "icebreaker",
            "sim",
            "ulx3s"
        ]
    );
    let builtin = builtin();
    assert_eq!(builtin.boards.len(), set.boards.len());
    for (a, b) in builtin.boards.iter().zip(&set.boards) {
        assert_eq!(
            serde_json::to_string(a).ok(),
            serde_json::to_string(b).ok(),
            "the built-in {} differs from {}",
            a.name,
            b.path.display()
        );
    }
}
