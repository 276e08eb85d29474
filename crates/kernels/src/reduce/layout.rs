//! Where the reduced elements of each output lie, and the copy that puts them
//! in place when they lie nowhere useful.
//!
//! An output's elements are read in row-major order of the reduced dimensions
//! (ascending). With the kept dimensions first and the reduced ones after
//! ("rows") each output's elements are contiguous; with the reduced first
//! ("columns") the outputs are contiguous and each element index is a row of
//! them. An operand in neither layout (mixed dimensions, or a strided view) is
//! first copied into the rows layout.

use crate::{Src, try_materialize};
use ndarray::IxDyn;
use xlet_core::alloc;
use xlet_core::error::KernelError;
use xlet_core::types::ArrayType;
use xlet_core::value::{Elem, Nd};

/// The operand arranged for a kernel: `m` outputs, `n` elements each.
pub enum Layout<T> {
    /// `data[o * n + t]`.
    Rows { data: Nd<T>, m: usize, n: usize },
    /// `data[t * m + o]`.
    Columns { data: Nd<T>, m: usize, n: usize },
}

/// The kept dimensions (in order) and the sizes of the reduced and kept parts.
pub fn split_dims(shape: &[usize], dims: &[usize]) -> (Vec<usize>, usize, usize) {
    let kept: Vec<usize> = (0..shape.len()).filter(|d| !dims.contains(d)).collect();
    let m = kept.iter().map(|&d| shape[d]).product();
    let n = dims.iter().map(|&d| shape[d]).product();
    (kept, m, n)
}

/// Arranges `x` for reducing the dimensions `dims` (ascending, distinct).
/// `allow_columns` false always gives rows (for the whole-array paths).
pub fn arrange<T: Elem + Copy + Send + Sync>(
    x: &Nd<T>,
    dims: &[usize],
    allow_columns: bool,
) -> Result<Layout<T>, KernelError> {
    let (kept, m, n) = split_dims(x.shape(), dims);
    let rows_perm: Vec<usize> = kept.iter().chain(dims).copied().collect();
    let cols_perm: Vec<usize> = dims.iter().chain(&kept).copied().collect();
    let rows = x.clone().permuted_axes(IxDyn(&rows_perm));
    let cols = x.clone().permuted_axes(IxDyn(&cols_perm));
    let rows_ok = rows.as_slice().is_some();
    let cols_ok = allow_columns && cols.as_slice().is_some();
    // When both hold, one side is trivial: a single output reads best as a row,
    // a single element per output as a column.
    if rows_ok && !(cols_ok && n < m) {
        return Ok(Layout::Rows { data: rows, m, n });
    }
    if cols_ok {
        return Ok(Layout::Columns { data: cols, m, n });
    }
    let ty = ArrayType::new(T::ELEM, rows.shape().to_vec());
    alloc::admit(rows.len().saturating_mul(std::mem::size_of::<T>()), &ty)?;
    let copy = try_materialize(rows.shape(), &Src::of(&rows))?.into_shared();
    Ok(Layout::Rows { data: copy, m, n })
}

/// The data of a standard-layout array as a slice (`arrange` only returns such).
pub fn slice<T>(a: &Nd<T>) -> Result<&[T], KernelError> {
    a.as_slice()
        .ok_or_else(|| xlet_core::error::internal("reduction data is not contiguous"))
}
