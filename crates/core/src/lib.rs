//! The floor every other layer of xlet stands on: element types and values,
//! the memory budget and its accounting allocator, diagnostics and the
//! kernel error, the run configuration, and printing values.
//!
//! Nothing here knows the language's syntax, the checker, the evaluator or what
//! any operation does; `op_id` only names them (ARCHITECTURE.md).

// Diagnostics travel in `Err` and are large by design (spans, labels, notes); they are
// the cold path, so boxing them would only add noise.
#![allow(clippy::result_large_err)]

pub mod alloc;
pub mod code;
pub mod config;
pub mod diag;
pub mod english;
pub mod error;
pub mod op_id;
pub mod print;
pub mod small;
pub mod source;
pub mod span;
#[doc(hidden)]
pub mod test_support;
pub mod types;
pub mod value;

pub use op_id::OpId;
