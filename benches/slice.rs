//! Slice, DynamicSlice and DynamicUpdateSlice (issue 7's table): every other
//! row of an f32[4096x4096] materialised, beside a plain copy of the same bytes
//! (a contiguous half of the array) and a full copy; a DynamicSlice block copy;
//! and 10000 DynamicUpdateSlice row writes into an f32[10000x128] While state
//! (in place: one row per iteration, not a copy of the 5 MB state).
//!
//! Run: `cargo bench -p xlet-bench --bench slice` (not run in CI).

mod common;

use common::{bind, compiled, run, session};
use criterion::{Criterion, criterion_group, criterion_main};
use ndarray::{ArrayD, IxDyn};
use std::hint::black_box;
use std::time::Duration;
use xlet::value::Array;

const N: usize = 4096;

fn matrix(dims: &[usize]) -> Array {
    let n: usize = dims.iter().product();
    let v: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.5).collect();
    Array::F32(
        ArrayD::from_shape_vec(IxDyn(dims), v)
            .unwrap()
            .into_shared(),
    )
}

const ROWS: &str = "
comp rows_cond(s: (s32, f32[10000x128])) -> pred { GetTupleElement(s, 0) < 10000 }
comp rows_body(s: (s32, f32[10000x128])) -> (s32, f32[10000x128]) {
  let i = GetTupleElement(s, 0)
  let row = Broadcast(ConvertElementType(i, f32), {1, 128})
  (i + 1, DynamicUpdateSlice(GetTupleElement(s, 1), row, i, 0))
}
";

fn benches(c: &mut Criterion) {
    let mut s = session();
    bind(&mut s, "X", matrix(&[N, N]));
    run(&mut s, ROWS);
    let mut g = c.benchmark_group("slice");
    g.sample_size(20).measurement_time(Duration::from_secs(6));
    // Materialising is forced by Reshape to one row-major vector of the slice's
    // elements (a view stays a view until an op needs row-major data).
    let every_other = compiled(
        &s,
        "Reshape(Slice(X, {0, 0}, {4096, 4096}, {2, 1}), {8388608})",
    );
    g.bench_function("slice_every_other_row_materialised", |b| {
        b.iter(|| black_box(every_other()))
    });
    // Yardstick: a plain copy of the same 32 MiB (`to_vec` of a contiguous array).
    let half = matrix(&[N / 2, N]);
    let Array::F32(half) = half else {
        unreachable!()
    };
    g.bench_function("copy_same_bytes_to_vec", |b| {
        b.iter(|| black_box(half.as_slice().map(|v| v.to_vec())))
    });
    let dyn_block = compiled(
        &s,
        "Reshape(DynamicSlice(X, s32 1000, s32 8, {2048, 4088}), {8372224})",
    );
    g.bench_function("dynamic_slice_2048x4088_materialised", |b| {
        b.iter(|| black_box(dyn_block()))
    });
    let rows = compiled(
        &s,
        "While(rows_cond, rows_body, (s32 0, Broadcast(f32 0, {10000, 128})))",
    );
    g.bench_function("dus_10000_rows_in_while", |b| b.iter(|| black_box(rows())));
    g.finish();
}

criterion_group!(slice, benches);
criterion_main!(slice);
