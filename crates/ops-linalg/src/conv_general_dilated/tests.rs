//! The fast path (im2col + matmul) against the reference loop, on odd shapes,
//! strides with dilations, negative padding, groups, batch groups, other
//! layouts (permuted operand views), integer wrap-around, tiling, and thread
//! counts.

use super::dims::{DimNums, Layout};
use super::fast;
use super::geometry::{Geometry, padded_and_window, windows};
use super::reference;
use ndarray::{ArrayD, IxDyn};
use xlet_core::test_support::{Rng, on_threads};

/// A fixed pseudo-random stream of small integers in [-8, 8).
fn stream(seed: u64) -> impl FnMut() -> i64 {
    let mut rng = Rng::new(seed);
    move || ((rng.next_u64() >> 33) % 16) as i64 - 8
}

struct Case {
    batch: usize,
    features: usize,
    out_features: usize,
    spatial: Vec<usize>,
    kernel: Vec<usize>,
    strides: Vec<usize>,
    padding: Vec<(i64, i64)>,
    lhs_dil: Vec<usize>,
    rhs_dil: Vec<usize>,
    fgc: usize,
    bgc: usize,
}

impl Case {
    fn geometry(&self) -> Geometry {
        let n = self.spatial.len();
        let out_spatial = (0..n)
            .map(|d| {
                let (p, w) = padded_and_window(
                    self.spatial[d],
                    self.kernel[d],
                    self.padding[d],
                    self.lhs_dil[d],
                    self.rhs_dil[d],
                )
                .unwrap();
                windows(p, w, self.strides[d])
            })
            .collect();
        Geometry {
            dn: DimNums::default_for(n + 2),
            batch: self.batch,
            in_features: self.features,
            out_features: self.out_features,
            kernel_in_features: self.features / self.fgc,
            in_spatial: self.spatial.clone(),
            kernel_spatial: self.kernel.clone(),
            out_spatial,
            strides: self.strides.clone(),
            padding: self.padding.clone(),
            lhs_dilation: self.lhs_dil.clone(),
            rhs_dilation: self.rhs_dil.clone(),
            feature_groups: self.fgc,
            batch_groups: self.bgc,
        }
    }
    fn lhs_dims(&self) -> Vec<usize> {
        let mut d = vec![self.batch, self.features];
        d.extend(&self.spatial);
        d
    }
    fn rhs_dims(&self) -> Vec<usize> {
        let mut d = vec![self.out_features, self.features / self.fgc];
        d.extend(&self.kernel);
        d
    }
}

fn arr(dims: &[usize], seed: u64) -> ArrayD<i64> {
    let mut r = stream(seed);
    let n: usize = dims.iter().product();
    ArrayD::from_shape_vec(IxDyn(dims), (0..n).map(|_| r()).collect()).unwrap()
}

/// f32 fast path against the f64 reference. Bound: a sum of K products
/// computed in f32 (any order, with or without FMA) is within K·u·Σ|x·w| of
/// the exact sum (u = 2^-24, the classic dot-product bound γ_K); inputs are
/// small fractions, so the f64 reference is exact enough to stand for the
/// exact sum. We allow 2·K·u for the rounding of the result itself.
fn check_f32(c: &Case, lhs: &ArrayD<f32>, rhs: &ArrayD<f32>, col_elems: usize) {
    let g = c.geometry();
    let lv = lhs.view();
    let rv = rhs.view();
    let fast = fast::conv_tiled(&g, &lv, &rv, col_elems).unwrap();
    let exact = reference::conv(&g, &lv, &rv, |x: f32| x as f64).unwrap();
    let abs = reference::conv(&g, &lv, &rv, |x: f32| (x as f64).abs()).unwrap();
    let k = g.reduction_size().max(1) as f64;
    assert_eq!(fast.len(), exact.len());
    for i in 0..fast.len() {
        let tol = 2.0 * k * f32::EPSILON as f64 / 2.0 * abs[i] + 1e-30;
        assert!(
            (fast[i] as f64 - exact[i]).abs() <= tol,
            "element {i}: fast {} exact {} tol {tol}",
            fast[i],
            exact[i]
        );
    }
}

/// Runs a case in f32 (data scaled to fractions), in i32 (exact, compared
/// element for element) and in i8 (values wrap around).
fn run(c: &Case, seed: u64) {
    let g = c.geometry();
    let l = arr(&c.lhs_dims(), seed);
    let r = arr(&c.rhs_dims(), seed + 1);
    let lf = l.mapv(|v| v as f32 / 8.0 + 0.0625);
    let rf = r.mapv(|v| v as f32 / 16.0);
    check_f32(c, &lf, &rf, 1 << 22);
    check_f32(c, &lf, &rf, 7); // tiles of a few columns, tile copies
    let li = l.mapv(|v| (v * 1_000_003) as i32);
    let ri = r.mapv(|v| (v * 999_983) as i32);
    let fast = fast::conv(&g, &li.view(), &ri.view()).unwrap();
    let refr = reference::conv(&g, &li.view(), &ri.view(), |x: i32| x).unwrap();
    assert_eq!(fast, refr, "i32 (wrapping)");
    let lb = l.mapv(|v| (v * 37) as i8);
    let rb = r.mapv(|v| (v * 29) as i8);
    let fast = fast::conv(&g, &lb.view(), &rb.view()).unwrap();
    let refr = reference::conv(&g, &lb.view(), &rb.view(), |x: i8| x).unwrap();
    assert_eq!(fast, refr, "i8 (wrapping)");
}

fn case(spatial: &[usize], kernel: &[usize]) -> Case {
    let n = spatial.len();
    Case {
        batch: 2,
        features: 3,
        out_features: 4,
        spatial: spatial.to_vec(),
        kernel: kernel.to_vec(),
        strides: vec![1; n],
        padding: vec![(0, 0); n],
        lhs_dil: vec![1; n],
        rhs_dil: vec![1; n],
        fgc: 1,
        bgc: 1,
    }
}

#[test]
fn odd_shapes() {
    run(&case(&[7, 5], &[3, 2]), 1);
    run(&case(&[9], &[4]), 2);
    run(&case(&[3, 4, 5], &[2, 3, 1]), 3);
    run(&case(&[], &[]), 4);
    run(&case(&[1, 1], &[1, 1]), 5);
}

#[test]
fn strides_dilations_and_padding_together() {
    let mut c = case(&[11, 8], &[3, 2]);
    c.strides = vec![2, 3];
    c.rhs_dil = vec![2, 1];
    c.lhs_dil = vec![1, 2];
    c.padding = vec![(2, 1), (1, 3)];
    run(&c, 10);
    c.padding = vec![(-2, 1), (0, -3)];
    run(&c, 11);
    c.lhs_dil = vec![3, 2];
    c.padding = vec![(-1, -2), (4, -1)];
    run(&c, 12);
}

#[test]
fn feature_and_batch_groups() {
    let mut c = case(&[6, 5], &[2, 3]);
    c.features = 6;
    c.out_features = 9;
    c.fgc = 3;
    c.padding = vec![(1, 1), (1, 0)];
    run(&c, 20);
    let mut c = case(&[5], &[2]);
    c.batch = 6;
    c.out_features = 6;
    c.bgc = 3;
    c.strides = vec![2];
    run(&c, 21);
    // Depthwise.
    let mut c = case(&[4, 4], &[3, 3]);
    c.features = 5;
    c.out_features = 10;
    c.fgc = 5;
    c.padding = vec![(1, 1), (1, 1)];
    run(&c, 22);
}

#[test]
fn one_by_one_uses_the_image_directly() {
    let c = case(&[6, 7], &[1, 1]);
    run(&c, 30);
    let mut c = case(&[6, 7], &[1, 1]);
    c.strides = vec![2, 1];
    run(&c, 31);
}

/// Other layouts reach the kernels as permuted views of the user's arrays
/// (NHWC lhs, HWIO kernel, reversed and sliced views): the same numbers must
/// come out as from the canonical copies.
#[test]
fn permuted_and_strided_views() {
    for (kernel, pad) in [
        (vec![3, 2], vec![(1, 1), (0, 1)]),
        (vec![1, 1], vec![(0, 0), (0, 0)]),
    ] {
        let mut c = case(&[5, 6], &kernel);
        c.padding = pad;
        let g = c.geometry();
        let l = arr(&c.lhs_dims(), 40).mapv(|v| v as f32 / 8.0);
        let r = arr(&c.rhs_dims(), 41).mapv(|v| v as f32 / 8.0);
        let want = fast::conv(&g, &l.view(), &r.view()).unwrap();
        // NHWC storage, viewed back as NCHW; HWIO storage viewed as OIHW.
        let l_nhwc = l.view().permuted_axes(IxDyn(&[0, 2, 3, 1])).to_owned();
        let r_hwio = r.view().permuted_axes(IxDyn(&[2, 3, 1, 0])).to_owned();
        let lv = l_nhwc.view().permuted_axes(IxDyn(&[0, 3, 1, 2]));
        let rv = r_hwio.view().permuted_axes(IxDyn(&[3, 2, 0, 1]));
        assert_eq!(fast::conv(&g, &lv, &rv).unwrap(), want);
        let refr = reference::conv(&g, &lv, &rv, |x: f32| x).unwrap();
        check_close(&want, &refr);
        // A reversed view of a reversed copy is the original.
        let mut rev = l.clone();
        rev.invert_axis(ndarray::Axis(3));
        let rev = rev.to_owned();
        let mut back = rev.view();
        back.invert_axis(ndarray::Axis(3));
        assert_eq!(fast::conv(&g, &back, &r.view()).unwrap(), want);
    }
}

fn check_close(a: &[f32], b: &[f32]) {
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= 1e-4 * (1.0 + y.abs()), "{x} vs {y}");
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let mut c = case(&[9, 9], &[3, 3]);
    c.batch = 3;
    c.features = 8;
    c.out_features = 16;
    c.padding = vec![(1, 1), (1, 1)];
    let g = c.geometry();
    let l = arr(&c.lhs_dims(), 50).mapv(|v| v as f32 / 7.0);
    let r = arr(&c.rhs_dims(), 51).mapv(|v| v as f32 / 3.0);
    let go = |threads: usize| on_threads(threads, || fast::conv(&g, &l.view(), &r.view()).unwrap());
    let one = go(1);
    for t in [2, 3, 4] {
        let many = go(t);
        assert!(
            one.iter()
                .zip(&many)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "{t} threads"
        );
    }
}

#[test]
fn layouts_of_the_default() {
    assert_eq!(
        Layout::canonical(4),
        Layout {
            batch: 0,
            feature: 1,
            spatial: vec![2, 3]
        }
    );
}

/// `:help ConvGeneralDilated` shows the signature: its dimension_numbers is
/// the default, XLA's bf01_oi01->bf01 (NCHW), not TensorFlow's NHWC.
#[test]
fn help_shows_the_default_layout() {
    let sig = super::OPS[0].signature;
    assert!(
        sig.contains("dimension_numbers=\"bf01_oi01->bf01\""),
        "{sig}"
    );
    assert!(!sig.contains("b01f_01io"), "{sig}");
}

/// The layout the C19 help offers: NHWC / HWIO for TensorFlow's operands, the
/// first common layout that fits otherwise, none when nothing fits.
#[test]
fn fitting_layouts() {
    use super::check::fitting_layout;
    assert_eq!(
        fitting_layout(&[1, 5, 5, 3], &[3, 3, 3, 8], 1, 1).as_deref(),
        Some("b01f_01io->b01f")
    );
    // NCHW input with an HWIO kernel.
    assert_eq!(
        fitting_layout(&[1, 3, 5, 5], &[3, 3, 3, 8], 1, 1).as_deref(),
        Some("bf01_01io->bf01")
    );
    // Feature groups: 6 lhs features = 3 kernel input features × 2.
    assert_eq!(
        fitting_layout(&[1, 5, 6], &[2, 3, 4], 2, 1).as_deref(),
        Some("b0f_0io->b0f")
    );
    assert_eq!(fitting_layout(&[1, 5, 7], &[2, 3, 4], 1, 1), None);
}

/// Padding and dilation at the ends of i64 (issue 21): `d + lo` leaves i64
/// where `d + lo + hi` does not, and `o * stride - lo` needs more than 64
/// bits. Fast path against the reference, and the values by hand.
#[test]
fn extreme_padding_and_dilation() {
    const MAX: i64 = i64::MAX;
    // Three elements padded by (MAX, -MAX): padded size 3 + MAX - MAX = 3, a
    // window of 1 gives 3 outputs; output o reads padded position o, which is
    // lhs element (o - MAX) / 1 < 0: padding, so every output is 0.
    let mut c = case(&[3], &[1]);
    c.padding = vec![(MAX, -MAX)];
    run(&c, 40);
    let g = c.geometry();
    assert_eq!(g.out_spatial, [3]);
    let (l, r) = (arr(&c.lhs_dims(), 1), arr(&c.rhs_dims(), 2));
    let l = l.mapv(|v| v as i32);
    let r = r.mapv(|v| v as i32);
    let out = reference::conv(&g, &l.view(), &r.view(), |x: i32| x).unwrap();
    assert!(out.iter().all(|&v| v == 0));
    assert_eq!(fast::conv(&g, &l.view(), &r.view()).unwrap(), out);
    // The mirror image, (-MAX, MAX): output o reads lhs element o + MAX, out
    // of range: 0 again.
    c.padding = vec![(-MAX, MAX)];
    run(&c, 41);
    // lhs dilation 2^62 - 1 on three elements: dilated size 2·(2^62 - 1) + 1
    // = MAX; padding (-(MAX - 1), 0) leaves 1 position, at dilated index
    // MAX - 1 = 2·(2^62 - 1): lhs element 2. So out[b, o, 0] = Σ_c lhs[b, c, 2]
    // · rhs[o, c, 0].
    let mut c = case(&[3], &[1]);
    c.lhs_dil = vec![(1 << 62) - 1];
    c.padding = vec![(-(MAX - 1), 0)];
    run(&c, 42);
    let g = c.geometry();
    assert_eq!(g.out_spatial, [1]);
    let (l, r) = (arr(&c.lhs_dims(), 3), arr(&c.rhs_dims(), 4));
    let out = reference::conv(&g, &l.view(), &r.view(), |x: i64| x).unwrap();
    for b in 0..c.batch {
        for o in 0..c.out_features {
            let want: i64 = (0..c.features).map(|f| l[[b, f, 2]] * r[[o, f, 0]]).sum();
            assert_eq!(out[b * c.out_features + o], want, "b {b} o {o}");
        }
    }
}
