"""Issue 25's speed targets, timed in one sitting (spec/python.md §7):

- per-call cost of xlet.eval("x + 1.0", x=a) on a small array, beside
  jax.jit's dispatch of the same and numpy's add;
- Tanh(x * y + z) on f32[4096x4096] from Python, beside the same expression
  in xlet's REPL (`:time`, median) on the same arrays.

Usage: python benches/compare/python_overhead.py target/release/xlet
(needs the xlet package installed: pip install ./python; jax optional).
"""

import os
import sys
import tempfile
import time

import numpy as np

import xlet

sys.path.insert(0, os.path.dirname(__file__))
from common import median, xlet_medians  # noqa: E402


def per_call_us(f, n=20000):
    f()
    best = []
    for _ in range(5):
        s = time.perf_counter()
        for _ in range(n):
            f()
        best.append((time.perf_counter() - s) / n * 1e6)
    return sorted(best)[2]


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/xlet"
    a = np.arange(8, dtype=np.float32)
    print(f"small call, f32[8]  (median of 5 runs of 20000 calls, us/call)")
    print(f"  xlet.eval('x + 1.0', x=a)   {per_call_us(lambda: xlet.eval('x + 1.0', x=a)):8.2f}")
    s = xlet.Session()
    print(f"  Session.run('x + 1.0', x=a) {per_call_us(lambda: s.run('x + 1.0', x=a)):8.2f}")
    print(f"  numpy a + 1.0               {per_call_us(lambda: a + 1.0):8.2f}")
    try:
        import jax

        f = jax.jit(lambda x: x + 1.0)
        print(f"  jax.jit(x + 1.0)(a)         {per_call_us(lambda: f(a).block_until_ready(), 5000):8.2f}")
    except ImportError:
        print("  jax not installed")

    rng = np.random.default_rng(0)
    x, y, z = (rng.uniform(-2, 2, (4096, 4096)).astype(np.float32) for _ in range(3))
    py_ms = median(lambda: xlet.eval("Tanh(x * y + z)", x=x, y=y, z=z), 11)
    with tempfile.TemporaryDirectory() as d:
        for n, v in (("x", x), ("y", y), ("z", z)):
            np.save(os.path.join(d, n + ".npy"), v)
        setup = [f":npy {n} {os.path.join(d, n + '.npy')}" for n in "xyz"]
        (repl_ms,) = xlet_medians(binary, setup, ["Tanh(x * y + z)"])
    print("Tanh(x * y + z), f32[4096x4096] (ms, median)")
    print(f"  from Python xlet.eval       {py_ms:8.2f}")
    print(f"  xlet REPL :time             {repl_ms:8.2f}")
    print(f"  ratio                       {py_ms / repl_ms:8.3f}")
    print(f"  numpy np.tanh(x * y + z)    {median(lambda: np.tanh(x * y + z), 11):8.2f}")


if __name__ == "__main__":
    main()
