//! What a replica's ops share with the others (spec/distributed.md): its id
//! and the hub where the replicas meet at the collectives and at Send/Recv.
//! The driver that starts the replicas' threads is the root package's
//! `replica` module.

mod hub;

pub use hub::{Gathered, Hub};

use std::sync::Arc;
use xlet_core::OpId;
use xlet_core::span::Span;

/// Where a collective or a Recv is in the program, for matching the replicas'
/// collectives and for diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub op: OpId,
    pub span: Span,
    /// 1-based line of `span` (worked out when the program is checked).
    pub line: usize,
}

impl Site {
    pub fn same_place(&self, other: &Site) -> bool {
        self.op == other.op && self.span == other.span
    }
}

/// One replica of a run: its id and the hub all of them share.
#[derive(Clone, Debug)]
pub struct Replica {
    pub id: usize,
    pub hub: Arc<Hub>,
}

impl Replica {
    pub fn count(&self) -> usize {
        self.hub.count()
    }
}

impl Default for Replica {
    /// The only replica of a run (no `--replicas`).
    fn default() -> Self {
        Replica {
            id: 0,
            hub: Arc::new(Hub::new(1)),
        }
    }
}

/// The most replicas a run may have: each is a thread with its own stack.
pub const MAX_REPLICAS: usize = 1024;

/// The address space shared out among the replicas' stacks.
const STACKS_BYTES: usize = 4 << 30;

/// The stack of each of `n` replicas: an equal share of `STACKS_BYTES`,
/// at least 16 MiB and at most the interpreter's full stack.
pub fn replica_stack(n: usize) -> usize {
    (STACKS_BYTES / n.max(1)).clamp(16 << 20, xlet_core::config::FULL_STACK_BYTES)
}
