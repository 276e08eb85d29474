//! Running a per-run kernel over the whole output: row-major in parallel
//! chunks, or in tiles when an operand is read across its rows.

use super::plan::{plan, walk_runs};
use super::stream;
use super::tiling::Tiling;
use super::transpose::gather_tile;
use super::{Check, GRAIN, OutPtr, TASK};
use ndarray::{ArrayD, IxDyn};
use rayon::prelude::*;
use std::mem::MaybeUninit;
use xlet_core::error::KernelError;

/// The per-run function of `drive`: fills `out` from operand pointers (at the run's
/// first element, as bytes) stepping by element strides.
pub(super) trait RunFn<O, const N: usize>:
    Fn(&mut [MaybeUninit<O>], [*const u8; N], [isize; N]) + Sync
{
}
impl<O, const N: usize, F: Fn(&mut [MaybeUninit<O>], [*const u8; N], [isize; N]) + Sync> RunFn<O, N>
    for F
{
}

/// Fills `n` output elements by calling `run(out_slice, pointers, inner_strides)` on
/// each inner run, serially or with rayon, and returns them as an array of `out_dims`.
///
/// When an operand's innermost stride is large (a transposed view), walking the
/// output in row order would read a new cache line per element; then the output is
/// walked in tiles instead (`Tiling`), and such operands are first copied tile by
/// tile into a small buffer, read along their own contiguous dimension.
pub(super) fn drive<O: Send, const N: usize>(
    out_dims: &[usize],
    ops: [(*const u8, usize, &[isize]); N],
    check: Check,
    run: impl RunFn<O, N>,
) -> Result<ArrayD<O>, KernelError> {
    let n: usize = out_dims.iter().product();
    let mut out: Vec<O> = xlet_core::alloc::try_output_vec(n, &"the result")?;
    if n > 0 {
        let strides: [&[isize]; N] = std::array::from_fn(|o| ops[o].2);
        let sizes: [usize; N] = std::array::from_fn(|o| ops[o].1);
        let ptrs: [*const u8; N] = std::array::from_fn(|o| ops[o].0);
        let buf = &mut out.spare_capacity_mut()[..n];
        match Tiling::new(out_dims, &strides, &sizes) {
            Some(mut t) if n >= GRAIN => {
                let streamed = stream::worth_it(
                    n * std::mem::size_of::<O>(),
                    t.max_cols() * std::mem::size_of::<O>(),
                );
                if streamed {
                    t.visit_in_read_order();
                }
                let out = OutPtr(buf.as_mut_ptr());
                run_tiled(&t, ptrs, sizes, out, streamed, check, &run)?
            }
            _ => run_flat(out_dims, strides, ptrs, sizes, buf, check, &run)?,
        }
        // SAFETY: every one of the n elements was written exactly once (an
        // interrupted run returned above, leaving the length 0).
        unsafe { out.set_len(n) };
    }
    // The element count matches the shape by construction.
    Ok(ArrayD::from_shape_vec(IxDyn(out_dims), out).unwrap_or_else(|_| unreachable!()))
}

/// The output in row-major order, inner run by inner run, in parallel tasks.
fn run_flat<O: Send, const N: usize>(
    out_dims: &[usize],
    strides: [&[isize]; N],
    ptrs: [*const u8; N],
    sizes: [usize; N],
    buf: &mut [MaybeUninit<O>],
    check: Check,
    run: &impl RunFn<O, N>,
) -> Result<(), KernelError> {
    let plan = plan(out_dims, strides);
    let ptrs = SyncPtrs(ptrs);
    let fill = |start: usize, chunk: &mut [MaybeUninit<O>]| {
        let ptrs = &ptrs;
        walk_runs(&plan, start, chunk, &|out, offs: [isize; N], inner| {
            let p: [*const u8; N] =
                std::array::from_fn(|o| ptrs.0[o].wrapping_offset(offs[o] * sizes[o] as isize));
            run(out, p, inner)
        })
    };
    if buf.len() < GRAIN {
        fill(0, buf);
        return Ok(());
    }
    let threads = rayon::current_num_threads().max(1);
    let chunk = (buf.len() / (threads * 8)).clamp(GRAIN / 2, TASK);
    buf.par_chunks_mut(chunk)
        .enumerate()
        .try_for_each(|(i, c)| {
            check.now()?;
            fill(i * chunk, c);
            Ok(())
        })
}

#[derive(Clone, Copy)]
struct SyncPtrs<const N: usize>([*const u8; N]);
// SAFETY: operand pointers are only read (the views' element types are
// `Sync`, see `Src`), and the borrow in the caller keeps them alive.
unsafe impl<const N: usize> Send for SyncPtrs<N> {}
// SAFETY: as for `Send`: shared between tasks only to read.
unsafe impl<const N: usize> Sync for SyncPtrs<N> {}

/// The output in tiles (see `Tiling`): operands whose inner stride is large are
/// copied into a tile buffer first, the others are read in place. When
/// `streamed`, each output row is made in a row buffer and written with
/// streaming stores (`stream`).
fn run_tiled<O: Send, const N: usize>(
    t: &Tiling,
    ptrs: [*const u8; N],
    sizes: [usize; N],
    out: OutPtr<MaybeUninit<O>>,
    streamed: bool,
    check: Check,
    run: &impl RunFn<O, N>,
) -> Result<(), KernelError> {
    let ptrs = SyncPtrs(ptrs);
    let buffered: [bool; N] = std::array::from_fn(|o| t.needs_buffer(o));
    t.for_each_block(
        check,
        || -> ([Vec<u64>; N], Vec<u64>) {
            // u64 storage keeps the buffers aligned for any element type.
            let bufs = std::array::from_fn(|o| {
                let words = if buffered[o] {
                    (t.tile_elems() * sizes[o]).div_ceil(8)
                } else {
                    0
                };
                vec![0u64; words]
            });
            let row_words = if streamed {
                (t.ti * std::mem::size_of::<O>()).div_ceil(8)
            } else {
                0
            };
            (bufs, vec![0u64; row_words])
        },
        |(bufs, row_buf), b| {
            let ptrs = &ptrs;
            let out = out;
            let mut offs = [0isize; N];
            let (out_off, rows, cols) = t.block(b, &mut offs);
            let mut base = [std::ptr::null::<u8>(); N];
            for o in 0..N {
                base[o] = ptrs.0[o].wrapping_offset(offs[o] * sizes[o] as isize);
                if buffered[o] {
                    // SAFETY: the block lies inside the operand (the checker proved
                    // the shapes), and the buffer holds tile_elems elements.
                    unsafe {
                        gather_tile(
                            base[o],
                            sizes[o],
                            t.row_stride(o),
                            t.col_stride(o),
                            rows,
                            cols,
                            bufs[o].as_mut_ptr() as *mut u8,
                        )
                    };
                }
            }
            for r in 0..rows {
                let p: [*const u8; N] = std::array::from_fn(|o| {
                    if buffered[o] {
                        (bufs[o].as_ptr() as *const u8).wrapping_add(r * cols * sizes[o])
                    } else {
                        base[o].wrapping_offset(r as isize * t.row_stride(o) * sizes[o] as isize)
                    }
                });
                let s: [isize; N] =
                    std::array::from_fn(|o| if buffered[o] { 1 } else { t.col_stride(o) });
                // SAFETY: output row r of the block is `cols` elements at this offset,
                // written by this block only.
                let dst = unsafe { out.0.add(out_off + r * t.out_row_stride()) };
                if streamed {
                    // SAFETY: the row buffer holds ti >= cols elements of O.
                    let row = unsafe {
                        std::slice::from_raw_parts_mut(
                            row_buf.as_mut_ptr() as *mut MaybeUninit<O>,
                            cols,
                        )
                    };
                    run(row, p, s);
                    let bytes = cols * std::mem::size_of::<O>();
                    // SAFETY: as above; the row buffer was written by `run`.
                    unsafe { stream::copy(dst as *mut u8, row.as_ptr() as *const u8, bytes) };
                } else {
                    // SAFETY: as above: `dst` starts this block's row of `cols` elements, written only here.
                    run(unsafe { std::slice::from_raw_parts_mut(dst, cols) }, p, s);
                }
            }
            if streamed {
                stream::fence();
            }
            Ok(())
        },
    )
}
