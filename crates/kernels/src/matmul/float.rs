//! f32, f64, c64 and c128 products through the `gemm` crate.
//!
//! gemm computes `dst = alpha·dst + beta·lhs·rhs` on strided operands (it
//! packs them into its microkernel's layout itself, so transposed views cost
//! nothing extra). We ask for `dst = lhs·rhs`, or `dst + lhs·rhs` when accumulating (alpha is
//! then 1; gemm does not read `dst` at all when told not to).

use super::{DotElem, Mat};
use gemm::Parallelism;
use xlet_core::error::KernelError;
use xlet_core::value::{c64, c128};

/// Below this many multiply-adds a product runs on one thread: handing work to
/// the pool costs more than it saves.
const PARALLEL_FLOPS: usize = 1 << 16;

macro_rules! gemm_float {
    ($($t:ty => $zero:expr, $one:expr),*) => {$(
        impl DotElem for $t {
            const ZERO: Self = $zero;
            #[inline(always)]
            fn mac(acc: Self, a: Self, b: Self) -> Self {
                acc + a * b
            }
            fn product(out: &mut [Self], lhs: Mat<Self>, rhs: Mat<Self>, parallel: bool, accumulate: bool)
                -> Result<(), KernelError>
            {
                let (m, k, n) = (lhs.rows, lhs.cols, rhs.cols);
                let flops = m.saturating_mul(n).saturating_mul(k);
                let threads = rayon::current_num_threads();
                let par = if parallel && threads > 1 && flops >= PARALLEL_FLOPS {
                    Parallelism::Rayon(threads)
                } else {
                    Parallelism::None
                };
                // SAFETY: `matmul` checked the shapes (out is m x n, lhs m x k,
                // rhs k x n, k > 0); the views' makers keep their storage
                // alive; `out` is a row-major m x n buffer we hold mutably.
                unsafe {
                    gemm::gemm(
                        m, n, k,
                        out.as_mut_ptr(), 1, n as isize, accumulate,
                        lhs.ptr, lhs.cs, lhs.rs,
                        rhs.ptr, rhs.cs, rhs.rs,
                        $one, $one, false, false, false, par,
                    );
                }
                Ok(())
            }
        }
    )*};
}
// gemm's complex types are num-complex's, xlet's c64 and c128.
gemm_float!(
    f32 => 0.0, 1.0,
    f64 => 0.0, 1.0,
    c64 => c64::new(0.0, 0.0), c64::new(1.0, 0.0),
    c128 => c128::new(0.0, 0.0), c128::new(1.0, 0.0)
);
