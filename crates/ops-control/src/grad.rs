//! Grad (spec/ops/grad.md): `Grad(f, args..., wrt={...})`, the gradient of a
//! comp with a float scalar result, computed by a generated backward program
//! (spec/grad.md). The checker writes and checks that program; the op calls it.

use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::Value;
use xlet_grad::GradError;
use xlet_grad::program::{Mode, differentiate};
use xlet_ir::{Comp, EvalCx, Kernel, KernelError};
use xlet_syntax::ast::{Expr, ExprKind};

const SPEC: &str = include_str!("../../../spec/ops/grad.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Grad,
    aliases: &[],
    signature: "Grad(f, args..., wrt={i, ...})",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let f = comp_arg(cx)?;
    let mut args = vec![];
    for i in 1..cx.positional_count() {
        args.push(cx.require(Some(i), "args")?);
    }
    // `Grad(f, {2.0, 3.0})` (Vjp's form) for a two-parameter `f`.
    if let [one] = args.as_slice() {
        let items = match &one.kind {
            ExprKind::Brace(items) => items.len(),
            ExprKind::Numbers(run) => run.len(),
            _ => 0,
        };
        if f.params.len() > 1 && items == f.params.len() {
            let text = cx.text(&one.span).trim();
            let inner = text
                .strip_prefix('{')
                .and_then(|t| t.strip_suffix('}'))
                .unwrap_or(text)
                .trim();
            return Err(cx
                .err(
                    "C2",
                    format!(
                        "`{}` takes {}, 1 given",
                        f.name,
                        xlet_core::english::count(f.params.len(), "argument")
                    ),
                    one.span.clone(),
                )
                .with_label("one argument in braces")
                .with_secondary(f.span.clone(), "defined here")
                .with_help(format!(
                    "Grad takes the arguments one by one, without braces (Vjp takes them in braces): Grad({}, {inner})",
                    f.name
                )));
        }
    }
    let types = operands(cx, &f, &args)?;
    let wrt: Vec<usize> = match cx.int_list(None, "wrt")? {
        None => (0..f.params.len()).collect(),
        Some(w) => {
            let mut out = vec![];
            for &i in &w.value {
                let ok = usize::try_from(i).ok().filter(|&i| i < f.params.len());
                let Some(i) = ok else {
                    return Err(cx.err(
                        "C4",
                        format!(
                            "wrt={{..., {i}, ...}} is not a parameter of `{}`, which has {}",
                            f.name,
                            xlet_core::english::count(f.params.len(), "parameter")
                        ),
                        w.span.clone(),
                    ));
                };
                if out.contains(&i) {
                    return Err(cx.err(
                        "C4",
                        format!("wrt lists parameter {i} twice"),
                        w.span.clone(),
                    ));
                }
                out.push(i);
            }
            if out.is_empty() {
                return Err(cx.err("C4", "wrt={} asks for no gradient", w.span.clone()));
            }
            out
        }
    };
    let scalar_float = f
        .ret
        .as_array()
        .is_some_and(|a| a.is_scalar() && a.elem.is_float());
    if !scalar_float {
        return Err(cx
            .err(
                "C3",
                format!(
                    "Grad needs a computation with a float scalar result, but `{}` returns {}",
                    f.name, f.ret
                ),
                cx.span.clone(),
            )
            .with_secondary(f.span.clone(), "defined here")
            .with_help("for other results use Vjp(f, {args...}, cotangent)"));
    }
    for &i in &wrt {
        float_param(cx, &f, i, &types)?;
    }
    let d = differentiate(&f, &Mode::Grad { wrt }, &cx.ck.env, &cx.ck.limits)
        .map_err(|e| no_rule(cx, &f, e))?;
    let span = cx.span.clone();
    cx.ck.reach_through(&d.comp, &span)?;
    Ok(Checked {
        ty: d.comp.ret.clone(),
        kernel: Arc::new(GradKernel { comp: d.comp }),
    })
}

/// C1: the first argument names a user `comp`.
pub fn comp_arg(cx: &mut CallCtx) -> Result<Arc<Comp>, Diag> {
    let callee = cx.require(Some(0), "f")?;
    let found = match &callee.kind {
        ExprKind::Var(v) => cx.ck.env.comps.get(v).cloned(),
        _ => None,
    };
    if found.is_none()
        && let ExprKind::Var(v) = &callee.kind
        && let Some(d) = cx.ck.poisoned_use(v, &callee.span)
    {
        return Err(d);
    }
    found.ok_or_else(|| {
        cx.err(
            "C1",
            format!(
                "{} differentiates a computation: `{}` is not a `comp`",
                cx.name(),
                cx.text(&callee.span)
            ),
            callee.span.clone(),
        )
        .with_help("define it with `comp f(x: f32[3]) -> f32 { ... }` and pass its name")
    })
}

/// C2: the arguments are `f`'s parameters, by position and type.
pub fn operands(cx: &mut CallCtx, f: &Comp, args: &[&Expr]) -> Result<Vec<Type>, Diag> {
    if args.len() != f.params.len() {
        return Err(cx
            .err(
                "C2",
                format!(
                    "`{}` takes {}, {} given",
                    f.name,
                    xlet_core::english::count(f.params.len(), "argument"),
                    args.len()
                ),
                cx.span.clone(),
            )
            .with_secondary(f.span.clone(), "defined here"));
    }
    let mut types = vec![];
    for (a, (pname, pty)) in args.iter().zip(&f.params) {
        let hint: Option<ElemType> = pty.as_array().map(|t| t.elem);
        let op = cx.push_operand(a, hint)?;
        if &op.ty != pty {
            return Err(cx
                .err(
                    "C2",
                    format!(
                        "argument `{pname}` of `{}` must be {pty}, found {}",
                        f.name, op.ty
                    ),
                    op.span.clone(),
                )
                .with_label(format!("{}", op.ty))
                .with_secondary(f.span.clone(), "defined here"));
        }
        types.push(op.ty);
    }
    Ok(types)
}

/// C4: a parameter differentiated is a float or complex array.
pub fn float_param(cx: &CallCtx, f: &Comp, i: usize, types: &[Type]) -> Result<(), Diag> {
    let (pname, pty) = &f.params[i];
    if pty
        .as_array()
        .is_some_and(|a| xlet_ir::rule::carries_gradient(a.elem))
    {
        return Ok(());
    }
    Err(cx
        .err(
            "C4",
            format!(
                "cannot differentiate with respect to `{pname}`: it is {pty}, and only float and complex arrays have gradients"
            ),
            cx.span.clone(),
        )
        .with_secondary(f.span.clone(), "defined here")
        .with_help(if types.len() > 1 {
            "leave it out with wrt={...} listing the float parameters"
        } else {
            "make the parameter a float (f16, bf16, f32, f64) or complex (c64, c128)"
        }))
}

/// C5: an op of `f` without a rule (or a failure to write the program).
pub fn no_rule(cx: &CallCtx, f: &Comp, e: GradError) -> Diag {
    let at = e.span.as_ref().and_then(|s| {
        let a = s.start.checked_sub(f.text_at)?;
        let b = s.end.checked_sub(f.text_at)?;
        f.text.get(a..b)
    });
    let msg = match at {
        Some(t) => {
            let t: String = t.chars().take(60).collect();
            format!(
                "cannot differentiate `{}`: {} (at `{t}`)",
                f.name, e.message
            )
        }
        None => format!("cannot differentiate `{}`: {}", f.name, e.message),
    };
    let d = cx.err("C5", msg, cx.span.clone());
    // The op's span is in the input `f` came from: show it when that is this one.
    match e.span {
        Some(s) if cx.ck.src.get(s.clone()).is_some_and(|t| Some(t) == at) => {
            d.with_secondary(s, "no rule for this op")
        }
        _ => d.with_secondary(f.span.clone(), "defined here"),
    }
}

/// Calls the generated comp.
pub struct GradKernel {
    pub comp: Arc<Comp>,
}

impl Kernel for GradKernel {
    fn allocates(&self) -> bool {
        false // the generated program's ops account for what they make
    }
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        cx.call_comp(&self.comp, args)
    }
    /// A call of the generated comp: differentiating it again differentiates
    /// that comp (second order, spec/grad.md §3).
    fn called_comp(&self) -> Option<&Arc<Comp>> {
        Some(&self.comp)
    }
}
