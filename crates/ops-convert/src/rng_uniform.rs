//! RngUniform (spec/ops/rng_uniform.md): `RngUniform(a, b, shape)`, uniform
//! numbers in [a, b) of the type `shape`. The values come from the run's seed
//! and the evaluation's draw number (`kernels::rng`); the kernel checks the
//! interval when it runs, since `a` and `b` are values.

use super::common::{internal, typed};
use super::registry::{Checked, OpDef, OpId};
use crate::for_class;
use ndarray::{ArrayD, IxDyn};
use std::sync::Arc;
use xlet_check::call::{Attr, CallCtx};
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, Type};
use xlet_core::value::{Array, Elem, Value};
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::rng::Stream;
use xlet_kernels::rng::dist::{RngFloat, RngInt, uniform_float, uniform_int};

const SPEC: &str = include_str!("../../../spec/ops/rng_uniform.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::RngUniform,
    aliases: &[],
    signature: "RngUniform(a, b, shape)",
    spec: SPEC,
    rule,
}];

/// Reads `(p0, p1, shape)` of RngUniform and RngNormal: the shape first, so
/// that untyped literal parameters take its element type; then C1 (scalar
/// parameters) and C2 (their type is the shape's). Returns the shape.
pub fn scalar_params(cx: &mut CallCtx, names: [&str; 2]) -> Result<Attr<ArrayType>, Diag> {
    let shape = cx.array_type(Some(2), "shape")?;
    let elem = shape.value.elem;
    let ops = cx.operands_alike(&[(0, names[0]), (1, names[1])], Some(elem))?;
    for (o, name) in ops.iter().zip(names) {
        let t = cx.array(o, "C1", name)?;
        if t.rank() != 0 {
            return Err(cx
                .err(
                    "C1",
                    format!("`{name}` must be a scalar, found {t}"),
                    o.span.clone(),
                )
                .with_label(format!("{t}"))
                .with_help(format!(
                    "the output's shape is the third argument ({}); {name} is one {elem} value",
                    shape.value
                )));
        }
        if t.elem != elem {
            return Err(cx
                .err(
                    "C2",
                    format!(
                        "`{name}` is {}, but the output type {} has element type {elem}",
                        t.elem, shape.value
                    ),
                    o.span.clone(),
                )
                .with_label(format!("{t}"))
                .with_secondary(shape.span.clone(), format!("{elem} here"))
                .with_help(format!(
                    "give the parameters the output's type, e.g. ConvertElementType({}, {elem})",
                    cx.text(&o.span)
                )));
        }
    }
    Ok(shape)
}

type UniformFn = fn(Stream, &Array, &Array, &ArrayType) -> Result<Array, KernelError>;

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let shape = scalar_params(cx, ["a", "b"])?;
    let t = shape.value;
    let f = for_class!(t.elem, T, [int] => run_int::<T> as UniformFn)
        .or_else(|| for_class!(t.elem, T, [float] => run_float::<T> as UniformFn));
    let Some(f) = f else {
        return Err(cx
            .err(
                "C3",
                format!("RngUniform makes integers or floats, not {}", t.elem),
                shape.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help(format!(
                "for random pred values compare uniform floats, e.g. Lt(RngUniform(0.0, 1.0, f32{}), 0.5)",
                dims_text(&t)
            )));
    };
    Ok(Checked {
        ty: Type::Array(t.clone()),
        kernel: Arc::new(UniformKernel { shape: t, f }),
    })
}

/// `[3x4]` (or `[]`) for a help text.
pub fn dims_text(t: &ArrayType) -> String {
    let d: Vec<String> = t.dims.iter().map(|d| d.to_string()).collect();
    format!("[{}]", d.join("x"))
}

/// The element count (the checker bounded it).
pub fn count(t: &ArrayType) -> Result<usize, KernelError> {
    t.num_elements()
        .ok_or_else(|| internal("element count overflows"))
}

pub fn scalar<T: Elem>(a: &Array) -> Result<T, KernelError> {
    typed::<T>(a)?
        .iter()
        .next()
        .copied()
        .ok_or_else(|| internal("RngUniform parameter is not a scalar"))
}

pub fn wrap<T: Elem>(v: Vec<T>, t: &ArrayType) -> Result<Array, KernelError> {
    ArrayD::from_shape_vec(IxDyn(&t.dims), v)
        .map(Array::from_nd)
        .map_err(|_| internal("RngUniform result does not match its shape"))
}

/// C4 at run time: the interval must hold a value.
fn empty_interval(a: impl std::fmt::Display, b: impl std::fmt::Display, why: &str) -> KernelError {
    KernelError::new(
        "RngUniform: C4",
        format!(
            "RngUniform: C4: the interval [a, b) = [{a}, {b}) {why} (XLA leaves this \
             implementation-defined; xlet rejects it)"
        ),
    )
}

fn run_int<T: Elem + RngInt + PartialOrd>(
    s: Stream,
    a: &Array,
    b: &Array,
    t: &ArrayType,
) -> Result<Array, KernelError> {
    let (a, b) = (scalar::<T>(a)?, scalar::<T>(b)?);
    if a >= b {
        return Err(empty_interval(
            a.to_i128(),
            b.to_i128(),
            "is empty: b must be greater than a",
        ));
    }
    wrap(uniform_int(s, a, b, count(t)?, t)?, t)
}

fn run_float<T: Elem + RngFloat>(
    s: Stream,
    a: &Array,
    b: &Array,
    t: &ArrayType,
) -> Result<Array, KernelError> {
    let (a, b) = (scalar::<T>(a)?, scalar::<T>(b)?);
    let (x, y) = (a.wide(), b.wide());
    if !x.is_finite() || !y.is_finite() {
        return Err(empty_interval(x, y, "has a bound that is not finite"));
    }
    if x >= y {
        return Err(empty_interval(x, y, "is empty: b must be greater than a"));
    }
    wrap(uniform_float(s, a, b, count(t)?, t)?, t)
}

struct UniformKernel {
    shape: ArrayType,
    f: UniformFn,
}

impl Kernel for UniformKernel {
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a), Value::Array(b)] = args else {
            return Err(internal("RngUniform expects two scalars"));
        };
        (self.f)(cx.rng_stream(), a, b, &self.shape).map(Value::Array)
    }
}
