//! Iota (spec/ops/iota.md): `Iota(shape, iota_dimension)`. Each element is its
//! own index along `iota_dimension`, converted to the element type as
//! ConvertElementType would convert that integer.

use super::common::internal;
use super::registry::{Checked, OpDef};
use crate::check::call::CallCtx;
use crate::diag::Diag;
use crate::for_class;
use crate::ir::{EvalCx, Kernel, KernelError};
use crate::types::{ElemType, Type};
use crate::value::{Array, CastFrom, Elem, Value};
use ndarray::{ArrayD, IxDyn};
use std::sync::Arc;

const SPEC: &str = include_str!("../../spec/ops/iota.md");

pub const OPS: &[OpDef] = &[OpDef {
    name: "Iota",
    aliases: &[],
    signature: "Iota(shape, iota_dimension)",
    spec: SPEC,
    rule,
}];

/// Builds the iota array of one element type: dims, iota dimension.
type IotaFn = fn(&[usize], usize) -> Result<Array, KernelError>;

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let shape = cx.array_type(Some(0), "shape")?;
    let Some(dim) = cx.int(Some(1), "iota_dimension")? else {
        return Err(Diag::check(
            cx.code("arity"),
            format!("{}: missing argument `iota_dimension`", cx.name()),
            cx.span.clone(),
        )
        .with_label("`iota_dimension` is missing")
        .with_help(format!("{} is called as {}", cx.name(), cx.op.signature)));
    };
    let t = shape.value;
    let rank = t.rank();
    let Some(d) = usize::try_from(dim.value).ok().filter(|&d| d < rank) else {
        let label = if rank == 0 {
            "a scalar shape has no dimension".to_string()
        } else {
            format!("must be in 0..{rank}")
        };
        return Err(cx
            .err(
                "C1",
                format!("iota_dimension {} is not a dimension of {t}", dim.value),
                dim.span.clone(),
            )
            .with_label(label)
            .with_secondary(
                shape.span.clone(),
                format!("{t} has {}", crate::english::count(rank, "dimension")),
            ));
    };
    let Some(f) = pick(t.elem) else {
        return Err(cx
            .err(
                "C2",
                format!("Iota makes integers or floats, not {}", t.elem),
                shape.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help(
                "for a pred pattern, compare an integer Iota, e.g. Eq(Rem(Iota(s32[8], 0), 2), 0)",
            ));
    };
    Ok(Checked {
        ty: Type::Array(t.clone()),
        kernel: Arc::new(IotaKernel {
            dims: t.dims,
            dim: d,
            f,
        }),
    })
}

fn pick(e: ElemType) -> Option<IotaFn> {
    for_class!(e, T, [int, float] => iota::<T> as IotaFn)
}

fn iota<T: Elem>(dims: &[usize], d: usize) -> Result<Array, KernelError> {
    let size = *dims
        .get(d)
        .ok_or_else(|| internal("iota dimension out of range"))?;
    let outer: usize = dims.get(..d).unwrap_or(&[]).iter().product();
    let inner: usize = dims.get(d + 1..).unwrap_or(&[]).iter().product();
    // Each index converted once; the output repeats them in row-major order.
    let values: Vec<T> = (0..size)
        .map(|k| <T as CastFrom<i64>>::cast_from(k as i64))
        .collect();
    let mut out = Vec::with_capacity(outer * size * inner);
    for _ in 0..outer {
        for &v in &values {
            out.extend(std::iter::repeat_n(v, inner));
        }
    }
    ArrayD::from_shape_vec(IxDyn(dims), out)
        .map(Array::from_nd)
        .map_err(|_| internal("iota element count does not match its shape"))
}

struct IotaKernel {
    dims: Vec<usize>,
    dim: usize,
    f: IotaFn,
}

impl Kernel for IotaKernel {
    fn run(&self, _args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        (self.f)(&self.dims, self.dim).map(Value::Array)
    }
}
