//! ConvGeneralDilated (spec/ops/conv_general_dilated.md): the convolution
//! engine. Conv and ConvWithGeneralPadding (their own files) are front ends
//! that read fewer attributes and build the same kernel.
//!
//! - `dims`: dimension numbers, from the compact string or the separate attributes;
//! - `check`: reading and checking a call into a `Geometry` (canonical sizes);
//! - `reference`: the plain loop (the oracle, and the path for odd cases);
//! - `fast`: im2col tiles + the shared matrix multiply (spec/performance.md).

pub mod check;
pub mod dims;
pub mod fast;
pub mod geometry;
pub mod grad;
pub mod reference;
pub mod rules;
#[cfg(test)]
mod tests;

use super::common::internal;
use super::registry::{Checked, OpDef, OpId};
use crate::small::widened;
use check::{Conv, OpForm, PaddingForms};
use geometry::Geometry;
use half::{bf16, f16};
use ndarray::IxDyn;
use reference::Acc;
use rules::{Rule, Rules};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::alloc;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, ElemType, Type};
use xlet_core::value::{Array, CastAll, Elem, Nd, Value};
use xlet_core::with_array;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::matmul::DotElem;

const SPEC: &str = include_str!("../../../../spec/ops/conv_general_dilated.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::ConvGeneralDilated,
    aliases: &[],
    signature: "ConvGeneralDilated(lhs, rhs, window_strides, padding[, lhs_dilation, rhs_dilation, dimension_numbers=\"bf01_oi01->bf01\", feature_group_count=1, batch_group_count=1, preferred_element_type=f32, input_batch_dimension=0, input_feature_dimension=1, input_spatial_dimensions={2, 3}, kernel_output_feature_dimension=0, kernel_input_feature_dimension=1, kernel_spatial_dimensions={2, 3}, output_batch_dimension=0, output_feature_dimension=1, output_spatial_dimensions={2, 3}])",
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
            (Rule::DimString, "C11"),
            (Rule::InputDims, "C12"),
            (Rule::KernelDims, "C13"),
            (Rule::OutputDims, "C14"),
            (Rule::FgcPos, "C15"),
            (Rule::BgcPos, "C16"),
            (Rule::BothGroups, "C17"),
            (Rule::LhsFeatureDiv, "C18"),
            (Rule::KernelInFeature, "C19"),
            (Rule::KernelOutFgc, "C20"),
            (Rule::LhsBatchDiv, "C21"),
            (Rule::KernelOutBgc, "C22"),
            (Rule::KernelSpatial, "C23"),
            (Rule::WindowFits, "C24"),
            (Rule::SameDilated, "C25"),
            (Rule::Preferred, "C26"),
        ],
    },
    padding: PaddingForms::Either,
    dilations: true,
    dimension_numbers: true,
};

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    checked(check::read(cx, &FORM)?)
}

/// The result type and kernel of a checked convolution (all three ops).
pub fn checked(c: Conv) -> Result<Checked, Diag> {
    Ok(Checked {
        ty: Type::array(c.result, c.g.out_dims()),
        // Small types convolve in their compute types (spec/small_types.md §5).
        kernel: widened(
            Arc::new(ConvKernel {
                g: c.g,
                result: c.result.compute(),
            }),
            &[c.elem, c.elem],
            c.result,
        ),
    })
}

pub struct ConvKernel {
    g: Geometry,
    result: ElemType,
}

/// The type products are summed in: the result type, except that f16 and bf16
/// accumulate in f32 and are rounded once at the end.
fn acc_type(result: ElemType) -> ElemType {
    match result {
        ElemType::F16 | ElemType::BF16 => ElemType::F32,
        t => t,
    }
}

/// The array in the accumulation type (a copy, admitted first, when it is not already).
fn cast_to<A: Elem + CastAll + Clone>(a: &Array) -> Result<Nd<A>, KernelError> {
    if let Some(x) = A::unwrap(a) {
        return Ok(x.clone());
    }
    let ty = ArrayType::new(A::ELEM, a.dims().to_vec());
    alloc::admit(a.len().saturating_mul(std::mem::size_of::<A>()), &ty)?;
    Ok(with_array!(a, x => x.mapv(|v| A::cast_from(v)).into_shared()))
}

impl ConvKernel {
    fn run_acc<A: Acc + DotElem + CastAll>(
        &self,
        l: &Array,
        r: &Array,
    ) -> Result<Array, KernelError> {
        let g = &self.g;
        let lhs = cast_to::<A>(l)?;
        let rhs = cast_to::<A>(r)?;
        if lhs.ndim() != g.spatial_rank() + 2 || rhs.ndim() != lhs.ndim() {
            return Err(internal(
                "convolution operands do not have the checked rank",
            ));
        }
        let lv = lhs.view().permuted_axes(IxDyn(&g.dn.lhs.to_canonical()));
        let rv = rhs.view().permuted_axes(IxDyn(&g.dn.rhs.to_canonical()));
        let out = if fast::suitable(g) {
            fast::conv(g, &lv, &rv)?
        } else {
            reference::conv(g, &lv, &rv, |x: A| x)?
        };
        self.finish(out)
    }

    /// The canonical result in the result type, viewed in the output layout.
    fn finish<A: Elem + CastAll>(&self, out: Vec<A>) -> Result<Array, KernelError> {
        let arr = match self.result {
            ElemType::F16 => layout(&self.g, round(out, f16::from_f64)?)?,
            ElemType::BF16 => layout(&self.g, round(out, bf16::from_f64)?)?,
            _ => layout(&self.g, out)?,
        };
        if arr.elem() != self.result {
            return Err(internal("convolution result type"));
        }
        Ok(arr)
    }
}

/// The f32 sums rounded once to f16/bf16 (through f64, which holds every f32
/// exactly, so there is one rounding).
fn round<A: CastAll, R>(v: Vec<A>, to: fn(f64) -> R) -> Result<Vec<R>, KernelError> {
    let mut out: Vec<R> = alloc::try_output_vec(v.len(), &"the convolution's rounded result")?;
    out.extend(v.into_iter().map(|x| to(x.to_f64())));
    Ok(out)
}

/// Wraps the canonical [batch, feature, spatial...] buffer and permutes it into
/// the output dimension numbers' order (a view: no copy).
fn layout<T: Elem>(g: &Geometry, v: Vec<T>) -> Result<Array, KernelError> {
    let a = Nd::from_shape_vec(IxDyn(&g.canonical_out_dims()), v)
        .map_err(|_| internal("convolution result size"))?;
    let rank = g.spatial_rank() + 2;
    let mut perm = vec![0; rank];
    perm[g.dn.out.batch] = 0;
    perm[g.dn.out.feature] = 1;
    for (i, &d) in g.dn.out.spatial.iter().enumerate() {
        perm[d] = 2 + i;
    }
    Ok(T::wrap(a.permuted_axes(IxDyn(&perm))))
}

impl Kernel for ConvKernel {
    /// Both operands' cotangents are convolutions again (spec/grad.md §4.7).
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        crate::conv_general_dilated::grad::rule(cx, &self.g)
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(l), Value::Array(r)] = args else {
            return Err(internal("a convolution takes two arrays"));
        };
        let out = match acc_type(self.result) {
            ElemType::F32 => self.run_acc::<f32>(l, r),
            ElemType::F64 => self.run_acc::<f64>(l, r),
            ElemType::S8 => self.run_acc::<i8>(l, r),
            ElemType::S16 => self.run_acc::<i16>(l, r),
            ElemType::S32 => self.run_acc::<i32>(l, r),
            ElemType::S64 => self.run_acc::<i64>(l, r),
            ElemType::U8 => self.run_acc::<u8>(l, r),
            ElemType::U16 => self.run_acc::<u16>(l, r),
            ElemType::U32 => self.run_acc::<u32>(l, r),
            ElemType::U64 => self.run_acc::<u64>(l, r),
            ElemType::Pred => self.run_acc::<bool>(l, r),
            ElemType::F16 | ElemType::BF16 => Err(internal("f16 accumulation")),
            ElemType::C64 => self.run_acc::<xlet_core::value::c64>(l, r),
            ElemType::C128 => self.run_acc::<xlet_core::value::c128>(l, r),
            ElemType::Small(_) => Err(internal("a small type reached the convolution kernel")),
        }?;
        Ok(Value::Array(out))
    }
}
