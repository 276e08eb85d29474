"""Expected values of conformance/top_k/*.xlet, from jax's lax.top_k (a real
XLA TopK). Run: python3 -m venv V && V/bin/pip install numpy jax jaxlib, then
V/bin/python conformance/top_k/gen_expected.py. It prints, for each case, the
values and indices the .xlet files state (jax 0.10.2 on CPU made them).

jax's top_k has no `largest` argument: the smallest-k cases are checked here
against a stable ascending sort in the same total order (numpy's argsort, kind
'stable', of the total-order integer keys), which is XLA's comparator for
largest=false.
"""
import numpy as np
import jax
from jax import lax

jax.config.update("jax_enable_x64", True)


def total_key(x):
    """Float bits mapped so that integer order is the IEEE total order: a
    negative float's key is -1 - (its bits without the sign), so -0 < +0 and a
    negative NaN is below -inf."""
    it = np.int32 if x.dtype == np.float32 else np.int64
    b = x.view(it).astype(np.int64)
    mag = b & np.int64(np.iinfo(it).max)
    return np.where(b < 0, -1 - mag, b)


def show(name, x, k):
    v, i = lax.top_k(x, k)
    v, i = np.asarray(v), np.asarray(i)
    print(name, "values", v.tolist(), "sign", np.signbit(v).tolist() if v.dtype.kind == "f" else "", "indices", i.tolist())


def smallest(name, x, k):
    x = np.asarray(x)
    key = total_key(x) if x.dtype.kind == "f" else x.astype(np.int64)
    i = np.argsort(key, axis=-1, kind="stable")[..., :k]
    v = np.take_along_axis(x, i, axis=-1)
    print(name, "values", v.tolist(), "sign", np.signbit(v).tolist() if v.dtype.kind == "f" else "", "indices", i.tolist())


nan = np.float32("nan")
mnan = -np.abs(nan)
row = np.array([1, nan, 3, 3, -0.0, 0.0, np.inf, -np.inf], dtype=np.float32)
show("nan_and_zeros k=8", row, 8)
show("nan_and_zeros k=3", row, 3)
neg = np.array([1, mnan, -np.inf, nan, 2], dtype=np.float32)
show("negative nan k=5", neg, 5)
smallest("smallest nan_and_zeros k=8", row, 8)
smallest("smallest negative nan k=5", neg, 5)

m = np.array([[5, 1, 5, 3], [-1, -1, 0, -7], [2, 9, 9, 9]], dtype=np.int32)
show("rows k=2", m, 2)
smallest("rows smallest k=2", m, 2)
show("rows k=4", m, 4)
show("rows k=0", m, 0)

t = np.arange(24, dtype=np.float64).reshape(2, 3, 4) % 5
show("rank3 f64 k=2", t, 2)
u = np.array([200, 3, 255, 0, 3], dtype=np.uint8)
show("u8 k=3", u, 3)
b = np.array([1.5, -2, 0.25, 8], dtype=jax.numpy.bfloat16)
show("bf16 k=2", b, 2)
