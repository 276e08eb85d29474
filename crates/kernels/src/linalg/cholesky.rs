//! Cholesky: `a = l·lᴴ` with `l` lower triangular (or `a = uᴴ·u`), one
//! factor per matrix of a batch (spec/ops/cholesky.md).
//!
//! The algorithm is LAPACK's blocked left-looking one (potrf's), on a
//! row-major copy of the matrix. For each block column of width `NB`:
//! 1. gemm subtracts what the columns to its left contribute,
//!    `A[k0.., k0..k1] -= L[k0.., ..k0] · L[k0..k1, ..k0]ᴴ` (nearly all of
//!    the n³/6 multiply-adds);
//! 2. the diagonal block is factored column by column;
//! 3. the rows below solve `x · L_kkᴴ = a` by substitution, each row an
//!    independent task whose inner loop is a contiguous axpy.
//!
//! The upper factor of `a` is the conjugate transpose of the lower factor of
//! `aᴴ`: the matrix is read transposed, factored as lower, and transposed back,
//! so both cases run the same code and read only their own triangle.
//!
//! A pivot whose real part is <= 0 (the matrix is not positive definite)
//! stops the factorisation; the whole triangle of that matrix is then NaN, as
//! jax's Cholesky on CPU returns (LAPACK's potrf reports `info > 0` and jax
//! replaces the result by NaN). The other triangle is zero in every case.

use super::{BATCH_PARALLEL_BELOW, LinalgElem, View, shape_error, sub_product};
use crate::strided::{interrupt_error, interrupted};
use rayon::prelude::*;
use xlet_core::alloc::try_filled;
use xlet_core::error::KernelError;

/// Block width: the gemm updates have this many columns, the substitution
/// strips this many too: on f32[1024x1024] 64 beat 32, 96, 128 and 192
/// (10.3 ms against 15.9, 10.9, 12.0 and 15.0 ms, kernel alone).
const NB: usize = 64;

/// The factors of the `n x n` matrices stored one after another, row-major, in
/// `a` (its length a multiple of n²), in the same layout: lower triangular
/// when `lower`, else upper triangular.
pub fn cholesky<T: LinalgElem>(a: &[T], n: usize, lower: bool) -> Result<Vec<T>, KernelError> {
    let size = n * n;
    if size == 0 {
        return Ok(Vec::new());
    }
    if !a.len().is_multiple_of(size) {
        return Err(shape_error("Cholesky of a partial matrix"));
    }
    let mut out = try_filled(a.len(), T::ZERO, &"the Cholesky factor")?;
    let batch = a.len() / size;
    let work = size.saturating_mul(n) / 6;
    let threads = rayon::current_num_threads();
    if batch >= threads && threads > 1 && work < BATCH_PARALLEL_BELOW {
        out.par_chunks_mut(size)
            .zip(a.par_chunks(size))
            .try_for_each(|(o, s)| factor_one(s, o, n, lower, false))
    } else {
        out.chunks_mut(size)
            .zip(a.chunks(size))
            .try_for_each(|(o, s)| factor_one(s, o, n, lower, true))
    }?;
    Ok(out)
}

/// One matrix: `src` read (its `lower` triangle only), the factor written to
/// `out` (zero-filled on entry).
fn factor_one<T: LinalgElem>(
    src: &[T],
    out: &mut [T],
    n: usize,
    lower: bool,
    parallel: bool,
) -> Result<(), KernelError> {
    // The lower triangle of `a` (or of `aᴴ`).
    for i in 0..n {
        for j in 0..=i {
            out[i * n + j] = if lower {
                src[i * n + j]
            } else {
                src[j * n + i].conj()
            };
        }
    }
    if !factor_lower(out, n, parallel)? {
        for i in 0..n {
            out[i * n..=i * n + i].fill(T::nan());
        }
    }
    if !lower {
        // u = lᴴ, and the strict lower triangle back to zero.
        for i in 0..n {
            for j in 0..i {
                out[j * n + i] = out[i * n + j].conj();
                out[i * n + j] = T::ZERO;
            }
            out[i * n + i] = out[i * n + i].conj();
        }
    }
    Ok(())
}

/// Factors the lower triangle of the row-major `n x n` matrix `w` in place;
/// false when a pivot fails (w is then partly factored). The strict upper
/// triangle is left zero if it was.
fn factor_lower<T: LinalgElem>(w: &mut [T], n: usize, parallel: bool) -> Result<bool, KernelError> {
    // The block's size: a batch of small matrices allocates only what it uses.
    let nb = NB.min(n);
    let mut lh = try_filled(nb * nb, T::ZERO, &"a Cholesky block")?;
    for k0 in (0..n).step_by(NB) {
        if interrupted() {
            return Err(interrupt_error());
        }
        let k1 = (k0 + NB).min(n);
        let b = k1 - k0;
        if k0 > 0 {
            let base = w.as_mut_ptr();
            let lhs = View {
                ptr: base.wrapping_add(k0 * n),
                rows: n - k0,
                cols: k0,
                rs: n as isize,
                cs: 1,
            };
            // rhs(p, j) = L[k0 + j, p], conjugated by gemm.
            let rhs = View {
                ptr: base.wrapping_add(k0 * n),
                rows: k0,
                cols: b,
                rs: 1,
                cs: n as isize,
            };
            // SAFETY: `w` is n x n and alive; the destination (rows k0..n,
            // columns k0..k1) and the operands (columns 0..k0) are disjoint
            // column ranges of it, and `w` is borrowed mutably here alone.
            unsafe {
                sub_product(
                    base.wrapping_add(k0 * n + k0),
                    n as isize,
                    lhs,
                    rhs,
                    true,
                    parallel,
                );
            }
            // gemm also wrote the block's strict upper part: zero it again.
            for i in k0..k1 {
                w[i * n + i + 1..i * n + k1].fill(T::ZERO);
            }
        }
        // The diagonal block, column by column.
        for j in k0..k1 {
            let mut d = w[j * n + j];
            for p in k0..j {
                let l = w[j * n + p];
                d = d - l * l.conj();
            }
            let Some(s) = T::pivot_sqrt(d) else {
                return Ok(false);
            };
            w[j * n + j] = s;
            for i in j + 1..k1 {
                let mut x = w[i * n + j];
                for p in k0..j {
                    x = x - w[i * n + p] * w[j * n + p].conj();
                }
                w[i * n + j] = x / s;
            }
        }
        // lh = L_kkᴴ, row-major b x b (its upper triangle).
        for j in 0..b {
            for i in j..b {
                lh[j * nb + i] = w[(k0 + i) * n + k0 + j].conj();
            }
        }
        let below = &mut w[k1 * n..];
        let solve_row = |row: &mut [T]| {
            let r = &mut row[k0..k1];
            for j in 0..b {
                let x = r[j] / lh[j * nb + j];
                r[j] = x;
                for (ri, &c) in r[j + 1..].iter_mut().zip(&lh[j * nb + j + 1..j * nb + b]) {
                    *ri = *ri - x * c;
                }
            }
        };
        if parallel {
            below.par_chunks_mut(n).with_min_len(8).for_each(solve_row);
        } else {
            below.chunks_mut(n).for_each(solve_row);
        }
    }
    Ok(true)
}
