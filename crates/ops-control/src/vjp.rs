//! Vjp (spec/ops/vjp.md): `Vjp(f, {args...}, cotangent)`, `(f(args...),
//! (gradients...))` for a cotangent of `f`'s result type, by the generated
//! backward program of spec/grad.md.

use super::grad::{GradKernel, comp_arg, float_param, no_rule, operands};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_check::comp_arg::number_items;
use xlet_core::diag::Diag;
use xlet_grad::program::{Mode, differentiate};

const SPEC: &str = include_str!("../../../spec/ops/vjp.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Vjp,
    aliases: &[],
    signature: "Vjp(f, {args...}, cotangent)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let f = comp_arg(cx)?;
    let list = cx.require(Some(1), "args")?;
    let owned: Vec<xlet_syntax::ast::Expr>;
    let n = f.params.len();
    let args: Vec<&xlet_syntax::ast::Expr> = match &list.kind {
        xlet_syntax::ast::ExprKind::Brace(items) => items.iter().collect(),
        // `{2.0, 3.0}` for a two-parameter `f`: a brace of as many numbers as
        // `f` has parameters is the argument list (as Reduce's init values).
        xlet_syntax::ast::ExprKind::Numbers(run) if run.len() == n => {
            owned = number_items(run);
            owned.iter().collect()
        }
        xlet_syntax::ast::ExprKind::Numbers(run) => {
            return Err(cx
                .err(
                    "C2",
                    format!(
                        "`{}` takes {}, but the brace holds {}",
                        f.name,
                        xlet_core::english::count(n, "argument"),
                        xlet_core::english::count(run.len(), "number")
                    ),
                    list.span.clone(),
                )
                .with_label(format!("{} numbers", run.len()))
                .with_secondary(f.span.clone(), "defined here")
                .with_help(format!(
                    "the braces hold one argument per parameter: for one array argument write {{{}}}",
                    cx.text(&list.span)
                )));
        }
        _ => {
            return Err(cx
                .err(
                    "C2",
                    "Vjp takes its arguments as a list: Vjp(f, {x, y}, cotangent)",
                    list.span.clone(),
                )
                .with_help("write the arguments inside braces, even a single one: {x}"));
        }
    };
    let types = operands(cx, &f, &args)?;
    let ct = cx.require(Some(2), "cotangent")?;
    let hint = f.ret.as_array().map(|a| a.elem);
    let ct = cx.push_operand(ct, hint)?;
    let float_result = f
        .ret
        .as_array()
        .is_some_and(|a| xlet_ir::rule::carries_gradient(a.elem));
    if !float_result {
        return Err(cx
            .err(
                "C3",
                format!(
                    "Vjp needs a computation with a float or complex array result, but `{}` returns {}",
                    f.name, f.ret
                ),
                cx.span.clone(),
            )
            .with_secondary(f.span.clone(), "defined here"));
    }
    if ct.ty != f.ret {
        return Err(cx
            .err(
                "C3",
                format!(
                    "the cotangent must have `{}`'s result type {}, found {}",
                    f.name, f.ret, ct.ty
                ),
                ct.span.clone(),
            )
            .with_label(format!("{}", ct.ty)));
    }
    for i in 0..f.params.len() {
        float_param(cx, &f, i, &types)?;
    }
    let d =
        differentiate(&f, &Mode::Vjp, &cx.ck.env, &cx.ck.limits).map_err(|e| no_rule(cx, &f, e))?;
    let span = cx.span.clone();
    cx.ck.reach_through(&d.comp, &span)?;
    Ok(Checked {
        ty: d.comp.ret.clone(),
        kernel: Arc::new(GradKernel { comp: d.comp }),
    })
}
