//! The `xlet` command: the REPL, `xlet run FILE` and `xlet check FILE` (spec/commands.md).

mod cli;

/// The interpreter recurses over expressions (checking, evaluating, dropping
/// syntax trees), so it runs on a thread with a large stack: only the pages a
/// deep program actually touches are ever committed.
const STACK_BYTES: usize = 1 << 30;

/// glibc's malloc tuned for an interpreter whose ops allocate and free
/// buffers of hundreds of KiB many times a second (spec/performance.md §17).
/// By default glibc serves a block over its (moving) mmap threshold with a
/// fresh `mmap`, and trims the heap's top once 2x that threshold is free, so
/// the next op of the same size faults every page in again and has the kernel
/// zero it: a 784-128-10 MLP step in the REPL took 190 page faults, a fifth of
/// its time. Up to 4 MiB (where the accounting allocator's own cache of large
/// blocks takes over) blocks now come from the heap, and up to 128 MiB of free
/// heap stays mapped between ops; the REPL still gives it all back after each
/// input (`alloc::release_unused`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn tune_malloc() {
    // SAFETY: mallopt only changes the allocator's thresholds; called first
    // thing in main, before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 4 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn tune_malloc() {}

fn main() {
    tune_malloc();
    let code = std::thread::Builder::new()
        .name("xlet".into())
        .stack_size(STACK_BYTES)
        .spawn(cli::main)
        .map(|h| h.join());
    std::process::exit(match code {
        Ok(Ok(code)) => code,
        // A panic is a bug in xlet; its message is already on stderr.
        Ok(Err(_)) => {
            eprintln!("xlet: internal error (a bug: please report the input that caused it)");
            70
        }
        Err(e) => {
            eprintln!("xlet: cannot start: {e}");
            70
        }
    });
}
