"""Expected values of conformance/cholesky/*.xlet, from jax on CPU (LAPACK's
potrf through jaxlib; jax 0.10.2 made them). Run: python3 -m venv V &&
V/bin/pip install numpy jax jaxlib, then V/bin/python
conformance/cholesky/gen_expected.py. It prints the `then` lines the .xlet
files state (f32 to 9 significant digits, f64 to 17, compared with `~=`).

XLA's Cholesky(a, lower) is jax.lax.linalg.cholesky(a, symmetrize_input=False)
for lower=true (it reads only the lower triangle), and
jax.scipy.linalg.cholesky(a, lower=False) for lower=false (it factors the
conjugate transpose of a, so it reads only the upper triangle, and returns the
upper factor). Both put zeros in the other triangle, and both return NaN in the
whole factor's triangle when LAPACK reports that a pivot is not positive
(jax replaces the result where potrf's info is nonzero).
"""
import numpy as np
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
from jax.lax import linalg as lax_linalg

jax.config.update("jax_enable_x64", True)


def chol(a, lower):
    a = jnp.asarray(a)
    if lower:
        return np.asarray(lax_linalg.cholesky(a, symmetrize_input=False))
    return np.asarray(jsl.cholesky(a, lower=False))


def lit(x):
    """An xlet literal body: nested braces; f32 to 9 significant digits, f64
    to 17 (each round-trips)."""
    if x.ndim == 0:
        v = float(x)
        if np.isnan(v):
            return "nan"
        if np.isinf(v):
            return "inf" if v > 0 else "-inf"
        return f"{v:.17g}" if x.dtype == np.float64 else f"{v:.9g}"
    return "{" + ", ".join(lit(y) for y in x) + "}"


def ty(x):
    name = {np.float32: "f32", np.float64: "f64"}[x.dtype.type]
    return f"{name}[{'x'.join(str(d) for d in x.shape)}]"


def case(name, a, lower):
    r = chol(a, lower)
    print(f"// {name}")
    print(f"then Cholesky({ty(a)} {lit(a)}, lower={'true' if lower else 'false'}) ~= {ty(r)} {lit(r)}")


# A positive definite matrix with 99 / -99 in the triangle that is not read.
s = np.array([[4.0, 2.0, -2.0], [2.0, 10.0, 5.0], [-2.0, 5.0, 9.0]], np.float32)
lower_only = np.where(np.tril(np.ones((3, 3))) > 0, s, np.float32(99))
upper_only = np.where(np.triu(np.ones((3, 3))) > 0, s, np.float32(-99))
case("lower: reads the lower triangle", lower_only, True)
case("upper: reads the upper triangle", upper_only, False)
case("f64", s.astype(np.float64), True)

# A batch [2, 3, 3] and a batch [2, 1, 2, 2].
b = np.stack([s, np.array([[9.0, 3.0, 0.0], [3.0, 5.0, 1.0], [0.0, 1.0, 2.0]], np.float32)])
case("batch of two", b, True)
case("batch of two, upper", b, False)
c = np.array([[[[1.0, 0.5], [0.5, 2.0]]], [[[16.0, -4.0], [-4.0, 5.0]]]])
case("rank 4, f64", c, True)

# Not positive definite: the second pivot is 5 - 2^2/1... negative, and the
# last pivot negative; the batch's other matrix is fine.
bad = np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]], np.float32)
late = np.array([[4.0, 2.0, 1.0], [2.0, 5.0, 3.0], [1.0, 3.0, -6.0]], np.float32)
case("not positive definite (second pivot)", bad, True)
case("not positive definite (last pivot)", late, True)
case("not positive definite (last pivot), upper", late, False)
case("batch: one bad matrix, one good", np.stack([late, s]), True)
case("1x1 zero", np.zeros((1, 1), np.float32), True)
case("1x1 negative", np.array([[-4.0]], np.float32), True)
case("NaN below the first pivot: not a failure, NaN flows on", np.array([[4.0, 0.0], [np.nan, 1.0]], np.float32), True)
case("inf pivot", np.array([[np.inf, 0.0], [1.0, 1.0]], np.float32), True)

# A larger matrix (across xlet's block width, 64): a = g·gᵀ + 80·I, g[i][j] =
# ((7i + 3j) mod 11 - 5) / 5, 80x80; printed as a few entries of the factor.
n = 80
i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
g = (((7 * i + 3 * j) % 11) - 5) / 5.0
a = g @ g.T + 80.0 * np.eye(n)
l = chol(a, True)
print("// 80x80 f64: l[79][0], l[79][63], l[79][64], l[79][79], l[40][40], sum(l)")
print(l[79, 0], l[79, 63], l[79, 64], l[79, 79], l[40, 40], l.sum())
