//! Element functions on complex numbers (c64, c128) that num-complex does not
//! give in the form XLA computes them (spec/numerics.md §7): `sign`, `expm1`
//! and `log1p` accurate near zero, `rsqrt`, `logistic`, and the lexicographic
//! order that XLA:CPU uses for ordered comparisons, Max and Min.

use num_complex::Complex;
use num_traits::Float;

/// `z / |z|`, as XLA computes it: zero stays zero (with its signs), an
/// infinite part gives NaN (inf / inf) and a NaN part NaN.
pub fn sign<F: Float>(z: Complex<F>) -> Complex<F> {
    let r = z.norm();
    if r == F::zero() { z } else { z / r }
}

/// `exp(z) - 1` without cancellation near 0:
/// `re = expm1(x) cos(y) - 2 sin^2(y/2)`, `im = exp(x) sin(y)`.
pub fn expm1<F: Float>(z: Complex<F>) -> Complex<F> {
    let (x, y) = (z.re, z.im);
    if y == F::zero() {
        // Real argument: exact expm1, imaginary part keeps its sign of zero.
        return Complex::new(x.exp_m1(), y);
    }
    let two = F::one() + F::one();
    let h = (y / two).sin();
    Complex::new(x.exp_m1() * y.cos() - two * h * h, x.exp() * y.sin())
}

/// `log(1 + z)` without cancellation near 0:
/// `re = log1p(2x + x^2 + y^2) / 2` when `|1 + z|` is near 1, `im = atan2(y, 1 + x)`.
pub fn log1p<F: Float>(z: Complex<F>) -> Complex<F> {
    let (x, y) = (z.re, z.im);
    let one = F::one();
    let two = one + one;
    let im = y.atan2(one + x);
    let re = if x.abs() < two.recip() && y.abs() < two.recip() {
        (x * (two + x) + y * y).ln_1p() / two
    } else {
        Complex::new(one + x, y).norm().ln()
    };
    Complex::new(re, im)
}

/// `sqrt(z)` by XLA:CPU's algebraic formula: with `t = sqrt((|x| + |z|) / 2)`,
/// `(t, y / 2t)` for `x >= 0` and `(|y| / 2t, ±t)` otherwise, the sign that of
/// `y < 0` (so a `-0` imaginary part on the negative real axis still gives
/// `+t`, as jax on XLA:CPU does); `sqrt(±0) = 0` and an infinite imaginary
/// part gives `(inf, y)`.
pub fn sqrt<F: Float>(z: Complex<F>) -> Complex<F> {
    let (x, y) = (z.re, z.im);
    let zero = F::zero();
    if y.is_infinite() {
        return Complex::new(F::infinity(), y);
    }
    if x == zero && y == zero {
        return Complex::new(zero, y);
    }
    let half = (F::one() + F::one()).recip();
    let t = (half * x.abs() + half * z.norm()).sqrt();
    let two_t = t + t;
    if x >= zero {
        Complex::new(t, y / two_t)
    } else {
        Complex::new(y.abs() / two_t, if y < zero { -t } else { t })
    }
}

/// `1 / sqrt(z)` in polar form, as XLA:CPU computes it:
/// `|z|^(-1/2) (cos(θ/2), -sin(θ/2))` with `θ = atan2(y, x)`; at 0 it is
/// `(inf, NaN)`.
pub fn rsqrt<F: Float>(z: Complex<F>) -> Complex<F> {
    let two = F::one() + F::one();
    let m = z.norm().sqrt().recip();
    let h = z.im.atan2(z.re) / two;
    Complex::new(m * h.cos(), -(m * h.sin()))
}

/// `tanh(z)`. num-complex's `(sinh 2x + i sin 2y) / (cosh 2x + cos 2y)` gives
/// NaN once `cosh 2x` overflows (|x| > 44 in f32), so this is Kahan's form,
/// `(b ρ s + i t) / (1 + b s²)` with `t = tan y`, `b = 1 + t²`, `s = sinh x`,
/// `ρ = sqrt(1 + s²)`, and for large |x| (where `e^(-2|x|)` is below the
/// type's precision) `(±1, 4 sin y cos y e^(-2|x|))`, as C's `ctanh` does.
pub fn tanh<F: Float>(z: Complex<F>) -> Complex<F> {
    let (x, y) = (z.re, z.im);
    let one = F::one();
    let zero = F::zero();
    if x.is_infinite() {
        let im = if y.is_finite() {
            (y.sin() * y.cos()).signum() * zero
        } else {
            zero
        };
        return Complex::new(x.signum(), im);
    }
    // Past this, tanh's real part rounds to ±1 (2^-26 relative for f32, 2^-55 for f64).
    let big = F::from(if F::epsilon() > F::from(1e-10).unwrap_or(zero) {
        9.0
    } else {
        22.0
    })
    .unwrap_or(one);
    if x.abs() > big {
        let four = F::from(4.0).unwrap_or(one);
        let e = (-(x.abs() + x.abs())).exp();
        return Complex::new(x.signum(), four * y.sin() * y.cos() * e);
    }
    let t = y.tan();
    let b = one + t * t;
    let s = x.sinh();
    let rho = (one + s * s).sqrt();
    let d = one + b * s * s;
    Complex::new(b * rho * s / d, t / d)
}

/// `tan(z) = -i tanh(i z)`, so that large imaginary parts give `±i`, not NaN.
pub fn tan<F: Float>(z: Complex<F>) -> Complex<F> {
    let t = tanh(Complex::new(-z.im, z.re));
    Complex::new(t.im, -t.re)
}

/// `1 / (1 + exp(-z))`.
pub fn logistic<F: Float>(z: Complex<F>) -> Complex<F> {
    let one = Complex::new(F::one(), F::zero());
    one / (one + (-z).exp())
}

/// `a < b` in lexicographic order of (real, imaginary): false when a NaN decides.
pub fn lt<F: Float>(a: Complex<F>, b: Complex<F>) -> bool {
    a.re < b.re || (a.re == b.re && a.im < b.im)
}

/// `a <= b` in lexicographic order.
pub fn le<F: Float>(a: Complex<F>, b: Complex<F>) -> bool {
    a.re < b.re || (a.re == b.re && a.im <= b.im)
}

/// Lexicographic maximum; a NaN in either operand gives NaN (as Max on floats).
pub fn max<F: Float>(a: Complex<F>, b: Complex<F>) -> Complex<F> {
    if has_nan(a) || has_nan(b) {
        Complex::new(F::nan(), F::nan())
    } else if lt(a, b) {
        b
    } else {
        a
    }
}

/// Lexicographic minimum; a NaN in either operand gives NaN.
pub fn min<F: Float>(a: Complex<F>, b: Complex<F>) -> Complex<F> {
    if has_nan(a) || has_nan(b) {
        Complex::new(F::nan(), F::nan())
    } else if lt(b, a) {
        b
    } else {
        a
    }
}

/// `x^y` for complex numbers as XLA:CPU computes it (MLIR's complex-to-standard
/// lowering of `complex.pow`, checked against jax on XLA:CPU in
/// conformance/complex/special.xlet): in polar form, with `x = a + bi`,
/// `y = c + di`, `|x|² = a² + b²` and `θ = atan2(b, a)`,
/// `(|x|²)^(c/2) exp(-dθ) (cos q + i sin q)`, `q = cθ + (d/2) ln |x|²`, and
/// these exact cases first: `x^0 = 1` for every `x` (NaN and infinities
/// included; Kahan, "Much Ado About Nothing's Sign Bit" §10), `1^y = 1`,
/// `0^c = 0` and `inf^c = inf` for real `c > 0`, `inf^c = 0` for real `c < 0`.
/// Everything else at 0 or an infinity comes out of the formula (mostly NaN).
pub fn pow<F: Float>(x: Complex<F>, y: Complex<F>) -> Complex<F> {
    let (a, b, c, d) = (x.re, x.im, y.re, y.im);
    let zero = F::zero();
    let one = F::one();
    let real = |v: F| Complex::new(v, zero);
    if c == zero && d == zero {
        return real(one);
    }
    if a == one && b == zero {
        return real(one);
    }
    let aa = a * a + b * b;
    if d == zero && c > zero && aa == zero {
        return real(zero);
    }
    if a == F::infinity() && b == zero && d == zero {
        if c > zero {
            return real(F::infinity());
        }
        if c < zero {
            return real(zero);
        }
    }
    let half = F::from(0.5).unwrap_or(zero);
    let theta = b.atan2(a);
    let coeff = aa.powf(half * c) * (-(d * theta)).exp();
    let q = c * theta + half * d * aa.ln();
    Complex::new(coeff * q.cos(), coeff * q.sin())
}

/// `cosh y` and `sinh y` as XLA:CPU's complex Sin and Cos see them: infinite
/// once `exp(|y|)` overflows (|y| > 709.78 in f64, 88.72 in f32), a little
/// before `cosh` itself would.
fn cosh_sinh<F: Float>(y: F) -> (F, F) {
    if y.abs().exp().is_infinite() {
        let inf = F::infinity();
        (inf, if y < F::zero() { -inf } else { inf })
    } else {
        (y.cosh(), y.sinh())
    }
}

/// `sin(a + bi) = sin a cosh b + i cos a sinh b`, with XLA:CPU's special
/// values (jax on XLA:CPU, conformance/complex/special.xlet): the real part
/// is +0 whenever `a` is a zero, even where `cosh b` is infinite or NaN.
pub fn sin<F: Float>(z: Complex<F>) -> Complex<F> {
    let (ch, sh) = cosh_sinh(z.im);
    let re = if z.re == F::zero() {
        F::zero()
    } else {
        z.re.sin() * ch
    };
    Complex::new(re, z.re.cos() * sh)
}

/// `cos(a + bi) = cos a cosh b - i sin a sinh b`; the imaginary part is +0
/// whenever `a` is a zero (as `sin`'s real part).
pub fn cos<F: Float>(z: Complex<F>) -> Complex<F> {
    let (ch, sh) = cosh_sinh(z.im);
    let im = if z.re == F::zero() {
        F::zero()
    } else {
        -(z.re.sin() * sh)
    };
    Complex::new(z.re.cos() * ch, im)
}

/// Elements per call of [`exp_c64_block`]: four 16-lane (or eight 8-lane) vectors
/// of `f64` per part.
pub const EXP_BLOCK: usize = 64;

/// `exp(a + bi) = e^a (cos b + i sin b)` on `c64`, the reference: num-complex's
/// `exp` (with its special values at infinities and NaN), `expf`, `sinf` and
/// `cosf` of the platform's math library, one element at a time.
pub fn exp_c64_reference(z: Complex<f32>) -> Complex<f32> {
    z.exp()
}

/// Whether [`exp_c64_block`] computes `exp(z)` by the vector formulas: the real
/// part in `[EXP_MIN, EXP_MAX]` (so `e^a` is a normal, finite `f32` and the
/// products cannot overflow) and |b| <= `SIN_COS_MAX`; false for any NaN or
/// infinite part, which the reference handles.
#[inline(always)]
pub fn exp_c64_fast_domain(z: Complex<f32>) -> bool {
    use crate::vecmath::{EXP_MAX, EXP_MIN, SIN_COS_MAX};
    z.re >= EXP_MIN && z.re <= EXP_MAX && z.im.abs() <= SIN_COS_MAX
}

/// Complex `Exp` of a block of `c64`, lane by lane (lane `i` of the result is
/// a function of lane `i` of `x` alone). On [`exp_c64_fast_domain`]: `e^a cos b`
/// and `e^a sin b` from `vecmath`'s `f64` `exp` and `sin_cos`, each part
/// rounded once to `f32` (within 0.51 ulp of the exact value; spec/numerics.md
/// §7.1); `b = ±0` gives `(e^a, ±0)` as the reference does. Elsewhere (NaN,
/// infinities, very large or small parts) [`exp_c64_reference`].
#[inline(always)]
pub fn exp_c64_block(x: &[Complex<f32>; EXP_BLOCK]) -> [Complex<f32>; EXP_BLOCK] {
    use crate::vecmath::{exp, sin_cos};
    let mut out = [Complex::new(0.0f32, 0.0); EXP_BLOCK];
    let mut all_fast = true;
    for (o, &z) in out.iter_mut().zip(x) {
        let e = exp(z.re);
        let (s, c) = sin_cos(z.im);
        *o = Complex::new((e * c) as f32, (e * s) as f32);
        all_fast &= exp_c64_fast_domain(z);
    }
    if !all_fast {
        for (o, &z) in out.iter_mut().zip(x) {
            if !exp_c64_fast_domain(z) {
                *o = exp_c64_reference(z);
            }
        }
    }
    out
}

fn has_nan<F: Float>(z: Complex<F>) -> bool {
    z.re.is_nan() || z.im.is_nan()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tanh_sqrt_rsqrt_agree_with_num_complex_away_from_special_values() {
        for &(x, y) in &[
            (0.3f64, -0.7),
            (-2.0, 1.5),
            (5.0, 0.1),
            (-0.01, 3.0),
            (10.0, -2.0),
        ] {
            let z = Complex::new(x, y);
            assert!((tanh(z) - z.tanh()).norm() < 1e-14, "{z}");
            assert!((sqrt(z) - z.sqrt()).norm() < 1e-14, "{z}");
            assert!((rsqrt(z) - z.sqrt().inv()).norm() < 1e-14, "{z}");
            assert!((tan(z) - z.tan()).norm() < 1e-13, "{z}");
        }
        // Large |x|: ±1, where the textbook formula gives NaN in f32.
        let t = tanh(Complex::new(100.0f32, 1.0));
        assert_eq!((t.re, t.im), (1.0, 0.0));
        assert_eq!(tanh(Complex::new(-30.0f64, 0.5)).re, -1.0);
    }

    #[test]
    fn expm1_and_log1p_keep_small_arguments_exact() {
        let z = Complex::new(1e-10f64, 1e-10);
        let e = expm1(z);
        // exp(z) - 1 = z + z^2/2 + ...; z^2 = 2e-20 i.
        assert!((e.re - 1e-10).abs() < 1e-24, "{e}");
        assert!((e.im - (1e-10 + 1e-20)).abs() < 1e-24, "{e}");
        let l = log1p(z);
        // log(1+z) = z - z^2/2 + ...: re = 1e-10, im = 1e-10 - 1e-20.
        assert!((l.re - 1e-10).abs() < 1e-24, "{l}");
        assert!((l.im - (1e-10 - 1e-20)).abs() < 1e-24, "{l}");
        // Far from 0, the plain formulas.
        let w = Complex::new(2.0f64, -3.0);
        assert!((expm1(w) - (w.exp() - 1.0)).norm() < 1e-14);
        assert!((log1p(w) - (w + 1.0).ln()).norm() < 1e-14);
    }

    #[test]
    fn sign_and_order() {
        let s = sign(Complex::new(3.0f32, -4.0));
        assert_eq!((s.re, s.im), (0.6, -0.8));
        assert_eq!(
            sign(Complex::new(-0.0f32, 0.0)).re.to_bits(),
            (-0.0f32).to_bits()
        );
        let i = sign(Complex::new(f64::INFINITY, 1.0));
        assert!(i.re.is_nan() && i.im == 0.0);
        let (a, b) = (Complex::new(1.0f32, 5.0), Complex::new(1.0f32, 6.0));
        assert!(lt(a, b) && le(a, b) && !lt(b, a) && le(a, a) && !lt(a, a));
        assert_eq!(max(a, b), b);
        assert_eq!(min(a, b), a);
        assert!(max(a, Complex::new(f32::NAN, 0.0)).re.is_nan());
    }
}
