//! A stable LSD radix sort on integer keys, one byte per pass.
//!
//! Why radix: the target is sorting f32[1000000] in a few milliseconds, and a
//! comparison sort needs ~20 passes' worth of comparisons (n log n) where this
//! needs at most `Key::BYTES` (4 for f32) reading and scattering passes. It is
//! stable by construction (each pass keeps the order of equal digits), so it
//! gives exactly the result of any other stable sort by the same key.
//!
//! The key is computed from the element on every pass instead of being stored
//! beside it: for f32 that is a few integer operations, cheaper than moving
//! twice the bytes. A pass whose digit is the same for every element (common
//! for the top byte of floats in a narrow range) is skipped.

use super::keys::RadixKey;

/// Below this length the standard library's stable sort (by the same key) is
/// faster than counting 256 buckets per digit.
const SMALL: usize = 256;

/// Sorts `v` stably by `key`. `scratch` is reused between calls (a row at a time).
pub fn sort_by_key<T: Copy, K: RadixKey>(v: &mut [T], scratch: &mut Vec<T>, key: impl Fn(T) -> K) {
    let n = v.len();
    if n < SMALL {
        v.sort_by_key(|&x| key(x));
        return;
    }
    let hist = histograms(v, &key);
    let passes = needed_passes(&hist, n);
    let mut in_v = true; // where the current order lives
    for &b in &passes {
        let mut next = starts(&hist[b]);
        let digit = |x: T| key(x).byte(b);
        if in_v {
            scatter_fresh(v, scratch, &mut next, digit);
        } else {
            scatter(scratch, v, &mut next, digit);
        }
        in_v = !in_v;
    }
    if !in_v {
        v.copy_from_slice(scratch);
    }
}

/// `src` sorted stably by `key`, in a new vector from `alloc`: the first pass
/// reads `src` itself (no copy of it is made first), and the result is
/// whichever of the two buffers the last pass wrote.
pub fn sorted_by_key<T: Copy, K: RadixKey, E>(
    src: &[T],
    key: impl Fn(T) -> K,
    alloc: impl Fn(usize) -> Result<Vec<T>, E>,
) -> Result<Vec<T>, E> {
    let n = src.len();
    let mut a = alloc(n)?;
    if n < SMALL {
        a.extend_from_slice(src);
        a.sort_by_key(|&x| key(x));
        return Ok(a);
    }
    let hist = histograms(src, &key);
    let passes = needed_passes(&hist, n);
    let Some((&first, rest)) = passes.split_first() else {
        a.extend_from_slice(src);
        return Ok(a);
    };
    scatter_fresh(src, &mut a, &mut starts(&hist[first]), |x| {
        key(x).byte(first)
    });
    if rest.is_empty() {
        return Ok(a);
    }
    let mut b = alloc(n)?;
    for &p in rest {
        scatter_fresh(&a, &mut b, &mut starts(&hist[p]), |x| key(x).byte(p));
        std::mem::swap(&mut a, &mut b);
    }
    Ok(a)
}

/// The counts of every digit value, for every digit, in one reading pass.
fn histograms<T: Copy, K: RadixKey>(v: &[T], key: &impl Fn(T) -> K) -> Vec<[usize; 256]> {
    let mut hist = vec![[0usize; 256]; K::BYTES];
    for &x in v {
        let k = key(x);
        for (b, h) in hist.iter_mut().enumerate() {
            h[k.byte(b)] += 1;
        }
    }
    hist
}

/// The digits that do not hold one value for every element (the others would
/// leave the order as it is).
fn needed_passes(hist: &[[usize; 256]], n: usize) -> Vec<usize> {
    (0..hist.len()).filter(|&b| !hist[b].contains(&n)).collect()
}

/// Where each digit value's run starts: the prefix sums of the counts.
fn starts(counts: &[usize; 256]) -> [usize; 256] {
    let mut next = [0usize; 256];
    let mut sum = 0;
    for (d, &c) in counts.iter().enumerate() {
        next[d] = sum;
        sum += c;
    }
    next
}

/// One counting-sort pass: element `x` goes to `dst[next[digit(x)]]`, in order.
#[inline(always)]
fn scatter<T: Copy>(src: &[T], dst: &mut [T], next: &mut [usize; 256], digit: impl Fn(T) -> usize) {
    for &x in src {
        let d = digit(x);
        // The offsets start at the prefix sums of the digit counts of `src`, so
        // they stay below `dst.len()` (= `src.len()`); the index check remains
        // as a guard and costs little beside the scattered store.
        dst[next[d]] = x;
        next[d] += 1;
    }
}

/// `scatter` into `dst`'s spare capacity, without initialising it first; `dst`
/// then holds exactly `src.len()` elements.
#[inline(always)]
fn scatter_fresh<T: Copy>(
    src: &[T],
    dst: &mut Vec<T>,
    next: &mut [usize; 256],
    digit: impl Fn(T) -> usize,
) {
    let n = src.len();
    dst.clear();
    dst.reserve_exact(n);
    let spare = &mut dst.spare_capacity_mut()[..n];
    for &x in src {
        let d = digit(x);
        spare[next[d]].write(x);
        next[d] += 1;
    }
    // SAFETY: `next` started at the prefix sums of the counts of each digit
    // value in `src`, so the run of value `d` is `[start_d, start_d + count_d)`,
    // the runs partition `0..n`, and the loop wrote each slot of each run once:
    // all `n` slots are initialised.
    unsafe { dst.set_len(n) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use xlet_core::test_support::Rng;

    #[test]
    fn matches_the_standard_stable_sort() {
        let mut rng = Rng::new(7);
        for &n in &[0usize, 1, 5, 255, 256, 1000, 70_000] {
            // (key, original position): stability shows in the second field.
            let items: Vec<(u32, u32)> = (0..n as u32)
                .map(|i| (((rng.next_u64() >> 33) % 5000) as u32 * 65_537, i))
                .collect();
            let mut fast = items.clone();
            let mut scratch = vec![];
            sort_by_key(&mut fast, &mut scratch, |x| x.0);
            let mut slow = items;
            slow.sort_by_key(|x| x.0);
            assert_eq!(fast, slow, "n = {n}");
        }
    }

    #[test]
    fn sorting_into_a_new_vector_matches_sorting_in_place() {
        let mut rng = Rng::new(3);
        for &n in &[0usize, 10, 300, 5000] {
            for spread in [1u64, 200, 1 << 30] {
                let items: Vec<(u32, u32)> = (0..n as u32)
                    .map(|i| (((rng.next_u64() >> 33) % spread) as u32, i))
                    .collect();
                let fresh =
                    sorted_by_key::<_, _, ()>(&items, |x| x.0, |n| Ok(Vec::with_capacity(n)))
                        .unwrap();
                let mut in_place = items.clone();
                sort_by_key(&mut in_place, &mut vec![], |x| x.0);
                assert_eq!(fresh, in_place, "n = {n}, spread {spread}");
            }
        }
    }

    #[test]
    fn skipped_passes_and_odd_pass_counts_end_in_place() {
        // Keys that differ only in byte 1: one pass, the result lands in scratch
        // and must be copied back.
        let mut v: Vec<u64> = (0..1000u64).rev().map(|i| (i % 200) << 8).collect();
        let mut want = v.clone();
        want.sort();
        sort_by_key(&mut v, &mut vec![], |x| x);
        assert_eq!(v, want);
    }
}
