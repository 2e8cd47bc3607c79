//! The frontend: preprocess, lex, parse and check OpenCL C; one module per stage, and the
//! driver that runs them in order.

pub mod ast;
pub mod builtins;
pub mod layout;
pub mod lexer;
pub mod parser;
pub mod preprocess;
pub mod sema;
pub mod streams;
pub mod token;
pub mod types;

/// Stack for the thread the frontend runs on: parsing and checking recurse over the tree,
/// and hostile input may nest deeply (the parser bounds nesting at a depth this covers).
pub const FRONTEND_STACK: usize = 256 << 20;
use std::path::Path;

use crate::diag::{Diagnostic, Diagnostics, SourceMap};
use preprocess::PpOptions;
use sema::{Program, SemaOptions};

/// Everything that steers the frontend: `-D`/`-I`/`-U` and device limits.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub pp: PpOptions,
    pub sema: SemaOptions,
}

/// The result of checking one file: the sources read, what was said about them, and the
/// checked program (present even with errors, for tools that want partial results).
pub struct Checked {
    pub sources: SourceMap,
    pub diags: Diagnostics,
    pub program: Option<Program>,
}

impl Checked {
    pub fn has_errors(&self) -> bool {
        self.diags.has_errors()
    }
}

/// Reads and checks a file. A file that cannot be read is an error diagnostic, not a panic.
pub fn check_file(path: &Path, opts: &Options) -> Checked {
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => check_source(&path.display().to_string(), &text, opts),
            Err(e) => failed(format!(
                "{}: the file is not valid UTF-8 (first bad byte at offset {})",
                path.display(),
                e.utf8_error().valid_up_to()
            )),
        },
        Err(e) => failed(format!("cannot read {}: {e}", path.display())),
    }
}

fn failed(message: String) -> Checked {
    let mut diags = Diagnostics::default();
    diags.push(Diagnostic::global(message));
    Checked {
        sources: SourceMap::new(),
        diags,
        program: None,
    }
}

/// Checks source text. `name` is used in diagnostics and, as a path, to find the directory
/// that `#include "..."` searches first.
pub fn check_source(name: &str, text: &str, opts: &Options) -> Checked {
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("frontend".into())
            .stack_size(FRONTEND_STACK)
            .spawn_scoped(scope, || check_source_here(name, text, opts));
        match worker {
            Ok(handle) => match handle.join() {
                Ok(c) => c,
                Err(p) => std::panic::resume_unwind(p),
            },
            // No thread to be had: check on this one (only very deep nesting needs the stack).
            Err(_) => check_source_here(name, text, opts),
        }
    })
}

fn check_source_here(name: &str, text: &str, opts: &Options) -> Checked {
    let mut sources = SourceMap::new();
    let mut diags = Diagnostics::default();
    let main = sources.add_file(name, name, text.to_string());
    let tokens = preprocess::preprocess(&mut sources, main, &opts.pp, &mut diags);
    if let Some(d) = streams::unsupported(&tokens) {
        diags.push(d);
        return Checked {
            sources,
            diags,
            program: None,
        };
    }
    let tu = parser::parse(tokens, &sources, &mut diags);
    // Meaning is not checked on a tree with syntax errors: the holes would only produce
    // follow-on errors that hide the real one.
    let program = if diags.has_errors() {
        None
    } else {
        Some(sema::check(tu, &sources, &opts.sema, &mut diags))
    };
    Checked {
        sources,
        diags,
        program,
    }
}
