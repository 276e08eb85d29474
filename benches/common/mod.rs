//! What every bench needs: binding arrays in a session, running setup source,
//! and compiling an expression once to evaluate it many times (each call makes
//! a fresh result, as a user's `:time` does).
#![allow(dead_code)] // each bench uses some of these

use std::hint::black_box;
use std::time::Instant;
use xlet::check::Limits;
use xlet::eval::eval_top;
use xlet::ir::StmtKind;
use xlet::session::Session;
use xlet::value::Value;

pub struct Quiet;
impl xlet::eval::Output for Quiet {
    fn print(&mut self, _: &Value, _: &xlet::ir::Expr) {}
}

pub fn session() -> Session {
    Session::new(Limits::default())
}

/// Binds `name` to `v` as a top-level `let` would.
pub fn bind(s: &mut Session, name: &str, v: impl Into<Value>) {
    let v = v.into();
    s.types.globals.insert(name.to_string(), v.ty());
    s.env.values.insert(name.to_string(), v);
}

/// Runs setup source (comps, lets) in the session.
pub fn run(s: &mut Session, src: &str) {
    s.run(src, &mut Quiet)
        .unwrap_or_else(|f| panic!("{src}: {:?}", f.diags));
}

/// Checks `src` (comps, then an expression last) and returns a closure that
/// evaluates the expression. Comps written here must read no top-level
/// binding (their statements do not run); define those with `run`.
pub fn compiled<'s>(s: &'s Session, src: &str) -> impl Fn() -> Value + 's {
    let (prog, _) = s
        .check(src)
        .unwrap_or_else(|f| panic!("{src}: {:?}", f.diags));
    let e = match prog.stmts.last().map(|st| &st.kind) {
        Some(StmtKind::Print(e)) => e.clone(),
        _ => panic!("{src}: does not end with an expression"),
    };
    move || eval_top(&e, &s.env).unwrap()
}

/// The best of `runs` timings of `f`, in milliseconds (after one warm-up).
pub fn best_ms<R>(runs: usize, f: impl Fn() -> R) -> f64 {
    black_box(f());
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

/// A fixed pseudo-random stream (xorshift32), so every run binds the same data.
pub fn stream(seed: u32) -> impl FnMut() -> u32 {
    let mut s = seed.wrapping_mul(2654435761).wrapping_add(1);
    move || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    }
}

/// An f32 array of the given shape, uniform in [-0.5, 0.5), from `stream(seed)`.
pub fn data(dims: &[usize], seed: u32) -> Value {
    let n: usize = dims.iter().product();
    let mut r = stream(seed);
    let v: Vec<f32> = (0..n)
        .map(|_| (r() >> 8) as f32 / (1u32 << 24) as f32 - 0.5)
        .collect();
    Value::Array(xlet::value::Array::from_nd(
        ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(dims), v).unwrap(),
    ))
}
