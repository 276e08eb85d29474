//! Elementwise and layout benchmarks on f32[4096x4096] (spec/performance.md).
//!
//! Each benchmark runs a checked xlet expression through the interpreter's
//! real path (checker-built kernel, evaluator), with its inputs bound in a
//! session. The plain copy is the memory-bandwidth yardstick: the others
//! should stay within 1.5x of it for the same bytes moved.
//!
//! Run: `cargo bench -p xlet-bench --bench elementwise` (not run in CI).

mod common;

use common::{bind, compiled};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{ArrayD, IxDyn};
use std::hint::black_box;
use std::time::Duration;
use xlet::check::Limits;
use xlet::session::Session;
use xlet::value::{Array, Value};

const N: usize = 4096;

fn matrix(dims: &[usize], seed: f32) -> Value {
    let n: usize = dims.iter().product();
    let data: Vec<f32> = (0..n).map(|i| ((i % 1013) as f32) * 0.001 + seed).collect();
    Value::Array(Array::from_nd(
        ArrayD::from_shape_vec(IxDyn(dims), data).unwrap(),
    ))
}

fn benches(c: &mut Criterion) {
    let mut s = Session::new(Limits::default());
    bind(&mut s, "X", matrix(&[N, N], 0.5));
    bind(&mut s, "Y", matrix(&[N, N], 1.5));
    bind(&mut s, "Z", matrix(&[N, N], 2.5));
    bind(&mut s, "v", matrix(&[N], 3.0));
    bind(&mut s, "col", matrix(&[N, 1], 1.0));
    bind(&mut s, "row", matrix(&[1, N], 2.0));

    let bytes = (N * N * 4) as u64;
    let mut g = c.benchmark_group("f32_4096x4096");
    g.sample_size(20).measurement_time(Duration::from_secs(8));

    // Yardstick: read X, write a copy (2 x 64 MiB moved).
    g.throughput(Throughput::Bytes(2 * bytes));
    let plain_copy = {
        let x = match s.env.values.get("X") {
            Some(Value::Array(Array::F32(a))) => a.clone(),
            _ => unreachable!(),
        };
        move || {
            let src = xlet::kernels::Src::of(&x);
            xlet::kernels::try_materialize(x.shape(), &src).unwrap()
        }
    };
    g.bench_function("copy", |b| b.iter(|| black_box(plain_copy())));

    // X + v with broadcast_dimensions={1}: reads 64 MiB + 16 KiB, writes 64 MiB.
    g.throughput(Throughput::Bytes(2 * bytes));
    let f = compiled(&s, "Add(X, v, broadcast_dimensions={1})");
    g.bench_function("add_row_vector_bdims1", |b| b.iter(|| black_box(f())));

    // [4096,1] + [1,4096]: the outer sum, writes 64 MiB.
    g.throughput(Throughput::Bytes(bytes));
    let f = compiled(&s, "col + row");
    g.bench_function("outer_add", |b| b.iter(|| black_box(f())));

    // tanh(X*Y+Z): three elementwise ops.
    g.throughput(Throughput::Bytes(4 * bytes));
    let f = compiled(&s, "Tanh(X * Y + Z)");
    g.bench_function("tanh_fma", |b| b.iter(|| black_box(f())));
    // The same without fusion: three whole-array passes with two intermediates.
    let mut unfused = s.clone();
    unfused.env.config.fuse = false;
    let f = compiled(&unfused, "Tanh(X * Y + Z)");
    g.bench_function("tanh_fma_unfused", |b| b.iter(|| black_box(f())));

    // Transpose materialized: the Transpose op itself returns a permuted view, and
    // this is the copy any consumer of that view pays.
    g.throughput(Throughput::Bytes(2 * bytes));
    let x = match s.env.values.get("X") {
        Some(Value::Array(Array::F32(a))) => a.clone(),
        _ => unreachable!(),
    };
    let t = x.clone().permuted_axes(IxDyn(&[1, 0]));
    g.bench_function("transpose", |b| {
        b.iter(|| {
            let src = xlet::kernels::Src::of(&t);
            black_box(xlet::kernels::try_materialize(t.shape(), &src).unwrap())
        })
    });
    g.finish();
}

criterion_group!(elementwise, benches);
criterion_main!(elementwise);
