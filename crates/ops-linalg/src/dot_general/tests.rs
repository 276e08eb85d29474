//! The kernel against the spec's formula summed in f64 (or in wrapping
//! integers), on random dimension numbers and on operands laid out
//! row-major, transposed, reversed and broadcast.

use super::kernel::merge;
use super::{DotDims, checked};
use ndarray::{ArrayD, Axis, IxDyn};
use xlet_core::test_support::Rng;
use xlet_core::types::{ArrayType, ElemType};
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_ir::Kernel;
use xlet_ir::test_support::NoCalls;

/// Random dimension numbers: `nb` batch and `nc` contracting pairs, `lf` and
/// `rf` free dimensions, all placed in random positions of each operand.
fn random_case(rng: &mut Rng) -> (Vec<usize>, Vec<usize>, DotDims) {
    let nb = rng.below(3);
    let nc = rng.below(3);
    let (lf, rf) = (rng.below(3), rng.below(3));
    let sizes: Vec<usize> = (0..nb + nc + lf + rf).map(|_| 1 + rng.below(5)).collect();
    let shuffle = |rng: &mut Rng, n: usize| {
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            p.swap(i, rng.below(i + 1));
        }
        p
    };
    // Logical roles: lhs = batch, contracting, free; rhs = batch, contracting, free.
    let lperm = shuffle(rng, nb + nc + lf);
    let rperm = shuffle(rng, nb + nc + rf);
    let mut ldims = vec![0; nb + nc + lf];
    let mut rdims = vec![0; nb + nc + rf];
    for (role, &pos) in lperm.iter().enumerate() {
        ldims[pos] = sizes[role];
    }
    for (role, &pos) in rperm.iter().enumerate() {
        let s = if role < nb + nc {
            sizes[role]
        } else {
            sizes[nb + nc + lf + role - nb - nc]
        };
        rdims[pos] = s;
    }
    let d = DotDims {
        lhs_batch: lperm[..nb].to_vec(),
        rhs_batch: rperm[..nb].to_vec(),
        lhs_contracting: lperm[nb..nb + nc].to_vec(),
        rhs_contracting: rperm[nb..nb + nc].to_vec(),
    };
    (ldims, rdims, d)
}

/// The spec's formula, one result element at a time, summed by `add`/`mul`.
fn reference<T: Copy, A: Copy>(
    l: &ArrayD<T>,
    r: &ArrayD<T>,
    d: &DotDims,
    out_dims: &[usize],
    zero: A,
    mac: impl Fn(A, T, T) -> A,
) -> Vec<A> {
    let free = |rank: usize, a: &[usize], b: &[usize]| -> Vec<usize> {
        (0..rank)
            .filter(|x| !a.contains(x) && !b.contains(x))
            .collect()
    };
    let lf = free(l.ndim(), &d.lhs_batch, &d.lhs_contracting);
    let rf = free(r.ndim(), &d.rhs_batch, &d.rhs_contracting);
    let csizes: Vec<usize> = d.lhs_contracting.iter().map(|&x| l.shape()[x]).collect();
    let ncon: usize = csizes.iter().product();
    let total: usize = out_dims.iter().product();
    let mut out = vec![];
    let mut idx = vec![0; out_dims.len()];
    for flat in 0..total {
        let mut q = flat;
        for a in (0..idx.len()).rev() {
            idx[a] = q % out_dims[a];
            q /= out_dims[a];
        }
        let (nb, nl) = (d.lhs_batch.len(), lf.len());
        let mut li = vec![0; l.ndim()];
        let mut ri = vec![0; r.ndim()];
        for t in 0..nb {
            li[d.lhs_batch[t]] = idx[t];
            ri[d.rhs_batch[t]] = idx[t];
        }
        for (t, &x) in lf.iter().enumerate() {
            li[x] = idx[nb + t];
        }
        for (t, &x) in rf.iter().enumerate() {
            ri[x] = idx[nb + nl + t];
        }
        let mut acc = zero;
        for c in 0..ncon {
            let mut q = c;
            for t in (0..csizes.len()).rev() {
                li[d.lhs_contracting[t]] = q % csizes[t];
                ri[d.rhs_contracting[t]] = q % csizes[t];
                q /= csizes[t];
            }
            acc = mac(acc, l[IxDyn(&li)], r[IxDyn(&ri)]);
        }
        out.push(acc);
    }
    out
}

/// The same values in four layouts: as built, a transposed copy read back
/// through a reversed permutation, reversed along every axis twice, and with
/// the first axis broadcast from size 1 when it has size 1.
fn layouts<T: Copy + Default>(a: &ArrayD<T>) -> Vec<(&'static str, Nd<T>)> {
    let n = a.ndim();
    let rev: Vec<usize> = (0..n).rev().collect();
    let transposed = a
        .clone()
        .permuted_axes(IxDyn(&rev))
        .as_standard_layout()
        .to_owned();
    let back = transposed.permuted_axes(IxDyn(&rev));
    let mut reversed = a.clone();
    for ax in 0..n {
        reversed.invert_axis(Axis(ax));
    }
    let mut reversed = reversed.as_standard_layout().to_owned();
    for ax in 0..n {
        reversed.invert_axis(Axis(ax));
    }
    vec![
        ("row-major", a.clone().into_shared()),
        ("transposed", back.into_shared()),
        ("reversed", reversed.into_shared()),
    ]
}

fn run<T: Elem>(k: &dyn Kernel, l: Nd<T>, r: Nd<T>) -> Array {
    let v = k
        .run(
            &[Value::Array(T::wrap(l)), Value::Array(T::wrap(r))],
            &NoCalls,
        )
        .unwrap();
    v.as_array().unwrap().clone()
}

#[test]
fn random_dimension_numbers_match_the_formula() {
    let mut rng = Rng::new(0x9E3779B97F4A7C15);
    for case in 0..300 {
        let (ld, rd, d) = random_case(&mut rng);
        let fill = |rng: &mut Rng, dims: &[usize]| {
            let n: usize = dims.iter().product();
            ArrayD::from_shape_vec(IxDyn(dims), (0..n).map(|_| rng.next_u64() as i32).collect())
                .unwrap()
        };
        let (l, r) = (fill(&mut rng, &ld), fill(&mut rng, &rd));
        // Integers: exact, wrapping.
        let c = checked(
            &ArrayType::new(ElemType::S32, ld.clone()),
            &ArrayType::new(ElemType::S32, rd.clone()),
            &d,
            ElemType::S32,
        );
        let out_dims = c.ty.as_array().unwrap().dims.clone();
        let want = reference(&l, &r, &d, &out_dims, 0i32, |a, x, y| {
            a.wrapping_add(x.wrapping_mul(y))
        });
        for (nl, lv) in layouts(&l) {
            for (nr, rv) in layouts(&r) {
                let got = run(&*c.kernel, lv.clone(), rv.clone());
                assert_eq!(got.dims(), &out_dims[..], "case {case}");
                assert_eq!(
                    got.to_vec::<i32>(),
                    want,
                    "case {case}: {d:?} {ld:?} {rd:?} lhs {nl} rhs {nr}"
                );
            }
        }
        // f32 with small integer values: every sum is exact, so must equal.
        let lf = l.mapv(|x| (x % 17) as f32);
        let rf = r.mapv(|x| (x % 13) as f32);
        let c = checked(
            &ArrayType::new(ElemType::F32, ld.clone()),
            &ArrayType::new(ElemType::F32, rd.clone()),
            &d,
            ElemType::F32,
        );
        let want = reference(&lf, &rf, &d, &out_dims, 0f64, |a, x, y| {
            a + x as f64 * y as f64
        });
        let got = run(&*c.kernel, lf.into_shared(), rf.transpose_back_then_view());
        let got: Vec<f64> = got.to_vec::<f64>();
        assert_eq!(got, want, "case {case} f32");
    }
}

/// A helper trait so the test reads as what it does: an operand laid out
/// column-major (the reverse of its dimensions) and viewed back.
trait TransposedView<T> {
    fn transpose_back_then_view(&self) -> Nd<T>;
}
impl<T: Copy + Default> TransposedView<T> for ArrayD<T> {
    fn transpose_back_then_view(&self) -> Nd<T> {
        layouts(self).swap_remove(1).1
    }
}

#[test]
fn half_types_accumulate_in_f32_and_round_once() {
    // 2048 + 1 + 1 in f16: summed in f16 step by step, 2048 + 1 = 2048 (ties
    // to even) twice gives 2048; in f32 it is 2050, which f16 holds exactly.
    use half::f16;
    let l = ArrayD::from_shape_vec(IxDyn(&[3]), vec![f16::from_f32(2048.0), f16::ONE, f16::ONE])
        .unwrap();
    let r = ArrayD::from_elem(IxDyn(&[3]), f16::ONE);
    let d = DotDims {
        lhs_contracting: vec![0],
        rhs_contracting: vec![0],
        ..DotDims::default()
    };
    let c = checked(
        &ArrayType::new(ElemType::F16, vec![3]),
        &ArrayType::new(ElemType::F16, vec![3]),
        &d,
        ElemType::F16,
    );
    let got = run(&*c.kernel, l.into_shared(), r.into_shared());
    assert_eq!(got.to_vec::<f32>(), vec![2050.0]);
}

#[test]
fn group_merging_is_a_view_only_when_strides_allow() {
    // Row-major [2, 3]: strides (3, 1) merge into 6 elements of stride 1.
    assert_eq!(merge(&[2, 3], &[3, 1]), Some((6, 1)));
    // Transposed: (1, 2) do not.
    assert_eq!(merge(&[2, 3], &[1, 2]), None);
    // Size-1 dimensions never block a merge; an empty group is one element.
    assert_eq!(merge(&[2, 1, 3], &[3, 99, 1]), Some((6, 1)));
    assert_eq!(merge(&[], &[]), Some((1, 0)));
    // Broadcast dimensions (stride 0) merge with each other.
    assert_eq!(merge(&[4, 5], &[0, 0]), Some((20, 0)));
}
