//! Generic kernels over strided views; element types are type parameters.

pub mod alloc;
pub mod batch_norm;
pub mod fused;
pub mod math;
pub mod matmul;
pub mod reduce;
pub mod sort;
pub mod strided;

pub use strided::{GRAIN, Gather, Src, map1, map2, map3, try_materialize};
pub mod rng;
