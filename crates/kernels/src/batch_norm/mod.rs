//! The batch-norm kernels (spec/ops/batch_norm_training.md, _inference.md,
//! _grad.md): BatchNormTraining, BatchNormInference and BatchNormGrad, each a
//! per-feature sum pass (`passes::feature_sums`) and an output pass
//! (`passes::apply`), or the output pass alone.
//!
//! Numerics. Sums are taken in f64 (8-lane blocks of at most 64 work-type
//! terms each go into f64). Training's variance is not E[x²] - E[x]²: each
//! feature's elements are first shifted by that feature's first element K,
//! so the sums are of d = x - K and d², and var = (Σd² - (Σd)²/N) / N loses
//! only what the spread of d around its mean costs (nothing like the
//! cancellation of E[x²] - E[x]² when |mean| >> std). Element loops compute
//! in the work type (f32 for f16/bf16/f32, f64 for f64) and round once.

mod elem;
mod frame;
mod passes;
#[cfg(test)]
mod tests;

pub use elem::{BnElem, Work};
pub use frame::Frame;

use ndarray::{ArrayD, IxDyn};
use passes::{Ptr, apply, feature_sums};
use xlet_core::error::KernelError;
use xlet_core::value::Nd;

fn nd<T: Clone>(dims: &[usize], v: Vec<T>) -> Result<Nd<T>, KernelError> {
    ArrayD::from_shape_vec(IxDyn(dims), v)
        .map(|a| a.into_shared())
        .map_err(|_| KernelError::new("internal", "internal error: batch norm result size"))
}

/// A strided array to read: its first element, dimensions and strides (in
/// elements). Values are never stride-0 broadcasts today, but the kernels read
/// any strides, and the tests lay such views over small buffers.
#[derive(Clone, Copy)]
pub struct View<'a, T> {
    ptr: *const T,
    dims: &'a [usize],
    strides: &'a [isize],
    _life: std::marker::PhantomData<&'a T>,
}

impl<'a, T> View<'a, T> {
    pub fn of(a: &'a Nd<T>) -> Self {
        View {
            ptr: a.as_ptr(),
            dims: a.shape(),
            strides: a.strides(),
            _life: std::marker::PhantomData,
        }
    }
    /// # Safety
    /// Every index in `dims` must land inside the storage `ptr` points into.
    #[cfg(test)]
    unsafe fn raw(ptr: *const T, dims: &'a [usize], strides: &'a [isize]) -> Self {
        View {
            ptr,
            dims,
            strides,
            _life: std::marker::PhantomData,
        }
    }
}

/// The frame of `K` same-shaped views, or an error if `feature` is no dimension.
fn frame<T, const K: usize>(views: [View<T>; K], feature: usize) -> Result<Frame<K>, KernelError> {
    let dims = views[0].dims;
    let fits = feature < dims.len()
        && views
            .iter()
            .all(|v| v.dims == dims && v.strides.len() == dims.len());
    if !fits {
        return Err(KernelError::new(
            "internal",
            "internal error: batch norm views and feature_index disagree",
        ));
    }
    Ok(Frame::new(dims, feature, views.map(|v| v.strides)))
}

/// Runs shorter than this, with the features not side by side, are read faster
/// from a row-major copy than in place.
const SHORT_RUN: usize = 16;

/// Whether these views read well in place: the dimensions after the feature
/// coalesce into runs of at least `SHORT_RUN` elements, or the features sit
/// side by side. Otherwise (a transposed view with the feature outermost in
/// memory but last in order, say) each element would be a strided run of one,
/// and the ops copy the views to row-major first with the strided engine's
/// tiled copy (`ops::common::contiguous`, admitted under the budget).
pub fn reads_in_place<T, const K: usize>(views: [View<T>; K], feature: usize) -> bool {
    match frame(views, feature) {
        Ok(fr) => fr.feature_rows() || fr.run_len >= SHORT_RUN || fr.per_feature() == 0,
        Err(_) => true, // the kernel reports it
    }
}

/// The checker proved these; a kernel still refuses anything else.
fn check_params<T>(features: usize, params: &[&Nd<T>]) -> Result<(), KernelError> {
    if params.iter().all(|p| p.len() == features) {
        Ok(())
    } else {
        Err(KernelError::new(
            "internal",
            "internal error: a per-feature operand's size is not the feature count",
        ))
    }
}

fn per_feature<T: BnElem>(a: &Nd<T>) -> Vec<f64> {
    a.iter().map(|v| v.widen()).collect()
}

/// `γ / sqrt(σ² + ε)` per feature, in f64.
fn inv_std_scaled(scale: &[f64], var: &[f64], epsilon: f32) -> Vec<f64> {
    scale
        .iter()
        .zip(var)
        .map(|(g, v)| g / (v + epsilon as f64).sqrt())
        .collect()
}

/// Per feature, the output pass's constants: y = ((x - k) - m) * a + b.
#[derive(Clone, Copy)]
struct Affine<W> {
    k: W,
    m: W,
    a: W,
    b: W,
}

fn normalize<T: BnElem>(
    fr: &Frame<1>,
    x: View<T>,
    p: &[Affine<T::W>],
) -> Result<Nd<T>, KernelError> {
    let y = apply(fr, [Ptr(x.ptr)], p, |p, [v]| ((v - p.k) - p.m) * p.a + p.b)?;
    nd(x.dims, y)
}

/// BatchNormTraining: (output, batch_mean, batch_var), the variance biased.
/// A feature with no elements has mean and variance NaN (0 / 0).
pub fn training<T: BnElem>(
    x: View<T>,
    scale: &Nd<T>,
    offset: &Nd<T>,
    epsilon: f32,
    feature: usize,
) -> Result<[Nd<T>; 3], KernelError> {
    let fr = frame([x], feature)?;
    check_params(fr.features, &[scale, offset])?;
    let n = fr.per_feature();
    let src = [Ptr(x.ptr)];
    // Each feature's first element (o = 0, i = 0), the shift of its sums.
    let shifts: Vec<T::W> = (0..fr.features)
        .map(|l| {
            if n == 0 {
                return T::W::default();
            }
            // SAFETY: the feature has elements, so (0, l, 0) is inside x.
            unsafe { (*x.ptr.offset(fr.base(0, l)[0])).to_w() }
        })
        .collect();
    let sums = feature_sums(&fr, src, &shifts, |&k, [v]| {
        let d = v - k;
        [d, d * d]
    })?;
    let count = n as f64;
    let (mut mean, mut var) = (vec![], vec![]);
    for (s, k) in sums.iter().zip(&shifts) {
        let m = s[0] / count;
        let v = (s[1] - s[0] * m) / count;
        mean.push(k.to_f64() + m);
        // Rounding can take Σd² - (Σd)²/N a hair below 0; a variance is not.
        var.push(if v < 0.0 { 0.0 } else { v });
    }
    let a = inv_std_scaled(&per_feature(scale), &var, epsilon);
    let b = per_feature(offset);
    let p: Vec<Affine<T::W>> = (0..fr.features)
        .map(|l| Affine {
            k: shifts[l],
            m: T::W::from_f64(mean[l] - shifts[l].to_f64()),
            a: T::W::from_f64(a[l]),
            b: T::W::from_f64(b[l]),
        })
        .collect();
    let y = normalize(&fr, x, &p)?;
    let round = |v: &[f64]| nd(&[v.len()], v.iter().map(|&x| T::from_f64(x)).collect());
    Ok([y, round(&mean)?, round(&var)?])
}

/// BatchNormInference: the output alone, from the given mean and variance.
pub fn inference<T: BnElem>(
    x: View<T>,
    [scale, offset, mean, var]: [&Nd<T>; 4],
    epsilon: f32,
    feature: usize,
) -> Result<Nd<T>, KernelError> {
    let fr = frame([x], feature)?;
    check_params(fr.features, &[scale, offset, mean, var])?;
    let a = inv_std_scaled(&per_feature(scale), &per_feature(var), epsilon);
    let (mu, b) = (per_feature(mean), per_feature(offset));
    let p: Vec<Affine<T::W>> = (0..fr.features)
        .map(|l| Affine {
            k: T::W::from_f64(mu[l]),
            m: T::W::default(),
            a: T::W::from_f64(a[l]),
            b: T::W::from_f64(b[l]),
        })
        .collect();
    normalize(&fr, x, &p)
}

/// Per feature, BatchNormGrad's output-pass constants:
/// grad_operand = a * (dy - dm - (x - mu) * c).
#[derive(Clone, Copy)]
struct GradConsts<W> {
    mu: W,
    a: W,
    dm: W,
    c: W,
}

/// BatchNormGrad: (grad_operand, grad_scale, grad_offset) by the formulas of
/// spec/ops/batch_norm_grad.md, with the given mean and variance.
pub fn grad<T: BnElem>(
    x: View<T>,
    [scale, mean, var]: [&Nd<T>; 3],
    dy: View<T>,
    epsilon: f32,
    feature: usize,
) -> Result<[Nd<T>; 3], KernelError> {
    let fr = frame([x, dy], feature)?;
    check_params(fr.features, &[scale, mean, var])?;
    let count = fr.per_feature() as f64;
    let mu: Vec<T::W> = mean.iter().map(|m| m.to_w()).collect();
    let sums = feature_sums(&fr, [Ptr(x.ptr), Ptr(dy.ptr)], &mu, |&m, [v, g]| {
        [g, g * (v - m)]
    })?;
    let (gamma, var) = (per_feature(scale), per_feature(var));
    let (mut g_scale, mut g_offset, mut consts) = (vec![], vec![], vec![]);
    for l in 0..fr.features {
        let [sdy, sdyx] = sums[l];
        let ve = var[l] + epsilon as f64;
        let rs = 1.0 / ve.sqrt();
        g_offset.push(sdy);
        // A sum over no elements is 0, whatever the variance.
        g_scale.push(if count == 0.0 { 0.0 } else { sdyx * rs });
        consts.push(GradConsts {
            mu: mu[l],
            a: T::W::from_f64(gamma[l] * rs),
            dm: T::W::from_f64(sdy / count),
            c: T::W::from_f64(sdyx / (count * ve)),
        });
    }
    let gx = apply(&fr, [Ptr(x.ptr), Ptr(dy.ptr)], &consts, |q, [v, g]| {
        q.a * ((g - q.dm) - (v - q.mu) * q.c)
    })?;
    let round = |v: &[f64]| nd(&[v.len()], v.iter().map(|&x| T::from_f64(x)).collect());
    Ok([nd(x.dims, gx)?, round(&g_scale)?, round(&g_offset)?])
}
