//! Computations as values of the language: what the ops that take a `comp`
//! (Map, Reduce, Sort, While, ...) know about the one they were given.
//!
//! The checker hands an op a checked `ir::Comp`. Calling it once per element
//! through the evaluator is the generic (reference) path; this module
//! recognises the comps that have a faster form, so that no op interprets a
//! computation per element when a vectorised form exists:
//! - `binary_op`/`monoid`: a comp that is one binary op on its two parameters
//!   (the prelude's `add mul max min and or`, or a user's `a + b`), for which
//!   ops have native kernels;
//! - `Vectorized`: a comp made only of elementwise ops, compiled into the fused
//!   elementwise engine and run over whole arrays at once.

mod vectorized;

pub use vectorized::{OneScratch, Vectorized, flat_scalars};
use xlet_core::OpId;
use xlet_ir::{Comp, ExprKind};

/// The op when `c`'s body is exactly one op applied to its two parameters,
/// with `true` when they are swapped (`b + a` for parameters `a, b`).
pub fn binary_op(c: &Comp) -> Option<(OpId, bool)> {
    if c.params.len() != 2 || !c.body.is_empty() {
        return None;
    }
    // No native kernel computes on a small type's bytes: its comps run as
    // written (spec/small_types.md §5).
    if c.params
        .iter()
        .any(|(_, t)| xlet_core::value::small::has_small(t))
    {
        return None;
    }
    let ExprKind::Op { id, args, .. } = &c.result.kind else {
        return None;
    };
    match args.as_slice() {
        [a, b] => match (&a.kind, &b.kind) {
            (ExprKind::Local(0), ExprKind::Local(1)) => Some((*id, false)),
            (ExprKind::Local(1), ExprKind::Local(0)) => Some((*id, true)),
            _ => None,
        },
        _ => None,
    }
}

pub use xlet_kernels::reduce::monoid::Monoid;

/// `c` as a monoid: two scalar parameters of one type, a result of that type, and
/// a body that is one of the monoid ops on the two parameters (in either order:
/// all of them are commutative in XLA's semantics).
pub fn monoid(c: &Comp) -> Option<Monoid> {
    let (id, _) = binary_op(c)?;
    let [(_, a), (_, b)] = c.params.as_slice() else {
        return None;
    };
    let scalar = a.as_array().is_some_and(|t| t.dims.is_empty());
    if !scalar || a != b || &c.ret != a {
        return None;
    }
    Monoid::ALL.into_iter().find(|m| m.op() == id)
}
