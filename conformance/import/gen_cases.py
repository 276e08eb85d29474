#!/usr/bin/env python3
"""Generate the import test cases under conformance/import/ from JAX.

Each case is a folder CASE/ holding
  CASE.mlir        StableHLO text: jax.jit(f).lower(*args).as_text()
  CASE.hlo         HLO text:       the same lowering, .as_text(dialect="hlo")
  argN.npy         the entry function's inputs, in parameter order
  expectedN.npy    the compiled function's outputs on CPU, pytree leaves in order
  tol.txt          only for cases compared with a tolerance (see README.md)
and, for bfloat16 arrays (np.save writes them with descr '<V2'), float32
copies argN.f32.npy / expectedN.f32.npy.

Run with the project venv (jax 0.10.2, CPU):
    /work/h23/V/bin/python conformance/import/gen_cases.py            # (re)write every case
    /work/h23/V/bin/python conformance/import/gen_cases.py --verify   # check the stored cases
`--verify` re-runs every case op by op (jax.disable_jit(), no XLA fusion)
and, in a second process with float64 enabled, in double precision: exact
cases must match bit for bit op by op; tolerance cases report their error as
a fraction of the allowance (a correct but differently ordered f32
implementation should land well under 1).

The output is deterministic: re-running rewrites identical bytes.
"""

import os
import re
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")
# One thread for XLA's CPU kernels, so that a dot's summation order cannot
# depend on how many cores happen to be free.
os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "")
                           + " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1").strip()

import numpy as np  # noqa: E402
import ml_dtypes  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

if os.environ.get("GEN_CASES_X64") == "1":
    jax.config.update("jax_enable_x64", True)

HERE = Path(__file__).resolve().parent
BF16 = np.dtype(ml_dtypes.bfloat16)
f32 = np.float32


# ---------------------------------------------------------------------------
# The cases. Each entry: name -> (fn, args, tol, with_expected, note).
# tol None means bit-exact comparison (NaN == NaN); such cases use only
# operations whose every result is fixed by IEEE rounding of one operation
# (data movement, integer ops, comparisons, sorts, multiplying by powers of
# two, adding small integers held in floats), so any correct implementation
# reproduces the bits.

CASES = {}


def case(name, tol=None, expected=True, note=""):
    def deco(make):
        CASES[name] = dict(make=make, tol=tol, expected=expected, note=note)
        return make

    return deco


def rng_for(name):
    return np.random.default_rng(zlib.crc32(name.encode()))


def normal(rng, shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(f32)


def small_ints(rng, shape, lo=-8, hi=8, dtype=f32):
    return rng.integers(lo, hi, shape).astype(dtype)


@case("mlp", tol=1e-5, note="relu(x @ w + b), 8x16 @ 16x16")
def _mlp():
    r = rng_for("mlp")
    x, w, b = normal(r, (8, 16)), normal(r, (16, 16), 0.25), normal(r, (16,), 0.25)
    return (lambda x, w, b: jax.nn.relu(x @ w + b)), (x, w, b)


@case("mlp256", expected=False, note="relu(x @ w + b), 256x256 @ 256x256; benchmark input, no expected")
def _mlp256():
    r = rng_for("mlp256")
    x, w, b = normal(r, (256, 256)), normal(r, (256, 256), 1 / 16), normal(r, (256,), 0.25)
    return (lambda x, w, b: jax.nn.relu(x @ w + b)), (x, w, b)


@case("mlp_grad", tol=1e-4, note="value_and_grad of mean squared error of relu(x@w+b) w.r.t. (w, b): loss, dw, db")
def _mlp_grad():
    r = rng_for("mlp_grad")
    x, w, b = normal(r, (8, 16)), normal(r, (16, 16), 0.25), normal(r, (16,), 0.25)
    y = normal(r, (8, 16))

    def loss(w, b, x, y):
        return jnp.mean((jax.nn.relu(x @ w + b) - y) ** 2)

    def f(x, w, b, y):
        return jax.value_and_grad(loss, argnums=(0, 1))(w, b, x, y)

    return f, (x, w, b, y)


@case("softmax", tol=1e-5, note="jax.nn.softmax and log_softmax over the last axis of 4x10")
def _softmax():
    x = normal(rng_for("softmax"), (4, 10), 3.0)
    return (lambda x: (jax.nn.softmax(x, axis=-1), jax.nn.log_softmax(x, axis=-1))), (x,)


@case("layernorm", tol=1e-4, note="layer norm over the last axis of 4x16 with gain and bias")
def _layernorm():
    r = rng_for("layernorm")
    x, g, b = normal(r, (4, 16), 2.0) + 1.0, normal(r, (16,)), normal(r, (16,))

    def f(x, g, b):
        m = jnp.mean(x, axis=-1, keepdims=True)
        v = jnp.mean((x - m) ** 2, axis=-1, keepdims=True)
        return (x - m) * lax.rsqrt(v + 1e-5) * g + b

    return f, (x, g, b)


@case("attention", tol=1e-5, note="causal self-attention, 2 heads, seq 8, dim 16 (einsum, -inf mask, softmax)")
def _attention():
    r = rng_for("attention")
    q, k, v = (normal(r, (2, 8, 16)) for _ in range(3))

    def f(q, k, v):
        s = jnp.einsum("hqd,hkd->hqk", q, k) / jnp.sqrt(jnp.float32(16))
        mask = jnp.tril(jnp.ones((8, 8), dtype=bool))
        s = jnp.where(mask, s, -jnp.inf)
        p = jax.nn.softmax(s, axis=-1)
        return jnp.einsum("hqk,hkd->hqd", p, v)

    return f, (q, k, v)


@case("conv_pool", tol=1e-5, note="NHWC conv SAME + bias + relu + 2x2 max pool; strided dilated padded conv + 2x2 avg pool")
def _conv_pool():
    r = rng_for("conv_pool")
    x, k, b = normal(r, (2, 8, 8, 3)), normal(r, (3, 3, 3, 4), 0.3), normal(r, (4,), 0.1)
    dn = ("NHWC", "HWIO", "NHWC")

    def f(x, k, b):
        y = lax.conv_general_dilated(x, k, (1, 1), "SAME", dimension_numbers=dn)
        y = jax.nn.relu(y + b)
        pooled = lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        z = lax.conv_general_dilated(x, k, (2, 1), ((2, 1), (1, 2)), lhs_dilation=(1, 1),
                                     rhs_dilation=(2, 1), dimension_numbers=dn)
        avg = lax.reduce_window(z, 0.0, lax.add, (1, 2, 2, 1), (1, 1, 2, 1), "VALID") / 4.0
        return pooled, avg

    return f, (x, k, b)


@case("scan", tol=1e-5, note="lax.scan: running sum carry and a decayed carry over 10 steps; final carries and stacked outputs")
def _scan():
    r = rng_for("scan")
    xs, c0 = normal(r, (10, 4)), normal(r, (4,))

    def f(xs, c0):
        def step(c, x):
            s, d, n = c
            s = s + x
            d = d * 0.5 + x
            return (s, d, n + 1), (s, d)

        return lax.scan(step, (c0, c0, jnp.int32(0)), xs)

    return f, (xs, c0)


@case("fori_loop", tol=1e-5, note="lax.fori_loop with a static trip count (lowers through scan) and a dynamic one (while)")
def _fori_loop():
    r = rng_for("fori_loop")
    x, n = normal(r, (6,)), np.int32(7)

    def f(x, n):
        def body(i, c):
            v, s = c
            return v * 0.5 + jnp.sin(lax.convert_element_type(i, jnp.float32)), s + i * i

        a = lax.fori_loop(0, 10, body, (x, jnp.int32(0)))
        b = lax.fori_loop(0, n, body, (x, jnp.int32(0)))
        return a, b

    return f, (x, n)


@case("cond", note="lax.cond on a bool argument, taken both ways (lowers to stablehlo.case)")
def _cond():
    x = small_ints(rng_for("cond"), (5,)) / 2

    def f(p, x):
        a = lax.cond(p, lambda x: x * 2, lambda x: x - 1, x)
        b = lax.cond(jnp.logical_not(p), lambda x: x * 2, lambda x: x - 1, x)
        c = lax.cond(jnp.sum(x) > 100, lambda x: (x, jnp.int32(1)), lambda x: (-x, jnp.int32(2)), x)
        return a, b, c

    return f, (np.bool_(True), x)


@case("switch", note="lax.switch with 3 branches; index in range and clamped above and below")
def _switch():
    x = small_ints(rng_for("switch"), (5,)) / 4

    def f(i, x):
        br = [lambda x: x + 1, lambda x: x * 4, lambda x: -x]
        return lax.switch(i, br, x), lax.switch(i + 5, br, x), lax.switch(i - 5, br, x)

    return f, (np.int32(1), x)


@case("sort", note="jnp.sort (NaN, inf, -0.0, duplicates), descending sort, argsort, lax.sort of (keys, values) stable")
def _sort():
    r = rng_for("sort")
    x = np.array([3.5, -1.0, np.nan, 0.0, -0.0, 2.0, np.inf, -np.inf, 2.0, -7.25, 1e-3, 3.5], f32)
    keys = r.integers(0, 4, (3, 6)).astype(np.int32)
    vals = normal(r, (3, 6))

    def f(x, keys, vals):
        return (jnp.sort(x), jnp.sort(x, descending=True), jnp.argsort(x),
                lax.sort((keys, vals), dimension=1, num_keys=1, is_stable=True))

    return f, (x, keys, vals)


@case("top_k", note="lax.top_k(x, 3) over the last axis of 4x10 (a tie: the lower index comes first)")
def _top_k():
    x = normal(rng_for("top_k"), (4, 10))
    x[1, 7] = x[1, 2] = 5.0
    return (lambda x: lax.top_k(x, 3)), (x,)


@case("gather_scatter", note="x[idx] (with -1), x[idx, 1:3], x[i, j]; x.at[idx].add (duplicates, one out of bounds: dropped), .set, .max")
def _gather_scatter():
    r = rng_for("gather_scatter")
    x = small_ints(r, (10, 4)) / 2
    idx = np.array([3, 0, -1, 7, 3], np.int32)
    i = np.array([1, 9, 4], np.int32)
    j = np.array([0, 3, 2], np.int32)
    sidx = np.array([2, 5, 2, 12, 0, 2], np.int32)
    v = small_ints(r, (6, 4)) / 2
    uidx = np.array([9, 1, 4], np.int32)

    def f(x, idx, i, j, sidx, v, uidx):
        return (x[idx], x[idx, 1:3], x[i, j],
                x.at[sidx].add(v), x.at[uidx].set(v[:3]), x.at[sidx].max(v))

    return f, (x, idx, i, j, sidx, v, uidx)


@case("cumsum", tol=1e-5, note="jnp.cumsum on f32 and s32, jnp.cumprod, lax.cummax, reverse cumsum")
def _cumsum():
    r = rng_for("cumsum")
    x, xi = normal(r, (16, 3)), r.integers(-50, 50, (16, 3)).astype(np.int32)
    p = (1 + normal(r, (16, 3), 0.1)).astype(f32)

    def f(x, xi, p):
        return (jnp.cumsum(x, axis=0), jnp.cumsum(xi, axis=1), jnp.cumprod(p, axis=0),
                lax.cummax(x, axis=0), lax.cumsum(x, axis=0, reverse=True))

    return f, (x, xi, p)


@case("rng", tol=1e-5, note="jax.random.normal/uniform with fixed keys inside jit (threefry in the module; normal uses chlo.erf_inv)")
def _rng():
    def f():
        k0, k1 = jax.random.key(0), jax.random.key(1)
        return jax.random.normal(k0, (4, 8)), jax.random.uniform(k1, (8,)), jax.random.normal(jax.random.split(k0)[1], (5,))

    return f, ()


@case("rng_bits", note="jax.random.bits / randint / split / permutation with fixed keys: exact integer threefry")
def _rng_bits():
    def f():
        k = jax.random.key(42)
        a, b, c = jax.random.split(k, 3)
        return (jax.random.bits(a, (4, 8), jnp.uint32), jax.random.randint(b, (16,), 0, 100),
                jax.random.permutation(c, 10), jax.random.key_data(a))

    return f, ()


@case("special", tol=1e-5, note="erf, erf_inv, lgamma, digamma: chlo.* ops in the .mlir; the .hlo has erf natively and the others expanded")
def _special():
    x = np.linspace(-3, 3, 16).astype(f32)
    y = np.linspace(-0.99, 0.99, 16).astype(f32)
    z = np.concatenate([np.linspace(0.1, 8.0, 14), [-2.5, -0.5]]).astype(f32)
    return (lambda x, y, z: (lax.erf(x), lax.erf_inv(y), lax.lgamma(z), lax.digamma(z))), (x, y, z)


@case("complex", tol=1e-5, note="c64: jnp.fft.fft of a 16-vector, ifft, z1*z2, exp, abs, real/imag, complex()")
def _complex():
    r = rng_for("complex")
    z1 = (normal(r, (16,)) + 1j * normal(r, (16,))).astype(np.complex64)
    z2 = (normal(r, (16,)) + 1j * normal(r, (16,))).astype(np.complex64)

    def f(z1, z2):
        return (jnp.fft.fft(z1), jnp.fft.ifft(z2), z1 * z2, jnp.exp(z1), jnp.abs(z1),
                lax.complex(jnp.real(z1), jnp.imag(z2)), jnp.conj(z1))

    return f, (z1, z2)


@case("bf16", tol=1e-2, note="bf16 add and dot (args/expected saved as '<V2' plus .f32.npy copies)")
def _bf16():
    r = rng_for("bf16")
    x = normal(r, (4, 8)).astype(BF16)
    y = normal(r, (4, 8)).astype(BF16)
    w = normal(r, (8, 4), 0.5).astype(BF16)
    return (lambda x, y, w: (x + y, x @ w)), (x, y, w)


@case("int_ops", note="s32/u8 shifts (incl. >= bit width and negative amounts), rem, floor mod/div, bitwise, popcnt, clz, u8 wraparound")
def _int_ops():
    r = rng_for("int_ops")
    a = np.array([1, -1, 7, -8, 123456, -123456, 2**31 - 1, -2**31, 0, 5, -5, 1000], np.int32)
    s = np.array([0, 1, 3, 31, 32, 33, -1, 4, 5, 2, 30, 7], np.int32)
    d = np.array([3, 3, -2, 3, -7, 7, 10, 3, 5, -5, 2, -3], np.int32)
    a8 = np.array([0, 1, 255, 128, 200, 17, 99, 64, 3, 250, 7, 128], np.uint8)
    s8 = np.array([0, 1, 7, 8, 9, 255, 3, 2, 1, 4, 6, 5], np.uint8)
    d8 = np.array([1, 2, 3, 7, 9, 255, 10, 64, 2, 3, 5, 128], np.uint8)
    del r

    def f(a, s, d, a8, s8, d8):
        return (a << s, a >> s, lax.shift_right_logical(a, s),
                a8 << s8, a8 >> s8, lax.shift_right_arithmetic(a8, s8),
                lax.rem(a, d), a % d, a // d, a8 % d8, a8 // d8,
                a & d, a | d, a ^ d, ~a, lax.population_count(a), lax.clz(a),
                a8 + s8, a8 * d8, a8 - d8, a * d)

    return f, (a, s, d, a8, s8, d8)


@case("dyn_slice", note="dynamic_slice and dynamic_update_slice in a fori_loop (starts clamped at the far end)")
def _dyn_slice():
    x = small_ints(rng_for("dyn_slice"), (8, 4)) / 4

    def f(x):
        def body(i, c):
            acc, acc2 = c
            sl = lax.dynamic_slice(x, (i, 0), (3, 4))
            acc = lax.dynamic_update_slice(acc, sl[1:2] * 2.0, (i, 0))
            acc2 = lax.dynamic_update_slice(acc2, sl[:2, :2] + acc2[0, 0], (i, 3))
            return acc, acc2

        return lax.fori_loop(0, 8, body, (jnp.zeros_like(x), jnp.zeros_like(x)))

    return f, (x,)


@case("argmax", note="jnp.argmax / argmin (variadic reduce) with ties and NaN, on f32 and s32")
def _argmax():
    r = rng_for("argmax")
    x = small_ints(r, (5, 7), -3, 3)
    x[2, 4] = np.nan
    xi = r.integers(-3, 3, (5, 7)).astype(np.int32)
    return (lambda x, xi: (jnp.argmax(x, axis=1), jnp.argmin(x, axis=0),
                           jnp.argmax(xi, axis=0), jnp.argmin(xi, axis=1))), (x, xi)


@case("while_loop", note="lax.while_loop: Collatz step counts on an s32 vector (data-dependent trip count)")
def _while_loop():
    n0 = np.array([1, 6, 7, 27, 97, 2, 3, 871], np.int32)

    def f(n0):
        def cond(c):
            return jnp.any(c[0] != 1)

        def body(c):
            n, steps = c
            nxt = jnp.where(n % 2 == 0, n // 2, 3 * n + 1)
            return jnp.where(n == 1, 1, nxt), steps + (n != 1).astype(jnp.int32)

        return lax.while_loop(cond, body, (n0, jnp.zeros_like(n0)))

    return f, (n0,)


@case("call", note="a nested jax.jit called twice: func.call of a private function")
def _call():
    inner = jax.jit(lambda a, k: a * k + 1)
    x = np.arange(-4, 5, dtype=np.int32)

    def f(x):
        return inner(x, 2) + inner(x * 3, 5)

    return f, (x,)


@case("movement", note="transpose, reshape, concatenate, pad (interior, negative), rev, strided slice, broadcast, iota, squeeze")
def _movement():
    r = rng_for("movement")
    x, y = normal(r, (2, 3, 4)), normal(r, (2, 1, 4))

    def f(x, y):
        return (jnp.transpose(x, (2, 0, 1)), x.reshape(6, 4), jnp.concatenate([x, y, x], axis=1),
                lax.pad(x, jnp.float32(0.5), [(1, 0, 0), (0, 2, 1), (-1, 1, 0)]),
                jnp.flip(x, axis=(0, 2)), x[:, ::2, 1:], lax.slice(x, (0, 1, 0), (2, 3, 4), (1, 1, 3)),
                jnp.broadcast_to(y, (3, 2, 5, 4)), jnp.arange(12, dtype=jnp.int32).reshape(3, 4),
                lax.broadcasted_iota(jnp.float32, (3, 4), 1), jnp.squeeze(y, 1)[:, None, :, None])

    return f, (x, y)


@case("select_clamp", note="jnp.where (select), lax.clamp (stablehlo.clamp), jnp.clip, maximum/minimum with NaN, compares")
def _select_clamp():
    r = rng_for("select_clamp")
    x, y = normal(r, (12,)), normal(r, (12,))
    x[3] = np.nan

    def f(x, y):
        return (jnp.where(x > y, x, y), lax.clamp(jnp.float32(-0.5), x, jnp.float32(0.5)),
                jnp.clip(x, -0.25, 0.75), jnp.maximum(x, y), jnp.minimum(x, y),
                x >= y, x != x, lax.select(y < 0, -y, y))

    return f, (x, y)


@case("convert", note="convert: f32->s32 (truncation), f32->f16, f32->u8, s32->f32, bool->f32, f32->bool, bitcast_convert")
def _convert():
    x = np.array([0.0, -0.0, 1.5, -1.5, 2.5, -2.7, 1e4, 65519.0, 1e-8, 3.14159, -100.9, 0.1], f32)
    xi = np.array([0, 1, -1, 16777217, -16777217, 2**31 - 1, 7, -7, 100, 255, 256, 3], np.int32)

    def f(x, xi):
        return (x.astype(jnp.int32), x.astype(jnp.float16), jnp.abs(x).clip(0, 255).astype(jnp.uint8),
                xi.astype(jnp.float32), (x > 0).astype(jnp.float32), x.astype(bool),
                lax.bitcast_convert_type(x, jnp.int32), lax.bitcast_convert_type(xi, jnp.float32))

    return f, (x, xi)


@case("elementwise", tol=1e-5, note="exp log tanh sigmoid lax.logistic (jax expands both to exp and divide: no stablehlo.logistic) sqrt rsqrt sin cos tan pow atan2 expm1 log1p cbrt floor ceil round sign gelu")
def _elementwise():
    r = rng_for("elementwise")
    x = normal(r, (16,))
    p = (np.abs(normal(r, (16,))) + 0.1).astype(f32)

    def f(x, p):
        return (jnp.exp(x), jnp.log(p), jnp.tanh(x), jax.nn.sigmoid(x), lax.logistic(x), jnp.sqrt(p), lax.rsqrt(p),
                jnp.sin(x), jnp.cos(x), jnp.tan(x), p ** x, jnp.arctan2(x, p), jnp.expm1(x),
                jnp.log1p(p), jnp.cbrt(x), jnp.floor(x * 3), jnp.ceil(x * 3), jnp.round(x * 3),
                jnp.sign(x), jnp.abs(x), jax.nn.gelu(x, approximate=True), jax.nn.gelu(x, approximate=False),
                x / p, x - p)

    return f, (x, p)


@case("reductions", tol=1e-5, note="sum, mean, max, min, prod, var, logsumexp, any/all, integer sum over axes")
def _reductions():
    r = rng_for("reductions")
    x, xi = normal(r, (4, 6)), r.integers(-100, 100, (4, 6)).astype(np.int32)

    def f(x, xi):
        return (jnp.sum(x, axis=0), jnp.mean(x, axis=1), jnp.max(x), jnp.min(x, axis=0),
                jnp.prod(1 + x / 4, axis=1), jnp.var(x, axis=1), jax.nn.logsumexp(x, axis=1),
                jnp.any(x > 1.5, axis=1), jnp.all(x > -2, axis=0), jnp.sum(xi, axis=1), jnp.max(xi))

    return f, (x, xi)


# ---------------------------------------------------------------------------

OP_RE = re.compile(r"(?<![#\w.])((?:stablehlo|chlo)\.[a-z][a-z0-9_]*)")
GENERIC_RE = re.compile(r'"((?:stablehlo|chlo)\.[a-z][a-z0-9_]*)"')


def flatten(out):
    return [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(out)]


def save(path, arr):
    arr = np.asarray(arr)
    np.save(path, arr, allow_pickle=False)
    if arr.dtype == BF16:
        np.save(path.with_name(path.name[:-4] + ".f32.npy"), arr.astype(f32), allow_pickle=False)


def describe(arr):
    arr = np.asarray(arr)
    name = "bf16" if arr.dtype == BF16 else arr.dtype.name
    return f"{name}{list(arr.shape)}"


def generate(names):
    lines = []
    for name in names:
        spec = CASES[name]
        fn, args = spec["make"]()
        d = HERE / name
        if d.exists():
            shutil.rmtree(d)
        d.mkdir()
        lowered = jax.jit(fn).lower(*args)
        mlir = lowered.as_text()
        hlo = lowered.as_text(dialect="hlo")
        (d / f"{name}.mlir").write_text(mlir)
        (d / f"{name}.hlo").write_text(hlo)
        for i, a in enumerate(args):
            save(d / f"arg{i}.npy", a)
        outs = []
        if spec["expected"]:
            outs = flatten(lowered.compile()(*args))
            for i, o in enumerate(outs):
                save(d / f"expected{i}.npy", o)
        if spec["tol"] is not None:
            (d / "tol.txt").write_text(f"{spec['tol']:g}\n")
        if name == "special":
            # jax 0.10.2 keeps these as chlo ops in StableHLO; the HLO text
            # has erf as an HLO op and expands erf_inv, lgamma and digamma.
            for op in ("chlo.erf ", "chlo.erf_inv", "chlo.lgamma", "chlo.digamma"):
                assert op in mlir, f"{op} not in special.mlir: jax decomposed it"
        tol = "exact" if spec["tol"] is None else f"tol {spec['tol']:g}"
        if not spec["expected"]:
            tol = "no expected"
        lines.append(f"{name}: {spec['note']}\n"
                     f"    args: {', '.join(describe(a) for a in args) or '(none)'}\n"
                     f"    outputs: {', '.join(describe(o) for o in outs) or '(not stored)'}; {tol}")
    return lines


def ops_summary(names):
    per_op = {}
    occurrences = {}
    generic = {}
    for name in names:
        text = (HERE / name / f"{name}.mlir").read_text()
        for op in OP_RE.findall(text):
            per_op.setdefault(op, set()).add(name)
            occurrences[op] = occurrences.get(op, 0) + 1
        for op in GENERIC_RE.findall(text):
            generic[op] = generic.get(op, 0) + 1
    out = ["# Ops in conformance/import/*/*.mlir (written by gen_cases.py)",
           "# Op names matched by (stablehlo|chlo)\\.[a-z][a-z0-9_]* not preceded by '#' (attribute",
           "# kinds like #stablehlo.gather< are not ops); `applies stablehlo.add` in a",
           "# pretty reduce counts as a use of stablehlo.add.",
           "# columns: cases using it, occurrences, op, cases", ""]
    for op in sorted(per_op, key=lambda o: (-len(per_op[o]), o)):
        out.append(f"{len(per_op[op]):3d} {occurrences[op]:5d}  {op:32s} {' '.join(sorted(per_op[op]))}")
    out += ["", "# ops printed in generic form (\"stablehlo.op\"(...) <{...}> ({...})), occurrences:"]
    for op in sorted(generic):
        out.append(f"      {generic[op]:5d}  {op}")
    texts = [(HERE / n / f"{n}.mlir").read_text() for n in names]
    calls = sum(t.count(" call @") for t in texts)
    fcalls = sum(t.count("func.call @") for t in texts)
    funcs = sum(t.count("func.func private") for t in texts)
    out += ["", f"# func.call: {calls} printed `call @f`, {fcalls} printed `func.call @f` (inside"
            f" stablehlo.while bodies); private functions: {funcs}"]
    return "\n".join(out) + "\n"


def load_case(name):
    d = HERE / name
    args, i = [], 0
    while (d / f"arg{i}.npy").exists():
        a = np.load(d / f"arg{i}.npy")
        if a.dtype == np.dtype("V2"):
            a = a.view(BF16)
        args.append(a)
        i += 1
    exp, i = [], 0
    while (d / f"expected{i}.npy").exists():
        e = np.load(d / f"expected{i}.npy")
        if e.dtype == np.dtype("V2"):
            e = e.view(BF16)
        exp.append(e)
        i += 1
    return args, exp


def widen(a):
    a = np.asarray(a)
    if a.dtype in (np.dtype(f32), BF16, np.dtype(np.float16)):
        return a.astype(np.float64)
    if a.dtype == np.complex64:
        return a.astype(np.complex128)
    return a


def err_ratio(got, want, tol):
    """max |got - want| / (tol * (1 + |want|)), NaN/inf positions required equal."""
    g = np.asarray(got).astype(np.complex128 if np.iscomplexobj(got) or np.iscomplexobj(want) else np.float64)
    w = np.asarray(want).astype(g.dtype)
    if g.shape != w.shape:
        return float("inf")
    bad = ~np.isfinite(g) | ~np.isfinite(w)
    if bad.any():
        same = (np.isnan(g) & np.isnan(w)) | (g == w)
        if not same[bad].all():
            return float("inf")
    gg, ww = g[~bad], w[~bad]
    if gg.size == 0:
        return 0.0
    return float(np.max(np.abs(gg - ww) / (tol * (1 + np.abs(ww)))))


def bits_equal(got, want):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    if got.dtype.kind in "fc" or got.dtype == BF16:
        gn = np.isnan(got.astype(np.complex128)) if got.dtype.kind == "c" else np.isnan(got.astype(np.float64))
        wn = np.isnan(want.astype(np.complex128)) if want.dtype.kind == "c" else np.isnan(want.astype(np.float64))
        if not np.array_equal(gn, wn):
            return False
        return got[~gn].tobytes() == want[~wn].tobytes()
    return got.tobytes() == want.tobytes()


def verify_x64():
    """Run in a process with x64 on: each tolerance case in float64."""
    worst = 0.0
    for name, spec in CASES.items():
        if spec["tol"] is None or not spec["expected"]:
            continue
        if name == "rng":
            # with x64 on, jax.random draws 64-bit samples: a different
            # stream, not a more precise one (erf_inv's accuracy is checked
            # by the special case)
            print(f"  f64 {name:14s} skipped: x64 changes the random stream")
            continue
        fn, _ = spec["make"]()
        args, exp = load_case(name)
        outs = flatten(jax.jit(fn)(*[widen(a) for a in args]))
        ratios = [err_ratio(e, o, spec["tol"]) for e, o in zip(exp, outs)]
        worst = max([worst] + ratios)
        print(f"  f64 {name:14s} tol {spec['tol']:g}: error/allowance per output "
              + " ".join(f"{q:.3g}" for q in ratios))
    return worst


def verify():
    ok = True
    print("op by op (jax.disable_jit) against the stored expected:")
    for name, spec in CASES.items():
        if not spec["expected"]:
            continue
        fn, _ = spec["make"]()
        args, exp = load_case(name)
        with jax.disable_jit():
            outs = flatten(fn(*[jnp.asarray(a) for a in args]))
        if len(outs) != len(exp):
            print(f"  {name}: {len(outs)} outputs, {len(exp)} stored")
            ok = False
            continue
        if spec["tol"] is None:
            same = [bits_equal(o, e) for o, e in zip(outs, exp)]
            print(f"  {name:14s} exact: {'ok' if all(same) else 'DIFFERS at outputs ' + str([i for i, s in enumerate(same) if not s])}")
            ok &= all(same)
        else:
            ratios = [err_ratio(o, e, spec["tol"]) for o, e in zip(outs, exp)]
            print(f"  {name:14s} tol {spec['tol']:g}: max error/allowance {max(ratios):.3g}")
            ok &= max(ratios) < 1
    print("float64 reference:")
    env = dict(os.environ, GEN_CASES_X64="1")
    r = subprocess.run([sys.executable, __file__, "--verify-x64"], env=env)
    ok &= r.returncode == 0
    print("verify:", "ok" if ok else "PROBLEMS")
    return ok


def main():
    if "--verify-x64" in sys.argv:
        worst = verify_x64()
        print(f"  worst error/allowance against float64: {worst:.3g}")
        sys.exit(0 if worst < 0.5 else 1)
    if "--verify" in sys.argv:
        sys.exit(0 if verify() else 1)
    names = [a for a in sys.argv[1:] if not a.startswith("-")] or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        sys.exit(f"unknown case(s): {unknown}; known: {list(CASES)}")
    lines = generate(names)
    if names == list(CASES):
        (HERE / "CASES.txt").write_text(
            "# The cases, as gen_cases.py writes them: what each computes, its arguments\n"
            "# (argN.npy in order) and outputs (expectedN.npy in order).\n\n" + "\n".join(lines) + "\n")
        summary = ops_summary(names)
        (HERE / "OPS.txt").write_text(summary)
        print(summary)
    else:
        print("\n".join(lines))
    print(f"jax {jax.__version__}, jaxlib {jax.lib.__version__ if hasattr(jax.lib, '__version__') else ''}")


if __name__ == "__main__":
    main()
