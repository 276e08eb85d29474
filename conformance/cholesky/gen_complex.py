"""Expected values of conformance/cholesky/complex.xlet and
conformance/triangular_solve/complex.xlet: jax on CPU (jax 0.10.2), c128.
For complex matrices Cholesky's factor satisfies a = L L^H (lower) or
a = U^H U (upper), and TriangularSolve with ADJOINT uses the conjugate
transpose. Run: V/bin/python conformance/cholesky/gen_complex.py"""
import numpy as np
import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
from jax.lax import linalg as lax_linalg

jax.config.update("jax_enable_x64", True)


def lit(a):
    a = np.asarray(a)
    def z(v):
        return f"({float(v.real)!r}, {float(v.imag)!r})"
    rows = ", ".join("{" + ", ".join(z(v) for v in r) + "}" for r in a)
    return f"c128[{a.shape[0]}x{a.shape[1]}] {{{rows}}}"

# A Hermitian positive definite matrix: a = m m^H + 3 I.
m = np.array([[1 + 1j, 2, 0], [0, 1 - 1j, 1j], [2j, 1, 1]], dtype=np.complex128)
a = m @ m.conj().T + 3 * np.eye(3)
print("a:", lit(a))
print("cholesky lower:", lit(lax_linalg.cholesky(jnp.asarray(a), symmetrize_input=False)))
print("cholesky upper:", lit(jsl.cholesky(jnp.asarray(a), lower=False)))
L = np.asarray(lax_linalg.cholesky(jnp.asarray(a), symmetrize_input=False))
b = np.array([[1, 1j], [2 - 1j, 0], [0, 3]], dtype=np.complex128)
print("b:", lit(b))
for t in ["NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"]:
    tr = {"NO_TRANSPOSE": 0, "TRANSPOSE": 1, "ADJOINT": 2}[t]
    x = lax_linalg.triangular_solve(jnp.asarray(L), jnp.asarray(b), left_side=True, lower=True,
                                    transpose_a=tr in (1, 2), conjugate_a=tr == 2)
    print(f"solve left lower {t}:", lit(x))
