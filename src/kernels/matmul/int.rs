//! Integer and pred products: a register-blocked kernel of our own.
//!
//! The result is computed in tiles of `ROWS` x `COLS`, each held in an array
//! of accumulators that the compiler keeps in vector registers while the
//! contracted dimension streams past: per step, one row of `COLS` rhs
//! elements is loaded once and used by `ROWS` rows. Tiles are visited column
//! strip by column strip, so one strip of rhs (k x `COLS`) stays in cache
//! while every row of the task passes over it. Arithmetic is the type's own
//! `mac` (wrapping for integers), so results are exact in the type.

use super::{DotElem, Mat};
use crate::ir::KernelError;
use crate::kernels::alloc;
use rayon::prelude::*;

const ROWS: usize = 4;
const COLS: usize = 32;
/// Below this many multiply-adds a product runs on one thread.
const PARALLEL_MACS: usize = 1 << 18;

macro_rules! int_dot {
    ($($t:ty),*) => {$(
        impl DotElem for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn mac(acc: Self, a: Self, b: Self) -> Self {
                acc.wrapping_add(a.wrapping_mul(b))
            }
            fn product(out: &mut [Self], lhs: Mat<Self>, rhs: Mat<Self>, parallel: bool)
                -> Result<(), KernelError>
            {
                product(out, lhs, rhs, parallel)
            }
        }
    )*};
}
int_dot!(i8, i16, i32, i64, u8, u16, u32, u64);

impl DotElem for bool {
    const ZERO: Self = false;
    #[inline(always)]
    fn mac(acc: Self, a: Self, b: Self) -> Self {
        acc | (a & b)
    }
    fn product(
        out: &mut [Self],
        lhs: Mat<Self>,
        rhs: Mat<Self>,
        parallel: bool,
    ) -> Result<(), KernelError> {
        product(out, lhs, rhs, parallel)
    }
}

fn product<T: DotElem>(
    out: &mut [T],
    lhs: Mat<T>,
    rhs: Mat<T>,
    parallel: bool,
) -> Result<(), KernelError> {
    let (m, k, n) = (lhs.rows, lhs.cols, rhs.cols);
    // The tiles read rhs rows as contiguous runs: copy it when its rows are not.
    let packed: Vec<T>;
    let rhs = if rhs.cs == 1 {
        rhs
    } else {
        let ty = crate::types::ArrayType::new(T::ELEM, vec![k, n]);
        let mut v = alloc::try_output_vec::<T>(k * n, &ty)?;
        for p in 0..k {
            // SAFETY: p < k and j < n index inside the view.
            v.extend((0..n).map(|j| unsafe { rhs.at(p, j) }));
        }
        packed = v;
        Mat {
            ptr: packed.as_ptr(),
            rows: k,
            cols: n,
            rs: n as isize,
            cs: 1,
        }
    };
    let threads = rayon::current_num_threads();
    let macs = m.saturating_mul(n).saturating_mul(k);
    if parallel && threads > 1 && macs >= PARALLEL_MACS && m > ROWS {
        // A few tasks per thread, each whole rows (so each sum has one order).
        let per_task = m.div_ceil(threads * 4).next_multiple_of(ROWS);
        out.par_chunks_mut(per_task * n)
            .enumerate()
            .for_each(|(t, o)| rows_block(o, lhs.rows_from(t * per_task, o.len() / n), rhs));
    } else {
        rows_block(out, lhs, rhs);
    }
    Ok(())
}

/// `out` (lhs.rows x n, row-major) = lhs · rhs, where rhs rows are contiguous.
fn rows_block<T: DotElem>(out: &mut [T], lhs: Mat<T>, rhs: Mat<T>) {
    let (m, n) = (lhs.rows, rhs.cols);
    let full_rows = m - m % ROWS;
    let mut j = 0;
    while j + COLS <= n {
        for i in (0..full_rows).step_by(ROWS) {
            tile(out, i, j, lhs, rhs);
        }
        edge(out, full_rows..m, j..j + COLS, lhs, rhs);
        j += COLS;
    }
    edge(out, 0..m, j..n, lhs, rhs);
}

/// One `ROWS` x `COLS` tile of the result, accumulated in registers.
#[inline(always)]
fn tile<T: DotElem>(out: &mut [T], i: usize, j: usize, lhs: Mat<T>, rhs: Mat<T>) {
    let n = rhs.cols;
    let mut acc = [[T::ZERO; COLS]; ROWS];
    for p in 0..lhs.cols {
        // SAFETY: p < k and j + COLS <= n, and rhs rows are contiguous (cs 1).
        let b: &[T; COLS] =
            unsafe { &*(rhs.ptr.offset(p as isize * rhs.rs + j as isize) as *const [T; COLS]) };
        for (r, acc_r) in acc.iter_mut().enumerate() {
            // SAFETY: i + r < lhs.rows (a full tile), p < k.
            let a = unsafe { lhs.at(i + r, p) };
            for c in 0..COLS {
                acc_r[c] = T::mac(acc_r[c], a, b[c]);
            }
        }
    }
    for (r, acc_r) in acc.iter().enumerate() {
        out[(i + r) * n + j..][..COLS].copy_from_slice(acc_r);
    }
}

/// The rows and columns that do not fill a tile, by the plain loop.
fn edge<T: DotElem>(
    out: &mut [T],
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
    lhs: Mat<T>,
    rhs: Mat<T>,
) {
    let n = rhs.cols;
    for i in rows {
        for j in cols.clone() {
            let mut acc = T::ZERO;
            for p in 0..lhs.cols {
                // SAFETY: i < m, p < k, j < n.
                acc = T::mac(acc, unsafe { lhs.at(i, p) }, unsafe { rhs.at(p, j) });
            }
            out[i * n + j] = acc;
        }
    }
}
