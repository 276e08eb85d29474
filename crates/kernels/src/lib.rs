//! Generic kernels over strided views; element types are type parameters.

pub mod batch_norm;
pub mod complex;
pub mod fft;
pub mod fused;
pub mod linalg;
pub mod machine;
pub mod math;
pub mod matmul;
pub mod reduce;
pub mod sort;
pub mod strided;
pub mod vecmath;

pub use strided::{GRAIN, Gather, Src, map1, map2, map3, try_materialize};
pub mod rng;

/// `a` itself when it is in standard (row-major, contiguous) layout, else a
/// contiguous copy, admitted under the memory budget first.
pub fn contiguous<T: xlet_core::value::Elem>(
    a: xlet_core::value::Nd<T>,
) -> Result<xlet_core::value::Nd<T>, xlet_core::error::KernelError> {
    if a.is_standard_layout() {
        Ok(a)
    } else {
        let ty = xlet_core::types::ArrayType::new(T::ELEM, a.shape().to_vec());
        xlet_core::alloc::admit(a.len().saturating_mul(std::mem::size_of::<T>()), &ty)?;
        Ok(try_materialize(a.shape(), &Src::of(&a))?.into_shared())
    }
}
