# Issue 23's speed target for the small types: conversions between f32 and
# the f8 formats at memory speed ("within 2x of a copy of the larger side").
# xlet as a user sees it (the REPL's :time, median, a fresh result each run)
# beside numpy (ml_dtypes' astype, and a copy of the f32 array) and jax.jit,
# in one sitting. Usage:
#   python3 benches/compare/small_types.py target/release/xlet
# (numpy, ml_dtypes and jax installed). xlet's own copy of the f32 array is
# `Neg(X)`: one read and one write of every element, as a copy.
import os, sys
import numpy as np
import ml_dtypes as m

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import median, xlet_medians  # noqa: E402

N = "4096x4096"
lines = [
    f"let X = RngUniform(f32 -100.0, f32 100.0, f32[{N}])",
    "let E4 = ConvertElementType(X, f8e4m3fn)",
    "let E5 = ConvertElementType(X, f8e5m2)",
    "let F4 = ConvertElementType(X, f4e2m1fn)",
]
timed = [
    ("copy f32 (Neg)", "Neg(X)", lambda d: d["X"].copy(), lambda x: -x, "X"),
    ("f32 -> f8e4m3fn", "ConvertElementType(X, f8e4m3fn)", lambda d: d["X"].astype(m.float8_e4m3fn),
     lambda x: x.astype(m.float8_e4m3fn), "X"),
    ("f32 -> f8e5m2", "ConvertElementType(X, f8e5m2)", lambda d: d["X"].astype(m.float8_e5m2),
     lambda x: x.astype(m.float8_e5m2), "X"),
    ("f32 -> f4e2m1fn", "ConvertElementType(X, f4e2m1fn)", lambda d: d["X"].astype(m.float4_e2m1fn),
     lambda x: x.astype(m.float4_e2m1fn), "X"),
    ("f8e4m3fn -> f32", "ConvertElementType(E4, f32)", lambda d: d["E4"].astype(np.float32),
     lambda x: x.astype(np.float32), "E4"),
    ("f8e5m2 -> f32", "ConvertElementType(E5, f32)", lambda d: d["E5"].astype(np.float32),
     lambda x: x.astype(np.float32), "E5"),
    ("f4e2m1fn -> f32", "ConvertElementType(F4, f32)", lambda d: d["F4"].astype(np.float32),
     lambda x: x.astype(np.float32), "F4"),
    ("f8e4m3fn add", "E4 + E4", lambda d: d["E4"] + d["E4"], lambda x: x + x, "E4"),
]


def others():
    import jax
    import jax.numpy as jnp
    x = np.random.default_rng(0).uniform(-100, 100, (4096, 4096)).astype(np.float32)
    d = {"X": x, "E4": x.astype(m.float8_e4m3fn), "E5": x.astype(m.float8_e5m2),
         "F4": x.astype(m.float4_e2m1fn)}
    jd = {k: jnp.asarray(v) for k, v in d.items()}
    out = []
    for _, _, npf, jf, arg in timed:
        f = jax.jit(jf)
        out.append((median(lambda: npf(d)), median(lambda: f(jd[arg]))))
    return out


x = xlet_medians(sys.argv[1], lines, [t[1] for t in timed])
o = others()
for (name, *_), xt, (nt, jt) in zip(timed, x, o):
    print(f"{name:18s} xlet {xt:8.2f}  numpy/ml_dtypes {nt:8.2f}  jax.jit {jt:8.2f} ms")
