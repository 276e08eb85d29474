//! xlet: a small `let`-language whose operations are XLA's operation semantics.
//!
//! Stages, each with its own types: `syntax` (text → `ast`), `check`
//! (`ast` → typed `ir`, every shape rule applied), `eval` (`ir` → `value`).
//! Errors are `diag::Diag` values, rendered only at the edge.

// Diagnostics travel in `Err` and are large by design (spans, labels, notes); they are
// the cold path, so boxing them would only add noise.
#![allow(clippy::result_large_err)]

pub mod ast;
pub mod check;
pub mod comp;
pub mod custom_call;
pub mod diag;
pub mod english;
pub mod eval;
pub mod feed;
pub mod grad;
pub mod ir;
pub mod kernels;
pub mod npy;
pub mod ops;
pub mod options;
pub mod print;
pub mod repl;
pub mod replica;
pub mod session;
pub mod source;
pub mod syntax;
#[cfg(test)]
pub mod test_support;
pub mod types;
pub mod value;
