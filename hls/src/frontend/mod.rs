//! The frontend: preprocess, lex, parse and check OpenCL C; one module per stage.

pub mod ast;
pub mod builtins;
pub mod layout;
pub mod lexer;
pub mod parser;
pub mod preprocess;
pub mod sema;
pub mod token;
pub mod types;
