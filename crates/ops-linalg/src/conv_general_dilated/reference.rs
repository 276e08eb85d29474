//! The convolution as the spec writes it: for every output element, the sum
//! over its group's input features and the window positions of lhs × kernel,
//! where a position that falls in padding or in a dilation hole reads zero.
//! It is the oracle the fast path is tested against (in f64 for floats), and
//! the path taken when the fast path's temporaries would be too large.

use super::geometry::{Geometry, next_index};
use ndarray::ArrayViewD;
use rayon::prelude::*;
use xlet_ir::KernelError;
use xlet_kernels::strided::{Check, TASK};

/// Multiply-accumulate in the accumulation type: wrapping for integers, or of
/// and for pred, plain IEEE arithmetic for floats.
pub trait Acc: Copy + Send + Sync + PartialEq + std::fmt::Debug + 'static {
    const ZERO: Self;
    fn mul_add(self, a: Self, b: Self) -> Self;
}

macro_rules! acc_int {
    ($($t:ty),*) => {$(
        impl Acc for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn mul_add(self, a: Self, b: Self) -> Self { self.wrapping_add(a.wrapping_mul(b)) }
        }
    )*};
}
acc_int!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Acc for f32 {
    const ZERO: Self = 0.0;
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self + a * b
    }
}
impl Acc for f64 {
    const ZERO: Self = 0.0;
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self + a * b
    }
}
impl Acc for xlet_core::value::c64 {
    const ZERO: Self = xlet_core::value::c64::new(0.0, 0.0);
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self + a * b
    }
}
impl Acc for xlet_core::value::c128 {
    const ZERO: Self = xlet_core::value::c128::new(0.0, 0.0);
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self + a * b
    }
}
impl Acc for bool {
    const ZERO: Self = false;
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        self || (a && b)
    }
}

/// Where window position `k` (per spatial dimension) of output position `o`
/// reads the lhs, as an lhs spatial index; None in padding or in a hole.
#[inline]
fn source_index(g: &Geometry, d: usize, o: usize, k: usize) -> Option<usize> {
    // Exact in i128: strides, dilations and padding are any values the user
    // wrote, and `o * stride - lo` need not fit in i64.
    let q = o as i128 * g.strides[d] as i128 + k as i128 * g.rhs_dilation[d] as i128
        - g.padding[d].0 as i128;
    if q < 0 {
        return None;
    }
    let ld = g.lhs_dilation[d] as i128;
    if ld <= 0 || q % ld != 0 {
        return None;
    }
    let x = q / ld;
    (x < g.in_spatial[d] as i128).then_some(x as usize)
}

/// The canonical result [out batch, out features, spatial...] in row-major
/// order. `lhs` is viewed as [batch, feature, spatial...] and `rhs` as
/// [output feature, input feature, spatial...] (any strides); `cast` takes
/// their elements to the accumulation type.
pub fn conv<T: Copy + Sync, A: Acc>(
    g: &Geometry,
    lhs: &ArrayViewD<T>,
    rhs: &ArrayViewD<T>,
    cast: impl Fn(T) -> A + Sync,
) -> Result<Vec<A>, KernelError> {
    let n = g.spatial_rank();
    let p: usize = g.out_spatial.iter().product();
    let rows = g.out_batch() * g.out_features;
    let total = rows * p;
    let mut out: Vec<A> = xlet_core::alloc::try_output_vec(total, &"the convolution's result")?;
    out.resize(total, A::ZERO);
    if total == 0 {
        return Ok(out);
    }
    let ls = lhs.strides().to_vec();
    let rs = rhs.strides().to_vec();
    let (lp, rp) = (lhs.as_ptr(), rhs.as_ptr());
    // Rows of ~TASK multiply-adds per chunk, so that Ctrl-C is seen promptly.
    let work_per_row = p.saturating_mul(g.reduction_size()).max(1);
    let chunk_rows = (TASK / work_per_row).max(1);
    // Pointers are not Send; carry addresses (the views outlive the loop).
    let (la, ra) = (lp as usize, rp as usize);
    out.par_chunks_mut(chunk_rows * p)
        .enumerate()
        .try_for_each(|(ci, chunk)| -> Result<(), KernelError> {
            Check::Interrupts.now()?;
            let (lp, rp) = (la as *const T, ra as *const T);
            for (ri, row) in chunk.chunks_mut(p).enumerate() {
                let r = ci * chunk_rows + ri;
                let (b, o) = (r / g.out_features, r % g.out_features);
                let (src_b, c0) = g.source(b, o);
                let mut oi = vec![0usize; n];
                let mut ki = vec![0usize; n];
                for v in row.iter_mut() {
                    let mut acc = A::ZERO;
                    for c in 0..g.kernel_in_features {
                        ki.iter_mut().for_each(|k| *k = 0);
                        loop {
                            let mut loff = src_b as isize * ls[0] + (c0 + c) as isize * ls[1];
                            let mut roff = o as isize * rs[0] + c as isize * rs[1];
                            let mut inside = true;
                            for d in 0..n {
                                match source_index(g, d, oi[d], ki[d]) {
                                    Some(x) => loff += x as isize * ls[2 + d],
                                    None => {
                                        inside = false;
                                        break;
                                    }
                                }
                                roff += ki[d] as isize * rs[2 + d];
                            }
                            if inside {
                                // SAFETY: every index is inside the views' shapes
                                // (source_index bounds the spatial ones; b, c, o
                                // come from the checked sizes), so the offsets
                                // address elements of the views.
                                let (x, w) = unsafe { (*lp.offset(loff), *rp.offset(roff)) };
                                acc = acc.mul_add(cast(x), cast(w));
                            }
                            if !next_index(&mut ki, &g.kernel_spatial) {
                                break;
                            }
                        }
                    }
                    *v = acc;
                    next_index(&mut oi, &g.out_spatial);
                }
            }
            Ok(())
        })?;
    Ok(out)
}
