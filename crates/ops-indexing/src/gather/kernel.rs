//! Gather's kernel. Output element [batch b, offset o] is operand element
//! [start(b) + o]: the output splits into a batch part and an offset part, and
//! both the output and the operand address of an element are sums of a batch
//! term and an offset term. So the kernel works out the two terms of every
//! batch position (from its clamped start) and of every offset position (from
//! the slice's dimensions, coalesced into runs), and copies run by run. When
//! slices are whole rows of a row-major operand and the offset dimensions are
//! the result's last ones, a run is a row and the copy a memcpy. Batch
//! positions are split over threads above a grain size; every output element
//! is written exactly once, so the result does not depend on the split.

use super::super::common::internal;
use super::super::index_dims::{index_values, row_major, step, unflatten};
pub use super::plan::Plan;
use ndarray::IxDyn;
use rayon::prelude::*;
use xlet_core::alloc;
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::with_array;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::strided::{OutPtr, interrupt_error, interrupted};

/// Below this many output elements Gather runs on the calling thread.
const GRAIN: usize = 32 * 1024;

pub struct GatherKernel {
    pub plan: Plan,
}

impl Kernel for GatherKernel {
    /// The cotangent scattered back at the clamped starts (spec/grad.md §4.2).
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        crate::gather::grad::gather(cx, &self.plan)
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(x), Value::Array(ix)] = args else {
            return Err(internal("Gather expects an operand and start indices"));
        };
        if x.dims() != self.plan.operand_dims || ix.dims() != self.plan.space.idx_dims {
            return Err(internal("Gather operands of unexpected shapes"));
        }
        let n_out: usize = self.plan.result_dims.iter().product();
        if n_out == 0 {
            // Nothing to read: the start indices are never looked at.
            return with_array!(x, a => gather(&self.plan, a, &[])).map(Value::Array);
        }
        // The 64-bit copy of the start indices and the result are live together:
        // admitted together, so that the request named is the real one.
        let result = n_out.saturating_mul(x.elem().byte_size());
        let table = ix.len().saturating_mul(8);
        let what = format!(
            "Gather's result ({n_out} elements) with its start indices as 64-bit ({})",
            alloc::show_bytes(table)
        );
        alloc::admit(result.saturating_add(table), &what)?;
        let idx = index_values(ix)?;
        with_array!(x, a => gather(&self.plan, a, &idx)).map(Value::Array)
    }
}

/// A run of elements: count, operand stride, output stride.
type Run = (usize, isize, isize);

/// The offset dimensions as runs, adjacent ones merged where both the operand
/// and the output step through them as one, size-1 ones dropped.
fn offset_runs(p: &Plan, xs: &[isize], rs: &[usize]) -> Vec<Run> {
    let mut runs: Vec<Run> = vec![];
    for (&r, &d) in p.offset_dims.iter().zip(&p.kept) {
        let n = p.slice_sizes[d];
        if n == 1 {
            continue;
        }
        let (si, so) = (xs[d], rs[r] as isize);
        if let Some(last) = runs.last_mut()
            && last.1 == si * n as isize
            && last.2 == so * n as isize
        {
            *last = (last.0 * n, si, so);
            continue;
        }
        runs.push((n, si, so));
    }
    runs
}

pub fn gather<T: Elem + Copy + Send + Sync>(
    p: &Plan,
    x: &Nd<T>,
    idx: &[i64],
) -> Result<Array, KernelError> {
    let n_out: usize = p.result_dims.iter().product();
    let mut out: Vec<T> = alloc::try_output_vec(n_out, &"the gathered result")?;
    if n_out > 0 {
        fill(p, x, idx, out.spare_capacity_mut().as_mut_ptr() as *mut T)?;
        // SAFETY: `fill` wrote every one of the n_out elements (each output
        // element is [batch b, offset o] for exactly one pair).
        unsafe { out.set_len(n_out) };
    }
    Nd::from_shape_vec(IxDyn(&p.result_dims), out)
        .map(T::wrap)
        .map_err(|_| internal("Gather output size"))
}

fn fill<T: Copy + Send + Sync>(
    p: &Plan,
    x: &Nd<T>,
    idx: &[i64],
    out: *mut T,
) -> Result<(), KernelError> {
    let xs: Vec<isize> = x.strides().to_vec();
    let rs = row_major(&p.result_dims);
    let mut runs = offset_runs(p, &xs, &rs);
    let inner: Run = runs.pop().unwrap_or((1, 0, 0));
    // The outer offset positions, as (operand, output) offsets.
    let outer_dims: Vec<usize> = runs.iter().map(|r| r.0).collect();
    let n_outer: usize = outer_dims.iter().product();
    let mut outer: Vec<(isize, isize)> = alloc::try_output_vec(n_outer, &"Gather's slice offsets")?;
    let mut pos = vec![0usize; outer_dims.len()];
    for _ in 0..n_outer {
        let (mut i, mut o) = (0isize, 0isize);
        for (k, r) in runs.iter().enumerate() {
            i += pos[k] as isize * r.1;
            o += pos[k] as isize * r.2;
        }
        outer.push((i, o));
        step(&mut pos, &outer_dims);
    }
    let bdims = p.space.batch_dims();
    let nb: usize = bdims.iter().product();
    let per_b = n_outer * inner.0;
    let base = OutPtr(out);
    let xptr = OutPtr(x.as_ptr() as *mut T);
    let run_bytes = inner.0 * std::mem::size_of::<T>();
    let prefetch_run = inner.1 == 1 && !outer.is_empty();
    let work = |from: usize, to: usize| -> Result<(), KernelError> {
        let (base, xptr) = (base, xptr);
        if interrupted() {
            return Err(interrupt_error());
        }
        let mut bpos = vec![0usize; bdims.len()];
        unflatten(from, &bdims, &mut bpos);
        let mut start = vec![0i64; p.operand_dims.len()];
        // Blocks of batch positions: first every slice's operand and output
        // offsets, then the copies, prefetching the slice AHEAD positions on
        // (random rows miss the cache; the prefetch overlaps those misses).
        let mut offs = [(0isize, 0isize); BLOCK];
        let mut b = from;
        while b < to {
            let m = BLOCK.min(to - b);
            for o in offs.iter_mut().take(m) {
                p.clamped_start(idx, &bpos, &mut start);
                let ib: isize = start.iter().zip(&xs).map(|(&s, &st)| s as isize * st).sum();
                let ob: isize = bpos
                    .iter()
                    .zip(&p.batch_out)
                    .map(|(&b, &r)| (b * rs[r]) as isize)
                    .sum();
                *o = (ib, ob);
                step(&mut bpos, &bdims);
            }
            for j in 0..m {
                let (ib, ob) = offs[j];
                if prefetch_run && j + AHEAD < m {
                    let next = xptr.0.wrapping_offset(offs[j + AHEAD].0 + outer[0].0);
                    prefetch(next as *const u8, run_bytes);
                }
                for &(oi, oo) in &outer {
                    // SAFETY: the start is clamped so that the slice lies inside the
                    // operand (C21, C17 and the clamp), and [b, o] is inside the output.
                    unsafe {
                        let src = xptr.0.offset(ib + oi);
                        let dst = base.0.offset(ob + oo);
                        copy_run(src, dst, inner);
                    }
                }
            }
            b += m;
        }
        Ok(())
    };
    if nb.saturating_mul(per_b) < GRAIN || nb < 2 {
        return work(0, nb);
    }
    let threads = rayon::current_num_threads().max(1);
    let chunk = (nb / (threads * 8))
        .max(GRAIN.div_ceil(per_b.max(1)))
        .max(1);
    (0..nb.div_ceil(chunk))
        .into_par_iter()
        .try_for_each(|c| work(c * chunk, ((c + 1) * chunk).min(nb)))
}

/// Batch positions whose offsets are worked out together.
const BLOCK: usize = 256;
/// How many slices ahead of the copy the prefetch runs.
const AHEAD: usize = 4;

/// Asks the cache for the first `bytes` (at most 4 KiB) at `p`; never faults.
#[inline]
fn prefetch(p: *const u8, bytes: usize) {
    #[cfg(target_arch = "x86_64")]
    for line in (0..bytes.min(4096)).step_by(64) {
        // SAFETY: prefetch is a hint; it does not fault on any address.
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                p.wrapping_add(line) as *const i8,
                std::arch::x86_64::_MM_HINT_T0,
            )
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, bytes);
}

/// Copies one run: a memcpy when both sides are contiguous.
///
/// # Safety
/// `src` and `dst` must be valid for the run's elements at its strides.
#[inline]
unsafe fn copy_run<T: Copy>(src: *const T, dst: *mut T, (n, si, so): Run) {
    // SAFETY: the caller's contract: both pointers are valid for the run.
    unsafe {
        if si == 1 && so == 1 {
            std::ptr::copy_nonoverlapping(src, dst, n);
        } else {
            for t in 0..n as isize {
                *dst.offset(t * so) = *src.offset(t * si);
            }
        }
    }
}
