"""numpy and jax.jit beside xlet for issue 8's BatchNorm row:
BatchNormTraining f32[32x64x56x56], feature_index 1 (NCHW), epsilon 1e-3.
Best of N wall times in ms (each call makes fresh outputs, as xlet does).
Run: python benches/compare/batch_norm_np.py
"""
import time
import numpy as np
import jax
import jax.numpy as jnp

N, C, H, W = 32, 64, 56, 56
rng = np.random.default_rng(0)
x = rng.uniform(-0.5, 0.5, (N, C, H, W)).astype(np.float32)
s = rng.uniform(-0.5, 0.5, C).astype(np.float32)
o = rng.uniform(-0.5, 0.5, C).astype(np.float32)
eps = np.float32(1e-3)


def best(f, runs=15):
    f()
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        ts.append((time.perf_counter() - t) * 1e3)
    return min(ts)


def np_train(x, s, o):
    mean = x.mean(axis=(0, 2, 3))
    var = x.var(axis=(0, 2, 3))
    a = (s / np.sqrt(var + eps))[None, :, None, None]
    y = (x - mean[None, :, None, None]) * a + o[None, :, None, None]
    return y, mean, var


def jax_train(x, s, o):
    # What jax.lax / flax do for batch norm: two reductions and the affine map.
    mean = jnp.mean(x, axis=(0, 2, 3))
    var = jnp.mean(jnp.square(x - mean[None, :, None, None]), axis=(0, 2, 3))
    a = (s * jax.lax.rsqrt(var + eps))[None, :, None, None]
    y = (x - mean[None, :, None, None]) * a + o[None, :, None, None]
    return y, mean, var


jt = jax.jit(jax_train)
xj, sj, oj = jnp.asarray(x), jnp.asarray(s), jnp.asarray(o)
print(f"numpy   {best(lambda: np_train(x, s, o)):.2f} ms")
print(f"jax jit {best(lambda: jax.block_until_ready(jt(xj, sj, oj))):.2f} ms")

# NHWC (feature last) for the row path
xt = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
xtj = jnp.asarray(xt)


def jax_train_nhwc(x, s, o):
    mean = jnp.mean(x, axis=(0, 1, 2))
    var = jnp.mean(jnp.square(x - mean), axis=(0, 1, 2))
    return (x - mean) * (s * jax.lax.rsqrt(var + eps)) + o, mean, var


jn = jax.jit(jax_train_nhwc)
print(f"jax jit NHWC {best(lambda: jax.block_until_ready(jn(xtj, sj, oj))):.2f} ms")
