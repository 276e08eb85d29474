//! What a structural op does with its operands' elements, for code that
//! compiles ops instead of running them (execution plans, `xlet-plan`): the
//! attributes as the op's checker resolved them. The op's kernel stays the
//! reference; a compiler that moves elements by this description must put
//! every element where the kernel puts it.

/// The element movement of a structural op (`Kernel::movement`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Movement {
    /// Reshape: the operand read in dimension order `perm` (row-major), its
    /// elements in that order given the result's dimensions.
    Reshape { perm: Vec<usize> },
    /// BroadcastInDim (and Broadcast): operand dimension `i` is result
    /// dimension `map[i]`; an operand dimension of size 1 is repeated.
    BroadcastInDim { map: Vec<usize> },
    /// Transpose: result dimension `i` is operand dimension `perm[i]`.
    Transpose { perm: Vec<usize> },
    /// Slice: result index `r` of dimension `d` reads operand index
    /// `starts[d] + r * strides[d]`.
    Slice {
        starts: Vec<usize>,
        strides: Vec<usize>,
    },
    /// Concatenate: the operands one after another along dimension `dim`.
    Concatenate { dim: usize },
}
