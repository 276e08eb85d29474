//! Rules of the elementwise ops (spec/grad.md §4.1). Every elementwise op maps
//! operand `i`'s dimension `d` to output dimension `maps[i][d]` (XLA's explicit
//! broadcasting): a rule computes each operand's cotangent at the output's
//! shape, from operands spread to that shape, and `sum_to` brings it back to
//! the operand's shape (seed 003's backward of broadcasting).

use super::rule::{NoRule, RuleCx, filled, scalar, spread, sum_to};
use xlet_core::OpId;

/// The local derivative of each operand, at the output's shape, times the
/// cotangent `c`; `x[i]` is operand `i` spread to the output's shape and `y`
/// the op's result.
fn partials(
    cx: &mut RuleCx,
    x: &[String],
    maps: &[Vec<usize>],
) -> Result<Vec<Option<String>>, NoRule> {
    let _ = maps;
    let complex = cx.out_array()?.elem.is_complex()
        || (0..cx.args.len()).any(|i| cx.arg_array(i).is_ok_and(|t| t.elem.is_complex()));
    if complex {
        return complex_partials(cx, x);
    }
    real_partials(cx, x)
}

/// The partials by the real formulas (which hold for complex numbers too
/// wherever the op is holomorphic, `complex_partials`).
fn real_partials(cx: &mut RuleCx, x: &[String]) -> Result<Vec<Option<String>>, NoRule> {
    let out = cx.out_array()?.clone();
    let e = out.elem;
    let c = cx.ct.name.clone();
    let y = cx.out.name.clone();
    let k = |v: f64| scalar(e, v);
    let zeros = filled(&out, 0.0);
    let a = x.first().cloned().unwrap_or_default();
    let b = x.get(1).cloned().unwrap_or_default();
    let one = |t: String| Ok(vec![Some(t)]);
    match cx.op {
        // Unary.
        OpId::Neg => one(format!("Neg({c})")),
        OpId::Abs => one(format!("Mul({c}, Sign({a}))")),
        OpId::Exp => one(format!("Mul({c}, {y})")),
        OpId::Expm1 => one(format!("Mul({c}, Add({y}, {}))", k(1.0))),
        OpId::Log => one(format!("Div({c}, {a})")),
        OpId::Log1p => one(format!("Div({c}, Add({a}, {}))", k(1.0))),
        OpId::Logistic => one(format!("Mul({c}, Mul({y}, Sub({}, {y})))", k(1.0))),
        OpId::Sqrt => one(format!("Div({c}, Mul({y}, {}))", k(2.0))),
        OpId::Rsqrt => one(format!("Mul({c}, Mul({}, Div({y}, {a})))", k(-0.5))),
        OpId::Cbrt => one(format!("Div({c}, Mul({}, Mul({y}, {y})))", k(3.0))),
        OpId::Sin => one(format!("Mul({c}, Cos({a}))")),
        OpId::Cos => one(format!("Neg(Mul({c}, Sin({a})))")),
        OpId::Tan => one(format!("Mul({c}, Add({}, Mul({y}, {y})))", k(1.0))),
        OpId::Tanh => one(format!("Mul({c}, Sub({}, Mul({y}, {y})))", k(1.0))),
        // d/dx erf(x) = 2/sqrt(pi) exp(-x^2).
        OpId::Erf => one(format!(
            "Mul({c}, Mul({}, Exp(Neg(Mul({a}, {a})))))",
            k(std::f64::consts::FRAC_2_SQRT_PI)
        )),
        // Piecewise constant: derivative 0 wherever it exists (jax's choice too).
        OpId::Sign | OpId::Ceil | OpId::Floor | OpId::RoundNearestAfz | OpId::RoundNearestEven => {
            one(zeros)
        }
        // Binary.
        OpId::Add => Ok(vec![Some(c.clone()), Some(c)]),
        OpId::Sub => Ok(vec![Some(c.clone()), Some(format!("Neg({c})"))]),
        OpId::Mul => Ok(vec![
            Some(format!("Mul({c}, {b})")),
            Some(format!("Mul({c}, {a})")),
        ]),
        OpId::Div => Ok(vec![
            Some(format!("Div({c}, {b})")),
            Some(format!("Neg(Div(Mul({c}, {y}), {b}))")),
        ]),
        // Ties send half to each side (jax's convention for max and min).
        OpId::Max | OpId::Min => {
            let win = if cx.op == OpId::Max { "Gt" } else { "Lt" };
            let half = format!("Mul({c}, {})", k(0.5));
            Ok(vec![
                Some(format!(
                    "Select({win}({a}, {b}), {c}, Select(Eq({a}, {b}), {half}, {zeros}))"
                )),
                Some(format!(
                    "Select({win}({b}, {a}), {c}, Select(Eq({a}, {b}), {half}, {zeros}))"
                )),
            ])
        }
        // d/da a^b = b a^(b-1); d/db a^b = a^b ln a (0 where a = 0, as jax).
        OpId::Pow => Ok(vec![
            Some(format!(
                "Mul({c}, Mul({b}, Pow({a}, Sub({b}, {}))))",
                k(1.0)
            )),
            Some(format!(
                "Select(Eq({a}, {zeros}), {zeros}, Mul({c}, Mul({y}, Log({a}))))"
            )),
        ]),
        OpId::Atan2 => {
            let r = format!("Add(Mul({a}, {a}), Mul({b}, {b}))");
            Ok(vec![
                Some(format!("Div(Mul({c}, {b}), {r})")),
                Some(format!("Neg(Div(Mul({c}, {a}), {r}))")),
            ])
        }
        // rem(a, b) = a - b trunc(a / b).
        OpId::Rem => Ok(vec![
            Some(c.clone()),
            Some(format!(
                "Neg(Mul({c}, Mul(Sign(Div({a}, {b})), Floor(Abs(Div({a}, {b}))))))"
            )),
        ]),
        // Select(pred, on_true, on_false).
        OpId::Select => Ok(vec![
            None,
            Some(format!("Select({a}, {c}, {zeros})")),
            Some(format!("Select({a}, {zeros}, {c})")),
        ]),
        // Clamp(min, operand, max): the operand where it lies inside, each bound
        // where it binds.
        OpId::Clamp => {
            let (lo, v, hi) = (a, b, x.get(2).cloned().unwrap_or_default());
            Ok(vec![
                Some(format!("Select(Lt({v}, {lo}), {c}, {zeros})")),
                Some(format!(
                    "Select(And(Ge({v}, {lo}), Le({v}, {hi})), {c}, {zeros})"
                )),
                Some(format!("Select(Gt({v}, {hi}), {c}, {zeros})")),
            ])
        }
        // On a real operand Real is the identity and Imag is zero.
        OpId::Real => one(c),
        OpId::Imag => one(zeros),
        OpId::ConvertElementType => {
            let from = cx.arg_array(0)?.elem;
            Ok(vec![Some(format!(
                "ConvertElementType({c}, {})",
                from.name()
            ))])
        }
        op => Err(NoRule::missing(op)),
    }
}

/// The partials when an operand or the result is complex (spec/grad.md §7).
/// jax's convention: a cotangent is sent back through the *transpose* of the
/// op's linearisation, with no conjugation, so a holomorphic op sends `c f'(z)`
/// and its real formula above holds as written; the non-holomorphic ones
/// (Complex, Real, Imag, Abs) have their own lines. Other ops refuse (C5).
fn complex_partials(cx: &mut RuleCx, x: &[String]) -> Result<Vec<Option<String>>, NoRule> {
    let out = cx.out_array()?.clone();
    let c = cx.ct.name.clone();
    let a = x.first().cloned().unwrap_or_default();
    let zeros = filled(&out, 0.0);
    let conj = |z: &str| format!("Complex(Real({z}), Neg(Imag({z})))");
    match cx.op {
        // Complex(re, im) = re + i im: re gets Re(c), im gets -Im(c).
        OpId::Complex => Ok(vec![
            Some(format!("Real({c})")),
            Some(format!("Neg(Imag({c}))")),
        ]),
        // Real(z) = (z + conj z) / 2; its transpose is c + 0i.
        OpId::Real => Ok(vec![Some(format!("Complex({c}, {zeros})"))]),
        // Imag(z): the transpose sends -i c.
        OpId::Imag => Ok(vec![Some(format!("Complex({zeros}, Neg({c}))"))]),
        // |z|: c conj(z) / |z|, zero where z = 0 (jax's choice).
        OpId::Abs => {
            let zt = out.with_elem(cx.arg_array(0)?.elem);
            let cz = filled(&zt, 0.0);
            Ok(vec![Some(format!(
                "Select(Eq({a}, {cz}), {cz}, Mul(Complex({c}, {zeros}), Div({}, Complex({y}, {zeros}))))",
                conj(&a),
                y = cx.out.name
            ))])
        }
        OpId::Neg
        | OpId::Exp
        | OpId::Expm1
        | OpId::Log
        | OpId::Log1p
        | OpId::Logistic
        | OpId::Sqrt
        | OpId::Rsqrt
        | OpId::Sin
        | OpId::Cos
        | OpId::Tan
        | OpId::Tanh
        | OpId::Add
        | OpId::Sub
        | OpId::Mul
        | OpId::Div
        | OpId::Pow
        | OpId::Select
        | OpId::ConvertElementType => real_partials(cx, x),
        op => Err(NoRule(format!(
            "{op} has no gradient rule for complex numbers in xlet yet (spec/grad.md §7)"
        ))),
    }
}

/// The rule of an elementwise op whose operand `i` maps its dimensions to the
/// output's by `maps[i]`.
pub fn rule(cx: &mut RuleCx, maps: &[Vec<usize>]) -> Result<(), NoRule> {
    let out = cx.out_array()?.clone();
    let mut x = vec![];
    for (i, m) in maps.iter().enumerate() {
        let a = cx.arg_array(i)?;
        x.push(spread(&cx.arg(i)?.name, a, &out, m));
    }
    let parts = partials(cx, &x, maps)?;
    for (i, part) in parts.into_iter().enumerate() {
        let Some(part) = part else { continue };
        if !cx.is_active(i) {
            continue;
        }
        let to = cx.arg_array(i)?.clone();
        let m = maps.get(i).cloned().unwrap_or_default();
        // The partial is at the output's shape and element type; the operand's
        // element type is the output's for every op here but ConvertElementType,
        // whose partial is already converted.
        let full = if is_name(&part) { part } else { cx.bind(part) };
        let back = sum_to(cx.w, &full, &out.with_elem(to.elem), &to, &m);
        cx.grads[i] = Some(back);
    }
    Ok(())
}

/// A bare name (the cotangent passed on unchanged) needs no `let` of its own.
fn is_name(t: &str) -> bool {
    t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}
