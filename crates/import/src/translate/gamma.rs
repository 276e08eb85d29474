//! `chlo.erfc` (see `erfc`), and `chlo.lgamma` and `chlo.digamma` as XLA computes them (its `Lgamma` and
//! `Digamma`: the Lanczos approximation with g = 7 and nine coefficients,
//! and the reflection formula below 1/2), written as a comp of xlet ops in
//! f32 (f16 and bf16 go through f32, as XLA:CPU does) or f64. Following the
//! same formula, in the same order, gives XLA's values up to the rounding of
//! the elementary functions (spec/import.md §6).

use super::{Cx, Stmt};
use crate::error::{ImportError, Result};
use crate::mlir::op::Op;
use xlet_core::types::{ArrayType, ElemType};

/// The Lanczos series' coefficients for g = 7 (the first is the base term).
const BASE: &str = "0.99999999999980993227684700473478";
const COEFFS: [&str; 8] = [
    "676.520368121885098567009190444019",
    "-1259.13921672240287047156078755283",
    "771.3234287776530788486528258894",
    "-176.61502916214059906584551354",
    "12.507343278686904814458936853",
    "-0.13857109526572011689554707",
    "9.984369578019570859563e-6",
    "1.50563273514931155834e-7",
];

/// `chlo.lgamma(x)` or `chlo.digamma(x)` as a call of a new comp; `None` for
/// other ops.
pub fn expr(cx: &mut Cx, op: &Op, short: &str, v: &[String]) -> Result<Option<String>> {
    if short != "lgamma" && short != "digamma" && short != "erfc" {
        return Ok(None);
    }
    let ty = cx.operand_array(op)?;
    let compute = match ty.elem {
        // erfc goes through f64 (see `erfc`); f64 itself is `erf64`'s, tried
        // before this.
        ElemType::F16 | ElemType::BF16 | ElemType::F32 if short == "erfc" => ElemType::F64,
        ElemType::F16 | ElemType::BF16 | ElemType::F32 => ElemType::F32,
        ElemType::F64 if short != "erfc" => ElemType::F64,
        e => {
            return Err(ImportError::unsupported(
                op.span.clone(),
                format!("`{}` on {e} (xlet composes it for real floats)", op.name),
            ));
        }
    };
    let [x] = v else {
        return Err(ImportError::at(
            op.span.clone(),
            format!("`{}` takes one operand", op.name),
        ));
    };
    let name = comp(cx, op, short, &ty, compute);
    Ok(Some(format!("{name}({x})")))
}

/// Defines the comp for `short` (lgamma, digamma or erfc) on `ty`, computing
/// in `compute`, and returns its name.
pub(super) fn comp(cx: &mut Cx, op: &Op, short: &str, ty: &ArrayType, compute: ElemType) -> String {
    let name = cx.fresh_comp(short);
    let body = match short {
        "lgamma" => lgamma(ty, compute),
        "digamma" => digamma(ty, compute),
        _ => erfc(ty, compute),
    };
    let text = format!(
        "comp {name}(x0: {ty}) -> {ty} {{\n  let x: {c} = ConvertElementType(x0, {})\n{body}}}",
        compute,
        c = ty.with_elem(compute)
    );
    cx.push_stmt(Stmt {
        text,
        span: op.span.clone(),
        binds: None,
    });
    name
}

/// A constant of the compute type, broadcast to the operand's shape.
pub(super) fn konst(ty: &ArrayType, c: ElemType) -> impl Fn(&str) -> String {
    let dims: Vec<String> = ty.dims.iter().map(|d| d.to_string()).collect();
    let dims = dims.join(", ");
    move |v: &str| format!("BroadcastInDim({c} {v}, {{{dims}}}, {{}})")
}

/// The shared start: reflect below 1/2, the series' argument z, and log t.
fn lanczos_head(k: &dyn Fn(&str) -> String) -> String {
    format!(
        "  let reflect = Lt(x, {half})
  let z = Select(reflect, Neg(x), Sub(x, {one}))
  let t = Add(z, {g5})
  let log_t = Add({log_g5}, Log1p(Div(z, {g5})))
",
        half = k("0.5"),
        one = k("1"),
        g5 = k("7.5"),
        log_g5 = k("2.0149030205422647"),
    )
}

fn lgamma(ty: &ArrayType, c: ElemType) -> String {
    let k = konst(ty, c);
    let mut s = lanczos_head(&k);
    s.push_str(&format!("  let a0 = {}\n", k(BASE)));
    for (i, coeff) in COEFFS.iter().enumerate() {
        s.push_str(&format!(
            "  let a{} = Add(a{i}, Div({}, Add(z, {})))\n",
            i + 1,
            k(coeff),
            k(&(i + 1).to_string())
        ));
    }
    s.push_str(&format!(
        "  let log_y = Add(Add({log_sqrt_2pi}, Mul(Sub(Add(z, {half}), Div(t, log_t)), log_t)), Log(a8))
  let ax = Abs(x)
  let frac = Sub(ax, Floor(ax))
  let reduced = Select(Gt(frac, {half}), Sub({one}, frac), frac)
  let denom = Log(Sin(Mul({pi}, reduced)))
  let reflection = Select(IsFinite(denom), Sub(Sub({log_pi}, denom), log_y), Neg(denom))
  let result = Select(reflect, reflection, log_y)
  let y = Select(Eq(ax, {inf}), {inf}, result)
  ConvertElementType(y, {elem})
",
        log_sqrt_2pi = k("0.91893853320467274178032973640562"),
        half = k("0.5"),
        one = k("1"),
        pi = k("3.14159265358979323846264338327950288"),
        log_pi = k("1.14472988584940017414342735135305871"),
        inf = k("inf"),
        elem = ty.elem,
    ));
    s
}

fn digamma(ty: &ArrayType, c: ElemType) -> String {
    let k = konst(ty, c);
    let mut s = lanczos_head(&k);
    s.push_str(&format!("  let n0 = {}\n  let d0 = {}\n", k("0"), k(BASE)));
    for (i, coeff) in COEFFS.iter().enumerate() {
        let (j, zi) = (i + 1, format!("Add(z, {})", k(&(i + 1).to_string())));
        s.push_str(&format!(
            "  let n{j} = Sub(n{i}, Div({c}, Mul({zi}, {zi})))\n  let d{j} = Add(d{i}, Div({c}, {zi}))\n",
            c = k(coeff)
        ));
    }
    s.push_str(&format!(
        "  let y = Sub(Add(log_t, Div(n8, d8)), Div({g}, t))
  let reduced = Add(x, Abs(Floor(Add(x, {half}))))
  let reflection = Sub(y, Div(Mul({pi}, Cos(Mul({pi}, reduced))), Sin(Mul({pi}, reduced))))
  let real = Select(reflect, reflection, y)
  let r = Select(And(Le(x, {zero}), Eq(x, Floor(x))), {nan}, real)
  ConvertElementType(r, {elem})
",
        g = k("7"),
        half = k("0.5"),
        pi = k("3.14159265358979323846264338327950288"),
        zero = k("0"),
        nan = k("nan"),
        elem = ty.elem,
    ));
    s
}

/// erfc for f16, bf16 and f32, computed in f64 and rounded once: `1 - erf(x)`
/// below |x| = 2 (erfc is at least 0.0046 there, so f64's cancellation costs
/// about 1e-14 relative), and above, exp(-x²)/√π over the continued fraction
/// x + (1/2)/(x + 1/(x + (3/2)/(x + ...))) taken to 50 terms (relative error
/// 1.1e-15 over [2, 10] against scipy), with erfc(-x) = 2 - erfc(x). Every
/// f32 result is then within half an ulp plus 1e-14 of the true value. f64
/// arguments are `erf64`'s (Cephes' rational approximations, as XLA).
fn erfc(ty: &ArrayType, c: ElemType) -> String {
    let k = konst(ty, c);
    let mut s = format!(
        "  let a = Abs(x)\n  let b = Max(a, {})\n  let t50 = b\n",
        k("2")
    );
    for i in (0..50).rev() {
        s.push_str(&format!(
            "  let t{i} = Add(b, Div({}, t{}))\n",
            k(&format!("{}", (i + 1) as f64 / 2.0)),
            i + 1
        ));
    }
    s.push_str(&format!(
        "  let cf = Div(Div(Exp(Neg(Mul(b, b))), {sqrt_pi}), t0)
  let tail = Select(Lt(x, {zero}), Sub({two}, cf), cf)
  let r = Select(Lt(a, {two}), Sub({one}, Erf(x)), tail)
  ConvertElementType(r, {elem})
",
        sqrt_pi = k("1.7724538509055160272981674833411"),
        zero = k("0"),
        one = k("1"),
        two = k("2"),
        elem = ty.elem,
    ));
    s
}
