"""Expected values of conformance/cholesky/grad.xlet: jax.vjp on XLA:CPU
(jax_enable_x64) of lax.linalg.cholesky applied to the symmetric matrix that
XLA's Cholesky reads (the lower triangle mirrored for lower=true, the upper
for lower=false), so the gradient is that of the op itself: 0 for the
triangle it never reads. Run with the venv of the README's reference
section: V/bin/python conformance/cholesky/gen_grad.py. Each output line is
`name: xlet literal`."""
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

jax.config.update("jax_enable_x64", True)


def lit(a):
    a = np.asarray(a)
    r = lambda v: repr(float(v))

    def rec(x):
        if x.ndim == 1:
            return "{" + ", ".join(r(v) for v in x) + "}"
        return "{" + ", ".join(rec(s) for s in x) + "}"

    return f"f64[{'x'.join(map(str, a.shape))}] {rec(a)}"


def chol(a, lower):
    if lower:
        s = jnp.tril(a) + jnp.swapaxes(jnp.tril(a, -1), -1, -2)
        return lax.linalg.cholesky(s, symmetrize_input=False)
    s = jnp.triu(a) + jnp.swapaxes(jnp.triu(a, 1), -1, -2)
    return jnp.swapaxes(lax.linalg.cholesky(s, symmetrize_input=False), -1, -2)


# The lower triangle of a is {{4}, {2, 5}, {-1, 1, 6}}; the upper holds 9s.
a = np.array([[4.0, 9.0, 9.0], [2.0, 5.0, 9.0], [-1.0, 1.0, 6.0]])
ct = np.array([[1.0, 2.0, -1.0], [0.5, -1.0, 3.0], [2.0, 1.0, 1.0]])
for lower, m in [(True, a), (False, a.T.copy())]:
    l, back = jax.vjp(lambda a: chol(a, lower), m)
    name = "lower" if lower else "upper"
    print(f"{name} a: {lit(m)}")
    print(f"{name} l: {lit(l)}")
    print(f"{name} da: {lit(back(ct)[0])}")
# A batch of two, lower.
b = np.stack([a, np.array([[3.0, 0.0, 0.0], [1.0, 3.0, 0.0], [0.5, -1.0, 2.0]])])
cb = np.stack([ct, ct.T])
_, back = jax.vjp(lambda a: chol(a, True), b)
print(f"batch a: {lit(b)}")
print(f"batch ct: {lit(cb)}")
print(f"batch da: {lit(back(cb)[0])}")

# Complex (c128), lower and upper: the op reads one triangle and the real
# part of the diagonal, standing for the Hermitian matrix they make.
def herm(a, lower):
    if not lower:
        a = jnp.swapaxes(a, -1, -2)
    low = jnp.tril(a, -1)
    d = jnp.real(jnp.diagonal(a, axis1=-2, axis2=-1)).astype(a.dtype)
    return low + jnp.conj(jnp.swapaxes(low, -1, -2)) + d[..., None] * jnp.eye(a.shape[-1], dtype=a.dtype)


def zlit(a):
    a = np.asarray(a)
    r = lambda v: repr(float(v))

    def rec(x):
        if x.ndim == 1:
            return "{" + ", ".join(f"({r(z.real)}, {r(z.imag)})" for z in x) + "}"
        return "{" + ", ".join(rec(s) for s in x) + "}"

    return f"c128[{'x'.join(map(str, a.shape))}] {rec(a)}"


za = np.array([[4 + 1j, 9 + 9j, 9 - 9j], [2 - 1j, 5 - 2j, 9j], [-1 + 0.5j, 1 + 1j, 6 + 3j]])
zct = np.array([[1 + 1j, 2, -1j], [0.5 - 1j, -1 + 2j, 3], [2 + 0.5j, 1 - 1j, 1 + 1j]])
for lower, m in [(True, za), (False, za.T.copy())]:
    def f(a):
        l = lax.linalg.cholesky(herm(a, lower), symmetrize_input=False)
        return l if lower else jnp.swapaxes(l, -1, -2)
    l, back = jax.vjp(f, m)
    name = "complex lower" if lower else "complex upper"
    print(f"{name} a: {zlit(m)}")
    print(f"{name} l: {zlit(l)}")
    print(f"{name} da: {zlit(back(zct)[0])}")
print(f"complex ct: {zlit(zct)}")
