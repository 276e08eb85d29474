//! What every family of ops shares (ARCHITECTURE.md, the ops layer): the
//! `for_class!` dispatch, index-dimension attributes, the reductions' shared
//! checking, the windowed gradients' padding arithmetic, and the op-table types.

pub mod common;
pub mod index_dims;
pub mod reduction;
pub mod registry;
pub mod small;
pub mod window_grad;
