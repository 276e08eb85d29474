//! Cholesky (spec/ops/cholesky.md): `Cholesky(a, lower=true)`, the triangular
//! factor of each Hermitian positive definite matrix in the last two
//! dimensions of `a`. The kernel is kernels::linalg::cholesky (blocked, gemm
//! updates); a matrix that is not positive definite gives NaN, never an error.

use super::common::internal;
use super::index_dims;
use super::matrix_args::{
    at_least_a_matrix, compute_type, float_matrix, result, row_major, slice_of,
};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{Array, Elem, Value};
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::linalg::{LinalgElem, cholesky::cholesky};

const SPEC: &str = include_str!("../../../spec/ops/cholesky.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Cholesky,
    aliases: &[],
    signature: "Cholesky(a[, lower=false|true])",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "a")?;
    // StableHLO's and HLO's default: the upper triangle (spec/ops/cholesky.md).
    let lower = index_dims::flag_at(cx, Some(1), "lower", false)?;
    let text = cx.text(&o.span).to_string();
    // C1: floats.
    let t = float_matrix(
        cx,
        &o,
        "the operand",
        format!("Cholesky(ConvertElementType({text}, f32), lower={lower})"),
    )?;
    // C2: a matrix or a batch of them.
    at_least_a_matrix(cx, &o, &t, "the operand")?;
    // C3: square matrices.
    let r = t.rank();
    let (rows, cols) = (t.dims[r - 2], t.dims[r - 1]);
    if rows != cols {
        return Err(cx
            .err(
                "C3",
                format!(
                    "the matrices (the last two dimensions) must be square, found {rows}x{cols} in {t}"
                ),
                o.span.clone(),
            )
            .with_label(format!("{t}: {rows} rows, {cols} columns"))
            .with_help(format!(
                "Cholesky factors square matrices; for the Gram matrix of the columns of a {rows}x{cols} matrix x, factor the {cols}x{cols} product Dot(Transpose(x, {{1, 0}}), x)"
            )));
    }
    Ok(Checked {
        ty: Type::Array(t.clone()),
        kernel: Arc::new(CholeskyKernel { lower }),
    })
}

struct CholeskyKernel {
    lower: bool,
}

impl Kernel for CholeskyKernel {
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        crate::cholesky_grad::rule(cx, self.lower)
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a)] = args else {
            return Err(internal("Cholesky expects one array"));
        };
        let out = match compute_type(a.elem()) {
            ElemType::F64 => run_in::<f64>(a, self.lower),
            ElemType::C64 => run_in::<xlet_core::value::c64>(a, self.lower),
            ElemType::C128 => run_in::<xlet_core::value::c128>(a, self.lower),
            _ => run_in::<f32>(a, self.lower),
        }?;
        Ok(Value::Array(out))
    }
}

fn run_in<C: LinalgElem + Elem>(a: &Array, lower: bool) -> Result<Array, KernelError> {
    let x = row_major::<C>(a)?;
    let n = a.dims().last().copied().unwrap_or(0);
    let v = cholesky(slice_of(&x)?, n, lower)?;
    result(v, a.dims(), a.elem())
}
