//! Rev (spec/ops/rev.md): `Rev(operand, dimensions)`. Along each listed
//! dimension of size N, result index i holds operand index N - 1 - i. The
//! result is a view of the operand's storage with those strides negated (no
//! copy); the strided engine reads negative strides like any other.

use super::common::internal;
use super::registry::{Checked, OpDef, OpId};
use ndarray::Axis;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::with_array;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/rev.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Rev,
    aliases: &["Reverse"],
    signature: "Rev(operand, dimensions)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    let d = cx.require_int_list(Some(1), "dimensions")?;
    let rank = t.rank();
    let mut dims: Vec<usize> = vec![];
    for &v in &d.value {
        if v < 0 || v as usize >= rank {
            return Err(cx
                .err(
                    "C2",
                    format!(
                        "dimension {v} is out of range for the operand {} (rank {rank})",
                        o.ty
                    ),
                    d.span.clone(),
                )
                .with_label(format!("dimensions must be in 0..{rank}")));
        }
        if dims.contains(&(v as usize)) {
            return Err(cx
                .err(
                    "C3",
                    format!("dimension {v} is listed twice"),
                    d.span.clone(),
                )
                .with_label("repeated dimension")
                .with_help(
                    "reversing a dimension twice gives it back: list it once, or not at all",
                ));
        }
        dims.push(v as usize);
    }
    Ok(Checked {
        ty: Type::Array(t),
        kernel: Arc::new(RevKernel { dims }),
    })
}

struct RevKernel {
    dims: Vec<usize>,
}

/// The operand reversed along `dims`, as a view of its storage.
pub fn reversed<T: Elem>(a: &Nd<T>, dims: &[usize]) -> Result<Nd<T>, KernelError> {
    if dims.iter().any(|&d| d >= a.ndim()) {
        return Err(internal("Rev dimension beyond the operand's rank"));
    }
    let mut v = a.clone();
    for &d in dims {
        v.invert_axis(Axis(d));
    }
    Ok(v)
}

impl Kernel for RevKernel {
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        xlet_grad::structural::rev(cx, &self.dims)
    }
    fn allocates(&self) -> bool {
        false // a view with negated strides
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a)] = args else {
            return Err(internal("Rev expects one array"));
        };
        let out: Array = with_array!(a, x => reversed(x, &self.dims).map(Elem::wrap)?);
        Ok(Value::Array(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayD, IxDyn};

    #[test]
    fn view_matches_definition() {
        let a = ArrayD::from_shape_fn(IxDyn(&[3, 4, 2]), |i| {
            (i[0] * 100 + i[1] * 10 + i[2]) as i32
        })
        .into_shared();
        let mut t = a.clone();
        t.swap_axes(0, 2); // a transposed operand reverses the same way
        for src in [a, t] {
            let n = src.shape().to_vec();
            let got = reversed(&src, &[0, 2]).unwrap();
            for (idx, &v) in got.indexed_iter() {
                let o = [n[0] - 1 - idx[0], idx[1], n[2] - 1 - idx[2]];
                assert_eq!(v, src[IxDyn(&o)]);
            }
            // Materialised through the strided engine, element for element.
            let copy =
                xlet_kernels::try_materialize(got.shape(), &xlet_kernels::Src::of(&got)).unwrap();
            assert_eq!(copy, got.to_owned());
        }
    }
}
