//! While and Conditional overhead (issue 6's table): the seed's While (1000
//! iterations adding an f32[10]), a While of 100000 iterations of `i + 1` on
//! s32 (the compiled scalar loop), the same counter kept on the evaluator's
//! path (a tuple state with an f32[4]), and the per-op cost inside a While body:
//! 20 more unfused f32[4] ops per iteration, divided out in the closing note.
//!
//! Run: `cargo bench -p xlet-bench --bench control` (not run in CI).

mod common;

use common::{Quiet, compiled};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use xlet::check::Limits;
use xlet::session::Session;

const SEED: &str = "let constant_vector = f32[10] {0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5}
comp condition(result: (s32, f32[10])) -> pred { GetTupleElement(result, 0) < 1000 }
comp body(result: (s32, f32[10])) -> (s32, f32[10]) {
  let iteration = GetTupleElement(result, 0) + 1
  let new_vector = GetTupleElement(result, 1) + constant_vector
  (iteration, new_vector)
}
comp cond(i: s32) -> pred { i < 100000 }
comp inc(i: s32) -> s32 { i + 1 }
comp cond4(s: (s32, f32[4])) -> pred { GetTupleElement(s, 0) < 100000 }
comp keep4(s: (s32, f32[4])) -> (s32, f32[4]) {
  let v = GetTupleElement(s, 1)
  (GetTupleElement(s, 0) + 1, v)
}
";

fn ops20() -> String {
    let mut b = String::from(
        "comp ops4(s: (s32, f32[4])) -> (s32, f32[4]) {\n  let v = GetTupleElement(s, 1)\n  let a0 = v + v\n",
    );
    for i in 1..20 {
        let op = if i % 2 == 1 { '-' } else { '+' };
        b.push_str(&format!("  let a{i} = a{} {op} v\n", i - 1));
    }
    b.push_str("  (GetTupleElement(s, 0) + 1, a19)\n}\n");
    b
}

fn benches(c: &mut Criterion) {
    let mut s = Session::new(Limits::default());
    s.run(&format!("{SEED}{}", ops20()), &mut Quiet)
        .unwrap_or_else(|f| panic!("{:?}", f.diags));
    let mut g = c.benchmark_group("control");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    let seed = compiled(
        &s,
        "While(condition, body, (s32 0, Broadcast(f32 0, {10})))",
    );
    g.bench_function("seed_while_1000", |b| b.iter(|| black_box(seed())));
    let counter = compiled(&s, "While(cond, inc, s32 0)");
    g.bench_function("counter_100000_scalar", |b| b.iter(|| black_box(counter())));
    let keep = compiled(&s, "While(cond4, keep4, (s32 0, f32[4] {1, 2, 3, 4}))");
    g.bench_function("counter_100000_tuple_state", |b| {
        b.iter(|| black_box(keep()))
    });
    let ops = compiled(&s, "While(cond4, ops4, (s32 0, f32[4] {1, 2, 3, 4}))");
    g.bench_function("counter_100000_plus_20_ops", |b| {
        b.iter(|| black_box(ops()))
    });
    g.finish();
}

criterion_group!(control, benches);
criterion_main!(control);
