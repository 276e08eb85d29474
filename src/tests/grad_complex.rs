//! Gradients through complex numbers against central finite differences
//! (spec/grad.md §7).
//!
//! Each case is a comp `f` with c128 or f64 parameters and an f64 scalar
//! result. Inputs (each part of a complex one) are drawn in [0.5, 1.5] as in
//! `grad.rs`, whose step and tolerance (h = 1e-5, 1e-6 (1 + |g|)) and their
//! justification carry over: every part is a smooth function of O(1) inputs.
//! jax's convention makes the gradient of a real f at z = x + iy the number
//! df/dx - i df/dy, so the real part is compared with the difference in x and
//! the imaginary part with minus the difference in y. A holomorphic op's
//! vector-Jacobian product `c h'(z)` is the gradient of Re(sum(c h(z))), so
//! these cases test Vjp's complex cotangents too.

use super::grad::Quiet;
use crate::session::Session;
use ndarray::{ArcArray, IxDyn};
use xlet_check::Limits;
use xlet_core::test_support::Rng;
use xlet_core::value::{Array, Value, c128};
use xlet_eval::call_comp;

const H: f64 = 1e-5;

/// The value's elements as complex numbers (an f64 array's with imaginary part 0).
fn parts(v: &Value) -> Vec<c128> {
    match v {
        Value::Array(Array::C128(a)) => a.iter().copied().collect(),
        Value::Array(Array::F64(a)) => a.iter().map(|&x| c128::new(x, 0.0)).collect(),
        other => panic!("expected c128 or f64, got {:?}", other.ty()),
    }
}

/// An array of `like`'s element type (c128 or f64) holding `data`.
fn array(complex: bool, dims: &[usize], data: Vec<c128>) -> Value {
    let shape = IxDyn(dims);
    Value::Array(if complex {
        Array::C128(ArcArray::from_shape_vec(shape, data).expect("shape"))
    } else {
        let re = data.iter().map(|z| z.re).collect();
        Array::F64(ArcArray::from_shape_vec(shape, re).expect("shape"))
    })
}

/// Checks `Grad(f, ...)` of the comp `f` in `src` against finite differences
/// in the real and (for c128 parameters) the imaginary part of every element.
fn check(src: &str) {
    let mut s = Session::new(Limits::default());
    s.run(src, &mut Quiet)
        .unwrap_or_else(|f| panic!("{src}\n{:?}", f.diags));
    let f = s.types.comps.get("f").expect("a comp f").clone();
    let mut rng = Rng::new(src.len() as u64);
    let mut args = vec![];
    for (i, (_, t)) in f.params.iter().enumerate() {
        let a = t.as_array().expect("array parameter");
        let n = a.num_elements().expect("size");
        let data: Vec<c128> = (0..n)
            .map(|_| c128::new(0.5 + rng.unit(), 0.5 + rng.unit()))
            .collect();
        let v = array(a.elem.is_complex(), &a.dims, data);
        s.types.globals.insert(format!("p{i}"), t.clone());
        s.env.values.insert(format!("p{i}"), v.clone());
        args.push(v);
    }
    let names: Vec<String> = (0..args.len()).map(|i| format!("p{i}")).collect();
    s.run(
        &format!("let g = Grad(f, {})", names.join(", ")),
        &mut Quiet,
    )
    .unwrap_or_else(|e| {
        let text = s.gradient_source("f").unwrap_or_default();
        panic!("{src}\n{:?}\n{text}", e.diags)
    });
    let g = s.env.values.get("g").expect("g").clone();
    let grads: Vec<Value> = match &g {
        Value::Tuple(items) => items.to_vec(),
        v => vec![v.clone()],
    };
    let eval =
        |args: &[Value]| -> f64 { parts(&call_comp(&f, args, &s.env).expect("f runs"))[0].re };
    for (p, gv) in grads.iter().enumerate() {
        let got = parts(gv);
        let base = parts(&args[p]);
        let a = f.params[p].1.as_array().expect("array").clone();
        let directions: &[(c128, f64)] = if a.elem.is_complex() {
            // d/dx is the real part, d/dy minus the imaginary part.
            &[(c128::new(1.0, 0.0), 1.0), (c128::new(0.0, 1.0), -1.0)]
        } else {
            &[(c128::new(1.0, 0.0), 1.0)]
        };
        for i in 0..base.len() {
            for (k, &(step, sign)) in directions.iter().enumerate() {
                let moved = |by: f64| {
                    let mut d = base.clone();
                    d[i] += step * by;
                    let mut all = args.clone();
                    all[p] = array(a.elem.is_complex(), &a.dims, d);
                    eval(&all)
                };
                let fd = sign * (moved(H) - moved(-H)) / (2.0 * H);
                let want = if k == 0 { got[i].re } else { got[i].im };
                assert!(
                    (want - fd).abs() <= 1e-6 * (1.0 + want.abs()),
                    "{src}\nparameter {p}, element {i}, part {k}: grad {want} but finite difference {fd}\n{}",
                    s.gradient_source("f").unwrap_or_default()
                );
            }
        }
    }
}

/// `Re(sum(OP(z) w))`: each holomorphic unary rule, with a complex cotangent.
#[test]
fn holomorphic_unary_rules() {
    for op in [
        "Neg", "Exp", "Expm1", "Log", "Log1p", "Logistic", "Sqrt", "Rsqrt", "Sin", "Cos", "Tan",
        "Tanh",
    ] {
        check(&format!(
            "comp f(z: c128[2x3], w: c128[2x3]) -> f64 {{ Reduce(Real(Mul({op}(z), w)), 0.0, add, {{0, 1}}) }}"
        ));
    }
}

/// The binary rules at equal shapes and broadcast.
#[test]
fn holomorphic_binary_rules() {
    for op in ["Add", "Sub", "Mul", "Div", "Pow"] {
        for (yt, bd) in [
            ("c128[2x3]", ""),
            ("c128[3]", ", broadcast_dimensions={1}"),
            ("c128[1x3]", ""),
        ] {
            check(&format!(
                "comp f(x: c128[2x3], y: {yt}) -> f64 {{ Reduce(Imag({op}(x, y{bd})), 0.0, add, {{0, 1}}) }}"
            ));
        }
    }
}

/// Complex, Real, Imag, Abs and conversions, which are not holomorphic.
#[test]
fn complex_parts_rules() {
    for body in [
        "Reduce(Abs(Mul(Complex(a, b), z)), 0.0, add, {0})",
        "Reduce(Mul(Real(z), Imag(Mul(z, Complex(a, b)))), 0.0, add, {0})",
        "Reduce(Real(Mul(ConvertElementType(a, c128), z)), 0.0, add, {0})",
        "Reduce(Mul(ConvertElementType(z, f64), b), 0.0, add, {0})",
        "Reduce(Real(Select(Gt(a, b), z, Exp(z))), 0.0, add, {0})",
        "Reduce(Add(Real(a), Imag(b)), 0.0, add, {0})",
    ] {
        check(&format!(
            "comp f(a: f64[3], b: f64[3], z: c128[3]) -> f64 {{ {body} }}"
        ));
    }
}

/// Linear ops carry complex cotangents unchanged in form: Dot, Reduce,
/// Transpose, Slice, Broadcast.
#[test]
fn linear_ops_on_complex() {
    check(
        "comp f(a: c128[2x3], b: c128[3x2]) -> f64 {
           let d = Dot(a, b)
           let t = Transpose(d, {1, 0})
           let s = Slice(Broadcast(t, {2}), {0, 0, 1}, {2, 2, 2}, {1, 1, 1})
           Real(Reduce(Mul(s, s), c128 0, add, {0, 1, 2}))
         }",
    );
}

/// Fft of each type, one and two dimensions, even and odd lengths: the
/// gradient of a weighted sum of the transform (spec/ops/fft.md).
#[test]
fn fft_rules() {
    for (x, fft, w) in [
        ("c128[2x4]", "FFT, {4}", "c128[2x4]"),
        ("c128[3x4]", "IFFT, {3, 4}", "c128[3x4]"),
        ("f64[2x6]", "RFFT, {6}", "c128[2x4]"),
        ("f64[2x5]", "RFFT, {5}", "c128[2x3]"),
        ("f64[3x4]", "RFFT, {3, 4}", "c128[3x3]"),
        ("c128[2x4]", "IRFFT, {6}", "f64[2x6]"),
        ("c128[2x3]", "IRFFT, {5}", "f64[2x5]"),
        ("c128[3x3]", "IRFFT, {3, 4}", "f64[3x4]"),
    ] {
        let zero = if w.starts_with('c') {
            "c128 0"
        } else {
            "f64 0"
        };
        check(&format!(
            "comp f(x: {x}, w: {w}) -> f64 {{ Real(Reduce(Mul(Fft(x, {fft}), w), {zero}, add, {{0, 1}})) }}"
        ));
    }
}

/// TriangularSolve on complex matrices, every form: ADJOINT conjugates `a`
/// (its b-cotangent solves with `conj(a)`). `a + 4 I` keeps the diagonal
/// far from zero.
#[test]
fn triangular_solve_complex() {
    let eye = "c128[3x3] {{4, 0, 0}, {0, 4, 0}, {0, 0, 4}}";
    for left in [true, false] {
        let b = if left { "c128[3x2]" } else { "c128[2x3]" };
        for lower in [true, false] {
            for tr in ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"] {
                check(&format!(
                    "comp f(a: c128[3x3], b: {b}, w: {b}) -> f64 {{
                       let x = TriangularSolve(Add(a, {eye}), b, {left}, {lower}, false, {tr})
                       Real(Reduce(Mul(x, w), c128 0, add, {{0, 1}}))
                     }}"
                ));
            }
        }
    }
}

/// Cholesky on complex matrices, lower and upper, batched: the op reads one
/// triangle and the real part of the diagonal, so moving the other triangle
/// or a diagonal element's imaginary part changes nothing (gradient 0).
/// `a + 4 I` is Hermitian positive definite as read: off-diagonal moduli at
/// most 2.2, diagonal real parts at least 4.5.
#[test]
fn cholesky_complex() {
    let eye = "c128[3x3] {{4, 0, 0}, {0, 4, 0}, {0, 0, 4}}";
    for lower in [true, false] {
        check(&format!(
            "comp f(a: c128[3x3], w: c128[3x3]) -> f64 {{
               Real(Reduce(Mul(Cholesky(Add(a, {eye}), lower={lower}), w), c128 0, add, {{0, 1}}))
             }}"
        ));
        check(&format!(
            "comp f(a: c128[2x3x3], w: c128[2x3x3]) -> f64 {{
               let s = Add(a, BroadcastInDim({eye}, {{2, 3, 3}}, {{1, 2}}))
               Real(Reduce(Mul(Cholesky(s, lower={lower}), w), c128 0, add, {{0, 1, 2}}))
             }}"
        ));
    }
}
