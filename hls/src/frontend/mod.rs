//! The frontend: preprocess, lex, parse and check OpenCL C; one module per stage, and the
//! driver that runs them in order.

pub mod ast;
pub mod builtins;
pub mod layout;
pub mod lexer;
pub mod parser;
pub mod preprocess;
pub mod sema;
pub mod token;
pub mod types;


/// Stack for the thread the frontend runs on: parsing and checking recurse over the tree,
/// and hostile input may nest deeply (the parser bounds nesting at a depth this covers).
pub const FRONTEND_STACK: usize = 256 << 20;
