//! The typed entry points (`map1`, `map2`, `map3`, `try_materialize`) and the
//! reference forms the tests hold them against.

use super::drive::drive;
use super::{Check, Src};
use ndarray::{ArrayD, IxDyn};
use std::mem::MaybeUninit;
use xlet_core::error::{KernelError, internal};

/// The views must fit the output before the engine reads through them: the
/// check that makes these functions safe to call with any arguments.
fn all_fit(fits: &[bool]) -> Result<(), KernelError> {
    if fits.iter().all(|&f| f) {
        Ok(())
    } else {
        Err(internal(
            "an operand view does not fit the output's dimensions",
        ))
    }
}

/// `out[i] = f(a[i])` over the output dims.
pub fn map1<A: Copy + Sync, O: Send>(
    out_dims: &[usize],
    a: &Src<A>,
    f: impl Fn(A) -> O + Sync,
) -> Result<ArrayD<O>, KernelError> {
    all_fit(&[a.fits(out_dims)])?;
    drive(
        out_dims,
        [a.erased()],
        Check::Interrupts,
        // SAFETY: `drive` calls this with `out` the run's output elements and,
        // for each view, a pointer to the run's first element and its stride in
        // the run; `all_fit` checked above that every element read is within
        // the view's operand, which the borrow of `a` keeps alive.
        |out, [pa], [sa]| unsafe {
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
        },
    )
}

/// `out[i] = g(block)[lane]` over the output dims, where `g` maps `L` operand
/// elements at a time to `L` results lane for lane (a function written for the
/// auto-vectorizer); see [`blocks_from_slice`] for the short last block.
pub fn map1_blocks<A: Copy + Sync, O: Send, const L: usize>(
    out_dims: &[usize],
    a: &Src<A>,
    g: impl Fn(&[A; L]) -> [O; L] + Sync,
) -> Result<ArrayD<O>, KernelError> {
    all_fit(&[a.fits(out_dims)])?;
    drive(
        out_dims,
        [a.erased()],
        Check::Interrupts,
        // SAFETY: `drive` calls this with `out` the run's output elements and,
        // for each view, a pointer to the run's first element and its stride in
        // the run; `all_fit` checked above that every element read is within
        // the view's operand, which the borrow of `a` keeps alive.
        |out, [pa], [sa]| unsafe {
            let pa = pa as *const A;
            if sa == 1 {
                blocks_from_slice(std::slice::from_raw_parts(pa, out.len()), out, &g);
            } else {
                for (b, o) in out.chunks_mut(L).enumerate() {
                    let (first, last) = (b * L, o.len().saturating_sub(1));
                    let x: [A; L] =
                        std::array::from_fn(|i| *pa.offset((first + i.min(last)) as isize * sa));
                    put_block(o, g(&x));
                }
            }
        },
    )
}

/// `out[i] = g(block)[lane]` over `xs` (of `out`'s length), `L` elements at a
/// time; the last, shorter block is padded with copies of its last element,
/// whose results are dropped. Every slot of `out` is written when `xs` is as
/// long as `out`.
#[inline(always)]
pub fn blocks_from_slice<A: Copy, O, const L: usize>(
    xs: &[A],
    out: &mut [MaybeUninit<O>],
    g: &impl Fn(&[A; L]) -> [O; L],
) {
    let mut ins = xs.chunks_exact(L);
    let mut outs = out.chunks_exact_mut(L);
    for (x, o) in (&mut ins).zip(&mut outs) {
        if let Ok(x) = <&[A; L]>::try_from(x) {
            put_block(o, g(x));
        }
    }
    let (x, o) = (ins.remainder(), outs.into_remainder());
    if let Some(&last) = x.last() {
        let padded: [A; L] = std::array::from_fn(|i| x.get(i).copied().unwrap_or(last));
        put_block(o, g(&padded));
    }
}

#[inline(always)]
fn put_block<O, const L: usize>(o: &mut [MaybeUninit<O>], r: [O; L]) {
    for (d, v) in o.iter_mut().zip(r) {
        d.write(v);
    }
}

/// `out[i] = f(a[i], b[i])` over the output dims.
pub fn map2<A: Copy + Sync, B: Copy + Sync, O: Send>(
    out_dims: &[usize],
    a: &Src<A>,
    b: &Src<B>,
    f: impl Fn(A, B) -> O + Sync,
) -> Result<ArrayD<O>, KernelError> {
    all_fit(&[a.fits(out_dims), b.fits(out_dims)])?;
    drive(
        out_dims,
        [a.erased(), b.erased()],
        Check::Interrupts,
        // SAFETY: `drive` calls this with `out` the run's output elements and,
        // for each view, a pointer to the run's first element and its stride in
        // the run; `all_fit` checked above that every element read is within
        // the view's operand, which the borrow of `a` and `b` keeps alive.
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
    all_fit(&[a.fits(out_dims), b.fits(out_dims), c.fits(out_dims)])?;
    drive(
        out_dims,
        [a.erased(), b.erased(), c.erased()],
        Check::Interrupts,
        // SAFETY: `drive` calls this with `out` the run's output elements and,
        // for each view, a pointer to the run's first element and its stride in
        // the run; `all_fit` checked above that every element read is within
        // the view's operand, which the borrow of `a`, `b` and `c` keeps alive.
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
) -> Result<ArrayD<O>, KernelError> {
    all_fit(&[a.fits(out_dims), b.fits(out_dims)])?;
    Ok(ArrayD::from_shape_fn(IxDyn(out_dims), |ix| {
        let (mut oa, mut ob) = (0isize, 0isize);
        for d in 0..out_dims.len() {
            oa += ix[d] as isize * a.strides[d];
            ob += ix[d] as isize * b.strides[d];
        }
        // SAFETY: the views fit the output (checked above), so each offset is
        // an element of its operand.
        unsafe { f(*a.ptr.offset(oa), *b.ptr.offset(ob)) }
    }))
}

/// The reference form of `map3` (see `reference_map2`).
pub fn reference_map3<A: Copy, B: Copy, C: Copy, O>(
    out_dims: &[usize],
    a: &Src<A>,
    b: &Src<B>,
    c: &Src<C>,
    f: impl Fn(A, B, C) -> O,
) -> Result<ArrayD<O>, KernelError> {
    all_fit(&[a.fits(out_dims), b.fits(out_dims), c.fits(out_dims)])?;
    Ok(ArrayD::from_shape_fn(IxDyn(out_dims), |ix| {
        let (mut oa, mut ob, mut oc) = (0isize, 0isize, 0isize);
        for d in 0..out_dims.len() {
            oa += ix[d] as isize * a.strides[d];
            ob += ix[d] as isize * b.strides[d];
            oc += ix[d] as isize * c.strides[d];
        }
        // SAFETY: as in `reference_map2`.
        unsafe { f(*a.ptr.offset(oa), *b.ptr.offset(ob), *c.ptr.offset(oc)) }
    }))
}

/// Copies a view into a fresh row-major array; stops with an error at Ctrl-C.
pub fn try_materialize<T: Copy + Send + Sync>(
    out_dims: &[usize],
    a: &Src<T>,
) -> Result<ArrayD<T>, KernelError> {
    map1(out_dims, a, |x| x)
}
