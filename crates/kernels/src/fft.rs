//! Discrete Fourier transforms along the innermost dimensions (the Fft op,
//! spec/ops/fft.md), on rustfft (complex) and realfft (real input or output),
//! in f32 or f64.
//!
//! Every transform here runs on contiguous rows: along the last dimension the
//! rows are the data itself; along another dimension the block of that
//! dimension and everything inside it is transposed so that the transformed
//! dimension is innermost, transformed, and transposed back. Rows are shared
//! among threads in runs of at least `GRAIN` elements, each thread with its
//! own scratch. Ctrl-C is polled once per run of rows.

use crate::strided::{interrupt_error, interrupted};
use num_complex::Complex;
use rayon::prelude::*;
use realfft::RealFftPlanner;
use rustfft::{FftNum, FftPlanner};
use xlet_core::alloc::try_filled;
use xlet_core::error::{KernelError, internal};
use xlet_core::types::{ArrayType, ElemType};

/// Elements per parallel task, at least (one row at a time when rows are longer).
const GRAIN: usize = 1 << 15;

/// A float type the transforms run in.
pub trait FftFloat: FftNum + num_traits::Float + Default {
    const REAL: ElemType;
    const COMPLEX: ElemType;
}
impl FftFloat for f32 {
    const REAL: ElemType = ElemType::F32;
    const COMPLEX: ElemType = ElemType::C64;
}
impl FftFloat for f64 {
    const REAL: ElemType = ElemType::F64;
    const COMPLEX: ElemType = ElemType::C128;
}

fn buffer<T: Clone + Default>(n: usize, elem: ElemType) -> Result<Vec<T>, KernelError> {
    try_filled(n, T::default(), &ArrayType::new(elem, vec![n]))
}

/// Rows per task: enough rows to make `GRAIN` elements, at least one.
fn rows_per_task(row: usize) -> usize {
    (GRAIN / row.max(1)).max(1)
}

/// Complex FFTs (or unnormalised inverse FFTs) of every contiguous row of length `n` in `data`.
fn rows_complex<T: FftFloat>(
    data: &mut [Complex<T>],
    n: usize,
    inverse: bool,
) -> Result<(), KernelError> {
    if n == 0 || data.is_empty() {
        return Ok(());
    }
    let mut planner = FftPlanner::<T>::new();
    let fft = if inverse {
        planner.plan_fft_inverse(n)
    } else {
        planner.plan_fft_forward(n)
    };
    let scratch_len = fft.get_inplace_scratch_len();
    data.par_chunks_mut(n * rows_per_task(n))
        .try_for_each(|rows| {
            if interrupted() {
                return Err(interrupt_error());
            }
            let mut scratch = buffer::<Complex<T>>(scratch_len, T::COMPLEX)?;
            // `rows` is a whole number of rows of length n (the data is too).
            fft.process_with_scratch(rows, &mut scratch);
            Ok(())
        })?;
    if inverse {
        let scale = T::one() / T::from(n).unwrap_or_else(T::one);
        data.par_iter_mut().for_each(|z| *z = *z * scale);
    }
    Ok(())
}

/// `to[j * n + i] = from[i * inner + j]` for a block of `n` rows of `inner`.
fn transpose<T: Copy + Send + Sync>(from: &[T], to: &mut [T], n: usize, inner: usize) {
    to.par_chunks_mut(n * rows_per_task(n))
        .enumerate()
        .for_each(|(c, chunk)| {
            let first = c * rows_per_task(n);
            for (r, row) in chunk.chunks_mut(n).enumerate() {
                let j = first + r;
                for (i, x) in row.iter_mut().enumerate() {
                    *x = from[i * inner + j];
                }
            }
        });
}

/// Complex transforms along dimension `axis` of the row-major array `data` of shape `dims`.
pub fn along<T: FftFloat>(
    data: &mut [Complex<T>],
    dims: &[usize],
    axis: usize,
    inverse: bool,
) -> Result<(), KernelError> {
    let n = dims.get(axis).copied().unwrap_or(1);
    let inner: usize = dims.get(axis + 1..).unwrap_or(&[]).iter().product();
    if inner == 1 {
        return rows_complex(data, n, inverse);
    }
    let block = n * inner;
    if block == 0 {
        return Ok(());
    }
    let mut tmp = buffer::<Complex<T>>(block, T::COMPLEX)?;
    for b in data.chunks_mut(block) {
        transpose(b, &mut tmp, n, inner);
        rows_complex(&mut tmp, n, inverse)?;
        transpose(&tmp, b, inner, n);
    }
    Ok(())
}

/// Real-to-complex transforms of the rows of length `n` of `input` into rows of
/// length `n / 2 + 1` of `out`.
pub fn rfft_rows<T: FftFloat>(
    input: &[T],
    out: &mut [Complex<T>],
    n: usize,
) -> Result<(), KernelError> {
    let m = n / 2 + 1;
    if n == 0 || input.is_empty() {
        return Ok(());
    }
    let r2c = RealFftPlanner::<T>::new().plan_fft_forward(n);
    let scratch_len = r2c.get_scratch_len();
    let per = rows_per_task(n);
    out.par_chunks_mut(m * per)
        .zip(input.par_chunks(n * per))
        .try_for_each(|(outs, ins)| {
            if interrupted() {
                return Err(interrupt_error());
            }
            let mut row = buffer::<T>(n, T::REAL)?;
            let mut scratch = buffer::<Complex<T>>(scratch_len, T::COMPLEX)?;
            for (o, i) in outs.chunks_mut(m).zip(ins.chunks(n)) {
                // realfft uses its input as scratch: transform a copy.
                row.copy_from_slice(i);
                r2c.process_with_scratch(&mut row, o, &mut scratch)
                    .map_err(|e| internal(&format!("rfft: {e}")))?;
            }
            Ok(())
        })
}

/// Complex-to-real inverse transforms (normalised by 1/n) of the rows of length
/// `n / 2 + 1` of `input` into rows of length `n` of `out`. The imaginary parts
/// of the first element (and, for even n, the last), which a real signal's
/// spectrum cannot have, are ignored.
pub fn irfft_rows<T: FftFloat>(
    input: &[Complex<T>],
    out: &mut [T],
    n: usize,
) -> Result<(), KernelError> {
    let m = n / 2 + 1;
    if n == 0 || out.is_empty() {
        return Ok(());
    }
    let c2r = RealFftPlanner::<T>::new().plan_fft_inverse(n);
    let scratch_len = c2r.get_scratch_len();
    let scale = T::one() / T::from(n).unwrap_or_else(T::one);
    let per = rows_per_task(n);
    out.par_chunks_mut(n * per)
        .zip(input.par_chunks(m * per))
        .try_for_each(|(outs, ins)| {
            if interrupted() {
                return Err(interrupt_error());
            }
            let mut row = buffer::<Complex<T>>(m, T::COMPLEX)?;
            let mut scratch = buffer::<Complex<T>>(scratch_len, T::COMPLEX)?;
            for (o, i) in outs.chunks_mut(n).zip(ins.chunks(m)) {
                row.copy_from_slice(i);
                row[0].im = T::zero();
                if n.is_multiple_of(2) {
                    row[m - 1].im = T::zero();
                }
                c2r.process_with_scratch(&mut row, o, &mut scratch)
                    .map_err(|e| internal(&format!("irfft: {e}")))?;
                o.iter_mut().for_each(|x| *x = *x * scale);
            }
            Ok(())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The DFT by its definition, in f64.
    fn dft(x: &[Complex<f64>], inverse: bool) -> Vec<Complex<f64>> {
        let n = x.len();
        let sign = if inverse { 1.0 } else { -1.0 };
        (0..n)
            .map(|k| {
                let s: Complex<f64> = x
                    .iter()
                    .enumerate()
                    .map(|(j, &v)| {
                        let a = sign * 2.0 * std::f64::consts::PI * (j * k) as f64 / n as f64;
                        v * Complex::new(a.cos(), a.sin())
                    })
                    .sum();
                if inverse { s / n as f64 } else { s }
            })
            .collect()
    }

    fn close(a: &[Complex<f64>], b: &[Complex<f64>]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(p, q)| (p - q).norm() < 1e-9)
    }

    #[test]
    fn along_each_axis_matches_the_definition() {
        // A [3, 5, 4] array: transform axis 1 and compare each column with the DFT.
        let dims = [3, 5, 4];
        let x: Vec<Complex<f64>> = (0..60)
            .map(|i| Complex::new((i as f64 * 0.7).sin(), (i as f64 * 0.3).cos()))
            .collect();
        for inverse in [false, true] {
            let mut y = x.clone();
            along(&mut y, &dims, 1, inverse).unwrap();
            for a in 0..3 {
                for c in 0..4 {
                    let col: Vec<_> = (0..5).map(|b| x[a * 20 + b * 4 + c]).collect();
                    let got: Vec<_> = (0..5).map(|b| y[a * 20 + b * 4 + c]).collect();
                    assert!(close(&got, &dft(&col, inverse)));
                }
            }
        }
    }

    #[test]
    fn real_transforms_round_trip_and_match_the_definition() {
        for n in [1usize, 2, 7, 8] {
            let rows = 3;
            let x: Vec<f64> = (0..rows * n).map(|i| (i as f64 * 1.3).cos()).collect();
            let m = n / 2 + 1;
            let mut spec = vec![Complex::new(0.0, 0.0); rows * m];
            rfft_rows(&x, &mut spec, n).unwrap();
            for r in 0..rows {
                let c: Vec<_> = x[r * n..(r + 1) * n]
                    .iter()
                    .map(|&v| Complex::new(v, 0.0))
                    .collect();
                assert!(close(&spec[r * m..(r + 1) * m], &dft(&c, false)[..m]));
            }
            let mut back = vec![0.0; rows * n];
            irfft_rows(&spec, &mut back, n).unwrap();
            assert!(
                back.iter().zip(&x).all(|(a, b)| (a - b).abs() < 1e-12),
                "n = {n}"
            );
        }
    }
}
