//! Cholesky's gradient rule (spec/ops/cholesky.md, spec/grad.md §4.9), jax's
//! `cholesky_jvp_rule` (the forward-mode rule of Murray 2016,
//! arXiv:1602.07527) transposed, written as xlet text.
//!
//! For `a = l lᴴ` with Hermitian `da`, `dl = l Φ(l⁻¹ da l⁻ᴴ)`, `Φ` keeping
//! the lower triangle and halving the diagonal. Its transpose (jax's
//! convention: no conjugation, spec/grad.md §7) sends `l̄` to
//! `s = l⁻ᵀ Φ(lᵀ l̄) conj(l)⁻¹` (`Φ` is its own transpose). The op reads only
//! the lower triangle of `a` (and the real part of its diagonal) and stands
//! for the Hermitian matrix built from it, whose element (i, j) below the
//! diagonal is also (j, i), conjugated: so `a` gets `s + conj(s)ᵀ` below the
//! diagonal, its real part `Re s` on it and zero above, which is
//! `Φ(s + sᴴ)`. For floats the conjugations are no-ops. `lower=false`
//! (`a = uᴴ u`, the upper triangle read) is the same rule on the plain
//! transposes: `u = lᵀ` for `l` the factor of `aᵀ`.

use super::matrix_grad::Batched;
use xlet_ir::rule::{NoRule, RuleCx};

pub(crate) fn rule(cx: &mut RuleCx, lower: bool) -> Result<(), NoRule> {
    let t = Batched::new(cx.arg_array(0)?);
    let n = t.ty.dims.last().copied().unwrap_or(0);
    let (mut l, mut c) = (cx.out.name.clone(), cx.ct.name.clone());
    if !lower {
        l = cx.bind(t.transpose(&l));
        c = cx.bind(t.transpose(&c));
    }
    let phi = cx.bind(t.by_triangle(n, 1.0, 0.5, 0.0));
    let p = cx.bind(format!("Mul({}, {phi})", t.matmul(&l, true, &c, false)));
    let s1 = cx.bind(format!(
        "TriangularSolve({l}, {p}, left_side=true, lower=true, unit_diagonal=false, transpose_a=TRANSPOSE)"
    ));
    let conj_l = if t.ty.elem.is_complex() {
        cx.bind(t.conj(&l))
    } else {
        l.clone()
    };
    let s = cx.bind(format!(
        "TriangularSolve({conj_l}, {s1}, left_side=false, lower=true, unit_diagonal=false, transpose_a=NO_TRANSPOSE)"
    ));
    let s_h = t.conj(&t.transpose(&s));
    let mut g = format!("Mul(Add({s}, {s_h}), {phi})");
    if !lower {
        let lo = cx.bind(g);
        g = t.transpose(&lo);
    }
    cx.send(0, g);
    Ok(())
}
