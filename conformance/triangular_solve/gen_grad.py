"""Expected values of conformance/triangular_solve/grad.xlet: jax.vjp of
lax.linalg.triangular_solve on XLA:CPU (jax_enable_x64), whose rules xlet's
TriangularSolve gradient follows. Run with the venv of the README's reference
section: V/bin/python conformance/triangular_solve/gen_grad.py. `a` holds
values in the triangle the solve does not read too; their cotangent is 0.
Each output line is `name: xlet literal`."""
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


a = np.array([[2.0, 7.0, -1.0], [1.0, 4.0, 5.0], [-1.0, 0.5, 3.0]])
b_left = np.array([[1.0, 2.0], [3.0, -1.0], [0.0, 2.0]])
b_right = b_left.T.copy()
ct_left = np.array([[1.0, -1.0], [0.5, 2.0], [3.0, 1.0]])
ct_right = ct_left.T.copy()
za = a + 1j * np.array([[0.5, 1.0, 2.0], [-1.0, 1.0, 0.0], [2.0, -0.5, -1.0]])
zb = b_left + 1j * np.array([[1.0, 0.0], [-1.0, 2.0], [0.5, 0.5]])
zct = ct_left - 1j * np.array([[2.0, 1.0], [0.0, 1.0], [1.0, -1.0]])

forms = {"NO_TRANSPOSE": (False, False), "TRANSPOSE": (True, False), "ADJOINT": (True, True)}


def case(name, a, b, ct, left, lower, unit, tr):
    transpose_a, conjugate_a = forms[tr]
    f = lambda a, b: lax.linalg.triangular_solve(
        a, b, left_side=left, lower=lower, transpose_a=transpose_a,
        conjugate_a=conjugate_a, unit_diagonal=unit)
    x, back = jax.vjp(f, a, b)
    da, db = back(ct)
    print(f"{name} x: {lit(x)}")
    print(f"{name} da: {lit(da)}")
    print(f"{name} db: {lit(db)}")


case("left lower", a, b_left, ct_left, True, True, False, "NO_TRANSPOSE")
case("left upper transpose", a, b_left, ct_left, True, False, False, "TRANSPOSE")
case("right lower unit", a, b_right, ct_right, False, True, True, "NO_TRANSPOSE")
case("right upper adjoint", a, b_right, ct_right, False, False, False, "ADJOINT")
case("complex left lower adjoint", za, zb, zct, True, True, False, "ADJOINT")
case("complex left upper transpose", za, zb, zct, True, False, False, "TRANSPOSE")
