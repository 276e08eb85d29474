//! Output buffers for kernels.
//!
//! A fresh 64 MiB output costs more in page faults than in arithmetic when the
//! kernel maps it 4 KiB at a time: 16384 faults, each zeroing a page. On Linux,
//! where transparent huge pages are usually granted on request ("madvise"
//! mode), large buffers ask for 2 MiB pages, which cuts the faults 512-fold.
//! numpy does the same for its large arrays.

/// Below this many bytes a buffer is left to the allocator as it is.
const HUGE_PAGE_THRESHOLD: usize = 4 << 20;
const HUGE_PAGE: usize = 2 << 20;

/// An empty vector with room for `n` elements, backed by huge pages when large.
pub fn output_vec<T>(n: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(n);
    let bytes = n.saturating_mul(std::mem::size_of::<T>());
    if bytes >= HUGE_PAGE_THRESHOLD {
        advise_huge(v.as_ptr() as usize, bytes);
    }
    v
}

#[cfg(target_os = "linux")]
fn advise_huge(start: usize, bytes: usize) {
    // Only whole 2 MiB pages inside the buffer can be huge.
    let first = start.div_ceil(HUGE_PAGE) * HUGE_PAGE;
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: the range lies inside the vector's allocation; MADV_HUGEPAGE is
        // advice only (it changes no contents), and a refusal is harmless.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_start: usize, _bytes: usize) {}
