"""Expected values of conformance/grad/complex.xlet: jax.grad and jax.vjp on
XLA:CPU (jax_enable_x64) for the same functions of complex numbers. Run with
the venv of the README's reference section: V/bin/python
conformance/grad/gen_complex.py. Each output line is `name: xlet literal`."""
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

jax.config.update("jax_enable_x64", True)


def lit(a):
    a = np.asarray(a)
    r = lambda v: repr(float(v))
    if np.iscomplexobj(a):
        items = [f"({r(z.real)}, {r(z.imag)})" for z in a.ravel()]
        t = "c128"
    else:
        items = [r(v) for v in a.ravel()]
        t = "f64"
    shape = "x".join(map(str, a.shape))
    return f"{t}[{shape}] {{{', '.join(items)}}}" if a.ndim else f"{t} {items[0]}"


def show(name, a):
    print(f"{name}: {lit(a)}")


z = np.array([1 + 2j, -0.5 + 3j, 0.25 - 1j])
ct = np.array([2 - 1j, 0.5 + 0.5j, -1 + 3j])
a = np.array([1.0, -2.0, 0.5])
b = np.array([0.5, 1.5, -1.0])

# |z|^2 = Re(z conj z): 2 conj z.
show("sq", jax.grad(lambda z: jnp.sum(jnp.real(z * jnp.conj(z))))(z))
# A mix of holomorphic ops, Real, Imag and Abs.
def mix(z):
    return jnp.sum(jnp.real(jnp.exp(z) * jnp.log(z)) + jnp.imag(jnp.sqrt(z) / jnp.cos(z)) + jnp.abs(z))
show("mix", jax.grad(mix)(z))
# Complex to complex: the transpose, no conjugation (c tanh'(z) z + c tanh z).
def hol(z):
    return jnp.tanh(z) * z - z ** 3 + lax.rsqrt(z) + jnp.expm1(z) / lax.logistic(z) + jnp.sin(z) * jnp.log1p(z) + jnp.tan(z)
y, back = jax.vjp(hol, z)
show("hol y", y)
show("hol dz", back(ct)[0])
# Complex(a, b), Pow with a complex exponent, Abs: gradients of real parts.
def parts(a, b):
    return jnp.sum(jnp.abs(lax.complex(a, b) ** (0.5 + 1j)))
da, db = jax.grad(parts, argnums=(0, 1))(a, b)
show("parts da", da)
show("parts db", db)
# Real, Imag, Complex themselves: vjp of (Real z, Imag z) and of Complex(a, b).
_, back = jax.vjp(lambda z: jnp.real(z) * 2.0 + jnp.imag(z) * 3.0, z)
show("re im dz", back(a)[0])
_, back = jax.vjp(lambda a, b: lax.complex(a, b), a, b)
da, db = back(ct)
show("complex da", da)
show("complex db", db)
