//! The kernels against their definitions: `l·lᴴ = a` and `op(a)·x = b`
//! recomputed naively, for real and complex elements, sizes below and across
//! the block width, every form of the solve, and the failure cases.

use super::LinalgElem;
use super::cholesky::cholesky;
use super::triangular_solve::{Form, Transpose, triangular_solve};
use num_complex::Complex;

/// Test elements: build from a pair of reals, and measure a distance.
trait Probe: LinalgElem {
    fn make(re: f64, im: f64) -> Self;
    fn dist(self, o: Self) -> f64;
    fn is_nan(self) -> bool;
}

impl Probe for f64 {
    fn make(re: f64, _: f64) -> Self {
        re
    }
    fn dist(self, o: Self) -> f64 {
        (self - o).abs()
    }
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
}

impl Probe for f32 {
    fn make(re: f64, _: f64) -> Self {
        re as f32
    }
    fn dist(self, o: Self) -> f64 {
        f64::from((self - o).abs())
    }
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
}

impl Probe for Complex<f64> {
    fn make(re: f64, im: f64) -> Self {
        Complex::new(re, im)
    }
    fn dist(self, o: Self) -> f64 {
        (self - o).norm()
    }
    fn is_nan(self) -> bool {
        self.re.is_nan() || self.im.is_nan()
    }
}

impl Probe for Complex<f32> {
    fn make(re: f64, im: f64) -> Self {
        Complex::new(re as f32, im as f32)
    }
    fn dist(self, o: Self) -> f64 {
        f64::from((self - o).norm())
    }
    fn is_nan(self) -> bool {
        self.re.is_nan() || self.im.is_nan()
    }
}

/// A deterministic pseudo-random value in [-1, 1).
fn noise(k: usize) -> f64 {
    let x = (k as u64)
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((x >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
}

fn rand_mat<T: Probe>(rows: usize, cols: usize, seed: usize) -> Vec<T> {
    (0..rows * cols)
        .map(|k| T::make(noise(seed + 2 * k), noise(seed + 2 * k + 1)))
        .collect()
}

/// `x · yᴴ` of two row-major n x k matrices.
fn mul_h<T: Probe>(x: &[T], y: &[T], n: usize, k: usize) -> Vec<T> {
    let mut out = vec![T::ZERO; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut s = T::ZERO;
            for p in 0..k {
                s = s + x[i * k + p] * y[j * k + p].conj();
            }
            out[i * n + j] = s;
        }
    }
    out
}

/// A Hermitian positive definite n x n matrix: g·gᴴ + n·I.
fn hpd<T: Probe>(n: usize, seed: usize) -> Vec<T> {
    let g = rand_mat::<T>(n, n, seed);
    let mut a = mul_h(&g, &g, n, n);
    for i in 0..n {
        a[i * n + i] = a[i * n + i] + T::make(n as f64, 0.0);
    }
    a
}

fn max_dist<T: Probe>(x: &[T], y: &[T]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a.dist(*b)).fold(0.0, f64::max)
}

fn check_cholesky<T: Probe>(n: usize, tol: f64) {
    let a = hpd::<T>(n, 7 * n);
    // Spoil the triangle that must not be read.
    let mut lower_only = a.clone();
    let mut upper_only = a.clone();
    for i in 0..n {
        for j in 0..n {
            if j > i {
                lower_only[i * n + j] = T::make(1e9, 3.0);
            }
            if j < i {
                upper_only[i * n + j] = T::make(-1e9, 5.0);
            }
        }
    }
    let l = cholesky(&lower_only, n, true).unwrap();
    let u = cholesky(&upper_only, n, false).unwrap();
    for i in 0..n {
        for j in 0..n {
            if j > i {
                assert_eq!(l[i * n + j], T::ZERO, "l's upper triangle at {i},{j}");
            }
            if j < i {
                assert_eq!(u[i * n + j], T::ZERO, "u's lower triangle at {i},{j}");
            }
        }
    }
    let scale = n as f64;
    assert!(
        max_dist(&mul_h(&l, &l, n, n), &a) <= tol * scale,
        "l·lᴴ = a, n = {n}"
    );
    // uᴴ·u = a: with v = uᴴ (row-major), v·vᴴ.
    let v: Vec<T> = (0..n * n).map(|k| u[(k % n) * n + k / n].conj()).collect();
    assert!(
        max_dist(&mul_h(&v, &v, n, n), &a) <= tol * scale,
        "uᴴ·u = a, n = {n}"
    );
    // u = lᴴ: the same factor.
    assert!(max_dist(&v, &l) <= tol * scale);
}

#[test]
fn cholesky_reconstructs_real_and_complex() {
    for n in [1, 2, 5, 63, 64, 65, 150] {
        check_cholesky::<f64>(n, 1e-12);
        check_cholesky::<f32>(n, 2e-5);
        check_cholesky::<Complex<f64>>(n, 1e-12);
        check_cholesky::<Complex<f32>>(n, 2e-5);
    }
}

#[test]
fn cholesky_of_a_known_matrix() {
    // StableHLO's example: [[1,2,3],[2,20,26],[3,26,70]] = l·lᵀ, l = [[1,0,0],[2,4,0],[3,5,6]].
    let a = [1.0, 2.0, 3.0, 2.0, 20.0, 26.0, 3.0, 26.0, 70.0];
    let l = cholesky(&a, 3, true).unwrap();
    assert_eq!(l, vec![1.0, 0.0, 0.0, 2.0, 4.0, 0.0, 3.0, 5.0, 6.0]);
    // Hermitian: [[4, 2i], [-2i, 5]] = l·lᴴ with l = [[2, 0], [-i, 2]].
    let c = |re, im| Complex::new(re, im);
    let a = [c(4.0, 0.0), c(0.0, 2.0), c(0.0, -2.0), c(5.0, 0.0)];
    let l = cholesky(&a, 2, true).unwrap();
    assert_eq!(l, vec![c(2.0, 0.0), c(0.0, 0.0), c(0.0, -1.0), c(2.0, 0.0)]);
    let u = cholesky(&a, 2, false).unwrap();
    assert_eq!(u, vec![c(2.0, 0.0), c(0.0, 1.0), c(0.0, 0.0), c(2.0, 0.0)]);
}

fn check_failure<T: Probe>(n: usize, at: usize) {
    // Positive definite except that the pivot at `at` is made negative.
    let mut a = hpd::<T>(n, 3);
    a[at * n + at] = T::make(-1e6, 0.0);
    let mut two = a.clone();
    two.extend(hpd::<T>(n, 5));
    for lower in [true, false] {
        let l = cholesky(&two, n, lower).unwrap();
        for i in 0..n {
            for j in 0..n {
                let x = l[i * n + j];
                let in_triangle = if lower { j <= i } else { j >= i };
                assert!(
                    if in_triangle {
                        x.is_nan()
                    } else {
                        x == T::ZERO
                    },
                    "n = {n}, failing at {at}, lower = {lower}: ({i}, {j}) = {x:?}"
                );
            }
        }
        // The batch's other matrix is unaffected.
        assert!(l[n * n..].iter().all(|x| !x.is_nan()));
    }
}

#[test]
fn cholesky_failure_is_a_nan_triangle() {
    for (n, at) in [(1, 0), (3, 2), (3, 0), (100, 70)] {
        check_failure::<f64>(n, at);
        check_failure::<f32>(n, at);
        check_failure::<Complex<f64>>(n, at);
        check_failure::<Complex<f32>>(n, at);
    }
    // A zero pivot fails too; a NaN pivot is not a failure (it flows on).
    assert!(cholesky(&[0.0f64], 1, true).unwrap()[0].is_nan());
    let l = cholesky(&[4.0f64, 0.0, f64::NAN, 1.0], 2, true).unwrap();
    assert_eq!(l[0], 2.0);
    assert_eq!(l[1], 0.0);
    assert!(l[2].is_nan() && l[3].is_nan());
}

/// `op(a)` as a full row-major matrix: only the given triangle of `a` read,
/// the diagonal 1 when `unit`.
fn op_of<T: Probe>(a: &[T], m: usize, f: Form) -> Vec<T> {
    let tri = |i: usize, j: usize| {
        if i == j && f.unit_diagonal {
            T::ONE
        } else if (f.lower && j <= i) || (!f.lower && j >= i) {
            a[i * m + j]
        } else {
            T::ZERO
        }
    };
    let mut o = vec![T::ZERO; m * m];
    for i in 0..m {
        for j in 0..m {
            o[i * m + j] = match f.transpose {
                Transpose::No => tri(i, j),
                Transpose::Transpose => tri(j, i),
                Transpose::Adjoint => tri(j, i).conj(),
            };
        }
    }
    o
}

fn check_solve<T: Probe>(m: usize, r: usize, f: Form, tol: f64) {
    // A well-conditioned triangle: a large diagonal, garbage in the other half.
    let mut a = rand_mat::<T>(m, m, 11 * m + r);
    for i in 0..m {
        a[i * m + i] = a[i * m + i] + T::make(4.0, 0.0);
    }
    let b = rand_mat::<T>(m, r, 5 * r + m);
    let x = triangular_solve(&a, &b, m, r, f).unwrap();
    let op = op_of(&a, m, f);
    // Recompute b: op·x (x m x r) on the left, x·op (x r x m) on the right.
    let (rows, cols, inner) = if f.left_side { (m, r, m) } else { (r, m, m) };
    let mut got = vec![T::ZERO; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            let mut s = T::ZERO;
            for p in 0..inner {
                s = s + if f.left_side {
                    op[i * m + p] * x[p * r + j]
                } else {
                    x[i * m + p] * op[p * m + j]
                };
            }
            got[i * cols + j] = s;
        }
    }
    // The residual scales with the solution's size (rounding in each term).
    let scale = x.iter().map(|v| v.dist(T::ZERO)).fold(1.0, f64::max) * m as f64;
    let err = max_dist(&got, &b);
    assert!(
        err <= tol * scale,
        "{f:?} m = {m} r = {r}: {err} (scale {scale})"
    );
}

fn all_forms() -> Vec<Form> {
    let mut v = vec![];
    for left_side in [true, false] {
        for lower in [true, false] {
            for unit_diagonal in [true, false] {
                for transpose in [Transpose::No, Transpose::Transpose, Transpose::Adjoint] {
                    v.push(Form {
                        left_side,
                        lower,
                        unit_diagonal,
                        transpose,
                    });
                }
            }
        }
    }
    v
}

#[test]
fn triangular_solve_every_form_real_and_complex() {
    for f in all_forms() {
        for (m, r) in [(1, 1), (3, 2), (64, 3), (130, 200)] {
            // Unit diagonals with a random triangle grow like 2^m: small m only.
            if f.unit_diagonal && m > 3 {
                continue;
            }
            check_solve::<f64>(m, r, f, 1e-13);
            check_solve::<f32>(m, r, f, 1e-5);
            check_solve::<Complex<f64>>(m, r, f, 1e-13);
            check_solve::<Complex<f32>>(m, r, f, 1e-5);
        }
    }
}

#[test]
fn triangular_solve_singular_divides_by_zero() {
    // [[2,0,0],[1,0,0],[1,1,3]] x = [[1,2],[3,4],[5,6]]: jax (LAPACK trsm)
    // gives [[0.5, 1], [inf, inf], [-inf, -inf]].
    let a = [2.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 3.0];
    let b = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
    let f = Form {
        left_side: true,
        lower: true,
        unit_diagonal: false,
        transpose: Transpose::No,
    };
    let x = triangular_solve(&a, &b, 3, 2, f).unwrap();
    let inf = f32::INFINITY;
    assert_eq!(x, vec![0.5, 1.0, inf, inf, -inf, -inf]);
}

#[test]
fn empty_and_batched() {
    assert!(cholesky::<f32>(&[], 0, true).unwrap().is_empty());
    let f = Form {
        left_side: false,
        lower: false,
        unit_diagonal: false,
        transpose: Transpose::Adjoint,
    };
    assert!(
        triangular_solve::<f64>(&[], &[], 0, 4, f)
            .unwrap()
            .is_empty()
    );
    // Many small matrices take the batch-parallel path; each equals its solo run.
    let n = 4;
    let a: Vec<f64> = (0..64).flat_map(|s| hpd::<f64>(n, s)).collect();
    let all = cholesky(&a, n, true).unwrap();
    for (s, got) in all.chunks(n * n).enumerate() {
        assert_eq!(
            got,
            cholesky(&a[s * n * n..(s + 1) * n * n], n, true).unwrap()
        );
    }
}
