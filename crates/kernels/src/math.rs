//! Element functions whose library versions are slow or do not vectorize.
//!
//! `tanh` on f32 is evaluated entirely in f32, branch-free, so that it
//! vectorizes to 16 lanes on AVX-512 and 8 on AVX2 (libm's `tanhf` is a call
//! per element):
//!
//! - |x| < 0.9: `x + x^3 g(x^2)`, `g` a degree-7 polynomial fitted (Lawson's
//!   minimax iteration) to `(tanh(x)/x - 1)/x^2` on [0, 0.81]; relative error
//!   of the fit 8e-11, far below f32's 6e-8.
//! - 0.9 <= |x| < 10: `1 - 2/(exp(2|x|) + 1)`, with `exp` by Cody-Waite
//!   reduction (`2|x| = k ln2 + r`, |r| <= ln2/2) and a degree-6 polynomial
//!   (fit error 3e-9). Here `2/(e+1)` is at most 0.29 of the result, so its
//!   rounding errors shrink by that much in the sum.
//! - |x| >= 10: tanh rounds to ±1 in f32; the input is clamped there, which also
//!   keeps `exp` in range.
//!
//! Every f32 input was checked (`tanh_f32_every_input_within_one_ulp`, ignored by
//! default): the result is at most 1 ulp from f64 `tanh` rounded to f32, and at
//! most 1.04 ulp from the exact value (spec/numerics.md). Both branches are
//! computed and one is selected, so the lanes of a vector never diverge.

use half::{bf16, f16};
use num_traits::Float;

/// a * b + c: fused where the target has FMA (one rounding), else two operations.
#[inline(always)]
fn madd(a: f32, b: f32, c: f32) -> f32 {
    if cfg!(target_feature = "fma") {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// `g(s)` with `tanh(x) = x + x s g(s)`, `s = x^2`, for |x| < 0.9 (coefficients of s^0..s^7).
const TANH_SMALL: [f32; 8] = [
    -0.333_333_3,
    0.133_332_94,
    -0.053_962_667,
    0.021_831_227,
    -0.008_715_661,
    0.003_250_081_8,
    -0.000_967_460_7,
    0.000_159_148_56,
];

/// `h(r)` with `exp(r) = 1 + r + r^2 h(r)` for |r| <= ln2/2 (coefficients of r^0..r^4).
const EXP_REDUCED: [f32; 5] = [
    0.499_999_94,
    0.166_665_2,
    0.041_668_393,
    0.008_368_781,
    0.001_381_446_5,
];

/// exp(y) for y in [0, 20] (the only range `tanh_f32` asks for).
#[inline(always)]
fn exp_reduced(y: f32) -> f32 {
    // Adding and subtracting 1.5 * 2^23 rounds to the nearest integer without a branch.
    const ROUND: f32 = 12_582_912.0;
    // ln 2 split so that k * LN2_HI is exact for the k here (k <= 29).
    const LN2_HI: f32 = 0.693_145_75;
    const LN2_LO: f32 = 1.428_606_8e-6;
    let t = madd(y, std::f32::consts::LOG2_E, ROUND);
    let kf = t - ROUND;
    // The integer k sits in the low bits of t's representation: no float-to-int conversion.
    let k = t.to_bits().wrapping_sub(ROUND.to_bits());
    let r = madd(-kf, LN2_LO, madd(-kf, LN2_HI, y));
    let mut h = EXP_REDUCED[4];
    for &c in EXP_REDUCED[..4].iter().rev() {
        h = madd(h, r, c);
    }
    let p = madd(r * r, h, r) + 1.0;
    p * f32::from_bits(k.wrapping_add(127) << 23)
}

/// tanh for f32, within 1 ulp of the correctly rounded result (see the module comment).
#[inline(always)]
pub fn tanh_f32(a: f32) -> f32 {
    // A NaN stays NaN (`>` is false for it), and so does every formula below:
    // no separate test and blend for it.
    let ax = a.abs();
    let x = if ax > 10.0 { 10.0 } else { ax };
    let s = x * x;
    let mut g = TANH_SMALL[7];
    for &c in TANH_SMALL[..7].iter().rev() {
        g = madd(g, s, c);
    }
    let small = madd(x * s, g, x);
    let large = 1.0 - 2.0 / (exp_reduced(x + x) + 1.0);
    let t = if x < 0.9 { small } else { large };
    t.copysign(a)
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

/// Elementwise error function for every float type (spec/numerics.md §1.2):
/// f64 is libm's `erf` (the port of FreeBSD's/musl's, error below 1 ulp); f32,
/// f16 and bf16 evaluate that f64 `erf` and round once to their own type, so
/// the only errors are libm's (about 1e-16 relative) and that one rounding.
pub trait Erf: Copy {
    fn erf_elem(self) -> Self;
}
impl Erf for f64 {
    #[inline]
    fn erf_elem(self) -> f64 {
        libm::erf(self)
    }
}
impl Erf for f32 {
    #[inline]
    fn erf_elem(self) -> f32 {
        libm::erf(f64::from(self)) as f32
    }
}
impl Erf for f16 {
    fn erf_elem(self) -> f16 {
        f16::from_f64(libm::erf(self.to_f64()))
    }
}
impl Erf for bf16 {
    fn erf_elem(self) -> bf16 {
        bf16::from_f64(libm::erf(self.to_f64()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// erf(x) independently of libm, for |x| < 6: the series
    /// erf(x) = 2/sqrt(pi) exp(-x^2) sum_n 2^n x^(2n+1) / (1*3*...*(2n+1))
    /// (Abramowitz & Stegun 7.1.6), whose terms are all of one sign, so that
    /// nothing cancels and the f64 sum is good to a few parts in 1e16.
    fn erf_series(x: f64) -> f64 {
        let s = x * x;
        let (mut term, mut sum, mut n) = (x, x, 0.0);
        while term.abs() > sum.abs() * 1e-18 {
            n += 1.0;
            term *= 2.0 * s / (2.0 * n + 1.0);
            sum += term;
        }
        std::f64::consts::FRAC_2_SQRT_PI * (-s).exp() * sum
    }

    /// The distance from `got` to the real number `want`, in ulps of f32 at `want`.
    fn f32_ulps_from(got: f32, want: f64) -> f64 {
        let w = want as f32;
        let ulp = if w.abs() < f32::MIN_POSITIVE {
            f64::from(f32::from_bits(1))
        } else {
            let e = f64::from(w.abs());
            f64::from(f32::from_bits(w.abs().to_bits() + 1)) - e
        };
        (f64::from(got) - want).abs() / ulp
    }

    /// Erf on f32: a sweep of every 257th bit pattern (16.7 million inputs)
    /// against the independent series, in ulps of the exact value. The bound
    /// is 1 ulp (spec/numerics.md §1.2); the worst measured is printed.
    #[test]
    fn erf_f32_within_one_ulp_of_an_independent_reference() {
        use rayon::prelude::*;
        let worst = (0..=u32::MAX / 257)
            .into_par_iter()
            .map(|i| f32::from_bits(i * 257))
            .filter(|x| x.is_finite())
            .map(|x| {
                let want = if x.abs() < 6.0 {
                    erf_series(f64::from(x))
                } else {
                    // erfc(6) = 2.2e-17: erf is ±1 in f32 and f64 beyond 6.
                    f64::from(x.signum())
                };
                (f32_ulps_from(x.erf_elem(), want), x)
            })
            .reduce(|| (0.0, 0.0), |a, b| if b.0 > a.0 { b } else { a });
        eprintln!("erf f32: worst {:.4} ulp at {:e}", worst.0, worst.1);
        assert!(worst.0 <= 1.0, "erf f32 worst {worst:?}");
        assert!(f32::NAN.erf_elem().is_nan());
        assert_eq!(f32::INFINITY.erf_elem(), 1.0);
        assert_eq!(f32::NEG_INFINITY.erf_elem(), -1.0);
        assert_eq!((-0.0f32).erf_elem().to_bits(), (-0.0f32).to_bits());
    }

    /// Erf on f64 against the same series on [-6, 6]. The series is a weaker
    /// reference in f64 than in f32: its roundings grow with the number of
    /// terms and exp(-x^2) magnifies the rounding of x^2 by x^2, so that near
    /// |x| = 6 it is itself off by up to about 40 ulps (measured against mpmath
    /// at 200 bits). The check is therefore a relative 1e-14; libm's own
    /// error is below 1 ulp (spec/numerics.md §1.2).
    #[test]
    fn erf_f64_agrees_with_an_independent_reference() {
        let mut worst = 0.0f64;
        let mut x = -6.0f64;
        while x < 6.0 {
            let (got, want) = (x.erf_elem(), erf_series(x));
            if want != 0.0 {
                worst = worst.max(((got - want) / want).abs());
            }
            x += 0.000_731;
        }
        eprintln!("erf f64: worst relative difference {worst:e} from the series");
        assert!(worst <= 1e-14, "erf f64 worst {worst:e}");
        assert_eq!(
            1e-300f64.erf_elem(),
            1e-300 * std::f64::consts::FRAC_2_SQRT_PI
        );
    }

    /// The 16-bit types round libm's f64 erf once: equal to the f32 result
    /// rounded to them except where double rounding would differ.
    #[test]
    fn erf_16_bit_types() {
        for b in 0..=u16::MAX {
            let h = f16::from_bits(b);
            let want = f16::from_f64(erf_series(h.to_f64().clamp(-6.0, 6.0)));
            if h.is_nan() {
                assert!(h.erf_elem().is_nan());
            } else {
                assert_eq!(h.erf_elem(), want, "erf f16 {h}");
            }
            let g = bf16::from_bits(b);
            if g.is_nan() {
                assert!(g.erf_elem().is_nan());
            } else {
                let want = bf16::from_f64(erf_series(g.to_f64().clamp(-6.0, 6.0)));
                assert_eq!(g.erf_elem(), want, "erf bf16 {g}");
            }
        }
    }

    fn ulps(a: f32, b: f32) -> i64 {
        let key = |x: f32| {
            let i = x.to_bits() as i32 as i64;
            if i < 0 { i32::MIN as i64 - i } else { i }
        };
        (key(a) - key(b)).abs()
    }

    /// Every f32 bit pattern, against f64 `tanh` rounded to f32 (about a minute on
    /// two cores: `cargo test --release --lib -- --ignored tanh_f32_every`).
    #[test]
    #[ignore]
    fn tanh_f32_every_input_within_one_ulp() {
        use rayon::prelude::*;
        let worst = (0..=u32::MAX)
            .into_par_iter()
            .map(f32::from_bits)
            .filter(|x| !x.is_nan())
            .map(|x| ulps(tanh_f32(x), (x as f64).tanh() as f32))
            .max();
        assert!(worst <= Some(1), "worst {worst:?} ulp");
        let nan = (0..=u32::MAX)
            .into_par_iter()
            .map(f32::from_bits)
            .filter(|x| x.is_nan())
            .all(|x| tanh_f32(x).is_nan());
        assert!(nan);
    }

    #[test]
    fn tanh_f32_is_faithful_against_f64() {
        // A sparse sweep of all bit patterns (the full sweep is the ignored test above),
        // plus a dense one around the switch between the two formulas at 0.9.
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
        let at = 0.9f32.to_bits();
        for b in at - 20_000..at + 20_000 {
            for x in [f32::from_bits(b), -f32::from_bits(b)] {
                assert!(
                    ulps(tanh_f32(x), (x as f64).tanh() as f32) <= 1,
                    "tanh({x:e})"
                );
            }
        }
        assert!(tanh_f32(f32::NAN).is_nan());
        assert_eq!(tanh_f32(f32::INFINITY), 1.0);
        assert_eq!(tanh_f32(f32::NEG_INFINITY), -1.0);
        assert_eq!(tanh_f32(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(tanh_f32(1e-40), 1e-40);
    }
}
