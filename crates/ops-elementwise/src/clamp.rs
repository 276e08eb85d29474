//! Clamp (spec/ops/clamp.md): `Clamp(min, operand, max)` =
//! `Min(Max(operand, min), max)` per element, with Max and Min as in
//! spec/ops/binary.md (NaN-propagating on floats). `min` and `max` are each a
//! scalar (read with stride 0) or an array of the operand's shape. Clamp is an
//! elementwise kernel, so it fuses with the elementwise ops around it.

use super::registry::{Checked, OpDef, OpId};
use crate::for_class;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_kernels::fused::{ElementwiseKernel, ternary};
use xlet_kernels::math::{fmax, fmin};

const SPEC: &str = include_str!("../../../spec/ops/clamp.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Clamp,
    aliases: &[],
    signature: "Clamp(min, operand, max)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    // `Clamp(x, min=0, max=1)` (numpy's `clip(x, a_min=..., a_max=...)`): the
    // array went to the first position, which is `min`.
    if cx.positional_count() == 1 && cx.peek_named("operand").is_none() {
        if let (Some(x), Some(lo), Some(hi)) =
            (cx.peek(0), cx.peek_named("min"), cx.peek_named("max"))
        {
            let [x_t, lo_t, hi_t] = [x, lo, hi].map(|e| cx.text(&e.span));
            return Err(Diag::check(
                cx.code("arity"),
                format!("Clamp: `min` is given twice, by position ({x_t}) and by name"),
                lo.span.clone(),
            )
            .with_label("min given again here")
            .with_secondary(x.span.clone(), "the first position is `min`")
            .with_help(format!(
                "XLA's order is Clamp(min, operand, max), the operand in the middle: did you mean Clamp({lo_t}, {x_t}, {hi_t})?"
            )));
        }
    }
    let ops = cx.operands_alike(&[(0, "min"), (1, "operand"), (2, "max")], None)?;
    let lo = cx.array(&ops[0], "C1", "min")?.clone();
    let x = cx.array(&ops[1], "C1", "operand")?.clone();
    let hi = cx.array(&ops[2], "C1", "max")?.clone();
    for (b, o) in [(&lo, &ops[0]), (&hi, &ops[2])] {
        if b.elem != x.elem {
            return Err(cx
                .err(
                    "C2",
                    format!(
                        "min, operand and max must have one element type, found {lo}, {x} and {hi}"
                    ),
                    o.span.clone(),
                )
                .with_label(format!("{b}"))
                .with_secondary(ops[1].span.clone(), format!("the operand is {x}"))
                .with_help(format!(
                    "XLA does not promote types: convert with ConvertElementType(..., {})",
                    x.elem
                )));
        }
    }
    for (c, name, b, o) in [("C3", "min", &lo, &ops[0]), ("C4", "max", &hi, &ops[2])] {
        if !b.is_scalar() && b.dims != x.dims {
            let mut d = cx
                .err(
                    c,
                    format!("{name} {b} must be a scalar or have the operand's shape {x}"),
                    o.span.clone(),
                )
                .with_label(format!("{b}"))
                .with_secondary(ops[1].span.clone(), format!("the operand is {x}"));
            // `Clamp(x, -1, 1)` (numpy's `clip` order) puts the array first.
            if x.is_scalar() {
                let [lo_t, x_t, hi_t] = [0, 1, 2].map(|i| cx.text(&ops[i].span));
                let fixed = if c == "C3" {
                    format!("Clamp({x_t}, {lo_t}, {hi_t})")
                } else {
                    format!("Clamp({lo_t}, {hi_t}, {x_t})")
                };
                d = d.with_help(format!(
                    "XLA's order is Clamp(min, operand, max), the operand in the middle: did you mean {fixed}?"
                ));
            }
            return Err(d);
        }
    }
    // A small type clamps in its compute type (spec/small_types.md §5).
    let ce = x.elem.compute();
    let f = for_class!(ce, T, [int, pred] => ternary::<T, T, T, T, _>(|lo: T, x: T, hi: T| x.max(lo).min(hi)))
        .or_else(|| for_class!(ce, T, [float] => ternary::<T, T, T, T, _>(|lo: T, x: T, hi: T| fmin(fmax(x, lo), hi))))
        // Complex: Max and Min's lexicographic order (spec/numerics.md §7).
        .or_else(|| for_class!(ce, T, [complex] => ternary::<T, T, T, T, _>(|lo: T, x: T, hi: T| xlet_kernels::complex::min(xlet_kernels::complex::max(x, lo), hi))))
        .ok_or_else(|| internal_diag(cx))?;
    let rank = x.rank();
    let place = |b: &xlet_core::types::ArrayType| {
        if b.is_scalar() {
            vec![]
        } else {
            (0..rank).collect()
        }
    };
    Ok(Checked {
        ty: Type::Array(x.clone()),
        kernel: crate::small::widened(
            Arc::new(ElementwiseKernel {
                f,
                maps: vec![place(&lo), (0..rank).collect(), place(&hi)],
                out_dims: x.dims.clone(),
                out_elem: ce,
            }),
            &[x.elem; 3],
            x.elem,
        ),
    })
}

fn internal_diag(cx: &CallCtx) -> Diag {
    Diag::check(
        cx.code("internal"),
        "Clamp: no kernel for this element type",
        cx.span.clone(),
    )
}
