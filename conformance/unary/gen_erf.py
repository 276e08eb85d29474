"""Expected values of conformance/unary/erf.xlet: Python's math.erf (f64) and
jax's lax.erf (a real XLA Erf) on f32. Run with any Python 3 for the f64
values; with jax installed (python3 -m venv V && V/bin/pip install jax jaxlib)
it prints the f32 results too, as the f32 bit patterns the case compares."""
import math
import struct

xs = [0.0, 0.5, 1.0, -1.0, 2.0, 3.0, 1e-10, -4.5, 6.0]
for x in xs:
    print(f"f64 erf({x!r}) = {math.erf(x)!r}")
try:
    import numpy as np
    from jax import lax
    f = np.array([0.5, 1.0, -2.0, 0.1, 3.0, 1e-30, 10.0], dtype=np.float32)
    y = np.asarray(lax.erf(f))
    for a, b in zip(f, y):
        bits = struct.unpack("<i", struct.pack("<f", float(b)))[0]
        print(f"f32 erf({a!r}) = {b!r} bits {bits}")
    for a in f:
        r = np.float32(math.erf(float(a)))
        bits = struct.unpack("<i", struct.pack("<f", float(r)))[0]
        print(f"f32 round(math.erf({a!r})) = {r!r} bits {bits}")
except ImportError:
    pass
