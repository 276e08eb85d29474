//! Dot (spec/ops/dot.md): `Dot(lhs, rhs[, preferred_element_type=T])` on
//! vectors and matrices. It contracts the last dimension of lhs with the first
//! of rhs: a DotGeneral with those contracting dimensions and no batch, so it
//! checks its own (simpler) rules and then builds DotGeneral's kernel.

use super::dot_general::{self, DotDims};
use super::registry::{Checked, OpDef, OpId};
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;

const SPEC: &str = include_str!("../../../spec/ops/dot.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Dot,
    aliases: &[],
    signature: "Dot(lhs, rhs[, preferred_element_type=T])",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let ops = cx.operands_alike(&[(0, "lhs"), (1, "rhs")], None)?;
    let (l, r) = (&ops[0], &ops[1]);
    let lt = cx.array(l, "C1", "lhs")?.clone();
    let rt = cx.array(r, "C1", "rhs")?.clone();
    let shapes = format!("lhs is {lt}, rhs is {rt}");
    for (o, t, side) in [(l, &lt, "lhs"), (r, &rt, "rhs")] {
        if !(1..=2).contains(&t.rank()) {
            let help = if t.rank() == 0 {
                "a scalar has nothing to contract: multiply with Mul (and broadcast_dimensions)"
                    .to_string()
            } else {
                "for stacks of matrices use DotGeneral with batch dimensions, e.g. DotGeneral(lhs, rhs, lhs_contracting_dimensions={2}, rhs_contracting_dimensions={1}, lhs_batch_dimensions={0}, rhs_batch_dimensions={0})".to_string()
            };
            return Err(cx
                .err(
                    "C1",
                    format!(
                        "{side} must be a vector or a matrix (rank 1 or 2), found {t} (rank {})",
                        t.rank()
                    ),
                    o.span.clone(),
                )
                .with_label(format!("rank {}", t.rank()))
                .with_help(help)
                .with_note(shapes));
        }
    }
    dot_general::same_elem(cx, "C3", (l, &lt), (r, &rt))
        .map_err(|d| d.with_note(shapes.clone()))?;
    let (lk, rk) = (lt.rank() - 1, 0);
    if lt.dims[lk] != rt.dims[rk] {
        let mut d = cx
            .err(
                "C2",
                format!(
                    "Dot contracts the last dimension of lhs with the first of rhs, and they must have one size: lhs {lt} has {} there, rhs {rt} has {}",
                    lt.dims[lk], rt.dims[rk]
                ),
                r.span.clone(),
            )
            .with_label(format!("first dimension: {}", rt.dims[rk]))
            .with_secondary(l.span.clone(), format!("last dimension: {}", lt.dims[lk]));
        if rt.rank() == 2 && rt.dims[1] == lt.dims[lk] {
            d = d.with_help(format!(
                "to contract with rhs's last dimension, transpose it: Dot({}, Transpose({}, {{1, 0}}))",
                cx.text(&l.span),
                cx.text(&r.span)
            ));
        } else if lt.rank() == 2 && lt.dims[0] == rt.dims[rk] {
            d = d.with_help(format!(
                "to contract lhs's first dimension, transpose it: Dot(Transpose({}, {{1, 0}}), {})",
                cx.text(&l.span),
                cx.text(&r.span)
            ));
        }
        return Err(d.with_note(shapes));
    }
    let preferred =
        dot_general::preferred_type(cx, lt.elem, "C4").map_err(|d| d.with_note(shapes))?;
    let dims = DotDims {
        lhs_contracting: vec![lk],
        rhs_contracting: vec![rk],
        ..DotDims::default()
    };
    Ok(dot_general::checked(
        &lt,
        &rt,
        &dims,
        preferred.unwrap_or(lt.elem),
    ))
}
