//! The two passes every batch-norm op is made of, generic over what they do per
//! element:
//!
//! - `feature_sums`: per feature, the sums of two terms of each element (e.g.
//!   `d` and `d²`), in f64;
//! - `apply`: the row-major output, one value per element from the sources and
//!   that element's feature parameters.
//!
//! Both run in parallel over tasks cut from the shape alone (never from the
//! thread count), and each sum is added up in one fixed order, so results do
//! not depend on how many threads run them.
//!
//! Sum order: the outer index range is cut into blocks of `block_rows` rows;
//! a block's sum for one feature goes run by run in (o, i) order, a contiguous
//! run in 8 lanes of the work type flushed into f64 every `FLUSH` steps (so no
//! work-type sum has more than 64 terms), a strided run element by element in
//! f64; the blocks' sums are then added in order.

use super::elem::{BnElem, Work};
use super::frame::{Frame, Strides};
use crate::strided::Check;
use rayon::prelude::*;
use std::mem::MaybeUninit;
use xlet_core::alloc;
use xlet_core::error::KernelError;

/// Lanes of the contiguous sum loop.
const LANES: usize = 8;
/// Steps of `LANES` elements summed in the work type before going into f64.
const FLUSH: usize = 64;
/// Elements per pass-1 task (one feature's share of a block), about.
const BLOCK_ELEMS: usize = 1 << 15;
/// Output elements per pass-2 task, about.
const TASK_ELEMS: usize = 1 << 15;

/// A source array's first element, shared by the tasks that only read it.
#[derive(Clone, Copy)]
pub struct Ptr<T>(pub *const T);
// SAFETY: only read (`T: Sync`), and the caller keeps the array alive for
// the whole pass.
unsafe impl<T: Sync> Send for Ptr<T> {}
// SAFETY: as for `Send`: shared between tasks only to read.
unsafe impl<T: Sync> Sync for Ptr<T> {}

/// Rows of the outer index per block: fixed by the shape.
fn block_rows<const K: usize>(fr: &Frame<K>) -> usize {
    (BLOCK_ELEMS / fr.inner.max(1)).max(1)
}

/// Per-feature `[Σ a, Σ b]` where `term(p_l, x) = [a, b]` for each element `x`
/// (one value per source) of feature `l`. Zero for a feature with no elements.
pub fn feature_sums<T, P, F, const K: usize>(
    fr: &Frame<K>,
    src: [Ptr<T>; K],
    params: &[P],
    term: F,
) -> Result<Vec<[f64; 2]>, KernelError>
where
    T: BnElem,
    P: Copy + Sync,
    F: Fn(&P, [T::W; K]) -> [T::W; 2] + Sync,
{
    let nf = fr.features;
    if nf == 0 || fr.per_feature() == 0 {
        return Ok(vec![[0.0; 2]; nf]);
    }
    let rows = block_rows(fr);
    let blocks = fr.outer.div_ceil(rows);
    let cells = blocks.saturating_mul(nf);
    // The table of block sums, and the row path's per-task lane accumulators.
    let temp = cells.saturating_mul(16).saturating_add(
        rayon::current_num_threads()
            .saturating_mul(nf)
            .saturating_mul(2 * std::mem::size_of::<T::W>()),
    );
    alloc::admit(temp, &"BatchNorm's per-block sums")?;
    let mut table = vec![[0.0f64; 2]; cells];
    if fr.feature_rows() {
        // Features side by side: each task takes a block of rows, all features.
        table
            .par_chunks_mut(nf)
            .enumerate()
            .try_for_each(|(b, out)| {
                Check::Interrupts.now()?;
                let o_end = ((b + 1) * rows).min(fr.outer);
                rows_sums(fr, src, params, &term, b * rows..o_end, out);
                Ok::<(), KernelError>(())
            })?;
    } else {
        // Feature-major cells: task (l, b) sums feature l over block b.
        table
            .par_iter_mut()
            .enumerate()
            .try_for_each(|(cell, out)| {
                Check::Interrupts.now()?;
                let (l, b) = (cell / blocks, cell % blocks);
                let o_end = ((b + 1) * rows).min(fr.outer);
                let p = params[l];
                let t = |x: [T::W; K]| term(&p, x);
                for o in b * rows..o_end {
                    fr.runs(fr.base(o, l), |_, at| run_sums(fr, src, at, &t, out));
                }
                Ok::<(), KernelError>(())
            })?;
    }
    let mut sums = vec![[0.0f64; 2]; nf];
    for (l, s) in sums.iter_mut().enumerate() {
        for b in 0..blocks {
            let cell = if fr.feature_rows() {
                table[b * nf + l]
            } else {
                table[l * blocks + b]
            };
            s[0] += cell[0];
            s[1] += cell[1];
        }
    }
    Ok(sums)
}

/// Adds one run's terms to `acc`.
#[inline(always)]
fn run_sums<T: BnElem, const K: usize>(
    fr: &Frame<K>,
    src: [Ptr<T>; K],
    at: Strides<K>,
    term: &impl Fn([T::W; K]) -> [T::W; 2],
    acc: &mut [f64; 2],
) {
    let n = fr.run_len;
    if fr.contiguous_runs() {
        // SAFETY: the frame was built from these sources' shapes and strides, so
        // a run's `n` elements from `at` lie inside each source.
        let xs: [&[T]; K] = std::array::from_fn(|k| unsafe {
            std::slice::from_raw_parts(src[k].0.offset(at[k]), n)
        });
        contiguous_sums(xs, term, acc);
    } else {
        for j in 0..n as isize {
            // SAFETY: as above, element j of the run is inside each source.
            let x: [T::W; K] = std::array::from_fn(|k| unsafe {
                (*src[k].0.offset(at[k] + j * fr.run_strides[k])).to_w()
            });
            let t = term(x);
            acc[0] += t[0].to_f64();
            acc[1] += t[1].to_f64();
        }
    }
}

/// Sums of contiguous slices of one length: 8 lanes, flushed into f64.
#[inline(always)]
fn contiguous_sums<T: BnElem, const K: usize>(
    xs: [&[T]; K],
    term: &impl Fn([T::W; K]) -> [T::W; 2],
    acc: &mut [f64; 2],
) {
    let n = xs[0].len();
    let full = n / LANES * LANES;
    let mut start = 0;
    while start < full {
        let end = (start + FLUSH * LANES).min(full);
        let mut a = [[T::W::default(); LANES]; 2];
        for j in (start..end).step_by(LANES) {
            let step: [&[T; LANES]; K] = std::array::from_fn(|k| {
                xs[k][j..j + LANES]
                    .try_into()
                    .unwrap_or_else(|_| unreachable!())
            });
            for lane in 0..LANES {
                let t = term(std::array::from_fn(|k| step[k][lane].to_w()));
                a[0][lane] = a[0][lane] + t[0];
                a[1][lane] = a[1][lane] + t[1];
            }
        }
        for lane in 0..LANES {
            acc[0] += a[0][lane].to_f64();
            acc[1] += a[1][lane].to_f64();
        }
        start = end;
    }
    for j in full..n {
        let t = term(std::array::from_fn(|k| xs[k][j].to_w()));
        acc[0] += t[0].to_f64();
        acc[1] += t[1].to_f64();
    }
}

/// The row path of `feature_sums`: rows `o` of all features, lanes across features.
fn rows_sums<T, P, F, const K: usize>(
    fr: &Frame<K>,
    src: [Ptr<T>; K],
    params: &[P],
    term: &F,
    rows: std::ops::Range<usize>,
    out: &mut [[f64; 2]],
) where
    T: BnElem,
    P: Copy + Sync,
    F: Fn(&P, [T::W; K]) -> [T::W; 2] + Sync,
{
    let nf = fr.features;
    let mut a = vec![[T::W::default(); 2]; nf];
    let mut since_flush = 0;
    for o in rows {
        let at = fr.base(o, 0);
        // SAFETY: feature stride 1 in every source: row o's nf elements are contiguous.
        let xs: [&[T]; K] = std::array::from_fn(|k| unsafe {
            std::slice::from_raw_parts(src[k].0.offset(at[k]), nf)
        });
        for l in 0..nf {
            let t = term(&params[l], std::array::from_fn(|k| xs[k][l].to_w()));
            a[l][0] = a[l][0] + t[0];
            a[l][1] = a[l][1] + t[1];
        }
        since_flush += 1;
        if since_flush == FLUSH {
            flush(&mut a, out);
            since_flush = 0;
        }
    }
    flush(&mut a, out);
}

fn flush<W: Work>(a: &mut [[W; 2]], out: &mut [[f64; 2]]) {
    for (x, o) in a.iter_mut().zip(out.iter_mut()) {
        o[0] += x[0].to_f64();
        o[1] += x[1].to_f64();
        *x = [W::default(); 2];
    }
}

/// The row-major result over the operand's shape: element (o, l, i) is
/// `f(q_l, x)` for its values `x` in the sources, rounded once to `T`.
pub fn apply<T, Q, F, const K: usize>(
    fr: &Frame<K>,
    src: [Ptr<T>; K],
    params: &[Q],
    f: F,
) -> Result<Vec<T>, KernelError>
where
    T: BnElem,
    Q: Copy + Sync,
    F: Fn(&Q, [T::W; K]) -> T::W + Sync,
{
    let total = fr.per_feature().saturating_mul(fr.features);
    // The evaluator admitted the result (the op's checked type) already.
    let mut out: Vec<T> = alloc::try_output_vec(total, &"the normalized result")?;
    if total > 0 {
        let spare = &mut out.spare_capacity_mut()[..total];
        if fr.feature_rows() {
            apply_rows(fr, src, params, &f, spare)?;
        } else {
            apply_runs(fr, src, params, &f, spare)?;
        }
    }
    // SAFETY: the loops above wrote every one of the `total` elements.
    unsafe { out.set_len(total) };
    Ok(out)
}

fn apply_runs<T, Q, F, const K: usize>(
    fr: &Frame<K>,
    src: [Ptr<T>; K],
    params: &[Q],
    f: &F,
    out: &mut [MaybeUninit<T>],
) -> Result<(), KernelError>
where
    T: BnElem,
    Q: Copy + Sync,
    F: Fn(&Q, [T::W; K]) -> T::W + Sync,
{
    let inner = fr.inner;
    let pairs_per_task = (TASK_ELEMS / inner).max(1);
    out.par_chunks_mut(pairs_per_task * inner)
        .enumerate()
        .try_for_each(|(t, chunk)| {
            Check::Interrupts.now()?;
            for (p, dst) in chunk.chunks_mut(inner).enumerate() {
                let q = t * pairs_per_task + p;
                let (o, l) = (q / fr.features, q % fr.features);
                let prm = params[l];
                let g = |x: [T::W; K]| f(&prm, x);
                fr.runs(fr.base(o, l), |i0, at| {
                    run_apply(fr, src, at, &g, &mut dst[i0..i0 + fr.run_len]);
                });
            }
            Ok::<(), KernelError>(())
        })
}

#[inline(always)]
fn run_apply<T: BnElem, const K: usize>(
    fr: &Frame<K>,
    src: [Ptr<T>; K],
    at: Strides<K>,
    g: &impl Fn([T::W; K]) -> T::W,
    dst: &mut [MaybeUninit<T>],
) {
    let n = dst.len();
    if fr.contiguous_runs() {
        // SAFETY: the run's n elements from `at` lie inside each source.
        let xs: [&[T]; K] = std::array::from_fn(|k| unsafe {
            std::slice::from_raw_parts(src[k].0.offset(at[k]), n)
        });
        for (j, d) in dst.iter_mut().enumerate() {
            d.write(T::from_w(g(std::array::from_fn(|k| xs[k][j].to_w()))));
        }
    } else {
        for (j, d) in dst.iter_mut().enumerate() {
            // SAFETY: element j of the run is inside each source.
            let x: [T::W; K] = std::array::from_fn(|k| unsafe {
                (*src[k].0.offset(at[k] + j as isize * fr.run_strides[k])).to_w()
            });
            d.write(T::from_w(g(x)));
        }
    }
}

fn apply_rows<T, Q, F, const K: usize>(
    fr: &Frame<K>,
    src: [Ptr<T>; K],
    params: &[Q],
    f: &F,
    out: &mut [MaybeUninit<T>],
) -> Result<(), KernelError>
where
    T: BnElem,
    Q: Copy + Sync,
    F: Fn(&Q, [T::W; K]) -> T::W + Sync,
{
    let nf = fr.features;
    let rows_per_task = (TASK_ELEMS / nf).max(1);
    out.par_chunks_mut(rows_per_task * nf)
        .enumerate()
        .try_for_each(|(t, chunk)| {
            Check::Interrupts.now()?;
            for (r, dst) in chunk.chunks_mut(nf).enumerate() {
                let at = fr.base(t * rows_per_task + r, 0);
                // SAFETY: feature stride 1: row o's nf elements are contiguous.
                let xs: [&[T]; K] = std::array::from_fn(|k| unsafe {
                    std::slice::from_raw_parts(src[k].0.offset(at[k]), nf)
                });
                for (l, d) in dst.iter_mut().enumerate() {
                    d.write(T::from_w(f(
                        &params[l],
                        std::array::from_fn(|k| xs[k][l].to_w()),
                    )));
                }
            }
            Ok::<(), KernelError>(())
        })
}
