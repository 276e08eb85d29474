//! CHLO ops JAX emits, as compositions of xlet ops (one expression each; the
//! operand is a name, so it may be repeated). Each states the accuracy it is
//! expected to reach. The special functions that need a comp of their own are
//! in `gamma` (lgamma, digamma, erfc) and `special` (bessel_i1e, zeta,
//! polygamma, erf_inv and erfc on f64, the inverse trig and hyperbolic ops on
//! complex numbers), which are tried first.

use super::Cx;
use super::attrs::brace;
use crate::error::{ImportError, Result};
use crate::mlir::attr::Attr;
use crate::mlir::op::Op;

/// The CHLO op as an xlet expression, or `None` when it is not one of these.
pub fn expr(cx: &Cx, op: &Op, short: &str, v: &[String]) -> Result<Option<String>> {
    if let Some(b) = short.strip_prefix("broadcast_") {
        return broadcast(op, b, v).map(Some);
    }
    if short == "next_after" {
        return next_after(cx, op, v).map(Some);
    }
    let unary = [
        "erf_inv",
        "square",
        "conj",
        "is_inf",
        "is_pos_inf",
        "is_neg_inf",
        "sinh",
        "cosh",
        "asin",
        "acos",
        "atan",
        "asinh",
        "acosh",
        "atanh",
    ];
    if !unary.contains(&short) {
        return Ok(None);
    }
    let [x] = v else {
        return Err(ImportError::at(
            op.span.clone(),
            format!("`{}` takes one operand", op.name),
        ));
    };
    let ty = cx.operand_array(op)?;
    let is_complex = ty.elem.name().starts_with('c');
    if short == "square" {
        // Exact as a product (x * x rounds once).
        return Ok(Some(format!("Mul({x}, {x})")));
    }
    if short == "conj" {
        return Ok(Some(if is_complex {
            format!("Complex(Real({x}), Neg(Imag({x})))")
        } else {
            x.clone()
        }));
    }
    if is_complex && (short == "sinh" || short == "cosh") {
        // CHLO's legalisation for complex operands: exp(x + log ½) ∓
        // exp(log ½ - x), with complex Exp (no small-|x| branch, as there);
        // log ½ is the constant (-ln 2, 0) of x's type.
        let dims: Vec<i128> = ty.dims.iter().map(|d| *d as i128).collect();
        let lh = format!(
            "BroadcastInDim({} (-0.6931471805599453, 0), {}, {{}})",
            ty.elem,
            brace(&dims)
        );
        let join = if short == "sinh" { "Sub" } else { "Add" };
        return Ok(Some(format!(
            "{join}(Exp(Add({x}, {lh})), Exp(Sub({lh}, {x})))"
        )));
    }
    if is_complex || !ty.elem.name().starts_with(['f', 'b']) {
        return Err(ImportError::unsupported(
            op.span.clone(),
            format!(
                "`{}` on {} (xlet composes it for real floats only)",
                op.name, ty.elem
            ),
        ));
    }
    let dims: Vec<i128> = ty.dims.iter().map(|d| *d as i128).collect();
    // A constant of x's type.
    let k = |c: &str| format!("BroadcastInDim({} {c}, {}, {{}})", ty.elem, brace(&dims));
    // Past `big`, asinh and acosh are log(x) + ln 2 to the type's precision
    // (the next term is 1/(4x²)), and x² would overflow: 1e18 for f32, f64
    // and bf16, 100 for f16 (whose x² overflows at 256).
    let big = if ty.elem == xlet_core::types::ElemType::F16 {
        "100"
    } else {
        "1e18"
    };
    let (one, half, ln2, big) = (k("1"), k("0.5"), k("0.6931471805599453"), k(big));
    let lh = k("-0.6931471805599453");
    let e = match short {
        "erf_inv" => erf_inv(x, &k)?,
        // Exact comparisons.
        "is_inf" => format!("Eq(Abs({x}), {})", k("inf")),
        "is_pos_inf" => format!("Eq({x}, {})", k("inf")),
        "is_neg_inf" => format!("Eq({x}, {})", k("-inf")),
        // (expm1(x) - expm1(-x)) / 2: the two terms have opposite signs, so
        // no cancellation near 0; a few ulp. Overflows slightly early, for
        // |x| between log(max) and log(2 max) (f32: 88.7 to 89.4).
        // Below 1, (expm1(x) - expm1(-x)) / 2 (no cancellation near 0);
        // above, exp(x + log ½) - exp(-x + log ½), as CHLO's legalisation
        // writes it (no early overflow: exp(x)/2 is computed as one exp).
        "sinh" => format!(
            "Select(Lt(Abs({x}), {one}), Mul(Sub(Expm1({x}), Expm1(Neg({x}))), {half}), Sub(Exp(Add({x}, {lh})), Exp(Sub({lh}, {x}))))"
        ),
        // exp(x + log ½) + exp(-x + log ½), as CHLO's legalisation writes it:
        // a sum of positives, no early overflow.
        "cosh" => format!("Add(Exp(Add({x}, {lh})), Exp(Sub({lh}, {x})))"),
        // atan2(x, sqrt((1 - x)(1 + x))): (1 - x)(1 + x) avoids 1 - x*x's
        // cancellation near |x| = 1; a few ulp, NaN outside [-1, 1].
        "asin" => format!("Atan2({x}, Sqrt(Mul(Sub({one}, {x}), Add({one}, {x}))))"),
        // atan2(sqrt((1 - x)(1 + x)), x): exact at ±1 (0 and π); a few ulp.
        "acos" => format!("Atan2(Sqrt(Mul(Sub({one}, {x}), Add({one}, {x}))), {x})"),
        "atan" => format!("Atan2({x}, {one})"),
        // sign(x) log1p(|x| + x²/(1 + sqrt(1 + x²))), log|x| + ln 2 past 1e18
        // (where x² would overflow f32 and the rest is below an ulp); a few ulp.
        "asinh" => {
            let a = format!("Abs({x})");
            let small = format!(
                "Log1p(Add({a}, Div(Mul({a}, {a}), Add({one}, Sqrt(Add({one}, Mul({a}, {a})))))))"
            );
            format!("Mul(Sign({x}), Select(Gt({a}, {big}), Add(Log({a}), {ln2}), {small}))")
        }
        // log1p((x - 1) + sqrt((x - 1)(x + 1))): no cancellation near 1;
        // log(x) + ln 2 past 1e18; a few ulp, NaN below 1.
        "acosh" => {
            let m = format!("Sub({x}, {one})");
            format!(
                "Select(Gt({x}, {big}), Add(Log({x}), {ln2}), Log1p(Add({m}, Sqrt(Mul({m}, Add({x}, {one}))))))"
            )
        }
        // (log1p(x) - log1p(-x)) / 2: opposite signs near 0, a few ulp;
        // ±inf at ±1, NaN outside.
        _ => format!("Mul(Sub(Log1p({x}), Log1p(Neg({x}))), {half})"),
    };
    Ok(Some(e))
}

/// CHLO's binary ops with implicit broadcasting: xlet's binary op with
/// `broadcast_dimensions` when the op gives them.
fn broadcast(op: &Op, name: &str, v: &[String]) -> Result<String> {
    if name == "compare" {
        // `Lt(a, b)` or `Lt(a, b, type=TOTALORDER)`, dimensions added last.
        let c = super::ops::compare(op, v)?;
        return Ok(match op.attr("broadcast_dimensions").and_then(Attr::ints) {
            Some(d) => format!(
                "{}, broadcast_dimensions={})",
                c.trim_end_matches(')'),
                brace(&d)
            ),
            None => c,
        });
    }
    let x = match name {
        "add" => "Add",
        "subtract" => "Sub",
        "multiply" => "Mul",
        "divide" => "Div",
        "maximum" => "Max",
        "minimum" => "Min",
        "power" => "Pow",
        "remainder" => "Rem",
        "atan2" => "Atan2",
        "and" => "And",
        "or" => "Or",
        "xor" => "Xor",
        "complex" => "Complex",
        "shift_left" => "ShiftLeft",
        "shift_right_arithmetic" => "ShiftRightArithmetic",
        "shift_right_logical" => "ShiftRightLogical",
        _ => {
            return Err(ImportError::unsupported(
                op.span.clone(),
                format!("the op `{}`", op.name),
            ));
        }
    };
    let [a, b] = v else {
        return Err(ImportError::at(
            op.span.clone(),
            format!("`{}` takes two operands", op.name),
        ));
    };
    Ok(match op.attr("broadcast_dimensions").and_then(Attr::ints) {
        Some(d) => format!("{x}({a}, {b}, broadcast_dimensions={})", brace(&d)),
        None => format!("{x}({a}, {b})"),
    })
}

/// Giles' single-precision erfinv ("Approximating the erfinv function",
/// GPU Computing Gems, 2011), as XLA's f32 lowering: two polynomials in
/// w = -log((1 - x)(1 + x)): relative error within 1e-6 of jax in f32
/// (6.5e-7 seen near -0.999, conformance/import_ops/chlo_erf_inv.mlir); ±inf
/// at ±1. f64 is `erf64`'s (Giles' double-precision polynomials).
fn erf_inv(x: &str, k: &dyn Fn(&str) -> String) -> Result<String> {
    let w = format!(
        "Neg(Log(Mul(Sub({one}, {x}), Add({one}, {x}))))",
        one = k("1")
    );
    let horner = |t: &str, cs: &[&str]| {
        let mut p = k(cs[0]);
        for c in &cs[1..] {
            p = format!("Add({}, Mul({p}, {t}))", k(c));
        }
        p
    };
    let small = horner(
        &format!("Sub({w}, {})", k("2.5")),
        &[
            "2.81022636e-08",
            "3.43273939e-07",
            "-3.5233877e-06",
            "-4.39150654e-06",
            "0.00021858087",
            "-0.00125372503",
            "-0.00417768164",
            "0.246640727",
            "1.50140941",
        ],
    );
    let large = horner(
        &format!("Sub(Sqrt({w}), {})", k("3")),
        &[
            "-0.000200214257",
            "0.000100950558",
            "0.00134934322",
            "-0.00367342844",
            "0.00573950773",
            "-0.0076224613",
            "0.00943887047",
            "1.00167406",
            "2.83297682",
        ],
    );
    let p = format!("Select(Lt({w}, {}), {small}, {large})", k("5"));
    Ok(format!(
        "Select(Eq(Abs({x}), {}), Mul({x}, {}), Mul({p}, {x}))",
        k("1"),
        k("inf")
    ))
}

/// next_after(x, y) on the bits: step x's bit pattern by one toward y (up in
/// magnitude when moving away from 0); 0 steps to the smallest subnormal with
/// y's sign; NaN in gives NaN; x == y gives y. Exact.
fn next_after(cx: &Cx, op: &Op, v: &[String]) -> Result<String> {
    let [x, y] = v else {
        return Err(ImportError::at(
            op.span.clone(),
            "`chlo.next_after` takes two operands".into(),
        ));
    };
    let ty = cx.operand_array(op)?;
    let (int, min) = match ty.elem.name() {
        "f32" => ("s32", "-2147483648"),
        "f64" => ("s64", "-9223372036854775808"),
        "f16" | "bf16" => ("s16", "-32768"),
        other => {
            return Err(ImportError::unsupported(
                op.span.clone(),
                format!("`chlo.next_after` on {other}"),
            ));
        }
    };
    let dims: Vec<i128> = ty.dims.iter().map(|d| *d as i128).collect();
    let k = |t: &str, c: &str| format!("BroadcastInDim({t} {c}, {}, {{}})", brace(&dims));
    let f = ty.elem.name();
    let (bx, by) = (
        format!("BitcastConvertType({x}, {int})"),
        format!("BitcastConvertType({y}, {int})"),
    );
    let zero = k(f, "0");
    let one = k(int, "1");
    let from_zero = format!(
        "BitcastConvertType(Or(And({by}, {}), {one}), {f})",
        k(int, min)
    );
    let up = format!("Eq(Lt({x}, {y}), Gt({x}, {zero}))");
    let step = format!("BitcastConvertType(Select({up}, Add({bx}, {one}), Sub({bx}, {one})), {f})");
    Ok(format!(
        "Select(Or(Ne({x}, {x}), Ne({y}, {y})), Add({x}, {y}), Select(Eq({x}, {y}), {y}, Select(Eq({x}, {zero}), {from_zero}, {step})))"
    ))
}
