//! Every path against the plain order of `order.rs`, bit for bit, and with one
//! thread against many.

use super::generic;
use super::layout::split_dims;
use super::monoid::{GetFn, MonoidOp, NativeMonoid, reduce_with};
use super::native::{self, Columns};
use super::order::{self, Tree};
use super::scatter;
use super::vectorized;
use super::window::{self, Geometry};
use ndarray::IxDyn;
use std::convert::Infallible;
use xlet_core::error::KernelError;
use xlet_core::test_support::{Rng, on_threads};
use xlet_core::value::{Array, Nd, Value};

/// Values of very different magnitudes, so that any change of order changes the sum.
fn data(n: usize, seed: u64) -> Vec<f32> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let s = rng.next_u64();
            let m = ((s >> 40) as f32) / (1u64 << 24) as f32 - 0.5;
            let e = ((s >> 20) % 24) as i32 - 12;
            m * 2f32.powi(e)
        })
        .collect()
}

fn add(a: f32, b: f32) -> f32 {
    a + b
}

fn reference(xs: &[f32], init: f32, f: impl Fn(f32, f32) -> f32) -> f32 {
    let mut g = |a: f32, b: f32| Ok::<_, Infallible>(f(a, b));
    match order::reduce(xs.len(), init, &mut |t| Ok(xs[t]), &mut g) {
        Ok(v) => v,
        Err(e) => match e {},
    }
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn tree_is_level_by_level_pairing() {
    // Builds the tree as text both ways for 1..100 leaves.
    fn levels(mut nodes: Vec<String>) -> String {
        while nodes.len() > 1 {
            let mut next = vec![];
            for p in nodes.chunks(2) {
                next.push(if p.len() == 2 {
                    format!("({} {})", p[0], p[1])
                } else {
                    p[0].clone()
                });
            }
            nodes = next;
        }
        nodes.pop().unwrap_or_default()
    }
    for m in 1..100 {
        let leaves: Vec<String> = (0..m).map(|i| i.to_string()).collect();
        let mut f = |a: String, b: String| Ok::<_, Infallible>(format!("({a} {b})"));
        let got = order::pair_all(leaves.clone(), &mut f).unwrap().unwrap();
        assert_eq!(got, levels(leaves), "{m} leaves");
    }
    // Aligned runs of 4 pushed as subtrees give the same tree.
    for m in 1..60usize {
        let leaves: Vec<String> = (0..m).map(|i| i.to_string()).collect();
        let mut f = |a: String, b: String| Ok::<_, Infallible>(format!("({a} {b})"));
        let mut t = Tree::new();
        let full = m / 4;
        for c in 0..full {
            let sub = order::pair_all(leaves[c * 4..c * 4 + 4].to_vec(), &mut f).unwrap();
            t.push(4, sub.unwrap(), &mut f).unwrap();
        }
        let last = order::pair_all(leaves[full * 4..].to_vec(), &mut f).unwrap();
        let got = t.finish(last, &mut f).unwrap().unwrap();
        assert_eq!(got, levels(leaves), "{m} leaves in runs of 4");
    }
}

#[test]
fn order_of_a_short_sequence() {
    // 20 elements: one block; lanes 0..3 hold two elements, lanes 4..15 one.
    let mut f = |a: String, b: String| Ok::<_, Infallible>(format!("f({a},{b})"));
    let got = order::reduce(20, "i".to_string(), &mut |t| Ok(t.to_string()), &mut f).unwrap();
    let l = |i: usize| {
        if i < 4 {
            format!("f({i},{})", i + 16)
        } else {
            i.to_string()
        }
    };
    let p = |a: String, b: String| format!("f({a},{b})");
    let lvl1: Vec<String> = (0..8).map(|i| p(l(2 * i), l(2 * i + 1))).collect();
    let lvl2: Vec<String> = (0..4)
        .map(|i| p(lvl1[2 * i].clone(), lvl1[2 * i + 1].clone()))
        .collect();
    let lvl3 = [
        p(lvl2[0].clone(), lvl2[1].clone()),
        p(lvl2[2].clone(), lvl2[3].clone()),
    ];
    assert_eq!(got, p("i".into(), p(lvl3[0].clone(), lvl3[1].clone())));
    // Empty: the init value alone.
    assert_eq!(
        order::reduce(0, "i".to_string(), &mut |t| Ok(t.to_string()), &mut f).unwrap(),
        "i"
    );
}

const SIZES: &[usize] = &[
    0, 1, 2, 15, 16, 17, 255, 256, 257, 511, 512, 513, 1000, 4096, 70_001,
];

#[test]
fn native_rows_match_reference() {
    for &n in SIZES {
        for m in [1usize, 3, 40] {
            let x = data(m * n, n as u64);
            let mut out = vec![0.0f32; m];
            native::rows(&x, m, n, 0.25, &add, &mut out).unwrap();
            let want: Vec<f32> = (0..m)
                .map(|o| reference(&x[o * n..][..n], 0.25, add))
                .collect();
            assert_eq!(bits(&out), bits(&want), "rows m={m} n={n}");
        }
    }
}

#[test]
fn native_columns_match_reference() {
    for &n in SIZES {
        for m in [1usize, 5, 33, 1500] {
            if n * m > 3_000_000 {
                continue;
            }
            let x = data(m * n, 7 + n as u64);
            let mut out = vec![0.0f32; m];
            native::columns(&Columns { x: &x, m }, n, m, -1.5, &add, &mut out).unwrap();
            let want: Vec<f32> = (0..m)
                .map(|o| {
                    let col: Vec<f32> = (0..n).map(|t| x[t * m + o]).collect();
                    reference(&col, -1.5, add)
                })
                .collect();
            assert_eq!(bits(&out), bits(&want), "columns m={m} n={n}");
        }
    }
}

fn nd(dims: &[usize], seed: u64) -> Nd<f32> {
    let n = dims.iter().product();
    Nd::from_shape_vec(IxDyn(dims), data(n, seed)).unwrap()
}

/// The reference reduction of an array: each output's elements gathered by index.
fn reference_nd(
    x: &Nd<f32>,
    dims: &[usize],
    init: f32,
    f: impl Fn(f32, f32) -> f32 + Copy,
) -> Vec<f32> {
    let shape = x.shape().to_vec();
    let (kept, m, n) = split_dims(&shape, dims);
    let perm: Vec<usize> = kept.iter().chain(dims).copied().collect();
    let p = x.clone().permuted_axes(IxDyn(&perm));
    let flat: Vec<f32> = p.iter().copied().collect();
    (0..m)
        .map(|o| reference(&flat[o * n..][..n], init, f))
        .collect()
}

#[test]
fn every_dimension_set_matches_reference() {
    let x = nd(&[6, 300, 20], 3);
    let sets: &[&[usize]] = &[&[], &[0], &[1], &[2], &[0, 1], &[0, 2], &[1, 2], &[0, 1, 2]];
    for dims in sets {
        let got = reduce_with(&x, dims, 0.0, add).unwrap();
        let want = reference_nd(&x, dims, 0.0, add);
        assert_eq!(bits(got.as_slice().unwrap()), bits(&want), "dims {dims:?}");
        // A transposed view reduces to the same values as its copy.
        let t = x.clone().permuted_axes(IxDyn(&[2, 0, 1]));
        let tdims: Vec<usize> = dims.iter().map(|&d| [1, 2, 0][d]).collect::<Vec<_>>();
        let mut tdims = tdims;
        tdims.sort();
        let got_t = reduce_with(&t, &tdims, 0.0, add).unwrap();
        let want_t = reference_nd(&t.to_owned().into_shared(), &tdims, 0.0, add);
        assert_eq!(
            bits(&got_t.iter().copied().collect::<Vec<_>>()),
            bits(&want_t)
        );
    }
}

#[test]
fn results_do_not_depend_on_thread_count() {
    let x = nd(&[3, 200_000], 11);
    let run = |threads: usize| {
        on_threads(threads, || {
            let a = reduce_with(&x, &[1], 0.0, add).unwrap();
            let b = reduce_with(&x, &[0], 0.0, add).unwrap();
            let c = reduce_with(&x, &[0, 1], 0.0, add).unwrap();
            [a, b, c].map(|r| bits(&r.iter().copied().collect::<Vec<_>>()))
        })
    };
    let one = run(1);
    assert_eq!(one, run(2));
    assert_eq!(one, run(7));
}

#[test]
fn monoids_on_every_type_agree_with_their_element_function() {
    fn check<T: NativeMonoid + std::fmt::Debug + PartialEq + 'static>(vals: Vec<T>, init: T) {
        for op in [
            MonoidOp::Add,
            MonoidOp::Mul,
            MonoidOp::Max,
            MonoidOp::Min,
            MonoidOp::And,
            MonoidOp::Or,
        ] {
            let Some(f) = T::with_op(op, GetFn) else {
                continue;
            };
            let n = vals.len();
            let x = Nd::from_shape_vec(IxDyn(&[2, n / 2]), vals.clone()).unwrap();
            for dims in [&[0usize][..], &[1], &[0, 1]] {
                let got = T::with_op(op, super::monoid::ReduceCall { x: &x, dims, init })
                    .unwrap()
                    .unwrap();
                let (kept, m, k) = split_dims(x.shape(), dims);
                let perm: Vec<usize> = kept.iter().chain(dims).copied().collect();
                let flat: Vec<T> = x
                    .clone()
                    .permuted_axes(IxDyn(&perm))
                    .iter()
                    .copied()
                    .collect();
                let mut g = |a: T, b: T| Ok::<_, Infallible>(f(a, b));
                let want: Vec<T> = (0..m)
                    .map(|o| order::reduce(k, init, &mut |t| Ok(flat[o * k + t]), &mut g).unwrap())
                    .collect();
                // Compared as text, so that NaN equals NaN (f16 products overflow).
                let got: Vec<T> = got.iter().copied().collect();
                assert_eq!(format!("{got:?}"), format!("{want:?}"), "{op:?} {dims:?}");
            }
        }
    }
    check((0..600).map(|i| (i * 37 % 251) as i8).collect(), 3);
    check((0..600).map(|i| (i * 7919 % 65521) as u32).collect(), 0);
    check((0..600).map(|i| i % 3 == 0).collect(), false);
    check(
        data(600, 5).into_iter().map(half::f16::from_f32).collect(),
        half::f16::ZERO,
    );
    check(data(600, 6).into_iter().map(|v| v as f64).collect(), 1.0);
}

#[test]
fn nan_propagates_through_max_and_add() {
    let mut v = data(1000, 9);
    v[517] = f32::NAN;
    let x = Nd::from_shape_vec(IxDyn(&[1000]), v).unwrap();
    let s = reduce_with(&x, &[0], 0.0, add).unwrap();
    assert!(s.iter().next().unwrap().is_nan());
    let m = f32::with_op(
        MonoidOp::Max,
        super::monoid::ReduceCall {
            x: &x,
            dims: &[0],
            init: f32::NEG_INFINITY,
        },
    )
    .unwrap()
    .unwrap();
    assert!(m.iter().next().unwrap().is_nan());
}

fn f32_array(dims: &[usize], v: Vec<f32>) -> Array {
    Array::F32(Nd::from_shape_vec(IxDyn(dims), v).unwrap())
}

/// A whole-array add, as `comp::Vectorized` would run `a + b`.
fn array_add(args: &[Array]) -> Result<Vec<Array>, KernelError> {
    let (Array::F32(a), Array::F32(b)) = (&args[0], &args[1]) else {
        panic!()
    };
    assert_eq!(a.shape(), b.shape());
    Ok(vec![Array::F32((a + b).into_shared())])
}

#[test]
fn vectorized_path_matches_reference() {
    for &n in SIZES {
        for m in [1usize, 4] {
            if n * m > 300_000 {
                continue;
            }
            let x = data(m * n, 21 + n as u64);
            let xs = [f32_array(&[m, n], x.clone())];
            let init = [f32_array(&[], vec![0.5])];
            let mut f = |a: &[Array]| array_add(a);
            let got = vectorized::reduce_rows(&xs, &init, m, n, &mut f).unwrap();
            let got = got[0].to_vec::<f32>();
            let want: Vec<f32> = (0..m)
                .map(|o| reference(&x[o * n..][..n], 0.5, add))
                .collect();
            assert_eq!(bits(&got), bits(&want), "vectorized m={m} n={n}");
        }
    }
}

fn scalar(v: &Value) -> f32 {
    v.as_array().unwrap().to_vec::<f32>()[0]
}

#[test]
fn generic_path_matches_reference_and_handles_tuples() {
    let (m, n) = (3, 700);
    let x = data(m * n, 99);
    let xa = f32_array(&[m, n], x.clone());
    let mut call = |args: &[Value]| -> Result<Value, KernelError> {
        let s = scalar(&args[0]) + scalar(&args[1]);
        Ok(Value::Array(f32_array(&[], vec![s])))
    };
    let inits = [Value::Array(f32_array(&[], vec![0.0]))];
    let res = generic::reduce(
        m,
        n,
        &inits,
        &mut |o, t| Ok(vec![generic::scalar_at(&xa, o * n + t)?]),
        &mut call,
    )
    .unwrap();
    let got = generic::assemble(&res, 0, xlet_core::types::ElemType::F32, &[m]).unwrap();
    let want: Vec<f32> = (0..m)
        .map(|o| reference(&x[o * n..][..n], 0.0, add))
        .collect();
    assert_eq!(bits(&got.to_vec::<f32>()), bits(&want));

    // Variadic argmax: (max, index) pairs; ties keep the later index, as XLA's example does.
    let v = [3.0f32, 9.0, 1.0, 9.0, 2.0];
    let va = f32_array(&[1, 5], v.to_vec());
    let ia = Array::S32(Nd::from_shape_vec(IxDyn(&[1, 5]), vec![0, 1, 2, 3, 4]).unwrap());
    let mut argmax = |a: &[Value]| -> Result<Value, KernelError> {
        let (mx, vv) = (scalar(&a[0]), scalar(&a[2]));
        Ok(Value::tuple(if vv >= mx {
            vec![a[2].clone(), a[3].clone()]
        } else {
            vec![a[0].clone(), a[1].clone()]
        }))
    };
    let inits = [
        Value::Array(f32_array(&[], vec![f32::NEG_INFINITY])),
        Value::Array(Array::S32(Nd::from_elem(IxDyn(&[]), -1))),
    ];
    let res = generic::reduce(
        1,
        5,
        &inits,
        &mut |_, t| {
            Ok(vec![
                generic::scalar_at(&va, t)?,
                generic::scalar_at(&ia, t)?,
            ])
        },
        &mut argmax,
    )
    .unwrap();
    assert_eq!(scalar(&res[0][0]), 9.0);
    assert_eq!(res[0][1].as_array().unwrap().to_vec::<i32>(), vec![3]);
}

/// The reference window reduction: each output's window positions by index.
fn reference_window(
    g: &Geometry,
    x: &[f32],
    init: f32,
    f: impl Fn(f32, f32) -> f32 + Copy,
) -> Vec<f32> {
    let out_dims = g.out_dims().unwrap();
    let m: usize = out_dims.iter().product();
    let n = g.positions();
    let r = out_dims.len();
    let mut idx = vec![0; r];
    let mut scratch = vec![0; r];
    (0..m)
        .map(|mut o| {
            for d in (0..r).rev() {
                idx[d] = o % out_dims[d];
                o /= out_dims[d];
            }
            let elems: Vec<f32> = (0..n)
                .map(|k| {
                    g.source_offset(&idx, k, &mut scratch)
                        .map_or(init, |off| x[off])
                })
                .collect();
            reference(&elems, init, f)
        })
        .collect()
}

fn geom(
    in_dims: &[usize],
    window: &[usize],
    strides: &[usize],
    bd: &[usize],
    wd: &[usize],
    pad: &[(usize, usize)],
) -> Geometry {
    Geometry {
        in_dims: in_dims.to_vec(),
        window: window.to_vec(),
        strides: strides.to_vec(),
        base_dilations: bd.to_vec(),
        window_dilations: wd.to_vec(),
        padding: pad.to_vec(),
    }
}

#[test]
fn native_windows_match_reference() {
    let cases = [
        geom(
            &[4, 6],
            &[2, 3],
            &[2, 3],
            &[1, 1],
            &[1, 1],
            &[(0, 0), (0, 0)],
        ),
        geom(&[5], &[3], &[2], &[1], &[1], &[(1, 1)]),
        geom(
            &[3, 2],
            &[2, 1],
            &[4, 1],
            &[2, 1],
            &[3, 1],
            &[(2, 1), (0, 0)],
        ),
        geom(
            &[7, 9],
            &[3, 3],
            &[1, 2],
            &[2, 1],
            &[1, 2],
            &[(1, 2), (3, 0)],
        ),
        geom(
            &[2, 40, 33],
            &[1, 20, 20],
            &[1, 3, 1],
            &[1, 1, 1],
            &[1, 1, 1],
            &[(0, 0), (2, 2), (5, 5)],
        ),
        geom(
            &[3, 4],
            &[5, 5],
            &[1, 1],
            &[1, 1],
            &[1, 1],
            &[(0, 0), (0, 0)],
        ),
    ];
    for g in &cases {
        let n: usize = g.in_dims.iter().product();
        let x = data(n, 5);
        let m: usize = g.out_dims().unwrap().iter().product();
        let mut out = vec![0.0; m];
        window::reduce_window(g, &x, -0.75, &add, &mut out).unwrap();
        assert_eq!(
            bits(&out),
            bits(&reference_window(g, &x, -0.75, add)),
            "{g:?}"
        );
    }
    // The upstream min example: VALID [100, 1]; SAME pads one each side: [1000, 10, 1].
    let x = [10000.0f32, 1000.0, 100.0, 10.0, 1.0];
    let min = |a: f32, b: f32| crate::math::fmin(a, b);
    let mut out = vec![0.0; 2];
    window::reduce_window(
        &geom(&[5], &[3], &[2], &[1], &[1], &[(0, 0)]),
        &x,
        f32::MAX,
        &min,
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [100.0, 1.0]);
    assert_eq!(window::same_padding(5, 3, 2, 1, 1), Some((1, 1)));
    let mut out = vec![0.0; 3];
    window::reduce_window(
        &geom(&[5], &[3], &[2], &[1], &[1], &[(1, 1)]),
        &x,
        f32::MAX,
        &min,
        &mut out,
    )
    .unwrap();
    assert_eq!(out, [1000.0, 10.0, 1.0]);
}

#[test]
fn select_and_scatter_parallel_matches_serial() {
    let g = geom(
        &[3, 2, 9, 8],
        &[1, 1, 3, 2],
        &[1, 1, 2, 2],
        &[1; 4],
        &[1; 4],
        &[(0, 0), (0, 0), (1, 1), (0, 1)],
    );
    let x: Vec<f32> = data(3 * 2 * 9 * 8, 4)
        .into_iter()
        .map(|v| (v * 1e3).round())
        .collect();
    let od = g.out_dims().unwrap();
    let src = data(od.iter().product(), 8);
    let ge = |a: f32, b: f32| a >= b;
    let mut par = vec![0.0f32; x.len()];
    scatter::run_parallel(&g, &x, &src, &mut par, &ge, &add).unwrap();
    let mut ser = vec![0.0f32; x.len()];
    let ok = || Ok::<(), Infallible>(());
    scatter::run_serial(
        &g,
        &x,
        &src,
        &mut ser,
        &mut |a, b| Ok(ge(a, b)),
        &mut |a, b| Ok(add(a, b)),
        &ok,
    )
    .unwrap();
    assert_eq!(bits(&par), bits(&ser));
    // StableHLO's example: window 3x1, stride 2x1, padding {{0,1},{0,0}}.
    let g = geom(
        &[4, 2],
        &[3, 1],
        &[2, 1],
        &[1, 1],
        &[1, 1],
        &[(0, 1), (0, 0)],
    );
    let x = [1.0f32, 5.0, 2.0, 5.0, 3.0, 6.0, 4.0, 4.0];
    let src = [5.0f32, 6.0, 7.0, 8.0];
    let mut out = vec![0.0f32; 8];
    scatter::run_parallel(&g, &x, &src, &mut out, &ge, &add).unwrap();
    assert_eq!(out, [0.0, 0.0, 0.0, 0.0, 5.0, 14.0, 7.0, 0.0]);
}

/// Rough timings of the native kernels (run by hand: `--ignored --nocapture`).
#[test]
#[ignore]
fn timing() {
    let t = |name: &str, f: &mut dyn FnMut()| {
        f();
        let mut ms: Vec<f64> = (0..9)
            .map(|_| {
                let start = std::time::Instant::now();
                f();
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        println!("{name}: {:.3} ms (median of 9)", ms[4]);
    };
    let x = nd(&[4096, 4096], 1);
    t("add dim 1", &mut || {
        std::hint::black_box(reduce_with(&x, &[1], 0.0, add).unwrap());
    });
    t("add dim 0", &mut || {
        std::hint::black_box(reduce_with(&x, &[0], 0.0, add).unwrap());
    });
    let xs = x.as_slice().unwrap();
    let mut o = vec![0.0f32; 4096];
    for w in [256, 1024, 2048, 4096] {
        t(&format!("add dim 0 in tiles of {w}"), &mut || {
            let rows = Columns { x: xs, m: 4096 };
            native::columns_in_tiles(&rows, 4096, 4096, 0.0, &add, &mut o, w).unwrap();
        });
    }
    let g = geom(
        &[8, 64, 112, 112],
        &[1, 1, 2, 2],
        &[1, 1, 2, 2],
        &[1; 4],
        &[1; 4],
        &[(0, 0); 4],
    );
    let xw = data(8 * 64 * 112 * 112, 2);
    let mut out = vec![0.0f32; 8 * 64 * 56 * 56];
    let max = |a: f32, b: f32| crate::math::fmax(a, b);
    t("window max 2x2", &mut || {
        window::reduce_window(&g, &xw, f32::NEG_INFINITY, &max, &mut out).unwrap();
    });
    t("window max 2x2, general path", &mut || {
        window::reduce_window_general(&g, &xw, f32::NEG_INFINITY, &max, &mut out).unwrap();
    });
    let src = data(8 * 64 * 56 * 56, 3);
    let mut o2 = vec![0.0f32; xw.len()];
    let ge = |a: f32, b: f32| a >= b;
    t("select and scatter", &mut || {
        o2.iter_mut().for_each(|v| *v = 0.0);
        scatter::run_parallel(&g, &xw, &src, &mut o2, &ge, &add).unwrap();
    });
}

#[test]
fn select_and_scatter_visits_only_operand_positions() {
    // A window of 2^40 positions with SAME padding over 3 elements: every
    // window covers the whole operand (padding is never selected), so each
    // source value lands on the maximum. Visiting every window position (or
    // tabulating them) would take hours or terabytes.
    let w = 1usize << 40;
    let pad = window::same_padding(3, w, 1, 1, 1).unwrap();
    let g = geom(&[3], &[w], &[1], &[1], &[1], &[pad]);
    assert_eq!(g.out_dims(), Some(vec![3]));
    let x = [1.0f32, 7.0, 3.0];
    let src = [10.0f32, 20.0, 40.0];
    let ge = |a: f32, b: f32| a >= b;
    let mut out = vec![0.0f32; 3];
    scatter::run_parallel(&g, &x, &src, &mut out, &ge, &add).unwrap();
    assert_eq!(out, [0.0, 70.0, 0.0]);
}

/// Skipping the padding outside the live range builds exactly the tree of
/// visiting every element (a string shows the tree's shape).
#[test]
fn reduce_window_skipping_padding_keeps_the_tree() {
    let mut f = |a: String, b: String| Ok::<_, std::convert::Infallible>(format!("({a} {b})"));
    let ns = [
        1usize,
        5,
        255,
        256,
        257,
        511,
        512,
        700,
        1024,
        3 * 256 + 7,
        9000,
    ];
    for &n in &ns {
        let cuts = [0, 1, 17, 255, 256, 300, 513, n / 2, n.saturating_sub(1), n];
        for &a in &cuts {
            for &b in &cuts {
                if a > n || b > n || a > b {
                    continue;
                }
                let live = a..b;
                let mut get = |t: usize| {
                    Ok::<_, std::convert::Infallible>(if live.contains(&t) {
                        format!("x{t}")
                    } else {
                        "p".to_string()
                    })
                };
                let want = order::reduce(n, "i".to_string(), &mut get, &mut f);
                let got = order::reduce_skipping(
                    n,
                    "i".to_string(),
                    (live.clone(), &"p".to_string()),
                    &mut get,
                    &mut f,
                );
                assert_eq!(got, want, "n {n}, live {live:?}");
            }
        }
    }
}
