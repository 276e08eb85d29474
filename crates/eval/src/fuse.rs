//! Fusing trees of elementwise ops into one pass (spec/performance.md).
//!
//! When an elementwise op's operand is itself an elementwise op of the same
//! output shape (placed without broadcasting), the two need not meet in
//! memory: the evaluator flattens such a tree into steps, evaluates the
//! non-elementwise operands (the leaves) normally, and then runs every step on
//! one chunk of the output at a time, in parallel over chunks. Leaves are read
//! through their stride-0 broadcast views. Results are bit-identical to the
//! unfused evaluation: each element goes through the same functions in the
//! same order.

use ndarray::{ArrayD, IxDyn};
use rayon::prelude::*;
use std::mem::MaybeUninit;
use xlet_core::value::{Array, Value};
use xlet_ir::{self as ir, ExprKind, KernelError};
use xlet_kernels::GRAIN;
use xlet_kernels::fused::{
    CHUNK, Chunk, ChunkElem, ElementwiseKernel, LeafFill, Slice, empty_chunk, leaf,
};
use xlet_kernels::strided::{Check, OutPtr, Tiling, stream};

enum Input {
    Leaf(usize),
    Step(usize),
}

struct Step<'e> {
    k: &'e ElementwiseKernel,
    inputs: Vec<Input>,
}

/// A flattened tree: steps in post-order (the root last) and the leaf expressions
/// with the map that places each in the output.
pub struct Plan<'e> {
    steps: Vec<Step<'e>>,
    pub leaves: Vec<(&'e ir::Expr, Vec<usize>)>,
}

fn is_identity(map: &[usize], rank: usize) -> bool {
    map.len() == rank && map.iter().enumerate().all(|(i, &d)| i == d)
}

/// The fusion plan rooted at `k` applied to `args`, if at least one operand fuses.
pub fn plan<'e>(k: &'e ElementwiseKernel, args: &'e [ir::Expr]) -> Option<Plan<'e>> {
    // Most ops have no fusable operand: say so before allocating anything.
    let fusable = args.iter().zip(&k.maps).any(|(a, map)| match &a.kind {
        ExprKind::Op { kernel, .. } => kernel
            .as_elementwise()
            .is_some_and(|sk| sk.out_dims == k.out_dims && is_identity(map, k.out_dims.len())),
        _ => false,
    });
    if !fusable {
        return None;
    }
    let mut p = Plan {
        steps: vec![],
        leaves: vec![],
    };
    add(&mut p, k, args);
    (p.steps.len() > 1).then_some(p)
}

fn add<'e>(p: &mut Plan<'e>, k: &'e ElementwiseKernel, args: &'e [ir::Expr]) -> usize {
    let mut inputs = Vec::with_capacity(args.len());
    for (a, map) in args.iter().zip(&k.maps) {
        if let ExprKind::Op {
            kernel, args: sub, ..
        } = &a.kind
            && let Some(sk) = kernel.as_elementwise()
            && sk.out_dims == k.out_dims
            && is_identity(map, k.out_dims.len())
        {
            inputs.push(Input::Step(add(p, sk, sub)));
            continue;
        }
        p.leaves.push((a, map.clone()));
        inputs.push(Input::Leaf(p.leaves.len() - 1));
    }
    p.steps.push(Step { k, inputs });
    p.steps.len() - 1
}

fn internal() -> KernelError {
    KernelError::new("internal", "internal error: malformed fusion plan")
}

/// Runs a plan on the leaves' values (in `plan.leaves` order).
pub fn run(plan: &Plan, leaf_values: &[Value]) -> Result<Array, KernelError> {
    let root = plan.steps.last().ok_or_else(internal)?;
    let out_dims = root.k.out_dims.clone();
    let mut leaves: Vec<(Box<dyn LeafFill + '_>, xlet_core::types::ElemType)> = vec![];
    for ((_, map), v) in plan.leaves.iter().zip(leaf_values) {
        let a = v.as_array().ok_or_else(internal)?;
        leaves.push((leaf(a, map, &out_dims)?, a.elem()));
    }
    xlet_core::with_elem_type!(root.k.out_elem, O => run_typed::<O>(&plan.steps, &leaves, &out_dims))
}

type Leaves<'a> = [(Box<dyn LeafFill + 'a>, xlet_core::types::ElemType)];

/// Output elements per pass of the steps in the row-order walk. Leaves are
/// fetched a `CHUNK` at a time, but the steps run on a few hundred elements at
/// a time, so that steps that read memory (the leaves) and steps that only
/// compute (a `Tanh`) alternate quickly and the hardware prefetcher keeps the
/// leaves' streams going through the arithmetic: `Tanh(X * Y + Z)` on
/// f32[4096x4096] went from 35.5 to 33.1 ms on Zen 1, `Neg(X) * Y` from 12.9 to
/// 10.3 ms (spec/performance.md §6.4).
const PASS: usize = 256;

/// Steps take at most this many operands without a heap allocation per pass
/// (every elementwise op has at most three).
const STACK_INPUTS: usize = 4;

/// Runs every step on output elements `at..at + len` of the chunk whose leaf
/// inputs are `leaf_slices`; the root's result is left in the last of `step_bufs`.
/// Nothing here allocates (per-pass allocations would meet the accounting
/// allocator's shared counter on every core).
fn run_steps(
    steps: &[Step],
    leaf_slices: &[Slice],
    at: usize,
    len: usize,
    step_bufs: &mut [Chunk],
) -> Result<(), KernelError> {
    for (j, st) in steps.iter().enumerate() {
        // Post-order: a step's inputs are leaves or earlier steps.
        let (done, rest) = step_bufs.split_at_mut(j);
        let out = rest.first_mut().ok_or_else(internal)?;
        let input = |inp: &Input| match inp {
            Input::Leaf(i) => leaf_slices
                .get(*i)
                .and_then(|s| s.sub(at, len))
                .ok_or_else(internal),
            Input::Step(k) => done.get(*k).map(Chunk::as_slice).ok_or_else(internal),
        };
        let n = st.inputs.len();
        if n <= STACK_INPUTS {
            let mut ins = [Slice::Pred(&[]); STACK_INPUTS];
            for (slot, inp) in ins.iter_mut().zip(&st.inputs) {
                *slot = input(inp)?;
            }
            st.k.f.run_chunk(&ins[..n], out)?;
        } else {
            let ins = st.inputs.iter().map(input).collect::<Result<Vec<_>, _>>()?;
            st.k.f.run_chunk(&ins, out)?;
        }
    }
    Ok(())
}

fn buffers(steps: &[Step], leaves: &Leaves) -> (Vec<Chunk>, Vec<Chunk>) {
    (
        leaves.iter().map(|(_, e)| empty_chunk(*e)).collect(),
        steps.iter().map(|s| empty_chunk(s.k.out_elem)).collect(),
    )
}

fn run_typed<O: ChunkElem>(
    steps: &[Step],
    leaves: &Leaves,
    out_dims: &[usize],
) -> Result<Array, KernelError> {
    let n: usize = out_dims.iter().product();
    let mut out: Vec<O> = xlet_core::alloc::try_output_vec(n, &"the result")?;
    let dst = &mut out.spare_capacity_mut()[..n];
    let strides: Vec<&[isize]> = leaves.iter().map(|(l, _)| l.strides()).collect();
    let sizes: Vec<usize> = leaves.iter().map(|(l, _)| l.elem_size()).collect();
    match Tiling::new(out_dims, &strides, &sizes) {
        Some(mut t) if n >= GRAIN => {
            let size = std::mem::size_of::<O>();
            let streamed = stream::worth_it(n * size, t.max_cols() * size);
            if streamed {
                t.visit_in_read_order();
            }
            run_tiled::<O>(steps, leaves, &t, OutPtr(dst.as_mut_ptr()), streamed)?
        }
        _ => run_flat::<O>(steps, leaves, dst)?,
    }
    // SAFETY: every element of `dst` was written above (an error returned before this line).
    unsafe { out.set_len(n) };
    ArrayD::from_shape_vec(IxDyn(out_dims), out)
        .map(Array::from_nd)
        .map_err(|_| internal())
}

/// Chunks of the output in row-major order, each leaf read in place or gathered.
fn run_flat<O: ChunkElem>(
    steps: &[Step],
    leaves: &Leaves,
    dst: &mut [MaybeUninit<O>],
) -> Result<(), KernelError> {
    let n = dst.len();
    let work = |start: usize, dst: &mut [MaybeUninit<O>]| -> Result<(), KernelError> {
        let (mut leaf_bufs, mut step_bufs) = buffers(steps, leaves);
        for (ci, sub) in dst.chunks_mut(CHUNK).enumerate() {
            // Once per chunk of 4096 elements: negligible beside the work on them.
            Check::Interrupts.now()?;
            let s0 = start + ci * CHUNK;
            let leaf_slices = leaves
                .iter()
                .zip(leaf_bufs.iter_mut())
                .map(|((l, _), buf)| l.get(s0, sub.len(), buf))
                .collect::<Result<Vec<Slice>, _>>()?;
            for (pi, part) in sub.chunks_mut(PASS).enumerate() {
                run_steps(steps, &leaf_slices, pi * PASS, part.len(), &mut step_bufs)?;
                let result = step_bufs
                    .last()
                    .and_then(|c| O::chunk(c))
                    .ok_or_else(internal)?;
                if result.len() != part.len() {
                    return Err(internal());
                }
                for (d, &x) in part.iter_mut().zip(result) {
                    d.write(x);
                }
            }
        }
        Ok(())
    };
    if n < GRAIN {
        work(0, dst)
    } else {
        let threads = rayon::current_num_threads().max(1);
        let big = (n / (threads * 8)).max(GRAIN).div_ceil(CHUNK) * CHUNK;
        dst.par_chunks_mut(big)
            .enumerate()
            .try_for_each(|(i, c)| work(i * big, c))
    }
}

/// Blocks of a `Tiling` (some leaf is read across its rows, e.g. a transposed
/// view): each leaf's block is gathered into a chunk in block order, every step
/// runs on it, and the result goes out a block row at a time (with streaming
/// stores when `streamed`, see `stream`).
fn run_tiled<O: ChunkElem>(
    steps: &[Step],
    leaves: &Leaves,
    t: &Tiling,
    out: OutPtr<MaybeUninit<O>>,
    streamed: bool,
) -> Result<(), KernelError> {
    t.for_each_block(
        Check::Interrupts,
        || buffers(steps, leaves),
        |(leaf_bufs, step_bufs), b| {
            let out = out;
            let mut offs = vec![0isize; leaves.len()];
            let (out_off, rows, cols) = t.block(b, &mut offs);
            let leaf_slices = leaves
                .iter()
                .zip(leaf_bufs.iter_mut())
                .enumerate()
                .map(|(o, ((l, _), buf))| {
                    l.tile(offs[o], rows, cols, t.row_stride(o), t.col_stride(o), buf)
                })
                .collect::<Result<Vec<Slice>, _>>()?;
            run_steps(steps, &leaf_slices, 0, rows * cols, step_bufs)?;
            let result = step_bufs
                .last()
                .and_then(|c| O::chunk(c))
                .ok_or_else(internal)?;
            if result.len() != rows * cols {
                return Err(internal());
            }
            for (r, row) in result.chunks(cols).enumerate() {
                // SAFETY: block row r is `cols` output elements at this offset, written
                // by this block only.
                let d = unsafe { out.0.add(out_off + r * t.out_row_stride()) };
                if streamed {
                    let bytes = std::mem::size_of_val(row);
                    // SAFETY: as above; `row` is `cols` elements of O.
                    unsafe { stream::copy(d as *mut u8, row.as_ptr() as *const u8, bytes) };
                } else {
                    // SAFETY: as above: `d` starts this block's row of `cols` elements, written only here.
                    let d = unsafe { std::slice::from_raw_parts_mut(d, cols) };
                    for (d, &x) in d.iter_mut().zip(row) {
                        d.write(x);
                    }
                }
            }
            if streamed {
                stream::fence();
            }
            Ok(())
        },
    )
}
