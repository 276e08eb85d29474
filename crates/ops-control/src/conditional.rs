//! Conditional (spec/ops/conditional.md): runs one of several computations on
//! its own operand. The seed's form `Conditional(pred, true_operand,
//! true_computation, false_operand, false_computation)` and current XLA's
//! `Conditional(branch_index, {comp0, ...}, {operand0, ...})`, where an index
//! out of range runs the last branch.

use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::ElemType;
use xlet_core::value::{Array, Value};
use xlet_ir::{Comp, EvalCx, Kernel, KernelError};
use xlet_syntax::ast::ExprKind;

const SPEC: &str = include_str!("../../../spec/ops/conditional.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Conditional,
    aliases: &[],
    signature: "Conditional(pred, true_operand, true_computation, false_operand, false_computation) · Conditional(branch_index, {branch_computations}, {branch_operands})",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let first = cx.require(Some(0), "pred")?;
    let sel = cx.push_operand(first, None)?;
    let elem = match sel.ty.as_array() {
        Some(t) if t.dims.is_empty() => t.elem,
        _ => {
            return Err(cx
                .err(
                    "C1",
                    format!(
                        "the first argument must be a pred or s32 scalar, found {}",
                        sel.ty
                    ),
                    sel.span.clone(),
                )
                .with_label(format!("{}", sel.ty))
                .with_help("a pred picks between two branches, an s32 index among several"));
        }
    };
    let branches = match elem {
        ElemType::Pred => predicate_form(cx)?,
        ElemType::S32 => indexed_form(cx)?,
        other => {
            return Err(cx
                .err(
                    "C1",
                    format!("the branch index must be s32 (or a pred), found {other}"),
                    sel.span.clone(),
                )
                .with_label(format!("{}", sel.ty))
                .with_help(format!(
                    "convert it: ConvertElementType({}, s32)",
                    cx.text(&sel.span)
                )));
        }
    };
    let ty = branches[0].ret.clone();
    Ok(Checked {
        ty,
        kernel: Arc::new(ConditionalKernel {
            branches,
            by_pred: elem == ElemType::Pred,
        }),
    })
}

/// `pred, true_operand, true_computation, false_operand, false_computation`:
/// branch 0 is the true one (the kernel maps `true` to it).
fn predicate_form(cx: &mut CallCtx) -> Result<Vec<Arc<Comp>>, Diag> {
    let t = cx.operand(1, "true_operand")?;
    let f = cx.operand(3, "false_operand")?;
    let tc = cx.computation(Some(2), "true_computation", &[t.ty], None, "C2")?;
    let fc = cx.computation(
        Some(4),
        "false_computation",
        &[f.ty],
        Some(&tc.value.ret),
        "C3",
    )?;
    Ok(vec![tc.value, fc.value])
}

/// `branch_index, {comp0, ...}, {operand0, ...}`.
fn indexed_form(cx: &mut CallCtx) -> Result<Vec<Arc<Comp>>, Diag> {
    let comps_expr = cx.require(Some(1), "branch_computations")?;
    let names: Vec<&xlet_syntax::ast::Expr> = match &comps_expr.kind {
        ExprKind::Brace(items) if !items.is_empty() => items.iter().collect(),
        _ => {
            return Err(cx
                .err(
                    "C4",
                    "`branch_computations` must be a non-empty list of computations {f, g, ...}",
                    comps_expr.span.clone(),
                )
                .with_label("not a list of computations"));
        }
    };
    let ops = cx.operand_list(2, "branch_operands", Some(names.len()), &[])?;
    if ops.items.len() != names.len() {
        return Err(cx
            .err(
                "C4",
                format!(
                    "{} computations but {} operands: each branch takes its own operand",
                    names.len(),
                    ops.items.len()
                ),
                ops.span.clone(),
            )
            .with_secondary(
                comps_expr.span.clone(),
                format!("{} computations", names.len()),
            ));
    }
    let mut out: Vec<Arc<Comp>> = vec![];
    for (e, o) in names.iter().zip(&ops.items) {
        let ret = out.first().map(|c| c.ret.clone());
        let c = cx.computation_of(
            e,
            "branch_computations",
            &[o.ty.clone()],
            ret.as_ref(),
            if ret.is_some() { "C3" } else { "C2" },
        )?;
        out.push(c.value);
    }
    Ok(out)
}

struct ConditionalKernel {
    branches: Vec<Arc<Comp>>,
    by_pred: bool,
}

impl Kernel for ConditionalKernel {
    /// The same choice among the branches' backward passes (spec/grad.md §4.3).
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        xlet_grad::control::conditional(cx, &self.branches, self.by_pred)
    }
    fn computations(&self) -> Vec<Arc<Comp>> {
        self.branches.clone()
    }
    fn allocates(&self) -> bool {
        false // the branch's ops account for what they make
    }
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let bad = || KernelError::new("internal", "internal error: Conditional arguments");
        let (sel, operands) = args.split_first().ok_or_else(bad)?;
        let last = self.branches.len().saturating_sub(1);
        let k = match sel {
            Value::Array(Array::Pred(p)) if self.by_pred => {
                if p.iter().next().copied().ok_or_else(bad)? {
                    0
                } else {
                    1
                }
            }
            // XLA: an index below zero or past the end runs the last branch.
            Value::Array(Array::S32(i)) => {
                let i = *i.iter().next().ok_or_else(bad)?;
                usize::try_from(i)
                    .ok()
                    .filter(|&i| i <= last)
                    .unwrap_or(last)
            }
            _ => return Err(bad()),
        };
        let comp = self.branches.get(k).ok_or_else(bad)?;
        let operand = operands.get(k).ok_or_else(bad)?;
        cx.call_comp(comp, std::slice::from_ref(operand))
    }
}
