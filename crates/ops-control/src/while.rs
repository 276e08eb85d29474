//! While (spec/ops/while.md): `While(condition, body, init)` runs `body` on the
//! loop state while `condition` holds of it, and returns the last state. The
//! state is one value of any type (often a tuple); its type never changes.

use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{Array, Value};
use xlet_eval::comp::Vectorized;
use xlet_ir::{Comp, EvalCx, Kernel, KernelError};
use xlet_kernels::fused::{Chunk, Slice};
use xlet_plan::{LoopPlan, steps_error};

const SPEC: &str = include_str!("../../../spec/ops/while.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::While,
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
    // A loop over scalars whose comps are elementwise runs without the evaluator.
    let fast = match (
        Vectorized::compile(&cond.value),
        Vectorized::compile(&body.value),
    ) {
        (Some(c), Some(b)) => Some((c, b)),
        _ => None,
    };
    // Loops over small state run as a register machine (spec/plan.md).
    let plan = LoopPlan::compile(&cond.value, &body.value, &init.ty);
    Ok(Checked {
        ty: init.ty.clone(),
        kernel: Arc::new(WhileKernel {
            cond: cond.value,
            body: body.value,
            fast,
            plan,
            ty: init.ty,
        }),
    })
}

struct WhileKernel {
    cond: Arc<Comp>,
    body: Arc<Comp>,
    /// Condition and body compiled into the fused engine, when the state is
    /// scalars (or tuples of them) and both comps are elementwise.
    fast: Option<(Vectorized, Vectorized)>,
    /// Condition and body compiled into an execution plan, when every op of
    /// both is in its subset; run unless the run turns plans off (`--no-plan`).
    plan: Option<LoopPlan>,
    ty: Type,
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
    fn while_loop(&self) -> Option<(&Arc<Comp>, &Arc<Comp>)> {
        Some((&self.cond, &self.body))
    }
    /// Reached only when the trip count depends on data (a fixed one is
    /// written out iteration by iteration instead, spec/grad.md §4.5).
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        xlet_grad::while_loop::rule(cx, &self.cond, &self.body)
    }
    fn computations(&self) -> Vec<Arc<Comp>> {
        vec![self.cond.clone(), self.body.clone()]
    }
    fn allocates(&self) -> bool {
        false // the body's ops account for what they make
    }
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        self.run_owned(args.to_vec(), cx)
    }
    /// The state is handed from iteration to iteration without another
    /// reference to it, so the body may update it in place.
    fn run_owned(&self, args: Vec<Value>, cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let mut state = args
            .into_iter()
            .next()
            .ok_or_else(|| KernelError::new("internal", "internal error: While without init"))?;
        if let (true, Some(plan)) = (cx.plan(), &self.plan) {
            // A top-level value the loop reads has none: the evaluator says so.
            if let Some(globals) = plan.globals(cx) {
                return plan.run(globals, state, cx);
            }
        }
        if let Some((c, b)) = &self.fast {
            return scalar_loop(c, b, &state, &self.ty, cx.max_steps());
        }
        let max = cx.max_steps();
        let mut steps: u64 = 0;
        loop {
            if xlet_core::config::interrupted() {
                return Err(xlet_kernels::strided::interrupt_error());
            }
            if !truth(&cx.call_comp(&self.cond, std::slice::from_ref(&state))?)? {
                return Ok(state);
            }
            steps += 1;
            if steps > max {
                return Err(steps_error(max));
            }
            state = cx.call_comp_owned(&self.body, vec![state])?;
        }
    }
}

fn internal() -> KernelError {
    KernelError::new("internal", "internal error: While state")
}

/// The reference loop's semantics on a state of scalars held in one-element
/// buffers: each iteration runs the compiled condition and body directly, with
/// no allocation and no evaluator in between (spec/ops/while.md, speed).
fn scalar_loop(
    cond: &Vectorized,
    body: &Vectorized,
    init: &Value,
    ty: &Type,
    max_steps: u64,
) -> Result<Value, KernelError> {
    let mut leaves = vec![];
    flatten(init, &mut leaves);
    let mut state = leaves
        .iter()
        .map(Chunk::from_scalar)
        .collect::<Option<Vec<_>>>()
        .ok_or_else(internal)?;
    let mut next: Vec<Chunk> = leaves
        .iter()
        .map(|a| xlet_kernels::fused::empty_chunk(a.elem()))
        .collect();
    let mut verdict = vec![xlet_kernels::fused::empty_chunk(ElemType::Pred)];
    let (mut cs, mut bs) = (cond.scratch()?, body.scratch()?);
    let max = max_steps;
    let mut steps: u64 = 0;
    loop {
        if xlet_core::config::interrupted() {
            return Err(xlet_kernels::strided::interrupt_error());
        }
        let go = with_slices(&state, |s| -> Result<bool, KernelError> {
            cond.run_one(s, &mut cs, &mut verdict)?;
            let go = matches!(verdict.first(), Some(Chunk::Pred(v)) if v.first() == Some(&true));
            if go {
                steps += 1;
                if steps > max {
                    return Err(steps_error(max));
                }
                body.run_one(s, &mut bs, &mut next)?;
            }
            Ok(go)
        })?;
        if !go {
            break;
        }
        std::mem::swap(&mut state, &mut next);
    }
    let mut it = state.iter();
    rebuild(ty, &mut it).ok_or_else(internal)
}

/// Runs `f` on the buffers as slices, without allocating for small states.
fn with_slices<R>(chunks: &[Chunk], f: impl FnOnce(&[Slice]) -> R) -> R {
    let mut fixed = [Slice::Pred(&[]); 8];
    if chunks.len() <= fixed.len() {
        for (d, c) in fixed.iter_mut().zip(chunks) {
            *d = c.as_slice();
        }
        f(&fixed[..chunks.len()])
    } else {
        let v: Vec<Slice> = chunks.iter().map(Chunk::as_slice).collect();
        f(&v)
    }
}

fn flatten(v: &Value, out: &mut Vec<Array>) {
    match v {
        Value::Array(a) => out.push(a.clone()),
        Value::Tuple(items) => items.iter().for_each(|i| flatten(i, out)),
    }
}

fn rebuild<'c>(ty: &Type, it: &mut impl Iterator<Item = &'c Chunk>) -> Option<Value> {
    match ty {
        Type::Array(_) => it.next()?.to_scalar().map(Value::Array),
        Type::Tuple(items) => Some(Value::tuple(
            items
                .iter()
                .map(|t| rebuild(t, it))
                .collect::<Option<Vec<_>>>()?,
        )),
    }
}
