//! Reading a strided view in output order (the leaves of a fused evaluation).

use super::Src;
use super::plan::{Plan, plan, walk_runs};
use std::mem::MaybeUninit;

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

    pub fn src(&self) -> &Src<'a, T> {
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
