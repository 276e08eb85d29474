//! Collapse (spec/ops/collapse.md): `Collapse(operand, dimensions)`. A run of
//! consecutive dimensions, listed in increasing order, becomes one dimension
//! whose size is their product; row-major order is kept, so this is a Reshape
//! (a view when the operand is row-major, else one copy).

use super::broadcast_in_dim::fmt_list;
use super::common::{contiguous, internal};
use super::registry::{Checked, OpDef, OpId};
use ndarray::IxDyn;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::with_array;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/collapse.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Collapse,
    aliases: &[],
    signature: "Collapse(operand, dimensions)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    let dims = cx.require_int_list(Some(1), "dimensions")?;
    let rank = t.rank();
    for &d in &dims.value {
        if usize::try_from(d).map_or(true, |d| d >= rank) {
            return Err(cx
                .err(
                    "C2",
                    format!("dimension {d} is not a dimension of the operand {t}"),
                    dims.span.clone(),
                )
                .with_label(format!("dimensions must be in 0..{rank}"))
                .with_secondary(
                    o.span.clone(),
                    format!("{t} has {}", xlet_core::english::count(rank, "dimension")),
                ));
        }
    }
    if let Some(w) = dims.value.windows(2).find(|w| w[1] != w[0] + 1) {
        return Err(cx
            .err(
                "C3",
                format!(
                    "dimensions {} are not consecutive and in increasing order: {} is followed by {}",
                    fmt_list(&dims.value),
                    w[0],
                    w[1]
                ),
                dims.span.clone(),
            )
            .with_label("must be a run such as {0, 1} or {1, 2, 3}")
            .with_help("to merge dimensions in another order, Transpose first or use Reshape(operand, dimensions, new_sizes)"));
    }
    // The checks above make every entry a valid index and the run contiguous.
    let new: Vec<usize> = match (dims.value.first(), dims.value.last()) {
        (Some(&first), Some(&last)) => {
            let (first, last) = (first as usize, last as usize);
            let mut v = t.dims[..first].to_vec();
            v.push(t.dims[first..=last].iter().product());
            v.extend_from_slice(&t.dims[last + 1..]);
            v
        }
        _ => t.dims.clone(),
    };
    Ok(Checked {
        ty: Type::array(t.elem, new.clone()),
        kernel: Arc::new(CollapseKernel { new }),
    })
}

struct CollapseKernel {
    new: Vec<usize>,
}

fn collapse<T: Elem>(a: &Nd<T>, new: &[usize]) -> Result<Array, KernelError> {
    contiguous(a.clone())?
        .into_shape_with_order(IxDyn(new))
        .map(T::wrap)
        .map_err(|_| internal("collapse of a row-major array failed"))
}

impl Kernel for CollapseKernel {
    /// A row-major reshape: the cotangent reshaped back (spec/grad.md §4).
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        let dims = cx.arg_array(0)?.dims.clone();
        let t = format!("Reshape({}, {})", cx.ct.name, xlet_ir::rule::brace(&dims));
        cx.send(0, t);
        Ok(())
    }
    fn allocates(&self) -> bool {
        false // a view, or a copy that `contiguous` admits itself
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a)] = args else {
            return Err(internal("Collapse expects one array"));
        };
        with_array!(a, x => collapse(x, &self.new)).map(Value::Array)
    }
}
