//! The reduction's fast path against its reference path, on row-major,
//! transposed and sliced operands; and the hub's rounds and hang reports.

use crate::session::Session;
use ndarray::Axis;
use ndarray::{ArrayD, IxDyn};
use std::sync::Arc;
use xlet_check::Limits;
use xlet_core::test_support::Rng;
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_eval::{Env, Output};
use xlet_ir::replica::Hub;
use xlet_ir::replica::Site;
use xlet_ir::{Comp, EvalCx, KernelError};
use xlet_ops::collective::*;

struct NoOut;
impl Output for NoOut {
    fn print(&mut self, _: &Value, _: &xlet_ir::Expr) {}
}

/// An EvalCx over a session's environment (comp calls only).
struct Cx<'e>(&'e Env);
impl EvalCx for Cx<'_> {
    fn call_comp(&self, c: &Comp, a: &[Value]) -> Result<Value, KernelError> {
        xlet_eval::call_comp(c, a, self.0)
    }
}

fn comp(src: &str, name: &str) -> (Arc<Comp>, Env) {
    let mut s = Session::new(Limits::default());
    s.run(src, &mut NoOut).expect("the comp checks");
    (s.types.comps[name].clone(), s.env.clone())
}

fn random_f32(rng: &mut Rng, dims: &[usize]) -> Nd<f32> {
    let n: usize = dims.iter().product();
    let v: Vec<f32> = (0..n).map(|_| (rng.unit() * 8.0 - 4.0) as f32).collect();
    ArrayD::from_shape_vec(IxDyn(dims), v)
        .unwrap()
        .into_shared()
}

fn bits(a: &Array) -> Vec<u32> {
    let s = standard(a).unwrap();
    f32::unwrap(&s)
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect()
}

#[test]
fn fast_fold_matches_reference_on_every_layout() {
    // Not commutative, not associative: any difference of order shows.
    let (c, env) = comp("comp f(a: f32, b: f32) -> f32 { a * 0.5 + b * b }", "f");
    let combiner = Combiner::new(c);
    assert!(
        combiner.is_fast(),
        "an elementwise comp takes the fast path"
    );
    let mut rng = Rng::new(9);
    let plain = Array::F32(random_f32(&mut rng, &[3, 5]));
    let transposed = Array::F32(random_f32(&mut rng, &[5, 3]).permuted_axes(IxDyn(&[1, 0])));
    let mut wide = random_f32(&mut rng, &[3, 9]);
    wide.slice_axis_inplace(Axis(1), ndarray::Slice::from(2..7));
    let sliced = Array::F32(wide);
    let vals = [&plain, &transposed, &sliced, &plain];
    let Some(fast) = &combiner.fast else {
        unreachable!()
    };
    let a = fold_fast(fast, &vals).unwrap();
    let b = combiner.fold_reference(&vals, &Cx(&env)).unwrap();
    assert_eq!(a.dims(), &[3, 5]);
    assert_eq!(bits(&a), bits(&b));
}

#[test]
fn fold_is_left_to_right_in_the_order_given() {
    let (c, env) = comp(
        "comp g(a: s32, b: s32) -> s32 { Reshape(a * 10 + b, {}) }",
        "g",
    );
    let combiner = Combiner::new(c);
    assert!(
        !combiner.is_fast(),
        "Reshape is not elementwise: the reference path"
    );
    let v = |x: i32| Array::S32(ArrayD::from_elem(IxDyn(&[2]), x).into_shared());
    let (one, two, three) = (v(1), v(2), v(3));
    let r = combiner.fold(&[&one, &two, &three], &Cx(&env)).unwrap();
    assert_eq!(r.to_vec::<i64>(), vec![123, 123]);
}

fn site(op: xlet_core::OpId, line: usize) -> Site {
    Site {
        op,
        span: line..line + 1,
        line,
    }
}

fn scalar(x: f32) -> Value {
    Value::Array(Array::F32(ArrayD::from_elem(IxDyn(&[]), x).into_shared()))
}

#[test]
fn hub_rounds_give_every_operand_by_id() {
    let hub = Arc::new(Hub::new(3));
    let got: Vec<Vec<f32>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..3)
            .map(|id| {
                let hub = &hub;
                s.spawn(move || {
                    let mut seen = vec![];
                    for round in 0..5 {
                        let v = scalar((id * 10 + round) as f32);
                        let all = hub
                            .exchange(id, &site(xlet_core::OpId::AllReduce, 1), v)
                            .unwrap();
                        seen.extend(
                            all.values
                                .iter()
                                .map(|v| v.as_array().unwrap().to_vec::<f32>()[0]),
                        );
                    }
                    hub.finish(id, false);
                    seen
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for g in &got {
        let want: Vec<f32> = (0..5)
            .flat_map(|r| (0..3).map(move |id| (id * 10 + r) as f32))
            .collect();
        assert_eq!(g, &want);
    }
}

#[test]
fn hub_reports_a_finished_replica_and_a_mismatch() {
    let hub = Arc::new(Hub::new(2));
    std::thread::scope(|s| {
        let h =
            s.spawn(|| hub.exchange(0, &site(xlet_core::OpId::CrossReplicaSum, 4), scalar(1.0)));
        hub.finish(1, false);
        let e = h.join().unwrap().unwrap_err();
        assert_eq!(e.code.to_string(), "collective");
        assert!(
            e.message.contains("CrossReplicaSum (line 4)"),
            "{}",
            e.message
        );
        assert!(e.message.contains("replica 0 arrived"), "{}", e.message);
        assert!(e.message.contains("replica 1 finished"), "{}", e.message);
    });
    let hub = Arc::new(Hub::new(2));
    std::thread::scope(|s| {
        let a = s.spawn(|| hub.exchange(0, &site(xlet_core::OpId::AllReduce, 2), scalar(1.0)));
        let b = s.spawn(|| hub.exchange(1, &site(xlet_core::OpId::AllGather, 3), scalar(1.0)));
        for r in [a.join().unwrap(), b.join().unwrap()] {
            let e = r.unwrap_err();
            assert!(e.message.contains("different collectives"), "{}", e.message);
            assert!(
                e.message.contains("replica 1 is at AllGather (line 3)"),
                "{}",
                e.message
            );
        }
    });
}
