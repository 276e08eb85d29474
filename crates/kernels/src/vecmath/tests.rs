//! `sin_cos` and `exp` against the platform's `f64` `sin`, `cos` and `exp`
//! (within 1 ulp of `f64`, 2^-52 relative: far below what is measured here),
//! and complex `Exp` on `c64` against its reference and the exact values.

use super::*;
use crate::complex::{EXP_BLOCK, exp_c64_block, exp_c64_fast_domain, exp_c64_reference};
use num_complex::Complex;
use rayon::prelude::*;

/// The `f32` ulp at an exact value `v`: 2^(e - 23) for |v| in [2^e, 2^(e+1)),
/// and the subnormal spacing 2^-149 below 2^-126.
fn ulp32(v: f64) -> f64 {
    let e = ((v.abs().to_bits() >> 52) as i32 - 1023).max(-126);
    2f64.powi(e - 23)
}

/// Error of `got` (an `f32`, or an `f64` rounded to `f32`) against `exact`, in
/// `f32` ulps of `exact`.
fn err_ulps(got: f32, exact: f64) -> f64 {
    (f64::from(got) - exact).abs() / ulp32(exact)
}

/// Relative error of an `f64` result; an exact zero must be met exactly.
fn rel(got: f64, exact: f64) -> f64 {
    if exact == 0.0 {
        if got == 0.0 { 0.0 } else { f64::INFINITY }
    } else {
        ((got - exact) / exact).abs()
    }
}

/// Worst errors seen: relative (of the `f64` result) and in `f32` ulps (after
/// rounding to `f32`), with the arguments where they occur.
#[derive(Clone, Copy, Debug, Default)]
struct Worst {
    rel: f64,
    rel_at: f32,
    ulps: f64,
    ulps_at: f32,
}

impl Worst {
    fn see(mut self, x: f32, got: f64, exact: f64) -> Self {
        // A NaN error must not hide: it counts as infinite.
        let nan_inf = |e: f64| if e.is_nan() { f64::INFINITY } else { e };
        let (r, u) = (
            nan_inf(rel(got, exact)),
            nan_inf(err_ulps(got as f32, exact)),
        );
        if r > self.rel {
            (self.rel, self.rel_at) = (r, x);
        }
        if u > self.ulps {
            (self.ulps, self.ulps_at) = (u, x);
        }
        self
    }
    fn max(self, o: Self) -> Self {
        Self {
            rel: self.rel.max(o.rel),
            rel_at: if self.rel >= o.rel {
                self.rel_at
            } else {
                o.rel_at
            },
            ulps: self.ulps.max(o.ulps),
            ulps_at: if self.ulps >= o.ulps {
                self.ulps_at
            } else {
                o.ulps_at
            },
        }
    }
}

/// Worst errors of `sin_cos` over the given arguments (sin, cos).
fn sin_cos_worst(xs: impl ParallelIterator<Item = f32>) -> (Worst, Worst) {
    xs.fold(
        || (Worst::default(), Worst::default()),
        |(ws, wc), y| {
            let (s, c) = sin_cos(y);
            let (es, ec) = (f64::from(y).sin(), f64::from(y).cos());
            (ws.see(y, s, es), wc.see(y, c, ec))
        },
    )
    .reduce(
        || (Worst::default(), Worst::default()),
        |a, b| (a.0.max(b.0), a.1.max(b.1)),
    )
}

fn exp_worst(xs: impl ParallelIterator<Item = f32>) -> Worst {
    xs.fold(Worst::default, |w, x| w.see(x, exp(x), f64::from(x).exp()))
        .reduce(Worst::default, Worst::max)
}

/// The bound spec/numerics.md §7.1 states: relative error of the `f64` values
/// below 2^-35, and within 0.51 `f32` ulp once rounded to `f32`.
fn check(name: &str, w: Worst) {
    eprintln!("{name}: {w:?} (rel = 2^{:.1})", w.rel.log2());
    assert!(w.rel < 2f64.powi(-35), "{name}: {w:?}");
    assert!(w.ulps < 0.51, "{name}: {w:?}");
}

/// Both signs of every `count`-th float from 0 to `max` (bit patterns in
/// steps), and every float within `near` ulps of each of `centres`.
fn sweep(max: f32, step: u32, centres: &[f64], near: u32) -> Vec<f32> {
    let mut v: Vec<f32> = (0..=max.to_bits())
        .step_by(step as usize)
        .map(f32::from_bits)
        .collect();
    for &c in centres {
        let b = (c as f32).to_bits();
        v.extend((b.saturating_sub(near)..=b + near).map(f32::from_bits));
    }
    v.retain(|y| y.abs() <= max);
    let neg: Vec<f32> = v.iter().map(|y| -y).collect();
    v.extend(neg);
    v
}

#[test]
fn sin_cos_dense_sweep_within_bound() {
    // Every float near the first 64 multiples of π/2, near the last ones
    // before 2^20, and near powers of two; 2 million others spread evenly.
    let mut centres: Vec<f64> = (1..=64)
        .map(|k| f64::from(k) * std::f64::consts::FRAC_PI_2)
        .collect();
    let top = (f64::from(SIN_COS_MAX) / std::f64::consts::FRAC_PI_2) as i32;
    centres.extend((top - 8..=top).map(|k| f64::from(k) * std::f64::consts::FRAC_PI_2));
    centres.extend((0..=20).map(|e| 2f64.powi(e)));
    let xs = sweep(SIN_COS_MAX, 613, &centres, 4096);
    assert!(xs.len() > 4_000_000);
    let (s, c) = sin_cos_worst(xs.into_par_iter());
    check("sin", s);
    check("cos", c);
    // Exact at zero, with the sign of the zero.
    for y in [0.0f32, -0.0] {
        let (s, c) = sin_cos(y);
        assert_eq!((s.to_bits(), c), (f64::from(y).to_bits(), 1.0));
    }
}

/// Every `f32` with |y| <= 2^20 (2.5e9 arguments, a minute or two on two
/// cores): `cargo test --release -p xlet-kernels -- --ignored sin_cos_every`.
#[test]
#[ignore]
fn sin_cos_every_float_within_bound() {
    let top = SIN_COS_MAX.to_bits();
    let all = (0..=top)
        .into_par_iter()
        .flat_map_iter(|b| [f32::from_bits(b), -f32::from_bits(b)]);
    let (s, c) = sin_cos_worst(all);
    check("sin", s);
    check("cos", c);
}

#[test]
fn exp_dense_sweep_within_bound() {
    let centres: Vec<f64> = (-125..=126)
        .map(|n| f64::from(n) * std::f64::consts::LN_2)
        .collect();
    let xs = sweep(EXP_MAX, 311, &centres, 2048);
    let xs: Vec<f32> = xs.into_iter().filter(|&x| x >= EXP_MIN).collect();
    assert!(xs.len() > 3_000_000);
    check("exp", exp_worst(xs.into_par_iter()));
    assert_eq!(exp(0.0), 1.0);
    assert_eq!(exp(-0.0), 1.0);
}

/// Every `f32` in `[EXP_MIN, EXP_MAX]`:
/// `cargo test --release -p xlet-kernels -- --ignored exp_every`.
#[test]
#[ignore]
fn exp_every_float_within_bound() {
    let (lo, hi) = (EXP_MIN, EXP_MAX);
    let all = (0..=lo.abs().max(hi).to_bits())
        .into_par_iter()
        .flat_map_iter(|b| [f32::from_bits(b), -f32::from_bits(b)])
        .filter(move |&x| x >= lo && x <= hi);
    check("exp", exp_worst(all));
}

/// `exp_c64_block` on one element (the others padding).
fn exp1(z: Complex<f32>) -> Complex<f32> {
    exp_c64_block(&[z; EXP_BLOCK])[0]
}

/// The exact `exp(z)` in `f64` (the platform's `exp`, `sin`, `cos`).
fn exact(z: Complex<f32>) -> (f64, f64) {
    let (x, y) = (f64::from(z.re), f64::from(z.im));
    (x.exp() * y.cos(), x.exp() * y.sin())
}

#[test]
fn exp_c64_fast_path_against_exact_and_reference() {
    // Real parts over the whole fast domain, imaginary parts up to 2^20.
    let n = 3_000_000u32;
    let grid: Vec<Complex<f32>> = (0..n)
        .map(|i| {
            let u = (f64::from(i) * 0.618_033_988_749_895).fract();
            let v = (f64::from(i) * 0.754_877_666_246_692_7).fract();
            let re = f64::from(EXP_MIN) + u * f64::from(EXP_MAX - EXP_MIN);
            // The imaginary part spread over magnitudes 2^-30 .. 2^20, both signs.
            let mag = 2f64.powf(-30.0 + 50.0 * v);
            let im = if i % 2 == 0 { mag } else { -mag };
            Complex::new(re as f32, (im as f32).clamp(-SIN_COS_MAX, SIN_COS_MAX))
        })
        .collect();
    let (fast_worst, ref_worst, apart) = grid
        .par_chunks(EXP_BLOCK)
        .map(|c| {
            let mut block = [c[0]; EXP_BLOCK];
            block[..c.len()].copy_from_slice(c);
            let out = exp_c64_block(&block);
            let (mut f, mut r, mut d) = (0f64, 0f64, 0f64);
            for (&z, &w) in c.iter().zip(&out) {
                assert!(exp_c64_fast_domain(z));
                let (er, ei) = exact(z);
                let rf = exp_c64_reference(z);
                f = f.max(err_ulps(w.re, er)).max(err_ulps(w.im, ei));
                r = r.max(err_ulps(rf.re, er)).max(err_ulps(rf.im, ei));
                let apart = |u: f32, v: f32, e: f64| (f64::from(u) - f64::from(v)).abs() / ulp32(e);
                d = d.max(apart(w.re, rf.re, er)).max(apart(w.im, rf.im, ei));
            }
            (f, r, d)
        })
        .reduce(
            || (0.0, 0.0, 0.0),
            |a, b| (a.0.max(b.0), a.1.max(b.1), a.2.max(b.2)),
        );
    eprintln!("c64 exp: fast {fast_worst} ulp, reference {ref_worst} ulp, apart {apart} ulp");
    assert!(fast_worst < 0.51, "{fast_worst}");
    // The reference (expf, sinf, cosf, two products) is itself a few ulp off.
    assert!(ref_worst < 4.0, "{ref_worst}");
    assert!(apart < 4.0, "{apart}");
}

#[test]
fn exp_c64_special_values_are_the_reference() {
    let next = |x: f32| f32::from_bits(x.to_bits() + 1);
    let parts = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        f32::from_bits(1),
        EXP_MAX,
        next(EXP_MAX),
        88.72,
        89.0,
        EXP_MIN,
        next(EXP_MIN),
        -87.5,
        -104.0,
        -120.0,
        SIN_COS_MAX,
        next(SIN_COS_MAX),
        -SIN_COS_MAX,
        -next(SIN_COS_MAX),
        1e30,
        -1e30,
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
    ];
    let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
    for &re in &parts {
        for &im in &parts {
            let z = Complex::new(re, im);
            let (got, want) = (exp1(z), exp_c64_reference(z));
            if exp_c64_fast_domain(z) {
                let (er, ei) = exact(z);
                assert!(
                    err_ulps(got.re, er) < 0.51 && err_ulps(got.im, ei) < 0.51,
                    "{z}: {got}"
                );
                // A zero imaginary part keeps its sign, as in the reference.
                if im == 0.0 {
                    assert!(same(got.im, want.im), "{z}: {got} {want}");
                }
            } else {
                assert!(
                    same(got.re, want.re) && same(got.im, want.im),
                    "{z}: {got} {want}"
                );
            }
        }
    }
    // A block of mixed lanes: each lane as on its own.
    let mixed: Vec<Complex<f32>> = (0..EXP_BLOCK)
        .map(|i| Complex::new(parts[i % parts.len()], parts[(i * 7 + 3) % parts.len()]))
        .collect();
    let mut block = [Complex::new(0.0, 0.0); EXP_BLOCK];
    block.copy_from_slice(&mixed);
    for (z, w) in mixed.iter().zip(exp_c64_block(&block)) {
        let one = exp1(*z);
        assert!(same(one.re, w.re) && same(one.im, w.im), "{z}");
    }
}

/// The block function through `fused::unary_blocks`: whole arrays (small,
/// large, transposed, broadcast) and chunks give each element the block
/// function's value for it alone.
#[test]
fn exp_c64_through_unary_blocks_any_layout() {
    use crate::fused::{Chunk, Slice, unary_blocks};
    use xlet_core::value::{Array, Elem, c64};
    let f = unary_blocks::<c64, c64, EXP_BLOCK, _>(exp_c64_block);
    let z = |i: usize| {
        let t = i as f32;
        Complex::new((t * 0.37).sin() * 3.0, (t * 0.11).cos() * 40.0)
    };
    for n in [1usize, 5, 63, 64, 65, 130, 1000, 1025, 5000, 70_001] {
        let xs: Vec<c64> = (0..n).map(z).collect();
        let a = Array::from_nd(
            ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[n]), xs.clone()).unwrap(),
        );
        let out = f.run(&[&a], &[vec![0]], &[n]).unwrap();
        let got = c64::unwrap(&out).unwrap();
        for (x, w) in xs.iter().zip(got.iter()) {
            assert_eq!(exp1(*x), *w, "n = {n}");
        }
        let mut chunk = Chunk::C64(Vec::new());
        f.run_chunk(&[Slice::C64(&xs)], &mut chunk).unwrap();
        let Chunk::C64(v) = chunk else { unreachable!() };
        assert_eq!(v.as_slice(), got.as_slice().unwrap());
    }
    // A transposed operand (strided reads) and a broadcast one.
    let (r, c) = (37usize, 300usize);
    let base: Vec<c64> = (0..r * c).map(z).collect();
    let a = Array::from_nd(
        ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[r, c]), base.clone()).unwrap(),
    );
    let out = f.run(&[&a], &[vec![1, 0]], &[c, r]).unwrap();
    let got = c64::unwrap(&out).unwrap();
    for i in 0..c {
        for j in 0..r {
            assert_eq!(got[[i, j]], exp1(base[j * c + i]));
        }
    }
    let row = Array::from_nd(
        ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[c]), base[..c].to_vec()).unwrap(),
    );
    let out = f.run(&[&row], &[vec![1]], &[r, c]).unwrap();
    let got = c64::unwrap(&out).unwrap();
    for i in 0..r {
        for j in 0..c {
            assert_eq!(got[[i, j]], exp1(base[j]));
        }
    }
}
