//! The whole-array path: the comp (compiled for whole arrays, e.g.
//! `comp::Vectorized`) is applied to arrays holding one value per output, per
//! block and per lane, so a reduction costs a few dozen comp applications
//! whatever its size, and still follows the one order of `order.rs`:
//!
//! - full blocks: the rows `[m, n]` viewed as `[m, blocks, 16 steps, 16 lanes]`;
//!   16 lane steps `acc = f(acc, x[:, :, j, :])`, then the lane tree by halves;
//! - the partial last block the same way with fewer active lanes;
//! - the block tree by pairing along the block axis, level by level;
//! - finally `f(init, tree)`.
//!
//! `f` takes the N accumulators then the N elements (as a variadic comp does)
//! and returns N arrays. Every array it gets is row-major.

use super::order::{BLOCK, LANES};
use ndarray::{Axis, IxDyn, Slice};
use xlet_core::error::KernelError;
use xlet_core::error::internal;
use xlet_core::value::{Array, Elem, Nd};
use xlet_core::with_array;

/// The combining function on whole arrays: `f(accs ++ elems) -> results`.
pub type ArrayFn<'a> = dyn FnMut(&[Array]) -> Result<Vec<Array>, KernelError> + 'a;

fn slice_nd<T: Elem>(a: &Nd<T>, axis: usize, start: usize, end: usize, step: usize) -> Array {
    let mut c = a.clone();
    c.slice_axis_inplace(
        Axis(axis),
        Slice::new(start as isize, Some(end as isize), step as isize),
    );
    T::wrap(c)
}

/// `a[..., start:end:step, ...]` along `axis` (a view).
pub fn slice(a: &Array, axis: usize, start: usize, end: usize, step: usize) -> Array {
    with_array!(a, v => slice_nd(v, axis, start, end, step))
}

fn standard_nd<T: Elem>(a: &Nd<T>) -> Result<Array, KernelError> {
    Ok(T::wrap(crate::contiguous(a.clone())?))
}

/// The array in row-major layout (a copy when it is a strided view).
pub fn standard(a: &Array) -> Result<Array, KernelError> {
    with_array!(a, v => standard_nd(v))
}

fn reshape_nd<T: Elem>(a: &Nd<T>, dims: &[usize]) -> Result<Array, KernelError> {
    let c = crate::contiguous(a.clone())?;
    c.into_shape_with_order(IxDyn(dims))
        .map(T::wrap)
        .map_err(|_| internal("reshape in a whole-array reduction"))
}

pub fn reshape(a: &Array, dims: &[usize]) -> Result<Array, KernelError> {
    with_array!(a, v => reshape_nd(v, dims))
}

fn concat_nd<T: Elem>(first: &Nd<T>, rest: &[Array], axis: usize) -> Result<Array, KernelError> {
    let mut views = vec![first.view()];
    for r in rest {
        views.push(
            T::unwrap(r)
                .ok_or_else(|| internal("mixed element types"))?
                .view(),
        );
    }
    ndarray::concatenate(Axis(axis), &views)
        .map(|a| T::wrap(a.into_shared()))
        .map_err(|_| internal("concatenate in a whole-array reduction"))
}

/// Joins arrays of one element type along `axis` (a copy).
pub fn concat(parts: &[Array], axis: usize) -> Result<Array, KernelError> {
    let (first, rest) = parts
        .split_first()
        .ok_or_else(|| internal("nothing to join"))?;
    with_array!(first, v => concat_nd(v, rest, axis))
}

fn apply(f: &mut ArrayFn, accs: &[Array], elems: &[Array]) -> Result<Vec<Array>, KernelError> {
    let args: Vec<Array> = accs
        .iter()
        .chain(elems)
        .map(standard)
        .collect::<Result<_, _>>()?;
    let out = f(&args)?;
    if out.len() != accs.len() {
        return Err(internal("the comp returned the wrong number of results"));
    }
    Ok(out)
}

/// Level-by-level pairing along `axis` of N parallel arrays holding `c` nodes there.
fn pair_along(
    f: &mut ArrayFn,
    mut nodes: Vec<Array>,
    axis: usize,
) -> Result<Vec<Array>, KernelError> {
    let mut c = nodes[0].dims()[axis];
    while c > 1 {
        let h = c / 2;
        let left: Vec<Array> = nodes.iter().map(|a| slice(a, axis, 0, 2 * h, 2)).collect();
        let right: Vec<Array> = nodes.iter().map(|a| slice(a, axis, 1, 2 * h, 2)).collect();
        let mut paired = apply(f, &left, &right)?;
        if c % 2 == 1 {
            // The unpaired last node moves up unchanged.
            paired = paired
                .iter()
                .zip(&nodes)
                .map(|(p, a)| concat(&[p.clone(), slice(a, axis, c - 1, c, 1)], axis))
                .collect::<Result<_, _>>()?;
        }
        nodes = paired;
        c = c.div_ceil(2);
    }
    Ok(nodes)
}

/// The lane folds and lane tree of blocks laid out as `[m, blocks, len]` (len <= 256):
/// returns `[m, blocks, 1]`.
fn blocks(f: &mut ArrayFn, xs: &[Array], len: usize) -> Result<Vec<Array>, KernelError> {
    let lanes = len.min(LANES);
    let mut acc: Vec<Array> = xs.iter().map(|x| slice(x, 2, 0, lanes, 1)).collect();
    let mut j = 1;
    while j * LANES < len {
        let active = (len - j * LANES).min(LANES);
        let step: Vec<Array> = xs
            .iter()
            .map(|x| slice(x, 2, j * LANES, j * LANES + active, 1))
            .collect();
        let head: Vec<Array> = acc.iter().map(|a| slice(a, 2, 0, active, 1)).collect();
        let mut next = apply(f, &head, &step)?;
        if active < lanes {
            next = next
                .iter()
                .zip(&acc)
                .map(|(n, a)| concat(&[n.clone(), slice(a, 2, active, lanes, 1)], 2))
                .collect::<Result<_, _>>()?;
        }
        acc = next;
        j += 1;
    }
    pair_along(f, acc, 2)
}

/// Reduces N operands, each rows `[m, n]` (same shape), with inits (rank 0):
/// returns N arrays `[m]`.
pub fn reduce_rows(
    xs: &[Array],
    inits: &[Array],
    m: usize,
    n: usize,
    f: &mut ArrayFn,
) -> Result<Vec<Array>, KernelError> {
    if n == 0 || m == 0 {
        return inits
            .iter()
            .map(|i| broadcast_scalar(i, m))
            .collect::<Result<_, _>>();
    }
    let full = n / BLOCK;
    let tail = n % BLOCK;
    let mut parts: Vec<Vec<Array>> = vec![];
    if full > 0 {
        let body: Vec<Array> = xs
            .iter()
            .map(|x| reshape(&slice(x, 1, 0, full * BLOCK, 1), &[m, full, BLOCK]))
            .collect::<Result<_, _>>()?;
        parts.push(blocks(f, &body, BLOCK)?);
    }
    if tail > 0 {
        let t: Vec<Array> = xs
            .iter()
            .map(|x| reshape(&slice(x, 1, full * BLOCK, n, 1), &[m, 1, tail]))
            .collect::<Result<_, _>>()?;
        parts.push(blocks(f, &t, tail)?);
    }
    // [m, blocks, 1] per operand, the partial block last.
    let all: Vec<Array> = (0..xs.len())
        .map(|i| {
            let ps: Vec<Array> = parts.iter().map(|p| p[i].clone()).collect();
            if ps.len() == 1 {
                Ok(ps[0].clone())
            } else {
                concat(&ps, 1)
            }
        })
        .collect::<Result<_, _>>()?;
    let tree = pair_along(f, all, 1)?;
    let tree: Vec<Array> = tree
        .iter()
        .map(|t| reshape(t, &[m]))
        .collect::<Result<_, _>>()?;
    let inits_b: Vec<Array> = inits
        .iter()
        .map(|i| broadcast_scalar(i, m))
        .collect::<Result<_, _>>()?;
    apply(f, &inits_b, &tree)
}

fn broadcast_nd<T: Elem>(a: &Nd<T>, m: usize) -> Result<Array, KernelError> {
    let v = a
        .iter()
        .next()
        .copied()
        .ok_or_else(|| internal("empty init value"))?;
    Ok(T::wrap(Nd::from_elem(IxDyn(&[m]), v)))
}

/// A rank-1 array of `m` copies of a scalar's value.
pub fn broadcast_scalar(a: &Array, m: usize) -> Result<Array, KernelError> {
    with_array!(a, v => broadcast_nd(v, m))
}
