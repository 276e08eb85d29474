//! Where xlet runs when called from Python: one thread of its own with the
//! interpreter's full stack (a Python thread's 8 MiB is far less than the
//! checker and evaluator may recurse into, spec/language.md §8.4), while the
//! calling thread waits with the GIL released and turns Ctrl-C into xlet's
//! interrupt (spec/python.md §4).
//!
//! Runs from several Python threads take turns on the one worker.

use pyo3::prelude::*;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

type Job = Box<dyn FnOnce() + Send + 'static>;

/// How often a waiting caller looks for Ctrl-C (Python's signal handlers run
/// only when the main thread asks for them).
const SIGNAL_POLL: Duration = Duration::from_millis(5);

fn queue() -> Result<&'static Mutex<mpsc::Sender<Job>>, String> {
    static QUEUE: OnceLock<Result<Mutex<mpsc::Sender<Job>>, String>> = OnceLock::new();
    QUEUE
        .get_or_init(|| {
            let (tx, rx) = mpsc::channel::<Job>();
            std::thread::Builder::new()
                .name("xlet".into())
                .stack_size(xlet_core::config::FULL_STACK_BYTES)
                .spawn(move || {
                    while let Some(job) = next_job(&rx) {
                        job()
                    }
                })
                .map(|_| Mutex::new(tx))
                .map_err(|e| format!("xlet: cannot start its worker thread: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// How long either side of a handoff polls before it sleeps. Waking a
/// sleeping thread on an idle virtual CPU cost 20 µs a handoff here (a small
/// call took 44 µs, 37 of them in the scheduler); polling with `yield_now`
/// keeps both threads awake between back-to-back calls, and gives the CPU
/// away when other work wants it (spec/python.md §7).
const POLL: Duration = Duration::from_micros(100);

/// The next job: polls briefly first (calls from a Python loop come back to
/// back), then sleeps until one comes. None when the queue has closed.
fn next_job(rx: &mpsc::Receiver<Job>) -> Option<Job> {
    let start = std::time::Instant::now();
    while start.elapsed() < POLL {
        match rx.try_recv() {
            Ok(job) => return Some(job),
            Err(mpsc::TryRecvError::Disconnected) => return None,
            Err(mpsc::TryRecvError::Empty) => std::thread::yield_now(),
        }
    }
    rx.recv().ok()
}

/// Waits up to `SIGNAL_POLL` for a run's result, polling for the first `POLL`.
fn wait<R>(rx: &mpsc::Receiver<R>) -> Result<R, RecvTimeoutError> {
    let start = std::time::Instant::now();
    while start.elapsed() < POLL {
        match rx.try_recv() {
            Ok(r) => return Ok(r),
            Err(mpsc::TryRecvError::Disconnected) => return Err(RecvTimeoutError::Disconnected),
            Err(mpsc::TryRecvError::Empty) => std::thread::yield_now(),
        }
    }
    rx.recv_timeout(SIGNAL_POLL)
}

/// Why a run did not give a result.
pub enum Stopped {
    /// Ctrl-C: the Python error that the signal handler raised
    /// (`KeyboardInterrupt`, or whatever a user's handler raises).
    Signal(PyErr),
    /// A panic inside xlet (a bug); the run's session was put back as it was.
    Panic(String),
    /// The worker could not be started or has gone.
    NoWorker(String),
}

/// Runs `f` on the worker and waits for it with the GIL released, polling for
/// Ctrl-C: when a signal handler raises, xlet's interrupt is raised, the run
/// stops at its next check, and the handler's error is returned.
pub fn run<F, R>(py: Python<'_>, f: F) -> Result<R, Stopped>
where
    F: FnOnce() -> R + Send,
    R: Send,
{
    let (tx, rx) = mpsc::sync_channel::<std::thread::Result<R>>(1);
    let job = move || {
        xlet_core::config::clear_interrupt();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        let _ = tx.send(r);
    };
    let job: Box<dyn FnOnce() + Send + '_> = Box::new(job);
    // SAFETY: the job borrows from this stack frame (`f`'s captures, the
    // result channel). This function does not return before the job has
    // finished: every path below waits for the job's message (sent as its
    // last act), or for the channel to close, which happens only when the
    // job has been dropped, run or not. So nothing the job borrows is gone
    // while it can still be used.
    let job: Job = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, Job>(job) };
    let sent = queue()
        .map_err(Stopped::NoWorker)?
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .send(job);
    if sent.is_err() {
        return Err(Stopped::NoWorker(
            "xlet: its worker thread has stopped".into(),
        ));
    }
    let mut signal = None;
    let mut rx = Some(rx);
    let result = loop {
        // The receiver moves into the detached closure and back (it is Send,
        // not Sync).
        let (back, got) = py.detach(move || {
            let rx = rx.take();
            let got = rx.as_ref().map(wait);
            (rx, got)
        });
        rx = back;
        let Some(got) = got else {
            break None;
        };
        match got {
            Ok(r) => break Some(r),
            Err(RecvTimeoutError::Disconnected) => break None,
            Err(RecvTimeoutError::Timeout) => {
                if signal.is_none()
                    && let Err(e) = py.check_signals()
                {
                    signal = Some(e);
                }
                // Raised again at every poll until the run stops: a job that
                // had not started when the signal came clears the flag as it
                // starts (a fresh run must not inherit an old Ctrl-C), and a
                // raise made only once would then be lost, the run never
                // stopping.
                if signal.is_some() {
                    xlet_core::config::raise_interrupt();
                }
            }
        }
    };
    if let Some(e) = signal {
        xlet_core::config::clear_interrupt();
        return Err(Stopped::Signal(e));
    }
    match result {
        Some(Ok(r)) => Ok(r),
        Some(Err(p)) => Err(Stopped::Panic(panic_message(&p))),
        None => Err(Stopped::NoWorker(
            "xlet: its worker thread has stopped".into(),
        )),
    }
}

fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".into())
}
