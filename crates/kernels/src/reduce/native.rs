//! Native reductions for monoid comps (prelude `add mul max min and or`, or a
//! user comp that is one such op on its two parameters): the element function
//! is a generic closure, so each loop is monomorphic and vectorises.
//!
//! Two layouts, both in the order of `order.rs` (tests compare bit for bit):
//! - rows: each output's elements are contiguous (reduced dims innermost).
//!   A full block of 256 is 16 steps of one 16-wide lane vector, then the lane
//!   tree; blocks go through the block tree.
//! - columns: the outputs are contiguous and the reduced elements are rows of
//!   them (reduced dims outermost). Lane accumulators are rows of a tile of
//!   outputs, so every step is a contiguous elementwise op (SIMD across outputs).
//!
//! Parallel tasks take whole outputs or aligned runs of 2^k blocks, which are
//! complete subtrees of the block tree: the result is the same for any split.

use super::order::{self, BLOCK, LANES, Tree};
use crate::strided::{Check, interrupt_error, interrupted};
use rayon::prelude::*;
use std::convert::Infallible;
use xlet_core::error::KernelError;

/// Elements per parallel task, roughly: large enough that scheduling is noise.
const TASK_ELEMS: usize = 1 << 16;

fn never<T>(r: Result<T, Infallible>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => match e {},
    }
}

/// Level-by-level pairing of 16 lanes.
#[inline(always)]
fn lanes16<T: Copy, F: Fn(T, T) -> T>(a: [T; LANES], f: &F) -> T {
    let b: [T; 8] = std::array::from_fn(|i| f(a[2 * i], a[2 * i + 1]));
    let c: [T; 4] = std::array::from_fn(|i| f(b[2 * i], b[2 * i + 1]));
    let d: [T; 2] = std::array::from_fn(|i| f(c[2 * i], c[2 * i + 1]));
    f(d[0], d[1])
}

/// The tree of one full block of 256 contiguous elements: the 16 lanes are one
/// vector, folded with the block's 15 further 16-element steps.
#[inline(always)]
fn full_block<T: Copy, F: Fn(T, T) -> T>(x: &[T; BLOCK], f: &F) -> T {
    let mut acc: [T; LANES] = std::array::from_fn(|l| x[l]);
    for step in x[LANES..].chunks_exact(LANES) {
        for (a, &v) in acc.iter_mut().zip(step) {
            *a = f(*a, v);
        }
    }
    lanes16(acc, f)
}

/// The tree of contiguous elements `x` that start at a block boundary.
pub fn row_tree<T: Copy, F: Fn(T, T) -> T>(x: &[T], f: &F) -> Option<T> {
    let mut g = |a: T, b: T| Ok::<T, Infallible>(f(a, b));
    let mut tree = Tree::new();
    let mut blocks = x.chunks_exact(BLOCK);
    for b in &mut blocks {
        let b: &[T; BLOCK] = b.try_into().unwrap_or_else(|_| unreachable!());
        never(tree.push(1, full_block(b, f), &mut g));
    }
    let tail = blocks.remainder();
    let last = if tail.is_empty() {
        None
    } else {
        never(order::block(0, tail.len(), &mut |t| Ok(tail[t]), &mut g))
    };
    never(tree.finish(last, &mut g))
}

/// How many blocks a task takes when outputs alone do not make enough tasks: a
/// power of two (an aligned run of blocks is a complete subtree).
fn segment_blocks(outputs: usize, blocks: usize, per_block: usize) -> usize {
    let threads = rayon::current_num_threads().max(1);
    if outputs == 0 || outputs >= 4 * threads || blocks <= 1 {
        return blocks.next_power_of_two();
    }
    let want = (4 * threads).div_ceil(outputs);
    let mut s = (blocks / want).max(1).next_power_of_two();
    // Tasks not much smaller than TASK_ELEMS.
    while s * per_block * BLOCK < TASK_ELEMS && s < blocks {
        s *= 2;
    }
    s
}

/// Combines the per-segment trees of one output (segments of `seg` blocks, in
/// order; the last may be shorter) into that output's tree.
fn combine_segments<T: Copy, F: Fn(T, T) -> T>(
    parts: impl ExactSizeIterator<Item = Option<T>>,
    seg: usize,
    nblocks: usize,
    f: &F,
) -> Option<T> {
    let mut g = |a: T, b: T| Ok::<T, Infallible>(f(a, b));
    let mut tree = Tree::new();
    let full = nblocks / seg;
    let mut last = None;
    for (i, p) in parts.enumerate() {
        match p {
            Some(v) if i < full => never(tree.push(seg, v, &mut g)),
            Some(v) => last = Some(v),
            None => {}
        }
    }
    never(tree.finish(last, &mut g))
}

/// Reduces each row of `x` (`m` rows of `n` contiguous elements) into `out[i] = f(init, tree)`.
pub fn rows<T: Copy + Send + Sync, F: Fn(T, T) -> T + Sync>(
    x: &[T],
    m: usize,
    n: usize,
    init: T,
    f: &F,
    out: &mut [T],
) -> Result<(), KernelError> {
    if n == 0 {
        out.iter_mut().for_each(|o| *o = init);
        return Ok(());
    }
    if m == 0 {
        return Ok(());
    }
    let nblocks = n.div_ceil(BLOCK);
    let seg = segment_blocks(m, nblocks, 1);
    if seg >= nblocks {
        // Whole rows per task.
        let rows_per_task = (TASK_ELEMS / n).clamp(1, m.max(1));
        return out
            .par_chunks_mut(rows_per_task)
            .enumerate()
            .try_for_each(|(c, o)| {
                Check::Interrupts.now()?;
                for (i, r) in o.iter_mut().enumerate() {
                    let row = &x[(c * rows_per_task + i) * n..][..n];
                    *r = row_tree(row, f).map_or(init, |t| f(init, t));
                }
                Ok(())
            });
    }
    // Few long rows: tasks take aligned runs of `seg` blocks.
    let nseg = nblocks.div_ceil(seg);
    let parts: Vec<Option<T>> = (0..m * nseg)
        .into_par_iter()
        .map(|task| {
            if interrupted() {
                return Err(interrupt_error());
            }
            let (r, s) = (task / nseg, task % nseg);
            let start = s * seg * BLOCK;
            let end = ((s + 1) * seg * BLOCK).min(n);
            Ok(row_tree(&x[r * n + start..r * n + end], f))
        })
        .collect::<Result<_, _>>()?;
    for (r, o) in out.iter_mut().enumerate() {
        let t = combine_segments(parts[r * nseg..][..nseg].iter().copied(), seg, nblocks, f);
        *o = t.map_or(init, |t| f(init, t));
    }
    Ok(())
}

/// Element rows for the lane-accumulator kernel: element `k` of every output in
/// a tile, as a contiguous row.
pub trait ElemRows<T: Copy>: Sync {
    /// Writes element `k` of outputs `c0..c0+dst.len()` into `dst`.
    fn load(&self, k: usize, c0: usize, dst: &mut [T]);
    /// Where elements may be other than padding, for outputs `c0..c0+w`: a
    /// range of `k` and the padding value, every element outside the range
    /// being that value; None when there is no padding to skip.
    fn live(&self, _c0: usize, _w: usize) -> Option<(std::ops::Range<usize>, T)> {
        None
    }
    /// `acc[i] = f(acc[i], element k of output c0+i)`.
    #[inline(always)]
    fn fold<F: Fn(T, T) -> T>(&self, k: usize, c0: usize, acc: &mut [T], scratch: &mut [T], f: &F) {
        let s = &mut scratch[..acc.len()];
        self.load(k, c0, s);
        for (a, &x) in acc.iter_mut().zip(s.iter()) {
            *a = f(*a, x);
        }
    }
}

/// Rows of a row-major `[n][m]` array: element k of output c is `x[k*m + c]`.
pub struct Columns<'a, T> {
    pub x: &'a [T],
    pub m: usize,
}

impl<T: Copy + Sync> ElemRows<T> for Columns<'_, T> {
    #[inline(always)]
    fn load(&self, k: usize, c0: usize, dst: &mut [T]) {
        dst.copy_from_slice(&self.x[k * self.m + c0..][..dst.len()]);
    }
    #[inline(always)]
    fn fold<F: Fn(T, T) -> T>(&self, k: usize, c0: usize, acc: &mut [T], _s: &mut [T], f: &F) {
        let row = &self.x[k * self.m + c0..][..acc.len()];
        for (a, &x) in acc.iter_mut().zip(row) {
            *a = f(*a, x);
        }
    }
}

/// `dst[i] = f(a[i], b[i])` where `dst` may be `a` (written in place).
#[inline(always)]
pub(super) fn pair_into<T: Copy, F: Fn(T, T) -> T>(
    acc: &mut [T],
    w: usize,
    dst: usize,
    a: usize,
    f: &F,
) {
    // a = 2 * dst; the sources lie at or after the destination.
    if dst == a {
        let (d, s) = acc[dst * w..].split_at_mut(w);
        for (x, &y) in d.iter_mut().zip(&s[..w]) {
            *x = f(*x, y);
        }
    } else {
        let (lo, hi) = acc.split_at_mut(a * w);
        let (sa, sb) = hi[..2 * w].split_at(w);
        for ((d, &x), &y) in lo[dst * w..][..w].iter_mut().zip(sa).zip(sb) {
            *d = f(x, y);
        }
    }
}

/// Scratch for `fold_tile`: 16 lane rows and one element row.
pub struct Scratch<T> {
    acc: Vec<T>,
    row: Vec<T>,
}

impl<T: Copy> Scratch<T> {
    pub fn new(w: usize, fill: T) -> Self {
        Scratch {
            acc: vec![fill; LANES * w],
            row: vec![fill; w],
        }
    }
}

/// The tree of elements of blocks `b0..b1` (of `n` elements in all) for the
/// outputs `c0..c0+out.len()`, written into `out`; false if there are none.
///
/// Blocks wholly outside the rows' live range (`ElemRows::live`) hold only the
/// padding value: runs of them enter the tree as complete subtrees whose values
/// are worked out by doubling, so a window of 10^12 positions over a few
/// elements costs the elements, not the positions (the same tree, so the same
/// bits, as visiting every position).
pub fn fold_tile<T: Copy, F: Fn(T, T) -> T, R: ElemRows<T>>(
    rows: &R,
    n: usize,
    (b0, b1): (usize, usize),
    c0: usize,
    out: &mut [T],
    sc: &mut Scratch<T>,
    f: &F,
) -> Result<bool, KernelError> {
    let w = out.len();
    let mut tree: Tree<Vec<T>> = Tree::new();
    let mut g = |mut a: Vec<T>, b: Vec<T>| {
        for (x, &y) in a.iter_mut().zip(&b) {
            *x = f(*x, y);
        }
        Ok::<_, Infallible>(a)
    };
    let live = rows.live(c0, w).map(|(r, v)| {
        let lo = (r.start / BLOCK).clamp(b0, b1);
        let hi = r.end.div_ceil(BLOCK).clamp(lo, b1);
        (lo, hi, v)
    });
    match live {
        Some((lo, hi, v)) if lo > b0 || hi < b1 => {
            let pads = PadBlocks::new(v, n, f);
            pads.push_run(&mut tree, (b0, lo), b0, w, &mut g);
            fold_blocks(rows, n, (lo, hi), c0, w, sc, f, &mut tree, &mut g)?;
            pads.push_run(&mut tree, (hi, b1), b0, w, &mut g);
        }
        _ => {
            if b1 - b0 == 1 {
                // One block: its lane tree is the result (no tree, no copy).
                if lane_tree(rows, n, b0, c0, w, sc, f) {
                    out.copy_from_slice(&sc.acc[..w]);
                    return Ok(true);
                }
                return Ok(false);
            }
            fold_blocks(rows, n, (b0, b1), c0, w, sc, f, &mut tree, &mut g)?;
        }
    }
    Ok(match never(tree.finish(None, &mut g)) {
        Some(r) => {
            out.copy_from_slice(&r);
            true
        }
        None => false,
    })
}

/// The lane tree of block `b` for outputs `c0..c0+w`, left in `sc.acc[..w]`;
/// false if the block is empty.
fn lane_tree<T: Copy, F: Fn(T, T) -> T, R: ElemRows<T>>(
    rows: &R,
    n: usize,
    b: usize,
    c0: usize,
    w: usize,
    sc: &mut Scratch<T>,
    f: &F,
) -> bool {
    let start = b * BLOCK;
    let len = n.saturating_sub(start).min(BLOCK);
    if len == 0 {
        return false;
    }
    let acc = &mut sc.acc[..LANES * w];
    for t in 0..len.min(LANES) {
        rows.load(start + t, c0, &mut acc[t * w..][..w]);
    }
    for t in LANES..len {
        let l = t % LANES;
        rows.fold(start + t, c0, &mut acc[l * w..][..w], &mut sc.row, f);
    }
    // Lane tree, level by level, in place.
    let mut c = len.min(LANES);
    while c > 1 {
        for p in 0..c / 2 {
            pair_into(acc, w, p, 2 * p, f);
        }
        if c % 2 == 1 {
            acc.copy_within((c - 1) * w..c * w, (c / 2) * w);
        }
        c = c.div_ceil(2);
    }
    true
}

/// Pushes the lane trees of blocks `b0..b1` into `tree`, one leaf each.
#[allow(clippy::too_many_arguments)]
fn fold_blocks<T: Copy, F: Fn(T, T) -> T, R: ElemRows<T>>(
    rows: &R,
    n: usize,
    (b0, b1): (usize, usize),
    c0: usize,
    w: usize,
    sc: &mut Scratch<T>,
    f: &F,
    tree: &mut Tree<Vec<T>>,
    g: &mut impl FnMut(Vec<T>, Vec<T>) -> Result<Vec<T>, Infallible>,
) -> Result<(), KernelError> {
    for b in b0..b1 {
        // One window can be billions of positions long (a huge window over
        // padding): Ctrl-C must not wait for it.
        if b % 4096 == 4095 && interrupted() {
            return Err(interrupt_error());
        }
        if !lane_tree(rows, n, b, c0, w, sc, f) {
            break;
        }
        never(tree.push(1, sc.acc[..w].to_vec(), g));
    }
    Ok(())
}

/// The trees of blocks that hold only the padding value `v`: a full block's,
/// the last (short) block's, and complete subtrees of 2^j full blocks.
struct PadBlocks<T> {
    /// `full[j]`: the tree of 2^j full blocks of `v`.
    full: Vec<T>,
    /// The tree of the last block when it is short (n not a multiple of BLOCK).
    short: Option<T>,
    nblocks: usize,
}

impl<T: Copy> PadBlocks<T> {
    fn new<F: Fn(T, T) -> T>(v: T, n: usize, f: &F) -> Self {
        let mut h = |a: T, b: T| Ok::<T, Infallible>(f(a, b));
        let block = |len: usize, h: &mut dyn FnMut(T, T) -> Result<T, Infallible>| {
            never(order::block(0, len, &mut |_| Ok(v), &mut |a, b| h(a, b)))
        };
        let mut full = vec![];
        if let Some(b) = block(BLOCK, &mut h) {
            full.push(b);
            // Enough levels for any run of blocks (usize::BITS of them).
            for j in 1..usize::BITS as usize {
                let x = full[j - 1];
                full.push(f(x, x));
            }
        }
        let short = match n % BLOCK {
            0 => None,
            len => block(len, &mut h),
        };
        PadBlocks {
            full,
            short,
            nblocks: n.div_ceil(BLOCK),
        }
    }

    /// Pushes blocks `from..to` (all padding) into `tree`, whose first leaf is
    /// block `base`: greedy aligned complete subtrees, then the short last block.
    fn push_run(
        &self,
        tree: &mut Tree<Vec<T>>,
        (from, to): (usize, usize),
        base: usize,
        w: usize,
        g: &mut impl FnMut(Vec<T>, Vec<T>) -> Result<Vec<T>, Infallible>,
    ) {
        if from >= to {
            return;
        }
        let short_last = self.short.is_some() && to == self.nblocks;
        let full_to = if short_last { to - 1 } else { to };
        let mut q = from - base;
        let end = full_to - base;
        while q < end {
            let room = (end - q).ilog2();
            let j = if q == 0 {
                room
            } else {
                room.min(q.trailing_zeros())
            };
            if let Some(&v) = self.full.get(j as usize) {
                never(tree.push(1 << j, vec![v; w], g));
            }
            q += 1 << j;
        }
        if let (true, Some(v)) = (short_last, self.short) {
            never(tree.push(1, vec![v; w], g));
        }
    }
}

/// Outputs per tile of the column kernel: the 16 lane rows (16 KiB) stay in L1.
pub fn tile_width<T>(m: usize) -> usize {
    let w = (16 * 1024 / LANES / std::mem::size_of::<T>().max(1)).max(16);
    w.min(m).max(1)
}

/// Outputs per tile of `columns`: as wide as a quarter of the L2 cache holds
/// 16 lane rows of (256 KiB on a 1 MiB L2: all 4096 columns of f32), so that
/// the element rows are read whole, one after another, and the lane rows stay
/// in L2. With L1-sized tiles (256 f32) each task read 1 KiB of every 16 KiB
/// row, a new page each time, and the reduction over dimension 0 of
/// f32[4096x4096] ran 1.3-2x numpy's time (issue 26). Parallel tasks then
/// split the rows into aligned runs of blocks (`segment_blocks`).
pub fn column_tile_width<T>(m: usize) -> usize {
    let lanes_bytes = crate::machine::caches().l2 / 4;
    let w = (lanes_bytes / LANES / std::mem::size_of::<T>().max(1)).max(256);
    w.min(m).max(1)
}

/// Reduces `n` element rows of `m` outputs each: `out[c] = f(init, tree of rows.k[c])`.
pub fn columns<T: Copy + Send + Sync, F: Fn(T, T) -> T + Sync, R: ElemRows<T>>(
    rows: &R,
    n: usize,
    m: usize,
    init: T,
    f: &F,
    out: &mut [T],
) -> Result<(), KernelError> {
    if n == 0 {
        out.iter_mut().for_each(|o| *o = init);
        return Ok(());
    }
    columns_in_tiles(rows, n, m, init, f, out, column_tile_width::<T>(m))
}

/// `columns` in tiles of `w` outputs (any width gives the same bits).
pub fn columns_in_tiles<T: Copy + Send + Sync, F: Fn(T, T) -> T + Sync, R: ElemRows<T>>(
    rows: &R,
    n: usize,
    m: usize,
    init: T,
    f: &F,
    out: &mut [T],
    w: usize,
) -> Result<(), KernelError> {
    if m == 0 {
        return Ok(());
    }
    let w = w.clamp(1, m);
    let tiles = m.div_ceil(w);
    let nblocks = n.div_ceil(BLOCK);
    let seg = segment_blocks(tiles, nblocks, w);
    if seg >= nblocks {
        return out.par_chunks_mut(w).enumerate().try_for_each_init(
            || Scratch::new(w, init),
            |sc, (t, o)| {
                Check::Interrupts.now()?;
                if fold_tile(rows, n, (0, nblocks), t * w, o, sc, f)? {
                    o.iter_mut().for_each(|v| *v = f(init, *v));
                } else {
                    o.iter_mut().for_each(|v| *v = init);
                }
                Ok(())
            },
        );
    }
    let nseg = nblocks.div_ceil(seg);
    let parts: Vec<Option<Vec<T>>> = (0..tiles * nseg)
        .into_par_iter()
        .map_init(
            || Scratch::new(w, init),
            |sc, task| {
                if interrupted() {
                    return Err(interrupt_error());
                }
                let (t, s) = (task / nseg, task % nseg);
                let c0 = t * w;
                let mut part = vec![init; w.min(m - c0)];
                let b1 = ((s + 1) * seg).min(nblocks);
                let some = fold_tile(rows, n, (s * seg, b1), c0, &mut part, sc, f)?;
                Ok(some.then_some(part))
            },
        )
        .collect::<Result<_, _>>()?;
    for (t, o) in out.chunks_mut(w).enumerate() {
        for (i, v) in o.iter_mut().enumerate() {
            let col = parts[t * nseg..][..nseg]
                .iter()
                .map(|p| p.as_ref().map(|p| p[i]));
            let r = combine_segments(col, seg, nblocks, f);
            *v = r.map_or(init, |r| f(init, r));
        }
    }
    Ok(())
}
