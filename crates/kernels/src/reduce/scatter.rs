//! SelectAndScatter (spec/ops/select_and_scatter.md): for each window, in
//! row-major order of the source, the selected operand element is found by a
//! left fold over the window's operand elements in row-major window order
//! (padding positions are never selected): the first is the candidate, and a
//! later element replaces it when `select(candidate, element)` is false. Then
//! `out[selected] = scatter(out[selected], source value)`, starting from the
//! init value: several values landing on one element combine in source order.
//!
//! The one loop below serves every path: the element functions are closures
//! (native comparisons and adds, or comp calls), fallible for the comp calls.

use super::window::Geometry;
use crate::strided::Check;
use rayon::prelude::*;
use xlet_core::error::KernelError;

/// Runs the select-and-scatter loop on one row-major operand slice.
pub fn run_serial<T: Copy, E>(
    g: &Geometry,
    x: &[T],
    src: &[T],
    out: &mut [T],
    select: &mut impl FnMut(T, T) -> Result<bool, E>,
    scatter: &mut impl FnMut(T, T) -> Result<T, E>,
    interrupted: &impl Fn() -> Result<(), E>,
) -> Result<(), E> {
    let r = g.in_dims.len();
    let out_dims = match g.out_dims() {
        Some(d) => d,
        None => return Ok(()),
    };
    let windows: usize = out_dims.iter().product();
    if windows == 0 || g.positions() == 0 {
        return Ok(());
    }
    // Row-major strides of the operand.
    let mut stride = vec![1usize; r];
    for d in (0..r.saturating_sub(1)).rev() {
        stride[d] = stride[d + 1] * g.in_dims[d + 1];
    }
    // Per dimension, the operand index of window position 0 (may be negative
    // in the low padding) and the window positions that fall on operand
    // elements. Padding is never selected, so only those positions are
    // visited, in the same row-major order: a window far larger than the
    // operand costs what the operand has, not what the window has.
    let mut first = vec![0i128; r];
    let mut k_lo = vec![0usize; r];
    let mut k_hi = vec![0usize; r];
    let mut kidx = vec![0usize; r];
    let mut oidx = vec![0usize; r];
    for (w, &s) in src.iter().enumerate().take(windows) {
        if w % 4096 == 0 {
            interrupted()?;
        }
        let mut empty = false;
        for d in 0..r {
            let f = (oidx[d] as i128) * (g.strides[d] as i128) - g.padding[d].0 as i128;
            let lo = (-f).max(0);
            let hi = (g.in_dims[d] as i128 - f).min(g.window[d] as i128);
            first[d] = f;
            if hi <= lo {
                empty = true;
                break;
            }
            k_lo[d] = lo as usize;
            k_hi[d] = hi as usize;
        }
        let mut chosen: Option<usize> = None;
        if !empty {
            kidx.copy_from_slice(&k_lo);
            'positions: loop {
                let at: usize = (0..r)
                    .map(|d| (first[d] + kidx[d] as i128) as usize * stride[d])
                    .sum();
                chosen = match chosen {
                    None => Some(at),
                    Some(c) if select(x[c], x[at])? => Some(c),
                    Some(_) => Some(at),
                };
                let mut d = r;
                loop {
                    if d == 0 {
                        break 'positions;
                    }
                    d -= 1;
                    kidx[d] += 1;
                    if kidx[d] < k_hi[d] {
                        break;
                    }
                    kidx[d] = k_lo[d];
                }
            }
        }
        if let Some(c) = chosen {
            out[c] = scatter(out[c], s)?;
        }
        // Next window (row-major odometer).
        for d in (0..r).rev() {
            oidx[d] += 1;
            if oidx[d] < out_dims[d] {
                break;
            }
            oidx[d] = 0;
        }
    }
    Ok(())
}

/// The leading dimensions whose windows are single elements at stride 1 with
/// no padding: slices along them are independent problems.
fn independent_prefix(g: &Geometry) -> usize {
    (0..g.in_dims.len())
        .take_while(|&d| g.window[d] == 1 && g.strides[d] == 1 && g.padding[d] == (0, 0))
        .count()
}

/// The native path: native `select` and `scatter` functions, parallel over
/// independent slices. Gives what `run_serial` gives.
pub fn run_parallel<T: Copy + Send + Sync>(
    g: &Geometry,
    x: &[T],
    src: &[T],
    out: &mut [T],
    select: &(impl Fn(T, T) -> bool + Sync),
    scatter: &(impl Fn(T, T) -> T + Sync),
) -> Result<(), KernelError> {
    let lead = independent_prefix(g);
    let sub = Geometry {
        in_dims: g.in_dims[lead..].to_vec(),
        window: g.window[lead..].to_vec(),
        strides: g.strides[lead..].to_vec(),
        base_dilations: g.base_dilations[lead..].to_vec(),
        window_dilations: g.window_dilations[lead..].to_vec(),
        padding: g.padding[lead..].to_vec(),
    };
    let x_len: usize = sub.in_dims.iter().product();
    let s_len: usize = sub.out_dims().map_or(0, |d| d.iter().product());
    if x_len == 0 || out.is_empty() {
        return Ok(());
    }
    let check = || Check::Interrupts.now();
    out.par_chunks_mut(x_len)
        .enumerate()
        .try_for_each(|(i, o)| {
            check()?;
            let xs = &x[i * x_len..][..x_len];
            let ss = &src[(i * s_len).min(src.len())..]
                [..s_len.min(src.len() - (i * s_len).min(src.len()))];
            run_serial(
                &sub,
                xs,
                ss,
                o,
                &mut |a, b| Ok::<_, KernelError>(select(a, b)),
                &mut |a, b| Ok(scatter(a, b)),
                &check,
            )
        })
}
