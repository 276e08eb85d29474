//! What BatchNormTraining, BatchNormInference and BatchNormGrad read alike
//! (spec/ops/batch_norm_training.md and its two siblings): the operand (C1),
//! `feature_index` (C2), the rank-1 per-feature operands (C3, C4) and
//! `epsilon` (C5). The labels mean the same in the three specs; BatchNormGrad's
//! `grad_output` (C6) is its own.

use super::common::{contiguous, internal};
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::ArrayType;
use xlet_core::value::Nd;
use xlet_ir::KernelError;
use xlet_kernels::batch_norm::{BnElem, View, reads_in_place};
use xlet_syntax::ast::{Expr, ExprKind, TypeExprKind, UnOp};

/// The attributes every batch-norm op has, checked.
pub struct Common {
    pub operand: ArrayType,
    pub feature: usize,
    /// XLA's epsilon is an f32 attribute: the literal rounded to f32.
    pub epsilon: f32,
}

impl Common {
    pub fn features(&self) -> usize {
        self.operand.dims[self.feature]
    }
}

/// Reads `operand` (position 0, pushed first), then `epsilon` and
/// `feature_index` at their positions (or by name).
pub fn read_common(cx: &mut CallCtx, eps_pos: usize, fi_pos: usize) -> Result<Common, Diag> {
    let o = cx.operand(0, "operand")?;
    let help = format!(
        "convert it first: ConvertElementType({}, f32)",
        cx.text(&o.span)
    );
    let t = cx.float_array(&o, "C1", help)?;
    let feature = feature_index(cx, fi_pos, &t)?;
    let epsilon = epsilon(cx, eps_pos)?;
    Ok(Common {
        operand: t,
        feature,
        epsilon,
    })
}

fn feature_index(cx: &mut CallCtx, pos: usize, t: &ArrayType) -> Result<usize, Diag> {
    let Some(a) = cx.int(Some(pos), "feature_index")? else {
        // Absent: `require` says so in the words every op uses.
        return Err(match cx.require(Some(pos), "feature_index") {
            Err(d) => d,
            Ok(e) => cx.err("arity", "missing argument `feature_index`", e.span.clone()),
        });
    };
    let rank = t.rank();
    if a.value >= 0 && (a.value as u64) < rank as u64 {
        return Ok(a.value as usize);
    }
    let msg = if rank == 0 {
        format!("a scalar operand ({t}) has no feature dimension")
    } else {
        format!(
            "`feature_index` must be a dimension of the operand {t} (0 to {}), found {}",
            rank - 1,
            a.value
        )
    };
    Err(cx
        .err("C2", msg, a.span.clone())
        .with_label(format!("no dimension {}", a.value)))
}

/// A float literal as written: `0.001`, `1e-5`, `-0.5`, `inf`, `f32 0.001`.
fn float_literal(e: &Expr) -> Option<f32> {
    match &e.kind {
        ExprKind::Number(n) if !n.is_integer => n.text.parse::<f32>().ok(),
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } => float_literal(operand).map(|v| -v),
        ExprKind::Typed { ty, value } => match &ty.kind {
            TypeExprKind::Array { elem, dims }
                if elem.is_float() && dims.as_ref().is_none_or(|d| d.is_empty()) =>
            {
                match &value.kind {
                    ExprKind::Number(n) => n.text.parse::<f32>().ok(),
                    ExprKind::Unary {
                        op: UnOp::Neg,
                        operand,
                    } => match &operand.kind {
                        ExprKind::Number(n) => n.text.parse::<f32>().ok().map(|v| -v),
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        },
        _ => None,
    }
}

fn epsilon(cx: &mut CallCtx, pos: usize) -> Result<f32, Diag> {
    let e = cx.require(Some(pos), "epsilon")?;
    let written = cx.text(&e.span);
    if let Some(v) = float_literal(e) {
        // As for every float literal (spec/language.md §8.2), a number that
        // rounds to infinity does not fit: infinity is written `inf`.
        if v.is_infinite() && !written.contains("inf") {
            return Err(cx
                .err(
                    "C5",
                    format!(
                        "`epsilon` {} rounds to infinity in f32 (the largest finite f32 is 3.4028235e38)",
                        written.trim()
                    ),
                    e.span.clone(),
                )
                .with_label("does not fit in f32")
                .with_help("write `inf` for an infinite epsilon"));
        }
        return Ok(v);
    }
    let integer = matches!(&e.kind, ExprKind::Number(n) if n.is_integer)
        || matches!(&e.kind, ExprKind::Unary { operand, .. }
            if matches!(&operand.kind, ExprKind::Number(n) if n.is_integer));
    let d = cx
        .err(
            "C5",
            format!("`epsilon` must be a float literal such as 0.001, found `{written}`"),
            e.span.clone(),
        )
        .with_label("not a float literal");
    Err(if integer {
        d.with_help(format!(
            "write it as a float: {}",
            written.trim().to_string() + ".0"
        ))
    } else {
        d.with_note("epsilon is a static attribute (an f32 in XLA), written in place")
    })
}

/// Reads the rank-1 per-feature operand `name` at `pos` (pushed now): the
/// operand's element type (C3) and one entry per feature (C4). Untyped
/// literals take the operand's element type.
pub fn per_feature(cx: &mut CallCtx, pos: usize, name: &str, c: &Common) -> Result<(), Diag> {
    let e = cx.require(Some(pos), name)?;
    let o = cx.push_operand(e, Some(c.operand.elem))?;
    let t = cx.array(&o, "C3", name)?.clone();
    let op = &c.operand;
    if t.rank() != 1 || t.elem != op.elem {
        return Err(cx
            .err(
                "C3",
                format!(
                    "`{name}` must be a rank-1 array of the operand's element type {}, found {t}",
                    op.elem.name()
                ),
                o.span.clone(),
            )
            .with_label(format!(
                "{t}, expected {}[{}]",
                op.elem.name(),
                c.features()
            )));
    }
    if t.dims[0] != c.features() {
        return Err(cx
            .err(
                "C4",
                format!(
                    "`{name}` must have one entry per feature: the operand {op} has {} along feature_index {}, `{name}` is {t}",
                    c.features(),
                    c.feature
                ),
                o.span.clone(),
            )
            .with_label(format!(
                "{} entries, expected {}",
                t.dims[0],
                c.features()
            )));
    }
    Ok(())
}

/// The operands as the kernels get them (run time): themselves, or row-major
/// copies when they read badly in place (`kernels::batch_norm::reads_in_place`).
pub fn readable<T: BnElem, const K: usize>(
    xs: [&Nd<T>; K],
    feature: usize,
) -> Result<[Nd<T>; K], KernelError> {
    if reads_in_place(xs.map(View::of), feature) {
        return Ok(xs.map(|x| x.clone()));
    }
    let mut out = Vec::with_capacity(K);
    for x in xs {
        out.push(contiguous(x.clone())?);
    }
    out.try_into()
        .map_err(|_| internal("batch norm copies of the operands"))
}
