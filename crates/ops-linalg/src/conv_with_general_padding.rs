//! ConvWithGeneralPadding (spec/ops/conv_with_general_padding.md):
//! `ConvWithGeneralPadding(lhs, rhs, window_strides, padding, lhs_dilation,
//! rhs_dilation)` with explicit (low, high) padding pairs, in XLA's default
//! layout. A front end of the convolution engine in `conv_general_dilated/`.

use super::conv_general_dilated::check::{self, OpForm, PaddingForms};
use super::conv_general_dilated::checked;
use super::conv_general_dilated::rules::{Rule, Rules};
use super::registry::{Checked, OpDef, OpId};
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;

const SPEC: &str = include_str!("../../../spec/ops/conv_with_general_padding.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::ConvWithGeneralPadding,
    aliases: &[],
    signature: "ConvWithGeneralPadding(lhs, rhs, window_strides, padding[, lhs_dilation, rhs_dilation, feature_group_count=1, batch_group_count=1, preferred_element_type=f32])",
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
            (Rule::LhsDilLen, "C7"),
            (Rule::LhsDilPos, "C8"),
            (Rule::RhsDilLen, "C9"),
            (Rule::RhsDilPos, "C10"),
            (Rule::FgcPos, "C11"),
            (Rule::BgcPos, "C12"),
            (Rule::BothGroups, "C13"),
            (Rule::LhsFeatureDiv, "C14"),
            (Rule::KernelInFeature, "C15"),
            (Rule::KernelOutFgc, "C16"),
            (Rule::LhsBatchDiv, "C17"),
            (Rule::KernelOutBgc, "C18"),
            (Rule::KernelSpatial, "C19"),
            (Rule::WindowFits, "C20"),
            (Rule::Preferred, "C21"),
        ],
    },
    padding: PaddingForms::Pairs,
    dilations: true,
    dimension_numbers: false,
};

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    checked(check::read(cx, &FORM)?)
}
