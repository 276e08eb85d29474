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
    // Each thread's (key, position) pairs of one row.
    admit(
        n.saturating_mul(std::mem::size_of::<(T::Key, u32)>())
            .saturating_mul(rayon::current_num_threads()),
        &"TopK's scratch space",
    )?;
    // Rows per parallel task: about `TASK` elements read, at least one row.
    let per_task = (TASK / n).max(1);
    let vbuf = &mut values.spare_capacity_mut()[..total];
    let ibuf = &mut indices.spare_capacity_mut()[..total];
    vbuf.par_chunks_mut(k * per_task)
        .zip(ibuf.par_chunks_mut(k * per_task))
        .zip(data.par_chunks(n * per_task))
        .try_for_each_init(Vec::new, |items, ((vs, is), src)| {
            for ((vrow, irow), row) in vs.chunks_mut(k).zip(is.chunks_mut(k)).zip(src.chunks(n)) {
                if interrupted() {
                    return Err(interrupt_error());
                }
                items.clear();
                // Positions fit in u32: the caller checked n against s32.
                if largest {
                    items.extend(
                        row.iter()
                            .enumerate()
                            .map(|(i, &x)| (!x.total_key(), i as u32)),
                    );
                } else {
                    items.extend(
                        row.iter()
                            .enumerate()
                            .map(|(i, &x)| (x.total_key(), i as u32)),
                    );
                }
                if k < n {
                    items.select_nth_unstable(k - 1);
                }
                let best = &mut items[..k];
                best.sort_unstable();
                for ((v, ix), &(_, p)) in vrow.iter_mut().zip(irow.iter_mut()).zip(best.iter()) {
                    let p = p as usize;
                    v.write(row[p]);
                    ix.write(p as i32);
                }
            }
            Ok(())
        })?;
    // SAFETY: the chunks of `vbuf` and `ibuf` cover all `total` slots (rows * k,
    // k per row, the same row count as `data`'s chunks), and each row wrote all
    // k of its slots in both (`best` has exactly k pairs).
    unsafe {
        values.set_len(total);
        indices.set_len(total);
    }
    Ok((values, indices))
}
