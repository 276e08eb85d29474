//! The constraints the three convolution ops share, and each op's labels for
//! them (its spec numbers them in its own order; an op without an attribute
//! has no label for its rules).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    Arrays,
    Rank,
    ElemType,
    StridesLen,
    StridesPos,
    Padding,
    LhsDilLen,
    LhsDilPos,
    RhsDilLen,
    RhsDilPos,
    DimString,
    InputDims,
    KernelDims,
    OutputDims,
    FgcPos,
    BgcPos,
    BothGroups,
    LhsFeatureDiv,
    KernelInFeature,
    KernelOutFgc,
    LhsBatchDiv,
    KernelOutBgc,
    KernelSpatial,
    WindowFits,
    SameDilated,
    Preferred,
}

/// One op's labels: `(rule, "C7")` pairs.
pub struct Rules {
    pub labels: &'static [(Rule, &'static str)],
}

impl Rules {
    /// The op's label for `r`; "internal" if the op does not have the rule (its
    /// reader never asks for it).
    pub fn label(&self, r: Rule) -> &'static str {
        self.labels
            .iter()
            .find(|(q, _)| *q == r)
            .map_or("internal", |(_, l)| l)
    }
}
