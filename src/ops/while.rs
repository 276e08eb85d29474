//! While (spec/ops/while.md): `While(condition, body, init)` runs `body` on the
//! loop state while `condition` holds of it, and returns the last state. The
//! state is one value of any type (often a tuple); its type never changes.

use super::registry::{Checked, OpDef};
use crate::check::call::CallCtx;
use crate::diag::Diag;
use crate::eval::{INTERRUPTED, MAX_STEPS};
use crate::ir::{Comp, EvalCx, Kernel, KernelError};
use crate::types::{ElemType, Type};
use crate::value::{Array, Value};
use std::sync::Arc;
use std::sync::atomic::Ordering;

const SPEC: &str = include_str!("../../spec/ops/while.md");

pub const OPS: &[OpDef] = &[OpDef {
    name: "While",
    aliases: &[],
    signature: "While(condition, body, init)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let init = cx.operand(2, "init")?;
    let state = [init.ty.clone()];
    let pred = Type::scalar(ElemType::Pred);
    let cond = cx.computation(Some(0), "condition", &state, Some(&pred), "C1")?;
    let body = cx.computation(Some(1), "body", &state, Some(&init.ty), "C2")?;
    Ok(Checked {
        ty: init.ty,
        kernel: Arc::new(WhileKernel {
            cond: cond.value,
            body: body.value,
        }),
    })
}

struct WhileKernel {
    cond: Arc<Comp>,
    body: Arc<Comp>,
}

/// The value of a `pred[]` result.
pub fn truth(v: &Value) -> Result<bool, KernelError> {
    match v {
        Value::Array(Array::Pred(p)) if p.len() == 1 => Ok(p.iter().any(|&b| b)),
        _ => Err(KernelError::new(
            "internal",
            "internal error: a condition did not give a pred scalar",
        )),
    }
}

impl Kernel for WhileKernel {
    fn allocates(&self) -> bool {
        false // the body's ops account for what they make
    }
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let mut state = args
            .first()
            .cloned()
            .ok_or_else(|| KernelError::new("internal", "internal error: While without init"))?;
        let max = MAX_STEPS.load(Ordering::Relaxed);
        let mut steps: u64 = 0;
        loop {
            if INTERRUPTED.load(Ordering::Relaxed) {
                return Err(crate::kernels::strided::interrupt_error());
            }
            if !truth(&cx.call_comp(&self.cond, std::slice::from_ref(&state))?)? {
                return Ok(state);
            }
            steps += 1;
            if steps > max {
                return Err(KernelError::new(
                    "steps",
                    format!("While ran more than {max} iterations (the limit set by --max-steps)"),
                ));
            }
            state = cx.call_comp(&self.body, std::slice::from_ref(&state))?;
        }
    }
}
