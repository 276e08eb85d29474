//! Reading a strided view in output order (the leaves of a fused evaluation).

use super::Src;
use super::plan::{Plan, plan, walk_runs};
use std::mem::MaybeUninit;
use xlet_core::error::{KernelError, internal};

/// Reads a strided view in output order, a range at a time (the leaves of a fused evaluation).
pub struct Gather<'a, T> {
    src: Src<'a, T>,
    plan: Plan<1>,
}

impl<'a, T: Copy> Gather<'a, T> {
    /// The view read over `out_dims`; an error if it does not fit them (the
    /// reads below trust the plan made here).
    pub fn new(out_dims: &[usize], src: Src<'a, T>) -> Result<Self, KernelError> {
        if !src.fits(out_dims) {
            return Err(internal(
                "a view to gather does not fit the output's dimensions",
            ));
        }
        let plan = plan(out_dims, [&src.strides]);
        Ok(Gather { src, plan })
    }

    pub fn src(&self) -> &Src<'a, T> {
        &self.src
    }

    /// The whole view as one slice, when it is laid out row-major with no gaps or
    /// broadcasting (so output element i is storage element i).
    pub fn contiguous(&self) -> Option<&'a [T]> {
        match (self.plan.dims.as_slice(), self.plan.strides[0].as_slice()) {
            // SAFETY: the view fits the output (`new`), and a plan of one
            // dimension of stride 1 reads `n` consecutive elements of it.
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
            // SAFETY: `walk_runs` hands each run's offset and stride from the
            // plan, which covers the output `new` checked the view fits.
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
