//! Output buffers for kernels, and the memory accounting behind them.
//!
//! Every byte the process allocates goes through `CachingAlloc`, which keeps a
//! count of the bytes live right now. Before a kernel makes a result it asks
//! `admit` (or allocates with `try_output_vec`, which asks it): the result must
//! fit, together with everything already live, under the process-wide budget
//! (`--max-memory`, spec/language.md §8.5). Temporaries are live bytes too, so
//! a kernel that needs a second copy on the way is charged for it.
//!
//! A fresh 64 MiB output costs more in page faults than in arithmetic when the
//! kernel maps it 4 KiB at a time: 16384 faults, each zeroing a page. On Linux,
//! where transparent huge pages are usually granted on request ("madvise"
//! mode), large buffers ask for 2 MiB pages, which cuts the faults 512-fold.
//! numpy does the same for its large arrays.

use crate::error::KernelError;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes allocated and not yet freed (blocks held in the cache are not live).
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The budget for all live bytes together; `UNSET` means "not set yet" (the
/// default applies). 0 is a budget of 0 bytes.
static BUDGET: AtomicUsize = AtomicUsize::new(UNSET);
const UNSET: usize = usize::MAX;
/// Bytes in the cache's blocks (mirrors `Cache::bytes`, readable without the lock).
static CACHED: AtomicUsize = AtomicUsize::new(0);

/// Bytes allocated now and not freed (the cache's blocks excluded).
pub fn live_bytes() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// Bytes of freed large blocks the allocator keeps for reuse.
pub fn cached_bytes() -> usize {
    CACHED.load(Ordering::Relaxed)
}

/// The budget for all live bytes together.
pub fn budget() -> usize {
    match BUDGET.load(Ordering::Relaxed) {
        UNSET => default_budget(),
        b => b,
    }
}

/// Sets the budget for all live bytes together (`--max-memory`).
pub fn set_budget(bytes: usize) {
    // `--max-memory 0` is a budget of 0 bytes (only empty values fit); the
    // largest count stands one below `UNSET`, which no machine tells apart.
    BUDGET.store(bytes.min(UNSET - 1), Ordering::Relaxed);
}

/// Three quarters of the memory this process may use: physical memory, or the
/// cgroup's limit when one is set and smaller. The rest is left to the system,
/// the page cache and the interpreter's own bookkeeping.
pub fn default_budget() -> usize {
    static DEFAULT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *DEFAULT.get_or_init(|| {
        let total = physical_memory().min(cgroup_limit().unwrap_or(usize::MAX));
        total / 4 * 3
    })
}

#[cfg(unix)]
fn physical_memory() -> usize {
    // SAFETY: sysconf only reads system configuration.
    let (pages, size) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    if pages <= 0 || size <= 0 {
        return 8 << 30;
    }
    (pages as usize).saturating_mul(size as usize)
}

#[cfg(not(unix))]
fn physical_memory() -> usize {
    8 << 30
}

/// The cgroup v2 (then v1) memory limit, if the process runs under one.
fn cgroup_limit() -> Option<usize> {
    [
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ]
    .iter()
    .filter_map(|p| std::fs::read_to_string(p).ok())
    .find_map(|s| s.trim().parse::<usize>().ok())
}

/// Whether more bytes are live than the budget allows. Work whose memory grows
/// with what it reads, without a size known beforehand (parsing, writing a
/// gradient program), asks this as it goes and stops with a memory error.
pub fn over_budget() -> bool {
    live_bytes() > budget()
}

/// Checks that `bytes` more can be allocated under the budget; `what` names the
/// value in the error (e.g. its type). Frees the allocator's cache first if
/// that is what it takes.
pub fn admit(bytes: usize, what: &dyn std::fmt::Display) -> Result<(), KernelError> {
    let budget = budget();
    let fits = |extra: usize| {
        live_bytes()
            .checked_add(bytes)
            .and_then(|b| b.checked_add(extra))
            .is_some_and(|b| b <= budget)
    };
    if fits(cached_bytes()) {
        return Ok(());
    }
    release_cache();
    if fits(0) {
        return Ok(());
    }
    Err(KernelError::new(
        "memory",
        format!(
            "out of memory budget: {what} needs {}, {} are live, the budget is {} (--max-memory)",
            show_bytes(bytes),
            show_bytes(live_bytes()),
            show_bytes(budget)
        ),
    ))
}

/// A byte count for messages: exact below 1 KiB, else with a binary unit.
pub fn show_bytes(b: usize) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if b < 1024 {
        return format!("{b} bytes");
    }
    let mut x = b as f64 / 1024.0;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    format!("{x:.1} {} ({b} bytes)", UNITS[u])
}

/// An empty vector with room for `n` elements, allocated only if it fits the
/// budget and the allocator grants it (never an abort). `what` names the value.
pub fn try_output_vec<T>(n: usize, what: &dyn std::fmt::Display) -> Result<Vec<T>, KernelError> {
    let bytes = n.checked_mul(std::mem::size_of::<T>()).ok_or_else(|| {
        KernelError::new(
            "memory",
            format!("{what} has more bytes than can be counted"),
        )
    })?;
    admit(bytes, what)?;
    let mut v: Vec<T> = Vec::new();
    v.try_reserve_exact(n).map_err(|_| {
        KernelError::new(
            "memory",
            format!("the system refused {} for {what}", show_bytes(bytes)),
        )
    })?;
    if bytes >= HUGE_PAGE_THRESHOLD {
        advise_huge(v.as_ptr() as usize, bytes);
    }
    Ok(v)
}

/// A vector of `n` copies of `fill`, allocated only if it fits the budget (the
/// accounted form of `vec![fill; n]` for any length that comes from data).
pub fn try_filled<T: Clone>(
    n: usize,
    fill: T,
    what: &dyn std::fmt::Display,
) -> Result<Vec<T>, KernelError> {
    let mut v = try_output_vec(n, what)?;
    v.resize(n, fill);
    Ok(v)
}

/// The items of an iterator of known length, in a vector allocated only if it
/// fits the budget (the accounted form of `collect` for data-sized lists).
pub fn try_collect<T>(
    items: impl ExactSizeIterator<Item = T>,
    what: &dyn std::fmt::Display,
) -> Result<Vec<T>, KernelError> {
    let mut v = try_output_vec(items.len(), what)?;
    v.extend(items);
    Ok(v)
}

/// Gives memory nobody uses back to the system: the cache's blocks, and (glibc)
/// the free pages inside the heap. The REPL calls this after each input, so that
/// rebinding or removing a name shrinks the process (spec/performance.md §4).
pub fn release_unused() {
    release_cache();
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Frees every block in the cache.
pub fn release_cache() {
    let blocks = {
        let mut c = cache();
        c.bytes = 0;
        CACHED.store(0, Ordering::Relaxed);
        std::mem::replace(&mut c.blocks, [(0, 0, 0); CACHE_SLOTS])
    };
    for (addr, size, align) in blocks {
        if addr != 0
            && let Ok(layout) = Layout::from_size_align(size, align)
        {
            // SAFETY: the block came from System with exactly this layout and
            // is no longer in the cache, so nobody else can hand it out.
            unsafe { System.dealloc(addr as *mut u8, layout) };
        }
    }
}

/// Below this many bytes a buffer is left to the allocator as it is.
const HUGE_PAGE_THRESHOLD: usize = 4 << 20;
const HUGE_PAGE: usize = 2 << 20;

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
        CACHED.store(self.bytes, Ordering::Relaxed);
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
                CACHED.store(self.bytes, Ordering::Relaxed);
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
        if layout.size() >= CACHE_MIN
            && let Some(p) = cache().take(layout.size(), layout.align())
        {
            return counted(p, layout.size());
        }
        // SAFETY: `layout` comes from the caller of `alloc`, with its contract.
        counted(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() >= CACHE_MIN
            && let Some(p) = cache().take(layout.size(), layout.align())
        {
            // SAFETY: the cached block has exactly `layout.size()` bytes.
            unsafe { std::ptr::write_bytes(p, 0, layout.size()) };
            return counted(p, layout.size());
        }
        // SAFETY: as in `alloc`.
        counted(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // A lent buffer (`lent`) was never ours: its owner gets it back.
        if crate::lent::give_back(ptr) {
            return;
        }
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        if layout.size() >= CACHE_MIN && cache().put(ptr, layout.size(), layout.align()) {
            return;
        }
        // SAFETY: `ptr` was allocated by `System` with `layout` (cached blocks
        // keep their layout), as the caller of `dealloc` promises.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A lent buffer cannot be resized in place: copy it into a block of
        // our own, then give the lent one back to its owner.
        if crate::lent::is_lent(ptr) {
            // SAFETY: `new_size` with `layout`'s alignment is a valid layout,
            // as the caller of `realloc` promises.
            let new =
                unsafe { self.alloc(Layout::from_size_align_unchecked(new_size, layout.align())) };
            if !new.is_null() {
                // SAFETY: both blocks hold at least the smaller size; they are distinct.
                unsafe { std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size)) };
                crate::lent::give_back(ptr);
            }
            return new;
        }
        // SAFETY: the caller's contract for `realloc`; blocks below
        // `CACHE_MIN` never come from the cache, and cached ones are `System`'s.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            LIVE.fetch_add(new_size, Ordering::Relaxed);
        }
        p
    }
}

/// Counts a fresh block as live (a null pointer, a refused allocation, is not).
fn counted(p: *mut u8, size: usize) -> *mut u8 {
    if !p.is_null() {
        LIVE.fetch_add(size, Ordering::Relaxed);
    }
    p
}

#[global_allocator]
static GLOBAL: CachingAlloc = CachingAlloc;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_bytes_count_an_allocation_while_it_lives() {
        // Other tests allocate concurrently, so compare with a wide margin.
        // black_box: an allocation nobody looks at may be optimized away.
        let big: Vec<u8> = std::hint::black_box(Vec::with_capacity(256 << 20));
        let during = live_bytes();
        assert!(during >= 256 << 20, "{during}");
        drop(big);
        release_cache();
    }

    #[test]
    fn an_allocation_over_the_budget_is_an_error_not_an_abort() {
        // usize::MAX elements of u64 cannot even be counted in bytes.
        assert!(try_output_vec::<u64>(usize::MAX, &"x").is_err());
        // Far more than any budget: refused before the allocator is asked.
        let e = try_output_vec::<u8>(usize::MAX / 2, &"f32[huge]").unwrap_err();
        assert!(e.message.contains("out of memory budget"), "{}", e.message);
        assert!(try_output_vec::<u8>(1024, &"small").is_ok());
    }

    #[test]
    fn byte_counts_read_well() {
        assert_eq!(show_bytes(10), "10 bytes");
        assert_eq!(show_bytes(3 << 30), "3.0 GiB (3221225472 bytes)");
    }
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
