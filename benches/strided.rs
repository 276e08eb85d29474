//! Elementwise ops on strided views (spec/performance.md §5–6): transposed,
//! permuted, reversed and strided operands against the same op on a contiguous
//! array and against a plain copy of the same bytes; and `Tanh(X * Y + Z)`.
//!
//! Every shape has 2^24 f32 elements (64 MiB): f32[4096x4096],
//! f32[256x256x256], f32[64x64x64x64]. Each permutation of rank 2–4 is one
//! benchmark, named by its permutation.
//!
//! Run: `cargo bench -p xlet-bench --bench strided` (all, about a minute), or with a filter:
//! `cargo bench -p xlet-bench --bench strided -- 'rank2|copy|contig'`. Not run in CI.

use criterion::{Criterion, criterion_group, criterion_main};
use ndarray::{ArrayD, Axis, IxDyn, Slice};
use std::hint::black_box;
use std::time::Duration;
use xlet::check::Limits;
use xlet::eval::eval_top;
use xlet::ir::StmtKind;
use xlet::session::Session;
use xlet::value::{Array, Nd, Value};

fn nd(dims: &[usize], seed: f32) -> Nd<f32> {
    let n: usize = dims.iter().product();
    let data: Vec<f32> = (0..n).map(|i| ((i % 1013) as f32) * 0.001 + seed).collect();
    ArrayD::from_shape_vec(IxDyn(dims), data)
        .unwrap()
        .into_shared()
}

fn bind(s: &mut Session, name: &str, a: Nd<f32>) {
    let v = Value::Array(Array::F32(a));
    s.types.globals.insert(name.to_string(), v.ty());
    s.env.values.insert(name.to_string(), v);
}

/// Checks `expr` in the session and returns a closure that evaluates it.
fn compiled<'s>(s: &'s Session, expr: &str) -> impl Fn() -> Value + 's {
    let (prog, _) = s
        .check(expr)
        .unwrap_or_else(|f| panic!("{expr}: {:?}", f.diags));
    let e = match &prog.stmts[0].kind {
        StmtKind::Print(e) => e.clone(),
        _ => panic!("not an expression"),
    };
    move || eval_top(&e, &s.env).unwrap()
}

/// Every permutation of 0..n.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = vec![];
    for p in permutations(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out.sort();
    out
}

fn list(p: &[usize]) -> String {
    let s: Vec<String> = p.iter().map(|d| d.to_string()).collect();
    format!("{{{}}}", s.join(","))
}

fn benches(c: &mut Criterion) {
    let mut s = Session::new(Limits::default());
    let y2 = nd(&[4096, 4096], 1.5);
    bind(&mut s, "X", nd(&[4096, 4096], 0.5));
    bind(&mut s, "Y", y2.clone());
    bind(&mut s, "Z", nd(&[4096, 4096], 2.5));
    bind(&mut s, "R3", nd(&[256, 256, 256], 1.0));
    bind(&mut s, "R4", nd(&[64, 64, 64, 64], 1.0));
    // Views bound directly (Rev and Slice are not ops yet): both axes reversed;
    // every other column of a [4096x8192] array.
    let mut rev = y2.clone();
    rev.invert_axis(Axis(0));
    rev.invert_axis(Axis(1));
    bind(&mut s, "Yrev", rev);
    let wide = nd(&[4096, 8192], 1.0);
    bind(
        &mut s,
        "Yeven",
        wide.slice_axis(Axis(1), Slice::new(0, None, 2)).to_shared(),
    );
    let mut revt = y2.clone().permuted_axes(IxDyn(&[1, 0]));
    revt.invert_axis(Axis(1));
    bind(&mut s, "Yrevt", revt);

    let mut g = c.benchmark_group("strided_f32_16M");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));

    let plain = y2.clone();
    g.bench_function("copy", |b| {
        b.iter(|| {
            let src = xlet::kernels::Src::of(&plain);
            black_box(xlet::kernels::materialize(plain.shape(), &src))
        })
    });
    let f = compiled(&s, "Neg(Y)");
    g.bench_function("contig_neg", |b| b.iter(|| black_box(f())));
    let f = compiled(&s, "X + Y");
    g.bench_function("contig_add", |b| b.iter(|| black_box(f())));

    for (name, expr) in [
        ("rank2_neg_transpose_{1,0}", "Neg(Transpose(Y, {1,0}))"),
        ("rank2_add_transpose_{1,0}", "X + Transpose(Y, {1,0})"),
        ("rank2_neg_reversed_both", "Neg(Yrev)"),
        ("rank2_neg_every_other_column", "Neg(Yeven)"),
        ("rank2_neg_transposed_reversed", "Neg(Yrevt)"),
        (
            "rank2_neg_add_transposed_fused",
            "Neg(Transpose(Y, {1,0}) + X)",
        ),
    ] {
        let f = compiled(&s, expr);
        g.bench_function(name, |b| b.iter(|| black_box(f())));
    }
    for (rank, var) in [(3, "R3"), (4, "R4")] {
        for p in permutations(rank) {
            let expr = format!("Neg(Transpose({var}, {}))", list(&p));
            let f = compiled(&s, &expr);
            g.bench_function(format!("rank{rank}_neg_transpose_{}", list(&p)), |b| {
                b.iter(|| black_box(f()))
            });
        }
    }
    let f = compiled(&s, "Tanh(X * Y + Z)");
    g.bench_function("tanh_fma", |b| b.iter(|| black_box(f())));
    g.finish();
}

criterion_group!(strided, benches);
criterion_main!(strided);
