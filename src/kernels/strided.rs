//! The strided elementwise engine every elementwise op runs on.
//!
//! Operands are read through `Src` views laid over the output's dimensions:
//! a broadcast dimension has stride 0, a transposed or reversed one a permuted
//! or negative stride. The output is always a fresh row-major array. Before
//! running, dimensions are coalesced (adjacent dimensions that are contiguous
//! for every operand merge into one), so a plain contiguous operation becomes a
//! single flat loop and a broadcast becomes an outer loop over a tight inner run.
//! The flat output index space is cut into chunks run by rayon above `GRAIN`
//! elements; each chunk walks inner runs with an odometer over the outer
//! dimensions. The per-element function is a generic closure, so the element
//! loop is monomorphic and free of dynamic dispatch.

use crate::ir::KernelError;
use crate::value::Nd;
use ndarray::{ArrayD, IxDyn};
use rayon::prelude::*;
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::sync::atomic::Ordering;

/// Below this many output elements an op runs on the calling thread.
pub const GRAIN: usize = 32 * 1024;

/// A read-only strided view of an operand over the output's dimensions.
pub struct Src<'a, T> {
    ptr: *const T,
    strides: Vec<isize>,
    _life: PhantomData<&'a T>,
}

// The pointer is only read, and `'a` keeps the storage alive.
unsafe impl<T: Sync> Send for Src<'_, T> {}
unsafe impl<T: Sync> Sync for Src<'_, T> {}

impl<'a, T> Src<'a, T> {
    /// The operand as it is (its dims are the output's dims).
    pub fn of(a: &'a Nd<T>) -> Self {
        Src {
            ptr: a.as_ptr(),
            strides: a.strides().to_vec(),
            _life: PhantomData,
        }
    }

    /// The operand broadcast into `out_rank` dimensions: operand dimension `i`
    /// becomes output dimension `dim_map[i]`; every other output dimension, and
    /// every operand dimension of size 1, is read with stride 0. The checker has
    /// already proved sizes compatible.
    pub fn broadcast_in_dim(a: &'a Nd<T>, out_rank: usize, dim_map: &[usize]) -> Self {
        let mut strides = vec![0isize; out_rank];
        for (i, &od) in dim_map.iter().enumerate() {
            if a.shape()[i] != 1 {
                strides[od] = a.strides()[i];
            }
        }
        Src {
            ptr: a.as_ptr(),
            strides,
            _life: PhantomData,
        }
    }
}

/// Dimensions after coalescing, with each operand's strides; the last one is the inner run.
pub(super) struct Plan<const N: usize> {
    pub(super) dims: Vec<usize>,
    pub(super) strides: [Vec<isize>; N],
}

pub(super) fn plan<const N: usize>(out_dims: &[usize], strides: [&[isize]; N]) -> Plan<N> {
    let (dims, st) = plan_dyn(out_dims, &strides);
    let mut st = st.into_iter();
    Plan {
        dims,
        strides: std::array::from_fn(|_| st.next().unwrap_or_default()),
    }
}

/// Coalesced dimensions and each operand's strides over them (see `Plan`).
pub(crate) fn plan_dyn(out_dims: &[usize], strides: &[&[isize]]) -> (Vec<usize>, Vec<Vec<isize>>) {
    // Walk from the minor dimension outwards, skipping size-1 dims and merging a dim
    // into the run inside it when every operand steps through both as one.
    let n = strides.len();
    let mut dims: Vec<usize> = Vec::new();
    let mut st: Vec<Vec<isize>> = vec![Vec::new(); n];
    for d in (0..out_dims.len()).rev() {
        let size = out_dims[d];
        if size == 1 {
            continue;
        }
        if let Some(&inner) = dims.last() {
            let k = dims.len() - 1;
            let mergeable = (0..n).all(|o| strides[o][d] == st[o][k] * inner as isize);
            if mergeable {
                dims[k] = inner * size;
                continue;
            }
        }
        dims.push(size);
        for o in 0..n {
            st[o].push(strides[o][d]);
        }
    }
    if dims.is_empty() {
        dims.push(1);
        for s in st.iter_mut() {
            s.push(0);
        }
    }
    dims.reverse();
    for s in st.iter_mut() {
        s.reverse();
    }
    (dims, st)
}

/// Walks the outer dimensions of a plan, keeping each operand's offset of the current row.
struct Cursor<const N: usize> {
    idx: Vec<usize>,
    offs: [isize; N],
}

impl<const N: usize> Cursor<N> {
    /// The cursor at row `row` (a flat index over the outer dims).
    fn at(plan: &Plan<N>, mut row: usize) -> Self {
        let outer = plan.dims.len() - 1;
        let mut idx = vec![0usize; outer];
        let mut offs = [0isize; N];
        for d in (0..outer).rev() {
            let i = row % plan.dims[d];
            row /= plan.dims[d];
            idx[d] = i;
            for (o, off) in offs.iter_mut().enumerate() {
                *off += i as isize * plan.strides[o][d];
            }
        }
        Cursor { idx, offs }
    }

    fn next_row(&mut self, plan: &Plan<N>) {
        for d in (0..self.idx.len()).rev() {
            self.idx[d] += 1;
            for o in 0..N {
                self.offs[o] += plan.strides[o][d];
            }
            if self.idx[d] < plan.dims[d] {
                return;
            }
            for o in 0..N {
                self.offs[o] -= plan.strides[o][d] * plan.dims[d] as isize;
            }
            self.idx[d] = 0;
        }
    }
}

/// Fills `chunk`, the output elements `start..start + chunk.len()` in row-major
/// order, by calling `run(out_slice, offsets, inner_strides)` on each inner run.
pub(super) fn walk_runs<O, const N: usize>(
    plan: &Plan<N>,
    start: usize,
    chunk: &mut [MaybeUninit<O>],
    run: &impl Fn(&mut [MaybeUninit<O>], [isize; N], [isize; N]),
) {
    let inner = *plan.dims.last().unwrap_or(&1);
    let inner_strides: [isize; N] = std::array::from_fn(|o| *plan.strides[o].last().unwrap_or(&0));
    let mut cur = Cursor::at(plan, start / inner);
    let mut col = start % inner;
    let mut done = 0;
    while done < chunk.len() {
        let len = (inner - col).min(chunk.len() - done);
        let offs: [isize; N] =
            std::array::from_fn(|o| cur.offs[o] + col as isize * inner_strides[o]);
        run(&mut chunk[done..done + len], offs, inner_strides);
        done += len;
        col += len;
        if col == inner {
            col = 0;
            cur.next_row(plan);
        }
    }
}

/// Reads a strided view in output order, a range at a time (the leaves of a fused evaluation).
pub struct Gather<'a, T> {
    src: Src<'a, T>,
    plan: Plan<1>,
}

impl<'a, T: Copy> Gather<'a, T> {
    pub fn new(out_dims: &[usize], src: Src<'a, T>) -> Self {
        let plan = plan(out_dims, [&src.strides]);
        Gather { src, plan }
    }

    pub(crate) fn src(&self) -> &Src<'a, T> {
        &self.src
    }

    /// The whole view as one slice, when it is laid out row-major with no gaps or
    /// broadcasting (so output element i is storage element i).
    pub fn contiguous(&self) -> Option<&'a [T]> {
        match (self.plan.dims.as_slice(), self.plan.strides[0].as_slice()) {
            ([n], [1]) => Some(unsafe { std::slice::from_raw_parts(self.src.ptr, *n) }),
            _ => None,
        }
    }

    /// Writes output elements `start..start + out.len()` of the view into `out`.
    pub fn fill(&self, start: usize, out: &mut [MaybeUninit<T>]) {
        let ptr = self.src.ptr;
        walk_runs(
            &self.plan,
            start,
            out,
            &|run: &mut [MaybeUninit<T>], [o]: [isize; 1], [s]: [isize; 1]| unsafe {
                let p = ptr.offset(o);
                if s == 1 {
                    let xs = std::slice::from_raw_parts(p, run.len());
                    for (d, &x) in run.iter_mut().zip(xs) {
                        d.write(x);
                    }
                } else if s == 0 {
                    let x = *p;
                    for d in run.iter_mut() {
                        d.write(x);
                    }
                } else {
                    for (i, d) in run.iter_mut().enumerate() {
                        d.write(*p.offset(i as isize * s));
                    }
                }
            },
        );
    }
}

/// Output elements per parallel task: small enough that an interrupt is seen
/// within a millisecond or so of work, large enough that scheduling is noise.
pub const TASK: usize = 1 << 18;

/// True once Ctrl-C was pressed. Kernels check it once per task (see `TASK`),
/// never per element.
#[inline]
pub fn interrupted() -> bool {
    crate::eval::INTERRUPTED.load(Ordering::Relaxed)
}

/// The error every interrupted kernel returns; the evaluator reports it at the op.
pub fn interrupt_error() -> KernelError {
    KernelError::new("interrupted", "interrupted")
}

/// Whether a kernel stops at Ctrl-C (every kernel the evaluator runs does; a
/// few infallible helpers finish their copy regardless).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Check {
    Interrupts,
    Never,
}

impl Check {
    /// An error when an interrupt is pending and this kernel stops for it.
    #[inline]
    pub fn now(self) -> Result<(), KernelError> {
        if self == Check::Interrupts && interrupted() {
            Err(interrupt_error())
        } else {
            Ok(())
        }
    }
}

/// A raw output pointer shared by the tasks of one kernel, which write disjoint elements.
pub(crate) struct OutPtr<O>(pub(crate) *mut MaybeUninit<O>);
impl<O> Clone for OutPtr<O> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<O> Copy for OutPtr<O> {}
unsafe impl<O: Send> Send for OutPtr<O> {}
unsafe impl<O: Send> Sync for OutPtr<O> {}

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
fn drive<O: Send, const N: usize>(
    out_dims: &[usize],
    ops: [(*const u8, usize, &[isize]); N],
    check: Check,
    run: impl RunFn<O, N>,
) -> Result<ArrayD<O>, KernelError> {
    let n: usize = out_dims.iter().product();
    let mut out: Vec<O> = super::alloc::output_vec(n);
    if n > 0 {
        let strides: [&[isize]; N] = std::array::from_fn(|o| ops[o].2);
        let sizes: [usize; N] = std::array::from_fn(|o| ops[o].1);
        let ptrs: [*const u8; N] = std::array::from_fn(|o| ops[o].0);
        let buf = &mut out.spare_capacity_mut()[..n];
        match Tiling::new(out_dims, &strides, &sizes) {
            Some(t) if n >= GRAIN => {
                run_tiled(&t, ptrs, sizes, OutPtr(buf.as_mut_ptr()), check, &run)?
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
// Operand pointers are only read, and the borrow in the caller keeps them alive.
unsafe impl<const N: usize> Send for SyncPtrs<N> {}
unsafe impl<const N: usize> Sync for SyncPtrs<N> {}

/// The output in tiles (see `Tiling`): operands whose inner stride is large are
/// copied into a tile buffer first, the others are read in place.
fn run_tiled<O: Send, const N: usize>(
    t: &Tiling,
    ptrs: [*const u8; N],
    sizes: [usize; N],
    out: OutPtr<O>,
    check: Check,
    run: &impl RunFn<O, N>,
) -> Result<(), KernelError> {
    let ptrs = SyncPtrs(ptrs);
    let buffered: [bool; N] = std::array::from_fn(|o| t.needs_buffer(o));
    t.for_each_block(
        check,
        || -> [Vec<u64>; N] {
            std::array::from_fn(|o| {
                // u64 storage keeps the buffer aligned for any element type.
                let words = if buffered[o] {
                    (t.tile_elems() * sizes[o]).div_ceil(8)
                } else {
                    0
                };
                vec![0u64; words]
            })
        },
        |bufs, b| {
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
                let dst = unsafe {
                    std::slice::from_raw_parts_mut(
                        out.0.add(out_off + r * t.out_row_stride()),
                        cols,
                    )
                };
                run(dst, p, s);
            }
            Ok(())
        },
    )
}

/// Copies a `rows` x `cols` block of elements of `size` bytes, element (r, c) at
/// `src + (r * rs + c * cs) * size`, into `dst` in row-major order. Elements are
/// moved as plain bits of their size, so one copy serves every element type.
///
/// # Safety
/// Every source element must be readable and `dst` must hold rows * cols elements.
pub(crate) unsafe fn gather_tile(
    src: *const u8,
    size: usize,
    rs: isize,
    cs: isize,
    rows: usize,
    cols: usize,
    dst: *mut u8,
) {
    unsafe fn go<W: Copy>(
        src: *const W,
        rs: isize,
        cs: isize,
        rows: usize,
        cols: usize,
        dst: *mut W,
    ) {
        unsafe {
            if rs.abs() <= cs.abs() {
                // Read down each column: contiguous (or nearly) in the source.
                for c in 0..cols {
                    let s = src.offset(c as isize * cs);
                    for r in 0..rows {
                        *dst.add(r * cols + c) = *s.offset(r as isize * rs);
                    }
                }
            } else if cs == 1 {
                // Rows are source runs (a contiguous leaf of a tiled fused op).
                for r in 0..rows {
                    std::ptr::copy_nonoverlapping(
                        src.offset(r as isize * rs),
                        dst.add(r * cols),
                        cols,
                    );
                }
            } else {
                for r in 0..rows {
                    let s = src.offset(r as isize * rs);
                    let d = dst.add(r * cols);
                    for c in 0..cols {
                        *d.add(c) = *s.offset(c as isize * cs);
                    }
                }
            }
        }
    }
    unsafe {
        match size {
            1 => go(src, rs, cs, rows, cols, dst),
            2 => go(src as *const u16, rs, cs, rows, cols, dst as *mut u16),
            4 => {
                let (src, dst) = (src as *const u32, dst as *mut u32);
                // The transpose proper (a column of the block is a source run) in 8x8
                // register blocks; the ragged right and bottom edges element by element.
                let (r8, c8) = if rs == 1 && simd::AVAILABLE {
                    (rows / 8 * 8, cols / 8 * 8)
                } else {
                    (0, 0)
                };
                for c in (0..c8).step_by(8) {
                    for r in (0..r8).step_by(8) {
                        simd::transpose8x8_u32(
                            src.offset(c as isize * cs + r as isize),
                            cs,
                            dst.add(r * cols + c),
                            cols,
                        );
                    }
                }
                if r8 < rows {
                    go(
                        src.offset(r8 as isize * rs),
                        rs,
                        cs,
                        rows - r8,
                        cols,
                        dst.add(r8 * cols),
                    );
                }
                if c8 < cols {
                    for r in 0..r8 {
                        for c in c8..cols {
                            *dst.add(r * cols + c) = *src.offset(r as isize * rs + c as isize * cs);
                        }
                    }
                }
            }
            _ => go(src as *const u64, rs, cs, rows, cols, dst as *mut u64),
        }
    }
}

/// An 8x8 transpose of 4-byte elements in AVX registers: the scalar transpose
/// costs a few cycles per element, which made a transposed read 4x a copy.
mod simd {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx"))]
    pub const AVAILABLE: bool = true;
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx")))]
    pub const AVAILABLE: bool = false;

    /// Row i of the 8x8 block at `src` (rows `ss` elements apart) becomes column i
    /// of the block at `dst` (rows `ds` apart).
    ///
    /// # Safety
    /// Both blocks must be valid for their reads and writes.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx"))]
    #[inline(always)]
    pub unsafe fn transpose8x8_u32(src: *const u32, ss: isize, dst: *mut u32, ds: usize) {
        use std::arch::x86_64::*;
        unsafe {
            let ld = |i: isize| _mm256_loadu_ps(src.offset(i * ss) as *const f32);
            let (r0, r1, r2, r3) = (ld(0), ld(1), ld(2), ld(3));
            let (r4, r5, r6, r7) = (ld(4), ld(5), ld(6), ld(7));
            let t0 = _mm256_unpacklo_ps(r0, r1);
            let t1 = _mm256_unpackhi_ps(r0, r1);
            let t2 = _mm256_unpacklo_ps(r2, r3);
            let t3 = _mm256_unpackhi_ps(r2, r3);
            let t4 = _mm256_unpacklo_ps(r4, r5);
            let t5 = _mm256_unpackhi_ps(r4, r5);
            let t6 = _mm256_unpacklo_ps(r6, r7);
            let t7 = _mm256_unpackhi_ps(r6, r7);
            let u0 = _mm256_shuffle_ps::<0x44>(t0, t2);
            let u1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
            let u2 = _mm256_shuffle_ps::<0x44>(t1, t3);
            let u3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
            let u4 = _mm256_shuffle_ps::<0x44>(t4, t6);
            let u5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
            let u6 = _mm256_shuffle_ps::<0x44>(t5, t7);
            let u7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
            let st = |i: usize, v| _mm256_storeu_ps(dst.add(i * ds) as *mut f32, v);
            st(0, _mm256_permute2f128_ps::<0x20>(u0, u4));
            st(1, _mm256_permute2f128_ps::<0x20>(u1, u5));
            st(2, _mm256_permute2f128_ps::<0x20>(u2, u6));
            st(3, _mm256_permute2f128_ps::<0x20>(u3, u7));
            st(4, _mm256_permute2f128_ps::<0x31>(u0, u4));
            st(5, _mm256_permute2f128_ps::<0x31>(u1, u5));
            st(6, _mm256_permute2f128_ps::<0x31>(u2, u6));
            st(7, _mm256_permute2f128_ps::<0x31>(u3, u7));
        }
    }

    /// Never called: `AVAILABLE` is false where there is no AVX.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx")))]
    pub unsafe fn transpose8x8_u32(src: *const u32, ss: isize, dst: *mut u32, ds: usize) {
        for i in 0..8 {
            for j in 0..8 {
                unsafe { *dst.add(j * ds + i) = *src.offset(i as isize * ss + j as isize) };
            }
        }
    }
}

/// How to walk an output in tiles when some operand's innermost stride is large.
///
/// On the coalesced dimensions, `i` is the innermost (the output's contiguous
/// one) and `j` the dimension along which the worst operand is contiguous. A
/// block is a `tj` x `ti` rectangle of the (j, i) plane at one index of every
/// other dimension: every cache line it reads from that operand is used for a
/// whole run of `tj` elements, and the output is still written a row of `ti`
/// elements at a time.
pub(crate) struct Tiling {
    dims: Vec<usize>,
    strides: Vec<Vec<isize>>,
    sizes: Vec<usize>,
    /// Row-major strides of the output over `dims`.
    out_strides: Vec<usize>,
    j: usize,
    i: usize,
    tj: usize,
    ti: usize,
    /// The dimensions other than j and i, outer to inner.
    outer: Vec<usize>,
    nbj: usize,
    nbi: usize,
    blocks: usize,
}

/// An operand's inner stride is "large" when consecutive elements are a cache line
/// (64 bytes) or more apart: every element of a row-order walk is then a new line.
fn large_stride(stride: isize, size: usize) -> bool {
    stride.unsigned_abs() * size >= 64
}

/// Elements per tile: 64 x 64 of up to 4-byte elements is 16 KiB, a few of which
/// stay in L1.
const TILE_ELEMS: usize = 4096;

impl Tiling {
    /// The tiling for these operands, or None when a row-order walk reads every
    /// operand well (all inner strides are 0 or small).
    pub(crate) fn new(out_dims: &[usize], strides: &[&[isize]], sizes: &[usize]) -> Option<Tiling> {
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
        let (tj, ti) = tile_shape(dims[j], dims[i]);
        let mut out_strides = vec![1usize; k];
        for d in (0..k - 1).rev() {
            out_strides[d] = out_strides[d + 1] * dims[d + 1];
        }
        let outer: Vec<usize> = (0..k).filter(|&d| d != i && d != j).collect();
        let nbj = dims[j].div_ceil(tj);
        let nbi = dims[i].div_ceil(ti);
        let blocks = outer.iter().map(|&d| dims[d]).product::<usize>() * nbj * nbi;
        Some(Tiling {
            dims,
            strides: st,
            sizes: sizes.to_vec(),
            out_strides,
            j,
            i,
            tj,
            ti,
            outer,
            nbj,
            nbi,
            blocks,
        })
    }

    /// Whether operand `o` is copied into a tile buffer (else read in place).
    pub(crate) fn needs_buffer(&self, o: usize) -> bool {
        large_stride(self.strides[o][self.i], self.sizes[o])
    }
    pub(crate) fn tile_elems(&self) -> usize {
        self.tj * self.ti
    }
    /// Operand `o`'s stride (in elements) between rows of a block.
    pub(crate) fn row_stride(&self, o: usize) -> isize {
        self.strides[o][self.j]
    }
    /// Operand `o`'s stride (in elements) along a row of a block.
    pub(crate) fn col_stride(&self, o: usize) -> isize {
        self.strides[o][self.i]
    }
    /// The output's stride between rows of a block.
    pub(crate) fn out_row_stride(&self) -> usize {
        self.out_strides[self.j]
    }

    /// Block `b`: sets each operand's element offset of its first element in
    /// `offs`, and returns the output offset of that element, and the block's rows
    /// and columns.
    pub(crate) fn block(&self, b: usize, offs: &mut [isize]) -> (usize, usize, usize) {
        let bi = b % self.nbi;
        let bj = (b / self.nbi) % self.nbj;
        let mut rest = b / (self.nbi * self.nbj);
        let (r0, c0) = (bj * self.tj, bi * self.ti);
        let mut out_off = r0 * self.out_strides[self.j] + c0;
        for (o, off) in offs.iter_mut().enumerate() {
            *off = r0 as isize * self.strides[o][self.j] + c0 as isize * self.strides[o][self.i];
        }
        for &d in self.outer.iter().rev() {
            let x = rest % self.dims[d];
            rest /= self.dims[d];
            out_off += x * self.out_strides[d];
            for (o, off) in offs.iter_mut().enumerate() {
                *off += x as isize * self.strides[o][d];
            }
        }
        let rows = self.tj.min(self.dims[self.j] - r0);
        let cols = self.ti.min(self.dims[self.i] - c0);
        (out_off, rows, cols)
    }

    /// Runs `f(state, block)` on every block, in parallel tasks of about `TASK`
    /// elements, each with its own `state`; stops at an interrupt or an error.
    pub(crate) fn for_each_block<S>(
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

/// Tile rows (along j) and columns (along i) of about `TILE_ELEMS` elements,
/// never more than the dimensions; a short dimension lends its share to the other.
fn tile_shape(dj: usize, di: usize) -> (usize, usize) {
    const EDGE: usize = 64;
    let edge = EDGE;
    let (tj, ti) = if di < edge {
        (dj.min((TILE_ELEMS / di.max(1)).max(1)), di)
    } else if dj < edge {
        (dj, di.min((TILE_ELEMS / dj.max(1)).max(1)))
    } else {
        (edge, edge)
    };
    (tj.max(1), ti.max(1))
}

/// `out[i] = f(a[i])` over the output dims.
pub fn map1<A: Copy + Sync, O: Send>(
    out_dims: &[usize],
    a: &Src<A>,
    f: impl Fn(A) -> O + Sync,
) -> Result<ArrayD<O>, KernelError> {
    map1_with(out_dims, a, Check::Interrupts, f)
}

fn map1_with<A: Copy + Sync, O: Send>(
    out_dims: &[usize],
    a: &Src<A>,
    check: Check,
    f: impl Fn(A) -> O + Sync,
) -> Result<ArrayD<O>, KernelError> {
    drive(out_dims, [a.erased()], check, |out, [pa], [sa]| unsafe {
        let pa = pa as *const A;
        if sa == 1 {
            let xs = std::slice::from_raw_parts(pa, out.len());
            for (o, &x) in out.iter_mut().zip(xs) {
                o.write(f(x));
            }
        } else {
            for (i, o) in out.iter_mut().enumerate() {
                o.write(f(*pa.offset(i as isize * sa)));
            }
        }
    })
}

/// `out[i] = f(a[i], b[i])` over the output dims.
pub fn map2<A: Copy + Sync, B: Copy + Sync, O: Send>(
    out_dims: &[usize],
    a: &Src<A>,
    b: &Src<B>,
    f: impl Fn(A, B) -> O + Sync,
) -> Result<ArrayD<O>, KernelError> {
    drive(
        out_dims,
        [a.erased(), b.erased()],
        Check::Interrupts,
        |out, [pa, pb], [sa, sb]| unsafe {
            let (pa, pb) = (pa as *const A, pb as *const B);
            let len = out.len();
            match (sa, sb) {
                (1, 1) => {
                    let xs = std::slice::from_raw_parts(pa, len);
                    let ys = std::slice::from_raw_parts(pb, len);
                    for ((o, &x), &y) in out.iter_mut().zip(xs).zip(ys) {
                        o.write(f(x, y));
                    }
                }
                (1, 0) => {
                    let xs = std::slice::from_raw_parts(pa, len);
                    let y = *pb;
                    for (o, &x) in out.iter_mut().zip(xs) {
                        o.write(f(x, y));
                    }
                }
                (0, 1) => {
                    let x = *pa;
                    let ys = std::slice::from_raw_parts(pb, len);
                    for (o, &y) in out.iter_mut().zip(ys) {
                        o.write(f(x, y));
                    }
                }
                _ => {
                    for (i, o) in out.iter_mut().enumerate() {
                        let i = i as isize;
                        o.write(f(*pa.offset(i * sa), *pb.offset(i * sb)));
                    }
                }
            }
        },
    )
}

/// `out[i] = f(a[i], b[i], c[i])` over the output dims.
pub fn map3<A: Copy + Sync, B: Copy + Sync, C: Copy + Sync, O: Send>(
    out_dims: &[usize],
    a: &Src<A>,
    b: &Src<B>,
    c: &Src<C>,
    f: impl Fn(A, B, C) -> O + Sync,
) -> Result<ArrayD<O>, KernelError> {
    drive(
        out_dims,
        [a.erased(), b.erased(), c.erased()],
        Check::Interrupts,
        |out, [pa, pb, pc], [sa, sb, sc]| unsafe {
            let (pa, pb, pc) = (pa as *const A, pb as *const B, pc as *const C);
            if (sa, sb, sc) == (1, 1, 1) {
                let len = out.len();
                let xs = std::slice::from_raw_parts(pa, len);
                let ys = std::slice::from_raw_parts(pb, len);
                let zs = std::slice::from_raw_parts(pc, len);
                for (((o, &x), &y), &z) in out.iter_mut().zip(xs).zip(ys).zip(zs) {
                    o.write(f(x, y, z));
                }
            } else {
                for (i, o) in out.iter_mut().enumerate() {
                    let i = i as isize;
                    o.write(f(
                        *pa.offset(i * sa),
                        *pb.offset(i * sb),
                        *pc.offset(i * sc),
                    ));
                }
            }
        },
    )
}

/// The reference form: one multi-index per output element, no coalescing, no threads.
/// Kept beside the fast engine so tests can hold the two against each other.
pub fn reference_map2<A: Copy, B: Copy, O>(
    out_dims: &[usize],
    a: &Src<A>,
    b: &Src<B>,
    f: impl Fn(A, B) -> O,
) -> ArrayD<O> {
    ArrayD::from_shape_fn(IxDyn(out_dims), |ix| {
        let (mut oa, mut ob) = (0isize, 0isize);
        for d in 0..out_dims.len() {
            oa += ix[d] as isize * a.strides[d];
            ob += ix[d] as isize * b.strides[d];
        }
        unsafe { f(*a.ptr.offset(oa), *b.ptr.offset(ob)) }
    })
}

/// The reference form of `map3` (see `reference_map2`).
pub fn reference_map3<A: Copy, B: Copy, C: Copy, O>(
    out_dims: &[usize],
    a: &Src<A>,
    b: &Src<B>,
    c: &Src<C>,
    f: impl Fn(A, B, C) -> O,
) -> ArrayD<O> {
    ArrayD::from_shape_fn(IxDyn(out_dims), |ix| {
        let (mut oa, mut ob, mut oc) = (0isize, 0isize, 0isize);
        for d in 0..out_dims.len() {
            oa += ix[d] as isize * a.strides[d];
            ob += ix[d] as isize * b.strides[d];
            oc += ix[d] as isize * c.strides[d];
        }
        unsafe { f(*a.ptr.offset(oa), *b.ptr.offset(ob), *c.ptr.offset(oc)) }
    })
}

/// Copies a view into a fresh row-major array; stops with an error at Ctrl-C.
pub fn try_materialize<T: Copy + Send + Sync>(
    out_dims: &[usize],
    a: &Src<T>,
) -> Result<ArrayD<T>, KernelError> {
    map1(out_dims, a, |x| x)
}

impl<T> Src<'_, T> {
    pub(crate) fn ptr(&self) -> *const T {
        self.ptr
    }
    pub(crate) fn strides(&self) -> &[isize] {
        &self.strides
    }
    /// The view as (bytes, element size, strides in elements), for the untyped engine.
    fn erased(&self) -> (*const u8, usize, &[isize]) {
        (
            self.ptr as *const u8,
            std::mem::size_of::<T>(),
            &self.strides,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayD, Axis};

    fn arr(dims: &[usize], start: i64) -> Nd<i64> {
        let n: usize = dims.iter().product();
        ArrayD::from_shape_vec(IxDyn(dims), (0..n as i64).map(|x| x + start).collect())
            .unwrap()
            .into_shared()
    }

    fn check_against_reference(out: &[usize], a: &Src<i64>, b: &Src<i64>) {
        let fast = map2(out, a, b, |x, y| x * 1000 + y).unwrap();
        let slow = reference_map2(out, a, b, |x, y| x * 1000 + y);
        assert_eq!(fast, slow, "dims {out:?}");
    }

    #[test]
    fn fast_engine_matches_reference_on_broadcasts_and_views() {
        // Same shape, contiguous; large enough to go parallel.
        let x = arr(&[300, 257], 0);
        let y = arr(&[300, 257], 7);
        check_against_reference(&[300, 257], &Src::of(&x), &Src::of(&y));
        // Row vector and column vector broadcasts (stride 0 inner and outer).
        let v = arr(&[257], 3);
        let c = arr(&[300, 1], 5);
        check_against_reference(
            &[300, 257],
            &Src::broadcast_in_dim(&v, 2, &[1]),
            &Src::broadcast_in_dim(&c, 2, &[0, 1]),
        );
        // Outer product of [2,1] and [1,3] into [2,3] (the docs' case).
        let p = arr(&[2, 1], 1);
        let q = arr(&[1, 3], 10);
        check_against_reference(
            &[2, 3],
            &Src::broadcast_in_dim(&p, 2, &[0, 1]),
            &Src::broadcast_in_dim(&q, 2, &[0, 1]),
        );
        // Transposed and reversed operands.
        let mut t = arr(&[64, 48, 5], 0);
        t = t.permuted_axes(IxDyn(&[2, 0, 1]));
        let mut r = arr(&[5, 64, 48], 11);
        r.invert_axis(Axis(1));
        check_against_reference(&[5, 64, 48], &Src::of(&t), &Src::of(&r));
        // Rank 0 and empty.
        let s = arr(&[], 4);
        check_against_reference(&[], &Src::of(&s), &Src::of(&s));
        let e = arr(&[3, 0], 0);
        check_against_reference(&[3, 0], &Src::of(&e), &Src::of(&e));
        // A transposed operand large enough for the tiled walk, beside a contiguous one.
        let t = arr(&[257, 300], 0).permuted_axes(IxDyn(&[1, 0]));
        check_against_reference(&[300, 257], &Src::of(&t), &Src::of(&x));
    }

    /// Every permutation of 0..n.
    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = vec![];
        for p in permutations(n - 1) {
            for i in 0..=p.len() {
                let mut q = p.clone();
                q.insert(i, n - 1);
                out.push(q);
            }
        }
        out
    }

    /// Views of `base` over `dims`: every permutation, each also with its first and
    /// last axes reversed, and with every other element of the last axis.
    fn views<T: Clone>(base: &Nd<T>) -> Vec<Nd<T>> {
        let rank = base.ndim();
        let mut out = vec![];
        for p in permutations(rank) {
            let v = base.clone().permuted_axes(IxDyn(&p));
            out.push(v.clone());
            let mut r = v.clone();
            r.invert_axis(Axis(0));
            r.invert_axis(Axis(rank - 1));
            out.push(r);
            out.push(
                v.slice_axis(Axis(rank - 1), ndarray::Slice::new(0, None, 2))
                    .to_shared(),
            );
        }
        out
    }

    fn check_all<T>(base_dims: &[usize], make: impl Fn(i64) -> T)
    where
        T: Copy + Send + Sync + PartialEq + std::fmt::Debug,
    {
        let n: usize = base_dims.iter().product();
        let base = ArrayD::from_shape_vec(IxDyn(base_dims), (0..n as i64).map(&make).collect())
            .unwrap()
            .into_shared();
        for v in views(&base) {
            let dims = v.shape().to_vec();
            let m: usize = dims.iter().product();
            let a = Src::of(&v);
            // The same layout contiguous, for a second operand.
            let c = ArrayD::from_shape_vec(IxDyn(&dims), (7..m as i64 + 7).map(&make).collect())
                .unwrap()
                .into_shared();
            let b = Src::of(&c);
            // A stride-0 operand: the first row of c broadcast along dimension 0.
            let row = c.index_axis(Axis(0), 0).to_owned().into_shared();
            let map: Vec<usize> = (1..dims.len()).collect();
            let z = Src::broadcast_in_dim(&row, dims.len(), &map);
            let id = |x: T, _: T| x;
            assert_eq!(
                map1(&dims, &a, |x| x).unwrap(),
                reference_map2(&dims, &a, &a, id),
                "map1 {dims:?} strides {:?}",
                v.strides()
            );
            assert_eq!(
                try_materialize(&dims, &a).unwrap(),
                reference_map2(&dims, &a, &a, id),
                "materialize {dims:?} strides {:?}",
                v.strides()
            );
            let pair = |x: T, y: T| (x, y);
            assert_eq!(
                map2(&dims, &a, &b, pair).unwrap(),
                reference_map2(&dims, &a, &b, pair)
            );
            assert_eq!(
                map2(&dims, &z, &a, pair).unwrap(),
                reference_map2(&dims, &z, &a, pair)
            );
            let triple = |x: T, y: T, w: T| (x, y, w);
            assert_eq!(
                map3(&dims, &b, &z, &a, triple).unwrap(),
                reference_map3(&dims, &b, &z, &a, triple)
            );
        }
    }

    #[test]
    fn tiled_engine_matches_reference_on_every_permutation_and_reversal() {
        // Sizes above the parallel grain, not multiples of the 64-element tile edge,
        // so blocks at the edges are partial. One element type per size class
        // (the tile copy moves elements by their byte size).
        check_all(&[300, 131], |x| x as f32);
        check_all(&[3, 130, 97], |x| x);
        check_all(&[5, 3, 70, 67], |x| x as u8);
        check_all(&[3, 3, 70, 67], |x| x as u16);
        check_all(&[3, 3, 70, 67], |x| x % 3 == 0);
        // Small ones run on the calling thread through the plain walk.
        check_all(&[3, 5], |x| x as i32);
        check_all(&[2, 3, 4, 5], |x| x as f64);
    }

    #[test]
    fn a_transposed_operand_is_tiled_and_a_contiguous_one_is_not() {
        let t = Tiling::new(&[4096, 4096], &[&[1, 4096]], &[4]).unwrap();
        assert!(t.needs_buffer(0));
        assert_eq!((t.tj, t.ti), (64, 64));
        assert!(Tiling::new(&[4096, 4096], &[&[4096, 1]], &[4]).is_none());
        // Reversed and every-other-element views are read well in row order.
        assert!(Tiling::new(&[4096, 4096], &[&[-4096, -1]], &[4]).is_none());
        assert!(Tiling::new(&[4096, 4096], &[&[8192, 2]], &[4]).is_none());
        // A broadcast operand beside a transposed one is read in place.
        let t = Tiling::new(&[64, 64, 64], &[&[4096, 1, 64], &[0, 64, 1]], &[4, 4]).unwrap();
        assert!(t.needs_buffer(0) && !t.needs_buffer(1));
        assert_eq!(t.j, 1);
    }

    #[test]
    fn coalescing_merges_contiguous_dims() {
        let p = plan(&[4, 5, 6], [&[30, 6, 1], &[0, 6, 1]]);
        assert_eq!(p.dims, vec![4, 30]);
        let p = plan(&[4, 1, 6], [&[6, 6, 1]]);
        assert_eq!(p.dims, vec![24]);
    }
}
