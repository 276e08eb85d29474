//! The fast passes against plain f64 loops over the formulas (on contiguous,
//! transposed, sliced and broadcast operands, feature first, middle and last),
//! BatchNormGrad against finite differences of BatchNormTraining, and results
//! that do not depend on the thread count.

use super::*;
use ndarray::{Axis, Slice};
use xlet_core::test_support::{Rng, on_threads};

/// Deterministic pseudo-random values in [lo, lo + 1).
fn values(n: usize, seed: u64, lo: f64) -> Vec<f64> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| lo + rng.unit()).collect()
}

fn arr<T: BnElem>(dims: &[usize], seed: u64, lo: f64) -> Nd<T> {
    let n = dims.iter().product();
    let v = values(n, seed, lo).into_iter().map(T::from_f64).collect();
    nd(dims, v).unwrap()
}

fn f64s<T: BnElem>(a: &Nd<T>) -> ArrayD<f64> {
    a.map(|v| v.widen())
}

/// The formulas as written, in f64: (y, mean, biased variance).
fn reference_training(
    x: &ArrayD<f64>,
    scale: &[f64],
    offset: &[f64],
    eps: f64,
    f: usize,
) -> (ArrayD<f64>, Vec<f64>, Vec<f64>) {
    let mut y = x.clone();
    let (mut means, mut vars) = (vec![], vec![]);
    for l in 0..x.shape()[f] {
        let lane = x.index_axis(Axis(f), l);
        let n = lane.len() as f64;
        let mean = lane.iter().sum::<f64>() / n;
        let var = lane.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
        let den = (var + eps).sqrt();
        y.index_axis_mut(Axis(f), l)
            .mapv_inplace(|v| scale[l] * (v - mean) / den + offset[l]);
        means.push(mean);
        vars.push(var);
    }
    (y, means, vars)
}

/// BatchNormGrad's formulas as written (spec/ops/batch_norm_grad.md), in f64.
fn reference_grad(
    x: &ArrayD<f64>,
    scale: &[f64],
    mean: &[f64],
    var: &[f64],
    dy: &ArrayD<f64>,
    eps: f64,
    f: usize,
) -> (ArrayD<f64>, Vec<f64>, Vec<f64>) {
    let mut gx = x.clone();
    let (mut gs, mut go) = (vec![], vec![]);
    for l in 0..x.shape()[f] {
        let xl = x.index_axis(Axis(f), l);
        let dl = dy.index_axis(Axis(f), l);
        let n = xl.len() as f64;
        let ve = var[l] + eps;
        let c = xl
            .iter()
            .zip(&dl)
            .map(|(x, d)| d * (x - mean[l]) / ve)
            .sum::<f64>()
            / n;
        let dm = dl.iter().sum::<f64>() / n;
        let g: Vec<f64> = xl
            .iter()
            .zip(&dl)
            .map(|(x, d)| scale[l] / ve.sqrt() * (d - dm - (x - mean[l]) * c))
            .collect();
        for (o, v) in gx.index_axis_mut(Axis(f), l).iter_mut().zip(g) {
            *o = v;
        }
        gs.push(
            xl.iter()
                .zip(&dl)
                .map(|(x, d)| d * (x - mean[l]) / ve.sqrt())
                .sum(),
        );
        go.push(dl.iter().sum());
    }
    (gx, gs, go)
}

/// |got - want| <= tol * (1 + |want|) everywhere.
fn close(
    got: impl IntoIterator<Item = f64>,
    want: impl IntoIterator<Item = f64>,
    tol: f64,
    what: &str,
) {
    let (got, want): (Vec<f64>, Vec<f64>) = (got.into_iter().collect(), want.into_iter().collect());
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(
            (g - w).abs() <= tol * (1.0 + w.abs()),
            "{what}[{i}]: got {g}, want {w}"
        );
    }
}

/// An operand as stored and as read: storage, dims, strides.
struct Case {
    name: &'static str,
    store: Nd<f32>,
    dims: Vec<usize>,
    strides: Vec<isize>,
}

impl Case {
    fn of(name: &'static str, a: Nd<f32>) -> Case {
        Case {
            name,
            dims: a.shape().to_vec(),
            strides: a.strides().to_vec(),
            store: a,
        }
    }
    fn view(&self) -> View<'_, f32> {
        // SAFETY: built from the storage's own strides, or stride 0 over a
        // dimension the storage has size 1 in.
        unsafe { View::raw(self.store.as_ptr(), &self.dims, &self.strides) }
    }
    /// The logical values, in f64.
    fn values(&self) -> ArrayD<f64> {
        let b = self.store.broadcast(IxDyn(&self.dims)).unwrap();
        b.map(|v| *v as f64)
    }
}

/// Operand views of one logical shape: contiguous, transposed (a permuted
/// copy seen through permuted strides), sliced with a step and reversed, and
/// broadcast along dimension 0 (stride 0).
fn views(dims: &[usize], seed: u64, lo: f64) -> Vec<Case> {
    let plain: Nd<f32> = arr(dims, seed, lo);
    let r = dims.len();
    let rev: Vec<usize> = (0..r).rev().collect();
    let transposed = plain
        .clone()
        .permuted_axes(IxDyn(&rev))
        .as_standard_layout()
        .into_owned()
        .into_shared()
        .permuted_axes(IxDyn(&rev));
    let mut wide = dims.to_vec();
    wide[r - 1] = dims[r - 1] * 2 + 1;
    let mut sliced: Nd<f32> = arr(&wide, seed + 1, lo);
    sliced.slice_axis_inplace(Axis(r - 1), Slice::new(1, None, -2));
    let mut one = dims.to_vec();
    one[0] = 1;
    let mut broadcast = Case::of("broadcast", arr::<f32>(&one, seed + 2, lo));
    broadcast.dims = dims.to_vec();
    broadcast.strides[0] = 0;
    vec![
        Case::of("contiguous", plain),
        Case::of("transposed", transposed),
        Case::of("sliced", sliced),
        broadcast,
    ]
}

// Tolerance for f32: every element op rounds once to f32 (relative 6e-8), the
// sums are f64 over f32 blocks of at most 64 terms per lane (relative error
// below 64 * 6e-8 = 4e-6 of the sum of |d|, far less in practice), and the
// outputs are O(1); 2e-5 relative-plus-absolute leaves room for that bound.
const F32_TOL: f64 = 2e-5;

#[test]
fn training_matches_the_formulas_on_every_layout_and_feature_index() {
    let dims = [3, 4, 5, 6];
    for f in [0, 1, 3] {
        for c in views(&dims, 7 + f as u64, -0.5) {
            let name = c.name;
            let nf = dims[f];
            let scale: Nd<f32> = arr(&[nf], 1, 0.5);
            let offset: Nd<f32> = arr(&[nf], 2, -1.0);
            let [y, m, v] = training(c.view(), &scale, &offset, 1e-3, f).unwrap();
            let (ry, rm, rv) = reference_training(
                &c.values(),
                &per_feature(&scale),
                &per_feature(&offset),
                1e-3f32 as f64,
                f,
            );
            let what = format!("{name}, feature {f}");
            assert!(y.is_standard_layout());
            assert_eq!(y.shape(), &dims);
            close(
                y.iter().map(|v| *v as f64),
                ry.iter().copied(),
                F32_TOL,
                &what,
            );
            close(m.iter().map(|v| *v as f64), rm, F32_TOL, &what);
            close(v.iter().map(|v| *v as f64), rv, F32_TOL, &what);
        }
    }
}

#[test]
fn inference_matches_the_formula_on_every_layout_and_feature_index() {
    let dims = [2, 3, 4, 5];
    for f in [0, 2, 3] {
        for c in views(&dims, 3, 0.0) {
            let name = c.name;
            let nf = dims[f];
            let p: Vec<Nd<f32>> = (0..4).map(|i| arr(&[nf], 20 + i, 0.25)).collect();
            let y = inference(c.view(), [&p[0], &p[1], &p[2], &p[3]], 0.01, f).unwrap();
            let q: Vec<Vec<f64>> = p.iter().map(per_feature).collect();
            let mut want = c.values();
            for l in 0..nf {
                let den = (q[3][l] + 0.01f32 as f64).sqrt();
                want.index_axis_mut(Axis(f), l)
                    .mapv_inplace(|v| q[0][l] * (v - q[2][l]) / den + q[1][l]);
            }
            close(
                y.iter().map(|v| *v as f64),
                want,
                F32_TOL,
                &format!("{name}, feature {f}"),
            );
        }
    }
}

#[test]
fn grad_matches_the_formulas_on_every_layout_and_feature_index() {
    let dims = [3, 4, 2, 5];
    for f in [0, 1, 3] {
        let dys = views(&dims, 40, -0.5);
        for (c, d) in views(&dims, 30, 0.0).iter().zip(dys.iter().rev()) {
            let (name, dname) = (c.name, d.name);
            let nf = dims[f];
            let scale: Nd<f32> = arr(&[nf], 3, 0.5);
            let mean: Nd<f32> = arr(&[nf], 4, 0.0);
            let var: Nd<f32> = arr(&[nf], 5, 0.5);
            let [gx, gs, go] = grad(c.view(), [&scale, &mean, &var], d.view(), 1e-3, f).unwrap();
            let (rx, rs, ro) = reference_grad(
                &c.values(),
                &per_feature(&scale),
                &per_feature(&mean),
                &per_feature(&var),
                &d.values(),
                1e-3f32 as f64,
                f,
            );
            let what = format!("x {name}, dy {dname}, feature {f}");
            close(gx.iter().map(|v| *v as f64), rx, F32_TOL, &what);
            close(gs.iter().map(|v| *v as f64), rs, F32_TOL, &what);
            close(go.iter().map(|v| *v as f64), ro, F32_TOL, &what);
        }
    }
}

#[test]
fn the_variance_keeps_its_digits_when_the_mean_is_large() {
    // f64 values 1e8 + u, u in [0, 1): E[x²] - E[x]² in f64 would lose all of
    // the variance (1e16 · 2^-52 ≈ 2 per element). The shifted sums keep it to
    // 1e-7 relative: shifts are exact (Sterbenz), d² is O(1).
    let x: Nd<f64> = arr(&[1000, 3], 9, 1e8);
    let ones = nd(&[3], vec![1.0f64; 3]).unwrap();
    let zeros = nd(&[3], vec![0.0f64; 3]).unwrap();
    let [_, m, v] = training(View::of(&x), &ones, &zeros, 0.0, 1).unwrap();
    let (_, rm, rv) = reference_training(&f64s(&x), &[1.0; 3], &[0.0; 3], 0.0, 1);
    close(m.iter().copied(), rm, 1e-15, "mean");
    for (g, w) in v.iter().zip(&rv) {
        assert!((g - w).abs() <= 1e-7 * w, "var {g} vs {w}");
    }
    // The same in f32 around 1e4 (ulp 1e-3): the variance 1/12 survives.
    let x: Nd<f32> = arr(&[4096, 2], 10, 1e4);
    let [_, _, v] = training(
        View::of(&x),
        &nd(&[2], vec![1.0f32; 2]).unwrap(),
        &nd(&[2], vec![0.0f32; 2]).unwrap(),
        0.0,
        1,
    )
    .unwrap();
    let (_, _, rv) = reference_training(&f64s(&x), &[1.0; 2], &[0.0; 2], 0.0, 1);
    close(v.iter().map(|v| *v as f64), rv, 1e-5, "f32 var");
}

/// BatchNormGrad is the derivative of L = Σ dy · BatchNormTraining(x, γ, β).y
/// with respect to x, γ and β (the batch statistics depend on x, and the grad
/// formulas account for that). Central differences in f64, step 1e-6:
/// truncation O(h²) ≈ 1e-12, rounding ≈ 1e-16 / 1e-6 = 1e-10 per difference.
#[test]
fn grad_is_the_derivative_of_training() {
    let dims = [3, 2, 4];
    let f = 1;
    let eps = 0.5f32;
    let x: Nd<f64> = arr(&dims, 50, -0.5);
    let dy: Nd<f64> = arr(&dims, 51, -0.5);
    let scale: Nd<f64> = arr(&[2], 52, 0.5);
    let offset: Nd<f64> = arr(&[2], 53, 0.0);
    let loss = |x: &Nd<f64>, s: &Nd<f64>, o: &Nd<f64>| -> f64 {
        let [y, _, _] = training(View::of(x), s, o, eps, f).unwrap();
        y.iter().zip(dy.iter()).map(|(a, b)| a * b).sum()
    };
    let [_, mean, var] = training(View::of(&x), &scale, &offset, eps, f).unwrap();
    let [gx, gs, go] = grad(View::of(&x), [&scale, &mean, &var], View::of(&dy), eps, f).unwrap();
    let h = 1e-6;
    let diff = |a: &Nd<f64>, i: usize, which: usize| {
        let mut up = a.to_owned();
        let mut dn = a.to_owned();
        up.as_slice_mut().unwrap()[i] += h;
        dn.as_slice_mut().unwrap()[i] -= h;
        let (up, dn) = (up.into_shared(), dn.into_shared());
        let l = |v: &Nd<f64>| match which {
            0 => loss(v, &scale, &offset),
            1 => loss(&x, v, &offset),
            _ => loss(&x, &scale, v),
        };
        (l(&up) - l(&dn)) / (2.0 * h)
    };
    for (i, g) in gx.iter().enumerate() {
        let n = diff(&x, i, 0);
        assert!((g - n).abs() < 1e-7, "grad_operand[{i}] {g} vs {n}");
    }
    for i in 0..2 {
        assert!(
            (gs[[i]] - diff(&scale, i, 1)).abs() < 1e-7,
            "grad_scale[{i}]"
        );
        assert!(
            (go[[i]] - diff(&offset, i, 2)).abs() < 1e-7,
            "grad_offset[{i}]"
        );
    }
}

#[test]
fn results_do_not_depend_on_thread_count() {
    let bits = |a: &Nd<f32>| a.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    let x: Nd<f32> = arr(&[8, 16, 40, 40], 60, -2.0);
    let xt: Nd<f32> = arr(&[8, 40, 40, 16], 61, -2.0);
    let s: Nd<f32> = arr(&[16], 62, 0.5);
    let run = |threads: usize| {
        on_threads(threads, || {
            let a = training(View::of(&x), &s, &s, 1e-5, 1).unwrap();
            let b = training(View::of(&xt), &s, &s, 1e-5, 3).unwrap();
            let g = grad(View::of(&x), [&s, &a[1], &a[2]], View::of(&x), 1e-5, 1).unwrap();
            [a, b, g].map(|r| r.iter().map(bits).collect::<Vec<_>>())
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(5));
}

#[test]
fn no_elements_per_feature_gives_nan_statistics_and_zero_sums() {
    // Batch 0: the mean and variance of nothing are 0 / 0 = NaN; the gradient
    // sums over nothing are 0.
    let x: Nd<f32> = nd(&[0, 2, 3], vec![]).unwrap();
    let s = nd(&[2], vec![1.0f32, 2.0]).unwrap();
    let [y, m, v] = training(View::of(&x), &s, &s, 1e-3, 1).unwrap();
    assert_eq!(y.shape(), &[0, 2, 3]);
    assert!(m.iter().chain(v.iter()).all(|v| v.is_nan()));
    let [gx, gs, go] = grad(View::of(&x), [&s, &s, &s], View::of(&x), 1e-3, 1).unwrap();
    assert_eq!(gx.shape(), &[0, 2, 3]);
    assert!(gs.iter().chain(go.iter()).all(|&v| v == 0.0));
    // No features: everything is empty.
    let x: Nd<f32> = nd(&[4, 0], vec![]).unwrap();
    let e = nd(&[0], vec![]).unwrap();
    let [y, m, v] = training(View::of(&x), &e, &e, 1e-3, 1).unwrap();
    assert_eq!((y.len(), m.len(), v.len()), (0, 0, 0));
}

#[test]
fn half_types_compute_in_f32_and_round_once() {
    use half::{bf16, f16};
    let x: Nd<f16> = arr(&[4, 3, 8], 70, -1.0);
    let s: Nd<f16> = arr(&[3], 71, 0.5);
    let [y, _, _] = training(View::of(&x), &s, &s, 1e-3, 1).unwrap();
    let (ry, _, _) = reference_training(
        &f64s(&x),
        &per_feature(&s),
        &per_feature(&s),
        1e-3f32 as f64,
        1,
    );
    // One rounding to f16 (half an ulp, 2^-11 relative) plus the f32 work.
    close(y.iter().map(|v| v.widen()), ry, 1e-3, "f16");
    let x: Nd<bf16> = arr(&[4, 3, 8], 72, -1.0);
    let s: Nd<bf16> = arr(&[3], 73, 0.5);
    let y = inference(View::of(&x), [&s, &s, &s, &s], 1e-3, 1).unwrap();
    assert_eq!(y.shape(), &[4, 3, 8]);
}

#[test]
fn views_with_runs_of_one_are_copied_first_and_the_rest_read_in_place() {
    // NCHW row-major, feature 1: runs of H·W. NHWC row-major, feature 3:
    // features side by side. Both read in place.
    let x: Nd<f32> = arr(&[2, 3, 4, 5], 80, 0.0);
    assert!(reads_in_place([View::of(&x)], 1));
    assert!(reads_in_place([View::of(&x)], 3));
    // NCHW seen as NHWC through Transpose {0, 2, 3, 1}, feature 3: every
    // element would be a strided run of one.
    let t = x.clone().permuted_axes(IxDyn(&[0, 2, 3, 1]));
    assert!(!reads_in_place([View::of(&t)], 3));
    // Mixed: operand row-major, grad_output transposed.
    let y: Nd<f32> = arr(&[2, 4, 5, 3], 81, 0.0);
    assert!(reads_in_place([View::of(&y)], 3));
    assert!(!reads_in_place([View::of(&y), View::of(&t)], 3));
}
