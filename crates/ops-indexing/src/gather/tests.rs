//! The kernel against a reference written straight from the spec's formula
//! (spec/ops/gather.md), on random dimension numbers and on operands laid out
//! row-major, transposed, strided and reversed.

use super::kernel::{Plan, gather};
use crate::index_dims::IndexSpace;
use ndarray::{ArrayD, IxDyn, Slice};
use xlet_core::test_support::Rng;
use xlet_core::value::{Array, Nd};

/// result[r] = operand[full_start + full_batching + full_offset], each term as
/// the spec defines it, one element at a time.
fn reference(p: &Plan, x: &Nd<i32>, idx: &ArrayD<i64>) -> Vec<i32> {
    let s = &p.space;
    let n: usize = p.result_dims.iter().product();
    let mut out = vec![];
    let mut r = vec![0usize; p.result_dims.len()];
    for flat in 0..n {
        let mut q = flat;
        for d in (0..r.len()).rev() {
            r[d] = q % p.result_dims[d];
            q /= p.result_dims[d];
        }
        let batch: Vec<usize> = p.batch_out.iter().map(|&d| r[d]).collect();
        let offset: Vec<usize> = p.offset_dims.iter().map(|&d| r[d]).collect();
        // start_indices[b0, ..., :, ..., bn] with ':' at index_vector_dim.
        let start_vec: Vec<i64> = (0..s.start_map.len())
            .map(|k| {
                let mut ii = batch.clone();
                if s.ivd < s.idx_dims.len() {
                    ii.insert(s.ivd, k);
                }
                idx[IxDyn(&ii)]
            })
            .collect();
        let rank = p.operand_dims.len();
        let mut full = vec![0i64; rank];
        for (k, &d) in s.start_map.iter().enumerate() {
            let hi = (p.operand_dims[d] - p.slice_sizes[d]) as i64;
            full[d] = start_vec[k].clamp(0, hi);
        }
        for &(od, id) in &s.batching {
            let j = if id < s.ivd { id } else { id - 1 };
            full[od] += batch[j] as i64;
        }
        for (k, &d) in p.kept.iter().enumerate() {
            full[d] += offset[k] as i64;
        }
        let at: Vec<usize> = full.iter().map(|&v| v as usize).collect();
        out.push(x[IxDyn(&at)]);
    }
    out
}

/// Random valid dimension numbers for an operand of `dims`.
fn random_plan(rng: &mut Rng, dims: &[usize]) -> (Plan, Vec<usize>) {
    let rank = dims.len();
    // Each operand dimension: kept, collapsed, or (at most one) batching.
    let mut kept = vec![];
    let mut collapsed = vec![];
    let mut op_batch = None;
    for d in 0..rank {
        match rng.below(4) {
            0 => collapsed.push(d),
            1 if op_batch.is_none() => op_batch = Some(d),
            _ => kept.push(d),
        }
    }
    let mut start_map: Vec<usize> = (0..rank).filter(|&d| Some(d) != op_batch).collect();
    for i in (1..start_map.len()).rev() {
        start_map.swap(i, rng.below(i + 1));
    }
    start_map.truncate(rng.below(start_map.len() + 1));
    // Index array: a batch dimension or two, a batching one, the vector dim.
    let mut batch_sizes: Vec<usize> = (0..rng.below(3)).map(|_| 1 + rng.below(3)).collect();
    let mut bat_pos = None;
    if let Some(od) = op_batch {
        let at = rng.below(batch_sizes.len() + 1);
        batch_sizes.insert(at, dims[od]);
        bat_pos = Some(at);
    }
    let implicit = start_map.len() == 1 && rng.below(2) == 0;
    let ivd = if implicit {
        batch_sizes.len()
    } else {
        rng.below(batch_sizes.len() + 1)
    };
    let mut idx_dims = batch_sizes.clone();
    if !implicit {
        idx_dims.insert(ivd, start_map.len());
    }
    let batching = match (op_batch, bat_pos) {
        (Some(od), Some(j)) => vec![(od, if j < ivd || implicit { j } else { j + 1 })],
        _ => vec![],
    };
    let sizes: Vec<usize> = (0..rank)
        .map(|d| {
            if kept.contains(&d) {
                rng.below(dims[d] + 1)
            } else {
                1
            }
        })
        .collect();
    let out_rank = kept.len() + batch_sizes.len();
    let mut offset_dims: Vec<usize> = (0..out_rank).collect();
    while offset_dims.len() > kept.len() {
        offset_dims.remove(rng.below(offset_dims.len()));
    }
    let space = IndexSpace {
        idx_dims,
        ivd,
        start_map,
        batching,
        operand_rank: rank,
    };
    (
        Plan::new(space, dims.to_vec(), sizes, offset_dims, kept),
        batch_sizes,
    )
}

/// The operand in four layouts with the same values.
fn layouts(dims: &[usize], rng: &mut Rng) -> Vec<Nd<i32>> {
    let n: usize = dims.iter().product();
    let base = ArrayD::from_shape_vec(IxDyn(dims), (0..n as i32).collect()).unwrap();
    let mut out = vec![base.clone().into_shared()];
    // Transposed storage: reversed axes, copied, then viewed back.
    let rev: Vec<usize> = (0..dims.len()).rev().collect();
    let t = base
        .clone()
        .permuted_axes(rev.clone())
        .as_standard_layout()
        .to_owned();
    out.push(t.permuted_axes(rev).into_shared());
    // Every other element of a twice as large array along dimension 0.
    if !dims.is_empty() {
        let mut big_dims = dims.to_vec();
        big_dims[0] *= 2;
        let mut big = ArrayD::<i32>::from_elem(IxDyn(&big_dims), -1);
        big.slice_axis_mut(ndarray::Axis(0), Slice::new(0, None, 2))
            .assign(&base);
        out.push(
            big.slice_axis(ndarray::Axis(0), Slice::new(0, None, 2))
                .to_shared(),
        );
        // Reversed along the last dimension.
        let last = dims.len() - 1;
        let mut r = base.clone();
        r.invert_axis(ndarray::Axis(last));
        let mut v = r.as_standard_layout().to_owned();
        v.invert_axis(ndarray::Axis(last));
        out.push(v.into_shared());
    }
    let _ = rng;
    out
}

#[test]
fn kernel_matches_reference_on_random_dimension_numbers() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for case in 0..400 {
        let rank = 1 + rng.below(3);
        let dims: Vec<usize> = (0..rank).map(|_| 1 + rng.below(4)).collect();
        let (plan, _) = random_plan(&mut rng, &dims);
        let ni: usize = plan.space.idx_dims.iter().product();
        // Starts from -2 to dim + 2: some are clamped.
        let vals: Vec<i64> = (0..ni).map(|_| rng.below(9) as i64 - 2).collect();
        let idx = ArrayD::from_shape_vec(IxDyn(&plan.space.idx_dims), vals.clone()).unwrap();
        for x in layouts(&dims, &mut rng) {
            let want = reference(&plan, &x, &idx);
            let got = gather(&plan, &x, &vals).unwrap();
            let Array::S32(g) = got else { panic!() };
            assert_eq!(
                g.shape(),
                plan.result_dims.as_slice(),
                "case {case}: {plan:?}"
            );
            assert_eq!(
                g.iter().copied().collect::<Vec<_>>(),
                want,
                "case {case}: {plan:?}"
            );
        }
    }
}

#[test]
fn parallel_rows_match_reference() {
    // Whole rows above the grain size: the parallel memcpy path.
    let dims = [300usize, 130];
    let space = IndexSpace {
        idx_dims: vec![700],
        ivd: 1,
        start_map: vec![0],
        batching: vec![],
        operand_rank: 2,
    };
    let plan = Plan::new(space, dims.to_vec(), vec![1, 130], vec![1], vec![1]);
    let mut rng = Rng::new(7);
    let vals: Vec<i64> = (0..700).map(|_| rng.below(320) as i64 - 10).collect();
    let idx = ArrayD::from_shape_vec(IxDyn(&[700]), vals.clone()).unwrap();
    for x in layouts(&dims, &mut rng) {
        let Array::S32(g) = gather(&plan, &x, &vals).unwrap() else {
            panic!()
        };
        assert_eq!(
            g.iter().copied().collect::<Vec<_>>(),
            reference(&plan, &x, &idx)
        );
    }
}
