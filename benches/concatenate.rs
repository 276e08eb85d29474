//! Data-movement benchmarks of issue 7 (this part): Concatenate two
//! f32[4096x2048] on dimension 1 beside a plain copy of the same bytes (64 MiB
//! into a fresh buffer, one thread and parallel); Pad of f32[4096x4096] by one
//! element on every side; BitcastConvertType f32 -> s32 and ReducePrecision
//! (5, 10) over f32[4096x4096].
//!
//! Each xlet case runs a checked expression through the interpreter's real path
//! (checker-built kernel, evaluator), with its inputs bound in a session.
//!
//! Run: `cargo bench -p xlet-bench --bench concatenate` (not run in CI).

mod common;

use common::{bind, compiled, data};
use criterion::{Criterion, criterion_group, criterion_main};
use rayon::prelude::*;
use std::hint::black_box;
use std::time::Duration;
use xlet::check::Limits;
use xlet::session::Session;

/// A plain copy of `src` into a fresh buffer, as the output of an op is made.
fn copy_fresh(src: &[f32], parallel: bool) -> Vec<f32> {
    let mut out: Vec<f32> = Vec::with_capacity(src.len());
    let buf = &mut out.spare_capacity_mut()[..src.len()];
    let copy = |(d, s): (&mut [std::mem::MaybeUninit<f32>], &[f32])| unsafe {
        std::ptr::copy_nonoverlapping(s.as_ptr(), d.as_mut_ptr() as *mut f32, s.len())
    };
    if parallel {
        buf.par_chunks_mut(1 << 18)
            .zip(src.par_chunks(1 << 18))
            .for_each(copy);
    } else {
        buf.chunks_mut(1 << 18)
            .zip(src.chunks(1 << 18))
            .for_each(copy);
    }
    unsafe { out.set_len(src.len()) };
    out
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("move");
    g.sample_size(20).measurement_time(Duration::from_secs(5));

    let mut s = Session::new(Limits::default());
    bind(&mut s, "A", data(&[4096, 2048], 1));
    bind(&mut s, "B", data(&[4096, 2048], 2));
    {
        let f = compiled(&s, "Concatenate({A, B}, 1)");
        g.bench_function("concat_dim1_2x_f32_4096x2048", |b| {
            b.iter(|| black_box(f()))
        });
    }
    // The same 64 MiB copied plainly into a fresh buffer.
    let src: Vec<f32> = (0..4096 * 4096).map(|i| i as f32).collect();
    g.bench_function("copy_64MiB_parallel", |b| {
        b.iter(|| black_box(copy_fresh(&src, true)))
    });
    g.bench_function("copy_64MiB_1thread", |b| {
        b.iter(|| black_box(copy_fresh(&src, false)))
    });
    drop(s);

    let mut s = Session::new(Limits::default());
    bind(&mut s, "X", data(&[4096, 4096], 3));
    {
        let f = compiled(&s, "Pad(X, 0, {{1, 1, 0}, {1, 1, 0}})");
        g.bench_function("pad_edges_f32_4096x4096", |b| b.iter(|| black_box(f())));
    }
    {
        let f = compiled(&s, "BitcastConvertType(X, s32)");
        g.bench_function("bitcast_f32_s32_4096x4096", |b| b.iter(|| black_box(f())));
    }
    {
        let f = compiled(&s, "ReducePrecision(X, 5, 10)");
        g.bench_function("reduce_precision_5_10_f32_4096x4096", |b| {
            b.iter(|| black_box(f()))
        });
    }
    g.finish();
}

criterion_group!(move_benches, benches);
criterion_main!(move_benches);
