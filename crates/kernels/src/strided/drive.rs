//! Running a per-run kernel over the whole output: row-major in parallel
//! chunks, or in tiles when an operand is read across its rows.
//!
//! The work is split in two halves so that only a small part is compiled once
//! per kernel. The typed half (`Typed`, behind the `Fill` trait) walks one
//! chunk's inner runs or one tile's rows and calls the kernel's per-run
//! function, statically, so the element loop stays monomorphic. The untyped
//! half (`drive_untyped` and below) plans, tiles, allocates tile buffers and
//! hands tasks to rayon; it sees the output as bytes and the kernel as one
//! `&dyn Fill<N>`, called once per chunk or tile block (thousands of elements),
//! and so is compiled once per operand count. Before this split, rayon's task
//! machinery was instantiated for each of the ~900 kernels and made up over
//! half of the code the ops crate compiled (spec/build.md).

use super::plan::{Plan, plan, walk_runs};
use super::stream;
use super::tiling::Tiling;
use super::transpose::gather_tile;
use super::{Check, GRAIN, OutPtr, TASK};
use ndarray::{ArrayD, IxDyn};
use rayon::prelude::*;
use std::marker::PhantomData;
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
        let typed = Typed {
            run,
            _out: PhantomData,
        };
        let dst = OutPtr(out.spare_capacity_mut().as_mut_ptr() as *mut u8);
        drive_untyped(
            out_dims,
            ops,
            check,
            std::mem::size_of::<O>(),
            dst,
            n,
            &typed,
        )?;
        // SAFETY: every one of the n elements was written exactly once (an
        // interrupted run returned above, leaving the length 0).
        unsafe { out.set_len(n) };
    }
    // The element count matches the shape by construction.
    Ok(ArrayD::from_shape_vec(IxDyn(out_dims), out).unwrap_or_else(|_| unreachable!()))
}

/// One tile block's rows, as the untyped half lays them out for the typed half.
struct Rows<const N: usize> {
    rows: usize,
    cols: usize,
    /// Output row 0 of the block, and the step between rows, in bytes.
    dst: *mut u8,
    dst_step: usize,
    /// Each operand's pointer at row 0 and its step between rows, in bytes.
    first: [*const u8; N],
    row_step: [isize; N],
    /// Each operand's element stride along a row.
    col_stride: [isize; N],
    /// When not null, a buffer of at least `cols` output elements: each row is
    /// made there and written out with streaming stores (`stream`).
    row_buf: *mut u8,
}

/// A kernel with its element type hidden: what the untyped half calls.
trait Fill<const N: usize>: Sync {
    /// Writes output elements `start..start + len` (row-major over `plan`) at `dst`.
    ///
    /// # Safety
    /// `dst` holds `len` output elements written by no one else meanwhile; the
    /// operand pointers and `sizes` are those `drive` was given, and every
    /// element the plan reaches from them lies inside its operand.
    unsafe fn flat(
        &self,
        plan: &Plan<N>,
        ptrs: [*const u8; N],
        sizes: [usize; N],
        start: usize,
        dst: *mut u8,
        len: usize,
    );

    /// Writes a tile block's rows.
    ///
    /// # Safety
    /// Each of `rows` output rows of `cols` elements at `dst + r * dst_step` is
    /// written by no one else meanwhile; each operand's `cols` elements from
    /// `first + r * row_step` by `col_stride` are readable; `row_buf`, when not
    /// null, holds `cols` output elements.
    unsafe fn rows(&self, r: &Rows<N>);
}

struct Typed<O, F> {
    run: F,
    // `fn() -> O` keeps `Typed` Sync whatever `O` is: no `O` is stored here.
    _out: PhantomData<fn() -> O>,
}

impl<O: Send, const N: usize, F: RunFn<O, N>> Fill<N> for Typed<O, F> {
    unsafe fn flat(
        &self,
        plan: &Plan<N>,
        ptrs: [*const u8; N],
        sizes: [usize; N],
        start: usize,
        dst: *mut u8,
        len: usize,
    ) {
        // SAFETY: the caller's contract: `dst` holds `len` elements of O, ours alone.
        let chunk = unsafe { std::slice::from_raw_parts_mut(dst as *mut MaybeUninit<O>, len) };
        walk_runs(plan, start, chunk, &|out, offs: [isize; N], inner| {
            let p: [*const u8; N] =
                std::array::from_fn(|o| ptrs[o].wrapping_offset(offs[o] * sizes[o] as isize));
            (self.run)(out, p, inner)
        })
    }

    unsafe fn rows(&self, r: &Rows<N>) {
        for i in 0..r.rows {
            let p: [*const u8; N] =
                std::array::from_fn(|o| r.first[o].wrapping_offset(i as isize * r.row_step[o]));
            let dst = r.dst.wrapping_add(i * r.dst_step) as *mut MaybeUninit<O>;
            if r.row_buf.is_null() {
                // SAFETY: the caller's contract: output row i is `cols` elements
                // at `dst`, written only here.
                let row = unsafe { std::slice::from_raw_parts_mut(dst, r.cols) };
                (self.run)(row, p, r.col_stride);
            } else {
                // SAFETY: the caller's contract: the row buffer holds `cols`
                // elements of O, and output row i is ours to write.
                unsafe {
                    let row =
                        std::slice::from_raw_parts_mut(r.row_buf as *mut MaybeUninit<O>, r.cols);
                    (self.run)(row, p, r.col_stride);
                    let bytes = r.cols * std::mem::size_of::<O>();
                    stream::copy(dst as *mut u8, row.as_ptr() as *const u8, bytes);
                }
            }
        }
    }
}

/// `drive` below the element type: `dst` holds `n` elements of `elem` bytes each.
fn drive_untyped<const N: usize>(
    out_dims: &[usize],
    ops: [(*const u8, usize, &[isize]); N],
    check: Check,
    elem: usize,
    dst: OutPtr<u8>,
    n: usize,
    fill: &dyn Fill<N>,
) -> Result<(), KernelError> {
    let strides: [&[isize]; N] = std::array::from_fn(|o| ops[o].2);
    let sizes: [usize; N] = std::array::from_fn(|o| ops[o].1);
    let ptrs = SyncPtrs(std::array::from_fn(|o| ops[o].0));
    match Tiling::new(out_dims, &strides, &sizes) {
        Some(mut t) if n >= GRAIN => {
            let streamed = stream::worth_it(n * elem, t.max_cols() * elem);
            if streamed {
                t.visit_in_read_order();
            }
            run_tiled(&t, ptrs, sizes, dst, elem, streamed, check, fill)
        }
        _ => run_flat(out_dims, strides, ptrs, sizes, dst, elem, n, check, fill),
    }
}

/// The output in row-major order, inner run by inner run, in parallel tasks.
#[allow(clippy::too_many_arguments)]
fn run_flat<const N: usize>(
    out_dims: &[usize],
    strides: [&[isize]; N],
    ptrs: SyncPtrs<N>,
    sizes: [usize; N],
    dst: OutPtr<u8>,
    elem: usize,
    n: usize,
    check: Check,
    fill: &dyn Fill<N>,
) -> Result<(), KernelError> {
    let plan = plan(out_dims, strides);
    if n < GRAIN {
        // SAFETY: `dst` holds the n output elements (`drive`), the views fit
        // the output (checked by the typed entry points).
        unsafe { fill.flat(&plan, ptrs.0, sizes, 0, dst.0, n) };
        return Ok(());
    }
    let threads = rayon::current_num_threads().max(1);
    let chunk = (n / (threads * 8)).clamp(GRAIN / 2, TASK);
    (0..n.div_ceil(chunk)).into_par_iter().try_for_each(|i| {
        let (ptrs, dst) = (&ptrs, &dst);
        check.now()?;
        let start = i * chunk;
        let len = chunk.min(n - start);
        // SAFETY: task i alone writes elements start..start + len of the
        // output, which `dst` holds; the views fit the output, as above.
        unsafe { fill.flat(&plan, ptrs.0, sizes, start, dst.0.add(start * elem), len) };
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
#[allow(clippy::too_many_arguments)]
fn run_tiled<const N: usize>(
    t: &Tiling,
    ptrs: SyncPtrs<N>,
    sizes: [usize; N],
    dst: OutPtr<u8>,
    elem: usize,
    streamed: bool,
    check: Check,
    fill: &dyn Fill<N>,
) -> Result<(), KernelError> {
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
                (t.ti * elem).div_ceil(8)
            } else {
                0
            };
            (bufs, vec![0u64; row_words])
        },
        |(bufs, row_buf), b| {
            let (ptrs, dst) = (&ptrs, &dst);
            let mut offs = [0isize; N];
            let (out_off, rows, cols) = t.block(b, &mut offs);
            let mut first = [std::ptr::null::<u8>(); N];
            let mut row_step = [0isize; N];
            let mut col_stride = [0isize; N];
            for o in 0..N {
                let base = ptrs.0[o].wrapping_offset(offs[o] * sizes[o] as isize);
                if buffered[o] {
                    // SAFETY: the block lies inside the operand (the checker proved
                    // the shapes), and the buffer holds tile_elems elements.
                    unsafe {
                        gather_tile(
                            base,
                            sizes[o],
                            t.row_stride(o),
                            t.col_stride(o),
                            rows,
                            cols,
                            bufs[o].as_mut_ptr() as *mut u8,
                        )
                    };
                    first[o] = bufs[o].as_ptr() as *const u8;
                    row_step[o] = (cols * sizes[o]) as isize;
                    col_stride[o] = 1;
                } else {
                    first[o] = base;
                    row_step[o] = t.row_stride(o) * sizes[o] as isize;
                    col_stride[o] = t.col_stride(o);
                }
            }
            let block = Rows {
                rows,
                cols,
                dst: dst.0.wrapping_add(out_off * elem),
                dst_step: t.out_row_stride() * elem,
                first,
                row_step,
                col_stride,
                row_buf: if streamed {
                    row_buf.as_mut_ptr() as *mut u8
                } else {
                    std::ptr::null_mut()
                },
            };
            // SAFETY: the block's output rows are written by this block only;
            // the operand rows lie inside their operands or the tile buffers
            // filled above; the row buffer holds ti >= cols elements.
            unsafe { fill.rows(&block) };
            if streamed {
                stream::fence();
            }
            Ok(())
        },
    )
}
