//! BatchNorm benchmarks (issue 8's table): BatchNormTraining on
//! f32[32x64x56x56] with feature_index 1 (NCHW), the same data with the
//! feature last (NHWC, the row path), BatchNormInference and BatchNormGrad on
//! the NCHW shape.
//!
//! Each runs a checked xlet expression through the interpreter's real path
//! (checker-built kernel, evaluator), with its inputs bound in a session.
//! numpy and jax.jit for the same shape: /work/notes/bn_np.py.
//!
//! Run: `cargo bench -p xlet-bench --bench batch_norm` (not run in CI).

mod common;

use common::{bind, compiled, data};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use xlet::check::Limits;
use xlet::session::Session;

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("batch_norm");
    g.sample_size(20).measurement_time(Duration::from_secs(5));

    let mut s = Session::new(Limits::default());
    bind(&mut s, "X", data(&[32, 64, 56, 56], 1));
    bind(&mut s, "XT", data(&[32, 56, 56, 64], 2));
    bind(&mut s, "S", data(&[64], 3));
    bind(&mut s, "O", data(&[64], 4));
    {
        let f = compiled(&s, "BatchNormTraining(X, S, O, 0.001, 1)");
        g.bench_function("training_f32_32x64x56x56_f1", |b| b.iter(|| black_box(f())));
    }
    {
        let f = compiled(&s, "BatchNormTraining(XT, S, O, 0.001, 3)");
        g.bench_function("training_f32_32x56x56x64_f3", |b| b.iter(|| black_box(f())));
    }
    {
        let f = compiled(&s, "BatchNormInference(X, S, O, S, S * S, 0.001, 1)");
        g.bench_function("inference_f32_32x64x56x56_f1", |b| {
            b.iter(|| black_box(f()))
        });
    }
    {
        let f = compiled(&s, "BatchNormGrad(X, S, O, S * S, X, 0.001, 1)");
        g.bench_function("grad_f32_32x64x56x56_f1", |b| b.iter(|| black_box(f())));
    }
    g.finish();
}

criterion_group!(batch_norm, benches);
criterion_main!(batch_norm);
