//! One long row sorted by splitting it first (issue 26: Sort of f32[10^6] was
//! slower than numpy's vectorised quicksort on an AVX2 CPU).
//!
//! The LSD radix sort of `radix_par.rs` makes four scattering passes over the
//! whole row for a 4-byte key, each through memory (a row of 10^6 f32 and its
//! second buffer are 8 MB, past L2), plus a counting pass before each. This
//! one makes two passes over the whole row, then works in cache:
//!
//! 1. the keys' smallest and largest values (one reading pass);
//! 2. each element's *bucket*: the top `BUCKET_BITS` bits of `key - min`,
//!    which is monotonic in the key; counted per stretch of the row and
//!    scattered stably into the output, each stretch writing its own slots
//!    (the scheme of `radix_par::scatter_par`);
//! 3. each bucket sorted in place by an LSD radix sort of the key's bits
//!    below the bucket's (`Digits`: for a 19-bit remainder two passes of 10
//!    bits), buckets shared out among the threads. A bucket is a few
//!    thousand to a few tens of thousands of elements, so its passes run in
//!    L1 and L2.
//!
//! The buckets are stable and in key order, and each bucket's sort is stable,
//! so the result is the one stable sort by the key: the same as every other
//! path, bit for bit (`tests` compares it with the one-thread LSD sort).
//!
//! A bucket of more than half the row (many equal keys beside a few far ones)
//! would put most of the work on one thread; then the row goes to the LSD
//! radix sort of `radix_par.rs`, which splits every pass evenly.

use super::keys::RadixKey;
use super::radix_par::{scatter_par, sorted_by_key_par};
use rayon::prelude::*;

/// How many bits of the key choose the bucket: 2^12 buckets. Wide enough that
/// floats of one binade (2^23 keys) still split 2^(23 - 20) = 8 ways when the
/// keys span 32 bits, and a stretch's count table is 32 KiB.
const BUCKET_BITS: u32 = 12;

/// Below this length the row goes to `sorted_by_key_par` (which sorts rows
/// below its own threshold on one thread): the two extra passes do not pay.
pub const BUCKETS_MIN: usize = 1 << 16;

/// `src` sorted stably by `key` into a new vector from `alloc`, by buckets as
/// above, using `threads` threads.
pub fn sorted_by_key_buckets<T, K, E>(
    src: &[T],
    key: impl Fn(T) -> K + Sync,
    alloc: impl Fn(usize) -> Result<Vec<T>, E>,
    threads: usize,
) -> Result<Vec<T>, E>
where
    T: Copy + Send + Sync,
    K: RadixKey,
{
    let n = src.len();
    if n < BUCKETS_MIN {
        return sorted_by_key_par(src, key, alloc, threads);
    }
    let stretch = n.div_ceil(threads.max(1));
    let Some((lo, hi)) = src.par_chunks(stretch).map(|c| key_range(c, &key)).reduce(
        || None,
        |a, b| match (a, b) {
            (Some((l0, h0)), Some((l1, h1))) => Some((l0.min(l1), h0.max(h1))),
            (a, None) => a,
            (None, b) => b,
        },
    ) else {
        // An empty row (n >= BUCKETS_MIN, so never; kept total).
        return alloc(0);
    };
    let span = hi - lo;
    let shift = (u64::BITS - span.leading_zeros()).saturating_sub(BUCKET_BITS);
    let buckets = (span >> shift) as usize + 1;
    // The key above the smallest: monotonic in the key; its top bits are the
    // bucket, its low `shift` bits order a bucket.
    let rel = |x: T| key(x).wide() - lo;
    let bucket = |x: T| (rel(x) >> shift) as usize;
    let counts: Vec<Vec<usize>> = src
        .par_chunks(stretch)
        .map(|c| {
            let mut h = vec![0usize; buckets];
            for &x in c {
                h[bucket(x)] += 1;
            }
            h
        })
        .collect();
    let sizes: Vec<usize> = (0..buckets)
        .map(|b| counts.iter().map(|h| h[b]).sum())
        .collect();
    if sizes.iter().any(|&s| s > n / 2) {
        return sorted_by_key_par(src, key, alloc, threads);
    }
    let mut out = alloc(n)?;
    scatter_par(src, &mut out, &counts, stretch, bucket);
    sort_buckets(&mut out, &sizes, threads, &rel, shift);
    Ok(out)
}

/// The smallest and largest key of `v` (None when it is empty).
fn key_range<T: Copy, K: RadixKey>(v: &[T], key: &impl Fn(T) -> K) -> Option<(u64, u64)> {
    let mut it = v.iter().map(|&x| key(x).wide());
    let first = it.next()?;
    Some(it.fold((first, first), |(l, h), k| (l.min(k), h.max(k))))
}

/// Sorts each bucket of `v` (consecutive runs of `sizes[b]` elements) in place,
/// the buckets dealt out in runs of about an equal number of elements, a few
/// runs per thread so that an uneven one does not hold the others up. Within
/// bucket `b` every key lies in `lo + [b << shift, (b + 1) << shift)`, so the
/// key's low `shift` bits above `lo` order it.
fn sort_buckets<T: Copy + Send + Sync>(
    v: &mut [T],
    sizes: &[usize],
    threads: usize,
    rel: &(impl Fn(T) -> u64 + Sync),
    shift: u32,
) {
    let per_task = v.len().div_ceil(4 * threads.max(1)).max(1);
    let mut tasks: Vec<(&mut [T], &[usize])> = Vec::new();
    let mut rest = v;
    let mut first = 0;
    let mut filled = 0;
    for (b, &s) in sizes.iter().enumerate() {
        filled += s;
        if filled >= per_task || b + 1 == sizes.len() {
            let (run, tail) = std::mem::take(&mut rest).split_at_mut(filled);
            tasks.push((run, &sizes[first..=b]));
            rest = tail;
            first = b + 1;
            filled = 0;
        }
    }
    let digits = Digits::new(shift);
    tasks.into_par_iter().for_each(|(mut run, sizes)| {
        let mut scratch = Vec::new();
        let mut counts = vec![0usize; digits.passes * RADIX_MAX];
        for &s in sizes {
            let (bucket, tail) = std::mem::take(&mut run).split_at_mut(s);
            digits.sort(bucket, &mut scratch, &mut counts, rel);
            run = tail;
        }
    });
}

/// Below this many elements a bucket is sorted by the standard library's
/// stable sort.
const SMALL_BUCKET: usize = 64;

/// The widest digit of a bucket's passes: 2^11 counts (16 KiB) per pass.
const DIGIT_BITS: u32 = 11;
const RADIX_MAX: usize = 1 << DIGIT_BITS;

/// How a bucket's `bits` low key bits are cut into LSD digits: the fewest
/// passes of at most `DIGIT_BITS` bits, all of one width.
struct Digits {
    passes: usize,
    width: u32,
}

impl Digits {
    fn new(bits: u32) -> Digits {
        let passes = bits.div_ceil(DIGIT_BITS).max(1);
        Digits {
            passes: passes as usize,
            width: bits.div_ceil(passes).max(1),
        }
    }

    /// Sorts `v` stably by `rel` (whose value is below 2^(passes * width)):
    /// one counting pass for every digit, then one scattering pass per digit
    /// between `v` and `scratch`, copied back after an odd number.
    fn sort<T: Copy>(
        &self,
        v: &mut [T],
        scratch: &mut Vec<T>,
        counts: &mut [usize],
        rel: &impl Fn(T) -> u64,
    ) {
        let n = v.len();
        if n < SMALL_BUCKET {
            v.sort_by_key(|&x| rel(x));
            return;
        }
        let radix = 1usize << self.width;
        let mask = (radix - 1) as u64;
        let Some(counts) = counts.get_mut(..self.passes * radix) else {
            return v.sort_by_key(|&x| rel(x)); // never: `counts` has room for any width
        };
        counts.fill(0);
        for &x in v.iter() {
            let k = rel(x);
            for (p, table) in counts.chunks_exact_mut(radix).enumerate() {
                // The digit is below `radix`, so the check never fails.
                let d = ((k >> (p as u32 * self.width)) & mask) as usize;
                if let Some(c) = table.get_mut(d) {
                    *c += 1;
                }
            }
        }
        // The second buffer: grown once to the task's largest bucket, never
        // written before a pass fills it.
        if scratch.len() < n {
            scratch.resize(n, v[0]);
        }
        let scratch = &mut scratch[..n];
        let mut in_v = true;
        for (p, table) in counts.chunks_exact_mut(radix).enumerate() {
            if table.contains(&n) {
                continue; // one value of this digit: the order stays
            }
            let mut sum = 0;
            for c in table.iter_mut() {
                let here = *c;
                *c = sum;
                sum += here;
            }
            let at = p as u32 * self.width;
            let (src, dst): (&[T], &mut [T]) = match in_v {
                true => (v, scratch),
                false => (scratch, v),
            };
            for &x in src {
                let d = ((rel(x) >> at) & mask) as usize;
                // `table` holds the prefix sums of this digit's counts over
                // the bucket, so every slot stays below `n`: the checks
                // never fail.
                if let Some(slot) = table.get_mut(d)
                    && let Some(out) = dst.get_mut(*slot)
                {
                    *out = x;
                    *slot += 1;
                }
            }
            in_v = !in_v;
        }
        if !in_v {
            v.copy_from_slice(scratch);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sort::radix::sorted_by_key;
    use xlet_core::test_support::Rng;

    #[test]
    fn buckets_give_the_one_thread_sort() {
        let mut rng = Rng::new(5);
        let alloc = |n| Ok::<_, ()>(Vec::with_capacity(n));
        for &n in &[BUCKETS_MIN - 1, BUCKETS_MIN, 100_003, 300_000] {
            // spread 1: one key; 3: three keys (a bucket over half the row:
            // the LSD fallback); the rest: narrow to the full 32 bits.
            for spread in [1u64, 3, 300, 70_000, 1 << 24, 1 << 32] {
                let items: Vec<(u32, u32)> = (0..n as u32)
                    .map(|i| (((rng.next_u64() >> 20) % spread) as u32, i))
                    .collect();
                let one = sorted_by_key(&items, |x| x.0, alloc).unwrap();
                for threads in [1, 2, 3, 8] {
                    let got = sorted_by_key_buckets(&items, |x| x.0, alloc, threads).unwrap();
                    assert_eq!(got, one, "n {n}, spread {spread}, {threads} threads");
                }
            }
        }
    }

    #[test]
    fn skewed_and_far_keys_give_the_one_thread_sort() {
        // Most keys in a narrow band and a few far out: the buckets are
        // uneven, and with 40% in one band-bucket still under half the row.
        let mut rng = Rng::new(9);
        let alloc = |n| Ok::<_, ()>(Vec::with_capacity(n));
        let n = 200_000u32;
        for far in [1u64, 1000, 1 << 40, u64::MAX] {
            let items: Vec<(u64, u32)> = (0..n)
                .map(|i| {
                    let r = rng.next_u64();
                    let k = match r % 10 {
                        0..=3 => 5 + (r >> 60),
                        4 => far - (r >> 62),
                        _ => (r >> 8) % 1_000_000,
                    };
                    (k, i)
                })
                .collect();
            let one = sorted_by_key(&items, |x| x.0, alloc).unwrap();
            let got = sorted_by_key_buckets(&items, |x| x.0, alloc, 2).unwrap();
            assert_eq!(got, one, "far {far}");
        }
    }

    #[test]
    fn float_keys_with_zeros_and_nans_give_the_one_thread_sort() {
        use crate::sort::keys::SortElem;
        let mut rng = Rng::new(13);
        let alloc = |n| Ok::<_, ()>(Vec::with_capacity(n));
        let x: Vec<f32> = (0..150_000)
            .map(|i| match i % 97 {
                0 => f32::NAN,
                1 => -f32::NAN,
                2 => -0.0,
                3 => 0.0,
                4 => f32::NEG_INFINITY,
                _ => ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 1e3,
            })
            .collect();
        for key in [f32::natural_key as fn(f32) -> u32, f32::total_key] {
            let one = sorted_by_key(&x, key, alloc).unwrap();
            let got = sorted_by_key_buckets(&x, key, alloc, 2).unwrap();
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&got), bits(&one));
        }
    }

    /// One row of 10^6 f32, split into buckets and by the LSD passes alone
    /// (`radix_par`), on one thread and on all (run by hand: `cargo test
    /// --release -p xlet-kernels bucket_sort_timing -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn bucket_sort_timing() {
        use crate::sort::keys::SortElem;
        let mut rng = Rng::new(1);
        let x: Vec<f32> = (0..1_000_000)
            .map(|_| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0)
            .collect();
        let alloc = |n| Ok::<_, ()>(Vec::with_capacity(n));
        let time = |f: &dyn Fn() -> Vec<f32>| {
            let mut ms: Vec<f64> = (0..11)
                .map(|_| {
                    let s = std::time::Instant::now();
                    std::hint::black_box(f());
                    s.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            ms.sort_by(f64::total_cmp);
            ms[5]
        };
        for threads in [1, rayon::current_num_threads()] {
            let b = time(&|| sorted_by_key_buckets(&x, f32::natural_key, alloc, threads).unwrap());
            let l = time(&|| sorted_by_key_par(&x, f32::natural_key, alloc, threads).unwrap());
            println!("sort f32[1000000], {threads} threads: buckets {b:.2} ms, LSD {l:.2} ms");
        }
    }
}
