import time, numpy as np, jax, jax.numpy as jnp
from jax import lax
def best(f, n=10):
    f(); ts=[]
    for _ in range(n):
        t=time.perf_counter(); f(); ts.append(time.perf_counter()-t)
    return min(ts)*1e3
rng=np.random.default_rng(0)
x=rng.random((8,64,56,56),dtype=np.float32)-0.5
w=rng.random((64,64,3,3),dtype=np.float32)-0.5
w1=rng.random((64,64,1,1),dtype=np.float32)-0.5
xj=jnp.asarray(x); wj=jnp.asarray(w); w1j=jnp.asarray(w1)
f=jax.jit(lambda a,b: lax.conv_general_dilated(a,b,(1,1),'SAME',dimension_numbers=('NCHW','OIHW','NCHW')))
f(xj,wj).block_until_ready()
print("jax 3x3 SAME", best(lambda: f(xj,wj).block_until_ready()))
print("jax 1x1", best(lambda: f(xj,w1j).block_until_ready()))
# numpy: im2col + matmul via einsum on sliding windows
from numpy.lib.stride_tricks import sliding_window_view
def npconv(x,w):
    xp=np.pad(x,((0,0),(0,0),(1,1),(1,1)))
    win=sliding_window_view(xp,(3,3),axis=(2,3)) # 8,64,56,56,3,3
    return np.tensordot(win,w,axes=([1,4,5],[1,2,3])).transpose(0,3,1,2)
def npconv1(x,w):
    return np.einsum('oc,nchw->nohw', w[:,:,0,0], x, optimize=True)
print("numpy 3x3 SAME", best(lambda: npconv(x,w),5))
print("numpy 1x1", best(lambda: npconv1(x,w1),5))
r=np.asarray(f(xj,wj)); print("maxdiff", np.abs(r-npconv(x,w)).max())
