//! Dot products, convolutions, batch normalisation, Cholesky and TriangularSolve (ARCHITECTURE.md, the ops
//! layer): one module per op, each with its spec in spec/ops/ and its cases in
//! conformance/.

pub use xlet_ops_common::{common, for_class, index_dims, reduction, registry, small, window_grad};

pub mod batch_norm_args;
pub mod batch_norm_grad;
pub mod batch_norm_inference;
pub mod batch_norm_training;
pub mod cholesky;
mod cholesky_grad;
pub mod conv;
pub mod conv_general_dilated;
pub mod conv_with_general_padding;
pub mod dot;
pub mod dot_general;
pub mod fft;
mod fft_grad;
mod fft_type;
mod matrix_args;
mod matrix_grad;
pub mod triangular_solve;
mod triangular_solve_grad;
