//! The checked shape of one convolution, in canonical order: lhs
//! [batch, feature, spatial...], kernel [output feature, input feature,
//! spatial...], result [batch, feature, spatial...]. The dimension numbers say
//! how the user's arrays map onto these; kernels work on canonical views.

use super::dims::DimNums;

#[derive(Clone, Debug)]
pub struct Geometry {
    pub dn: DimNums,
    /// lhs batch and feature sizes.
    pub batch: usize,
    pub in_features: usize,
    /// kernel output-feature and input-feature sizes.
    pub out_features: usize,
    pub kernel_in_features: usize,
    pub in_spatial: Vec<usize>,
    pub kernel_spatial: Vec<usize>,
    pub out_spatial: Vec<usize>,
    pub strides: Vec<usize>,
    /// (low, high) per spatial dimension; negative removes elements.
    pub padding: Vec<(i64, i64)>,
    pub lhs_dilation: Vec<usize>,
    pub rhs_dilation: Vec<usize>,
    pub feature_groups: usize,
    pub batch_groups: usize,
}

/// (d - 1)·k + 1, or 0 for d = 0: the size of `d` elements with k - 1 holes between neighbours.
pub fn dilated(d: usize, k: usize) -> Option<usize> {
    if d == 0 {
        return Some(0);
    }
    (d - 1).checked_mul(k)?.checked_add(1)
}

/// Per spatial dimension: the padded, dilated input size (may be negative when
/// negative padding removes more than there is) and the dilated window size.
pub fn padded_and_window(
    input: usize,
    window: usize,
    (lo, hi): (i64, i64),
    lhs_dil: usize,
    rhs_dil: usize,
) -> Option<(i64, i64)> {
    // In i128: `d + lo` may leave i64 where `d + lo + hi` does not.
    let d = dilated(input, lhs_dil)? as i128;
    let padded = i64::try_from(d + lo as i128 + hi as i128).ok()?;
    let w = i64::try_from(dilated(window, rhs_dil)?).ok()?;
    Some((padded, w))
}

/// The number of window positions: 0 when the padded input is empty (or the
/// window does not fit), else (padded - window) / stride + 1.
pub fn windows(padded: i64, window: i64, stride: usize) -> usize {
    if padded <= 0 || window > padded {
        return 0;
    }
    ((padded - window) as u64 / stride.max(1) as u64) as usize + 1
}

/// XLA's SAME padding for one spatial dimension (`MakePadding`): the output has
/// ceil(input / stride) elements, and the padding that takes, max(0, (out - 1)·stride
/// + dilated window - input), is split with the smaller half low.
pub fn same_padding(
    input: usize,
    window: usize,
    stride: usize,
    rhs_dil: usize,
) -> Option<(i64, i64)> {
    let w = dilated(window, rhs_dil)?;
    let out = input.div_ceil(stride.max(1));
    let needed = out
        .saturating_sub(1)
        .checked_mul(stride)?
        .checked_add(w)?
        .saturating_sub(input);
    let lo = i64::try_from(needed / 2).ok()?;
    let hi = i64::try_from(needed - needed / 2).ok()?;
    Some((lo, hi))
}

impl Geometry {
    pub fn spatial_rank(&self) -> usize {
        self.in_spatial.len()
    }
    /// Result batch size: lhs batch / batch_group_count.
    pub fn out_batch(&self) -> usize {
        self.batch / self.batch_groups.max(1)
    }
    /// Kernel (and result) features per group, and input features per group.
    pub fn groups(&self) -> usize {
        self.feature_groups.max(self.batch_groups).max(1)
    }
    pub fn out_per_group(&self) -> usize {
        self.out_features / self.groups()
    }
    /// The result dimensions in the order the output dimension numbers give.
    pub fn out_dims(&self) -> Vec<usize> {
        let rank = self.spatial_rank() + 2;
        let mut d = vec![0; rank];
        d[self.dn.out.batch] = self.out_batch();
        d[self.dn.out.feature] = self.out_features;
        for (i, &s) in self.dn.out.spatial.iter().enumerate() {
            d[s] = self.out_spatial[i];
        }
        d
    }
    /// The canonical result [batch, feature, spatial...] dimensions.
    pub fn canonical_out_dims(&self) -> Vec<usize> {
        let mut d = vec![self.out_batch(), self.out_features];
        d.extend(&self.out_spatial);
        d
    }
    /// Window positions per output element: kernel input features × window size.
    pub fn reduction_size(&self) -> usize {
        self.kernel_in_features * self.kernel_spatial.iter().product::<usize>()
    }
    /// For output (batch b, feature o): the lhs batch index and the first lhs
    /// feature its group reads (StableHLO: feature groups split lhs features and
    /// kernel output features; batch groups split lhs batch and kernel output features).
    pub fn source(&self, b: usize, o: usize) -> (usize, usize) {
        let g = o / self.out_per_group().max(1);
        if self.batch_groups > 1 {
            (g * self.out_batch() + b, 0)
        } else {
            (b, g * self.kernel_in_features)
        }
    }
}

/// Advances a row-major multi-index over `dims`; false after the last.
pub fn next_index(idx: &mut [usize], dims: &[usize]) -> bool {
    for d in (0..idx.len()).rev() {
        idx[d] += 1;
        if idx[d] < dims[d] {
            return true;
        }
        idx[d] = 0;
    }
    false
}
