//! TriangularSolve: `op(a)·x = b` or `x·op(a) = b` for triangular `a`, one
//! solve per matrix of a batch (spec/ops/triangular_solve.md).
//!
//! Every one of the 12 forms (left/right, lower/upper, op = none, transpose,
//! adjoint) becomes the one form `L·y = c` with `L` lower triangular:
//! - the right side is the left side transposed: `x·M = b` is `Mᵀ·xᵀ = bᵀ`;
//! - so the matrix actually solved with is `a`, `aᵀ`, or (adjoint) their
//!   conjugates, read from `a` with or without its indices swapped;
//! - when that matrix is upper triangular, reversing the order of rows and
//!   columns makes it lower (`J·U·J` with `J` the reversal), and the rows of
//!   `c` and `y` are reversed with it.
//!
//! `L` is copied into a row-major scratch matrix in that form (reading only
//! `a`'s given triangle, and not its diagonal when `unit_diagonal`), and
//! `c` laid out as `m x r` rows (in the result's buffer itself when the
//! layouts agree). The solve is blocked: per block of `NB` rows, gemm subtracts
//! what the solved rows above contribute, and forward substitution finishes
//! the block, the right-hand sides split in column strips across threads.
//!
//! Nothing is checked for singularity: a zero on the diagonal divides by zero
//! and gives ±inf or NaN from there on, as LAPACK's trsm (jax on CPU) does.

use super::{BATCH_PARALLEL_BELOW, LinalgElem, View, shape_error, sub_product};
use crate::strided::{interrupt_error, interrupted};
use rayon::prelude::*;
use xlet_core::alloc::try_filled;
use xlet_core::error::KernelError;

/// Rows per block (the gemm updates' depth grows by this much per block).
const NB: usize = 64;

/// Right-hand-side columns per substitution task.
const STRIP: usize = 128;

/// `op(a)` of TriangularSolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transpose {
    No,
    Transpose,
    Adjoint,
}

/// The attributes of one TriangularSolve.
#[derive(Clone, Copy, Debug)]
pub struct Form {
    pub left_side: bool,
    pub lower: bool,
    pub unit_diagonal: bool,
    pub transpose: Transpose,
}

/// The solutions for the `m x m` matrices stored one after another, row-major,
/// in `a` and the right-hand sides in `b` (per matrix `m x r` when
/// `left_side`, else `r x m`), in `b`'s layout.
pub fn triangular_solve<T: LinalgElem>(
    a: &[T],
    b: &[T],
    m: usize,
    r: usize,
    form: Form,
) -> Result<Vec<T>, KernelError> {
    let per = m * r;
    if per == 0 || b.is_empty() {
        return Ok(Vec::new());
    }
    let batch = b.len() / per;
    if batch * per != b.len() || a.len() != batch * m * m {
        return Err(shape_error("TriangularSolve operands of unexpected sizes"));
    }
    let mut out = try_filled(b.len(), T::ZERO, &"TriangularSolve's result")?;
    let work = m.saturating_mul(m).saturating_mul(r) / 2;
    let threads = rayon::current_num_threads();
    let mm = m * m;
    if batch >= threads && threads > 1 && work < BATCH_PARALLEL_BELOW {
        out.par_chunks_mut(per)
            .zip(b.par_chunks(per))
            .zip(a.par_chunks(mm))
            .try_for_each(|((o, bs), s)| solve_one(s, bs, o, m, r, form, false))
    } else {
        out.chunks_mut(per)
            .zip(b.chunks(per))
            .zip(a.chunks(mm))
            .try_for_each(|((o, bs), s)| solve_one(s, bs, o, m, r, form, true))
    }?;
    Ok(out)
}

/// One matrix: `a` (m x m), `b` and `out` (m x r, or r x m on the right side).
fn solve_one<T: LinalgElem>(
    a: &[T],
    b: &[T],
    out: &mut [T],
    m: usize,
    r: usize,
    f: Form,
    parallel: bool,
) -> Result<(), KernelError> {
    // The matrix solved with is M = a or aᵀ (conjugated for the adjoint),
    // read from a at (i, j) or, when `swap`, at (j, i).
    let swap = f.left_side == (f.transpose != Transpose::No);
    let conj = f.transpose == Transpose::Adjoint;
    // M is upper triangular when a's triangle is not moved to the other side.
    let rev = f.lower == swap;
    let at = |i: usize| if rev { m - 1 - i } else { i };
    let mut l = try_filled(m * m, T::ZERO, &"TriangularSolve's triangular matrix")?;
    for i in 0..m {
        for j in 0..=i {
            let (ii, jj) = (at(i), at(j));
            let v = if swap { a[jj * m + ii] } else { a[ii * m + jj] };
            l[i * m + j] = if conj { v.conj() } else { v };
        }
        if f.unit_diagonal {
            l[i * m + i] = T::ONE;
        }
    }
    if f.left_side {
        // c = b with its rows reversed when `rev`: solved in `out` itself.
        for (i, row) in out.chunks_mut(r).enumerate() {
            row.copy_from_slice(&b[at(i) * r..at(i) * r + r]);
        }
        solve_lower(&l, out, m, r, f.unit_diagonal, parallel)?;
        if rev {
            for i in 0..m / 2 {
                let (top, bottom) = out.split_at_mut((m - 1 - i) * r);
                top[i * r..i * r + r].swap_with_slice(&mut bottom[..r]);
            }
        }
    } else {
        // c = bᵀ (m x r), its rows reversed when `rev`; b and out are r x m.
        let mut y = try_filled(m * r, T::ZERO, &"TriangularSolve's right-hand sides")?;
        in_tiles(m, r, |i, c| y[i * r + c] = b[c * m + at(i)]);
        solve_lower(&l, &mut y, m, r, f.unit_diagonal, parallel)?;
        in_tiles(m, r, |i, c| out[c * m + at(i)] = y[i * r + c]);
    }
    Ok(())
}

/// The rows of `y` (m x r, row-major) overwritten by `L⁻¹·y`, `L` the lower
/// triangle of the row-major m x m `l` (its diagonal taken as 1 when `unit`).
fn solve_lower<T: LinalgElem>(
    l: &[T],
    y: &mut [T],
    m: usize,
    r: usize,
    unit: bool,
    parallel: bool,
) -> Result<(), KernelError> {
    for k0 in (0..m).step_by(NB) {
        if interrupted() {
            return Err(interrupt_error());
        }
        let k1 = (k0 + NB).min(m);
        let (solved, rest) = y.split_at_mut(k0 * r);
        let block = &mut rest[..(k1 - k0) * r];
        if k0 > 0 {
            let lhs = View {
                ptr: l[k0 * m..].as_ptr(),
                rows: k1 - k0,
                cols: k0,
                rs: m as isize,
                cs: 1,
            };
            let rhs = View {
                ptr: solved.as_ptr(),
                rows: k0,
                cols: r,
                rs: r as isize,
                cs: 1,
            };
            // SAFETY: `block` (rows k0..k1 of y) is borrowed mutably and apart
            // from `solved` (rows 0..k0) and from `l`; the shapes agree
            // (block is (k1-k0) x r, lhs (k1-k0) x k0, rhs k0 x r).
            unsafe { sub_product(block.as_mut_ptr(), r as isize, lhs, rhs, false, parallel) };
        }
        let base = Shared(block.as_mut_ptr());
        // Forward substitution on the columns of strip `s`.
        let strip = |s: usize| {
            let c0 = s * STRIP;
            let w = STRIP.min(r - c0);
            let run = |i: usize| base.at((i - k0) * r + c0);
            for i in k0..k1 {
                // SAFETY: row i's run of this strip (columns c0..c0 + w) is
                // inside `block`, and only this task touches these columns.
                let ri = unsafe { std::slice::from_raw_parts_mut(run(i), w) };
                for p in k0..i {
                    let lip = l[i * m + p];
                    // SAFETY: row p < i of the same strip: inside `block`,
                    // apart from row i's run, read only (by this task alone).
                    let rp = unsafe { std::slice::from_raw_parts(run(p) as *const T, w) };
                    for (x, &v) in ri.iter_mut().zip(rp) {
                        *x = *x - lip * v;
                    }
                }
                if !unit {
                    let d = l[i * m + i];
                    for x in ri.iter_mut() {
                        *x = *x / d;
                    }
                }
            }
        };
        let strips = r.div_ceil(STRIP);
        if parallel && strips > 1 {
            (0..strips).into_par_iter().for_each(strip);
        } else {
            (0..strips).for_each(strip);
        }
    }
    Ok(())
}

/// Calls `f(i, c)` for every `i < rows`, `c < cols`, in 32x32 tiles: the
/// transposing copies of the right side read one matrix along rows and write
/// the other along columns, and tiles keep both in cache.
fn in_tiles(rows: usize, cols: usize, mut f: impl FnMut(usize, usize)) {
    const T: usize = 32;
    for i0 in (0..rows).step_by(T) {
        for c0 in (0..cols).step_by(T) {
            for i in i0..(i0 + T).min(rows) {
                for c in c0..(c0 + T).min(cols) {
                    f(i, c);
                }
            }
        }
    }
}

/// A block's base pointer handed to the strip tasks, each of which touches
/// only its own columns.
#[derive(Clone, Copy)]
struct Shared<T>(*mut T);

impl<T> Shared<T> {
    fn at(self, k: usize) -> *mut T {
        self.0.wrapping_add(k)
    }
}

// SAFETY: the strips write disjoint column ranges of the block and read only
// their own columns; the block outlives the parallel loop that uses it.
unsafe impl<T: Send> Send for Shared<T> {}
// SAFETY: as for `Send`: shared between strip tasks that touch disjoint parts.
unsafe impl<T: Send> Sync for Shared<T> {}
