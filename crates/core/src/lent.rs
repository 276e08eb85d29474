//! Memory xlet did not allocate, lent to an xlet array without a copy: a
//! numpy array's buffer passed in from Python (spec/python.md §3).
//!
//! An xlet array owns its elements as a `Vec` (inside `ndarray`'s `ArcArray`).
//! A lent buffer is wrapped as such a `Vec`, and its address is entered in the
//! table below. When the last array holding it lets go, the `Vec` is freed
//! through the global allocator (`alloc::CachingAlloc`), which looks the
//! address up here first: a lent block is not freed, its owner's `release`
//! is called instead (for numpy, dropping the reference that kept the array
//! alive). Lent bytes are not xlet's, so they are never counted as live.
//!
//! The table is a fixed array of atomics, not a map behind a lock: it is read
//! inside `dealloc`, where taking a lock that an allocation might also want,
//! or allocating, could deadlock. While nothing is lent (`LENT` is 0), the
//! allocator's only cost is one relaxed load; while something is, a counting
//! filter (`HITS`, one counter per hash bucket of addresses) answers "not
//! lent" for nearly every other block with one more load, and only a hit
//! scans the table (a scan per free made a run of small ops 5x slower).
//!
//! The lender promises that nothing writes through a lent `Vec`: xlet writes
//! into an array's buffer only when it holds the only reference, and the
//! lender keeps one more for as long as the buffer may be in use.

use std::sync::atomic::{AtomicUsize, Ordering};

/// How many buffers may be lent at once; past that, `lend` says no and the
/// caller copies.
const SLOTS: usize = 4096;
/// An address no buffer has: marks a slot being filled.
const FILLING: usize = 1;

#[allow(clippy::declare_interior_mutable_const)]
const EMPTY: AtomicUsize = AtomicUsize::new(0);
/// The lent buffers' addresses (0: a free slot).
static ADDRS: [AtomicUsize; SLOTS] = [EMPTY; SLOTS];
/// Each slot's owner token and the function that releases it.
static TOKENS: [AtomicUsize; SLOTS] = [EMPTY; SLOTS];
static RELEASES: [AtomicUsize; SLOTS] = [EMPTY; SLOTS];
/// How many slots are taken (or being filled).
static LENT: AtomicUsize = AtomicUsize::new(0);
/// Buckets of the counting filter: `HITS[bucket(p)]` counts the lent
/// addresses in `p`'s bucket. Raised before an address is published and
/// lowered after it is removed, so a lent address's bucket is never 0.
const BUCKETS: usize = 4096;
static HITS: [AtomicUsize; BUCKETS] = [EMPTY; BUCKETS];

fn bucket(p: usize) -> usize {
    // Fibonacci hashing of the address above its alignment bits.
    ((p >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (usize::BITS - 12)) as usize
}

/// What the owner of a lent buffer is called with when xlet lets go of it.
pub type Release = fn(token: usize);

/// Wraps the `len` elements at `ptr` as a `Vec` without copying them, or
/// gives `None` when they cannot be lent (the table is full, `ptr` is null or
/// misaligned, or the buffer is empty) and the caller should copy instead.
/// When the `Vec` (or whatever takes over its buffer) is freed, `release(token)`
/// is called once, on whichever thread frees it, and nothing is freed.
///
/// # Safety
/// `ptr` must point to `len` initialised elements of `T` that stay valid and
/// unchanged until `release(token)` is called; `release` must not allocate
/// with a lock held that `release` itself may wait for. The returned `Vec`
/// must never grow, and nothing may write through it (see the module comment).
pub unsafe fn lend<T>(ptr: *mut T, len: usize, token: usize, release: Release) -> Option<Vec<T>> {
    if ptr.is_null() || len == 0 || std::mem::size_of::<T>() == 0 || !ptr.is_aligned() {
        return None;
    }
    LENT.fetch_add(1, Ordering::SeqCst);
    HITS[bucket(ptr as usize)].fetch_add(1, Ordering::SeqCst);
    for i in 0..SLOTS {
        if ADDRS[i]
            .compare_exchange(0, FILLING, Ordering::SeqCst, Ordering::Relaxed)
            .is_ok()
        {
            TOKENS[i].store(token, Ordering::SeqCst);
            RELEASES[i].store(release as usize, Ordering::SeqCst);
            ADDRS[i].store(ptr as usize, Ordering::SeqCst);
            // SAFETY: the caller promises `len` valid elements at `ptr`; the
            // Vec's capacity equals its length, so freeing it hands exactly
            // this address to `dealloc`, which finds it in the table above
            // and calls `release` instead of freeing.
            return Some(unsafe { Vec::from_raw_parts(ptr, len, len) });
        }
    }
    HITS[bucket(ptr as usize)].fetch_sub(1, Ordering::SeqCst);
    LENT.fetch_sub(1, Ordering::SeqCst);
    None
}

/// Whether `ptr` is the start of a lent buffer still in use.
pub fn is_lent(ptr: *const u8) -> bool {
    LENT.load(Ordering::Relaxed) != 0
        && HITS[bucket(ptr as usize)].load(Ordering::SeqCst) != 0
        && ADDRS
            .iter()
            .any(|a| a.load(Ordering::SeqCst) == ptr as usize)
}

/// How many buffers are lent now (tests check that each is given back).
pub fn lent_count() -> usize {
    ADDRS
        .iter()
        .filter(|a| !matches!(a.load(Ordering::SeqCst), 0 | FILLING))
        .count()
}

/// Called by the allocator for every block it is asked to free or resize:
/// if `ptr` is lent, gives it back to its owner and returns true (the block
/// must then not be freed).
pub(crate) fn give_back(ptr: *mut u8) -> bool {
    if LENT.load(Ordering::Relaxed) == 0
        || ptr as usize == FILLING
        || HITS[bucket(ptr as usize)].load(Ordering::SeqCst) == 0
    {
        return false;
    }
    for i in 0..SLOTS {
        if ADDRS[i].load(Ordering::SeqCst) == ptr as usize {
            let token = TOKENS[i].load(Ordering::SeqCst);
            let release = RELEASES[i].load(Ordering::SeqCst);
            ADDRS[i].store(0, Ordering::SeqCst);
            HITS[bucket(ptr as usize)].fetch_sub(1, Ordering::SeqCst);
            LENT.fetch_sub(1, Ordering::SeqCst);
            // SAFETY: `release` was stored from a `Release` fn pointer by
            // `lend` for this slot, before the slot's address was published.
            let release: Release = unsafe { std::mem::transmute::<usize, Release>(release) };
            release(token);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    static RELEASED: AtomicUsize = AtomicUsize::new(0);
    fn note(token: usize) {
        RELEASED.fetch_add(token, Ordering::SeqCst);
    }

    #[test]
    fn a_lent_buffer_goes_back_to_its_owner_not_to_the_allocator() {
        // The owner's memory: leaked on purpose, so that it outlives the test
        // whatever happens (it is not the allocator's to free).
        let owner: &'static mut [f32] = Box::leak(vec![1.0f32, 2.0, 3.0].into_boxed_slice());
        let live = crate::alloc::live_bytes();
        // SAFETY: three valid f32s that stay valid forever; nothing writes.
        let v = unsafe { lend(owner.as_mut_ptr(), 3, 7, note) }.expect("a free slot");
        assert!(is_lent(v.as_ptr() as *const u8));
        let a = ndarray::ArcArray::from_shape_vec(ndarray::IxDyn(&[3]), v).unwrap();
        let b = a.clone();
        drop(a);
        assert_eq!(RELEASED.load(Ordering::SeqCst), 0);
        assert_eq!(b.sum(), 6.0);
        drop(b);
        assert_eq!(RELEASED.load(Ordering::SeqCst), 7);
        assert!(!is_lent(owner.as_ptr() as *const u8));
        // Other tests allocate concurrently: only check that the lent bytes
        // were never subtracted from the live count (it did not wrap around).
        assert!(crate::alloc::live_bytes() < live + (1 << 40));
    }

    #[test]
    fn empty_null_and_misaligned_buffers_are_not_lent() {
        // SAFETY: each is refused before anything is read.
        unsafe {
            assert!(lend::<f32>(std::ptr::null_mut(), 3, 0, note).is_none());
            let mut x = [0u32; 4];
            assert!(lend(x.as_mut_ptr(), 0, 0, note).is_none());
            let p = (x.as_mut_ptr() as *mut u8).add(1) as *mut u32;
            assert!(lend(p, 1, 0, note).is_none());
        }
    }
}
