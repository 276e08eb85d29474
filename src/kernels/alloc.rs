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

/// The global allocator: the system's, plus a small cache of large freed blocks.
///
/// An op on big arrays allocates its output fresh each time, and the system
/// allocator hands a large block straight back to the kernel on free; the next
/// op of the same size then faults every page in again and has the kernel zero
/// it. Keeping a few recently freed large blocks (by exact size and alignment)
/// lets a loop of same-sized ops (`:time`, benchmarks, `While` bodies) reuse
/// resident memory. The cache is bounded in count and bytes.
pub struct CachingAlloc;

const CACHE_MIN: usize = 4 << 20;
const CACHE_SLOTS: usize = 8;
const CACHE_MAX_BYTES: usize = 512 << 20;

struct Cache {
    /// (address, size, align); address 0 marks an empty slot.
    blocks: [(usize, usize, usize); CACHE_SLOTS],
    bytes: usize,
}

static CACHE: std::sync::Mutex<Cache> = std::sync::Mutex::new(Cache {
    blocks: [(0, 0, 0); CACHE_SLOTS],
    bytes: 0,
});

fn cache() -> std::sync::MutexGuard<'static, Cache> {
    // Nothing panics while holding the lock; recover the data if it ever did.
    CACHE.lock().unwrap_or_else(|e| e.into_inner())
}

impl Cache {
    fn take(&mut self, size: usize, align: usize) -> Option<*mut u8> {
        let slot = self
            .blocks
            .iter_mut()
            .find(|b| b.0 != 0 && b.1 == size && b.2 == align)?;
        let addr = slot.0;
        *slot = (0, 0, 0);
        self.bytes -= size;
        Some(addr as *mut u8)
    }
    fn put(&mut self, ptr: *mut u8, size: usize, align: usize) -> bool {
        if self.bytes + size > CACHE_MAX_BYTES {
            return false;
        }
        match self.blocks.iter_mut().find(|b| b.0 == 0) {
            Some(slot) => {
                *slot = (ptr as usize, size, align);
                self.bytes += size;
                true
            }
            None => false,
        }
    }
}

use std::alloc::{GlobalAlloc, Layout, System};

// SAFETY: every block handed out is either fresh from `System` or a block that
// `System` allocated with exactly the same size and alignment and that was freed
// to us; blocks given back to `System` carry their original layout.
unsafe impl GlobalAlloc for CachingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= CACHE_MIN {
            if let Some(p) = cache().take(layout.size(), layout.align()) {
                return p;
            }
        }
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= CACHE_MIN {
            if let Some(p) = cache().take(layout.size(), layout.align()) {
                unsafe { std::ptr::write_bytes(p, 0, layout.size()) };
                return p;
            }
        }
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if layout.size() >= CACHE_MIN && cache().put(ptr, layout.size(), layout.align()) {
            return;
        }
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CachingAlloc = CachingAlloc;

#[cfg(test)]
mod tests {
    #[test]
    fn a_reused_block_is_zeroed_when_zeroed_memory_is_asked_for() {
        // 8 MiB of 3s, freed into the cache...
        let dirty: Vec<u64> = vec![3; 1 << 20];
        drop(dirty);
        // ...then asked for zeroed with the same layout (likely that very block).
        let clean: Vec<u64> = vec![0; 1 << 20];
        assert!(clean.iter().all(|&x| x == 0));
        let mut grown: Vec<u64> = Vec::with_capacity(1 << 20);
        grown.resize(1 << 20, 5);
        grown.resize(3 << 20, 6);
        assert!(
            grown[..1 << 20].iter().all(|&x| x == 5) && grown[1 << 20..].iter().all(|&x| x == 6)
        );
    }
}
