//! Generic kernels over strided views; element types are type parameters.

pub mod strided;
pub mod transpose_copy;

pub use strided::{GRAIN, Src, map1, map2, map3, materialize};
