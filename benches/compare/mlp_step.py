"""Issue 26's MLP target: one SGD training step of a small MLP (batch 32,
784-128-10, softmax cross-entropy, jax.value_and_grad + SGD), exported from
JAX as StableHLO and run by xlet, beside jax.jit of the same step.

- xlet: the REPL, `:import step.mlir as step`, the arrays bound with `:npy`,
  then `:time step(w1, b1, w2, b2, x, y)` (median of its runs; a fresh
  result each run), as a user times it;
- xlet from Python: xlet.run_module(text, ...) per call (translation
  included), when the package is installed;
- jax.jit: the compiled step on the same arrays (median, after warm-up).

Also checks that xlet's results agree with jax's.

Usage: python benches/compare/mlp_step.py [path/to/xlet]
"""

import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from common import median, xlet_medians  # noqa: E402


def main():
    import jax
    import jax.numpy as jnp

    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/xlet"
    rng = np.random.default_rng(0)
    w1 = (rng.standard_normal((784, 128)) * 0.05).astype(np.float32)
    b1 = np.zeros(128, np.float32)
    w2 = (rng.standard_normal((128, 10)) * 0.05).astype(np.float32)
    b2 = np.zeros(10, np.float32)
    x = rng.standard_normal((32, 784)).astype(np.float32)
    y = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 32)]
    args = (w1, b1, w2, b2, x, y)

    def loss(params, x, y):
        w1, b1, w2, b2 = params
        h = jax.nn.relu(x @ w1 + b1)
        logits = h @ w2 + b2
        return -jnp.mean(jnp.sum(y * jax.nn.log_softmax(logits), axis=-1))

    def step(w1, b1, w2, b2, x, y):
        params = (w1, b1, w2, b2)
        l, g = jax.value_and_grad(loss)(params, x, y)
        return (l,) + tuple(p - 0.1 * gp for p, gp in zip(params, g))

    jstep = jax.jit(step)
    want = [np.asarray(r) for r in jstep(*args)]
    jit_ms = median(lambda: jax.block_until_ready(jstep(*args)), 101)
    text = jstep.lower(*args).as_text()

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "step.mlir")
        open(path, "w").write(text)
        names = ["w1", "b1", "w2", "b2", "x", "y"]
        setup = [f":import {path} as step"]
        for n, a in zip(names, args):
            np.save(os.path.join(d, n + ".npy"), a)
            setup.append(f":npy {n} {os.path.join(d, n + '.npy')}")
        call = f"step({', '.join(names)})"
        (repl_ms,) = xlet_medians(binary, setup, [call])

    line = f"MLP step, batch 32, 784-128-10 (ms, median): xlet REPL :time {repl_ms:.3f}"
    try:
        import xlet

        got = xlet.run_module(text, *args)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=2e-4, atol=1e-5)
        py_ms = median(lambda: xlet.run_module(text, *args), 21)
        line += f", xlet.run_module {py_ms:.3f}"
    except ImportError:
        pass
    line += f", jax.jit {jit_ms:.3f}, ratio (REPL/jit) {repl_ms / jit_ms:.2f}"
    print(line)


if __name__ == "__main__":
    main()
