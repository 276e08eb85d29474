//! Reduction benchmarks (issue 6's table): Reduce add over each dimension of
//! f32[4096x4096], ReduceWindow max 2x2 stride 2 on f32[8x64x112x112], and the
//! max-pool gradient (SelectAndScatter) of the same.
//!
//! Each runs a checked xlet expression through the interpreter's real path
//! (checker-built kernel, evaluator), with its inputs bound in a session.
//!
//! Run: `cargo bench -p xlet-bench --bench reduce` (not run in CI).

mod common;

use common::{bind, compiled, data};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use xlet::check::Limits;
use xlet::session::Session;

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("reduce");
    g.sample_size(20).measurement_time(Duration::from_secs(6));

    let mut s = Session::new(Limits::default());
    bind(&mut s, "X", data(&[4096, 4096], 1));
    {
        let f = compiled(&s, "Reduce(X, 0, add, {1})");
        g.bench_function("add_dim1_f32_4096x4096", |b| b.iter(|| black_box(f())));
    }
    {
        let f = compiled(&s, "Reduce(X, 0, add, {0})");
        g.bench_function("add_dim0_f32_4096x4096", |b| b.iter(|| black_box(f())));
    }
    drop(s);

    let mut s = Session::new(Limits::default());
    bind(&mut s, "P", data(&[8, 64, 112, 112], 2));
    bind(&mut s, "G", data(&[8, 64, 56, 56], 3));
    {
        let f = compiled(
            &s,
            "ReduceWindow(P, -inf, max, {1, 1, 2, 2}, {1, 1, 2, 2}, VALID)",
        );
        g.bench_function("reduce_window_max_2x2_s2_f32_8x64x112x112", |b| {
            b.iter(|| black_box(f()))
        });
    }
    {
        let f = compiled(
            &s,
            "comp ge(a: f32, b: f32) -> pred { a >= b }\nSelectAndScatter(P, ge, {1, 1, 2, 2}, {1, 1, 2, 2}, VALID, G, 0, add)",
        );
        g.bench_function("select_and_scatter_maxpool_grad", |b| {
            b.iter(|| black_box(f()))
        });
    }
    g.finish();
}

criterion_group!(reduce, benches);
criterion_main!(reduce);
