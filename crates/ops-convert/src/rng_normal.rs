//! RngNormal (spec/ops/rng_normal.md): `RngNormal(mu, sigma, shape)`, normal
//! numbers with mean mu and standard deviation sigma of the float type
//! `shape`, from the run's seed and the evaluation's draw number.

use super::common::internal;
use super::registry::{Checked, OpDef, OpId};
use super::rng_uniform::{count, dims_text, scalar, scalar_params, wrap};
use crate::for_class;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, Type};
use xlet_core::value::{Array, Elem, Value};
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::rng::Stream;
use xlet_kernels::rng::dist::{RngFloat, normal};

const SPEC: &str = include_str!("../../../spec/ops/rng_normal.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::RngNormal,
    aliases: &[],
    signature: "RngNormal(mu, sigma, shape)",
    spec: SPEC,
    rule,
}];

type NormalFn = fn(Stream, &Array, &Array, &ArrayType) -> Result<Array, KernelError>;

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let shape = scalar_params(cx, ["mu", "sigma"])?;
    let t = shape.value;
    let Some(f) = for_class!(t.elem, T, [float] => run::<T> as NormalFn) else {
        return Err(cx
            .err(
                "C3",
                format!("RngNormal makes floats, not {}", t.elem),
                shape.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help(format!(
                "draw floats and convert: ConvertElementType(RngNormal(0.0, 1.0, f32{}), {})",
                dims_text(&t),
                t.elem
            )));
    };
    Ok(Checked {
        ty: Type::Array(t.clone()),
        kernel: Arc::new(NormalKernel { shape: t, f }),
    })
}

fn run<T: Elem + RngFloat>(
    s: Stream,
    mu: &Array,
    sigma: &Array,
    t: &ArrayType,
) -> Result<Array, KernelError> {
    let (mu, sigma) = (scalar::<T>(mu)?, scalar::<T>(sigma)?);
    let (m, sd) = (mu.wide(), sigma.wide());
    if !m.is_finite() || !sd.is_finite() || sd < 0.0 {
        return Err(KernelError::new(
            "RngNormal: C4",
            format!(
                "RngNormal: C4: mu = {m} and sigma = {sd}: mu must be finite and sigma finite \
                 and at least 0"
            ),
        ));
    }
    wrap(normal(s, mu, sigma, count(t)?, t)?, t)
}

struct NormalKernel {
    shape: ArrayType,
    f: NormalFn,
}

impl Kernel for NormalKernel {
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(mu), Value::Array(sigma)] = args else {
            return Err(internal("RngNormal expects two scalars"));
        };
        (self.f)(cx.rng_stream(), mu, sigma, &self.shape).map(Value::Array)
    }
}
