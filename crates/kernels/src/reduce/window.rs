//! Windows (spec/ops/reduce_window.md): where each window position of each
//! output reads, and the native window reduction.
//!
//! In one dimension, with base dilation b, padding lo, stride s and window
//! dilation wd, output o's window position k lies at p = o*s + k*wd - lo of the
//! padded, dilated operand; it is operand element p/b when p >= 0, p % b == 0
//! and p/b < size, and a padding element (the init value) otherwise.

use super::native::{ElemRows, Scratch, fold_tile, tile_width};
use crate::strided::Check;
use rayon::prelude::*;
use xlet_core::error::KernelError;

/// A window over an operand of rank r (every list has r entries).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    pub in_dims: Vec<usize>,
    pub window: Vec<usize>,
    pub strides: Vec<usize>,
    pub base_dilations: Vec<usize>,
    pub window_dilations: Vec<usize>,
    /// (lo, hi) per dimension.
    pub padding: Vec<(usize, usize)>,
}

/// One dimension's output size (StableHLO's `num_windows`): 0 when the window
/// does not fit in the padded, dilated operand. None on arithmetic overflow.
pub fn out_size(
    size: usize,
    window: usize,
    stride: usize,
    base_dil: usize,
    win_dil: usize,
    (lo, hi): (usize, usize),
) -> Option<usize> {
    let dilated = if size == 0 {
        0
    } else {
        (size - 1).checked_mul(base_dil)?.checked_add(1)?
    };
    let padded = dilated.checked_add(lo)?.checked_add(hi)?;
    let dwin = (window.checked_sub(1)?)
        .checked_mul(win_dil)?
        .checked_add(1)?;
    if padded == 0 || dwin > padded || stride == 0 {
        return Some(0);
    }
    Some((padded - dwin) / stride + 1)
}

/// SAME padding for one dimension (XLA's `MakePadding`, on the dilated base and
/// window): the output has ceil(size / stride) elements and the padding needed
/// for that is split with the smaller half low.
pub fn same_padding(
    size: usize,
    window: usize,
    stride: usize,
    base_dil: usize,
    win_dil: usize,
) -> Option<(usize, usize)> {
    let dilated = if size == 0 {
        0
    } else {
        (size - 1).checked_mul(base_dil)?.checked_add(1)?
    };
    let dwin = (window.checked_sub(1)?)
        .checked_mul(win_dil)?
        .checked_add(1)?;
    let out = dilated.div_ceil(stride.max(1));
    let needed = (out.saturating_sub(1))
        .checked_mul(stride)?
        .checked_add(dwin)?
        .saturating_sub(dilated);
    Some((needed / 2, needed - needed / 2))
}

impl Geometry {
    /// The same window over a rank-1 operand of one element when the operand is a
    /// scalar (one window position, reading that element), so that kernels
    /// always have a last dimension.
    pub fn at_least_rank1(&self) -> Geometry {
        if !self.in_dims.is_empty() {
            return self.clone();
        }
        Geometry {
            in_dims: vec![1],
            window: vec![1],
            strides: vec![1],
            base_dilations: vec![1],
            window_dilations: vec![1],
            padding: vec![(0, 0)],
        }
    }

    pub fn out_dims(&self) -> Option<Vec<usize>> {
        (0..self.in_dims.len())
            .map(|d| {
                out_size(
                    self.in_dims[d],
                    self.window[d],
                    self.strides[d],
                    self.base_dilations[d],
                    self.window_dilations[d],
                    self.padding[d],
                )
            })
            .collect()
    }

    /// Window positions per output (the product of the window dimensions).
    pub fn positions(&self) -> usize {
        self.window.iter().product()
    }

    /// `positions`, or None if it overflows (the checker rejects such windows).
    pub fn positions_checked(&self) -> Option<usize> {
        self.window
            .iter()
            .try_fold(1usize, |a, &w| a.checked_mul(w))
    }

    /// The operand index that window position `k` of dimension `d` reads for
    /// output index `o`, or None for a padding element.
    #[inline(always)]
    /// The arithmetic is exact (i128): strides, dilations and padding are any
    /// sizes the user wrote, and `o * stride` or `lo` need not fit in i64.
    pub fn source(&self, d: usize, o: usize, k: usize) -> Option<usize> {
        let p = o as i128 * self.strides[d] as i128 + k as i128 * self.window_dilations[d] as i128
            - self.padding[d].0 as i128;
        let b = self.base_dilations[d] as i128;
        if p < 0 || b <= 0 || p % b != 0 {
            return None;
        }
        let i = p / b;
        (i < self.in_dims[d] as i128).then_some(i as usize)
    }

    /// Splits a window position number (row-major over the window) into indices.
    pub fn window_index(&self, mut k: usize, idx: &mut [usize]) {
        for d in (0..self.window.len()).rev() {
            idx[d] = k % self.window[d];
            k /= self.window[d];
        }
    }

    /// The flat operand offset (row-major) of window position `k` of the output
    /// at multi-index `out_idx`, or None for padding.
    pub fn source_offset(
        &self,
        out_idx: &[usize],
        k: usize,
        scratch: &mut [usize],
    ) -> Option<usize> {
        self.window_index(k, scratch);
        let mut off = 0;
        for d in 0..self.in_dims.len() {
            let i = self.source(d, out_idx[d], scratch[d])?;
            off = off * self.in_dims[d] + i;
        }
        Some(off)
    }
}

/// Element rows of a window reduction for one output row (every output index
/// fixed but the last): element k of output c is the operand at window position
/// k of output (outer..., c), or the init value.
pub struct WindowRows<'a, T> {
    pub g: &'a Geometry,
    pub x: &'a [T],
    pub init: T,
    /// The output's index in every dimension but the last.
    pub outer: &'a [usize],
}

impl Geometry {
    /// The window indices of dimension `d` that read an operand element (not
    /// padding) for some output index in `olo..=ohi`: a range that may also
    /// hold padding positions, never misses an element. Empty when none do.
    pub fn live_window(&self, d: usize, olo: usize, ohi: usize) -> std::ops::Range<usize> {
        let (s, wd, b) = (
            self.strides[d] as i128,
            self.window_dilations[d] as i128,
            self.base_dilations[d] as i128,
        );
        let (lo, size, win) = (
            self.padding[d].0 as i128,
            self.in_dims[d] as i128,
            self.window[d] as i128,
        );
        if size == 0 || win == 0 {
            return 0..0;
        }
        // Element i sits at p = o*s + k*wd - lo = i*b, 0 <= i < size.
        // Smallest k: for the largest o; largest k: for the smallest o.
        let first = (lo - ohi as i128 * s).max(0);
        let k_lo = (first + wd - 1) / wd;
        let last = lo - olo as i128 * s + (size - 1) * b;
        if last < 0 {
            return 0..0;
        }
        let k_hi = (last / wd).min(win - 1);
        if k_lo > k_hi {
            return 0..0;
        }
        k_lo as usize..k_hi as usize + 1
    }
}

impl<T: Copy + Sync> ElemRows<T> for WindowRows<'_, T> {
    fn live(&self, c0: usize, w: usize) -> Option<(std::ops::Range<usize>, T)> {
        let g = self.g;
        let r = g.in_dims.len();
        if r == 0 || w == 0 {
            return None;
        }
        // Row-major over the window: the first and last live multi-index.
        let (mut first, mut last) = (0usize, 0usize);
        for d in 0..r {
            let (olo, ohi) = if d + 1 == r {
                (c0, c0 + w - 1)
            } else {
                (self.outer[d], self.outer[d])
            };
            let k = g.live_window(d, olo, ohi);
            if k.is_empty() {
                return Some((0..0, self.init));
            }
            first = first * g.window[d] + k.start;
            last = last * g.window[d] + (k.end - 1);
        }
        Some((first..last + 1, self.init))
    }

    fn load(&self, k: usize, c0: usize, dst: &mut [T]) {
        let g = self.g;
        let r = g.in_dims.len();
        let last = r - 1;
        // Window index of k, and the operand offset of the outer dimensions.
        let mut rest = k;
        let mut kidx = [0usize; 8];
        let mut big;
        let kidx: &mut [usize] = if r <= 8 {
            &mut kidx[..r]
        } else {
            big = vec![0; r];
            &mut big[..]
        };
        for d in (0..r).rev() {
            kidx[d] = rest % g.window[d];
            rest /= g.window[d];
        }
        let mut base = 0usize;
        for d in 0..last {
            match g.source(d, self.outer[d], kidx[d]) {
                Some(i) => base = base * g.in_dims[d] + i,
                None => {
                    dst.fill(self.init);
                    return;
                }
            }
        }
        base *= g.in_dims[last];
        let (s, wd, b, lo, size) = (
            g.strides[last],
            g.window_dilations[last],
            g.base_dilations[last],
            g.padding[last].0,
            g.in_dims[last],
        );
        let kw = kidx[last] * wd;
        if b == 1 {
            // Positions p = c*s + kw - lo; valid for lo - kw <= c*s < lo - kw + size.
            let first = lo.saturating_sub(kw).div_ceil(s);
            let end = (lo + size).saturating_sub(kw).div_ceil(s);
            let w = dst.len();
            let a = first.saturating_sub(c0).min(w);
            let z = end.saturating_sub(c0).clamp(a, w);
            dst[..a].fill(self.init);
            dst[z..].fill(self.init);
            if a == z {
                return;
            }
            let start = base + (c0 + a) * s + kw - lo;
            if s == 1 {
                dst[a..z].copy_from_slice(&self.x[start..start + (z - a)]);
            } else {
                for (j, v) in dst[a..z].iter_mut().enumerate() {
                    *v = self.x[start + j * s];
                }
            }
        } else {
            for (j, v) in dst.iter_mut().enumerate() {
                *v = match g.source(last, c0 + j, kidx[last]) {
                    Some(i) => self.x[base + i],
                    None => self.init,
                };
            }
        }
    }
}

/// The native window reduction of a row-major operand `x` with element function
/// `f`: output rows (the last dimension) in parallel, and a wide row in tiles of
/// `tile_width` outputs, so the lane scratch is a few KiB whatever the row's length
/// (16 lane rows of a whole 10^8-element row would be 64 bytes per element).
pub fn reduce_window<T: Copy + Send + Sync, F: Fn(T, T) -> T + Sync>(
    g: &Geometry,
    x: &[T],
    init: T,
    f: &F,
    out: &mut [T],
) -> Result<(), KernelError> {
    let Some(out_dims) = g.out_dims() else {
        return Err(xlet_core::error::internal("window size overflow"));
    };
    if let Some(r) = super::window_small::try_reduce_window(g, &out_dims, x, init, f, out) {
        return r;
    }
    reduce_window_general(g, x, init, f, out)
}

/// `reduce_window` by the tile kernel for every window (the reference the small
/// window path is tested against).
pub fn reduce_window_general<T: Copy + Send + Sync, F: Fn(T, T) -> T + Sync>(
    g: &Geometry,
    x: &[T],
    init: T,
    f: &F,
    out: &mut [T],
) -> Result<(), KernelError> {
    let Some(out_dims) = g.out_dims() else {
        return Err(xlet_core::error::internal("window size overflow"));
    };
    let n = g.positions();
    let ow = out_dims.last().copied().unwrap_or(1);
    if out.is_empty() || ow == 0 {
        return Ok(());
    }
    let nblocks = n.div_ceil(super::order::BLOCK);
    let outer_dims = &out_dims[..out_dims.len().saturating_sub(1)];
    let w = tile_width::<T>(ow);
    // One tile of outputs of row `r` starting at column `c0`.
    let tile = |sc: &mut Scratch<T>, outer: &mut [usize], r: usize, c0: usize, o: &mut [T]| {
        let mut q = r;
        for d in (0..outer_dims.len()).rev() {
            outer[d] = q % outer_dims[d];
            q /= outer_dims[d];
        }
        let rows = WindowRows { g, x, init, outer };
        if fold_tile(&rows, n, (0, nblocks), c0, o, sc, f)? {
            o.iter_mut().for_each(|v| *v = f(init, *v));
        } else {
            o.fill(init);
        }
        Ok::<(), KernelError>(())
    };
    if ow <= w {
        // Narrow rows: several whole rows per task.
        let rows_per_task = (16384 / (ow * n.max(1))).max(1);
        return out
            .par_chunks_mut(ow * rows_per_task)
            .enumerate()
            .try_for_each_init(
                || (Scratch::new(ow, init), vec![0usize; outer_dims.len()]),
                |(sc, outer), (task, chunk)| {
                    Check::Interrupts.now()?;
                    for (i, row) in chunk.chunks_mut(ow).enumerate() {
                        tile(sc, outer.as_mut_slice(), task * rows_per_task + i, 0, row)?;
                    }
                    Ok(())
                },
            );
    }
    // Wide rows: each row's tiles in parallel.
    out.par_chunks_mut(ow).enumerate().try_for_each(|(r, row)| {
        row.par_chunks_mut(w).enumerate().try_for_each_init(
            || (Scratch::new(w, init), vec![0usize; outer_dims.len()]),
            |(sc, outer), (t, o)| {
                Check::Interrupts.now()?;
                tile(sc, outer.as_mut_slice(), r, t * w, o)
            },
        )
    })
}
