use super::plan::plan;
use super::*;
use ndarray::{ArrayD, Axis, IxDyn};

fn arr(dims: &[usize], start: i64) -> Nd<i64> {
    let n: usize = dims.iter().product();
    ArrayD::from_shape_vec(IxDyn(dims), (0..n as i64).map(|x| x + start).collect())
        .unwrap()
        .into_shared()
}

fn check_against_reference(out: &[usize], a: &Src<i64>, b: &Src<i64>) {
    let fast = map2(out, a, b, |x, y| x * 1000 + y).unwrap();
    let slow = reference_map2(out, a, b, |x, y| x * 1000 + y).unwrap();
    assert_eq!(fast, slow, "dims {out:?}");
}

#[test]
fn fast_engine_matches_reference_on_broadcasts_and_views() {
    // Same shape, contiguous; large enough to go parallel.
    let x = arr(&[300, 257], 0);
    let y = arr(&[300, 257], 7);
    check_against_reference(&[300, 257], &Src::of(&x), &Src::of(&y));
    // Row vector and column vector broadcasts (stride 0 inner and outer).
    let v = arr(&[257], 3);
    let c = arr(&[300, 1], 5);
    check_against_reference(
        &[300, 257],
        &Src::broadcast_in_dim(&v, 2, &[1]),
        &Src::broadcast_in_dim(&c, 2, &[0, 1]),
    );
    // Outer product of [2,1] and [1,3] into [2,3] (the docs' case).
    let p = arr(&[2, 1], 1);
    let q = arr(&[1, 3], 10);
    check_against_reference(
        &[2, 3],
        &Src::broadcast_in_dim(&p, 2, &[0, 1]),
        &Src::broadcast_in_dim(&q, 2, &[0, 1]),
    );
    // Transposed and reversed operands.
    let mut t = arr(&[64, 48, 5], 0);
    t = t.permuted_axes(IxDyn(&[2, 0, 1]));
    let mut r = arr(&[5, 64, 48], 11);
    r.invert_axis(Axis(1));
    check_against_reference(&[5, 64, 48], &Src::of(&t), &Src::of(&r));
    // Rank 0 and empty.
    let s = arr(&[], 4);
    check_against_reference(&[], &Src::of(&s), &Src::of(&s));
    let e = arr(&[3, 0], 0);
    check_against_reference(&[3, 0], &Src::of(&e), &Src::of(&e));
    // A transposed operand large enough for the tiled walk, beside a contiguous one.
    let t = arr(&[257, 300], 0).permuted_axes(IxDyn(&[1, 0]));
    check_against_reference(&[300, 257], &Src::of(&t), &Src::of(&x));
}

/// Every permutation of 0..n.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = vec![];
    for p in permutations(n - 1) {
        for i in 0..=p.len() {
            let mut q = p.clone();
            q.insert(i, n - 1);
            out.push(q);
        }
    }
    out
}

/// Views of `base` over `dims`: every permutation, each also with its first and
/// last axes reversed, and with every other element of the last axis.
fn views<T: Clone>(base: &Nd<T>) -> Vec<Nd<T>> {
    let rank = base.ndim();
    let mut out = vec![];
    for p in permutations(rank) {
        let v = base.clone().permuted_axes(IxDyn(&p));
        out.push(v.clone());
        let mut r = v.clone();
        r.invert_axis(Axis(0));
        r.invert_axis(Axis(rank - 1));
        out.push(r);
        out.push(
            v.slice_axis(Axis(rank - 1), ndarray::Slice::new(0, None, 2))
                .to_shared(),
        );
    }
    out
}

fn check_all<T>(base_dims: &[usize], make: impl Fn(i64) -> T)
where
    T: Copy + Send + Sync + PartialEq + std::fmt::Debug,
{
    let n: usize = base_dims.iter().product();
    let base = ArrayD::from_shape_vec(IxDyn(base_dims), (0..n as i64).map(&make).collect())
        .unwrap()
        .into_shared();
    for v in views(&base) {
        let dims = v.shape().to_vec();
        let m: usize = dims.iter().product();
        let a = Src::of(&v);
        // The same layout contiguous, for a second operand.
        let c = ArrayD::from_shape_vec(IxDyn(&dims), (7..m as i64 + 7).map(&make).collect())
            .unwrap()
            .into_shared();
        let b = Src::of(&c);
        // A stride-0 operand: the first row of c broadcast along dimension 0.
        let row = c.index_axis(Axis(0), 0).to_owned().into_shared();
        let map: Vec<usize> = (1..dims.len()).collect();
        let z = Src::broadcast_in_dim(&row, dims.len(), &map);
        let id = |x: T, _: T| x;
        assert_eq!(
            map1(&dims, &a, |x| x).unwrap(),
            reference_map2(&dims, &a, &a, id).unwrap(),
            "map1 {dims:?} strides {:?}",
            v.strides()
        );
        assert_eq!(
            try_materialize(&dims, &a).unwrap(),
            reference_map2(&dims, &a, &a, id).unwrap(),
            "materialize {dims:?} strides {:?}",
            v.strides()
        );
        let pair = |x: T, y: T| (x, y);
        assert_eq!(
            map2(&dims, &a, &b, pair).unwrap(),
            reference_map2(&dims, &a, &b, pair).unwrap()
        );
        assert_eq!(
            map2(&dims, &z, &a, pair).unwrap(),
            reference_map2(&dims, &z, &a, pair).unwrap()
        );
        let triple = |x: T, y: T, w: T| (x, y, w);
        assert_eq!(
            map3(&dims, &b, &z, &a, triple).unwrap(),
            reference_map3(&dims, &b, &z, &a, triple).unwrap()
        );
    }
}

#[test]
fn tiled_engine_matches_reference_on_every_permutation_and_reversal() {
    // Sizes above the parallel grain, not multiples of the 64-element tile edge,
    // so blocks at the edges are partial. One element type per size class
    // (the tile copy moves elements by their byte size).
    check_all(&[300, 131], |x| x as f32);
    check_all(&[3, 130, 97], |x| x);
    check_all(&[5, 3, 70, 67], |x| x as u8);
    check_all(&[3, 3, 70, 67], |x| x as u16);
    check_all(&[3, 3, 70, 67], |x| x % 3 == 0);
    // Small ones run on the calling thread through the plain walk.
    check_all(&[3, 5], |x| x as i32);
    check_all(&[2, 3, 4, 5], |x| x as f64);
}

#[test]
fn streamed_tiles_in_read_order_match_reference() {
    // The path outputs of 16 MiB and more take (streaming stores, blocks in the
    // worst operand's order), reached here with small arrays. Other tests that
    // run meanwhile may take it too; their results are the same.
    super::stream::ALWAYS.store(true, std::sync::atomic::Ordering::Relaxed);
    check_all(&[300, 131], |x| x as f32);
    check_all(&[3, 130, 97], |x| x);
    check_all(&[3, 3, 70, 67], |x| x as u16);
    super::stream::ALWAYS.store(false, std::sync::atomic::Ordering::Relaxed);
}

#[test]
fn read_order_visits_every_block_once() {
    // f32[64x64x64x64] transposed by {3, 2, 1, 0}, padded to make edges ragged.
    let dims = [70, 64, 3, 100];
    let strides: [isize; 4] = [1, 100, 6400, 19200];
    let blocks = |t: &Tiling| {
        let mut offs = [0isize];
        let mut v: Vec<(usize, usize, usize, isize)> = (0..t.blocks)
            .map(|b| {
                let (o, r, c) = t.block(b, &mut offs);
                (o, r, c, offs[0])
            })
            .collect();
        v.sort();
        v
    };
    let row_major = Tiling::new(&dims, &[&strides], &[4]).unwrap();
    let mut read = Tiling::new(&dims, &[&strides], &[4]).unwrap();
    read.visit_in_read_order();
    // j (the operand's contiguous dimension) varies first.
    assert_eq!(read.order[0], read.j);
    let (a, b) = (blocks(&row_major), blocks(&read));
    assert_eq!(a, b);
    let mut outs: Vec<usize> = a.iter().map(|x| x.0).collect();
    outs.dedup();
    assert_eq!(outs.len(), a.len(), "a block visited twice");
    // Beside an operand read in place along i, i stays first.
    let rank2 = [&[1isize, 4096][..], &[4096, 1][..]];
    let mut t = Tiling::new(&[4096, 4096], &rank2, &[4, 4]).unwrap();
    t.visit_in_read_order();
    assert_eq!(t.order[0], t.i);
    let mut t = Tiling::new(&[4096, 4096], &rank2[..1], &[4]).unwrap();
    t.visit_in_read_order();
    assert_eq!(t.order, [t.j, t.i]);
}

#[test]
fn a_transposed_operand_is_tiled_and_a_contiguous_one_is_not() {
    let t = Tiling::new(&[4096, 4096], &[&[1, 4096]], &[4]).unwrap();
    assert!(t.needs_buffer(0));
    // Square tiles of the side this machine's L2 gives (tiling::tile_edge).
    let edge = super::tiling::tile_edge(crate::machine::caches().l2, 4);
    assert_eq!((t.tj, t.ti), (edge, edge));
    assert!(Tiling::new(&[4096, 4096], &[&[4096, 1]], &[4]).is_none());
    // Reversed and every-other-element views are read well in row order.
    assert!(Tiling::new(&[4096, 4096], &[&[-4096, -1]], &[4]).is_none());
    assert!(Tiling::new(&[4096, 4096], &[&[8192, 2]], &[4]).is_none());
    // A broadcast operand beside a transposed one is read in place.
    let t = Tiling::new(&[64, 64, 64], &[&[4096, 1, 64], &[0, 64, 1]], &[4, 4]).unwrap();
    assert!(t.needs_buffer(0) && !t.needs_buffer(1));
    assert_eq!(t.j, 1);
}

#[test]
fn coalescing_merges_contiguous_dims() {
    let p = plan(&[4, 5, 6], [&[30, 6, 1], &[0, 6, 1]]);
    assert_eq!(p.dims, vec![4, 30]);
    let p = plan(&[4, 1, 6], [&[6, 6, 1]]);
    assert_eq!(p.dims, vec![24]);
}

/// The typed entry points are safe functions: a view that does not fit the
/// output is an error, never a read outside the operand.
#[test]
fn views_that_do_not_fit_are_refused() {
    let a = ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[2, 3]), (0..6).collect::<Vec<i32>>())
        .unwrap()
        .into_shared();
    let src = Src::of(&a);
    assert!(map1(&[2, 3], &src, |x| x).is_ok());
    assert!(
        map1(&[2, 4], &src, |x| x).is_err(),
        "longer than the operand"
    );
    assert!(map1(&[6], &src, |x| x).is_err(), "another rank");
    assert!(map1(&[0, 9], &src, |x| x).is_ok(), "empty: reads nothing");
    let row = ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[3]), vec![1, 2, 3])
        .unwrap()
        .into_shared();
    let b = Src::broadcast_in_dim(&row, 2, &[1]);
    assert!(map2(&[5, 3], &src, &b, |x, y| x + y).is_err());
    assert!(map1(&[5, 3], &b, |y| y).is_ok(), "broadcast rows");
    assert!(map1(&[5, 4], &b, |y| y).is_err());
    let twice = Src::broadcast_in_dim(&row, 2, &[1, 1]);
    assert!(
        map1(&[3, 3], &twice, |y| y).is_err(),
        "a map of the wrong length"
    );
}

#[test]
fn tile_edges_follow_the_l2_size() {
    use super::tiling::tile_edge;
    // Zen 3 and Zen 1 (512 KiB): 128 x 128 f32 (64 KiB), 64 x 64 f64 (32 KiB).
    assert_eq!(tile_edge(512 << 10, 4), 128);
    assert_eq!(tile_edge(512 << 10, 8), 64);
    // Zen 4 (1 MiB) and 2 MiB Xeons.
    assert_eq!(tile_edge(1 << 20, 4), 128);
    assert_eq!(tile_edge(1 << 20, 8), 128);
    assert_eq!(tile_edge(2 << 20, 4), 256);
    // A tiny cache still gets 16 x 16.
    assert_eq!(tile_edge(4 << 10, 8), 16);
}
