//! Convolution benchmarks (issue 8's table): ConvGeneralDilated
//! f32[8x64x56x56] * f32[64x64x3x3], SAME, NCHW/OIHW; the same as a 1x1
//! convolution (a matrix product in disguise); and the 3x3 in NHWC/HWIO.
//!
//! Each runs a checked xlet expression through the interpreter's real path.
//! Run: `cargo bench -p xlet-bench --bench conv` (not run in CI).

mod common;

use common::{bind, compiled, data, session};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("conv");
    g.sample_size(20).measurement_time(Duration::from_secs(6));
    let mut s = session();
    bind(&mut s, "X", data(&[8, 64, 56, 56], 1));
    bind(&mut s, "W", data(&[64, 64, 3, 3], 2));
    bind(&mut s, "W1", data(&[64, 64, 1, 1], 3));
    bind(&mut s, "XH", data(&[8, 56, 56, 64], 4));
    bind(&mut s, "WH", data(&[3, 3, 64, 64], 5));
    let cases = [
        (
            "conv_3x3_same_f32_8x64x56x56_nchw",
            "ConvGeneralDilated(X, W, {1, 1}, SAME)",
        ),
        (
            "conv_1x1_f32_8x64x56x56_nchw",
            "ConvGeneralDilated(X, W1, {1, 1}, VALID)",
        ),
        (
            "conv_3x3_same_f32_8x56x56x64_nhwc",
            "ConvGeneralDilated(XH, WH, {1, 1}, SAME, dimension_numbers=\"b01f_01io->b01f\")",
        ),
    ];
    for (name, src) in cases {
        let f = compiled(&s, src);
        g.bench_function(name, |b| b.iter(|| black_box(f())));
    }
    g.finish();
}

criterion_group!(conv, benches);
criterion_main!(conv);
