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
//!
//! The parts: `plan` (coalescing and the row walk), `gather` (reading a view in
//! output order), `tiling` (the tile walk for transposed operands), `transpose`
//! (copying a tile across its rows), `drive` (running a kernel over the output,
//! flat or tiled), `maps` (the typed entry points and their reference forms).

mod drive;
mod gather;
mod maps;
mod plan;
pub mod stream;
#[cfg(test)]
mod tests;
pub mod tiling;
#[cfg(test)]
mod timing;
mod transpose;

pub use gather::Gather;
pub use maps::{
    blocks_from_slice, map1, map1_blocks, map2, map3, reference_map2, reference_map3,
    try_materialize,
};
pub use tiling::Tiling;
pub use transpose::gather_tile;

use std::marker::PhantomData;
use xlet_core::error::KernelError;
use xlet_core::value::Nd;

/// Below this many output elements an op runs on the calling thread.
pub const GRAIN: usize = 32 * 1024;

/// A read-only strided view of an operand over the output's dimensions.
pub struct Src<'a, T> {
    ptr: *const T,
    strides: Vec<isize>,
    /// For each output dimension, how far the operand reaches along it: an
    /// output of sizes within these reads only the operand's own elements
    /// (`usize::MAX` where the stride is 0, a broadcast dimension).
    extents: Vec<usize>,
    _life: PhantomData<&'a T>,
}

// SAFETY: the pointer is only read, `T: Sync` makes reading it from several
// threads sound, and `'a` keeps the storage alive for as long as the view.
unsafe impl<T: Sync> Send for Src<'_, T> {}
// SAFETY: as for `Send`: shared access only reads through the pointer.
unsafe impl<T: Sync> Sync for Src<'_, T> {}

impl<'a, T> Src<'a, T> {
    /// The operand as it is (its dims are the output's dims).
    pub fn of(a: &'a Nd<T>) -> Self {
        Src {
            ptr: a.as_ptr(),
            strides: a.strides().to_vec(),
            extents: a.shape().to_vec(),
            _life: PhantomData,
        }
    }

    /// The operand broadcast into `out_rank` dimensions: operand dimension `i`
    /// becomes output dimension `dim_map[i]`; every other output dimension, and
    /// every operand dimension of size 1, is read with stride 0. The checker has
    /// already proved sizes compatible.
    pub fn broadcast_in_dim(a: &'a Nd<T>, out_rank: usize, dim_map: &[usize]) -> Self {
        let mut strides = vec![0isize; out_rank];
        let mut extents = vec![usize::MAX; out_rank];
        // An operand dimension mapped nowhere, twice, or outside the output
        // would leave elements unread or read out of place: no output fits
        // such a view (all extents 0).
        let mut seen = vec![false; out_rank];
        let mapped = dim_map.len() == a.ndim()
            && dim_map
                .iter()
                .all(|&od| od < out_rank && !std::mem::replace(&mut seen[od], true));
        if mapped {
            for (i, &od) in dim_map.iter().enumerate() {
                if a.shape()[i] != 1 {
                    strides[od] = a.strides()[i];
                    extents[od] = a.shape()[i];
                }
            }
        } else {
            extents = vec![0; out_rank];
        }
        Src {
            ptr: a.as_ptr(),
            strides,
            extents,
            _life: PhantomData,
        }
    }
}

/// Output elements per parallel task: small enough that an interrupt is seen
/// within a millisecond or so of work, large enough that scheduling is noise.
pub const TASK: usize = 1 << 18;

/// True once Ctrl-C was pressed. Kernels check it once per task (see `TASK`),
/// never per element.
#[inline]
pub fn interrupted() -> bool {
    xlet_core::config::interrupted()
}

/// The error every interrupted kernel returns; the evaluator reports it at the op.
pub fn interrupt_error() -> KernelError {
    KernelError::new("interrupted", "interrupted")
}

/// Whether a kernel stops at Ctrl-C. Every kernel does; the type names the
/// check at the places that make it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Check {
    Interrupts,
}

impl Check {
    /// An error when an interrupt is pending.
    #[inline]
    pub fn now(self) -> Result<(), KernelError> {
        if interrupted() {
            Err(interrupt_error())
        } else {
            Ok(())
        }
    }
}

/// A raw output pointer shared by the tasks of one kernel, which write
/// disjoint elements (of an initialised buffer, or of `MaybeUninit` ones).
pub struct OutPtr<O>(pub *mut O);
impl<O> Clone for OutPtr<O> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<O> Copy for OutPtr<O> {}
// SAFETY: each task writes only its own elements (the kernels that share an
// `OutPtr` split the output into disjoint parts), and `O: Send` lets values
// made on one thread be dropped on another.
unsafe impl<O: Send> Send for OutPtr<O> {}
// SAFETY: shared between tasks only to write disjoint elements, as for `Send`.
unsafe impl<O: Send> Sync for OutPtr<O> {}

impl<T> Src<'_, T> {
    /// Whether reading this view over an output of `out_dims` stays within the
    /// operand: the ranks agree and no output dimension is longer than the
    /// operand reaches along it. An empty output reads nothing and always fits.
    pub fn fits(&self, out_dims: &[usize]) -> bool {
        out_dims.len() == self.strides.len()
            && (out_dims.contains(&0) || out_dims.iter().zip(&self.extents).all(|(&n, &e)| n <= e))
    }

    pub fn ptr(&self) -> *const T {
        self.ptr
    }
    pub fn strides(&self) -> &[isize] {
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
