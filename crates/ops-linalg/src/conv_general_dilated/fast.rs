//! The fast convolution: per (result batch, group), the lhs image is padded
//! and dilated once into a buffer, its windows are unrolled into columns
//! (im2col, a tile of output positions at a time), and one matrix product
//! with the group's kernel rows gives that tile of the result:
//!
//! ```text
//! result[b, g·Og .. (g+1)·Og, tile]  =  W_g (Og × K)  ·  col (K × tile)
//! K = input features per group × window size
//! ```
//!
//! A 1x1 window with stride 1 and no padding or dilation needs no unrolling:
//! the image itself, read through its strides, is the column matrix.
//! Why this method: spec/performance.md §"Convolution".

use super::geometry::{Geometry, next_index};
use ndarray::ArrayViewD;
use rayon::prelude::*;
use xlet_core::alloc;
use xlet_ir::KernelError;
use xlet_kernels::matmul::{DotElem, Mat, matmul};
use xlet_kernels::strided::Check;

/// The most elements of one column tile (1 MiB of f32): the product then
/// packs its operand from the L2 cache rather than from memory (measured:
/// tiles of ~450 columns beat whole-image columns by ~12% on the issue's
/// 3x3 case). Fixed, so that results never depend on the machine or the
/// thread count.
const COL_ELEMS: usize = 1 << 18;

/// Whether the padded buffer is worth making: not when huge dilations or
/// strides would make it far larger than what the convolution reads and
/// writes (then the reference loop, which needs no temporaries, runs).
pub fn suitable(g: &Geometry) -> bool {
    let (Some(pbuf), Some(p)) = (
        padded_elems(g),
        g.out_spatial
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d)),
    ) else {
        return false;
    };
    let image: usize = g.in_spatial.iter().product();
    let budget = 4usize
        .saturating_mul(
            g.kernel_in_features
                .saturating_mul(image)
                .saturating_add(g.out_per_group().saturating_mul(p)),
        )
        .max(1 << 20);
    pbuf <= budget
}

/// Per spatial dimension: the padded, dilated extent (≥ 0 once checked).
fn padded_extents(g: &Geometry) -> Vec<usize> {
    (0..g.spatial_rank())
        .map(|d| {
            let dil =
                super::geometry::dilated(g.in_spatial[d], g.lhs_dilation[d]).unwrap_or(0) as i128;
            // Exact in i128; the checker proved the sum fits in i64.
            let e = dil + g.padding[d].0 as i128 + g.padding[d].1 as i128;
            usize::try_from(e.max(0)).unwrap_or(usize::MAX)
        })
        .collect()
}

fn padded_elems(g: &Geometry) -> Option<usize> {
    padded_extents(g)
        .iter()
        .try_fold(g.kernel_in_features, |a, &d| a.checked_mul(d))
}

/// Row-major strides of `dims`.
fn strides_of(dims: &[usize]) -> Vec<usize> {
    let mut s = vec![1; dims.len()];
    for d in (0..dims.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * dims[d + 1];
    }
    s
}

/// The shared, read-only parts of one convolution.
struct Plan<'a, A> {
    g: &'a Geometry,
    lhs: &'a ArrayViewD<'a, A>,
    /// Kernel rows, row-major [O, K].
    w: &'a [A],
    k: usize,
    p: usize,
    og: usize,
    tile: usize,
    extents: Vec<usize>,
    pstrides: Vec<usize>,
    /// Unit-stride 1x1 case: the image's spatial dimensions as one stride.
    direct: Option<isize>,
}

/// The canonical result [out batch, out features, spatial...], row-major.
/// `lhs` is [batch, feature, spatial...], `rhs` [out feature, in feature,
/// spatial...], any strides.
pub fn conv<A: DotElem>(
    g: &Geometry,
    lhs: &ArrayViewD<A>,
    rhs: &ArrayViewD<A>,
) -> Result<Vec<A>, KernelError> {
    conv_tiled(g, lhs, rhs, COL_ELEMS)
}

/// `conv` with the column-tile bound given (tests make it small to exercise tiling).
pub(super) fn conv_tiled<A: DotElem>(
    g: &Geometry,
    lhs: &ArrayViewD<A>,
    rhs: &ArrayViewD<A>,
    col_elems: usize,
) -> Result<Vec<A>, KernelError> {
    let p: usize = g.out_spatial.iter().product();
    let rows = g.out_batch() * g.out_features;
    let total = rows * p;
    let mut out: Vec<A> = alloc::try_output_vec(total, &"the convolution's result")?;
    out.resize(total, A::ZERO);
    if total == 0 {
        return Ok(out);
    }
    // The kernel as row-major [O, K]: a copy (admitted) unless it already is.
    let w_owned;
    let w: &[A] = match rhs.as_slice() {
        Some(s) => s,
        None => {
            alloc::admit(
                rhs.len().saturating_mul(std::mem::size_of::<A>()),
                &"the convolution kernel in [O, I, spatial] order",
            )?;
            w_owned = rhs.iter().copied().collect::<Vec<A>>();
            &w_owned
        }
    };
    let k = g.reduction_size();
    let og = g.out_per_group();
    // Tiles of a multiple of 16 columns: the product's f32 microkernel takes 16
    // rows of the (transposed) problem at a time, so no tile has a ragged edge.
    let tile = if k.saturating_mul(p) <= col_elems {
        p
    } else {
        let t = col_elems / k.max(1);
        if t >= 16 { t / 16 * 16 } else { t.max(1) }
    };
    let extents = padded_extents(g);
    let plan = Plan {
        g,
        lhs,
        w,
        k,
        p,
        og,
        tile,
        pstrides: strides_of(&extents),
        extents,
        direct: direct_stride(g, lhs),
    };
    let tasks = g.out_batch() * g.groups();
    let threads = rayon::current_num_threads();
    let chunks = out.chunks_mut(og * p);
    if tasks >= threads && threads > 1 {
        chunks
            .collect::<Vec<_>>()
            .into_par_iter()
            .enumerate()
            .try_for_each(|(t, o)| plan.task(t, o, false))?;
    } else {
        for (t, o) in chunks.enumerate() {
            plan.task(t, o, true)?;
        }
    }
    Ok(out)
}

/// For a 1x1 window at stride 1 with no padding or dilation, the stride that
/// walks the image's spatial positions in row-major order, if one does (the
/// spatial dimensions are laid out as one run, as in NCHW or NHWC).
fn direct_stride<A>(g: &Geometry, lhs: &ArrayViewD<A>) -> Option<isize> {
    let n = g.spatial_rank();
    let plain = g.kernel_spatial.iter().all(|&k| k == 1)
        && g.strides.iter().all(|&s| s == 1)
        && g.lhs_dilation.iter().all(|&d| d == 1)
        && g.padding.iter().all(|&p| p == (0, 0));
    if !plain {
        return None;
    }
    let dims = &lhs.shape()[2..];
    let st = &lhs.strides()[2..];
    // Walk from the last dimension, skipping size-1 dimensions (any stride).
    let mut stride: Option<isize> = None;
    let mut span: isize = 1;
    for d in (0..n).rev() {
        if dims[d] == 1 {
            continue;
        }
        match stride {
            None => {
                stride = Some(st[d]);
                span = st[d] * dims[d] as isize;
            }
            Some(_) => {
                if st[d] != span {
                    return None;
                }
                span = st[d] * dims[d] as isize;
            }
        }
    }
    Some(stride.unwrap_or(1))
}

impl<A: DotElem> Plan<'_, A> {
    /// Result batch b, group g (task t = b·groups + g): rows [g·Og, (g+1)·Og) of image b.
    fn task(&self, t: usize, out: &mut [A], parallel: bool) -> Result<(), KernelError> {
        let g = self.g;
        let groups = g.groups();
        let (b, grp) = (t / groups, t % groups);
        let (src_b, c0) = g.source(b, grp * self.og);
        let ls = self.lhs.strides();
        let w = Mat {
            ptr: self.w[grp * self.og * self.k..].as_ptr(),
            rows: self.og,
            cols: self.k,
            rs: self.k as isize,
            cs: 1,
        };
        // SAFETY: the offset stays in bounds: src_b and c0 are inside the lhs's batch and feature sizes.
        let base = unsafe {
            self.lhs
                .as_ptr()
                .offset(src_b as isize * ls[0] + c0 as isize * ls[1])
        };
        if let Some(cs) = self.direct {
            Check::Interrupts.now()?;
            let col = Mat {
                ptr: base,
                rows: self.k,
                cols: self.p,
                rs: ls[1],
                cs,
            };
            return matmul(out, w, col, parallel);
        }
        let pbuf = self.pad_image(base)?;
        let mut col: Vec<A> = alloc::try_output_vec(self.k * self.tile, &"an im2col tile")?;
        let mut tmp: Vec<A> = vec![];
        if self.tile < self.p {
            tmp = alloc::try_output_vec(self.og * self.tile, &"a convolution result tile")?;
            tmp.resize(self.og * self.tile, A::ZERO);
        }
        let mut p0 = 0;
        while p0 < self.p {
            Check::Interrupts.now()?;
            let n = self.tile.min(self.p - p0);
            self.unroll(&pbuf, p0, n, &mut col);
            let colm = Mat {
                ptr: col.as_ptr(),
                rows: self.k,
                cols: n,
                rs: n as isize,
                cs: 1,
            };
            if n == self.p {
                matmul(out, w, colm, parallel)?;
            } else {
                let t = &mut tmp[..self.og * n];
                matmul(t, w, colm, parallel)?;
                for r in 0..self.og {
                    out[r * self.p + p0..][..n].copy_from_slice(&t[r * n..][..n]);
                }
            }
            p0 += n;
        }
        Ok(())
    }

    /// The group's input features of one image, dilated and padded: a
    /// row-major [Cg, padded extents...] buffer of zeros with the image's
    /// elements at position x·lhs_dilation + low padding (negative padding
    /// drops the elements that fall before 0 or past the end).
    fn pad_image(&self, base: *const A) -> Result<Vec<A>, KernelError> {
        let g = self.g;
        let n = g.spatial_rank();
        let per_c: usize = self.extents.iter().product();
        let total = g.kernel_in_features * per_c;
        let mut buf: Vec<A> = alloc::try_output_vec(total, &"the padded convolution input")?;
        buf.resize(total, A::ZERO);
        if per_c == 0 {
            return Ok(buf);
        }
        let ls = self.lhs.strides();
        let in_dims = &g.in_spatial;
        if in_dims.contains(&0) {
            return Ok(buf);
        }
        // Destination of input index x in dimension d, if inside the buffer.
        let dest = |d: usize, x: usize| -> Option<usize> {
            // Exact in i128: `lo` may be anywhere in i64.
            let q = x as i128 * g.lhs_dilation[d] as i128 + g.padding[d].0 as i128;
            (q >= 0 && q < self.extents[d] as i128).then_some(q as usize)
        };
        let last = n.saturating_sub(1);
        let outer_dims: Vec<usize> = if n == 0 {
            vec![]
        } else {
            in_dims[..last].to_vec()
        };
        let (last_len, ld, lstride) = if n == 0 {
            (1, 1, 0)
        } else {
            (in_dims[last], g.lhs_dilation[last], ls[2 + last])
        };
        // The input's last-dimension range that lands inside the buffer.
        let xs: Vec<(usize, usize)> = (0..last_len)
            .filter_map(|x| {
                if n == 0 {
                    Some((0, 0))
                } else {
                    dest(last, x).map(|q| (x, q))
                }
            })
            .collect();
        for c in 0..g.kernel_in_features {
            let mut idx = vec![0usize; outer_dims.len()];
            loop {
                let mut src = c as isize * ls[1];
                let mut dst = Some(c * per_c);
                for (d, &i) in idx.iter().enumerate() {
                    src += i as isize * ls[2 + d];
                    dst = dst.and_then(|o| dest(d, i).map(|q| o + q * self.pstrides[d]));
                }
                if let Some(dst) = dst {
                    let row = &mut buf[dst..];
                    if ld == 1 && lstride == 1 && n > 0 && !xs.is_empty() {
                        let (x0, q0) = xs[0];
                        let len = xs.len();
                        // SAFETY: x0 + len ≤ the last dimension's size; src addresses this row.
                        let s = unsafe {
                            std::slice::from_raw_parts(base.offset(src + x0 as isize), len)
                        };
                        row[q0..q0 + len].copy_from_slice(s);
                    } else {
                        for &(x, q) in &xs {
                            // SAFETY: x < the last dimension's size, the other indices are in range.
                            row[q] = unsafe { *base.offset(src + x as isize * lstride) };
                        }
                    }
                }
                if !next_index(&mut idx, &outer_dims) {
                    break;
                }
            }
        }
        Ok(buf)
    }

    /// Columns p0 .. p0 + n of the unrolled windows: row (c, window position)
    /// holds, for each output position, the padded input element it multiplies.
    fn unroll(&self, pbuf: &[A], p0: usize, n: usize, col: &mut Vec<A>) {
        // Filled by appending, row after row (no zero fill first); the
        // capacity was admitted for a whole tile.
        col.clear();
        let g = self.g;
        let sr = g.spatial_rank();
        let (out_last, s_last) = if sr == 0 {
            (1, 1)
        } else {
            (g.out_spatial[sr - 1], g.strides[sr - 1])
        };
        // Runs of output positions along the last dimension, in column order: (buffer offset, length).
        let mut segs: Vec<(usize, usize)> = vec![];
        let mut o = vec![0usize; sr];
        let mut q = p0;
        for d in (0..sr).rev() {
            o[d] = q % g.out_spatial[d];
            q /= g.out_spatial[d];
        }
        let mut j = 0;
        while j < n {
            let ol = if sr == 0 { 0 } else { o[sr - 1] };
            let len = (out_last - ol).min(n - j);
            let off: usize = (0..sr)
                .map(|d| o[d] * g.strides[d] * self.pstrides[d])
                .sum();
            segs.push((off, len));
            j += len;
            if sr > 0 {
                o[sr - 1] += len - 1;
                next_index(&mut o, &g.out_spatial);
            }
        }
        let per_c: usize = self.extents.iter().product();
        let mut kidx = vec![0usize; sr];
        for c in 0..g.kernel_in_features {
            loop {
                let rbase = c * per_c
                    + (0..sr)
                        .map(|d| kidx[d] * g.rhs_dilation[d] * self.pstrides[d])
                        .sum::<usize>();
                for &(off, len) in &segs {
                    let src = &pbuf[rbase + off..];
                    if s_last == 1 {
                        col.extend_from_slice(&src[..len]);
                    } else {
                        col.extend(src.iter().step_by(s_last).take(len));
                    }
                }
                if !next_index(&mut kidx, &g.kernel_spatial) {
                    break;
                }
            }
        }
    }
}
