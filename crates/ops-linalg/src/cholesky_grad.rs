//! Cholesky's gradient rule (spec/ops/cholesky.md, spec/grad.md §4.9), jax's
//! `cholesky_jvp_rule` (the forward-mode rule of Murray 2016,
//! arXiv:1602.07527) transposed, written as xlet text; float operands only.
//!
//! For `a = l lᵀ` with symmetric `da`, `dl = l Φ(l⁻¹ da l⁻ᵀ)`, `Φ` keeping the
//! lower triangle and halving the diagonal. Its transpose sends `l̄` to
//! `s = l⁻ᵀ Φ(lᵀ l̄) l⁻¹` (`Φ` is its own transpose). The op reads only the
//! lower triangle of `a` and stands for the symmetric matrix built from it,
//! whose element (i, j) below the diagonal is also (j, i): so `a` gets
//! `s + sᵀ` below the diagonal, `s` on it and zero above, which is
//! `Φ(s + sᵀ)`. `lower=false` (`a = uᵀ u`, the upper triangle read) is the
//! same rule on the transposes: `u = lᵀ` for `l` the factor of `aᵀ`.

use super::matrix_grad::Batched;
use xlet_ir::rule::{NoRule, RuleCx};

pub(crate) fn rule(cx: &mut RuleCx, lower: bool) -> Result<(), NoRule> {
    let t = Batched::new(cx.arg_array(0)?);
    if t.ty.elem.is_complex() {
        return Err(NoRule(
            "Cholesky has no gradient rule for complex numbers in xlet yet (spec/grad.md §7)"
                .into(),
        ));
    }
    let n = t.ty.dims.last().copied().unwrap_or(0);
    let (mut l, mut c) = (cx.out.name.clone(), cx.ct.name.clone());
    if !lower {
        l = cx.bind(t.transpose(&l));
        c = cx.bind(t.transpose(&c));
    }
    let phi = cx.bind(t.by_triangle(n, 1.0, 0.5, 0.0));
    let p = cx.bind(format!("Mul({}, {phi})", t.matmul(&l, true, &c, false)));
    let solve = |x: &str, left: bool, tr: &str| {
        format!(
            "TriangularSolve({l}, {x}, left_side={left}, lower=true, unit_diagonal=false, transpose_a={tr})"
        )
    };
    let s1 = cx.bind(solve(&p, true, "TRANSPOSE"));
    let s = cx.bind(solve(&s1, false, "NO_TRANSPOSE"));
    let mut g = format!("Mul(Add({s}, {}), {phi})", t.transpose(&s));
    if !lower {
        let lo = cx.bind(g);
        g = t.transpose(&lo);
    }
    cx.send(0, g);
    Ok(())
}
