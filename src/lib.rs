//! xlet: a small `let`-language whose operations are XLA's operation semantics.
//!
//! This package is the top of the house (ARCHITECTURE.md): the session that
//! assembles the layers, and the edges that talk to it (the CLI, the REPL, the
//! infeed/outfeed files, the replica driver). The layers are crates under
//! `crates/`; they are re-exported here under their module names, so that a
//! user of the library (and the integration tests) reaches every layer as
//! `xlet::check`, `xlet::eval`, ...

// Diagnostics travel in `Err` and are large by design (spans, labels, notes); they are
// the cold path, so boxing them would only add noise.
#![allow(clippy::result_large_err)]

pub use xlet_check as check;
pub use xlet_core::{alloc, config, diag, english, print, source, types, value};
pub use xlet_custom_call as custom_call;
pub use xlet_eval as eval;
pub use xlet_eval::comp;
pub use xlet_grad as grad;
pub use xlet_ir as ir;
pub use xlet_kernels as kernels;
pub use xlet_npy as npy;
pub use xlet_ops as ops;
pub use xlet_syntax as syntax;
pub use xlet_syntax::ast;

pub mod exit;
pub mod feed;
pub mod import;
pub mod options;
pub mod repl;
pub mod replica;
pub mod session;
#[cfg(test)]
mod tests;
