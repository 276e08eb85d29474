# Issue 26's trailing kernels: Sort of f32[10^6], Reduce add over dim 0 of
# f32[4096x4096] (and dim 1 beside it), ReduceWindow max 2x2 stride 2 of
# f32[8x64x112x112]; xlet as a user sees it (the REPL's :time, median)
# beside numpy and jax.jit, in one sitting (spec/performance.md §15, which has the numbers).
# Usage: python3 benches/compare/kernels26.py target/release/xlet
import os, sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import median, xlet_medians  # noqa: E402

lines = [
    "let S = RngUniform(f32 -1.0, f32 1.0, f32[1000000])",
    "let M = RngUniform(f32 -1.0, f32 1.0, f32[4096x4096])",
    "let P = RngUniform(f32 -1.0, f32 1.0, f32[8x64x112x112])",
]
timed = [
    "Sort(S)",
    "Reduce(M, 0.0, add, {0})",
    "Reduce(M, 0.0, add, {1})",
    "ReduceWindow(P, -inf, max, {1, 1, 2, 2}, {1, 1, 2, 2}, VALID)",
]
names = ["Sort f32[1000000]", "Reduce add dim 0 f32[4096x4096]",
         "Reduce add dim 1 f32[4096x4096]", "max-pool 2x2/2 f32[8x64x112x112]"]


def others():
    import jax, jax.numpy as jnp
    rng = np.random.default_rng(0)
    s = rng.uniform(-1, 1, 1000000).astype(np.float32)
    m = rng.uniform(-1, 1, (4096, 4096)).astype(np.float32)
    p = rng.uniform(-1, 1, (8, 64, 112, 112)).astype(np.float32)
    sj, mj, pj = jnp.asarray(s), jnp.asarray(m), jnp.asarray(p)
    jsort = jax.jit(jnp.sort)
    j0 = jax.jit(lambda x: jnp.sum(x, axis=0))
    j1 = jax.jit(lambda x: jnp.sum(x, axis=1))
    jpool = jax.jit(lambda x: jax.lax.reduce_window(
        x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID"))
    npool = lambda: p.reshape(8, 64, 56, 2, 56, 2).max(axis=(3, 5))
    return [
        (median(lambda: np.sort(s)), median(lambda: jsort(sj))),
        (median(lambda: m.sum(axis=0)), median(lambda: j0(mj))),
        (median(lambda: m.sum(axis=1)), median(lambda: j1(mj))),
        (median(npool), median(lambda: jpool(pj))),
    ]


x = xlet_medians(sys.argv[1], lines, timed)
o = others()
for n, xv, (nv, jv) in zip(names, x, o):
    print(f"{n:36} xlet {xv:7.2f}  numpy {nv:7.2f}  jax.jit {jv:7.2f} ms")
# np.sort's default (an AVX-512 quicksort where numpy enables it) is not
# stable; the stable one has the same contract as xlet's Sort.
s = np.random.default_rng(0).uniform(-1, 1, 1000000).astype(np.float32)
print(f"{'numpy sort kind=stable':36} {median(lambda: np.sort(s, kind='stable')):7.2f} ms")
