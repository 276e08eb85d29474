//! Matrix products: the one kernel under Dot, DotGeneral and the convolutions.
//!
//! `matmul(out, lhs, rhs, parallel)` writes `lhs · rhs` into a row-major buffer.
//! The operands are strided views (`Mat`): a transposed, sliced or reversed
//! operand is read through its strides, never copied first. Floats (f32, f64)
//! go through the `gemm` crate, which packs strided blocks itself and reaches
//! the machine's FMA peak; integers and pred go through `int`, a register-
//! blocked kernel of our own (no well-kept crate has wrapping integer GEMM).
//! f16 and bf16 are not element types here: their callers compute in f32 and
//! round once (spec/ops/dot_general.md).
//!
//! Why results do not depend on the thread count: neither path splits the
//! contracted dimension between threads. gemm parallelises over blocks of rows
//! and columns of the result and chooses its k-blocking from the shapes only;
//! the integer kernel gives each task whole rows. So every element is summed in
//! one fixed order (a unit test compares 1 and several threads bit for bit).

mod float;
mod int;
#[cfg(test)]
mod tests;

use crate::strided::{interrupt_error, interrupted};
use xlet_core::error::KernelError;
use xlet_core::value::Elem;

/// A strided matrix over raw storage: element (i, j) is at `ptr + i*rs + j*cs`.
/// Whoever makes one keeps the storage alive while it is used.
#[derive(Clone, Copy, Debug)]
pub struct Mat<T> {
    pub ptr: *const T,
    pub rows: usize,
    pub cols: usize,
    pub rs: isize,
    pub cs: isize,
}

// SAFETY: a `Mat` is only read through (`T: Sync`), and its maker keeps the
// storage alive.
unsafe impl<T: Sync> Send for Mat<T> {}
// SAFETY: as for `Send`: shared between tasks only to read.
unsafe impl<T: Sync> Sync for Mat<T> {}

impl<T> Mat<T> {
    pub fn of(a: &ndarray::ArrayView2<T>) -> Mat<T> {
        let s = a.strides();
        Mat {
            ptr: a.as_ptr(),
            rows: a.nrows(),
            cols: a.ncols(),
            rs: s[0],
            cs: s[1],
        }
    }

    /// The element at (i, j).
    ///
    /// # Safety
    /// `i < rows`, `j < cols`, and the storage is alive.
    #[inline(always)]
    pub unsafe fn at(&self, i: usize, j: usize) -> T
    where
        T: Copy,
    {
        // SAFETY: the caller's contract: (i, j) is inside the matrix, whose
        // storage is alive.
        unsafe { *self.ptr.offset(i as isize * self.rs + j as isize * self.cs) }
    }

    /// Columns `c0..c0 + n` of this matrix.
    fn cols_from(&self, c0: usize, n: usize) -> Mat<T> {
        Mat {
            ptr: self.ptr.wrapping_offset(c0 as isize * self.cs),
            cols: n,
            ..*self
        }
    }

    /// Rows `r0..r0 + n` of this matrix.
    fn rows_from(&self, r0: usize, n: usize) -> Mat<T> {
        Mat {
            ptr: self.ptr.wrapping_offset(r0 as isize * self.rs),
            rows: n,
            ..*self
        }
    }
}

/// Element types with a matrix product. `mac` is one multiply-accumulate in
/// the type's own arithmetic: wrapping for integers, or-of-and for pred (as
/// StableHLO's dot_general on i1), round-per-step for floats (the reference).
pub trait DotElem: Elem + Copy + Send + Sync + PartialEq + 'static {
    const ZERO: Self;
    fn mac(acc: Self, a: Self, b: Self) -> Self;
    /// `out = lhs · rhs` (or `out += lhs · rhs` when `accumulate`) for one
    /// block (the shapes are checked, k > 0).
    fn product(
        out: &mut [Self],
        lhs: Mat<Self>,
        rhs: Mat<Self>,
        parallel: bool,
        accumulate: bool,
    ) -> Result<(), KernelError>;
}

/// About this many multiply-adds run between two checks for Ctrl-C: 40–100 ms
/// at this machine's f32 and s32 speeds. Smaller blocks cost speed, because gemm
/// packs the whole rhs again for every block: at 2^28 a 1024³ f32 product with
/// a column-major rhs took 20 ms instead of 13 (AVX-512, measured).
const FLOPS_PER_CHECK: usize = 1 << 32;

/// The shortest slice of the contracted dimension a block is cut into.
const MIN_K_SLICE: usize = 256;

/// `out` (an m x n row-major buffer, overwritten) = `lhs` (m x k) · `rhs` (k x n).
/// `parallel`: use the rayon pool inside this product (false when the caller
/// already parallelises over batches or groups). Results do not depend on it.
pub fn matmul<T: DotElem>(
    out: &mut [T],
    lhs: Mat<T>,
    rhs: Mat<T>,
    parallel: bool,
) -> Result<(), KernelError> {
    matmul_in_blocks(out, lhs, rhs, parallel, FLOPS_PER_CHECK)
}

/// `matmul` with blocks of about `flops` multiply-adds (tests make them tiny).
fn matmul_in_blocks<T: DotElem>(
    out: &mut [T],
    lhs: Mat<T>,
    rhs: Mat<T>,
    parallel: bool,
    flops: usize,
) -> Result<(), KernelError> {
    let (m, k, n) = (lhs.rows, lhs.cols, rhs.cols);
    if rhs.rows != k || m.checked_mul(n) != Some(out.len()) {
        return Err(xlet_core::error::internal("matmul shapes do not agree"));
    }
    if out.is_empty() {
        return Ok(());
    }
    if k == 0 {
        // A sum over nothing is zero.
        out.fill(T::ZERO);
        return Ok(());
    }
    // Blocks of about `flops` multiply-adds, with a Ctrl-C check
    // between them: whole rows (at least 64, so that gemm still gets blocks
    // worth packing), and when even those are too long (a huge contracted
    // dimension), slices of the contracted dimension added up in order. The
    // blocking depends on the shapes only, so the summation order does too.
    let per_row = n.saturating_mul(k).max(1);
    let rows = (flops / per_row).max(64).min(m);
    let kc = (flops / rows.saturating_mul(n).max(1))
        .max(MIN_K_SLICE)
        .min(k);
    for (b, out_rows) in out.chunks_mut(rows * n).enumerate() {
        let r = out_rows.len() / n;
        let lhs_rows = lhs.rows_from(b * rows, r);
        for k0 in (0..k).step_by(kc) {
            if interrupted() {
                return Err(interrupt_error());
            }
            let kl = kc.min(k - k0);
            T::product(
                out_rows,
                lhs_rows.cols_from(k0, kl),
                rhs.rows_from(k0, kl),
                parallel,
                k0 > 0,
            )?;
        }
    }
    Ok(())
}

/// The plain triple loop in the type's own arithmetic (`mac` in k order): the
/// reference that the fast paths are tested against.
pub fn reference<T: DotElem>(lhs: Mat<T>, rhs: Mat<T>) -> Vec<T> {
    let (m, k, n) = (lhs.rows, lhs.cols, rhs.cols);
    let mut out = Vec::with_capacity(m * n);
    for i in 0..m {
        for j in 0..n {
            let mut acc = T::ZERO;
            for p in 0..k {
                // SAFETY: i < m, p < k, j < n, as the loops bound them.
                acc = T::mac(acc, unsafe { lhs.at(i, p) }, unsafe { rhs.at(p, j) });
            }
            out.push(acc);
        }
    }
    out
}
