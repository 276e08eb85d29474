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

/// The trees of blocks made only of one padding value: a full block's, 2^j
/// full blocks' (made on demand, by doubling), and the short last block's.
struct PadTrees<'a, A> {
    pad: &'a A,
    n: usize,
    levels: Vec<A>,
}

impl<A: Clone> PadTrees<'_, A> {
    /// The tree of 2^j full padding blocks.
    fn level<E>(&mut self, j: usize, f: &mut impl FnMut(A, A) -> Result<A, E>) -> Result<A, E> {
        while self.levels.len() <= j {
            let next = match self.levels.last() {
                None => {
                    let pad = self.pad;
                    block(0, BLOCK, &mut |_| Ok(pad.clone()), f)?
                }
                Some(x) => Some(f(x.clone(), x.clone())?),
            };
            match next {
                Some(x) => self.levels.push(x),
                None => break,
            }
        }
        // `block` of BLOCK elements is never empty, so level j exists.
        match self.levels.get(j) {
            Some(x) => Ok(x.clone()),
            None => Ok(self.pad.clone()),
        }
    }

    /// Pushes blocks `from..to` (all padding) into `t` (whose first leaf is
    /// block 0): greedy aligned complete subtrees, then the short last block.
    fn push_run<E>(
        &mut self,
        t: &mut Tree<A>,
        (from, to): (usize, usize),
        f: &mut impl FnMut(A, A) -> Result<A, E>,
    ) -> Result<(), E> {
        let nblocks = self.n.div_ceil(BLOCK);
        let short = !self.n.is_multiple_of(BLOCK) && to == nblocks;
        let full_to = if short { to - 1 } else { to };
        let mut q = from;
        while q < full_to {
            let room = (full_to - q).ilog2();
            let j = if q == 0 {
                room
            } else {
                room.min(q.trailing_zeros())
            };
            let x = self.level(j as usize, f)?;
            t.push(1 << j, x, f)?;
            q += 1 << j;
        }
        if short && from < to {
            let pad = self.pad;
            if let Some(x) = block(0, self.n % BLOCK, &mut |_| Ok(pad.clone()), f)? {
                t.push(1, x, f)?;
            }
        }
        Ok(())
    }
}

/// `tree`, for elements that all equal `pad` outside the range `live`: the
/// blocks wholly outside it are never visited (their trees are made from `pad`
/// by doubling, a few dozen calls of `f` whatever `n` is), with the same result
/// as `tree` over every element. For a huge window that is mostly padding.
pub fn tree_skipping<A: Clone, E>(
    n: usize,
    live: std::ops::Range<usize>,
    pad: &A,
    get: &mut impl FnMut(usize) -> Result<A, E>,
    f: &mut impl FnMut(A, A) -> Result<A, E>,
) -> Result<Option<A>, E> {
    let nblocks = n.div_ceil(BLOCK);
    let lo = (live.start / BLOCK).min(nblocks);
    let hi = live.end.div_ceil(BLOCK).clamp(lo, nblocks);
    let mut pads = PadTrees {
        pad,
        n,
        levels: Vec::new(),
    };
    let mut t = Tree::new();
    pads.push_run(&mut t, (0, lo), f)?;
    for b in lo..hi {
        let len = (n - b * BLOCK).min(BLOCK);
        if let Some(r) = block(b * BLOCK, len, get, f)? {
            t.push(1, r, f)?;
        }
    }
    pads.push_run(&mut t, (hi, nblocks), f)?;
    t.finish(None, f)
}

/// `reduce`, skipping the padding outside `live` (see `tree_skipping`).
pub fn reduce_skipping<A: Clone, E>(
    n: usize,
    init: A,
    (live, pad): (std::ops::Range<usize>, &A),
    get: &mut impl FnMut(usize) -> Result<A, E>,
    f: &mut impl FnMut(A, A) -> Result<A, E>,
) -> Result<A, E> {
    match tree_skipping(n, live, pad, get, f)? {
        Some(t) => f(init, t),
        None => Ok(init),
    }
}
