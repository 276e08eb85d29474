//! Clamp (spec/ops/clamp.md): `Clamp(min, operand, max)` =
//! `Min(Max(operand, min), max)` per element, with Max and Min as in
//! spec/ops/binary.md (NaN-propagating on floats). `min` and `max` are each a
//! scalar (read with stride 0) or an array of the operand's shape.

use super::common::{internal, typed};
use super::registry::{Checked, OpDef};
use crate::check::call::CallCtx;
use crate::diag::Diag;
use crate::for_class;
use crate::ir::{EvalCx, Kernel, KernelError};
use crate::kernels::{Src, map3};
use crate::types::Type;
use crate::value::{Array, Elem, Nd, Value};
use num_traits::Float;
use std::sync::Arc;

const SPEC: &str = include_str!("../../spec/ops/clamp.md");

pub const OPS: &[OpDef] = &[OpDef {
    name: "Clamp",
    aliases: &[],
    signature: "Clamp(min, operand, max)",
    spec: SPEC,
    rule,
}];

/// Clamp for one element type: min, operand, max.
type ClampFn = fn(&Array, &Array, &Array) -> Result<Array, KernelError>;

fn cl(f: ClampFn) -> ClampFn {
    f
}

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let ops = cx.operands_alike(&[(0, "min"), (1, "operand"), (2, "max")], None)?;
    let lo = cx.array(&ops[0], "C1", "min")?.clone();
    let x = cx.array(&ops[1], "C1", "operand")?.clone();
    let hi = cx.array(&ops[2], "C1", "max")?.clone();
    for (b, o) in [(&lo, &ops[0]), (&hi, &ops[2])] {
        if b.elem != x.elem {
            return Err(cx
                .err("C2", format!("min, operand and max must have one element type, found {lo}, {x} and {hi}"), o.span.clone())
                .with_label(format!("{b}"))
                .with_secondary(ops[1].span.clone(), format!("the operand is {x}"))
                .with_help(format!("XLA does not promote types: convert with ConvertElementType(..., {})", x.elem)));
        }
    }
    for (c, name, b, o) in [("C3", "min", &lo, &ops[0]), ("C4", "max", &hi, &ops[2])] {
        if !b.is_scalar() && b.dims != x.dims {
            return Err(cx
                .err(c, format!("{name} {b} must be a scalar or have the operand's shape {x}"), o.span.clone())
                .with_label(format!("{b}"))
                .with_secondary(ops[1].span.clone(), format!("the operand is {x}")));
        }
    }
    let f = for_class!(x.elem, T, [int, pred] => cl(|a, b, c| clamp::<T>(a, b, c, |lo, x, hi| x.max(lo).min(hi))))
        .or_else(|| for_class!(x.elem, T, [float] => cl(|a, b, c| clamp::<T>(a, b, c, |lo, x, hi| fmin(fmax(x, lo), hi)))))
        .ok_or_else(|| internal_diag(cx))?;
    Ok(Checked {
        ty: Type::Array(x),
        kernel: Arc::new(ClampKernel { f }),
    })
}

fn internal_diag(cx: &CallCtx) -> Diag {
    Diag::check(cx.code("internal"), "Clamp: no kernel for this element type", cx.span.clone())
}

/// NaN-propagating maximum; +0 is above -0 (as Max in spec/ops/binary.md).
fn fmax<T: Float>(x: T, y: T) -> T {
    if x.is_nan() || y.is_nan() {
        T::nan()
    } else if x > y || (x == y && y.is_sign_negative()) {
        x
    } else {
        y
    }
}

/// NaN-propagating minimum; -0 is below +0 (as Min in spec/ops/binary.md).
fn fmin<T: Float>(x: T, y: T) -> T {
    if x.is_nan() || y.is_nan() {
        T::nan()
    } else if x < y || (x == y && x.is_sign_negative()) {
        x
    } else {
        y
    }
}

/// A bound read over the operand's dims: stride 0 for a scalar, as is for a same-shape array.
fn bound<'a, T>(b: &'a Nd<T>, dims: &[usize]) -> Result<Src<'a, T>, KernelError> {
    if b.ndim() == 0 {
        Ok(Src::broadcast_in_dim(b, dims.len(), &[]))
    } else if b.shape() == dims {
        Ok(Src::of(b))
    } else {
        Err(internal("Clamp bound does not have the checked shape"))
    }
}

fn clamp<T: Elem>(lo: &Array, x: &Array, hi: &Array, f: impl Fn(T, T, T) -> T + Sync) -> Result<Array, KernelError> {
    let (lo, x, hi) = (typed::<T>(lo)?, typed::<T>(x)?, typed::<T>(hi)?);
    let dims = x.shape();
    let out = map3(dims, &bound(lo, dims)?, &Src::of(x), &bound(hi, dims)?, f);
    Ok(Array::from_nd(out))
}

struct ClampKernel {
    f: ClampFn,
}

impl Kernel for ClampKernel {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        match args {
            [Value::Array(lo), Value::Array(x), Value::Array(hi)] => (self.f)(lo, x, hi).map(Value::Array),
            _ => Err(internal("Clamp expects three arrays")),
        }
    }
}
