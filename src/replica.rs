//! Replicas (`xlet run --replicas N`, spec/distributed.md): N copies of one
//! program, each on its own thread with its own session, meeting at the
//! collectives and at Send/Recv through a shared `Hub`.
//!
//! `run_replicated` is the driver both `xlet run` and the conformance runner
//! use. Each replica's printed values are kept apart (the caller's `Output`
//! per replica) and its diagnostics name it, so the whole output can be shown
//! in replica order, the same on every run.

pub use xlet_ir::replica::{Gathered, Hub, MAX_REPLICAS, Replica, Site, replica_stack};

use crate::options::Options;
use crate::session::Failure;
use std::sync::Arc;
use xlet_core::diag::{Diag, Stage};
use xlet_eval::Output;

/// Runs `src` on `opts.replicas` replicas in parallel, each with a session
/// from `opts` and the output `make_output(id)`. Returns the outputs by
/// replica id and, if anything failed, one failure: the program's syntax or
/// check errors (found once, before any replica runs), or the runtime
/// diagnostics of every failed replica in replica order, each message
/// starting `replica K: `.
pub fn run_replicated<O: Output + Send>(
    src: &str,
    opts: &Options,
    make_output: impl Fn(usize) -> O + Sync,
) -> (Vec<O>, Result<(), Failure>) {
    let n = opts.replicas.clamp(1, MAX_REPLICAS);
    // The libraries are loaded once; each replica gets its own session.
    let mut base = match opts.session() {
        Ok(s) => s,
        Err(e) => return ((0..n).map(&make_output).collect(), Err(internal(&e))),
    };
    // A deep program needs a deep stack; many replicas share the address
    // space, so each gets its share, and programs are checked against the
    // nesting that share holds (spec/distributed.md §1): once here, so a
    // program too deep for it is one error, before any replica starts.
    let stack = replica_stack(n);
    base.limits.max_depth = xlet_check::depth_for_stack(stack);
    if let Err(f) = base.check(src) {
        return ((0..n).map(&make_output).collect(), Err(f));
    }
    let hub = Arc::new(Hub::new(n));
    let results: Vec<(O, Result<(), Failure>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|id| {
                let hub = &hub;
                let make_output = &make_output;
                let mut session = base.clone();
                session.env.replica = Replica {
                    id,
                    hub: Arc::clone(hub),
                };
                std::thread::Builder::new()
                    .name(format!("replica {id}"))
                    .stack_size(stack)
                    .spawn_scoped(s, move || {
                        let mut out = make_output(id);
                        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            session.run(src, &mut out)
                        }));
                        let result = run.unwrap_or_else(|_| Err(internal("the replica panicked")));
                        hub.finish(id, result.is_err());
                        (out, result)
                    })
                    .inspect_err(|_e| {
                        hub.finish(id, true);
                    })
            })
            .collect();
        handles
            .into_iter()
            .enumerate()
            .map(|(id, h)| match h {
                Ok(h) => h
                    .join()
                    .unwrap_or_else(|_| (make_output(id), Err(internal("the replica panicked")))),
                Err(e) => (
                    make_output(id),
                    Err(internal(&format!("cannot start the replica's thread: {e}"))),
                ),
            })
            .collect()
    });
    let mut outputs = vec![];
    let mut diags: Vec<Diag> = vec![];
    for (id, (out, result)) in results.into_iter().enumerate() {
        outputs.push(out);
        if let Err(f) = result {
            diags.extend(f.diags.into_iter().map(|mut d| {
                d.message = format!("replica {id}: {}", d.message);
                d
            }));
        }
    }
    if diags.is_empty() {
        (outputs, Ok(()))
    } else {
        let stage = Stage::Runtime;
        (outputs, Err(Failure { stage, diags }))
    }
}

/// `text` with every line prefixed `[replica ID] ` (how replicated runs print).
pub fn label(id: usize, text: &str) -> String {
    text.lines()
        .map(|l| format!("[replica {id}] {l}\n"))
        .collect()
}

fn internal(what: &str) -> Failure {
    Failure {
        stage: Stage::Runtime,
        diags: vec![Diag::runtime(
            "internal",
            format!("internal error: {what}"),
            0..0,
        )],
    }
}
