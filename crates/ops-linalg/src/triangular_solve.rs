//! TriangularSolve (spec/ops/triangular_solve.md):
//! `TriangularSolve(a, b, left_side, lower, unit_diagonal, transpose_a)`, the
//! solution `x` of `op(a)·x = b` (left side) or `x·op(a) = b` for each
//! triangular matrix in the last two dimensions of `a`. The kernel is
//! kernels::linalg::triangular_solve (blocked, gemm updates); a singular `a`
//! gives infinities and NaNs, never an error.

use super::common::internal;
use super::index_dims;
use super::matrix_args::{
    at_least_a_matrix, compute_type, float_matrix, result, row_major, slice_of,
};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type, fmt_dims};
use xlet_core::value::{Array, Elem, Value};
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::linalg::LinalgElem;
use xlet_kernels::linalg::triangular_solve::{Form, Transpose, triangular_solve};

const SPEC: &str = include_str!("../../../spec/ops/triangular_solve.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::TriangularSolve,
    aliases: &[],
    signature: "TriangularSolve(a, b, left_side=true|false, lower=true|false, unit_diagonal=true|false, transpose_a=NO_TRANSPOSE|TRANSPOSE|ADJOINT)",
    spec: SPEC,
    rule,
}];

/// The attributes, in their positional order (after a and b).
const FLAGS: [&str; 3] = ["left_side", "lower", "unit_diagonal"];

fn missing(cx: &CallCtx, name: &str) -> Diag {
    Diag::check(
        cx.code("arity"),
        format!("{}: missing attribute `{name}`", cx.name()),
        cx.span.clone(),
    )
    .with_label(format!("`{name}=...` is missing"))
    .with_help(format!(
        "all four attributes are required (XLA and StableHLO have no defaults for them): {} is called as {}",
        cx.name(),
        cx.op.signature
    ))
}

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let a = cx.operand(0, "a")?;
    let b = cx.operand(1, "b")?;
    let mut flags = [false; 3];
    for (k, name) in FLAGS.iter().enumerate() {
        if cx.peek(2 + k).is_none() && cx.peek_named(name).is_none() {
            return Err(missing(cx, name));
        }
        flags[k] = index_dims::flag_at(cx, Some(2 + k), name, false)?;
    }
    let [left_side, lower, unit_diagonal] = flags;
    let Some(tr) = cx.keyword(
        Some(5),
        "transpose_a",
        &["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"],
    )?
    else {
        return Err(missing(cx, "transpose_a"));
    };
    let transpose = match tr.value {
        "NO_TRANSPOSE" => Transpose::No,
        "TRANSPOSE" => Transpose::Transpose,
        _ => Transpose::Adjoint,
    };
    let (at, bt_text) = (cx.text(&a.span).to_string(), cx.text(&b.span).to_string());
    let call = |x: &str, y: &str| {
        format!(
            "TriangularSolve({x}, {y}, left_side={left_side}, lower={lower}, unit_diagonal={unit_diagonal}, transpose_a={})",
            tr.value
        )
    };
    // C1: floats, the same type for both.
    let ta = float_matrix(
        cx,
        &a,
        "a",
        call(&format!("ConvertElementType({at}, f32)"), &bt_text),
    )?;
    let tb = float_matrix(
        cx,
        &b,
        "b",
        call(&at, &format!("ConvertElementType({bt_text}, f32)")),
    )?;
    if ta.elem != tb.elem {
        let e = ta.elem;
        return Err(cx
            .err(
                "C1",
                format!("a and b must have the same element type, found {ta} and {tb}"),
                b.span.clone(),
            )
            .with_label(format!("{tb}"))
            .with_secondary(a.span.clone(), format!("{ta}"))
            .with_help(format!(
                "convert one of them: {}",
                call(&at, &format!("ConvertElementType({bt_text}, {e})"))
            )));
    }
    // C2: matrices, ranks equal.
    at_least_a_matrix(cx, &a, &ta, "a")?;
    at_least_a_matrix(cx, &b, &tb, "b")?;
    let r = ta.rank();
    if tb.rank() != r {
        return Err(cx
            .err(
                "C2",
                format!("a and b must have the same number of dimensions (the same batch dimensions before the matrices), found {ta} and {tb}"),
                b.span.clone(),
            )
            .with_label(format!("{tb}"))
            .with_secondary(a.span.clone(), format!("{ta}"))
            .with_help("batches are not broadcast: BroadcastInDim the operand with fewer dimensions to the other's batch dimensions first"));
    }
    // C3: a square, the batch dimensions equal, b's matching dimension m.
    let (m, m2) = (ta.dims[r - 2], ta.dims[r - 1]);
    if m != m2 {
        return Err(cx
            .err(
                "C3",
                format!("the matrices of a (its last two dimensions) must be square, found {m}x{m2} in {ta}"),
                a.span.clone(),
            )
            .with_label(format!("{ta}: {m} rows, {m2} columns"))
            .with_help("a triangular system has a square matrix: slice the square block you mean, or solve a least-squares problem another way"));
    }
    if ta.dims[..r - 2] != tb.dims[..r - 2] {
        return Err(cx
            .err(
                "C3",
                format!(
                    "a and b must have the same batch dimensions, found [{}] in {ta} and [{}] in {tb}",
                    fmt_dims(&ta.dims[..r - 2]),
                    fmt_dims(&tb.dims[..r - 2])
                ),
                b.span.clone(),
            )
            .with_label(format!("{tb}"))
            .with_secondary(a.span.clone(), format!("{ta}"))
            .with_help("batches are not broadcast: make the dimensions before the last two equal (BroadcastInDim or Reshape)"));
    }
    let (bm_dim, r_dim) = if left_side {
        (r - 2, r - 1)
    } else {
        (r - 1, r - 2)
    };
    if tb.dims[bm_dim] != m {
        let (side, other) = if left_side {
            (
                "left_side=true: op(a)·x = b, so b has m rows",
                "left_side=false",
            )
        } else {
            (
                "left_side=false: x·op(a) = b, so b has m columns",
                "left_side=true",
            )
        };
        let flipped = tb.dims[r_dim] == m;
        return Err(cx
            .err(
                "C3",
                format!(
                    "with {side}, but a is {m}x{m} and b is {} ({tb})",
                    fmt_dims(&tb.dims[r - 2..])
                ),
                b.span.clone(),
            )
            .with_label(format!(
                "{tb}: dimension {bm_dim} has {}, not {m}",
                tb.dims[bm_dim]
            ))
            .with_secondary(a.span.clone(), format!("{ta}"))
            .with_help(if flipped {
                format!("b fits the other side: use {other}")
            } else {
                format!("b's dimension {bm_dim} must equal a's size {m}")
            }));
    }
    let rhs = tb.dims[r_dim];
    Ok(Checked {
        ty: Type::Array(tb.clone()),
        kernel: Arc::new(TriangularSolveKernel {
            form: Form {
                left_side,
                lower,
                unit_diagonal,
                transpose,
            },
            m,
            rhs,
        }),
    })
}

struct TriangularSolveKernel {
    form: Form,
    m: usize,
    rhs: usize,
}

impl Kernel for TriangularSolveKernel {
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        crate::triangular_solve_grad::rule(cx, self.form)
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a), Value::Array(b)] = args else {
            return Err(internal("TriangularSolve expects two arrays"));
        };
        let out = match compute_type(b.elem()) {
            ElemType::F64 => self.run_in::<f64>(a, b),
            ElemType::C64 => self.run_in::<xlet_core::value::c64>(a, b),
            ElemType::C128 => self.run_in::<xlet_core::value::c128>(a, b),
            _ => self.run_in::<f32>(a, b),
        }?;
        Ok(Value::Array(out))
    }
}

impl TriangularSolveKernel {
    fn run_in<C: LinalgElem + Elem>(&self, a: &Array, b: &Array) -> Result<Array, KernelError> {
        let x = row_major::<C>(a)?;
        let y = row_major::<C>(b)?;
        let v = triangular_solve(slice_of(&x)?, slice_of(&y)?, self.m, self.rhs, self.form)?;
        result(v, b.dims(), b.elem())
    }
}
