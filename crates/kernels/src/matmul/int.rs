//! Integer and pred products: a register-blocked kernel of our own.
//!
//! The result is computed in tiles of `ROWS` x `COLS`, each held in an array
//! of accumulators that the compiler keeps in vector registers while the
//! contracted dimension streams past: per step, one row of `COLS` rhs
//! elements is loaded once and used by `ROWS` rows. Tiles are visited column
//! strip by column strip; a piece of the strip (`KC` x `COLS`) is packed into
//! a contiguous buffer that stays in L1 while every row of the task passes
//! over it. Arithmetic is the type's own
//! `mac` (wrapping for integers), so results are exact in the type.

use super::{DotElem, Mat};
use rayon::prelude::*;
use xlet_core::error::KernelError;

/// Rows per tile; `tile` names its four accumulators, so this is fixed at 4.
const ROWS: usize = 4;
const COLS: usize = 32;
/// Steps of the contracted dimension packed at a time (a 32 KiB strip for s32).
const KC: usize = 256;
/// Below this many multiply-adds a product runs on one thread.
const PARALLEL_MACS: usize = 1 << 18;

/// `DotElem` for the types of this kernel, each with its zero and its
/// multiply-accumulate.
macro_rules! own_dot {
    ($zero:expr, |$acc:ident, $a:ident, $b:ident| $mac:expr; $($t:ty),*) => {$(
        impl DotElem for $t {
            const ZERO: Self = $zero;
            #[inline(always)]
            fn mac($acc: Self, $a: Self, $b: Self) -> Self {
                $mac
            }
            fn product(out: &mut [Self], lhs: Mat<Self>, rhs: Mat<Self>, parallel: bool, accumulate: bool)
                -> Result<(), KernelError>
            {
                product(out, lhs, rhs, parallel, accumulate)
            }
        }
    )*};
}
// Integers wrap; pred is or-of-and (StableHLO's dot_general on i1).
own_dot!(0, |acc, a, b| acc.wrapping_add(a.wrapping_mul(b)); i8, i16, i32, i64, u8, u16, u32, u64);
own_dot!(false, |acc, a, b| acc | (a & b); bool);

fn product<T: DotElem>(
    out: &mut [T],
    lhs: Mat<T>,
    rhs: Mat<T>,
    parallel: bool,
    accumulate: bool,
) -> Result<(), KernelError> {
    let (m, k, n) = (lhs.rows, lhs.cols, rhs.cols);
    let threads = rayon::current_num_threads();
    let macs = m.saturating_mul(n).saturating_mul(k);
    if parallel && threads > 1 && macs >= PARALLEL_MACS && m > ROWS {
        // A few tasks per thread, each whole rows (so each sum has one order).
        let per_task = m.div_ceil(threads * 4).next_multiple_of(ROWS);
        out.par_chunks_mut(per_task * n)
            .enumerate()
            .for_each(|(t, o)| {
                rows_block(o, lhs.rows_from(t * per_task, o.len() / n), rhs, accumulate)
            });
    } else {
        rows_block(out, lhs, rhs, accumulate);
    }
    Ok(())
}

/// `out` (lhs.rows x n, row-major) = lhs · rhs, or += when `acc`.
///
/// Column strip by column strip, and within a strip `KC` steps of the
/// contracted dimension at a time, the strip's piece of rhs is first copied
/// into a small contiguous buffer: rhs rows a page apart would otherwise all
/// fall into the same few cache sets and be fetched from memory again for
/// every group of rows.
fn rows_block<T: DotElem>(out: &mut [T], lhs: Mat<T>, rhs: Mat<T>, acc: bool) {
    let (m, k, n) = (lhs.rows, lhs.cols, rhs.cols);
    let full_rows = m - m % ROWS;
    let mut strip: Vec<[T; COLS]> = Vec::with_capacity(KC.min(k));
    let mut j = 0;
    while j + COLS <= n {
        for k0 in (0..k).step_by(KC) {
            let kl = KC.min(k - k0);
            let (lhs_k, rhs_k) = (lhs.cols_from(k0, kl), rhs.rows_from(k0, kl));
            strip.clear();
            // SAFETY: p < kl rows and j + c < n columns of rhs_k.
            strip.extend((0..kl).map(|p| std::array::from_fn(|c| unsafe { rhs_k.at(p, j + c) })));
            let add = acc || k0 > 0;
            for i in (0..full_rows).step_by(ROWS) {
                tile(out, i, j, lhs_k, &strip, n, add);
            }
            edge(out, full_rows..m, j..j + COLS, lhs_k, rhs_k, add);
        }
        j += COLS;
    }
    edge(out, 0..m, j..n, lhs, rhs, acc);
}

/// One `ROWS` x `COLS` tile of the result, accumulated in registers over the
/// packed strip (`lhs.cols` steps of the contracted dimension).
///
/// The four rows are four named accumulator arrays updated in one loop over
/// the columns: written as an array of rows walked by an inner row loop, the
/// compiler kept the accumulators in memory and did not vectorise at all
/// (12x slower, measured).
#[inline(always)]
fn tile<T: DotElem>(
    out: &mut [T],
    i: usize,
    j: usize,
    lhs: Mat<T>,
    strip: &[[T; COLS]],
    n: usize,
    add: bool,
) {
    let mut acc = [[T::ZERO; COLS]; ROWS];
    if add {
        for (r, acc_r) in acc.iter_mut().enumerate() {
            acc_r.copy_from_slice(&out[(i + r) * n + j..][..COLS]);
        }
    }
    let [mut c0, mut c1, mut c2, mut c3] = acc;
    for (p, b) in strip.iter().enumerate() {
        // SAFETY: i + 3 < lhs.rows (a full tile), p < lhs.cols.
        let (x0, x1, x2, x3) = unsafe {
            (
                lhs.at(i, p),
                lhs.at(i + 1, p),
                lhs.at(i + 2, p),
                lhs.at(i + 3, p),
            )
        };
        for c in 0..COLS {
            c0[c] = T::mac(c0[c], x0, b[c]);
            c1[c] = T::mac(c1[c], x1, b[c]);
            c2[c] = T::mac(c2[c], x2, b[c]);
            c3[c] = T::mac(c3[c], x3, b[c]);
        }
    }
    for (r, acc_r) in [c0, c1, c2, c3].iter().enumerate() {
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
    add: bool,
) {
    let n = rhs.cols;
    for i in rows {
        for j in cols.clone() {
            let mut acc = if add { out[i * n + j] } else { T::ZERO };
            for p in 0..lhs.cols {
                // SAFETY: i < m, p < k, j < n.
                acc = T::mac(acc, unsafe { lhs.at(i, p) }, unsafe { rhs.at(p, j) });
            }
            out[i * n + j] = acc;
        }
    }
}
