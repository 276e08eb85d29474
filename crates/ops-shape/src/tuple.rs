//! Tuple (spec/ops/tuple.md): `Tuple(v0, v1, ...)`, the same value as the
//! literal form `(v0, v1, ...)`. Elements may be arrays or tuples.

use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/tuple.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Tuple,
    aliases: &[],
    signature: "Tuple(value0, value1, ...)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let n = cx.positional_count();
    let mut tys = Vec::with_capacity(n);
    for i in 0..n {
        let v = cx.operand(i, "value")?;
        tys.push(v.ty);
    }
    Ok(Checked {
        ty: Type::Tuple(tys),
        kernel: Arc::new(TupleKernel),
    })
}

struct TupleKernel;

impl Kernel for TupleKernel {
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        let ct = cx.ct.name.clone();
        let active = cx.active.to_vec();
        cx.grads = xlet_grad::structural::tuple(&active, &ct, cx.w);
        Ok(())
    }
    fn allocates(&self) -> bool {
        false // shares its elements
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        Ok(Value::tuple(args.to_vec()))
    }
}
