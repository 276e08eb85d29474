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
