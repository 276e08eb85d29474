//! BatchNormInference (spec/ops/batch_norm_inference.md):
//! `BatchNormInference(operand, scale, offset, mean, variance, epsilon,
//! feature_index)` → the normalised operand. Arguments are read by
//! `batch_norm_args`; the one pass is `kernels::batch_norm::inference`.

use super::batch_norm_args::{per_feature, read_common, readable};
use super::common::{internal, typed};
use super::registry::{Checked, OpDef, OpId};
use crate::for_class;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::{Array, Value};
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::batch_norm::{BnElem, View, inference};

const SPEC: &str = include_str!("../../../spec/ops/batch_norm_inference.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::BatchNormInference,
    aliases: &[],
    signature: "BatchNormInference(operand, scale, offset, mean, variance, epsilon, feature_index)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let c = read_common(cx, 5, 6)?;
    for (pos, name) in [(1, "scale"), (2, "offset"), (3, "mean"), (4, "variance")] {
        per_feature(cx, pos, name, &c)?;
    }
    Ok(Checked {
        ty: Type::Array(c.operand.clone()),
        kernel: Arc::new(InferenceKernel {
            epsilon: c.epsilon,
            feature: c.feature,
        }),
    })
}

struct InferenceKernel {
    epsilon: f32,
    feature: usize,
}

impl InferenceKernel {
    fn typed<T: BnElem>(&self, x: &Array, p: [&Array; 4]) -> Result<Value, KernelError> {
        let [s, o, m, v] = p;
        let [x] = readable([typed::<T>(x)?], self.feature)?;
        let y = inference(
            View::of(&x),
            [
                typed::<T>(s)?,
                typed::<T>(o)?,
                typed::<T>(m)?,
                typed::<T>(v)?,
            ],
            self.epsilon,
            self.feature,
        )?;
        Ok(Value::Array(T::wrap(y)))
    }
}

impl Kernel for InferenceKernel {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [
            Value::Array(x),
            Value::Array(s),
            Value::Array(o),
            Value::Array(m),
            Value::Array(v),
        ] = args
        else {
            return Err(internal("BatchNormInference expects five arrays"));
        };
        for_class!(x.elem(), T, [float] => self.typed::<T>(x, [s, o, m, v]))
            .unwrap_or_else(|| Err(internal("BatchNormInference on a non-float operand")))
    }
}
