# The RngBitGenerator values in src/kernels/rng/tests.rs come from this script:
#   /work/pyenv/bin/python src/kernels/rng/jax_values.py
# (jax 0.10.2 / jaxlib 0.10.2, CPU; the StableHLO op compiled by XLA directly,
# because jax.lax.rng_bit_generator only takes u64[2] states).
# Prints XLA's RngBitGenerator results (jax's CPU backend, StableHLO compiled directly).
import jax, numpy as np
jax.config.update("jax_enable_x64", True)
from jax._src import xla_bridge as xb
from jax._src.lib import xla_client as xc
backend = xb.get_backend("cpu")
def run(alg, state, shape, ety):
    n = len(state)
    t = "x".join(map(str, shape)) + "x" + ety if shape else ety
    txt = f'''module @m {{
  func.func public @main(%arg0: tensor<{n}xui64>) -> (tensor<{n}xui64>, tensor<{t}>) {{
    %s, %v = "stablehlo.rng_bit_generator"(%arg0) {{rng_algorithm = #stablehlo<rng_algorithm {alg}>}} : (tensor<{n}xui64>) -> (tensor<{n}xui64>, tensor<{t}>)
    return %s, %v : tensor<{n}xui64>, tensor<{t}>
  }}
}}'''
    exe = backend.compile_and_load(txt, backend.devices()[:1], xc.CompileOptions())
    s, v = exe.execute([jax.device_put(np.array(state, dtype=np.uint64))])
    print(alg, state, shape, ety, "->", np.asarray(s).tolist(), np.asarray(v).reshape(-1).tolist())
M = 2**64 - 1
run("THREE_FRY", [1, 2], (2, 2), "ui64")
run("THREE_FRY", [1, 2], (2, 2), "ui32")
run("THREE_FRY", [1, 2], (2, 2), "ui8")
run("THREE_FRY", [42, 7], (3, 5), "ui32")
run("THREE_FRY", [42, 7], (), "ui32")
run("THREE_FRY", [5, M], (3,), "ui64")
run("THREE_FRY", [0x123456789abcdef0, 3], (2, 3, 2), "ui16")
run("PHILOX", [1, 2], (2, 2), "ui32")
run("PHILOX", [1, 2, 3], (2, 2), "ui32")
run("PHILOX", [9, 4, 1], (3,), "ui64")
run("PHILOX", [9, 4], (5,), "ui32")
run("PHILOX", [7, M, 5], (6,), "ui32")
run("PHILOX", [7, M], (6,), "ui32")
run("DEFAULT", [1, 2], (2, 2), "ui32")
