//! The reference sort: a bottom-up merge sort over positions, calling a
//! comparison (`less(a, b)`: must the element at `a` come before the one at `b`?).
//!
//! This is the order spec/ops/sort.md defines for every comparator, written
//! out so that comparators that are not strict weak orders (`Le`, IEEE `Lt`
//! on rows with NaN) still give one reproducible result:
//! runs of width 1, 2, 4, ... are merged left to right; a merge of the runs
//! `L` and `R` compares the first remaining elements `l` and `r` and takes `r`
//! only if `less(r, l)` is true, else `l` (so equal elements keep their order:
//! the sort is stable); when one run is used up the rest of the other follows.
//!
//! For a strict weak order every stable sort gives this same result, which is
//! what lets the native paths (radix and the standard library's stable sort)
//! stand in for it.

use xlet_core::alloc;
use xlet_core::error::KernelError;

/// The sorted order of positions `0..n`: entry `k` is the position whose
/// element ends up at `k`. Stops at the first error of `less`. Its two buffers
/// of `n` positions are admitted under the memory budget (an error, never an abort).
pub fn merge_sort<E: From<KernelError>>(
    n: usize,
    mut less: impl FnMut(usize, usize) -> Result<bool, E>,
) -> Result<Vec<usize>, E> {
    let mut cur: Vec<usize> = alloc::try_collect(0..n, &"the sort permutation")?;
    let mut next: Vec<usize> = alloc::try_filled(n, 0, &"the merge sort's second buffer")?;
    let mut width = 1;
    while width < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j, mut k) = (lo, mid, lo);
            while i < mid && j < hi {
                if less(cur[j], cur[i])? {
                    next[k] = cur[j];
                    j += 1;
                } else {
                    next[k] = cur[i];
                    i += 1;
                }
                k += 1;
            }
            next[k..k + (mid - i)].copy_from_slice(&cur[i..mid]);
            k += mid - i;
            next[k..hi].copy_from_slice(&cur[j..hi]);
            lo = hi;
        }
        std::mem::swap(&mut cur, &mut next);
        width *= 2;
    }
    Ok(cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by<T: PartialOrd>(xs: &[T]) -> Vec<usize> {
        merge_sort::<KernelError>(xs.len(), |a, b| Ok(xs[a] < xs[b])).unwrap()
    }

    #[test]
    fn sorts_stably() {
        // Keys with duplicates: equal keys keep their positions' order.
        let keys = [3, 1, 2, 1, 3, 0, 2];
        assert_eq!(by(&keys), vec![5, 1, 3, 2, 6, 0, 4]);
        assert_eq!(by::<i32>(&[]), Vec::<usize>::new());
        assert_eq!(by(&[9]), vec![0]);
    }

    #[test]
    fn agrees_with_the_standard_stable_sort_on_strict_weak_orders() {
        let keys: Vec<i32> = (0..1000).map(|i| (i * 7919) % 37).collect();
        let mut want: Vec<usize> = (0..keys.len()).collect();
        want.sort_by_key(|&i| keys[i]);
        assert_eq!(by(&keys), want);
    }

    #[test]
    fn a_comparator_that_is_not_an_order_gives_the_defined_merge_result() {
        // IEEE less-than with a NaN: NaN is "equal" to everything, so the merge of
        // {2, NaN} (already a run after width 1: 2 then NaN) with {1, 0}...
        let xs = [2.0, f64::NAN, 1.0, 0.0];
        // width 1: (2 | NaN) -> 2, NaN ; (1 | 0) -> 0, 1
        // width 2: merge [2, NaN] with [0, 1]: 0 < 2 take 0; 1 < 2 take 1; then 2, NaN.
        assert_eq!(by(&xs), vec![3, 2, 0, 1]);
        let ys = [f64::NAN, 1.0, 0.0];
        // width 1: (NaN | 1) -> NaN, 1 ; (0) ; width 2: merge [NaN, 1] with [0]:
        // 0 < NaN is false, take NaN; 0 < 1 take 0; then 1.
        assert_eq!(by(&ys), vec![0, 2, 1]);
    }

    #[test]
    fn the_first_error_stops_the_sort() {
        let mut calls = 0;
        let r = merge_sort(100, |_, _| {
            calls += 1;
            if calls == 10 {
                Err(KernelError::new("test", "stop"))
            } else {
                Ok(false)
            }
        });
        assert_eq!(r.map_err(|e| e.message), Err("stop".to_string()));
        assert_eq!(calls, 10);
    }
}
