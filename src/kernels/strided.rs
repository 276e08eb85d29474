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

use crate::value::Nd;
use ndarray::{ArrayD, IxDyn};
use rayon::prelude::*;
use std::marker::PhantomData;
use std::mem::MaybeUninit;

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
    // Walk from the minor dimension outwards, skipping size-1 dims and merging a dim
    // into the run inside it when every operand steps through both as one.
    let mut dims: Vec<usize> = Vec::new();
    let mut st: [Vec<isize>; N] = std::array::from_fn(|_| Vec::new());
    for d in (0..out_dims.len()).rev() {
        let size = out_dims[d];
        if size == 1 {
            continue;
        }
        if let Some(&inner) = dims.last() {
            let k = dims.len() - 1;
            let mergeable = (0..N).all(|o| strides[o][d] == st[o][k] * inner as isize);
            if mergeable {
                dims[k] = inner * size;
                continue;
            }
        }
        dims.push(size);
        for o in 0..N {
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
    Plan { dims, strides: st }
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

/// Fills `n` output elements by calling `run(out_slice, offsets, inner_strides)` on
/// each inner run, serially or with rayon, and returns them as an array of `out_dims`.
fn drive<O: Send, const N: usize>(
    out_dims: &[usize],
    strides: [&[isize]; N],
    run: impl Fn(&mut [MaybeUninit<O>], [isize; N], [isize; N]) + Sync,
) -> ArrayD<O> {
    let n: usize = out_dims.iter().product();
    let mut out: Vec<O> = super::alloc::output_vec(n);
    if n > 0 {
        let plan = plan(out_dims, strides);
        let fill =
            |start: usize, chunk: &mut [MaybeUninit<O>]| walk_runs(&plan, start, chunk, &run);
        let buf = &mut out.spare_capacity_mut()[..n];
        if n < GRAIN {
            fill(0, buf);
        } else {
            let threads = rayon::current_num_threads().max(1);
            let chunk = (n / (threads * 8)).max(GRAIN / 2);
            buf.par_chunks_mut(chunk)
                .enumerate()
                .for_each(|(i, c)| fill(i * chunk, c));
        }
        // SAFETY: `fill` wrote every one of the n elements exactly once.
        unsafe { out.set_len(n) };
    }
    // The element count matches the shape by construction.
    ArrayD::from_shape_vec(IxDyn(out_dims), out).unwrap_or_else(|_| unreachable!())
}

/// `out[i] = f(a[i])` over the output dims.
pub fn map1<A: Copy + Sync, O: Send>(
    out_dims: &[usize],
    a: &Src<A>,
    f: impl Fn(A) -> O + Sync,
) -> ArrayD<O> {
    drive(out_dims, [&a.strides], |out, [oa], [sa]| unsafe {
        let pa = a.ptr.offset(oa);
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
) -> ArrayD<O> {
    drive(
        out_dims,
        [&a.strides, &b.strides],
        |out, [oa, ob], [sa, sb]| unsafe {
            let (pa, pb) = (a.ptr.offset(oa), b.ptr.offset(ob));
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
) -> ArrayD<O> {
    drive(
        out_dims,
        [&a.strides, &b.strides, &c.strides],
        |out, [oa, ob, oc], [sa, sb, sc]| unsafe {
            let (pa, pb, pc) = (a.ptr.offset(oa), b.ptr.offset(ob), c.ptr.offset(oc));
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

/// Copies a view into a fresh row-major array.
pub fn materialize<T: Copy + Send + Sync>(out_dims: &[usize], a: &Src<T>) -> ArrayD<T> {
    super::transpose_copy::copy(out_dims, a)
}

impl<T> Src<'_, T> {
    pub(crate) fn ptr(&self) -> *const T {
        self.ptr
    }
    pub(crate) fn strides(&self) -> &[isize] {
        &self.strides
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
        let fast = map2(out, a, b, |x, y| x * 1000 + y);
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
    }

    #[test]
    fn coalescing_merges_contiguous_dims() {
        let p = plan(&[4, 5, 6], [&[30, 6, 1], &[0, 6, 1]]);
        assert_eq!(p.dims, vec![4, 30]);
        let p = plan(&[4, 1, 6], [&[6, 6, 1]]);
        assert_eq!(p.dims, vec![24]);
    }
}
