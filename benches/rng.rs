//! Random-number benchmarks (issue 9's targets): 10^8 f32 values from
//! RngUniform and from RngNormal, and 10^7 u32 words from RngBitGenerator with
//! each algorithm, through the interpreter's real path (checker-built kernel,
//! evaluator). numpy's default generator for the same sizes:
//! benches/compare/rng_np.py.
//!
//! Run: `cargo bench -p xlet-bench --bench rng` (not run in CI).

mod common;

use common::compiled;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use xlet::check::Limits;
use xlet::session::Session;

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("rng");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    let s = Session::new(Limits::default());
    for (name, expr) in [
        ("uniform_f32_1e8", "RngUniform(0.0, 1.0, f32[100000000])"),
        ("normal_f32_1e8", "RngNormal(0.0, 1.0, f32[100000000])"),
        (
            "uniform_s32_1e8_range_1000",
            "RngUniform(0, 1000, s32[100000000])",
        ),
        (
            "bit_generator_philox_u32_1e7",
            "RngBitGenerator(PHILOX, u64[2] {1, 2}, u32[10000000])",
        ),
        (
            "bit_generator_three_fry_u32_1e7",
            "RngBitGenerator(THREE_FRY, u64[2] {1, 2}, u32[10000000])",
        ),
    ] {
        let f = compiled(&s, expr);
        g.bench_function(name, |b| b.iter(|| black_box(f())));
    }
    g.finish();
}

criterion_group!(rng, benches);
criterion_main!(rng);
