//! Saying which CustomCall target crashed (spec/ops/custom_call.md "Safety").
//!
//! Native code cannot be protected against: a function that faults has
//! already broken whatever it touched. What xlet can do is say so before the
//! process ends, instead of a bare "Segmentation fault". While a target runs,
//! its thread records the target's name (`Guard`); a handler for the fault
//! signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE), installed once for the process
//! and run on an alternate signal stack, writes
//!
//! ```text
//! xlet: CustomCall `NAME` crashed in native code (SIGSEGV)
//! ```
//!
//! to stderr with write(2) (async-signal-safe), restores the default action
//! and raises the signal again, so the process ends by that signal as it
//! would have. A fault on a thread that is not running native code goes to
//! the handler that was installed before (Rust's stack-overflow report), or
//! to the default action.

use std::cell::Cell;
use std::ffi::c_int;
use std::sync::Once;

/// The signals a crashing native function raises.
const SIGNALS: [(c_int, &str); 4] = [
    (libc::SIGSEGV, "SIGSEGV"),
    (libc::SIGBUS, "SIGBUS"),
    (libc::SIGILL, "SIGILL"),
    (libc::SIGFPE, "SIGFPE"),
];

/// Bytes of the alternate signal stack a thread gets when it has none (the
/// handler needs little: it formats nothing and calls write and sigaction).
const ALT_STACK_BYTES: usize = 64 * 1024;

thread_local! {
    /// The name (pointer, length) of the target this thread is running, or
    /// null. Const-initialised and without a destructor, so reading it in a
    /// signal handler touches only the thread's static TLS block.
    static RUNNING: Cell<(*const u8, usize)> = const { Cell::new((std::ptr::null(), 0)) };
    /// Whether this thread's alternate signal stack has been checked.
    static ALT_STACK_READY: Cell<bool> = const { Cell::new(false) };
}

/// The actions installed before ours, one per entry of `SIGNALS`; written once,
/// before our handler is installed, and only read afterwards.
struct Previous(std::cell::UnsafeCell<[Option<libc::sigaction>; 4]>);
// SAFETY: written only inside `INSTALL.call_once`, before the handler that
// reads it is installed; read-only from then on.
unsafe impl Sync for Previous {}
static PREVIOUS: Previous = Previous(std::cell::UnsafeCell::new([None; 4]));
static INSTALL: Once = Once::new();

/// Marks this thread as running the native target `name` until dropped.
pub struct Guard {
    before: (*const u8, usize),
}

impl Guard {
    /// Installs the handler (once per process), makes sure this thread has an
    /// alternate signal stack, and records `name` as running on this thread.
    /// `name` must outlive the guard.
    pub fn enter(name: &str) -> Guard {
        install();
        ensure_alt_stack();
        let before = RUNNING.with(|r| r.replace((name.as_ptr(), name.len())));
        Guard { before }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        RUNNING.with(|r| r.set(self.before));
    }
}

fn install() {
    INSTALL.call_once(|| {
        for (k, &(sig, _)) in SIGNALS.iter().enumerate() {
            // SAFETY: `sigaction` structs are plain C data, valid when zeroed;
            // the handler has the SA_SIGINFO signature; PREVIOUS is written
            // here only, before the handler that reads it is in place.
            unsafe {
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 {
                    continue;
                }
                (*PREVIOUS.0.get())[k] = Some(old);
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction = on_fault as *const () as usize;
                act.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut act.sa_mask);
                libc::sigaction(sig, &act, std::ptr::null_mut());
            }
        }
    });
}

/// Gives this thread an alternate signal stack if it has none (Rust's own
/// threads have one; a thread made by other code may not), so that the
/// handler runs even when the native code has exhausted the thread's stack.
fn ensure_alt_stack() {
    if ALT_STACK_READY.with(|r| r.replace(true)) {
        return;
    }
    // SAFETY: querying the current alternate stack writes only `cur`. A new
    // stack is leaked on purpose: the kernel may use it for as long as the
    // thread lives, and a thread gets at most one.
    unsafe {
        let mut cur: libc::stack_t = std::mem::zeroed();
        if libc::sigaltstack(std::ptr::null(), &mut cur) != 0 {
            return;
        }
        if cur.ss_flags & libc::SS_DISABLE == 0 {
            return;
        }
        let mem: &'static mut [u8] = Box::leak(vec![0u8; ALT_STACK_BYTES].into_boxed_slice());
        let st = libc::stack_t {
            ss_sp: mem.as_mut_ptr() as *mut libc::c_void,
            ss_flags: 0,
            ss_size: mem.len(),
        };
        libc::sigaltstack(&st, std::ptr::null_mut());
    }
}

/// Writes all of `bytes` to stderr with write(2), ignoring failures.
fn write_stderr(bytes: &[u8]) {
    let mut rest = bytes;
    while !rest.is_empty() {
        // SAFETY: write(2) reads `rest.len()` bytes from a live slice; it is
        // async-signal-safe.
        let n = unsafe { libc::write(2, rest.as_ptr() as *const libc::c_void, rest.len()) };
        if n <= 0 {
            return;
        }
        rest = &rest[n as usize..];
    }
}

/// Sets `sig` back to its default action and raises it: the process ends by
/// that signal once the handler returns (it is blocked until then), and a
/// fault that re-executes ends it the same way.
fn die_by(sig: c_int) {
    // SAFETY: sigaction, sigemptyset and raise are async-signal-safe; the
    // struct is plain C data, valid when zeroed.
    unsafe {
        let mut dfl: libc::sigaction = std::mem::zeroed();
        dfl.sa_sigaction = libc::SIG_DFL;
        libc::sigemptyset(&mut dfl.sa_mask);
        libc::sigaction(sig, &dfl, std::ptr::null_mut());
        libc::raise(sig);
    }
}

/// Whether a crash was reported already (the process is ending by it).
static REPORTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

extern "C" fn on_fault(sig: c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    let k = SIGNALS.iter().position(|&(s, _)| s == sig);
    let (name, len) = RUNNING.with(|r| r.get());
    if !name.is_null() {
        // SAFETY: `Guard::enter` recorded a live string's pointer and length,
        // valid while the guard (and so the native call) is alive.
        let name = unsafe { std::slice::from_raw_parts(name, len) };
        let signame = k.map_or("a fault signal", |k| SIGNALS[k].1);
        // Replicas may crash at the same moment: one of them says so and ends
        // the process; the others wait for that, or their lines would
        // interleave. (An atomic swap and pause(2) are async-signal-safe.)
        if REPORTED.swap(true, std::sync::atomic::Ordering::SeqCst) {
            loop {
                // SAFETY: pause(2) only suspends this thread until a signal.
                unsafe { libc::pause() };
            }
        }
        write_stderr(b"xlet: CustomCall `");
        write_stderr(name);
        write_stderr(b"` crashed in native code (");
        write_stderr(signame.as_bytes());
        write_stderr(b")\n");
        die_by(sig);
        return;
    }
    // Not in native code: what was installed before ours decides.
    // SAFETY: PREVIOUS is read-only once the handler is installed.
    let prev = k.and_then(|k| unsafe { (*PREVIOUS.0.get())[k] });
    match prev {
        Some(p) if p.sa_sigaction == libc::SIG_DFL || p.sa_sigaction == libc::SIG_IGN => {
            die_by(sig)
        }
        Some(p) if p.sa_flags & libc::SA_SIGINFO != 0 => {
            // SAFETY: an SA_SIGINFO handler has this signature; it gets the
            // arguments the kernel gave us.
            let f: extern "C" fn(c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                unsafe { std::mem::transmute(p.sa_sigaction) };
            f(sig, info, ctx);
        }
        Some(p) => {
            // SAFETY: a plain handler takes the signal number only.
            let f: extern "C" fn(c_int) = unsafe { std::mem::transmute(p.sa_sigaction) };
            f(sig);
        }
        None => die_by(sig),
    }
}
