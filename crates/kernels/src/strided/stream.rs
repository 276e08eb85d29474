//! Streaming (non-temporal) stores for output written in scattered rows.
//!
//! The tile walk (`Tiling`) writes the output a short row at a time, and for a
//! transposed view the rows of one tile lie far apart. With ordinary stores the
//! CPU first reads every line it is about to overwrite (read-for-ownership), at
//! addresses with no locality; a streaming store writes the whole line without
//! reading it. They are used only on the tile walk, only for outputs too big to
//! stay in cache (a result that fits would be read back from memory by the next
//! op), and only for rows of at least a cache line. Row-order writes keep plain
//! stores: the hardware streams those well already, and streaming stores were
//! slower there (spec/performance.md §6.4).

use std::sync::atomic::{AtomicBool, Ordering};

/// Streams every tiled output whatever its size. A test hook, not a setting
/// of a run (nothing outside tests sets it): tests reach the streamed path
/// with small arrays; results are the same either way.
pub static ALWAYS: AtomicBool = AtomicBool::new(false);

/// Outputs of at least this many bytes are written with streaming stores on the
/// tile walk: twice the last-level cache the machine reports (16 MiB on the 8
/// MiB Zen 1 where this was tuned; a fixed 16 MiB streamed outputs that a 32
/// MiB L3 would have kept, issue 26).
fn min_bytes() -> usize {
    2 * crate::machine::caches().l3
}

/// Whether an output of `out_bytes`, written in rows of `row_bytes`, should be
/// written with streaming stores.
pub fn worth_it(out_bytes: usize, row_bytes: usize) -> bool {
    let big = out_bytes >= min_bytes() || ALWAYS.load(Ordering::Relaxed);
    cfg!(target_arch = "x86_64") && big && row_bytes >= 64
}

/// Copies `bytes` bytes from `src` to `dst`: the 16-byte aligned blocks of `dst`
/// with streaming stores, the ragged ends with plain ones. Call `fence` before
/// another thread may read `dst`.
///
/// # Safety
/// Both ranges are valid for `bytes` bytes and do not overlap.
pub unsafe fn copy(dst: *mut u8, src: *const u8, bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the caller's contract: both ranges valid for `bytes`, not overlapping; SSE2 is part of x86_64.
    unsafe {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let head = dst.align_offset(16).min(bytes);
        std::ptr::copy_nonoverlapping(src, dst, head);
        let mut k = head;
        while k + 16 <= bytes {
            let v = _mm_loadu_si128(src.add(k) as *const __m128i);
            _mm_stream_si128(dst.add(k) as *mut __m128i, v);
            k += 16;
        }
        std::ptr::copy_nonoverlapping(src.add(k), dst.add(k), bytes - k);
    }
    #[cfg(not(target_arch = "x86_64"))]
    // SAFETY: the caller's contract: `bytes` readable at `src`, writable at
    // `dst`, not overlapping.
    unsafe {
        std::ptr::copy_nonoverlapping(src, dst, bytes)
    }
}

/// Orders every streaming store made so far before any later store (rayon's
/// hand-over to the caller only orders plain stores).
pub fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `sfence` only orders stores; SSE2 is part of x86_64.
    unsafe {
        std::arch::x86_64::_mm_sfence()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn copy_writes_every_byte_at_every_alignment() {
        let src: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        for off in 0..20 {
            for len in [0, 1, 15, 16, 17, 64, 100, 255] {
                let mut dst = vec![0u8; 300];
                // SAFETY: off + len <= 300 bytes of `dst`, len <= 300 of `src`.
                unsafe { super::copy(dst.as_mut_ptr().add(off), src.as_ptr(), len) };
                super::fence();
                assert_eq!(&dst[off..off + len], &src[..len], "off {off} len {len}");
                assert!(dst[..off].iter().chain(&dst[off + len..]).all(|&b| b == 0));
            }
        }
    }
}
