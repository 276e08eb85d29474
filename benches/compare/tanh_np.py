# tanh(x*y+z) on f32[4096x4096] with numpy and jax.jit, best of 10.
# XLA_FLAGS=--xla_cpu_max_isa=AVX2 restricts jax's code to AVX2.
import time, numpy as np, jax, jax.numpy as jnp
rng = np.random.default_rng(0)
x, y, z = (rng.uniform(-2, 2, (4096, 4096)).astype(np.float32) for _ in range(3))
def best(f, n=10):
    t = []
    for _ in range(n):
        s = time.perf_counter(); f(); t.append(time.perf_counter() - s)
    return min(t) * 1e3
print(f"numpy     {best(lambda: np.tanh(x * y + z)):.1f} ms")
f = jax.jit(lambda a, b, c: jnp.tanh(a * b + c))
xj, yj, zj = (jax.device_put(a) for a in (x, y, z))
f(xj, yj, zj).block_until_ready()
print(f"jax.jit   {best(lambda: f(xj, yj, zj).block_until_ready()):.1f} ms")
