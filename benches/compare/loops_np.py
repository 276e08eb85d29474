# Issue 26's loop workloads (loops.xlet) in xlet (the REPL's :time, plans on
# and off with --no-plan), numpy (a Python loop) and jax.jit (lax.while_loop), one sitting.
# Usage: python loops_np.py target/release/xlet
import sys
import numpy as np
import jax
import jax.numpy as jnp
from jax import lax
from common import xlet_medians, median

binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/xlet"
src = open(__file__.replace("loops_np.py", "loops.xlet")).read().splitlines()
setup = [l for l in src if not l.startswith(":time")]
exprs = [l[len(":time "):] for l in src if l.startswith(":time")]
names = ["seed While (1000 x f32[10] add)", "100,000 x i + 1 (s32)",
         "10,000 DUS rows into f32[10000x128]", "10,000 x f32[4] add + counter"]
planned = xlet_medians(binary, setup, exprs)
reference = xlet_medians(binary, setup, exprs, ["--no-plan"])

c = np.arange(10, dtype=np.float32) / 2
def np_seed():
    i, v = 0, np.zeros(10, np.float32)
    while i < 1000:
        i, v = i + 1, v + c
    return v
def np_count():
    i = 0
    while i < 100000:
        i += 1
    return i
def np_dus():
    a = np.zeros((10000, 128), np.float32)
    i = 0
    while i < 10000:
        a[i, :] = np.float32(i)
        i += 1
    return a
k = np.array([1, 2, 3, 4], np.float32)
def np_small():
    i, v = 0, np.zeros(4, np.float32)
    while i < 10000:
        i, v = i + 1, v + k
    return v

cj = jnp.asarray(c)
j_seed = jax.jit(lambda v: lax.while_loop(lambda s: s[0] < 1000, lambda s: (s[0] + 1, s[1] + cj), (0, v)))
j_count = jax.jit(lambda i: lax.while_loop(lambda i: i < 100000, lambda i: i + 1, i))
j_dus = jax.jit(lambda a: lax.while_loop(
    lambda s: s[0] < 10000,
    lambda s: (s[0] + 1, lax.dynamic_update_slice(s[1], jnp.full((1, 128), s[0], jnp.float32), (s[0], 0))),
    (0, a)))
kj = jnp.asarray(k)
j_small = jax.jit(lambda v: lax.while_loop(lambda s: s[0] < 10000, lambda s: (s[0] + 1, s[1] + kj), (0, v)))
z10, z4, zbig = jnp.zeros(10, jnp.float32), jnp.zeros(4, jnp.float32), jnp.zeros((10000, 128), jnp.float32)

nps = [median(np_seed), median(np_count), median(np_dus), median(np_small)]
jxs = [median(lambda: j_seed(z10)[1]), median(lambda: j_count(0)),
       median(lambda: j_dus(zbig)[1]), median(lambda: j_small(z4)[1])]
print(f"{'workload (median ms)':40} {'xlet':>9} {'--no-plan':>9} {'numpy':>9} {'jax.jit':>9}")
for n, x, r, p, j in zip(names, planned, reference, nps, jxs):
    print(f"{n:40} {x:9.4f} {r:9.4f} {p:9.4f} {j:9.4f}")
