//! Conv (spec/ops/conv.md): `Conv(lhs, rhs, window_strides, padding)` with
//! SAME or VALID padding, in XLA's default layout (lhs [batch, feature,
//! spatial...], kernel [output feature, input feature, spatial...]). A front
//! end of the convolution engine in `conv_general_dilated/`.

use super::conv_general_dilated::check::{self, OpForm, PaddingForms};
use super::conv_general_dilated::checked;
use super::conv_general_dilated::rules::{Rule, Rules};
use super::registry::{Checked, OpDef, OpId};
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;

const SPEC: &str = include_str!("../../../spec/ops/conv.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Conv,
    aliases: &[],
    signature: "Conv(lhs, rhs, window_strides, padding=SAME|VALID[, feature_group_count=1, batch_group_count=1, preferred_element_type=f32])",
    spec: SPEC,
    rule,
}];

const FORM: OpForm = OpForm {
    rules: Rules {
        labels: &[
            (Rule::Arrays, "C1"),
            (Rule::Rank, "C2"),
            (Rule::ElemType, "C3"),
            (Rule::StridesLen, "C4"),
            (Rule::StridesPos, "C5"),
            (Rule::Padding, "C6"),
            (Rule::FgcPos, "C7"),
            (Rule::BgcPos, "C8"),
            (Rule::BothGroups, "C9"),
            (Rule::LhsFeatureDiv, "C10"),
            (Rule::KernelInFeature, "C11"),
            (Rule::KernelOutFgc, "C12"),
            (Rule::LhsBatchDiv, "C13"),
            (Rule::KernelOutBgc, "C14"),
            (Rule::KernelSpatial, "C15"),
            // C16 (a window larger than the input) is retired: XLA gives an
            // empty dimension. VALID and SAME never pad negatively, so
            // WindowFits cannot fire here.
            (Rule::Preferred, "C17"),
        ],
    },
    padding: PaddingForms::Words,
    dilations: false,
    dimension_numbers: false,
};

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    checked(check::read(cx, &FORM)?)
}
