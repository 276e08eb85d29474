//! `chlo.zeta(x, q)` (Hurwitz zeta, sum over k >= 0 of (q + k)^-x) and
//! `chlo.polygamma(n, x)`, as CHLO's legalisation and XLA compute them, in
//! f32 for f16/bf16/f32 and in f64.
//!
//! zeta: Euler–Maclaurin (Johansson 2015, formula (5)) with the direct sum of
//! ten terms q^-x ... (q + 9)^-x, N = q + 10, and twelve Bernoulli terms by
//! Horner's rule; the domain cases as CHLO has them: NaN for x < 1, NaN for
//! q <= 0 with x not an integer, at the poles (integer q <= 0) inf for even
//! integer x else NaN, inf at x = 1.
//!
//! polygamma: digamma(x) for n = 0, else (-1)^(n+1) n! zeta(n + 1, x) with
//! n! as exp(lgamma(n + 1)); NaN where n is not a natural number. lgamma and
//! digamma are `gamma`'s comps. Accuracy: spec/import.md §6.

use super::Cx;
use super::gamma::{comp, konst};
use super::special::{define, lit, real_compute};
use crate::error::{ImportError, Result};
use crate::mlir::op::Op;
use xlet_core::types::{ArrayType, ElemType};

/// (2j)! / B_2j for j = 12 down to 1: the Euler–Maclaurin coefficients'
/// reciprocals, as XLA lists them (digits kept as written there).
#[allow(clippy::excessive_precision)]
const ZETA_COEFFS: [f64; 12] = [
    -7.1661652561756670113e18,
    1.8152105401943546773e17,
    -4.5979787224074726105e15,
    1.1646782814350067249e14,
    -2.950130727918164224e12,
    7.47242496e10,
    -1.8924375803183791606e9,
    47900160.0,
    -1209600.0,
    30240.0,
    -720.0,
    12.0,
];

/// The op as a call of a new comp.
pub fn expr(cx: &mut Cx, op: &Op, short: &str, v: &[String]) -> Result<String> {
    let [a, b] = v else {
        return Err(ImportError::at(
            op.span.clone(),
            format!("`{}` takes two operands", op.name),
        ));
    };
    let ty = cx.operand_array(op)?;
    let c = real_compute(op, &ty)?;
    let ct = ty.with_elem(c);
    let zeta = define(
        cx,
        op,
        "zeta",
        &[("x", &ct), ("q", &ct)],
        &ct,
        &zeta(&ct, c),
    );
    let inner = if short == "zeta" {
        zeta
    } else {
        let lgamma = comp(cx, op, "lgamma", &ct, c);
        let digamma = comp(cx, op, "digamma", &ct, c);
        let k = konst(&ct, c);
        let body = format!(
            "  let np1 = Add(n, {one})
  let sign = Sub(Mul({two}, Rem(n, {two})), {one})
  let r = Mul(Mul(sign, Exp({lgamma}(np1))), {zeta}(np1, x))
  let r0 = Select(Eq(n, {zero}), {digamma}(x), r)
  Select(Or(Ne(n, Floor(n)), Lt(n, {zero})), {nan}, r0)
",
            one = k("1"),
            two = k("2"),
            zero = k("0"),
            nan = k("nan"),
        );
        define(cx, op, "polygamma", &[("n", &ct), ("x", &ct)], &ct, &body)
    };
    if c == ty.elem {
        return Ok(format!("{inner}({a}, {b})"));
    }
    Ok(format!(
        "ConvertElementType({inner}(ConvertElementType({a}, {c}), ConvertElementType({b}, {c})), {})",
        ty.elem
    ))
}

/// The body of zeta(x, q) on `ty` (the compute type).
fn zeta(ty: &ArrayType, c: ElemType) -> String {
    let k = konst(ty, c);
    let (zero, one, two) = (k("0"), k("1"), k("2"));
    // The smallest subnormal, as XLA's `getSmallest`.
    let tiny = if c == ElemType::F64 {
        lit(f64::from_bits(1))
    } else {
        lit(f32::from_bits(1) as f64)
    };
    let mut s = String::from("  let nx = Neg(x)\n  let a0 = q\n  let s0 = Pow(q, nx)\n");
    for i in 1..10 {
        s.push_str(&format!(
            "  let a{i} = Add(a{}, {one})\n  let s{i} = Add(s{}, Pow(a{i}, nx))\n",
            i - 1,
            i - 1
        ));
    }
    s.push_str(&format!(
        "  let n = Add(a9, {one})
  let qnp = Pow(n, nx)
  let corr = Div(Mul(qnp, n), Sub(x, {one}))
  let rn2 = Div({one}, Mul(n, n))
  let h0 = {zero}
"
    ));
    for (i, coeff) in ZETA_COEFFS[..11].iter().enumerate() {
        // (x + 22 - 2i)(x + 21 - 2i): the rising factorial's next two factors.
        s.push_str(&format!(
            "  let h{} = Mul(Mul(Add(x, {}), Add(x, {})), Mul(rn2, Add(h{i}, {})))\n",
            i + 1,
            k(&(22 - 2 * i).to_string()),
            k(&(21 - 2 * i).to_string()),
            k(&lit(1.0 / coeff)),
        ));
    }
    s.push_str(&format!(
        "  let tail = Mul(qnp, Add({half}, Mul(Div(x, n), Add({twelfth}, h11))))
  let accurate = Add(Add(s9, corr), tail)
  let out0 = Select(Lt(Abs(qnp), Mul(Abs(s9), {tiny})), s9, accurate)
  let out1 = Select(Lt(x, {one}), {nan}, out0)
  let qle0 = Le(q, {zero})
  let out2 = Select(And(qle0, Ne(x, Floor(x))), {nan}, out1)
  let pole = And(qle0, Eq(q, Floor(q)))
  let even = And(Eq(x, Floor(x)), Eq(Rem(x, {two}), {zero}))
  let out3 = Select(pole, Select(even, {inf}, {nan}), out2)
  Select(Eq(x, {one}), {inf}, out3)
",
        half = k("0.5"),
        twelfth = k(&lit(1.0 / ZETA_COEFFS[11])),
        tiny = k(&tiny),
        nan = k("nan"),
        inf = k("inf"),
    ));
    s
}
