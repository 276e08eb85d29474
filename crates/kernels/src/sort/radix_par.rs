//! The radix sort of `radix.rs` for one long row, on every thread (issue 26:
//! Sort of f32[10^6] in one row had one core of work where numpy's AVX-512
//! quicksort was 2.8x faster).
//!
//! The row is cut into one stretch per thread. Each pass, every stretch counts
//! its digits; a digit value's run in the output holds, in stretch order, each
//! stretch's elements of that value in their order there. So stretch `c`'s
//! elements of value `d` start at (elements of values below `d`) + (elements of
//! value `d` in stretches before `c`), and each stretch scatters its own
//! elements alone. That is exactly the order the one-thread pass gives (the
//! elements of one value in their order in the whole row), so the result is
//! the same stable sort; `tests` compares the two bit for bit.

use super::keys::RadixKey;
use super::radix::sorted_by_key;
use rayon::prelude::*;

/// Below this length one thread sorts the row: the passes' fixed costs
/// (256-entry tables per stretch, a barrier per pass) outweigh the split.
pub const PAR_MIN: usize = 1 << 16;

/// The counts of each digit value, per digit (bytes least significant first).
type Hist = Vec<[usize; 256]>;

/// `src` sorted stably by `key` into a new vector from `alloc`, the passes
/// split over `threads` stretches (1 gives `radix::sorted_by_key`).
pub fn sorted_by_key_par<T, K, E>(
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
    if threads < 2 || n < PAR_MIN {
        return sorted_by_key(src, key, alloc);
    }
    let stretch = n.div_ceil(threads);
    // Every digit's counts per stretch of `src`, in one parallel reading pass.
    let first: Vec<Hist> = src
        .par_chunks(stretch)
        .map(|c| all_digits(c, &key))
        .collect();
    let passes: Vec<usize> = (0..K::BYTES)
        .filter(|&b| !one_value(&first, b, n))
        .collect();
    let mut a = alloc(n)?;
    let Some((&p0, rest)) = passes.split_first() else {
        a.extend_from_slice(src);
        return Ok(a);
    };
    let counts0: Vec<[usize; 256]> = first.iter().map(|h| h[p0]).collect();
    scatter_par(src, &mut a, &counts0, stretch, |x| key(x).byte(p0));
    if rest.is_empty() {
        return Ok(a);
    }
    let mut b = alloc(n)?;
    for &p in rest {
        let digit = |x: T| key(x).byte(p);
        let counts: Vec<[usize; 256]> = a
            .par_chunks(stretch)
            .map(|c| one_digit(c, &digit))
            .collect();
        scatter_par(&a, &mut b, &counts, stretch, digit);
        std::mem::swap(&mut a, &mut b);
    }
    Ok(a)
}

/// Whether digit `b` holds one value for every element of the row.
fn one_value(hists: &[Hist], b: usize, n: usize) -> bool {
    (0..256).any(|d| hists.iter().map(|h| h[b][d]).sum::<usize>() == n)
}

fn all_digits<T: Copy, K: RadixKey>(v: &[T], key: &impl Fn(T) -> K) -> Hist {
    let mut hist = vec![[0usize; 256]; K::BYTES];
    for &x in v {
        let k = key(x);
        for (b, h) in hist.iter_mut().enumerate() {
            h[k.byte(b)] += 1;
        }
    }
    hist
}

fn one_digit<T: Copy>(v: &[T], digit: &impl Fn(T) -> usize) -> [usize; 256] {
    let mut h = [0usize; 256];
    for &x in v {
        h[digit(x)] += 1;
    }
    h
}

/// A pointer to the output that the stretches write through at once.
#[derive(Clone, Copy)]
struct Out<T>(*mut T);
// SAFETY: the stretches write disjoint slots (see `scatter_par`), and the
// pointer's buffer outlives the parallel loop that uses it.
unsafe impl<T: Send> Send for Out<T> {}
// SAFETY: as above; the pointer itself is only copied between threads.
unsafe impl<T: Send> Sync for Out<T> {}

/// One pass: stretch `c` of `src` (`counts[c]` its counts of each digit
/// value, 256 for a byte, or `buckets::sorted_by_key_buckets`' buckets)
/// scatters its elements to their runs in `dst`, which then holds exactly
/// `src.len()`.
pub(super) fn scatter_par<T: Copy + Send + Sync, C: AsRef<[usize]>>(
    src: &[T],
    dst: &mut Vec<T>,
    counts: &[C],
    stretch: usize,
    digit: impl Fn(T) -> usize + Sync,
) {
    let n = src.len();
    let values = counts.first().map_or(0, |c| c.as_ref().len());
    // starts[c][d]: values below d in every stretch, then value d in stretches before c.
    let mut starts = vec![vec![0usize; values]; counts.len()];
    let mut sum = 0;
    for d in 0..values {
        for (s, c) in starts.iter_mut().zip(counts) {
            s[d] = sum;
            sum += c.as_ref()[d];
        }
    }
    dst.clear();
    dst.reserve_exact(n);
    let out = Out(dst.as_mut_ptr());
    src.par_chunks(stretch)
        .zip(starts.into_par_iter())
        .for_each(|(chunk, mut next)| {
            // The whole `Out` (Send), not its raw pointer field, into the closure.
            #[allow(clippy::redundant_locals)]
            let out = out;
            let next = &mut next[..];
            for &x in chunk {
                let d = digit(x);
                // SAFETY: `next[d]` runs over stretch c's slots for value d,
                // [starts[c][d], starts[c][d] + counts[c][d]), which lie below
                // `sum` = n (the capacity reserved above) and which no other
                // stretch or value shares; each is written once.
                unsafe { out.0.add(next[d]).write(x) };
                next[d] += 1;
            }
        });
    debug_assert_eq!(sum, n);
    // SAFETY: the runs partition 0..n and every slot of every run was written
    // once above (each stretch wrote exactly its counted elements).
    unsafe { dst.set_len(n) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use xlet_core::test_support::Rng;

    #[test]
    fn every_split_gives_the_one_thread_sort() {
        let mut rng = Rng::new(11);
        for &n in &[PAR_MIN - 1, PAR_MIN, PAR_MIN + 7, 200_001] {
            for spread in [1u64, 3, 300, 1 << 32] {
                let items: Vec<(u32, u32)> = (0..n as u32)
                    .map(|i| (((rng.next_u64() >> 20) % spread) as u32, i))
                    .collect();
                let alloc = |n| Ok::<_, ()>(Vec::with_capacity(n));
                let one = sorted_by_key(&items, |x| x.0, alloc).unwrap();
                for threads in [2, 3, 4, 7] {
                    let par = sorted_by_key_par(&items, |x| x.0, alloc, threads).unwrap();
                    assert_eq!(par, one, "n {n}, spread {spread}, {threads} stretches");
                }
            }
        }
    }
}
