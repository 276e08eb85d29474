//! BatchNormGrad (spec/ops/batch_norm_grad.md):
//! `BatchNormGrad(operand, scale, batch_mean, batch_var, grad_output, epsilon,
//! feature_index)` → `(grad_operand, grad_scale, grad_offset)`. Arguments are
//! read by `batch_norm_args` (and `grad_output` here, C6); the two passes are
//! `kernels::batch_norm::grad`.

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
use xlet_kernels::batch_norm::{BnElem, View, grad};

const SPEC: &str = include_str!("../../../spec/ops/batch_norm_grad.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::BatchNormGrad,
    aliases: &[],
    signature: "BatchNormGrad(operand, scale, batch_mean, batch_var, grad_output, epsilon, feature_index)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let c = read_common(cx, 5, 6)?;
    for (pos, name) in [(1, "scale"), (2, "batch_mean"), (3, "batch_var")] {
        per_feature(cx, pos, name, &c)?;
    }
    let e = cx.require(Some(4), "grad_output")?;
    let g = cx.push_operand(e, Some(c.operand.elem))?;
    if g.ty != Type::Array(c.operand.clone()) {
        return Err(cx
            .err(
                "C6",
                format!(
                    "`grad_output` must have the operand's type {}, found {}",
                    c.operand, g.ty
                ),
                g.span.clone(),
            )
            .with_label(format!("{}, expected {}", g.ty, c.operand)));
    }
    let stats = Type::array(c.operand.elem, vec![c.features()]);
    Ok(Checked {
        ty: Type::Tuple(vec![Type::Array(c.operand.clone()), stats.clone(), stats]),
        kernel: Arc::new(GradKernel {
            epsilon: c.epsilon,
            feature: c.feature,
        }),
    })
}

struct GradKernel {
    epsilon: f32,
    feature: usize,
}

impl GradKernel {
    fn typed<T: BnElem>(
        &self,
        x: &Array,
        p: [&Array; 3],
        dy: &Array,
    ) -> Result<Value, KernelError> {
        let [s, m, v] = p;
        let [x, dy] = readable([typed::<T>(x)?, typed::<T>(dy)?], self.feature)?;
        let r = grad(
            View::of(&x),
            [typed::<T>(s)?, typed::<T>(m)?, typed::<T>(v)?],
            View::of(&dy),
            self.epsilon,
            self.feature,
        )?;
        Ok(Value::tuple(r.map(|a| Value::Array(T::wrap(a))).into()))
    }
}

impl Kernel for GradKernel {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [
            Value::Array(x),
            Value::Array(s),
            Value::Array(m),
            Value::Array(v),
            Value::Array(dy),
        ] = args
        else {
            return Err(internal("BatchNormGrad expects five arrays"));
        };
        for_class!(x.elem(), T, [float] => self.typed::<T>(x, [s, m, v], dy))
            .unwrap_or_else(|| Err(internal("BatchNormGrad on a non-float operand")))
    }
}
