//! The native sorts against the reference merge sort, on data made to catch
//! the hard cases: NaN of both signs, -0 beside +0, many duplicates (stability),
//! infinities, rows of many lengths.

use super::*;
use half::{bf16, f16};
use xlet_core::test_support::Rng;

/// f32 values from a small pool (so duplicates are common) with the specials.
fn f32_data(n: usize, rng: &mut Rng, with_nan: bool) -> Vec<f32> {
    let pool = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.5,
        -2.5,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1e-40,
        -1e-40,
        f32::NAN,
        f32::from_bits(0xffc0_0001),
    ];
    let k = if with_nan { pool.len() } else { pool.len() - 2 };
    (0..n)
        .map(|_| pool[(rng.next_u64() >> 33) as usize % k])
        .collect()
}

const ORDERS: [Order; 5] = [
    Order::Natural,
    Order::Lt,
    Order::Gt,
    Order::TotalLt,
    Order::TotalGt,
];

fn reference_sorted<T: SortElem>(row: &[T], order: Order) -> Vec<T> {
    reference_perm(row, order)
        .unwrap()
        .iter()
        .map(|&i| row[i])
        .collect()
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn native_row_sort_equals_the_reference_bit_for_bit() {
    let mut rng = Rng::new(1);
    for &n in &[0usize, 1, 2, 7, 255, 256, 257, 3000] {
        for with_nan in [false, true] {
            let data = f32_data(n, &mut rng, with_nan);
            for order in ORDERS {
                let mut fast = data.clone();
                sort_row(&mut fast, &mut vec![], order).unwrap();
                let slow = reference_sorted(&data, order);
                assert_eq!(bits(&fast), bits(&slow), "n {n} nan {with_nan} {order:?}");
            }
        }
    }
}

#[test]
fn native_permutation_equals_the_reference() {
    let mut rng = Rng::new(2);
    for &n in &[1usize, 5, 300, 2000] {
        for with_nan in [false, true] {
            let data = f32_data(n, &mut rng, with_nan);
            for order in ORDERS {
                let mut out = vec![0; n];
                perm_row(&data, &mut out, &mut vec![], &mut vec![], order).unwrap();
                assert_eq!(
                    out,
                    reference_perm(&data, order).unwrap(),
                    "n {n} {order:?}"
                );
            }
        }
    }
}

#[test]
fn natural_order_puts_nan_last_and_keeps_zeros_in_place() {
    let mut v = vec![f32::NAN, 0.0, -1.0, -0.0, f32::from_bits(0xffc0_0000), 0.0];
    sort_row(&mut v, &mut vec![], Order::Natural).unwrap();
    assert_eq!(
        bits(&v),
        bits(&[-1.0, 0.0, -0.0, 0.0, f32::NAN, f32::from_bits(0xffc0_0000)])
    );
    let mut t = vec![f32::NAN, 0.0, -0.0, f32::from_bits(0xffc0_0000), -1.0];
    sort_row(&mut t, &mut vec![], Order::TotalLt).unwrap();
    assert_eq!(
        bits(&t),
        bits(&[f32::from_bits(0xffc0_0000), -1.0, -0.0, 0.0, f32::NAN])
    );
}

fn check_type<T: SortElem + std::fmt::Debug>(data: Vec<T>, eq: impl Fn(&[T], &[T]) -> bool) {
    for order in ORDERS {
        let mut fast = data.clone();
        // Long enough for the radix path.
        sort_row(&mut fast, &mut vec![], order).unwrap();
        let slow = reference_sorted(&data, order);
        assert!(eq(&fast, &slow), "{order:?}: {fast:?} vs {slow:?}");
    }
}

#[test]
fn every_element_type_matches_the_reference() {
    let mut rng = Rng::new(3);
    let n = 600;
    let r: Vec<u64> = (0..n).map(|_| rng.next_u64() >> 33).collect();
    check_type(
        r.iter().map(|&x| x % 2 == 0).collect::<Vec<bool>>(),
        |a, b| a == b,
    );
    check_type(r.iter().map(|&x| x as i8).collect::<Vec<_>>(), |a, b| {
        a == b
    });
    check_type(r.iter().map(|&x| x as i16).collect::<Vec<_>>(), |a, b| {
        a == b
    });
    check_type(
        r.iter().map(|&x| (x as i32) << 9).collect::<Vec<_>>(),
        |a, b| a == b,
    );
    check_type(
        r.iter().map(|&x| (x << 31) as i64).collect::<Vec<_>>(),
        |a, b| a == b,
    );
    check_type(r.iter().map(|&x| x as u8).collect::<Vec<_>>(), |a, b| {
        a == b
    });
    check_type(r.iter().map(|&x| x as u16).collect::<Vec<_>>(), |a, b| {
        a == b
    });
    check_type(r.iter().map(|&x| x as u32).collect::<Vec<_>>(), |a, b| {
        a == b
    });
    check_type(r.iter().map(|&x| x << 30).collect::<Vec<u64>>(), |a, b| {
        a == b
    });
    let f = f32_data(n, &mut rng, true);
    let same16 = |a: &[f16], b: &[f16]| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
    check_type(
        f.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>(),
        same16,
    );
    let sameb = |a: &[bf16], b: &[bf16]| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
    check_type(
        f.iter().map(|&x| bf16::from_f32(x)).collect::<Vec<_>>(),
        sameb,
    );
    let same64 = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
    check_type(f.iter().map(|&x| x as f64).collect::<Vec<_>>(), same64);
}

#[test]
fn rows_are_sorted_independently_in_parallel() {
    let mut rng = Rng::new(4);
    let (rows, n) = (300, 1000);
    let data = f32_data(rows * n, &mut rng, true);
    for order in ORDERS {
        let mut fast = data.clone();
        sort_rows(&mut fast, n, order).unwrap();
        let perm = perm_rows(&data, n, order).unwrap();
        let gathered = gather_rows(&data, &perm, n).unwrap();
        for r in 0..rows {
            let want = reference_sorted(&data[r * n..(r + 1) * n], order);
            assert_eq!(
                bits(&fast[r * n..(r + 1) * n]),
                bits(&want),
                "{order:?} row {r}"
            );
            assert_eq!(
                bits(&gathered[r * n..(r + 1) * n]),
                bits(&want),
                "{order:?} row {r}"
            );
        }
    }
}

#[test]
fn comparison_callback_path_matches_native() {
    let mut rng = Rng::new(5);
    let (rows, n) = (3, 500);
    let data = f32_data(rows * n, &mut rng, true);
    for order in ORDERS {
        let perm = perm_rows_by(rows, n, |r, a, b| {
            Ok(order.less(data[r * n + a], data[r * n + b]))
        })
        .unwrap();
        assert_eq!(perm, perm_rows(&data, n, order).unwrap(), "{order:?}");
    }
}

#[test]
fn rows_along_any_dimension_round_trip() {
    // A 2x3x4 array of 0..24: moving dim 1 last and back gives it again.
    let a: Nd<i32> = ArrayD::from_shape_vec(IxDyn(&[2, 3, 4]), (0..24).collect())
        .unwrap()
        .into_shared();
    for dim in 0..3 {
        let rows = rows_of(&a, dim).unwrap();
        let back = from_rows(rows.clone(), &[2, 3, 4], dim).unwrap();
        assert_eq!(back, a, "dim {dim}");
    }
    // Dim 1's rows are a[i, :, k]: the first is {0, 4, 8}.
    assert_eq!(&rows_of(&a, 1).unwrap()[..3], &[0, 4, 8]);
    // A transposed (strided) input reads through its view.
    let t = a.clone().permuted_axes(IxDyn(&[2, 1, 0]));
    assert_eq!(&rows_of(&t, 2).unwrap()[..2], &[0, 12]);
}

/// Not a test: `cargo test --release --lib sort_timing -- --ignored --nocapture`
/// prints the time of the native sort of f32[1000000] (min of 15 runs).
#[test]
#[ignore]
fn sort_timing() {
    let mut rng = Rng::new(9);
    let data: Vec<f32> = (0..1_000_000)
        .map(|_| ((rng.next_u64() >> 33) as f32 / (1u64 << 31) as f32) * 2.0 - 1.0)
        .collect();
    let time = |f: &dyn Fn()| {
        (0..15)
            .map(|_| {
                let t = std::time::Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e3
            })
            .fold(f64::INFINITY, f64::min)
    };
    let radix = time(&|| {
        let mut v = data.clone();
        let n = v.len();
        sort_rows(&mut v, n, Order::Natural).unwrap();
    });
    let fresh = time(&|| {
        std::hint::black_box(sorted_row(&data, Order::Natural).unwrap());
    });
    let std_unstable = time(&|| {
        let mut v = data.clone();
        v.sort_unstable_by(|a, b| a.total_cmp(b));
    });
    let perm = time(&|| {
        std::hint::black_box(perm_rows(&data, data.len(), Order::Natural).unwrap());
    });
    println!(
        "f32[1000000]: radix in place {radix:.2} ms, into a new vector {fresh:.2} ms, std sort_unstable {std_unstable:.2} ms, permutation {perm:.2} ms"
    );
}

#[test]
fn a_row_sorted_into_a_new_vector_equals_the_reference() {
    let mut rng = Rng::new(6);
    for &n in &[0usize, 3, 400, 5000] {
        for with_nan in [false, true] {
            let data = f32_data(n, &mut rng, with_nan);
            for order in ORDERS {
                let fresh = sorted_row(&data, order).unwrap();
                assert_eq!(
                    bits(&fresh),
                    bits(&reference_sorted(&data, order)),
                    "n {n} {order:?}"
                );
            }
        }
    }
}

/// TopK against the reference: the first k of the stable total-order sort
/// (TotalGt for largest, TotalLt otherwise), values bit for bit and positions.
#[test]
fn top_k_equals_the_first_k_of_a_stable_total_order_sort() {
    let mut rng = Rng::new(7);
    // 70000: long rows, split across threads when there are fewer rows than
    // threads; 3000 with small k: the streaming filter cuts back many times.
    for &n in &[1usize, 2, 7, 64, 300, 3000, 70000] {
        for rows in [1usize, 3] {
            let data = f32_data(n * rows, &mut rng, true);
            for largest in [true, false] {
                let order = if largest {
                    Order::TotalGt
                } else {
                    Order::TotalLt
                };
                for k in [0, 1, 16, n / 2, n.saturating_sub(1), n] {
                    if k > n {
                        continue;
                    }
                    let (vals, idx) = top_k::top_k_rows(&data, n, k, largest).unwrap();
                    assert_eq!(vals.len(), rows * k);
                    for r in 0..rows {
                        let row = &data[r * n..(r + 1) * n];
                        let perm = reference_perm(row, order).unwrap();
                        let want_i: Vec<i32> = perm[..k].iter().map(|&i| i as i32).collect();
                        let want_v: Vec<f32> = perm[..k].iter().map(|&i| row[i]).collect();
                        assert_eq!(
                            &idx[r * k..(r + 1) * k],
                            &want_i[..],
                            "n {n} k {k} {largest}"
                        );
                        assert_eq!(bits(&vals[r * k..(r + 1) * k]), bits(&want_v));
                    }
                }
            }
        }
    }
    // Integers: ties keep the lower position first.
    let (v, i) = top_k::top_k_rows(&[3i8, -1, 3, 7, -1], 5, 3, true).unwrap();
    assert_eq!((v, i), (vec![7, 3, 3], vec![3, 0, 2]));
    let (v, i) = top_k::top_k_rows(&[3i8, -1, 3, 7, -1], 5, 3, false).unwrap();
    assert_eq!((v, i), (vec![-1, -1, 3], vec![1, 4, 0]));
}
