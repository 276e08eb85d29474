//! GetTupleElement (spec/ops/get_tuple_element.md):
//! `GetTupleElement(tuple, index)` with `index` a static integer.

use super::common::internal;
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/get_tuple_element.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::GetTupleElement,
    aliases: &[],
    signature: "GetTupleElement(tuple, index)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "tuple")?;
    let Some(index) = cx.int(Some(1), "index")? else {
        return Err(Diag::check(
            cx.code("arity"),
            format!("{}: missing argument `index`", cx.name()),
            cx.span.clone(),
        )
        .with_label("`index` is missing")
        .with_help(format!("{} is called as {}", cx.name(), cx.op.signature)));
    };
    let Type::Tuple(elems) = &o.ty else {
        return Err(cx
            .err(
                "C1",
                format!("the operand must be a tuple, found the array {}", o.ty),
                o.span.clone(),
            )
            .with_label(format!("{}", o.ty)));
    };
    let n = elems.len();
    let Some((i, ty)) = usize::try_from(index.value)
        .ok()
        .and_then(|i| elems.get(i).map(|t| (i, t.clone())))
    else {
        return Err(cx
            .err(
                "C2",
                format!(
                    "index {} is out of range for the {n}-element tuple {}",
                    index.value, o.ty
                ),
                index.span.clone(),
            )
            .with_label(if n == 0 {
                "the tuple is empty".to_string()
            } else {
                format!("must be in 0..{n}")
            })
            .with_secondary(o.span.clone(), format!("{}", o.ty)));
    };
    Ok(Checked {
        ty,
        kernel: Arc::new(GetTupleElementKernel { index: i }),
    })
}

struct GetTupleElementKernel {
    index: usize,
}

impl Kernel for GetTupleElementKernel {
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        xlet_grad::structural::get_tuple_element(cx, self.index)
    }
    fn allocates(&self) -> bool {
        false // shares the element
    }
    fn tuple_index(&self) -> Option<usize> {
        Some(self.index)
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        match args {
            [Value::Tuple(vs)] => vs
                .get(self.index)
                .cloned()
                .ok_or_else(|| internal("tuple index out of range")),
            _ => Err(internal("GetTupleElement expects one tuple")),
        }
    }
    /// A tuple nothing else holds gives its element away (no new reference to
    /// it), so the element stays uniquely owned for an in-place update.
    fn run_owned(&self, mut args: Vec<Value>, cx: &dyn EvalCx) -> Result<Value, KernelError> {
        if let [Value::Tuple(vs)] = args.as_mut_slice()
            && let Some(slot) = std::sync::Arc::get_mut(vs).and_then(|vs| vs.get_mut(self.index))
        {
            return Ok(std::mem::replace(
                slot,
                Value::Tuple(std::sync::Arc::new([])),
            ));
        }
        self.run(&args, cx)
    }
}
