# numpy's default generator (PCG64, single-threaded) for issue 9's random-number
# table: 10^8 f32 uniform and normal values, best of 5.
#   /work/pyenv/bin/python benches/compare/rng_np.py
import time
import numpy as np

g = np.random.default_rng(0)
for what, f in [
    ("uniform f32 1e8", lambda: g.random(100_000_000, dtype=np.float32)),
    ("normal f32 1e8", lambda: g.standard_normal(100_000_000, dtype=np.float32)),
    ("uniform s32 [0, 1000) 1e8", lambda: g.integers(0, 1000, 100_000_000, dtype=np.int32)),
]:
    best = min(
        (lambda t0: (f(), time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(5)
    )
    print(f"{what}: {best * 1e3:.1f} ms")
