use crate::session::Session;
use std::sync::Arc;
use xlet_check::Limits;
use xlet_core::value::{Array, Value};
use xlet_eval::comp::*;
use xlet_eval::{Output, call_comp};
use xlet_ir as ir;

struct Quiet;
impl Output for Quiet {
    fn print(&mut self, _: &Value, _: &ir::Expr) {}
}

fn session(src: &str) -> Session {
    let mut s = Session::new(Limits::default());
    s.run(src, &mut Quiet)
        .unwrap_or_else(|f| panic!("{:?}", f.diags));
    s
}

fn comp(s: &Session, name: &str) -> Arc<ir::Comp> {
    s.types.comps.get(name).cloned().expect("comp defined")
}

#[test]
fn recognises_one_binary_op_on_the_parameters() {
    let s = session(
        "comp plus(a: f32, b: f32) -> f32 { a + b }\n\
         comp rplus(a: f32, b: f32) -> f32 { Add(b, a) }\n\
         comp sub(a: f32, b: f32) -> f32 { a - b }\n\
         comp twice(a: f32, b: f32) -> f32 { a + a }\n\
         comp big(a: s32, b: s32) -> s32 { Max(a, b) }\n\
         comp less(a: f32, b: f32) -> pred { a < b }\n\
         comp lets(a: f32, b: f32) -> f32 { let c = a + b\n c }\n",
    );
    assert_eq!(
        binary_op(&comp(&s, "plus")),
        Some((xlet_core::OpId::Add, false))
    );
    assert_eq!(
        binary_op(&comp(&s, "rplus")),
        Some((xlet_core::OpId::Add, true))
    );
    assert_eq!(binary_op(&comp(&s, "twice")), None);
    assert_eq!(binary_op(&comp(&s, "lets")), None);
    assert_eq!(
        binary_op(&comp(&s, "less")),
        Some((xlet_core::OpId::Lt, false))
    );
    assert_eq!(monoid(&comp(&s, "plus")), Some(Monoid::Add));
    assert_eq!(monoid(&comp(&s, "rplus")), Some(Monoid::Add));
    assert_eq!(monoid(&comp(&s, "big")), Some(Monoid::Max));
    assert_eq!(monoid(&comp(&s, "sub")), None);
    assert_eq!(monoid(&comp(&s, "less")), None);
}

fn f32s(v: &Array) -> Vec<u32> {
    v.to_vec::<f32>().iter().map(|x| x.to_bits()).collect()
}

#[test]
fn vectorised_comp_matches_calling_it_per_element() {
    let s = session(
        "comp f(a: f32, b: f32) -> f32 { let c = a * b - 0.5\n Tanh(c) + Select(a < b, a, b) }\n\
         comp g(a: f32, b: s32) -> (f32, s32) { (a * 2, b + 1) }\n\
         let x = Reshape(ConvertElementType(Iota(s32[70000], 0), f32), {700, 100}) * 0.001\n\
         let y = Transpose(Reshape(x, {100, 700}), {1, 0})\n\
         let k = Iota(s32[700x100], 1)\n",
    );
    let f = comp(&s, "f");
    let v = Vectorized::compile(&f).expect("f is elementwise");
    let x = s.env.values["x"].as_array().unwrap().clone();
    let y = s.env.values["y"].as_array().unwrap().clone();
    let k = s.env.values["k"].as_array().unwrap().clone();
    let fast = v.run(&[x.clone(), y.clone()]).unwrap();
    assert_eq!(fast.len(), 1);
    assert_eq!(fast[0].dims(), &[700, 100]);
    let (xs, ys) = (x.to_vec::<f32>(), y.to_vec::<f32>());
    let slow: Vec<u32> = xs
        .iter()
        .zip(&ys)
        .map(|(&a, &b)| {
            let args = [scalar(a), scalar(b)];
            let r = call_comp(&f, &args, &s.env).unwrap();
            r.as_array().unwrap().to_vec::<f32>()[0].to_bits()
        })
        .collect();
    assert_eq!(f32s(&fast[0]), slow);
    // A rank-0 argument stands for every element.
    let half = v
        .run(&[x.clone(), Array::from_nd(ndarray::arr0(0.25f32).into_dyn())])
        .unwrap();
    let want: Vec<u32> = xs
        .iter()
        .map(|&a| {
            let r = call_comp(&f, &[scalar(a), scalar(0.25)], &s.env).unwrap();
            r.as_array().unwrap().to_vec::<f32>()[0].to_bits()
        })
        .collect();
    assert_eq!(f32s(&half[0]), want);
    // A tuple result gives one array per item.
    let g = Vectorized::compile(&comp(&s, "g")).expect("g is elementwise");
    let out = g.run(&[x.clone(), k.clone()]).unwrap();
    assert_eq!(out.len(), 2);
    assert_eq!(out[1].to_vec::<i32>()[..3], [1, 2, 3]);
    assert_eq!(out[0].to_vec::<f32>()[5], xs[5] * 2.0);
    // Wrong argument types are an error, not a panic.
    assert!(v.run(&[k.clone(), y]).is_err());
    assert!(v.run(&[x]).is_err());
}

#[test]
fn comps_with_other_ops_are_not_vectorised() {
    let s = session(
        "let w = f32 3\n\
         comp reads(a: f32, b: f32) -> f32 { a + w }\n\
         comp shapes(a: f32, b: f32) -> f32[2] { Broadcast(a, {2}) }\n\
         comp plus(a: f32, b: f32) -> f32 { a + b }\n",
    );
    assert!(Vectorized::compile(&comp(&s, "reads")).is_none());
    assert!(Vectorized::compile(&comp(&s, "shapes")).is_none());
    assert!(Vectorized::compile(&comp(&s, "plus")).is_some());
}

fn scalar(x: f32) -> Value {
    Value::Array(Array::from_nd(ndarray::arr0(x).into_dyn()))
}
