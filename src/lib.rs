//! xlet: a small `let`-language whose operations are XLA's operation semantics.
//!
//! Stages, each with its own types: `syntax` (text → `ast`), `check`
//! (`ast` → typed `ir`, every shape rule applied), `eval` (`ir` → `value`).
//! Errors are `diag::Diag` values, rendered only at the edge.

pub mod ast;
pub mod diag;
pub mod syntax;
pub mod types;
pub mod kernels;
pub mod value;
pub mod check;
pub mod ir;
pub mod ops;
pub mod eval;
pub mod print;
pub mod session;
pub mod repl;
