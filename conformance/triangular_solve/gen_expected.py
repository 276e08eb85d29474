"""Expected values of conformance/triangular_solve/*.xlet, from jax on CPU
(jax.lax.linalg.triangular_solve, LAPACK's trsm through jaxlib; jax 0.10.2
made them). Run: python3 -m venv V && V/bin/pip install numpy jax jaxlib,
then V/bin/python conformance/triangular_solve/gen_expected.py. It prints the
`then` lines the .xlet files state (f32 to 9 significant digits, f64 to 17, compared with `~=`).

XLA's TriangularSolve(a, b, left_side, lower, unit_diagonal, transpose_a) is
jax's triangular_solve(a, b, left_side, lower, transpose_a=(transpose_a !=
NO_TRANSPOSE), conjugate_a=(transpose_a == ADJOINT), unit_diagonal). Each
case is also checked here against numpy: op(a) built from the given triangle
only, then np.linalg.solve.
"""
import numpy as np
import jax
from jax.lax import linalg as lax_linalg

jax.config.update("jax_enable_x64", True)

TR = ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"]


def solve(a, b, left, lower, unit, tr):
    x = lax_linalg.triangular_solve(
        a, b, left_side=left, lower=lower, transpose_a=tr != "NO_TRANSPOSE",
        conjugate_a=tr == "ADJOINT", unit_diagonal=unit)
    return np.asarray(x)


def by_numpy(a, b, left, lower, unit, tr):
    if a.ndim > 2:
        return np.stack([by_numpy(x, y, left, lower, unit, tr) for x, y in zip(a, b)])
    t = np.tril(a) if lower else np.triu(a)
    if unit:
        t = t - np.diag(np.diag(t)) + np.eye(len(t), dtype=t.dtype)
    if tr != "NO_TRANSPOSE":
        t = t.T
    if left:
        return np.linalg.solve(t.astype(np.float64), b.astype(np.float64))
    return np.linalg.solve(t.T.astype(np.float64), b.T.astype(np.float64)).T


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


def b_(v):
    return "true" if v else "false"


def line(aname, a, bname, b, left, lower, unit, tr, check=True):
    x = solve(a, b, left, lower, unit, tr)
    if check:
        np.testing.assert_allclose(x, by_numpy(a, b, left, lower, unit, tr), rtol=1e-5)
    print(f"then TriangularSolve({aname}, {bname}, {b_(left)}, {b_(lower)}, {b_(unit)}, {tr}) ~= {ty(x)} {lit(x)}")


# Both triangles meaningful and different: reading the wrong one shows.
a = np.array([[2.0, 7.0, -3.0], [1.0, 4.0, 5.0], [-1.0, 3.0, 5.0]], np.float32)
bl = np.array([[1.0, 2.0], [3.0, -4.0], [5.0, 6.0]], np.float32)
br = bl.T.copy()
print(f"let a = {ty(a)} {lit(a)}")
print(f"let bl = {ty(bl)} {lit(bl)}")
print(f"let br = {ty(br)} {lit(br)}")
for left in [True, False]:
    for lower in [True, False]:
        for unit in [False, True]:
            for tr in TR:
                line("a", a, "bl" if left else "br", bl if left else br, left, lower, unit, tr)

print("// batch [2], f64, right side")
ab = np.stack([a, a.T * 0.5 + 3 * np.eye(3, dtype=np.float32)]).astype(np.float64)
bb = np.stack([br, br[::-1]]).astype(np.float64)
print(f"let ab = {ty(ab)} {lit(ab)}")
print(f"let bb = {ty(bb)} {lit(bb)}")
line("ab", ab, "bb", bb, False, True, False, "TRANSPOSE")
line("ab", ab, "bb", bb, False, False, False, "NO_TRANSPOSE")

print("// singular: a zero on the diagonal")
s = np.array([[2.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 3.0]], np.float32)
print(f"let s = {ty(s)} {lit(s)}")
line("s", s, "bl", bl, True, True, False, "NO_TRANSPOSE", check=False)
line("s", s, "bl", bl, True, True, False, "TRANSPOSE", check=False)
z = np.zeros((2, 2), np.float32)
line("f32[2x2] {{0, 0}, {0, 0}}", z, "f32[2x1] {{1}, {0}}", np.array([[1.0], [0.0]], np.float32), True, True, False, "NO_TRANSPOSE", check=False)

# Larger: 100x100 lower (across xlet's block width, 64), 70 right-hand sides.
m, r = 100, 70
i, j = np.meshgrid(np.arange(m), np.arange(m), indexing="ij")
t = np.where(j <= i, ((3 * i + 5 * j) % 7 - 3) / 10.0, 0.0) + 2.0 * np.eye(m)
p, q = np.meshgrid(np.arange(m), np.arange(r), indexing="ij")
rhs = (((p + 2 * q) % 5) - 2.0)
x = solve(t, rhs, True, True, False, "NO_TRANSPOSE")
print("// 100x100, 70 rhs, f64: x[99][0], x[99][69], x[64][3], x[63][3], sum(|x|)")
print(x[99, 0], x[99, 69], x[64, 3], x[63, 3], np.abs(x).sum())
