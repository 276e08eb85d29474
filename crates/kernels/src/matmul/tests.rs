//! The fast paths against the plain loop, on every layout a view can have.

use super::{DotElem, Mat, matmul, matmul_in_blocks, reference};
use ndarray::{Array2, ArrayView2, Axis, s};
use xlet_core::test_support::{Rng, on_threads};

/// A small deterministic generator (the tests need variety, not quality).
fn values(n: usize, seed: u64) -> Vec<i64> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| (rng.next_u64() >> 33) as i64).collect()
}

/// The layouts a user can hand to Dot: the matrix itself, its transpose read
/// back (`t().t()` of a column-major copy), a reversed view, every other
/// column of a wider array, and a broadcast row (stride 0).
fn layouts<T: Copy + Default>(
    a: &Array2<T>,
) -> Vec<(
    &'static str,
    Array2<T>,
    Box<dyn Fn(&Array2<T>) -> ArrayView2<'_, T>>,
)> {
    let (r, c) = a.dim();
    let col_major = {
        let mut t = Array2::default((c, r));
        t.assign(&a.t());
        t
    };
    let reversed = {
        let mut t = a.clone();
        t.invert_axis(Axis(0));
        t.invert_axis(Axis(1));
        t.as_standard_layout().to_owned()
    };
    let wide = {
        let mut w = Array2::default((r, 2 * c));
        w.slice_mut(s![.., ..;2]).assign(a);
        w
    };
    vec![
        ("row-major", a.clone(), Box::new(|x: &Array2<T>| x.view())),
        ("transposed", col_major, Box::new(|x: &Array2<T>| x.t())),
        (
            "reversed",
            reversed,
            Box::new(|x: &Array2<T>| x.slice(s![..;-1, ..;-1])),
        ),
        (
            "every other column",
            wide,
            Box::new(|x: &Array2<T>| x.slice(s![.., ..;2])),
        ),
    ]
}

fn check_exact<T: DotElem + Default + std::fmt::Debug>(
    m: usize,
    k: usize,
    n: usize,
    of: impl Fn(i64) -> T,
) {
    let a =
        Array2::from_shape_vec((m, k), values(m * k, 1).into_iter().map(&of).collect()).unwrap();
    let b =
        Array2::from_shape_vec((k, n), values(k * n, 2).into_iter().map(&of).collect()).unwrap();
    let want = reference(Mat::of(&a.view()), Mat::of(&b.view()));
    for (la, sa, va) in layouts(&a) {
        for (lb, sb, vb) in layouts(&b) {
            let mut out = vec![T::ZERO; m * n];
            matmul(&mut out, Mat::of(&va(&sa)), Mat::of(&vb(&sb)), true).unwrap();
            assert_eq!(out, want, "{m}x{k}x{n}, lhs {la}, rhs {lb}");
        }
    }
}

#[test]
fn integer_products_are_exact_and_wrap() {
    // Sizes around the 4x32 tile: full tiles, edges, and a single row.
    for &(m, k, n) in &[(1, 1, 1), (4, 7, 32), (9, 13, 70), (33, 5, 65), (2, 300, 3)] {
        // Values of full range, so products and sums wrap.
        check_exact::<i8>(m, k, n, |v| v as i8);
        check_exact::<i32>(m, k, n, |v| v as i32);
        check_exact::<i64>(m, k, n, |v| v.wrapping_mul(0x9E3779B97F4A7C15u64 as i64));
        check_exact::<u16>(m, k, n, |v| v as u16);
        check_exact::<u64>(m, k, n, |v| (v as u64).wrapping_mul(0x9E3779B97F4A7C15));
        check_exact::<bool>(m, k, n, |v| v % 5 == 0);
    }
}

#[test]
fn wrapping_is_the_types_own() {
    // 100 * 100 + 100 * 100 = 20000 = 32 mod 256 in u8 (20000 - 78*256 = 32).
    let a = Array2::from_elem((1, 2), 100u8);
    let b = Array2::from_elem((2, 1), 100u8);
    let mut out = [0u8];
    matmul(&mut out, Mat::of(&a.view()), Mat::of(&b.view()), false).unwrap();
    assert_eq!(out, [32]);
}

/// The float paths against the f64 loop. The bound is the classical one for a
/// sum of k products computed in precision u (Higham, Accuracy and Stability,
/// §3.1): |error| ≤ γ_k · Σ|a||b| with γ_k = k·u/(1 − k·u); we allow 2γ_k for
/// the product's own rounding and FMA differences.
fn check_float<T: DotElem + Default + Into<f64> + num_traits::Float>(
    m: usize,
    k: usize,
    n: usize,
    u: f64,
) {
    let of = |v: i64| <T as num_traits::NumCast>::from((v % 2001 - 1000) as f64 / 997.0).unwrap();
    let a = Array2::from_shape_vec((m, k), values(m * k, 3).into_iter().map(of).collect()).unwrap();
    let b = Array2::from_shape_vec((k, n), values(k * n, 4).into_iter().map(of).collect()).unwrap();
    let gamma = 2.0 * (k as f64 * u) / (1.0 - k as f64 * u);
    for (la, sa, va) in layouts(&a) {
        for (lb, sb, vb) in layouts(&b) {
            let mut out = vec![T::ZERO; m * n];
            matmul(&mut out, Mat::of(&va(&sa)), Mat::of(&vb(&sb)), true).unwrap();
            for i in 0..m {
                for j in 0..n {
                    let (mut exact, mut size) = (0f64, 0f64);
                    for p in 0..k {
                        let (x, y): (f64, f64) = (a[[i, p]].into(), b[[p, j]].into());
                        exact += x * y;
                        size += (x * y).abs();
                    }
                    let got: f64 = out[i * n + j].into();
                    assert!(
                        (got - exact).abs() <= gamma * size,
                        "{m}x{k}x{n} lhs {la} rhs {lb} at ({i},{j}): {got} vs {exact}"
                    );
                }
            }
        }
    }
}

#[test]
fn float_products_are_within_the_summation_bound() {
    for &(m, k, n) in &[
        (1, 1, 1),
        (3, 5, 2),
        (17, 33, 9),
        (70, 129, 65),
        (1, 500, 40),
    ] {
        check_float::<f32>(m, k, n, f32::EPSILON as f64 / 2.0);
        check_float::<f64>(m, k, n, f64::EPSILON / 2.0);
    }
}

#[test]
fn broadcast_operands_are_read_with_stride_zero() {
    // A row broadcast down 5 rows: every result row is the same dot product.
    let row = ndarray::arr1(&[1.0f32, 2.0, 3.0]);
    let a = row.broadcast((5, 3)).unwrap();
    let b = ndarray::arr2(&[[1.0f32], [1.0], [1.0]]);
    let mut out = vec![0.0f32; 5];
    matmul(&mut out, Mat::of(&a), Mat::of(&b.view()), true).unwrap();
    assert_eq!(out, vec![6.0; 5]);
    let ai = row.mapv(|x| x as i32);
    let ai = ai.broadcast((5, 3)).unwrap();
    let bi = b.mapv(|x| x as i32);
    let mut out = vec![0i32; 5];
    matmul(&mut out, Mat::of(&ai), Mat::of(&bi.view()), true).unwrap();
    assert_eq!(out, vec![6; 5]);
}

#[test]
fn empty_contraction_is_zero_and_empty_results_are_fine() {
    let a = Array2::<f32>::zeros((3, 0));
    let b = Array2::<f32>::zeros((0, 2));
    let mut out = vec![7.0f32; 6];
    matmul(&mut out, Mat::of(&a.view()), Mat::of(&b.view()), true).unwrap();
    assert_eq!(out, vec![0.0; 6]);
    let a = Array2::<i32>::zeros((0, 4));
    let b = Array2::<i32>::zeros((4, 2));
    matmul(&mut [], Mat::of(&a.view()), Mat::of(&b.view()), true).unwrap();
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let (m, k, n) = (300, 517, 260);
    let a = Array2::from_shape_vec(
        (m, k),
        values(m * k, 5)
            .into_iter()
            .map(|v| (v % 1000) as f32 / 7.0)
            .collect(),
    )
    .unwrap();
    let b = Array2::from_shape_vec(
        (k, n),
        values(k * n, 6)
            .into_iter()
            .map(|v| (v % 1000) as f32 / 3.0)
            .collect(),
    )
    .unwrap();
    let run = |threads: usize, parallel: bool| {
        on_threads(threads, || {
            let mut out = vec![0.0f32; m * n];
            matmul(&mut out, Mat::of(&a.view()), Mat::of(&b.t().t()), parallel).unwrap();
            out.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        })
    };
    let one = run(1, false);
    assert_eq!(one, run(2, true));
    assert_eq!(one, run(3, true));
}

#[test]
fn blocks_of_rows_and_of_the_contracted_dimension_add_up() {
    // Blocks of 64 multiply-adds: 100 rows cut into blocks of 64 and 36,
    // and k = 600 into slices of 256, 256 and 88 that accumulate in order.
    let (m, k, n) = (100, 600, 3);
    let a = Array2::from_shape_vec(
        (m, k),
        values(m * k, 7).into_iter().map(|v| v as i32).collect(),
    )
    .unwrap();
    let b = Array2::from_shape_vec(
        (k, n),
        values(k * n, 8).into_iter().map(|v| v as i32).collect(),
    )
    .unwrap();
    let want = reference(Mat::of(&a.view()), Mat::of(&b.view()));
    let mut out = vec![0i32; m * n];
    matmul_in_blocks(&mut out, Mat::of(&a.view()), Mat::of(&b.t().t()), true, 64).unwrap();
    assert_eq!(out, want);
    // Floats in small integers: every partial sum is exact, so blocks must agree.
    let af = a.mapv(|x| (x % 9) as f32);
    let bf = b.mapv(|x| (x % 5) as f32);
    let want = reference(Mat::of(&af.view()), Mat::of(&bf.view()));
    let mut out = vec![0f32; m * n];
    matmul_in_blocks(&mut out, Mat::of(&af.view()), Mat::of(&bf.view()), true, 64).unwrap();
    assert_eq!(out, want);
}
