//! Rough timings of elementwise ops on transposed views beside the contiguous
//! op (run by hand: `cargo test --release -p xlet-kernels transposed_timing
//! -- --ignored --nocapture`); the kernel-level counterpart of
//! benches/compare/strided_perms.py.

use super::*;
use ndarray::{ArrayD, IxDyn};
use std::time::Instant;

fn median_ms(f: &mut dyn FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..9)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn run<T: Copy + Sync + Send + std::ops::Neg<Output = T> + From<i8>>(
    name: &str,
    dims: &[usize],
    perms: &[&[usize]],
) {
    let n: usize = dims.iter().product();
    let x: Nd<T> = ArrayD::from_shape_vec(
        IxDyn(dims),
        (0..n).map(|i| T::from((i % 100) as i8)).collect(),
    )
    .unwrap()
    .into_shared();
    let base = median_ms(&mut || {
        std::hint::black_box(map1(dims, &Src::of(&x), |v: T| -v).unwrap());
    });
    println!("{name}{dims:?} contiguous {base:.2} ms");
    for p in perms {
        let v = x.clone().permuted_axes(IxDyn(p));
        let od = v.shape().to_vec();
        let t = median_ms(&mut || {
            std::hint::black_box(map1(&od, &Src::of(&v), |v: T| -v).unwrap());
        });
        println!("  {p:?} {t:.2} ms {:.2}x", t / base);
    }
}

#[test]
#[ignore]
fn transposed_timing() {
    let p2: &[&[usize]] = &[&[1, 0]];
    let p3: &[&[usize]] = &[&[0, 2, 1], &[1, 2, 0], &[2, 0, 1], &[2, 1, 0]];
    let p4: &[&[usize]] = &[&[1, 3, 0, 2], &[3, 0, 1, 2], &[2, 3, 1, 0], &[0, 1, 3, 2]];
    run::<f32>("f32", &[4096, 4096], p2);
    run::<f32>("f32", &[256, 256, 256], p3);
    run::<f32>("f32", &[64, 64, 64, 64], p4);
    run::<f64>("f64", &[4096, 2048], p2);
    run::<f64>("f64", &[128, 256, 256], p3);
    run::<f64>("f64", &[32, 64, 64, 64], &[&[3, 1, 2, 0], &[1, 3, 0, 2]]);
}
