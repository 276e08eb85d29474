//! What gather's checking rule fixed for its kernel and its gradient rule.

use crate::index_dims::IndexSpace;

/// What the shape rule fixed: shapes and dimension numbers, checked.
#[derive(Clone, Debug)]
pub struct Plan {
    pub space: IndexSpace,
    pub operand_dims: Vec<usize>,
    pub slice_sizes: Vec<usize>,
    /// Result dimensions that index into the slice, ascending.
    pub offset_dims: Vec<usize>,
    /// The operand dimension of each offset dimension (ascending).
    pub kept: Vec<usize>,
    /// Result dimensions that are batch dimensions, ascending.
    pub batch_out: Vec<usize>,
    pub result_dims: Vec<usize>,
}

impl Plan {
    pub fn new(
        space: IndexSpace,
        operand_dims: Vec<usize>,
        slice_sizes: Vec<usize>,
        offset_dims: Vec<usize>,
        kept: Vec<usize>,
    ) -> Plan {
        let batch = space.batch_dims();
        let rank = batch.len() + offset_dims.len();
        let batch_out: Vec<usize> = (0..rank).filter(|d| !offset_dims.contains(d)).collect();
        let mut result_dims = vec![0; rank];
        for (&r, &n) in batch_out.iter().zip(&batch) {
            result_dims[r] = n;
        }
        for (&r, &d) in offset_dims.iter().zip(&kept) {
            result_dims[r] = slice_sizes[d];
        }
        Plan {
            space,
            operand_dims,
            slice_sizes,
            offset_dims,
            kept,
            batch_out,
            result_dims,
        }
    }

    /// The operand start of batch position `bpos`, clamped so that the slice
    /// fits (batching dimensions are in range by C17).
    pub fn clamped_start(&self, idx: &[i64], bpos: &[usize], start: &mut [i64]) {
        self.space.starts(idx, bpos, start);
        for &d in &self.space.start_map {
            let hi = (self.operand_dims[d] - self.slice_sizes[d]) as i64;
            start[d] = start[d].clamp(0, hi);
        }
    }
}
