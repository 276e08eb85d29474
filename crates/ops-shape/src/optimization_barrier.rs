//! OptimizationBarrier (spec/ops/optimization_barrier.md):
//! `OptimizationBarrier(operand)`, the operand unchanged. xlet evaluates every
//! argument before the op that reads it and moves no computation across an
//! op, so the barrier's guarantee holds by construction and the kernel only
//! hands its operand back.

use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::value::Value;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/optimization_barrier.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::OptimizationBarrier,
    aliases: &[],
    signature: "OptimizationBarrier(operand)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    Ok(Checked {
        ty: o.ty,
        kernel: Arc::new(OptimizationBarrierKernel),
    })
}

struct OptimizationBarrierKernel;

impl Kernel for OptimizationBarrierKernel {
    /// The identity's cotangent is the cotangent itself.
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        if cx.is_active(0) {
            let ct = cx.ct.name.clone();
            cx.send(0, ct);
        }
        Ok(())
    }
    fn allocates(&self) -> bool {
        false // shares its operand
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        match args {
            [v] => Ok(v.clone()),
            _ => Err(super::common::internal(
                "OptimizationBarrier expects one operand",
            )),
        }
    }
    /// An operand nothing else holds is handed on as it is, still uniquely owned.
    fn run_owned(&self, mut args: Vec<Value>, cx: &dyn EvalCx) -> Result<Value, KernelError> {
        match args.pop() {
            Some(v) if args.is_empty() => Ok(v),
            _ => self.run(&[], cx),
        }
    }
}
