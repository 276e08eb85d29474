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
