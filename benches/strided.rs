//! Elementwise ops on strided views (spec/performance.md §5–6): every
//! permutation of rank 2–4, plus reversed and sliced views, against the same op
//! on a contiguous array and against a plain copy of the same bytes, all in one
//! run so the ratios are comparable on a loaded machine.
//!
//! Every shape has 2^24 elements: [4096x4096], [256x256x256], [64x64x64x64],
//! in f32 (64 MiB) and f64 (128 MiB). Each row is the best of several runs of
//! `Neg(Transpose(X, p))`; `ratio` divides by the contiguous `Neg(X)` of the
//! same shape and type (for the two-operand rows, by the same op on contiguous
//! operands), `vs copy` by a copy of the same bytes (`to_vec`).
//!
//! Run: `cargo bench -p xlet-bench --bench strided` (about half a minute), or
//! with a filter on the row names: `cargo bench -p xlet-bench --bench strided -- rank2`.
//! Plain timing, no criterion: the table is the result. Not run in CI.

mod common;

use common::{bind, compiled};
use ndarray::{ArrayD, Axis, IxDyn, Slice};
use std::hint::black_box;
use std::time::Instant;
use xlet::check::Limits;
use xlet::session::Session;
use xlet::value::{Array, Nd, Value};

const RUNS: usize = 9;

fn nd<T: Copy>(dims: &[usize], f: impl Fn(usize) -> T) -> Nd<T> {
    let n: usize = dims.iter().product();
    let data: Vec<T> = (0..n).map(|i| f(i % 1013)).collect();
    ArrayD::from_shape_vec(IxDyn(dims), data)
        .unwrap()
        .into_shared()
}

/// The best of `RUNS` timings of `f`, in milliseconds.
fn best<R>(f: impl Fn() -> R) -> f64 {
    black_box(f());
    (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::MAX, f64::min)
}

/// Every permutation of 0..n, in lexicographic order (the identity first).
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

struct Table {
    filter: Option<String>,
    worst: f64,
}

impl Table {
    fn row(&mut self, name: &str, ms: impl FnOnce() -> f64, contig: f64, copy: f64) {
        if self
            .filter
            .as_ref()
            .is_some_and(|f| !name.contains(f.as_str()))
        {
            return;
        }
        let t = ms();
        let r = t / contig;
        self.worst = self.worst.max(r);
        println!(
            "{name:36} {t:8.2} ms  ratio {r:5.2}  vs copy {:5.2}",
            t / copy
        );
    }
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters rows by name.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let mut s = Session::new(Limits::default());
    let shapes: [&[usize]; 3] = [&[4096, 4096], &[256, 256, 256], &[64, 64, 64, 64]];
    for (rank, dims) in (2..).zip(shapes) {
        bind(
            &mut s,
            &format!("F{rank}"),
            Array::F32(nd(dims, |i| i as f32 * 0.001 + 0.5)),
        );
        bind(
            &mut s,
            &format!("D{rank}"),
            Array::F64(nd(dims, |i| i as f64 * 0.001 + 0.5)),
        );
    }
    // Views bound directly: both axes reversed; every other column of a
    // [4096x8192] array; transposed and reversed.
    let y = nd(&[4096, 4096], |i| i as f32);
    let mut rev = y.clone();
    rev.invert_axis(Axis(0));
    rev.invert_axis(Axis(1));
    bind(&mut s, "Yrev", Array::F32(rev));
    let wide = nd(&[4096, 8192], |i| i as f32);
    let even = wide.slice_axis(Axis(1), Slice::new(0, None, 2)).to_shared();
    bind(&mut s, "Yeven", Array::F32(even));
    let mut revt = y.clone().permuted_axes(IxDyn(&[1, 0]));
    revt.invert_axis(Axis(1));
    bind(&mut s, "Yrevt", Array::F32(revt));

    let threads = rayon::current_num_threads();
    println!(
        "{} threads, best of {RUNS} runs; 2^24 elements per array",
        threads
    );
    let mut t = Table { filter, worst: 0.0 };
    for (ty, var) in [("f32", "F"), ("f64", "D")] {
        for rank in 2..=4 {
            let x = format!("{var}{rank}");
            let arr = match s.env.values.get(&x) {
                Some(Value::Array(a)) => a.clone(),
                _ => unreachable!(),
            };
            let copy = best(|| match &arr {
                Array::F32(a) => a.as_slice().map(|v| v.to_vec().len()),
                Array::F64(a) => a.as_slice().map(|v| v.to_vec().len()),
                _ => None,
            });
            let contig = best(compiled(&s, &format!("Neg({x})")));
            println!("-- {ty} rank {rank}: copy {copy:.2} ms, contiguous Neg {contig:.2} ms");
            for p in permutations(rank).into_iter().skip(1) {
                let f = compiled(&s, &format!("Neg(Transpose({x}, {}))", list(&p)));
                t.row(
                    &format!("{ty} rank{rank} {}", list(&p)),
                    || best(f),
                    contig,
                    copy,
                );
            }
            if rank == 2 && ty == "f32" {
                for (name, expr) in [
                    ("f32 rank2 reversed both", "Neg(Yrev)"),
                    ("f32 rank2 every other column", "Neg(Yeven)"),
                    ("f32 rank2 transposed reversed", "Neg(Yrevt)"),
                ] {
                    let f = compiled(&s, expr);
                    t.row(name, || best(f), contig, copy);
                }
                // Two operands: against the same op on two contiguous operands.
                for (name, expr, plain) in [
                    (
                        "f32 rank2 add transposed",
                        "F2 + Transpose(F2, {1,0})",
                        "F2 + F2",
                    ),
                    (
                        "f32 rank2 fused neg(T + X)",
                        "Neg(Transpose(F2, {1,0}) + F2)",
                        "Neg(F2 + F2)",
                    ),
                ] {
                    let base = best(compiled(&s, plain));
                    let f = compiled(&s, expr);
                    t.row(name, || best(f), base, copy);
                }
            }
        }
    }
    println!("worst ratio to contiguous: {:.2}", t.worst);
}
