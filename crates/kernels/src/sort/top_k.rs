//! TopK (spec/ops/top_k.md): the `k` largest (or smallest) elements of each
//! row, with their positions in the row.
//!
//! The order is the total order of `SortElem::total_key` (for floats
//! -NaN < -inf < ... < -0 < +0 < ... < inf < +NaN; for integers the numeric
//! order), descending when `largest`, ascending otherwise; equal keys keep the
//! lower position first. Each row's (key, position) pairs are therefore all
//! distinct and totally ordered, so a selection (`select_nth_unstable`, linear
//! time) followed by sorting only the first `k` gives exactly what a stable
//! full sort would, in O(n + k log k) per row instead of O(n log n).
//!
//! The selection runs over a stream (`best_of`): candidates are cut back to
//! the best k whenever 2k (at least k + 1024) have gathered, and then an
//! element no better than the worst kept costs one comparison, so for small k
//! a row is read once at memory speed and the scratch is O(k), not O(n).
//! Fewer rows than threads, each of at least 2^16 elements, are split across
//! the threads and the pieces' candidates merged (a single long row is one
//! of jax's benchmarks: `lax.top_k` of f32[10^6]).

use super::keys::SortElem;
use crate::strided::{TASK, interrupt_error, interrupted};
use rayon::prelude::*;
use xlet_core::alloc::{admit, try_output_vec};
use xlet_core::error::KernelError;

/// The top `k` of each row of `n` elements of `data` (rows consecutive): the
/// values and the positions (0-based, within the row), `k` per row, rows in
/// order. Requires `k <= n` and `n <= i32::MAX + 1` (positions fit in s32).
pub fn top_k_rows<T: SortElem>(
    data: &[T],
    n: usize,
    k: usize,
    largest: bool,
) -> Result<(Vec<T>, Vec<i32>), KernelError> {
    if k > n || (n > 0 && !data.len().is_multiple_of(n)) {
        return Err(KernelError::new(
            "internal",
            "internal error: TopK with k larger than the row or a partial row",
        ));
    }
    let rows = data.len().checked_div(n).unwrap_or(0);
    let total = rows.saturating_mul(k);
    let mut values: Vec<T> = try_output_vec(total, &"TopK's values")?;
    let mut indices: Vec<i32> = try_output_vec(total, &"TopK's indices")?;
    if total == 0 {
        return Ok((values, indices));
    }
    // Each thread's candidate pairs: at most `cap(k)` at a time.
    admit(
        cap(k, n)
            .saturating_mul(std::mem::size_of::<(T::Key, u32)>())
            .saturating_mul(rayon::current_num_threads() + 1),
        &"TopK's scratch space",
    )?;
    let vbuf = &mut values.spare_capacity_mut()[..total];
    let ibuf = &mut indices.spare_capacity_mut()[..total];
    let threads = rayon::current_num_threads();
    if rows < threads && n >= SPLIT_ROW {
        // Few long rows: each row's pieces in parallel, then their candidates
        // (k per piece, positions in the row) merged.
        let piece = n.div_ceil(threads);
        for ((vrow, irow), row) in vbuf
            .chunks_mut(k)
            .zip(ibuf.chunks_mut(k))
            .zip(data.chunks(n))
        {
            let parts: Vec<Vec<(T::Key, u32)>> = row
                .par_chunks(piece)
                .enumerate()
                .map(|(p, part)| {
                    let mut items = Vec::new();
                    best_of(part, p * piece, k, largest, &mut items)?;
                    Ok(items)
                })
                .collect::<Result<_, KernelError>>()?;
            let mut items: Vec<(T::Key, u32)> = parts.into_iter().flatten().collect();
            finish(&mut items, k);
            write_row(row, &items, vrow, irow);
        }
    } else {
        // Rows per parallel task: about `TASK` elements read, at least one row.
        let per_task = (TASK / n).max(1);
        vbuf.par_chunks_mut(k * per_task)
            .zip(ibuf.par_chunks_mut(k * per_task))
            .zip(data.par_chunks(n * per_task))
            .try_for_each_init(Vec::new, |items, ((vs, is), src)| {
                for ((vrow, irow), row) in vs.chunks_mut(k).zip(is.chunks_mut(k)).zip(src.chunks(n))
                {
                    best_of(row, 0, k, largest, items)?;
                    finish(items, k);
                    write_row(row, items, vrow, irow);
                }
                Ok::<(), KernelError>(())
            })?;
    }
    // SAFETY: the chunks of `vbuf` and `ibuf` cover all `total` slots (rows * k,
    // k per row, the same row count as `data`'s chunks), and `write_row` wrote
    // all k slots of each row in both: a row's candidates number at least k
    // (each piece keeps min(k, its length) and the pieces make the row), and
    // every kept position is inside the row.
    unsafe {
        values.set_len(total);
        indices.set_len(total);
    }
    Ok((values, indices))
}

/// Rows at least this long are split across threads when there are fewer rows
/// than threads.
const SPLIT_ROW: usize = 1 << 16;

/// The most candidates kept at once before they are cut back to `k`.
fn cap(k: usize, n: usize) -> usize {
    k.saturating_mul(2).max(k + 1024).min(n.max(1))
}

/// The best `k` (key, position) pairs of `part` (positions counted from
/// `offset`) left in `items`, unordered; a smaller pair is better (the key of
/// `largest` is negated). A streaming filter: candidates gather up to `cap`,
/// are cut back to the best `k` by a linear-time selection, and from then on
/// a pair no better than the worst kept is skipped with one comparison. The
/// pairs of a row are distinct (positions differ), so what is skipped is
/// never among the best `k`: `k` better ones are already kept.
fn best_of<T: SortElem>(
    part: &[T],
    offset: usize,
    k: usize,
    largest: bool,
    items: &mut Vec<(T::Key, u32)>,
) -> Result<(), KernelError> {
    items.clear();
    if k == 0 {
        return Ok(());
    }
    let cap = cap(k, part.len());
    let mut worst: Option<(T::Key, u32)> = None;
    for (i, &x) in part.iter().enumerate() {
        let key = if largest {
            !x.total_key()
        } else {
            x.total_key()
        };
        // Positions fit in u32: the caller checked n against s32.
        let pair = (key, (offset + i) as u32);
        if worst.is_some_and(|w| pair >= w) {
            continue;
        }
        items.push(pair);
        // (A piece of a split row may be shorter than `k`: keep it whole.)
        if items.len() >= cap && items.len() > k {
            if interrupted() {
                return Err(interrupt_error());
            }
            items.select_nth_unstable(k - 1);
            items.truncate(k);
            worst = items.iter().max().copied();
        }
    }
    if interrupted() {
        return Err(interrupt_error());
    }
    Ok(())
}

/// Cuts `items` to its best `k` pairs, best first.
fn finish<K: Ord>(items: &mut Vec<(K, u32)>, k: usize) {
    if k > 0 && items.len() > k {
        items.select_nth_unstable(k - 1);
    }
    items.truncate(k);
    items.sort_unstable();
}

/// Writes one row's result: the values at the kept positions, and the positions.
fn write_row<T: Copy, K>(
    row: &[T],
    best: &[(K, u32)],
    vrow: &mut [std::mem::MaybeUninit<T>],
    irow: &mut [std::mem::MaybeUninit<i32>],
) {
    for ((v, ix), (_, p)) in vrow.iter_mut().zip(irow.iter_mut()).zip(best.iter()) {
        let p = *p as usize;
        if let Some(&x) = row.get(p) {
            v.write(x);
        }
        ix.write(p as i32);
    }
}
