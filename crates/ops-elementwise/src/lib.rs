//! Elementwise arithmetic, comparison, Clamp and Select (ARCHITECTURE.md, the
//! ops layer): one module per op, each with its spec in spec/ops/ and its cases
//! in conformance/.

pub use xlet_ops_common::{common, for_class, index_dims, reduction, registry, small, window_grad};

pub mod binary;
pub mod clamp;
pub mod compare;
pub mod complex;
pub mod select;
pub mod unary;
