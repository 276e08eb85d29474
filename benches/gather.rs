//! Gather and Scatter benchmarks (issue 7's table): Gather 8192 rows of
//! f32[50000x256] with s32[8192] indices (the embedding lookup; numpy
//! `x[idx]` and jax jit `jnp.take(x, idx, axis=0)` beside it), plus a
//! scatter-add of the same rows back (monoid path) for reference.
//!
//! Each runs a checked xlet expression through the interpreter's real path
//! (checker-built kernel, evaluator), with its inputs bound in a session.
//!
//! Run: `cargo bench -p xlet-bench --bench gather` (not run in CI).

mod common;

use common::{bind, compiled, stream};
use criterion::{Criterion, criterion_group, criterion_main};
use ndarray::{ArrayD, IxDyn};
use std::hint::black_box;
use std::time::Duration;
use xlet::check::Limits;
use xlet::session::Session;
use xlet::value::{Array, Value};

fn table(rows: usize, cols: usize) -> Value {
    let mut r = stream(1);
    let v: Vec<f32> = (0..rows * cols)
        .map(|_| (r() >> 8) as f32 / (1u32 << 24) as f32)
        .collect();
    Value::Array(Array::from_nd(
        ArrayD::from_shape_vec(IxDyn(&[rows, cols]), v).unwrap(),
    ))
}

fn indices(n: usize, below: u32) -> Value {
    let mut r = stream(2);
    let v: Vec<i32> = (0..n).map(|_| (r() % below) as i32).collect();
    Value::Array(Array::from_nd(
        ArrayD::from_shape_vec(IxDyn(&[n]), v).unwrap(),
    ))
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("gather");
    g.sample_size(50).measurement_time(Duration::from_secs(5));
    let mut s = Session::new(Limits::default());
    bind(&mut s, "X", table(50000, 256));
    bind(&mut s, "I", indices(8192, 50000));
    bind(&mut s, "U", table(8192, 256));
    {
        let f = compiled(
            &s,
            "Gather(X, I, offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1, 256})",
        );
        g.bench_function("gather_rows_8192_of_f32_50000x256", |b| {
            b.iter(|| black_box(f()))
        });
    }
    {
        let f = compiled(
            &s,
            "Scatter(X, I, U, add, update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1)",
        );
        g.bench_function("scatter_add_rows_8192_into_f32_50000x256", |b| {
            b.iter(|| black_box(f()))
        });
    }
    g.finish();
}

criterion_group!(gather, benches);
criterion_main!(gather);
