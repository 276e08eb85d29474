//! Iota (spec/ops/iota.md): `Iota(shape, iota_dimension)`. Each element is its
//! own index along `iota_dimension`, converted to the element type as
//! ConvertElementType would convert that integer.

use super::common::internal;
use super::registry::{Checked, OpDef, OpId};
use crate::for_class;
use ndarray::{ArrayD, IxDyn};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::alloc::try_output_vec;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, ElemType, Type};
use xlet_core::value::{Array, CastFrom, Elem, Value};
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/iota.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Iota,
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
                format!("{t} has {}", xlet_core::english::count(rank, "dimension")),
            ));
    };
    // A small type counts in its compute type and is rounded or wrapped back
    // (spec/small_types.md §5).
    let Some(f) = pick(t.elem.compute()) else {
        return Err(cx
            .err(
                "C2",
                format!(
                    "Iota makes integers, floats or complex numbers, not {}",
                    t.elem
                ),
                shape.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help(
                "for a pred pattern, compare an integer Iota, e.g. Eq(Rem(Iota(s32[8], 0), 2), 0)",
            ));
    };
    Ok(Checked {
        ty: Type::Array(t.clone()),
        kernel: super::small::widened(
            Arc::new(IotaKernel {
                dims: t.dims,
                dim: d,
                f,
            }),
            &[],
            t.elem,
        ),
    })
}

fn pick(e: ElemType) -> Option<IotaFn> {
    // Complex iotas count along the real part (StableHLO's iota takes complex types).
    for_class!(e, T, [int, float, complex] => iota::<T> as IotaFn)
}

fn iota<T: Elem>(dims: &[usize], d: usize) -> Result<Array, KernelError> {
    let size = *dims
        .get(d)
        .ok_or_else(|| internal("iota dimension out of range"))?;
    // The checker bounded the element count; an empty result allocates nothing,
    // however large its other dimensions are.
    let n = dims
        .iter()
        .try_fold(1usize, |n, &x| n.checked_mul(x))
        .ok_or_else(|| internal("iota element count overflows"))?;
    let what = ArrayType::new(T::ELEM, dims.to_vec());
    let mut out: Vec<T> = try_output_vec(n, &what)?;
    if n > 0 {
        let inner: usize = dims.get(d + 1..).unwrap_or(&[]).iter().product();
        // Written in place, row by row of the iota dimension: the output is the
        // only buffer (no table of the converted indices beside it).
        let buf = &mut out.spare_capacity_mut()[..n];
        for (block, chunk) in buf.chunks_mut(size * inner).enumerate() {
            if block % 64 == 0 && xlet_core::config::interrupted() {
                return Err(KernelError::new("interrupted", "interrupted"));
            }
            if inner == 1 {
                for (k, x) in chunk.iter_mut().enumerate() {
                    x.write(<T as CastFrom<i64>>::cast_from(k as i64));
                }
            } else {
                for (k, run) in chunk.chunks_mut(inner).enumerate() {
                    let v = <T as CastFrom<i64>>::cast_from(k as i64);
                    for x in run {
                        x.write(v);
                    }
                }
            }
        }
        // SAFETY: the loops above wrote all n elements: `size * inner` divides n
        // (n = outer * size * inner) and each chunk is covered by its runs.
        unsafe { out.set_len(n) };
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
