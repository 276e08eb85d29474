"""Issue 24's speed targets, in one run: a JAX-exported MLP layer relu(x @ w + b)
at 256x256 (conformance/import/mlp256), run by

- xlet: `xlet run mlp256.mlir --arg ...` as a user runs it, start-up, reading the
  .npy files, translating, checking and printing included (median of runs);
- jax.jit: the compiled function on the same arrays (median, after warm-up);
- stablehlo.eval_module: jaxlib's bundled StableHLO reference interpreter.

Also the import speed: parse + translate + check of a constant-heavy module
(`xlet check`-like: `xlet translate` of a generated module with a 4 MB hex
constant), in MB/s.

Usage: python benches/compare/import_mlp.py [path/to/xlet]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
XLET = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/release/xlet")
CASE = os.path.join(ROOT, "conformance/import/mlp256")


def median_ms(f, n):
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        ts.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ts)


def main():
    import jax
    import jax.numpy as jnp
    from jaxlib.mlir import ir
    from jaxlib.mlir.dialects import stablehlo

    args = [os.path.join(CASE, f"arg{i}.npy") for i in range(3)]
    x, w, b = (np.load(a) for a in args)
    text = open(os.path.join(CASE, "mlp256.mlir")).read()
    cmd = [XLET, "run", os.path.join(CASE, "mlp256.mlir")] + sum((["--arg", a] for a in args), [])
    out = subprocess.run(cmd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    xlet_ms = median_ms(lambda: subprocess.run(cmd, capture_output=True), 21)

    f = jax.jit(lambda x, w, b: jax.nn.relu(x @ w + b))
    f(x, w, b).block_until_ready()
    jit_ms = median_ms(lambda: f(x, w, b).block_until_ready(), 51)
    np_ms = median_ms(lambda: np.maximum(x @ w + b, 0), 51)

    from jax._src.interpreters import mlir as jax_mlir

    with jax_mlir.make_ir_context():
        module = ir.Module.parse(text)
        attrs = [ir.DenseElementsAttr.get(a) for a in (x, w, b)]
        t = time.perf_counter()
        res = stablehlo.eval_module(module, attrs)
        ref_ms = (time.perf_counter() - t) * 1e3
        got = np.array(res[0])
    want = np.asarray(f(x, w, b))
    assert np.allclose(got, want, rtol=1e-4, atol=1e-4)

    print(f"MLP layer relu(x @ w + b), 256x256 f32 (ms, medians)")
    print(f"  xlet run (whole process)   {xlet_ms:9.2f}")
    print(f"  jax.jit (compiled call)    {jit_ms:9.3f}   xlet/jit {xlet_ms / jit_ms:8.1f}x")
    print(f"  numpy                      {np_ms:9.3f}")
    print(f"  stablehlo.eval_module      {ref_ms:9.1f}   interpreter/xlet {ref_ms / xlet_ms:8.0f}x")

    # Import speed on a constant-heavy module: a 1M-element f32 hex constant.
    n = 1 << 20
    data = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    hexs = data.tobytes().hex().upper()
    mod = (
        "module @big {\n  func.func public @main() -> tensor<%dxf32> {\n"
        '    %%0 = stablehlo.constant dense<"0x%s"> : tensor<%dxf32>\n'
        "    %%1 = stablehlo.negate %%0 : tensor<%dxf32>\n"
        "    return %%1 : tensor<%dxf32>\n  }\n}\n" % (n, hexs, n, n, n)
    )
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "big.mlir")
        open(p, "w").write(mod)
        size = os.path.getsize(p) / 1e6
        run = [XLET, "run", p, "--out", d]
        r = subprocess.run(run, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert np.array_equal(np.load(os.path.join(d, "result0.npy")), -data)
        ms = median_ms(lambda: subprocess.run(run, capture_output=True), 5)
        print(f"constant-heavy module ({size:.1f} MB, one 1M-element hex constant): "
              f"xlet run {ms:.0f} ms, {size / ms * 1e3:.0f} MB/s end to end")


if __name__ == "__main__":
    main()
