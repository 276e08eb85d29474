//! TriangularSolve's gradient rule (spec/ops/triangular_solve.md, spec/grad.md
//! §4.9), jax's `lax.linalg` rules (`_triangular_solve_transpose_rule` for b,
//! `_triangular_solve_jvp_rule_a` transposed for a), written as xlet text.
//!
//! With `x` the solution of `op(a) x = b` (left side) or `x op(a) = b` and
//! `c` its cotangent:
//! - `b` gets `b̄ = ` the solve of the transposed system with `c`: the same
//!   solve with `transpose_a` flipped (NO_TRANSPOSE <-> TRANSPOSE); for
//!   ADJOINT (`op(a) = conj(a)ᵀ`), whose transpose `conj(a)` XLA's enum cannot
//!   name, a NO_TRANSPOSE solve with `conj(a)`.
//! - `a`: `dx = -op(a)⁻¹ op(da) x` (left; right: `-x op(da) op(a)⁻¹`), so
//!   `op(da)` gets `g = -b̄ xᵀ` (right: `-xᵀ b̄`) and `da` gets `g`, `gᵀ` or
//!   `conj(g)ᵀ` by `transpose_a`, kept to the triangle the solve reads (the
//!   diagonal excluded when `unit_diagonal`).

use super::matrix_grad::Batched;
use xlet_ir::rule::{NoRule, RuleCx};
use xlet_kernels::linalg::triangular_solve::{Form, Transpose};

pub(crate) fn rule(cx: &mut RuleCx, form: Form) -> Result<(), NoRule> {
    let a = cx.arg(0)?.name.clone();
    let ta = Batched::new(cx.arg_array(0)?);
    let tb = Batched::new(cx.arg_array(1)?);
    let x = cx.out.name.clone();
    let c = cx.ct.name.clone();
    let (solve_with, flipped) = match form.transpose {
        Transpose::No => (a.clone(), "TRANSPOSE"),
        Transpose::Transpose => (a.clone(), "NO_TRANSPOSE"),
        Transpose::Adjoint => (cx.bind(ta.conj(&a)), "NO_TRANSPOSE"),
    };
    let bbar = cx.bind(format!(
        "TriangularSolve({solve_with}, {c}, left_side={}, lower={}, unit_diagonal={}, transpose_a={flipped})",
        form.left_side, form.lower, form.unit_diagonal
    ));
    if cx.is_active(1) {
        cx.send(1, bbar.clone());
    }
    if cx.is_active(0) {
        let g = if form.left_side {
            tb.matmul(&bbar, false, &x, true)
        } else {
            tb.matmul(&x, true, &bbar, false)
        };
        let g = cx.bind(format!("Neg({g})"));
        let g = match form.transpose {
            Transpose::No => g,
            Transpose::Transpose => cx.bind(ta.transpose(&g)),
            Transpose::Adjoint => {
                let t = cx.bind(ta.transpose(&g));
                cx.bind(ta.conj(&t))
            }
        };
        cx.send(0, ta.keep_triangle(&g, form.lower, form.unit_diagonal));
    }
    Ok(())
}
