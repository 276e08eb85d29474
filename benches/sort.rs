//! Sort benchmarks (spec/ops/sort.md, issue 6's table: Sort f32[1000000],
//! numpy 3.9 ms, jax.jit 307 ms, target <= 6 ms on the machine).
//!
//! Each benchmark runs a checked xlet expression through the interpreter's
//! real path (checker-built kernel, evaluator), with its inputs bound in a
//! session. The data are pseudo-random floats in [-1, 1) (no NaN), as
//! `numpy.random.uniform(-1, 1, 10**6).astype(float32)` would be.
//!
//! Run: `cargo bench -p xlet-bench --bench sort` (not run in CI).
//!
//! Measured 2026-11-23 on the 2-core AMD EPYC dev machine under heavy load
//! (load average 7.7 from other builds; absolute times are inflated, compare
//! ratios), numpy and jax.jit timed right after in the same sitting:
//! Sort f32[1000000]: xlet 31 ms, numpy.sort 58 ms, jax.jit(jnp.sort) 484 ms
//! (xlet/numpy 0.54, xlet/jit 0.064); with a TOTALORDER `Lt` comparator 24 ms;
//! keys + s32 values 65 ms; f32[1000x1000] along dimension 0 18.5 ms; the
//! generic path (a comparator comp called per comparison) on f32[10000] 230 ms.

mod common;

use common::{bind, compiled};
use criterion::{Criterion, criterion_group, criterion_main};
use ndarray::{ArrayD, IxDyn};
use std::hint::black_box;
use std::time::Duration;
use xlet::check::Limits;
use xlet::session::Session;
use xlet::value::{Array, Value};

const N: usize = 1_000_000;

fn uniform(dims: &[usize], mut seed: u64) -> Value {
    let n: usize = dims.iter().product();
    let data: Vec<f32> = (0..n)
        .map(|_| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect();
    Value::Array(Array::from_nd(
        ArrayD::from_shape_vec(IxDyn(dims), data).unwrap(),
    ))
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("sort");
    g.sample_size(30).measurement_time(Duration::from_secs(5));

    let mut s = Session::new(Limits::default());
    bind(&mut s, "x", uniform(&[N], 1));
    let f = compiled(&s, "Sort(x)");
    g.bench_function("f32_1000000", |b| b.iter(|| black_box(f())));

    // A comparator the native sort recognises, with TOTALORDER.
    let mut s = Session::new(Limits::default());
    bind(&mut s, "x", uniform(&[N], 1));
    let f = compiled(
        &s,
        "comp lt(a: f32, b: f32) -> pred { Lt(a, b, type=TOTALORDER) }\nSort(x, comparator=lt)",
    );
    g.bench_function("f32_1000000_totalorder_lt", |b| b.iter(|| black_box(f())));

    // Keys and values: a permutation, then two gathers.
    let mut s = Session::new(Limits::default());
    bind(&mut s, "x", uniform(&[N], 1));
    let f = compiled(
        &s,
        "comp lt(a: f32, b: f32, c: s32, d: s32) -> pred { Lt(a, b) }\nSort({x, Iota(s32[1000000], 0)}, comparator=lt)",
    );
    g.bench_function("f32_s32_1000000_keys_values", |b| b.iter(|| black_box(f())));

    // 1000 rows of 1000, sorted in parallel along dimension 0 (a strided read).
    let mut s = Session::new(Limits::default());
    bind(&mut s, "m", uniform(&[1000, 1000], 2));
    let f = compiled(&s, "Sort(m, dimension=0)");
    g.bench_function("f32_1000x1000_dim0", |b| b.iter(|| black_box(f())));

    // The generic path: a comparator called per comparison (10000 elements).
    let mut s = Session::new(Limits::default());
    bind(&mut s, "y", uniform(&[10_000], 3));
    let f = compiled(
        &s,
        "comp lt(a: f32, b: f32) -> pred { let r = Lt(a, b); r }\nSort(y, comparator=lt)",
    );
    g.sample_size(10);
    g.bench_function("f32_10000_generic_comparator", |b| {
        b.iter(|| black_box(f()))
    });
    g.finish();
}

criterion_group!(sort_benches, benches);
criterion_main!(sort_benches);
