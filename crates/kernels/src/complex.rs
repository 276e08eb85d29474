//! Element functions on complex numbers (c64, c128) that num-complex does not
//! give in the form XLA computes them (spec/numerics.md §7): `sign`, `expm1`
//! and `log1p` accurate near zero, `rsqrt`, `logistic`, and the lexicographic
//! order that XLA:CPU uses for ordered comparisons, Max and Min.

use num_complex::Complex;
use num_traits::Float;

/// `z / |z|`; zero stays zero (with its signs) and a NaN part gives NaN.
pub fn sign<F: Float>(z: Complex<F>) -> Complex<F> {
    if z.re.is_nan() || z.im.is_nan() {
        return Complex::new(F::nan(), F::nan());
    }
    let r = z.norm();
    if r == F::zero() {
        z
    } else if r.is_infinite() {
        // |z| is infinite: the direction is that of the infinite parts.
        let one = |x: F| if x.is_infinite() { x.signum() } else { F::zero() * x.signum() };
        let d = Complex::new(one(z.re), one(z.im));
        d / d.norm()
    } else {
        z / r
    }
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

/// `1 / sqrt(z)`.
pub fn rsqrt<F: Float>(z: Complex<F>) -> Complex<F> {
    Complex::new(F::one(), F::zero()) / z.sqrt()
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

/// `x^y` for complex numbers: `exp(y log x)`, with `0^0 = 1` and `0^y = 0` for
/// `y` of positive real part (the log of 0 would give NaN there).
pub fn pow<F: Float>(x: Complex<F>, y: Complex<F>) -> Complex<F> {
    let zero = F::zero();
    if x.re == zero && x.im == zero {
        return if y.re == zero && y.im == zero {
            Complex::new(F::one(), zero)
        } else if y.re > zero {
            Complex::new(zero, zero)
        } else {
            Complex::new(F::nan(), F::nan())
        };
    }
    (y * x.ln()).exp()
}

fn has_nan<F: Float>(z: Complex<F>) -> bool {
    z.re.is_nan() || z.im.is_nan()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(sign(Complex::new(-0.0f32, 0.0)).re.to_bits(), (-0.0f32).to_bits());
        let i = sign(Complex::new(f64::INFINITY, 1.0));
        assert_eq!((i.re, i.im), (1.0, 0.0));
        let (a, b) = (Complex::new(1.0f32, 5.0), Complex::new(1.0f32, 6.0));
        assert!(lt(a, b) && le(a, b) && !lt(b, a) && le(a, a) && !lt(a, a));
        assert_eq!(max(a, b), b);
        assert_eq!(min(a, b), a);
        assert!(max(a, Complex::new(f32::NAN, 0.0)).re.is_nan());
    }
}
