//! What dot_general's checking rule fixed for its kernel and its gradient rule.

use xlet_core::types::{ArrayType, ElemType};

/// What the checker resolved: the grouping of dimensions and the types.
#[derive(Clone, Debug)]
pub struct Plan {
    /// lhs dimensions in the order batch, free, contracting.
    pub lhs_order: Vec<usize>,
    /// rhs dimensions in the order batch, contracting, free.
    pub rhs_order: Vec<usize>,
    pub batch_dims: usize,
    pub lhs_free: usize,
    pub rhs_free: usize,
    pub contracting: usize,
    /// The element type products are computed in: the result's, or f32 for an
    /// f16/bf16 result (rounded once at the end), or f64 if an operand is f64.
    pub compute: ElemType,
    pub result: ArrayType,
}
