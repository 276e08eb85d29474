//! Cholesky factorisation and triangular solves (spec/ops/cholesky.md,
//! spec/ops/triangular_solve.md), generic over `LinalgElem`: f32 and f64
//! today, and num-complex's `Complex<f32>` / `Complex<f64>` already
//! implemented and tested, so that complex element types only need a dispatch
//! line in the ops layer.
//!
//! Both kernels are blocked so that nearly all the arithmetic is one `gemm`
//! call per block (the crate DotGeneral uses: strided operands, conjugation
//! flags, c32/c64 microkernels); what is left outside gemm is a narrow strip
//! per block, written as contiguous axpy loops that vectorise.

pub mod cholesky;
#[cfg(test)]
mod tests;
pub mod triangular_solve;

use num_complex::Complex;
use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Neg, Sub};
use xlet_core::error::KernelError;

/// What the kernels need of an element: field arithmetic, the conjugate, and
/// the square root of a Cholesky pivot. For real types `conj` is the identity,
/// so ADJOINT is TRANSPOSE and a Hermitian matrix is a symmetric one.
pub trait LinalgElem:
    Copy
    + Send
    + Sync
    + Debug
    + PartialEq
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    /// A quiet NaN (for complex: NaN in both parts), what a failed
    /// factorisation is filled with.
    fn nan() -> Self;
    fn conj(self) -> Self;
    /// The square root of a pivot `d` (a diagonal entry minus the squared
    /// norm of its row so far), or None when the matrix is not positive
    /// definite there: the real part is <= 0. Only the real part of `d` is
    /// read (a Hermitian matrix's diagonal is real; LAPACK's potrf also reads
    /// only the real part). A NaN pivot is not a failure (LAPACK's test is
    /// `ajj <= 0`), it flows on as NaN.
    fn pivot_sqrt(d: Self) -> Option<Self>;
}

macro_rules! real_elem {
    ($($t:ty),*) => {$(
        impl LinalgElem for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            fn nan() -> Self {
                <$t>::NAN
            }
            #[inline(always)]
            fn conj(self) -> Self {
                self
            }
            fn pivot_sqrt(d: Self) -> Option<Self> {
                if d <= 0.0 { None } else { Some(d.sqrt()) }
            }
        }
    )*};
}
real_elem!(f32, f64);

macro_rules! complex_elem {
    ($($t:ty),*) => {$(
        impl LinalgElem for Complex<$t> {
            const ZERO: Self = Complex::new(0.0, 0.0);
            const ONE: Self = Complex::new(1.0, 0.0);
            fn nan() -> Self {
                Complex::new(<$t>::NAN, <$t>::NAN)
            }
            #[inline(always)]
            fn conj(self) -> Self {
                Complex::new(self.re, -self.im)
            }
            fn pivot_sqrt(d: Self) -> Option<Self> {
                if d.re <= 0.0 { None } else { Some(Complex::new(d.re.sqrt(), 0.0)) }
            }
        }
    )*};
}
complex_elem!(f32, f64);

/// A matrix inside a buffer: element (i, j) at `ptr + i*rs + j*cs`.
#[derive(Clone, Copy)]
pub(crate) struct View<T> {
    pub ptr: *const T,
    pub rows: usize,
    pub cols: usize,
    pub rs: isize,
    pub cs: isize,
}

/// `dst -= lhs · op(rhs)`, op = conjugation when `conj_rhs`, through gemm.
/// `dst` is a `lhs.rows x rhs.cols` matrix at `dst` with row stride `drs`
/// (columns contiguous).
///
/// # Safety
/// The three matrices lie inside live buffers, `dst` does not overlap `lhs` or
/// `rhs`, nothing else touches `dst` meanwhile, and the shapes agree
/// (`lhs.cols == rhs.rows`).
pub(crate) unsafe fn sub_product<T: LinalgElem>(
    dst: *mut T,
    drs: isize,
    lhs: View<T>,
    rhs: View<T>,
    conj_rhs: bool,
    parallel: bool,
) {
    let (m, n, k) = (lhs.rows, rhs.cols, lhs.cols);
    if m == 0 || n == 0 || k == 0 {
        return;
    }
    let threads = rayon::current_num_threads();
    let par = if parallel && threads > 1 && m.saturating_mul(n).saturating_mul(k) >= 1 << 16 {
        gemm::Parallelism::Rayon(threads)
    } else {
        gemm::Parallelism::None
    };
    // SAFETY: the caller's contract (live, disjoint, shapes agree); gemm
    // dispatches on the type and implements exactly f32, f64, c32 and c64,
    // the four `LinalgElem` types (num-complex's Complex is gemm's c32/c64).
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst,
            1,
            drs,
            true,
            lhs.ptr,
            lhs.cs,
            lhs.rs,
            rhs.ptr,
            rhs.cs,
            rhs.rs,
            T::ONE,
            -T::ONE,
            false,
            false,
            conj_rhs,
            par,
        );
    }
}

/// Below this much work per matrix (multiply-adds), a batch runs one matrix
/// per task on one thread each instead of threading inside each matrix.
pub(crate) const BATCH_PARALLEL_BELOW: usize = 1 << 22;

/// The error of a shape that the checker should have refused.
pub(crate) fn shape_error(what: &str) -> KernelError {
    xlet_core::error::internal(what)
}
