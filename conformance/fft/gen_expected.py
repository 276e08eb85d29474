"""Expected values of the Fft conformance cases in this folder: jax's
jnp.fft on XLA:CPU (which lowers to the Fft op: fftn/ifftn are FFT/IFFT,
rfftn/irfftn are RFFT/IRFFT over the last axes). Run with the venv of the
README's reference section: V/bin/python conformance/fft/gen_expected.py.
Inputs are small integers or simple formulas so that the .xlet files can
write them exactly; each output line is `name: xlet literal`."""
import numpy as np
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)


def part(v, t):
    v = float(t(v))
    return repr(v).removesuffix(".0") if v == int(v) and abs(v) < 1e15 else repr(v)


def lit(a):
    a = np.asarray(a)
    if np.iscomplexobj(a):
        t = "c64" if a.dtype == np.complex64 else "c128"
        comp = np.float32 if t == "c64" else np.float64
        fmt = lambda z: f"({part(z.real, comp)}, {part(z.imag, comp)})"
    else:
        t = "f32" if a.dtype == np.float32 else "f64"
        fmt = lambda v: part(v, a.dtype.type)

    def rec(x):
        if x.ndim == 1:
            return "{" + ", ".join(fmt(v) for v in x) + "}"
        return "{" + ", ".join(rec(r) for r in x) + "}"

    return f"{t}[{'x'.join(map(str, a.shape))}] {rec(a)}"


def show(name, a):
    print(f"{name}: {lit(a)}")


# 1-D complex, length 8: x[j] = (j, 1 - j).
x8 = np.array([complex(j, 1 - j) for j in range(8)], dtype=np.complex64)
show("x8", x8)
show("fft x8", jnp.fft.fft(x8))
show("ifft x8", jnp.fft.ifft(x8))
# 2-D over the last two axes of c128[2x3x4]: x = (i + 2j - k, i*j + k).
x234 = np.array([[[complex(i + 2 * j - k, i * j + k) for k in range(4)] for j in range(3)] for i in range(2)],
                dtype=np.complex128)
show("x234", x234)
show("fft2 x234", jnp.fft.fftn(x234, axes=(1, 2)))
show("ifft2 x234", jnp.fft.ifftn(x234, axes=(1, 2)))
show("fft3 x234", jnp.fft.fftn(x234, axes=(0, 1, 2)))
# Real transforms.
r28 = np.array([[1, 2, 3, 4, 0, -1, -2, -3], [5, 0, 0, 0, 0, 0, 0, 1]], dtype=np.float32)
show("r28", r28)
show("rfft r28", jnp.fft.rfft(r28))
r35 = np.array([[1, 2, 3, 4, 5], [0, 1, 0, -1, 0], [2, 2, 2, 2, 2]], dtype=np.float64)
show("r35", r35)
show("rfft r35", jnp.fft.rfft(r35))
r46 = np.array([[i * 6 + j if (i + j) % 3 else -j for j in range(6)] for i in range(4)], dtype=np.float32)
show("r46", r46)
show("rfft2 r46", jnp.fft.rfftn(r46, axes=(0, 1)))
# Inverse real transforms: spectra of the real signals above, and n odd.
s = np.asarray(jnp.fft.rfft(r28))
show("irfft rfft r28", jnp.fft.irfft(s, n=8))
c23 = np.array([[4, complex(1, -1), complex(0, 2)], [1, 1, 1]], dtype=np.complex64)
show("c23", c23)
show("irfft5 c23", jnp.fft.irfft(c23, n=5))
show("irfft4 c23", jnp.fft.irfft(c23, n=4))
s2 = np.asarray(jnp.fft.rfftn(r46, axes=(0, 1)))
show("irfft2 rfft2 r46", jnp.fft.irfftn(s2, s=(4, 6), axes=(0, 1)))
