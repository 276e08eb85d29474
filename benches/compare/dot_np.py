# numpy / jax timings for issue 8's Dot rows, same sitting as xlet's.
import time, numpy as np, jax, jax.numpy as jnp
def best(f, n=15):
    f(); t = []
    for _ in range(n):
        s = time.perf_counter(); r = f()
        if hasattr(r, "block_until_ready"): r.block_until_ready()
        t.append(time.perf_counter() - s)
    t.sort()
    return t[0] * 1e3, t[len(t)//2] * 1e3
rng = np.random.default_rng(0)
A = rng.random((1024, 1024), dtype=np.float32) - 0.5
B = rng.random((1024, 1024), dtype=np.float32) - 0.5
Aj, Bj = jnp.asarray(A), jnp.asarray(B)
dot = jax.jit(lambda a, b: jnp.dot(a, b))
print("dot f32 1024  numpy %.2f/%.2f  jit %.2f/%.2f" % (best(lambda: A @ B) + best(lambda: dot(Aj, Bj))))
print("dot f32 1024 rhs.T  numpy %.2f/%.2f  jit %.2f/%.2f" % (best(lambda: A @ B.T) + best(lambda: jax.jit(lambda a, b: a @ b.T)(Aj, Bj))))
As, Bs = (A * 100).astype(np.int32), (B * 100).astype(np.int32)
Asj, Bsj = jnp.asarray(As), jnp.asarray(Bs)
print("dot s32 1024  numpy %.2f/%.2f  jit %.2f/%.2f" % (best(lambda: As @ Bs, 3) + best(lambda: dot(Asj, Bsj), 5)))
Ah, Bh = Aj.astype(jnp.bfloat16), Bj.astype(jnp.bfloat16)
print("dot bf16 1024  jit %.2f/%.2f" % best(lambda: dot(Ah, Bh), 5))
L = rng.random((64, 128, 128), dtype=np.float32); R = rng.random((64, 128, 128), dtype=np.float32)
Lj, Rj = jnp.asarray(L), jnp.asarray(R)
bm = jax.jit(lambda a, b: jax.lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))))
print("batch 64x128x128  numpy %.2f/%.2f  jit %.2f/%.2f" % (best(lambda: np.matmul(L, R)) + best(lambda: bm(Lj, Rj))))
