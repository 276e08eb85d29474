//! Sorting rows (spec/ops/sort.md): the native orders (radix sort on keys), the
//! reference merge sort for any comparison, and the layout plumbing that turns
//! "sort along dimension d" into "sort consecutive rows of n elements".
//!
//! An array is sorted along `dim` by copying it with `dim` moved last (its
//! elements then come in rows of `n = dims[dim]`), sorting each row, and
//! handing the rows back as a view with the axes permuted back: one copy, no
//! transpose pass.

pub mod buckets;
pub mod keys;
pub mod merge;
pub mod radix;
pub mod radix_par;
pub mod top_k;

use crate::Src;
use crate::strided::{TASK, interrupt_error, interrupted, try_materialize};
use buckets::sorted_by_key_buckets;
use keys::SortElem;
use ndarray::{ArrayD, IxDyn};
use rayon::prelude::*;
use xlet_core::alloc::{admit, try_output_vec};
use xlet_core::error::KernelError;
use xlet_core::value::Nd;

/// The orders the native sort knows. `Lt`/`Gt` are a comparator that is one IEEE
/// comparison of operand 0's two parameters; `TotalLt`/`TotalGt` the same with
/// `type=TOTALORDER`; `Natural` is `Sort(x)` without a comparator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Natural,
    Lt,
    Gt,
    TotalLt,
    TotalGt,
}

impl Order {
    /// The comparison itself: must `a` come before `b`? (What the reference merge
    /// sort calls, and what the comparator comp would answer.)
    pub fn less<T: SortElem>(self, a: T, b: T) -> bool {
        match self {
            Order::Natural => a.natural_key() < b.natural_key(),
            Order::Lt => a < b,
            Order::Gt => a > b,
            Order::TotalLt => a.total_key() < b.total_key(),
            Order::TotalGt => a.total_key() > b.total_key(),
        }
    }

    /// IEEE `<` and `>` are strict weak orders only without NaN (a NaN is
    /// "equal" to everything, which is not transitive). A row with a NaN is
    /// sorted by the reference merge sort, whose result spec/ops/sort.md defines.
    fn needs_reference<T: SortElem>(self, row: &[T]) -> bool {
        matches!(self, Order::Lt | Order::Gt) && row.iter().any(|x| x.is_nan())
    }
}

/// How often (in comparisons) the merge sort looks at the interrupt flag.
const CHECK_EVERY: usize = 1 << 14;

/// The reference order of one row under `order`, interruptible.
fn reference_perm<T: SortElem>(row: &[T], order: Order) -> Result<Vec<usize>, KernelError> {
    let mut calls = 0usize;
    merge::merge_sort(row.len(), |a, b| {
        calls += 1;
        if calls.is_multiple_of(CHECK_EVERY) && interrupted() {
            return Err(interrupt_error());
        }
        Ok(order.less(row[a], row[b]))
    })
}

/// Sorts one row in place.
pub fn sort_row<T: SortElem>(
    row: &mut [T],
    scratch: &mut Vec<T>,
    order: Order,
) -> Result<(), KernelError> {
    if order.needs_reference(row) {
        let perm = reference_perm(row, order)?;
        let sorted: Vec<T> =
            xlet_core::alloc::try_collect(perm.iter().map(|&i| row[i]), &"a sorted row")?;
        row.copy_from_slice(&sorted);
        return Ok(());
    }
    match order {
        // Without NaN, IEEE `<` is the natural order (-0 = +0).
        Order::Natural | Order::Lt => radix::sort_by_key(row, scratch, T::natural_key),
        Order::Gt => radix::sort_by_key(row, scratch, |x: T| !x.natural_key()),
        Order::TotalLt => radix::sort_by_key(row, scratch, T::total_key),
        Order::TotalGt => radix::sort_by_key(row, scratch, |x: T| !x.total_key()),
    }
    Ok(())
}

/// One row sorted into a new vector: the radix sort's first pass reads `src`
/// where it is, so a whole array that is one row is never copied first.
pub fn sorted_row<T: SortElem>(src: &[T], order: Order) -> Result<Vec<T>, KernelError> {
    let alloc = |n| try_output_vec(n, &"the sorted row");
    if order.needs_reference(src) {
        let perm = reference_perm(src, order)?;
        let mut out = alloc(src.len())?;
        out.extend(perm.iter().map(|&i| src[i]));
        return Ok(out);
    }
    if interrupted() {
        return Err(interrupt_error());
    }
    // The radix sort's second buffer.
    admit(std::mem::size_of_val(src), &"the sort's scratch space")?;
    let threads = rayon::current_num_threads();
    match order {
        Order::Natural | Order::Lt => sorted_by_key_buckets(src, T::natural_key, alloc, threads),
        Order::Gt => sorted_by_key_buckets(src, |x: T| !x.natural_key(), alloc, threads),
        Order::TotalLt => sorted_by_key_buckets(src, T::total_key, alloc, threads),
        Order::TotalGt => sorted_by_key_buckets(src, |x: T| !x.total_key(), alloc, threads),
    }
}

/// The sorted order of one row's positions into `out`.
pub fn perm_row<T: SortElem>(
    row: &[T],
    out: &mut [usize],
    items: &mut Vec<(T::Key, usize)>,
    scratch: &mut Vec<(T::Key, usize)>,
    order: Order,
) -> Result<(), KernelError> {
    if order.needs_reference(row) {
        out.copy_from_slice(&reference_perm(row, order)?);
        return Ok(());
    }
    let key: fn(T) -> T::Key = match order {
        Order::Natural | Order::Lt => T::natural_key,
        Order::Gt => |x| !x.natural_key(),
        Order::TotalLt => T::total_key,
        Order::TotalGt => |x| !x.total_key(),
    };
    items.clear();
    items.extend(row.iter().enumerate().map(|(i, &x)| (key(x), i)));
    radix::sort_by_key(items, scratch, |p| p.0);
    for (o, p) in out.iter_mut().zip(items.iter()) {
        *o = p.1;
    }
    Ok(())
}

/// Rows per parallel task: about `TASK` elements, at least one row.
fn rows_per_task(n: usize) -> usize {
    (TASK / n.max(1)).max(1)
}

/// Sorts each row (consecutive runs of `n`) of `data` in place, rows in parallel.
pub fn sort_rows<T: SortElem>(data: &mut [T], n: usize, order: Order) -> Result<(), KernelError> {
    if n == 0 {
        return Ok(());
    }
    // Each thread's scratch row.
    admit(
        n.min(data.len()) * std::mem::size_of::<T>() * rayon::current_num_threads(),
        &"the sort's scratch space",
    )?;
    data.par_chunks_mut(n * rows_per_task(n))
        .try_for_each_init(Vec::new, |scratch, chunk| {
            for row in chunk.chunks_mut(n) {
                if interrupted() {
                    return Err(interrupt_error());
                }
                sort_row(row, scratch, order)?;
            }
            Ok(())
        })
}

/// For each row of `keys`, the sorted order of its positions (row-relative).
pub fn perm_rows<T: SortElem>(
    keys: &[T],
    n: usize,
    order: Order,
) -> Result<Vec<usize>, KernelError> {
    let mut perm: Vec<usize> = try_output_vec(keys.len(), &"the sort permutation")?;
    perm.resize(keys.len(), 0);
    if n == 0 {
        return Ok(perm);
    }
    // The (key, position) pairs and their scratch: two more per-thread buffers.
    admit(
        2 * n.min(keys.len())
            * std::mem::size_of::<(T::Key, usize)>()
            * rayon::current_num_threads(),
        &"the sort's scratch space",
    )?;
    let step = n * rows_per_task(n);
    perm.par_chunks_mut(step)
        .zip(keys.par_chunks(step))
        .try_for_each_init(
            || (Vec::new(), Vec::new()),
            |(items, scratch), (out, rows)| {
                for (o, row) in out.chunks_mut(n).zip(rows.chunks(n)) {
                    if interrupted() {
                        return Err(interrupt_error());
                    }
                    perm_row(row, o, items, scratch, order)?;
                }
                Ok(())
            },
        )?;
    Ok(perm)
}

/// For each row, the order the fallible comparison `less(row, a, b)` sorts it
/// into, by the reference merge sort (rows one after another: the comparison
/// may be a comp run by the evaluator, which is not shared between threads).
pub fn perm_rows_by(
    rows: usize,
    n: usize,
    mut less: impl FnMut(usize, usize, usize) -> Result<bool, KernelError>,
) -> Result<Vec<usize>, KernelError> {
    let mut perm: Vec<usize> = try_output_vec(rows.saturating_mul(n), &"the sort permutation")?;
    let mut calls = 0usize;
    for r in 0..rows {
        let p = merge::merge_sort(n, |a, b| {
            calls += 1;
            if calls.is_multiple_of(256) && interrupted() {
                return Err(interrupt_error());
            }
            less(r, a, b)
        })?;
        perm.extend_from_slice(&p);
    }
    Ok(perm)
}

/// Row `r` of `src` reordered by row `r` of `perm`, for every row.
pub fn gather_rows<T: Copy + Send + Sync>(
    src: &[T],
    perm: &[usize],
    n: usize,
) -> Result<Vec<T>, KernelError> {
    if perm.len() != src.len() {
        return Err(KernelError::new(
            "internal",
            "internal error: a sort permutation of the wrong length",
        ));
    }
    let mut out: Vec<T> = try_output_vec(src.len(), &"a sorted operand")?;
    if n == 0 {
        return Ok(out);
    }
    let step = n * rows_per_task(n);
    let buf = &mut out.spare_capacity_mut()[..src.len()];
    buf.par_chunks_mut(step)
        .zip(src.par_chunks(step))
        .zip(perm.par_chunks(step))
        .try_for_each(|((o, s), p)| {
            if interrupted() {
                return Err(interrupt_error());
            }
            for ((orow, srow), prow) in o.chunks_mut(n).zip(s.chunks(n)).zip(p.chunks(n)) {
                for (d, &i) in orow.iter_mut().zip(prow) {
                    d.write(srow[i]);
                }
            }
            Ok(())
        })?;
    // SAFETY: the chunks of `buf` cover all `src.len()` slots and every row wrote
    // each of its slots (a row of `perm` has one entry per slot).
    unsafe { out.set_len(src.len()) };
    Ok(out)
}

/// The axis order that moves `dim` last: `{0, .., dim-1, dim+1, .., rank-1, dim}`.
fn moved_axes(rank: usize, dim: usize) -> Vec<usize> {
    (0..rank).filter(|&d| d != dim).chain([dim]).collect()
}

/// The elements of `a` with dimension `dim` moved last, in row-major order: rows
/// of `a.shape()[dim]` elements, one per index of the other dimensions. A fresh
/// buffer, admitted under the memory budget.
pub fn rows_of<T: Copy + Send + Sync>(a: &Nd<T>, dim: usize) -> Result<Vec<T>, KernelError> {
    let moved = a.clone().permuted_axes(IxDyn(&moved_axes(a.ndim(), dim)));
    if let Some(s) = moved.as_slice() {
        let mut v = try_output_vec(s.len(), &"the rows to sort")?;
        v.extend_from_slice(s);
        return Ok(v);
    }
    admit(
        moved.len().saturating_mul(std::mem::size_of::<T>()),
        &"the rows to sort",
    )?;
    let m = try_materialize(moved.shape(), &Src::of(&moved))?;
    Ok(m.into_raw_vec_and_offset().0)
}

/// The inverse of `rows_of`: `rows` (dimension `dim` last) as an array of `dims`,
/// a view with permuted axes over the same buffer.
pub fn from_rows<T: Copy>(rows: Vec<T>, dims: &[usize], dim: usize) -> Result<Nd<T>, KernelError> {
    let axes = moved_axes(dims.len(), dim);
    let moved_dims: Vec<usize> = axes.iter().map(|&d| dims[d]).collect();
    let mut back = vec![0; dims.len()];
    for (k, &d) in axes.iter().enumerate() {
        back[d] = k;
    }
    let a = ArrayD::from_shape_vec(IxDyn(&moved_dims), rows).map_err(|_| {
        KernelError::new(
            "internal",
            "internal error: sorted rows do not fill the shape",
        )
    })?;
    Ok(a.into_shared().permuted_axes(IxDyn(&back)))
}

#[cfg(test)]
mod tests;
