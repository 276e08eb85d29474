//! The one reduction order (spec/ops/reduce.md §"Order"), written plainly.
//!
//! For the elements x_0..x_{n-1} of one output (row-major over the reduced
//! dimensions, or over a window's positions) and a combining function f:
//! blocks of `BLOCK` consecutive elements; in a block, element t folds into
//! lane t mod `LANES`, left to right, the lane's first element as its start;
//! the block's non-empty lanes are combined by pairing level by level; the
//! blocks' results likewise; the init value is combined last, once:
//! `f(init, tree)`. n = 0 gives the init value.
//!
//! This module is the reference every fast path is tested against: the
//! generic path (one comp call per element) runs exactly this code, and the
//! native and whole-array kernels must give bit-identical results.

/// Consecutive elements per block.
pub const BLOCK: usize = 256;
/// Lanes per block: one vector of 16 contiguous elements.
pub const LANES: usize = 16;

/// Level-by-level pairing, built incrementally: nodes arrive left to right,
/// each a complete subtree of `size` leaves (a power of two), aligned (its
/// first leaf index is a multiple of its size).
///
/// Pairing nodes (0,1), (2,3)... level by level, with an unpaired last node
/// moving up unchanged, gives for m leaves with 2^k < m < 2^(k+1):
/// `T(m) = f(S(2^k), T(m - 2^k))`, S a complete subtree. So the tree is the
/// complete subtrees of the binary decomposition of m, combined right to left;
/// a binary counter (merge the two top nodes while their sizes are equal)
/// builds exactly those, and `finish` combines them right to left.
pub struct Tree<A> {
    stack: Vec<(usize, A)>,
}

impl<A> Default for Tree<A> {
    fn default() -> Self {
        Tree { stack: Vec::new() }
    }
}

impl<A> Tree<A> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the next node (a complete subtree of `size` leaves).
    pub fn push<E>(
        &mut self,
        size: usize,
        a: A,
        f: &mut impl FnMut(A, A) -> Result<A, E>,
    ) -> Result<(), E> {
        let mut node = (size, a);
        while let Some(&(s, _)) = self.stack.last() {
            if s != node.0 {
                break;
            }
            let Some((_, left)) = self.stack.pop() else {
                break;
            };
            node = (s * 2, f(left, node.1)?);
        }
        self.stack.push(node);
        Ok(())
    }

    /// The whole tree; `last`, if given, is the tree of the leaves after the
    /// pushed ones (fewer than the smallest pushed subtree), combined innermost.
    pub fn finish<E>(
        mut self,
        last: Option<A>,
        f: &mut impl FnMut(A, A) -> Result<A, E>,
    ) -> Result<Option<A>, E> {
        let mut acc = match last {
            Some(a) => Some(a),
            None => self.stack.pop().map(|(_, a)| a),
        };
        while let Some((_, left)) = self.stack.pop() {
            acc = match acc {
                Some(right) => Some(f(left, right)?),
                None => Some(left),
            };
        }
        Ok(acc)
    }
}

/// Pairs a list of nodes level by level (the lane tree and the block tree).
pub fn pair_all<A, E>(
    nodes: impl IntoIterator<Item = A>,
    f: &mut impl FnMut(A, A) -> Result<A, E>,
) -> Result<Option<A>, E> {
    let mut t = Tree::new();
    for a in nodes {
        t.push(1, a, f)?;
    }
    t.finish(None, f)
}

/// The tree of elements `start..start+len` (one block, len <= BLOCK).
pub fn block<A, E>(
    start: usize,
    len: usize,
    get: &mut impl FnMut(usize) -> Result<A, E>,
    f: &mut impl FnMut(A, A) -> Result<A, E>,
) -> Result<Option<A>, E> {
    // Options, so that a lane's value can be moved into `f` and the result put back.
    let mut lanes: Vec<Option<A>> = Vec::with_capacity(LANES.min(len));
    for t in 0..len.min(LANES) {
        lanes.push(Some(get(start + t)?));
    }
    for t in LANES..len {
        let x = get(start + t)?;
        let slot = &mut lanes[t % LANES];
        if let Some(a) = slot.take() {
            *slot = Some(f(a, x)?);
        }
    }
    pair_all(lanes.into_iter().flatten(), f)
}

/// The tree of all n elements (None when n = 0), without the init value.
pub fn tree<A, E>(
    n: usize,
    get: &mut impl FnMut(usize) -> Result<A, E>,
    f: &mut impl FnMut(A, A) -> Result<A, E>,
) -> Result<Option<A>, E> {
    let mut blocks = Tree::new();
    let full = n / BLOCK;
    for b in 0..full {
        if let Some(r) = block(b * BLOCK, BLOCK, get, f)? {
            blocks.push(1, r, f)?;
        }
    }
    let last = match n % BLOCK {
        0 => None,
        len => block(full * BLOCK, len, get, f)?,
    };
    blocks.finish(last, f)
}

/// One output of a reduction: `f(init, tree)`, or `init` when n = 0.
pub fn reduce<A, E>(
    n: usize,
    init: A,
    get: &mut impl FnMut(usize) -> Result<A, E>,
    f: &mut impl FnMut(A, A) -> Result<A, E>,
) -> Result<A, E> {
    match tree(n, get, f)? {
        Some(t) => f(init, t),
        None => Ok(init),
    }
}
