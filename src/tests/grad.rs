//! Every gradient rule against central finite differences in f64.
//!
//! Each case is a comp `f` with f64 parameters and a scalar result. Its inputs
//! are drawn at random (fixed seed) in [0.5, 1.5] (inside every op's domain,
//! away from the kinks of Abs, Max, Min and Clamp's bounds with probability
//! 1); `Grad(f, ...)` is compared with (f(x + h e_i) - f(x - h e_i)) / 2h for
//! every element i of every parameter.
//!
//! Tolerance: with h = 1e-5 the central difference is off by h^2 |f'''| / 6
//! (about 1e-10 for these smooth functions of O(1) inputs) plus rounding,
//! eps |f| / h (about 2e-11 for |f| ~ 1); the gradient itself is exact to a few
//! ulps. So |grad - fd| <= 1e-6 (1 + |grad|) leaves four orders of margin, yet
//! a wrong rule (a missing factor, a sign, a sum over the wrong dimension) is
//! off by O(1) and fails.

use crate::session::Session;
use ndarray::{ArcArray, IxDyn};
use xlet_check::Limits;
use xlet_core::test_support::Rng;
use xlet_core::value::{Array, Value};
use xlet_eval::{Output, call_comp};
use xlet_ir as ir;

pub(super) struct Quiet;
impl Output for Quiet {
    fn print(&mut self, _: &Value, _: &ir::Expr) {}
}

const H: f64 = 1e-5;

fn f64s(v: &Value) -> Vec<f64> {
    match v {
        Value::Array(Array::F64(a)) => a.iter().copied().collect(),
        other => panic!("expected f64, got {:?}", other.ty()),
    }
}

fn array(dims: &[usize], data: Vec<f64>) -> Value {
    Value::Array(Array::F64(
        ArcArray::from_shape_vec(IxDyn(dims), data).expect("shape"),
    ))
}

/// Checks `Grad(f, ...)` of the comp `f` defined in `src` against finite differences.
pub(super) fn check(src: &str) {
    let mut s = Session::new(Limits::default());
    s.run(src, &mut Quiet)
        .unwrap_or_else(|f| panic!("{src}\n{:?}", f.diags));
    let f = s.types.comps.get("f").expect("a comp f").clone();
    let mut rng = Rng::new(src.len() as u64);
    let mut args = vec![];
    for (i, (_, t)) in f.params.iter().enumerate() {
        let a = t.as_array().expect("array parameter");
        let n = a.num_elements().expect("size");
        let data: Vec<f64> = (0..n).map(|_| 0.5 + rng.unit()).collect();
        let v = array(&a.dims, data);
        s.types.globals.insert(format!("p{i}"), t.clone());
        s.env.values.insert(format!("p{i}"), v.clone());
        args.push(v);
    }
    let names: Vec<String> = (0..args.len()).map(|i| format!("p{i}")).collect();
    let call = format!("let g = Grad(f, {})", names.join(", "));
    s.run(&call, &mut Quiet).unwrap_or_else(|e| {
        let text = s.gradient_source("f").unwrap_or_default();
        panic!("{src}\n{:?}\n{text}", e.diags)
    });
    let g = s.env.values.get("g").expect("g").clone();
    let grads: Vec<Value> = match &g {
        Value::Tuple(items) => items.to_vec(),
        v => vec![v.clone()],
    };
    let eval = |args: &[Value]| -> f64 { f64s(&call_comp(&f, args, &s.env).expect("f runs"))[0] };
    for (p, gv) in grads.iter().enumerate() {
        let got = f64s(gv);
        let base = f64s(&args[p]);
        let dims = f.params[p].1.as_array().expect("array").dims.clone();
        for i in 0..base.len() {
            let mut plus = args.clone();
            let mut minus = args.clone();
            let mut bp = base.clone();
            bp[i] += H;
            plus[p] = array(&dims, bp);
            let mut bm = base.clone();
            bm[i] -= H;
            minus[p] = array(&dims, bm);
            let fd = (eval(&plus) - eval(&minus)) / (2.0 * H);
            assert!(
                (got[i] - fd).abs() <= 1e-6 * (1.0 + got[i].abs()),
                "{src}\nparameter {p}, element {i}: grad {} but finite difference {fd}\n{}",
                got[i],
                s.gradient_source("f").unwrap_or_default()
            );
        }
    }
}

/// `Grad(f, ...)` of a one-parameter `f` at ones equals `want`.
pub(super) fn check_grad_only(src: &str, want: &[f64]) {
    let mut s = Session::new(Limits::default());
    s.run(src, &mut Quiet)
        .unwrap_or_else(|f| panic!("{src}\n{:?}", f.diags));
    let f = s.types.comps.get("f").expect("a comp f").clone();
    let a = f.params[0].1.as_array().expect("array").clone();
    s.types.globals.insert("p0".into(), f.params[0].1.clone());
    s.env
        .values
        .insert("p0".into(), array(&a.dims, vec![1.0; want.len()]));
    s.run("let g = Grad(f, p0)", &mut Quiet)
        .unwrap_or_else(|e| panic!("{src}\n{:?}", e.diags));
    assert_eq!(f64s(s.env.values.get("g").expect("g")), want, "{src}");
}

/// `sum(OP(x) * y)`: the unary rule, with a non-constant cotangent.
#[test]
fn unary_rules() {
    for op in [
        "Neg", "Abs", "Exp", "Expm1", "Log", "Log1p", "Logistic", "Sqrt", "Rsqrt", "Cbrt", "Sin",
        "Cos", "Tan", "Tanh", "Erf", "Floor", "Sign",
    ] {
        check(&format!(
            "comp f(x: f64[2x3], y: f64[2x3]) -> f64 {{ Reduce(Mul({op}(x), y), 0.0, add, {{0, 1}}) }}"
        ));
    }
}

/// Each binary rule at equal shapes, with a rank-1 operand mapped by
/// broadcast_dimensions, and with size-1 (degenerate) dimensions.
#[test]
fn binary_rules_and_broadcasting() {
    for op in [
        "Add", "Sub", "Mul", "Div", "Max", "Min", "Pow", "Atan2", "Rem",
    ] {
        for (yt, bd) in [
            ("f64[2x3]", ""),
            ("f64[3]", ", broadcast_dimensions={1}"),
            ("f64[2]", ", broadcast_dimensions={0}"),
            ("f64[1x3]", ""),
            ("f64[2x1]", ""),
        ] {
            check(&format!(
                "comp f(x: f64[2x3], y: {yt}) -> f64 {{ Reduce(Tanh({op}(x, y{bd})), 0.0, add, {{0, 1}}) }}"
            ));
        }
    }
}

#[test]
fn select_clamp_convert() {
    check(
        "comp f(x: f64[4], y: f64[4]) -> f64 { Reduce(Tanh(Select(Gt(x, y), x * y, y)), 0.0, add, {0}) }",
    );
    check(
        "comp f(lo: f64[4], x: f64[4], hi: f64[4]) -> f64 { Reduce(Tanh(Clamp(lo, x * 2.0, hi + 1.0)), 0.0, add, {0}) }",
    );
    check("comp f(x: f64[3]) -> f64 { Reduce(Tanh(ConvertElementType(x, f64)), 0.0, add, {0}) }");
    // Through f32 and back: the rounding to f32 is a step function at the scale
    // of h = 1e-5 (relative steps of 6e-8 make finite differences noise), so
    // this case checks the exact gradient, 3 per element, instead.
    check_grad_only(
        "comp f(x: f64[3]) -> f64 { Reduce(Mul(ConvertElementType(ConvertElementType(x, f32), f64), 3.0), 0.0, add, {0}) }",
        &[3.0, 3.0, 3.0],
    );
}

#[test]
fn shape_rules() {
    check("comp f(x: f64[3]) -> f64 { Reduce(Tanh(Broadcast(x, {2})), 0.0, add, {0, 1}) }");
    check(
        "comp f(x: f64[3x1]) -> f64 { Reduce(Tanh(BroadcastInDim(x, {2, 3, 4}, {1, 0})), 0.0, add, {0, 1, 2}) }",
    );
    check(
        "comp f(x: f64[2x3]) -> f64 { let y = Reshape(x, {3, 2}); Reduce(Tanh(y) * Iota(f64[3x2], 0), 0.0, add, {0, 1}) }",
    );
    check(
        "comp f(x: f64[2x3]) -> f64 { let y = Transpose(x, {1, 0}); Reduce(Tanh(y) * Iota(f64[3x2], 0), 0.0, add, {0, 1}) }",
    );
}

#[test]
fn reduce_rules() {
    check(
        "comp f(x: f64[2x3], i: f64) -> f64 { Reduce(Tanh(Reduce(x, i, add, {1})), 0.0, add, {0}) }",
    );
    check("comp f(x: f64[2x3]) -> f64 { Reduce(Tanh(Reduce(x, 1.0, mul, {0})), 0.0, add, {0}) }");
    check("comp f(x: f64[2x3]) -> f64 { Reduce(Tanh(Reduce(x, -inf, max, {1})), 0.0, add, {0}) }");
    check("comp f(x: f64[2x3]) -> f64 { Reduce(Tanh(Reduce(x, inf, min, {0})), 0.0, add, {0}) }");
}

#[test]
fn dot_rules() {
    check("comp f(a: f64[3], b: f64[3]) -> f64 { Tanh(Dot(a, b)) }");
    check("comp f(a: f64[2x3], b: f64[3]) -> f64 { Reduce(Tanh(Dot(a, b)), 0.0, add, {0}) }");
    check("comp f(a: f64[2x3], b: f64[3x4]) -> f64 { Reduce(Tanh(Dot(a, b)), 0.0, add, {0, 1}) }");
    check(
        "comp f(a: f64[2x3x4], b: f64[4x2x5]) -> f64 { Reduce(Tanh(DotGeneral(a, b, lhs_contracting_dimensions={2}, rhs_contracting_dimensions={0}, lhs_batch_dimensions={0}, rhs_batch_dimensions={1})), 0.0, add, {0, 1, 2}) }",
    );
    check(
        "comp f(a: f64[3x2x4], b: f64[4x3]) -> f64 { Reduce(Tanh(DotGeneral(a, b, lhs_contracting_dimensions={2, 0}, rhs_contracting_dimensions={0, 1})), 0.0, add, {0}) }",
    );
}

#[test]
fn calls_and_bindings() {
    check(
        "comp g(a: f64[3], b: f64[3]) -> f64[3] { Tanh(a * b) }
         comp f(x: f64[3], y: f64[3]) -> f64 { let z = g(x, y); let w = z; Reduce(Add(w, Call(g, w, x)), 0.0, add, {0}) }",
    );
}

#[test]
fn data_movement_rules() {
    let w = "Iota(f64[3x4], 1) + 1.0";
    check(
        "comp f(x: f64[5x4]) -> f64 { Reduce(Tanh(Slice(x, {1, 0}, {5, 4}, {2, 1})) * Iota(f64[2x4], 0), 0.0, add, {0, 1}) }",
    );
    check(
        "comp f(x: f64[2x3], v: f64) -> f64 { Reduce(Tanh(Pad(x, v, padding_config={{1, 2, 1}, {-1, 1, 0}})) * Iota(f64[6x3], 0), 0.0, add, {0, 1}) }",
    );
    check(&format!(
        "comp f(a: f64[1x4], b: f64[2x4]) -> f64 {{ Reduce(Tanh(Concatenate({{a, b}}, 0)) * ({w}), 0.0, add, {{0, 1}}) }}"
    ));
    check(&format!(
        "comp f(x: f64[3x4]) -> f64 {{ Reduce(Tanh(Rev(x, {{0, 1}})) * ({w}), 0.0, add, {{0, 1}}) }}"
    ));
    check(
        "comp f(x: f64[4x3]) -> f64 { Reduce(Tanh(DynamicSlice(x, {1, 2}, {2, 2})) * Iota(f64[2x2], 0), 0.0, add, {0, 1}) }",
    );
    check(&format!(
        "comp f(x: f64[3x4], u: f64[2x2]) -> f64 {{ Reduce(Tanh(DynamicUpdateSlice(x, u, {{1, 3}})) * ({w}), 0.0, add, {{0, 1}}) }}"
    ));
    check(
        "comp f(x: f64[3], y: f64[3]) -> f64 { let t = (Tanh(x), y * 2.0, 7); let u = Tuple(GetTupleElement(t, 1), x); Reduce(Mul(GetTupleElement(t, 0), GetTupleElement(u, 0)) + GetTupleElement(u, 1), 0.0, add, {0}) }",
    );
}

/// Seed 003's example: A = [1, 2, 3], B = [1], C = A + B, C.sum().backward().
#[test]
fn seed_003_backward() {
    let mut s = Session::new(Limits::default());
    s.run(
        "comp f(a: f32[3], b: f32[1]) -> f32 { Reduce(Add(a, b), 0.0, add, {0}) }
         let g = Grad(f, f32[3] {1, 2, 3}, f32[1] {1})
         then g == (f32[3] {1, 1, 1}, f32[1] {3})",
        &mut Quiet,
    )
    .unwrap_or_else(|f| panic!("{:?}", f.diags));
}

/// What `:grad` prints is a program that runs and gives what `Grad` gives.
#[test]
fn printed_program_runs() {
    let mut s = Session::new(Limits::default());
    let mlp = include_str!("../../examples/mlp.xlet");
    s.run(mlp, &mut Quiet)
        .unwrap_or_else(|f| panic!("{:?}", f.diags));
    let text = s.gradient_source("loss").expect("a backward program");
    s.run(&text, &mut Quiet)
        .unwrap_or_else(|f| panic!("{text}\n{:?}", f.diags));
    s.run(
        "let a = loss_grad(W1, B1, W2, B2, X, Y)
         let b = Grad(loss, W1, B1, W2, B2, X, Y)
         then a == b",
        &mut Quiet,
    )
    .unwrap_or_else(|f| panic!("{text}\n{:?}", f.diags));
}

/// A chain of calls is written out in place: its gradient costs about what
/// the forward pass does, not the square of the chain's length (each call's
/// vjp comp recomputing its callee's forward pass).
#[test]
fn call_chains_are_inlined() {
    // (Named k0..k199: c64 and c128 are element types.)
    let mut src = String::from("comp k0(x: f64[4]) -> f64[4] { Tanh(x) }\n");
    for i in 1..200 {
        src.push_str(&format!(
            "comp k{i}(x: f64[4]) -> f64[4] {{ let y = k{}(x); y * 1.001 }}\n",
            i - 1
        ));
    }
    src.push_str("comp f(x: f64[4]) -> f64 { Reduce(k199(x), 0.0, add, {0}) }\n");
    check(&src);
    let mut s = Session::new(Limits::default());
    s.run(&src, &mut Quiet)
        .unwrap_or_else(|f| panic!("{:?}", f.diags));
    let text = s.gradient_source("f").expect("a backward program");
    // One vjp comp (f's) and f_grad: no k*_vjp comps.
    assert!(!text.contains("k0_vjp"), "{text}");
    assert_eq!(text.matches("comp ").count(), 2, "{text}");
}
