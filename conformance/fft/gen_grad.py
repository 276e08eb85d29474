"""Expected values of conformance/fft/grad.xlet: jax.vjp of lax.fft on
XLA:CPU (jax_enable_x64), whose transpose rules (jax/_src/lax/fft.py) xlet's
Fft gradient follows. Run with the venv of the README's reference section:
V/bin/python conformance/fft/gen_grad.py. Inputs and cotangents are small
formulas that the .xlet file writes exactly; each output line is
`name: xlet literal`."""
import numpy as np
import jax
from jax import lax

jax.config.update("jax_enable_x64", True)


def lit(a):
    a = np.asarray(a)
    r = lambda v: repr(float(v))
    if np.iscomplexobj(a):
        t, fmt = "c128", lambda z: f"({r(z.real)}, {r(z.imag)})"
    else:
        t, fmt = "f64", r

    def rec(x):
        if x.ndim == 1:
            return "{" + ", ".join(fmt(v) for v in x) + "}"
        return "{" + ", ".join(rec(s) for s in x) + "}"

    return f"{t}[{'x'.join(map(str, a.shape))}] {rec(a)}"


def grid(shape, f, dtype):
    return np.array(np.vectorize(f)(*np.indices(shape)), dtype=dtype)


def case(name, fft_type, lengths, x, ct):
    _, back = jax.vjp(lambda x: lax.fft(x, fft_type, lengths), x)
    print(f"{name} x: {lit(x)}")
    print(f"{name} ct: {lit(ct)}")
    print(f"{name}: {lit(back(ct)[0])}")


cplx = lambda f: (lambda *i: complex(*f(*i)))
# FFT and IFFT: x = (j - 2, j mod 3), ct = (1, j - 3).
case("fft 8", "FFT", (8,), grid((8,), cplx(lambda j: (j - 2, j % 3)), np.complex128),
     grid((8,), cplx(lambda j: (1, j - 3)), np.complex128))
case("ifft 3x4", "IFFT", (3, 4), grid((2, 3, 4), cplx(lambda i, j, k: (i + j - k, j * k)), np.complex128),
     grid((2, 3, 4), cplx(lambda i, j, k: (k - i, 1 + j)), np.complex128))
# RFFT, even and odd n, and over two dimensions.
case("rfft 8", "RFFT", (8,), grid((2, 8), lambda i, j: i - j + 3, np.float64),
     grid((2, 5), cplx(lambda i, j: (j + 1, i - j)), np.complex128))
case("rfft 5", "RFFT", (5,), grid((3, 5), lambda i, j: i * j - 2, np.float64),
     grid((3, 3), cplx(lambda i, j: (i + j, 2 - j)), np.complex128))
case("rfft 4x6", "RFFT", (4, 6), grid((4, 6), lambda i, j: i + 2 * j, np.float64),
     grid((4, 4), cplx(lambda i, j: (i - j, i * j + 1)), np.complex128))
# IRFFT, even and odd n (imaginary parts at frequency 0 and n/2 included:
# IRFFT ignores them, so their cotangent is 0), and over two dimensions.
case("irfft 8", "IRFFT", (8,), grid((2, 5), cplx(lambda i, j: (j - i, j + i)), np.complex128),
     grid((2, 8), lambda i, j: i + j * j - 4, np.float64))
case("irfft 5", "IRFFT", (5,), grid((3, 3), cplx(lambda i, j: (i * j, 1 - j)), np.complex128),
     grid((3, 5), lambda i, j: 2 * i - j, np.float64))
case("irfft 4x6", "IRFFT", (4, 6), grid((4, 4), cplx(lambda i, j: (i + j, i - j)), np.complex128),
     grid((4, 6), lambda i, j: (i * 6 + j) % 5 - 2, np.float64))
