//! The three paths against each other, bit for bit, with many duplicate
//! targets and out-of-bounds windows, on row-major and transposed updates.

use crate::session::Session;
use ndarray::{ArrayD, IxDyn};
use std::sync::Arc;
use xlet_check::Limits;
use xlet_core::types::ElemType;
use xlet_core::value::{Array, Value};
use xlet_eval::comp::{Monoid, Vectorized};
use xlet_eval::{Output, call_comp};
use xlet_ir::{self as ir, Comp, EvalCx, Kernel, KernelError};
use xlet_ops::index_dims::IndexSpace;
use xlet_ops::scatter::kernel::{Path, Plan, ScatterKernel};

struct Quiet;
impl Output for Quiet {
    fn print(&mut self, _: &Value, _: &ir::Expr) {}
}

struct Cx<'s>(&'s Session);
impl EvalCx for Cx<'_> {
    fn call_comp(&self, comp: &Comp, args: &[Value]) -> Result<Value, KernelError> {
        call_comp(comp, args, &self.0.env)
    }
}

fn session(src: &str) -> Session {
    let mut s = Session::new(Limits::default());
    s.run(src, &mut Quiet)
        .unwrap_or_else(|f| panic!("{:?}", f.diags));
    s
}

/// Operand [6,5]; each update is a row window of 3 (inserted dim 0) at a
/// 2-component start; 60 updates, starts from -1 to 6 / -1 to 4, so some
/// windows fall out and many targets repeat.
fn plan() -> Plan {
    let space = IndexSpace {
        idx_dims: vec![60, 2],
        ivd: 1,
        start_map: vec![0, 1],
        batching: vec![],
        operand_rank: 2,
    };
    Plan::new(space, vec![6, 5], vec![60, 3], vec![1], vec![1])
}

fn args(transposed: bool) -> Vec<Value> {
    let mut s = 12345u32;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    };
    let x: Vec<f32> = (0..30).map(|i| i as f32 * 0.1).collect();
    let idx: Vec<i32> = (0..60)
        .flat_map(|_| [(next() % 8) as i32 - 1, (next() % 6) as i32 - 1])
        .collect();
    // Magnitudes far apart: the f32 sums depend on the order of updates.
    let u: Vec<f32> = (0..180)
        .map(|_| {
            let m = [1e8f32, 1.0, 3e-3, -1e8, 7.5][(next() % 5) as usize];
            m * (1.0 + (next() % 100) as f32 / 64.0)
        })
        .collect();
    let updates = if transposed {
        let t = ArrayD::from_shape_vec(IxDyn(&[3, 60]), u).unwrap();
        t.reversed_axes().into_shared()
    } else {
        ArrayD::from_shape_vec(IxDyn(&[60, 3]), u)
            .unwrap()
            .into_shared()
    };
    vec![
        Value::Array(Array::F32(
            ArrayD::from_shape_vec(IxDyn(&[6, 5]), x)
                .unwrap()
                .into_shared(),
        )),
        Value::Array(Array::S32(
            ArrayD::from_shape_vec(IxDyn(&[60, 2]), idx)
                .unwrap()
                .into_shared(),
        )),
        Value::Array(Array::F32(updates)),
    ]
}

fn run(s: &Session, comp: &Arc<Comp>, path: Path, a: &[Value]) -> Vec<u32> {
    let k = ScatterKernel {
        plan: plan(),
        comp: comp.clone(),
        path,
        elems: vec![ElemType::F32],
    };
    let out = k.run(a, &Cx(s)).unwrap();
    out.as_array()
        .unwrap()
        .to_vec::<f32>()
        .iter()
        .map(|x| x.to_bits())
        .collect()
}

#[test]
fn monoid_vectorized_and_generic_paths_agree() {
    let s = session(
        "comp plus(a: f32, b: f32) -> f32 { a + b }\n\
         comp twice_plus(a: f32, b: f32) -> f32 { a * 2 + b }\n",
    );
    let plus = s.types.comps.get("plus").cloned().unwrap();
    let twice = s.types.comps.get("twice_plus").cloned().unwrap();
    for transposed in [false, true] {
        let a = args(transposed);
        let native = run(&s, &plus, Path::Monoid(Monoid::Add), &a);
        let vect = run(
            &s,
            &plus,
            Path::Vectorized(Vectorized::compile(&plus).unwrap()),
            &a,
        );
        let generic = run(&s, &plus, Path::Generic, &a);
        assert_eq!(native, vect);
        assert_eq!(native, generic);
        // Not commutative, not associative: order is everything.
        let v2 = run(
            &s,
            &twice,
            Path::Vectorized(Vectorized::compile(&twice).unwrap()),
            &a,
        );
        let g2 = run(&s, &twice, Path::Generic, &a);
        assert_eq!(v2, g2);
    }
}

#[test]
fn paths_apply_updates_in_the_spec_order() {
    // The reference: apply every in-bounds window in row-major order by hand.
    let s = session("comp plus(a: f32, b: f32) -> f32 { a + b }\n");
    let plus = s.types.comps.get("plus").cloned().unwrap();
    let a = args(false);
    let (Some(Array::S32(idx)), Some(Array::F32(u))) = (a[1].as_array(), a[2].as_array()) else {
        panic!()
    };
    let mut x: Vec<f32> = (0..30).map(|i| i as f32 * 0.1).collect();
    for k in 0..60 {
        let (r, c) = (idx[[k, 0]], idx[[k, 1]]);
        if !(0..6).contains(&r) || c < 0 || c + 3 > 5 {
            continue;
        }
        for w in 0..3 {
            let t = (r * 5 + c + w) as usize;
            x[t] += u[[k, w as usize]];
        }
    }
    let want: Vec<u32> = x.iter().map(|v| v.to_bits()).collect();
    assert_eq!(run(&s, &plus, Path::Monoid(Monoid::Add), &a), want);
}
