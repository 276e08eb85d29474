//! Select (spec/ops/select.md): `Select(pred, on_true, on_false)`.
//! With a scalar `pred` the whole of `on_true` or `on_false` is the result (no
//! copy; this is also how tuples are selected); with an array `pred` each
//! element is chosen by the element of `pred` at the same index, by an
//! elementwise kernel that fuses with the elementwise ops around it.

use super::common::{internal, typed};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::Value;
use xlet_core::with_elem_type;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::fused::ternary;
use xlet_kernels::fused::{ElementwiseFn, ElementwiseKernel};

const SPEC: &str = include_str!("../../../spec/ops/select.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Select,
    aliases: &[],
    signature: "Select(pred, on_true, on_false)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let p_expr = cx.require(Some(0), "pred")?;
    let p = cx.push_operand(p_expr, Some(ElemType::Pred))?;
    let ops = cx.operands_alike(&[(1, "on_true"), (2, "on_false")], None)?;
    let (t, f) = (&ops[0], &ops[1]);
    let pt = match p.ty.as_array() {
        Some(a) if a.elem == ElemType::Pred => a.clone(),
        _ => {
            return Err(cx
                .err("C1", format!("pred must be an array of pred, found {}", p.ty), p.span.clone())
                .with_label(format!("{}", p.ty))
                .with_help("make a predicate with a comparison, e.g. Gt(x, 0), or ConvertElementType(x, pred)"));
        }
    };
    if t.ty != f.ty {
        let mut d = cx
            .err(
                "C2",
                format!(
                    "on_true and on_false must have the same type, found {} and {}",
                    t.ty, f.ty
                ),
                cx.span.clone(),
            )
            .with_label("types differ")
            .with_secondary(t.span.clone(), format!("{}", t.ty))
            .with_secondary(f.span.clone(), format!("{}", f.ty));
        // `Select(x > 0.0, x, 0.0)`: XLA does not broadcast a scalar branch.
        if let (Some(a), Some(b)) = (t.ty.as_array(), f.ty.as_array()) {
            if a.elem == b.elem && (a.is_scalar() != b.is_scalar()) {
                let (array, scalar_at) = if a.is_scalar() { (b, 1) } else { (a, 2) };
                let texts = [&p.span, &t.span, &f.span].map(|s| cx.text(s).to_string());
                let dims = array
                    .dims
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                let mut args = texts.clone();
                args[scalar_at] = format!("Broadcast({}, {{{dims}}})", texts[scalar_at]);
                d = d.with_help(format!(
                    "Select does not broadcast a scalar: did you mean Select({})?",
                    args.join(", ")
                ));
            }
        }
        return Err(d);
    }
    let kernel: Arc<dyn Kernel> = match &t.ty {
        // All scalars: elementwise (so a comp using Select can be compiled into
        // the fused engine); a scalar pred with array or tuple branches picks one whole.
        Type::Array(at) if at.dims == pt.dims => {
            let id: Vec<usize> = (0..at.rank()).collect();
            Arc::new(ElementwiseKernel {
                f: pick(at.elem),
                maps: vec![id.clone(), id.clone(), id],
                out_dims: at.dims.clone(),
                out_elem: at.elem,
            })
        }
        _ if pt.is_scalar() => Arc::new(WholeSelect),
        Type::Array(at) => {
            return Err(cx
                .err(
                    "C3",
                    format!("pred {pt} must be a scalar or have the dimensions of on_true and on_false ({at})"),
                    p.span.clone(),
                )
                .with_label(format!("{pt}"))
                .with_secondary(t.span.clone(), format!("{at}")));
        }
        Type::Tuple(_) => {
            return Err(cx
                .err(
                    "C3",
                    format!("selecting between tuples needs a scalar pred, found {pt}"),
                    p.span.clone(),
                )
                .with_label(format!("{pt}"))
                .with_secondary(t.span.clone(), format!("{}", t.ty))
                .with_note("a tuple is selected as a whole"));
        }
    };
    Ok(Checked {
        ty: t.ty.clone(),
        kernel,
    })
}

fn pick(e: ElemType) -> Arc<dyn ElementwiseFn> {
    with_elem_type!(e, T => ternary::<bool, T, T, T, _>(|c: bool, x: T, y: T| if c { x } else { y }))
}

/// Select with a scalar pred: the chosen operand, whole (arrays or tuples).
struct WholeSelect;

impl Kernel for WholeSelect {
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        xlet_grad::structural::whole_select(cx)
    }
    fn allocates(&self) -> bool {
        false // one of the operands itself
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(p), on_true, on_false] = args else {
            return Err(internal("Select expects pred, on_true and on_false"));
        };
        let c = typed::<bool>(p)?
            .first()
            .copied()
            .ok_or_else(|| internal("Select pred is empty"))?;
        Ok(if c { on_true.clone() } else { on_false.clone() })
    }
}
