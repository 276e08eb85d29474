# Cholesky and TriangularSolve of f32[1024x1024] (1024 right-hand sides): xlet
# as a user sees it (the REPL's :time, median) beside numpy and jax.jit, in one
# sitting (spec/performance.md §11.1). Usage:
#   python3 benches/compare/linalg.py target/release/xlet
# (numpy, scipy and jax installed: pip install numpy scipy jax jaxlib).
import os, sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import median, xlet_medians  # noqa: E402

N = 1024
lines = [
    f"let G = RngUniform(f32 -1.0, f32 1.0, f32[{N}x{N}])",
    f"let I = ConvertElementType(Eq(Iota(s32[{N}x{N}], 0), Iota(s32[{N}x{N}], 1)), f32)",
    f"let A = Add(Div(DotGeneral(G, G, lhs_contracting_dimensions={{1}}, rhs_contracting_dimensions={{1}}), f32 {N}), I)",
    "let L = Cholesky(A, lower=true)",
    f"let B = RngUniform(f32 -1.0, f32 1.0, f32[{N}x{N}])",
]
timed = [
    "Cholesky(A, lower=true)",
    "Cholesky(A, lower=false)",
    "TriangularSolve(L, B, true, true, false, NO_TRANSPOSE)",
    "TriangularSolve(L, B, true, true, false, TRANSPOSE)",
    "TriangularSolve(L, B, false, true, false, NO_TRANSPOSE)",
]


def others():
    import jax, jax.numpy as jnp, scipy.linalg as sl
    import jax.scipy.linalg as jsl
    from jax.lax import linalg as lax_linalg
    rng = np.random.default_rng(0)
    g = rng.uniform(-1, 1, (N, N)).astype(np.float32)
    a = (g @ g.T / N + np.eye(N)).astype(np.float32)
    l = np.linalg.cholesky(a)
    b = rng.uniform(-1, 1, (N, N)).astype(np.float32)
    aj, lj, bj = jnp.asarray(a), jnp.asarray(l), jnp.asarray(b)
    chol = jax.jit(lambda x: lax_linalg.cholesky(x, symmetrize_input=False))
    tri = jax.jit(lambda t, y: jsl.solve_triangular(t, y, lower=True))
    tri_t = jax.jit(lambda t, y: jsl.solve_triangular(t, y, lower=True, trans=1))
    return {
        "chol": (median(lambda: np.linalg.cholesky(a)), median(lambda: chol(aj))),
        "solve": (median(lambda: np.linalg.solve(l, b)), median(lambda: tri(lj, bj)),
                  median(lambda: sl.solve_triangular(l, b, lower=True))),
        "solve_t": (median(lambda: sl.solve_triangular(l, b, lower=True, trans=1)),
                    median(lambda: tri_t(lj, bj))),
    }


x = xlet_medians(sys.argv[1], lines, timed)
o = others()
print(f"Cholesky lower        xlet {x[0]:7.2f}  numpy {o['chol'][0]:7.2f}  jax.jit {o['chol'][1]:7.2f} ms")
print(f"Cholesky upper        xlet {x[1]:7.2f}")
print(f"Solve left lower      xlet {x[2]:7.2f}  numpy solve {o['solve'][0]:7.2f}  scipy solve_triangular {o['solve'][2]:7.2f}  jax.jit {o['solve'][1]:7.2f} ms")
print(f"Solve left lower, T   xlet {x[3]:7.2f}  scipy {o['solve_t'][0]:7.2f}  jax.jit {o['solve_t'][1]:7.2f} ms")
print(f"Solve right lower     xlet {x[4]:7.2f}")
