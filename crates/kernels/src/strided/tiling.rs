//! The tile walk over the output for operands read across their rows.

use super::plan::plan_dyn;
use super::{Check, TASK};
use rayon::prelude::*;
use xlet_core::error::KernelError;

/// How to walk an output in tiles when some operand's innermost stride is large.
///
/// On the coalesced dimensions, `i` is the innermost (the output's contiguous
/// one) and `j` the dimension along which the worst operand is contiguous. A
/// block is a `tj` x `ti` rectangle of the (j, i) plane at one index of every
/// other dimension: every cache line it reads from that operand is used for a
/// whole run of `tj` elements, and the output is still written a row of `ti`
/// elements at a time.
pub struct Tiling {
    pub(super) dims: Vec<usize>,
    pub(super) strides: Vec<Vec<isize>>,
    pub(super) sizes: Vec<usize>,
    /// Row-major strides of the output over `dims`.
    pub(super) out_strides: Vec<usize>,
    pub(super) j: usize,
    pub(super) i: usize,
    pub(super) tj: usize,
    pub(super) ti: usize,
    pub(super) nbj: usize,
    pub(super) nbi: usize,
    /// The dimensions from the fastest-varying to the slowest in the sequence
    /// of blocks (by default the output's row-major order: `i` first).
    pub(super) order: Vec<usize>,
    /// The operand with the largest inner stride (the one `j` was chosen for).
    worst: usize,
    pub(super) blocks: usize,
}

/// An operand's inner stride is "large" when consecutive elements are a cache line
/// (64 bytes) or more apart: every element of a row-order walk is then a new line.
fn large_stride(stride: isize, size: usize) -> bool {
    stride.unsigned_abs() * size >= 64
}

/// The tile's side: the largest power of two whose square of `elem`-byte
/// elements fits an eighth of the L2 cache, at least 16: 128 x 128 f32 tiles
/// (64 KiB) from a 512 KiB L2 up, 64 x 64 f64 tiles on 512 KiB and 128 x 128
/// from 1 MiB. With 64 x 64 f32 tiles (the old sixteenth of L2 on a 512 KiB
/// part), transposed f32 views ran at 3.5-3.7x the contiguous op on Zen 3
/// (AVX2, 512 KiB L2), and 128 x 128 ones at about 2x; on Zen 4 (1 MiB L2)
/// 128 x 128 had already halved the time of 64 x 64 (spec/performance.md
/// §15-16; issue 26: 64 x 64 tiles left a transposed view up to 6x the
/// contiguous op on a Xeon).
pub fn tile_edge(l2_bytes: usize, elem: usize) -> usize {
    let elems = l2_bytes / 8 / elem.max(1);
    let mut edge = 16;
    while (2 * edge) * (2 * edge) <= elems {
        edge *= 2;
    }
    edge
}

impl Tiling {
    /// The tiling for these operands, or None when a row-order walk reads every
    /// operand well (all inner strides are 0 or small).
    pub fn new(out_dims: &[usize], strides: &[&[isize]], sizes: &[usize]) -> Option<Tiling> {
        let (dims, st) = plan_dyn(out_dims, strides);
        let k = dims.len();
        if k < 2 {
            return None;
        }
        let i = k - 1;
        // The operand with the largest inner stride decides j: its smallest stride.
        let worst = (0..st.len())
            .filter(|&o| large_stride(st[o][i], sizes[o]))
            .max_by_key(|&o| st[o][i].unsigned_abs() * sizes[o])?;
        let j = (0..i)
            .filter(|&d| st[worst][d] != 0)
            .min_by_key(|&d| st[worst][d].unsigned_abs())?;
        if st[worst][j].unsigned_abs() >= st[worst][i].unsigned_abs() {
            return None;
        }
        let elem = sizes.iter().copied().max().unwrap_or(1);
        let edge = tile_edge(crate::machine::caches().l2, elem);
        let (tj, ti) = tile_shape(dims[j], dims[i], edge);
        let order: Vec<usize> = (0..k).rev().collect();
        let mut out_strides = vec![1usize; k];
        for d in (0..k - 1).rev() {
            out_strides[d] = out_strides[d + 1] * dims[d + 1];
        }
        let nbj = dims[j].div_ceil(tj);
        let nbi = dims[i].div_ceil(ti);
        let blocks = (0..k)
            .filter(|&d| d != i && d != j)
            .map(|d| dims[d])
            .product::<usize>()
            * nbj
            * nbi;
        Some(Tiling {
            dims,
            strides: st,
            sizes: sizes.to_vec(),
            out_strides,
            j,
            i,
            tj,
            ti,
            nbj,
            nbi,
            order,
            worst,
            blocks,
        })
    }

    /// Visits the blocks so that each continues the previous one's reads of the
    /// worst operand: the dimensions vary in the order of that operand's
    /// strides, smallest first (so `j` first), instead of in the output's
    /// row-major order (`i` first). Each column a block reads then goes on
    /// where the same column of the previous block stopped, so the hardware
    /// prefetcher follows the reads. The writes jump instead, which costs little
    /// when they are streaming stores (`stream`): those do not read the lines
    /// they write. With streaming stores, f32[64x64x64x64] transposed by
    /// {3,2,1,0} went from 19.4 to 13.0 ms on Zen 1, and the `Add` of two
    /// transposed f32[4096x4096] from 27 to 19 ms (spec/performance.md §6.4).
    pub fn visit_in_read_order(&mut self) {
        // An operand read in place along `i` (contiguous, say, beside a
        // transposed one) is read like the output is written: moving `i` from
        // first place would break its reads (`Add(Y, Transpose(Z))` went from
        // 22 to 34 ms). Then `i` stays first and only the rest is reordered.
        let i_first =
            (0..self.strides.len()).any(|o| !self.needs_buffer(o) && self.strides[o][self.i] != 0);
        let rest = if i_first { 1 } else { 0 };
        let st = &self.strides[self.worst];
        // A stable sort: dimensions the worst operand broadcasts (stride 0) come
        // first, in their row-major order.
        if let Some(dims) = self.order.get_mut(rest..) {
            dims.sort_by_key(|&d| st[d].unsigned_abs());
        }
    }

    /// Whether operand `o` is copied into a tile buffer (else read in place).
    pub fn needs_buffer(&self, o: usize) -> bool {
        large_stride(self.strides[o][self.i], self.sizes[o])
    }
    /// The most columns a block has (its rows' length in the output).
    pub fn max_cols(&self) -> usize {
        self.ti
    }
    pub fn tile_elems(&self) -> usize {
        self.tj * self.ti
    }
    /// Operand `o`'s stride (in elements) between rows of a block.
    pub fn row_stride(&self, o: usize) -> isize {
        self.strides[o][self.j]
    }
    /// Operand `o`'s stride (in elements) along a row of a block.
    pub fn col_stride(&self, o: usize) -> isize {
        self.strides[o][self.i]
    }
    /// The output's stride between rows of a block.
    pub fn out_row_stride(&self) -> usize {
        self.out_strides[self.j]
    }

    /// Block `b`: sets each operand's element offset of its first element in
    /// `offs`, and returns the output offset of that element, and the block's rows
    /// and columns.
    pub fn block(&self, b: usize, offs: &mut [isize]) -> (usize, usize, usize) {
        // Blocks go in `order` over the output's block grid (dimension j counted
        // in blocks of tj, i in blocks of ti, every other dimension in
        // elements). By default that is the grid's row-major order, so
        // consecutive blocks write neighbouring output and a task's blocks cover
        // one compact stretch of it; see `visit_in_read_order` for the other.
        let mut rest = b;
        let mut out_off = 0usize;
        offs.fill(0);
        let (mut rows, mut cols) = (1, 1);
        for &d in &self.order {
            let (count, step) = if d == self.i {
                (self.nbi, self.ti)
            } else if d == self.j {
                (self.nbj, self.tj)
            } else {
                (self.dims[d], 1)
            };
            let x0 = (rest % count) * step;
            rest /= count;
            out_off += x0 * self.out_strides[d];
            for (o, off) in offs.iter_mut().enumerate() {
                *off += x0 as isize * self.strides[o][d];
            }
            if d == self.i {
                cols = self.ti.min(self.dims[d] - x0);
            } else if d == self.j {
                rows = self.tj.min(self.dims[d] - x0);
            }
        }
        (out_off, rows, cols)
    }

    /// Runs `f(state, block)` on every block, in parallel tasks of about `TASK`
    /// elements, each with its own `state`; stops at an interrupt or an error.
    pub fn for_each_block<S>(
        &self,
        check: Check,
        init: impl Fn() -> S + Sync + Send,
        f: impl Fn(&mut S, usize) -> Result<(), KernelError> + Sync + Send,
    ) -> Result<(), KernelError> {
        let per_task = (TASK / self.tile_elems()).max(1);
        let tasks = self.blocks.div_ceil(per_task);
        (0..tasks)
            .into_par_iter()
            .try_for_each_init(init, |state, task| {
                check.now()?;
                for b in task * per_task..((task + 1) * per_task).min(self.blocks) {
                    f(state, b)?;
                }
                Ok(())
            })
    }
}

/// Tile rows (along j) and columns (along i) of about `edge` x `edge` elements,
/// never more than the dimensions; a short dimension lends its share to the other.
fn tile_shape(dj: usize, di: usize, edge: usize) -> (usize, usize) {
    let tile_elems = edge * edge;
    let (tj, ti) = if di < edge {
        (dj.min((tile_elems / di.max(1)).max(1)), di)
    } else if dj < edge {
        (dj, di.min((tile_elems / dj.max(1)).max(1)))
    } else {
        (edge, edge)
    };
    (tj.max(1), ti.max(1))
}
