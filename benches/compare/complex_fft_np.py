# Issue 23's targets for complex numbers and Fft, in numpy and jax.jit on the
# shapes of complex_fft.xlet: best of 10 calls each, ms.
import time, numpy as np, jax, jax.numpy as jnp
rng = np.random.default_rng(0)
def u(*s):
    return rng.uniform(-1, 1, s).astype(np.float32)
def best(f, n=10):
    t = []
    for _ in range(n):
        s = time.perf_counter(); f(); t.append(time.perf_counter() - s)
    return min(t) * 1e3
A = (u(2048, 2048) + 1j * u(2048, 2048)).astype(np.complex64)
B = (u(2048, 2048) + 1j * u(2048, 2048)).astype(np.complex64)
P, Q = u(2048, 4096), u(2048, 4096)
X = (u(1024, 1024) + 1j * u(1024, 1024)).astype(np.complex64)
R = u(4096, 4096)
def jit(f, *a):
    g = jax.jit(f); d = [jax.device_put(x) for x in a]; g(*d).block_until_ready()
    return best(lambda: g(*d).block_until_ready())
rows = [
    ("add c64[2048x2048]", lambda: A + B, lambda a, b: a + b, (A, B)),
    ("add f32[2048x4096]", lambda: P + Q, lambda a, b: a + b, (P, Q)),
    ("mul c64[2048x2048]", lambda: A * B, lambda a, b: a * b, (A, B)),
    ("mul f32[2048x4096]", lambda: P * Q, lambda a, b: a * b, (P, Q)),
    ("exp c64[2048x2048]", lambda: np.exp(A), jnp.exp, (A,)),
    ("exp f32[2048x4096]", lambda: np.exp(P), jnp.exp, (P,)),
    ("fft c64[1024x1024] rows", lambda: np.fft.fft(X), jnp.fft.fft, (X,)),
    ("rfft f32[4096x4096] rows", lambda: np.fft.rfft(R), jnp.fft.rfft, (R,)),
    ("fft2 c64[1024x1024]", lambda: np.fft.fft2(X), jnp.fft.fft2, (X,)),
]
for name, npf, jf, args in rows:
    print(f"{name:26s} numpy {best(npf):8.2f}  jax.jit {jit(jf, *args):8.2f}")
