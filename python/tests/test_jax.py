"""A round trip against jax where the environment has it (optional in CI)."""

import numpy as np
import pytest

import xlet

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")


def test_a_jitted_function_exported_as_stablehlo_runs_the_same():
    def f(x, w, b):
        return jnp.tanh(x @ w + b), jnp.sum(x, axis=0)

    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 8)).astype(np.float32)
    w = rng.standard_normal((8, 3)).astype(np.float32)
    b = rng.standard_normal((3,)).astype(np.float32)
    text = jax.jit(f).lower(x, w, b).as_text()
    got = xlet.run_module(text, x, w, b)
    want = jax.jit(f)(x, w, b)
    for g, w_ in zip(got, want):
        np.testing.assert_allclose(g, np.asarray(w_), rtol=1e-5, atol=1e-6)


def test_bf16_from_jax_arrays():
    a = jnp.arange(8, dtype=jnp.bfloat16) / 4
    r = xlet.eval("x + x", x=np.asarray(a))
    np.testing.assert_array_equal(r.astype(np.float32), np.asarray(a + a).astype(np.float32))
