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
    // One reading pass counts every digit.
    let mut hist = vec![[0usize; 256]; K::BYTES];
    for &x in v.iter() {
        let k = key(x);
        for (b, h) in hist.iter_mut().enumerate() {
            h[k.byte(b)] += 1;
        }
    }
    let passes: Vec<usize> = (0..K::BYTES).filter(|&b| !hist[b].contains(&n)).collect();
    if passes.is_empty() {
        return; // every key equal: already in (stable) order
    }
    if scratch.len() != n {
        // Any valid elements will do: every slot is overwritten before it is read.
        scratch.clear();
        scratch.extend_from_slice(v);
    }
    let mut in_v = true; // where the current order lives
    for &b in &passes {
        let mut next = [0usize; 256];
        let mut sum = 0;
        for (d, &c) in hist[b].iter().enumerate() {
            next[d] = sum;
            sum += c;
        }
        let (src, dst): (&[T], &mut [T]) = if in_v {
            (v, scratch.as_mut_slice())
        } else {
            (scratch.as_slice(), v)
        };
        scatter(src, dst, &mut next, |x| key(x).byte(b));
        in_v = !in_v;
    }
    if !in_v {
        v.copy_from_slice(scratch);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency, same numbers every run).
    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn matches_the_standard_stable_sort() {
        let mut seed = 7;
        for &n in &[0usize, 1, 5, 255, 256, 1000, 70_000] {
            // (key, original position): stability shows in the second field.
            let items: Vec<(u32, u32)> = (0..n as u32)
                .map(|i| ((lcg(&mut seed) % 5000) as u32 * 65_537, i))
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
