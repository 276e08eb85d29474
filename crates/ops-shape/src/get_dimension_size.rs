//! GetDimensionSize (spec/ops/get_dimension_size.md):
//! `GetDimensionSize(operand, dimension)`, the size of one dimension of an
//! array as an s32 scalar. xlet's shapes are static, so the size is known when
//! the call is checked; the kernel only makes the scalar.

use super::common::internal;
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{Elem, Value};
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/get_dimension_size.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::GetDimensionSize,
    aliases: &[],
    signature: "GetDimensionSize(operand, dimension)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let Some(d) = cx.int(Some(1), "dimension")? else {
        return Err(Diag::check(
            cx.code("arity"),
            format!("{}: missing argument `dimension`", cx.name()),
            cx.span.clone(),
        )
        .with_label("`dimension` is missing")
        .with_help(format!("{} is called as {}", cx.name(), cx.op.signature)));
    };
    let t = cx.array(&o, "C1", "the operand")?.clone();
    let rank = t.rank();
    let Some(size) = usize::try_from(d.value)
        .ok()
        .and_then(|i| t.dims.get(i).copied())
    else {
        let range = if rank == 0 {
            "a scalar has no dimension".to_string()
        } else {
            format!("must be in 0..{rank}")
        };
        let help = if rank == 0 {
            "a scalar has no dimensions to measure".to_string()
        } else {
            format!(
                "dimensions are counted from 0: {t} has dimensions 0 to {}",
                rank - 1
            )
        };
        return Err(cx
            .err(
                "C2",
                format!("dimension {} is not a dimension of {t}", d.value),
                d.span.clone(),
            )
            .with_label(range)
            .with_secondary(
                o.span.clone(),
                format!("{t} has {}", xlet_core::english::count(rank, "dimension")),
            )
            .with_help(help));
    };
    let Ok(size) = i32::try_from(size) else {
        return Err(cx
            .err(
                "C3",
                format!(
                    "dimension {} of {t} has {size} elements, more than an s32 result can hold",
                    d.value
                ),
                o.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help("the result is s32 (as in XLA): the size must be at most 2147483647"));
    };
    Ok(Checked {
        ty: Type::array(ElemType::S32, vec![]),
        kernel: Arc::new(GetDimensionSizeKernel { size }),
    })
}

struct GetDimensionSizeKernel {
    size: i32,
}

impl Kernel for GetDimensionSizeKernel {
    /// The result is an integer: no cotangent flows back to the operand.
    fn vjp(&self, _cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        Ok(())
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        if args.len() != 1 {
            return Err(internal("GetDimensionSize expects one operand"));
        }
        Ok(Value::Array(i32::wrap(
            ndarray::arr0(self.size).into_dyn().into_shared(),
        )))
    }
}
