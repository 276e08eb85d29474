//! Where one feature's elements are: the operand seen as (o, l, i), with `l`
//! the index along the feature dimension, `o` the row-major index over the
//! dimensions before it and `i` over those after it. Each source array (the
//! operand, and for BatchNormGrad `grad_output`) has the same shape and its own
//! strides, so transposed, sliced and broadcast views are read in place.

/// Source arrays read side by side (operand, grad_output).
pub type Strides<const K: usize> = [isize; K];

/// Dimensions with per-source strides, coalesced: size-1 dimensions dropped and
/// neighbours merged where every source steps through them as through one.
#[derive(Clone, Debug)]
struct Axes<const K: usize> {
    dims: Vec<usize>,
    strides: Vec<Strides<K>>,
}

impl<const K: usize> Axes<K> {
    fn new(dims: &[usize], strides: &[Strides<K>]) -> Self {
        let mut out_d: Vec<usize> = vec![];
        let mut out_s: Vec<Strides<K>> = vec![];
        // Right to left: a dimension joins the one after it when, for every
        // source, its stride is that dimension's stride times its size.
        for (&d, &s) in dims.iter().zip(strides).rev() {
            if d == 1 {
                continue;
            }
            if let (Some(nd), Some(ns)) = (out_d.first().copied(), out_s.first().copied()) {
                let joins = (0..K).all(|k| {
                    isize::try_from(nd)
                        .ok()
                        .and_then(|n| ns[k].checked_mul(n))
                        .is_some_and(|v| v == s[k])
                });
                if joins {
                    out_d[0] = nd * d;
                    continue;
                }
            }
            out_d.insert(0, d);
            out_s.insert(0, s);
        }
        Axes {
            dims: out_d,
            strides: out_s,
        }
    }

    /// Per source, the offset of row-major index `flat` over these dimensions.
    #[inline]
    fn offsets(&self, mut flat: usize) -> Strides<K> {
        let mut off = [0isize; K];
        for (&d, s) in self.dims.iter().zip(&self.strides).rev() {
            let idx = (flat % d) as isize;
            flat /= d;
            for k in 0..K {
                off[k] += idx * s[k];
            }
        }
        off
    }
}

/// The (o, l, i) view of `K` same-shaped sources.
#[derive(Clone, Debug)]
pub struct Frame<const K: usize> {
    /// Elements before, along and after the feature dimension.
    pub outer: usize,
    pub features: usize,
    pub inner: usize,
    outer_axes: Axes<K>,
    /// The dimensions after the feature but the last coalesced one.
    run_prefix: Axes<K>,
    /// The last coalesced dimension after the feature: one run of `i`.
    pub run_len: usize,
    pub run_strides: Strides<K>,
    pub feature_strides: Strides<K>,
}

impl<const K: usize> Frame<K> {
    /// `strides[k]` are source k's strides (in elements) over `dims`; `feature < dims.len()`.
    pub fn new(dims: &[usize], feature: usize, strides: [&[isize]; K]) -> Self {
        let per_dim: Vec<Strides<K>> = (0..dims.len())
            .map(|d| std::array::from_fn(|k| strides[k][d]))
            .collect();
        let outer = dims[..feature].iter().product();
        let inner: usize = dims[feature + 1..].iter().product();
        let outer_axes = Axes::new(&dims[..feature], &per_dim[..feature]);
        let mut after = Axes::new(&dims[feature + 1..], &per_dim[feature + 1..]);
        let (run_len, run_strides) = match (after.dims.pop(), after.strides.pop()) {
            (Some(d), Some(s)) => (d, s),
            _ => (1, [0; K]),
        };
        Frame {
            outer,
            features: dims[feature],
            inner,
            outer_axes,
            run_prefix: after,
            run_len,
            run_strides,
            feature_strides: per_dim[feature],
        }
    }

    /// Elements per feature (the reduction size N).
    pub fn per_feature(&self) -> usize {
        self.outer * self.inner
    }

    /// Per source, the offset of element (o, l, 0).
    #[inline]
    pub fn base(&self, o: usize, l: usize) -> Strides<K> {
        let mut off = self.outer_axes.offsets(o);
        for k in 0..K {
            off[k] += l as isize * self.feature_strides[k];
        }
        off
    }

    /// Runs of `i` from `base`: calls `f(i0, starts)` for each run of `run_len`
    /// elements `i0..i0 + run_len`, with each source's offset of its first one.
    #[inline]
    pub fn runs(&self, base: Strides<K>, mut f: impl FnMut(usize, Strides<K>)) {
        if self.run_len == 0 {
            return;
        }
        for r in 0..self.inner / self.run_len {
            let mut at = self.run_prefix.offsets(r);
            for k in 0..K {
                at[k] += base[k];
            }
            f(r * self.run_len, at);
        }
    }

    /// Whether every source's runs are contiguous.
    pub fn contiguous_runs(&self) -> bool {
        self.run_strides.iter().all(|&s| s == 1) || self.run_len <= 1
    }

    /// The layout where one element per feature sits side by side (the feature
    /// is the last dimension with anything after it of size 1, and every source
    /// steps 1 along it): then rows of features are the unit of work.
    pub fn feature_rows(&self) -> bool {
        self.inner == 1 && self.feature_strides.iter().all(|&s| s == 1)
    }
}
