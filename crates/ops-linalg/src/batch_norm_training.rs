//! BatchNormTraining (spec/ops/batch_norm_training.md):
//! `BatchNormTraining(operand, scale, offset, epsilon, feature_index)` →
//! `(output, batch_mean, batch_var)`. Arguments are read by
//! `batch_norm_args`; the two passes are `kernels::batch_norm::training`.

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
use xlet_kernels::batch_norm::{BnElem, View, training};

const SPEC: &str = include_str!("../../../spec/ops/batch_norm_training.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::BatchNormTraining,
    aliases: &[],
    signature: "BatchNormTraining(operand, scale, offset, epsilon, feature_index)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let c = read_common(cx, 3, 4)?;
    per_feature(cx, 1, "scale", &c)?;
    per_feature(cx, 2, "offset", &c)?;
    let stats = Type::array(c.operand.elem, vec![c.features()]);
    Ok(Checked {
        ty: Type::Tuple(vec![Type::Array(c.operand.clone()), stats.clone(), stats]),
        kernel: Arc::new(TrainingKernel {
            epsilon: c.epsilon,
            feature: c.feature,
        }),
    })
}

struct TrainingKernel {
    epsilon: f32,
    feature: usize,
}

impl TrainingKernel {
    fn typed<T: BnElem>(&self, x: &Array, s: &Array, o: &Array) -> Result<Value, KernelError> {
        let [x] = readable([typed::<T>(x)?], self.feature)?;
        let r = training(
            View::of(&x),
            typed::<T>(s)?,
            typed::<T>(o)?,
            self.epsilon,
            self.feature,
        )?;
        Ok(Value::tuple(r.map(|a| Value::Array(T::wrap(a))).into()))
    }
}

impl Kernel for TrainingKernel {
    /// BatchNormGrad, plus the statistics' cotangents (spec/grad.md §4.4).
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        xlet_grad::batch_norm::training(cx, self.epsilon, self.feature)
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(x), Value::Array(s), Value::Array(o)] = args else {
            return Err(internal("BatchNormTraining expects three arrays"));
        };
        for_class!(x.elem(), T, [float] => self.typed::<T>(x, s, o))
            .unwrap_or_else(|| Err(internal("BatchNormTraining on a non-float operand")))
    }
}
