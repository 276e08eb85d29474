//! The run configuration: the settings one run of a program goes by, owned by
//! the session and handed down to the checker and the evaluator (which hands
//! them to kernels through `EvalCx`). No layer reads a setting from a static.
//!
//! Two things are process-wide by nature and live here as such:
//! - the interrupt signal: SIGINT goes to the process, so the edge (the CLI's
//!   or the REPL's Ctrl-C handler) raises it, and every long loop in every
//!   layer polls it through `interrupted()`;
//! - the memory budget, which the global allocator (`alloc`) enforces for
//!   every byte of the process; the session applies `RunConfig::max_memory`
//!   to it when a run starts.

use std::sync::atomic::{AtomicBool, Ordering};

/// The deepest expressions (and calls through comps) may nest on the
/// interpreter's full stack; a smaller stack allows fewer (`check::depth_for_stack`).
pub const MAX_DEPTH: usize = 10_000;

/// The stack the interpreter's main thread runs on (`main.rs`), and with it
/// `MAX_DEPTH` levels of nesting fit (spec/language.md §8.4).
pub const FULL_STACK_BYTES: usize = 1 << 30;

/// Settings for one run. `Default` is what `xlet run` uses with no flags.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunConfig {
    /// The most iterations one While may run (`--max-steps`).
    pub max_steps: u64,
    /// The budget for all live bytes together (`--max-memory`); `None` keeps
    /// the default (three quarters of the machine's memory).
    pub max_memory: Option<usize>,
    /// Whether chains of elementwise ops run fused (tests compare both paths).
    pub fuse: bool,
    /// Whether While loops run through their execution plans (`--no-plan`
    /// turns them off; tests compare both paths).
    pub plan: bool,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            max_steps: u64::MAX,
            max_memory: None,
            fuse: true,
            plan: true,
        }
    }
}

static INTERRUPT: AtomicBool = AtomicBool::new(false);

/// Whether Ctrl-C was pressed since the last `clear_interrupt`.
pub fn interrupted() -> bool {
    INTERRUPT.load(Ordering::SeqCst)
}

/// Ctrl-C: every loop that polls `interrupted` stops at its next check.
pub fn raise_interrupt() {
    INTERRUPT.store(true, Ordering::SeqCst);
}

/// A new input (the REPL's next line, a test's next case) starts uninterrupted.
pub fn clear_interrupt() {
    INTERRUPT.store(false, Ordering::SeqCst);
}
