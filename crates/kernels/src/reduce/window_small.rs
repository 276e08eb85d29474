//! Small windows over the last two dimensions (pooling: a 2x2 or 3x3 max over
//! images, every other dimension a window of 1), the fast path of
//! `window::reduce_window` (issue 26: the 2x2/2 max-pool of f32[8x64x112x112]
//! ran 1.8x jax.jit's time through the general tile kernel, whose per-row
//! bookkeeping cost more than the four reads and three maxima per output).
//!
//! When a window has at most `LANES` positions, its elements form one block in
//! which each lane holds one element, so the order of spec/ops/reduce.md is
//! just the level-by-level pairing of the positions (row-major over the window),
//! then `f(init, tree)`. Here each output row (all output indices fixed but the
//! last) gathers one row of elements per window position (padding reads the
//! init value, as in the general path) and the rows are paired elementwise
//! across the outputs. The tests compare it with the general path bit for bit.

use super::native::pair_into;
use super::order::LANES;
use super::window::Geometry;
use crate::strided::Check;
use rayon::prelude::*;
use xlet_core::error::KernelError;

/// The most elements of lane rows a task holds (256 KiB of f32).
const MAX_LANE_ELEMS: usize = 1 << 16;

/// The window's shape as this kernel sees it: the operand as `[outer, h, w]`.
struct Plan {
    h: usize,
    w: usize,
    /// Per dimension (rows, columns): window, stride, window dilation, low padding.
    win: [usize; 2],
    stride: [usize; 2],
    dil: [usize; 2],
    lo: [usize; 2],
    out_h: usize,
    out_w: usize,
}

/// Whether the fast path takes `g` (with output dims `out_dims`), and its plan.
fn plan(g: &Geometry, out_dims: &[usize]) -> Option<Plan> {
    let r = g.in_dims.len();
    if r < 2 || g.positions_checked()? > LANES || g.base_dilations.iter().any(|&b| b != 1) {
        return None;
    }
    // Every dimension before the last two: one element per window, one window per element.
    for d in 0..r - 2 {
        if g.window[d] != 1 || g.strides[d] != 1 || g.padding[d] != (0, 0) {
            return None;
        }
    }
    let (a, b) = (r - 2, r - 1);
    // The lane rows (one per window position, an output row long) stay a
    // small scratch: a very wide row goes the general way, in tiles.
    if out_dims[b].saturating_mul(g.positions()) > MAX_LANE_ELEMS {
        return None;
    }
    Some(Plan {
        h: g.in_dims[a],
        w: g.in_dims[b],
        win: [g.window[a], g.window[b]],
        stride: [g.strides[a], g.strides[b]],
        dil: [g.window_dilations[a], g.window_dilations[b]],
        lo: [g.padding[a].0, g.padding[b].0],
        out_h: out_dims[a],
        out_w: out_dims[b],
    })
}

/// The window reduction by the small-window path, or None when it does not apply
/// (the caller then takes the general path). `out` has the output's length.
pub fn try_reduce_window<T: Copy + Send + Sync, F: Fn(T, T) -> T + Sync>(
    g: &Geometry,
    out_dims: &[usize],
    x: &[T],
    init: T,
    f: &F,
    out: &mut [T],
) -> Option<Result<(), KernelError>> {
    let p = plan(g, out_dims)?;
    let ow = p.out_w;
    if ow == 0 || out.is_empty() {
        return Some(Ok(()));
    }
    let n = p.win[0] * p.win[1];
    // Output rows per task: about 16K elements read.
    let rows_per_task = (16384 / (ow * n).max(1)).max(1);
    Some(
        out.par_chunks_mut(ow * rows_per_task)
            .enumerate()
            .try_for_each_init(
                || vec![init; n * ow],
                |lanes, (task, chunk)| {
                    Check::Interrupts.now()?;
                    for (i, row) in chunk.chunks_mut(ow).enumerate() {
                        let r = task * rows_per_task + i;
                        out_row(&p, x, r / p.out_h, r % p.out_h, init, f, lanes, row);
                    }
                    Ok(())
                },
            ),
    )
}

/// Output row `oh` of image `b`: one lane row per window position, then the
/// pairing of the lanes.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn out_row<T: Copy, F: Fn(T, T) -> T>(
    p: &Plan,
    x: &[T],
    b: usize,
    oh: usize,
    init: T,
    f: &F,
    lanes: &mut [T],
    row: &mut [T],
) {
    let ow = row.len();
    let image = &x[b * p.h * p.w..][..p.h * p.w];
    let (sw, dw, lw) = (p.stride[1], p.dil[1], p.lo[1]);
    // Output j reads column j*sw + c*dw - lw for window column c: in range for
    // j in cols(c) (the rest read padding, the init value).
    let cols = |c: usize| {
        let off = c * dw;
        let first = lw.saturating_sub(off).div_ceil(sw).min(ow);
        let end = (p.w + lw).saturating_sub(off).div_ceil(sw).clamp(first, ow);
        (first, end)
    };
    let at = |src: &[T], j: usize, c: usize| {
        (j * sw + c * dw)
            .checked_sub(lw)
            .filter(|&i| i < p.w)
            .map_or(init, |i| src[i])
    };
    // Two window columns: the first pairing level (positions 2q, 2q+1 are the
    // two columns of window row q) is made straight from the operand row.
    let paired = p.win[1] == 2;
    let mut k = 0;
    for a in 0..p.win[0] {
        let ih = (oh * p.stride[0] + a * p.dil[0]).checked_sub(p.lo[0]);
        let src = ih.filter(|&i| i < p.h).map(|i| &image[i * p.w..][..p.w]);
        let per_row = if paired { 1 } else { p.win[1] };
        for c in 0..per_row {
            let lane = &mut lanes[k * ow..][..ow];
            k += 1;
            let Some(src) = src else {
                lane.fill(if paired { f(init, init) } else { init });
                continue;
            };
            if paired {
                let ((f0, e0), (f1, e1)) = (cols(0), cols(1));
                let (first, end) = (f0.max(f1), e0.min(e1).max(f0.max(f1)));
                for (j, v) in lane.iter_mut().enumerate() {
                    if j == first {
                        break;
                    }
                    *v = f(at(src, j, 0), at(src, j, 1));
                }
                for (j, v) in lane.iter_mut().enumerate().skip(end) {
                    *v = f(at(src, j, 0), at(src, j, 1));
                }
                if first < end {
                    let s0 = first * sw - lw;
                    let dst = &mut lane[first..end];
                    if sw == 2 && dw == 1 {
                        for (v, q) in dst.iter_mut().zip(src[s0..].chunks_exact(2)) {
                            *v = f(q[0], q[1]);
                        }
                    } else {
                        for (j, v) in dst.iter_mut().enumerate() {
                            *v = f(src[s0 + j * sw], src[s0 + j * sw + dw]);
                        }
                    }
                }
                continue;
            }
            let (first, end) = cols(c);
            lane[..first].fill(init);
            lane[end..].fill(init);
            if first < end {
                let s0 = first * sw + c * dw - lw;
                let dst = &mut lane[first..end];
                if sw == 1 {
                    dst.copy_from_slice(&src[s0..][..dst.len()]);
                } else {
                    for (v, &e) in dst.iter_mut().zip(src[s0..].iter().step_by(sw)) {
                        *v = e;
                    }
                }
            }
        }
    }
    // Pairing level by level, in place (node q of the next level is f(2q, 2q+1)
    // in lane q; an unpaired last node moves up).
    let mut m = k;
    while m > 1 {
        for q in 0..m / 2 {
            pair_into(lanes, ow, q, 2 * q, f);
        }
        if m % 2 == 1 {
            lanes.copy_within((m - 1) * ow..m * ow, (m / 2) * ow);
        }
        m = m.div_ceil(2);
    }
    for (o, &v) in row.iter_mut().zip(&lanes[..ow]) {
        *o = f(init, v);
    }
}

#[cfg(test)]
mod tests {
    use super::super::window::{Geometry, reduce_window_general};
    use super::*;
    use xlet_core::test_support::Rng;

    /// Values with NaNs, both zeros and infinities among them.
    fn data(n: usize, rng: &mut Rng) -> Vec<f32> {
        (0..n)
            .map(|_| match rng.next_u64() % 16 {
                0 => f32::NAN,
                1 => -0.0,
                2 => 0.0,
                3 => f32::NEG_INFINITY,
                _ => ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 1e3,
            })
            .collect()
    }

    fn pick(rng: &mut Rng, lo: usize, hi: usize) -> usize {
        lo + (rng.next_u64() % (hi - lo + 1) as u64) as usize
    }

    #[test]
    fn small_windows_give_the_general_paths_bits() {
        let mut rng = Rng::new(26);
        let max = |a: f32, b: f32| crate::math::fmax(a, b);
        let add = |a: f32, b: f32| a + b;
        let mut taken = 0;
        for case in 0..400 {
            let rank = pick(&mut rng, 2, 4);
            let mut g = Geometry {
                in_dims: vec![],
                window: vec![],
                strides: vec![],
                base_dilations: vec![1; rank],
                window_dilations: vec![],
                padding: vec![],
            };
            for d in 0..rank {
                let pooled = d + 2 >= rank;
                g.in_dims
                    .push(pick(&mut rng, 0, if pooled { 13 } else { 3 }));
                g.window.push(if pooled { pick(&mut rng, 1, 4) } else { 1 });
                g.strides
                    .push(if pooled { pick(&mut rng, 1, 3) } else { 1 });
                g.window_dilations
                    .push(if pooled { pick(&mut rng, 1, 2) } else { 1 });
                g.padding.push(if pooled {
                    (pick(&mut rng, 0, 2), pick(&mut rng, 0, 2))
                } else {
                    (0, 0)
                });
            }
            // Now and then a shape the path must leave to the general kernel.
            if case % 10 == 0 {
                g.base_dilations[rank - 1] = 2;
            }
            let Some(od) = g.out_dims() else { continue };
            let x = data(g.in_dims.iter().product(), &mut rng);
            let m: usize = od.iter().product();
            for (init, f) in [
                (f32::NEG_INFINITY, &max as &(dyn Fn(f32, f32) -> f32 + Sync)),
                (-0.0, &add),
            ] {
                let mut fast = vec![1.5f32; m];
                let mut general = vec![2.5f32; m];
                let r = try_reduce_window(&g, &od, &x, init, &f, &mut fast);
                reduce_window_general(&g, &x, init, &f, &mut general).unwrap();
                match r {
                    Some(r) => {
                        r.unwrap();
                        taken += 1;
                        let b = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                        assert_eq!(b(&fast), b(&general), "{g:?}");
                    }
                    None => assert!(g.positions() > LANES || case % 10 == 0, "{g:?}"),
                }
            }
        }
        assert!(taken > 400, "the fast path ran {taken} times");
    }

    /// The 2x2/2 max-pool of issue 26 by both paths (run by hand: `cargo test
    /// --release -p xlet-kernels pool_timing -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn pool_timing() {
        let g = Geometry {
            in_dims: vec![8, 64, 112, 112],
            window: vec![1, 1, 2, 2],
            strides: vec![1, 1, 2, 2],
            base_dilations: vec![1; 4],
            window_dilations: vec![1; 4],
            padding: vec![(0, 0); 4],
        };
        let x: Vec<f32> = (0..8 * 64 * 112 * 112)
            .map(|i| ((i * 7919) % 1000) as f32)
            .collect();
        let od = g.out_dims().unwrap_or_default();
        let mut out = vec![0.0f32; od.iter().product()];
        let max = |a: f32, b: f32| crate::math::fmax(a, b);
        let mut t = |name: &str, fast: bool| {
            let mut ms: Vec<f64> = (0..11)
                .map(|_| {
                    let s = std::time::Instant::now();
                    if fast {
                        try_reduce_window(&g, &od, &x, f32::NEG_INFINITY, &max, &mut out);
                    } else {
                        let _ = reduce_window_general(&g, &x, f32::NEG_INFINITY, &max, &mut out);
                    }
                    s.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            ms.sort_by(f64::total_cmp);
            println!("{name}: {:.2} ms", ms[5]);
        };
        t("small-window path", true);
        t("general path", false);
    }
}
