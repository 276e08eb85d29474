"""Writes the conformance cases of the small element types in this folder:
every expected value comes from jax (XLA:CPU) and ml_dtypes, never from xlet.
Run with the venv of README's reference section:
    V/bin/python conformance/small_types/gen_expected.py

For each float format: every bit pattern converted to f32; f32 and f64
values at and beside every rounding boundary converted to the format; and
the elementwise ops, Dot and a Reduce on pairs of patterns, compared as bit
patterns (8-bit formats), as u4 patterns (f4e2m1fn) or as values (the f6
formats, which have no NaN). XLA:CPU refuses arithmetic on the f6 formats
(jax 0.10.2: "failed to legalize arith.addf", and aborts on some ops); their
expected values are numpy's f32 result rounded by ml_dtypes to f16 and then
to the format, the rule XLA:CPU follows for every other small float
(spec/small_types.md §5). For s4 u4 s2 u2: every pair of values."""
import os
import numpy as np
import ml_dtypes as m
import jax
import jax.numpy as jnp
from jax import lax

jax.config.update("jax_enable_x64", True)
HERE = os.path.dirname(os.path.abspath(__file__))

FLOATS = {
    "f8e4m3fn": m.float8_e4m3fn, "f8e5m2": m.float8_e5m2,
    "f8e4m3fnuz": m.float8_e4m3fnuz, "f8e5m2fnuz": m.float8_e5m2fnuz,
    "f8e4m3b11fnuz": m.float8_e4m3b11fnuz, "f8e4m3": m.float8_e4m3,
    "f8e3m4": m.float8_e3m4, "f8e8m0fnu": m.float8_e8m0fnu,
    "f6e2m3fn": m.float6_e2m3fn, "f6e3m2fn": m.float6_e3m2fn,
    "f4e2m1fn": m.float4_e2m1fn,
}
BITS = {"f6e2m3fn": 6, "f6e3m2fn": 6, "f4e2m1fn": 4}
INTS = {"s4": m.int4, "u4": m.uint4, "s2": m.int2, "u2": m.uint2}

UNARY = {
    "Neg": lax.neg, "Abs": lax.abs, "Sign": lax.sign, "Exp": lax.exp,
    "Expm1": lax.expm1, "Log": lax.log, "Log1p": lax.log1p, "Sqrt": lax.sqrt,
    "Rsqrt": lax.rsqrt, "Cbrt": lax.cbrt, "Sin": lax.sin, "Cos": lax.cos,
    "Tan": lax.tan, "Tanh": lax.tanh, "Logistic": lax.logistic,
    "Floor": lax.floor, "Ceil": lax.ceil, "RoundNearestEven": lax.round_even_fn
    if hasattr(lax, "round_even_fn") else (lambda x: lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN)),
    "RoundNearestAfz": lambda x: lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO),
    "Erf": lax.erf,
}
BINARY = {
    "Add": lax.add, "Sub": lax.sub, "Mul": lax.mul, "Div": lax.div,
    "Max": lax.max, "Min": lax.min, "Pow": lax.pow, "Atan2": lax.atan2,
    "Rem": lax.rem,
}
F32_OPS = {  # the reference for formats XLA:CPU cannot compute in
    "Neg": np.negative, "Abs": np.abs, "Sign": np.sign, "Exp": np.exp,
    "Sqrt": np.sqrt, "Tanh": np.tanh, "Floor": np.floor,
    "Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide,
    "Max": np.maximum, "Min": np.minimum,
}


def lit(t, vals):
    return f"{t}[{len(vals)}] {{{', '.join(vals)}}}"


def flt(v):
    v = float(v)
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == 0:
        return "-0" if np.signbit(v) else "0"
    return repr(v)


def pattern_input(name, var, pats):
    """An xlet binding of the format's values with bit patterns `pats`."""
    bits = BITS.get(name, 8)
    codes = [str(int(p)) for p in pats]
    if bits == 8:
        return f"let {var} = BitcastConvertType({lit('u8', codes)}, {name})"
    if bits == 4:
        return f"let {var} = BitcastConvertType(ConvertElementType({lit('u8', codes)}, u4), {name})"
    vals = [flt(v) for v in np.array(pats, dtype=np.uint8).view(FLOATS[name]).astype(np.float32)]
    return f"let {var} = {lit(name, vals)}"


def observe(name, expr, result):
    """An assertion that `expr` (of format `name`) equals the numpy array `result`."""
    bits = BITS.get(name, 8)
    if result.dtype == np.bool_:
        return f"then {expr} == {lit('pred', ['true' if b else 'false' for b in result])}"
    if bits == 8 and np.isnan(np.array(np.nan, dtype=np.float32).astype(FLOATS[name])):
        # Patterns, with every NaN as the format's canonical one: XLA leaves
        # the sign and payload of a NaN result unspecified (and they differ
        # between its kernels), so a NaN is compared as "a NaN".
        nan = np.array(np.nan, dtype=np.float32).astype(FLOATS[name])
        r = np.where(np.isnan(result.astype(np.float32)), nan, result)
        codes = [str(int(b)) for b in r.view(np.uint8)]
        n = len(codes)
        canon = f"Select(Ne({expr}, {expr}), Broadcast({name} nan, {{{n}}}), {expr})"
        return f"then BitcastConvertType({canon}, u8) == {lit('u8', codes)}"
    if bits == 8:
        codes = [str(int(b)) for b in result.view(np.uint8)]
        return f"then BitcastConvertType({expr}, u8) == {lit('u8', codes)}"
    # f4 and f6 have no NaN: an op's NaN becomes a zero whose sign is the
    # NaN's (unspecified), so they compare as values, where -0 == 0.
    vals = [flt(v) for v in result.astype(np.float32)]
    return f"then ConvertElementType({expr}, f32) == {lit('f32', vals)}"


def jit(f, *xs):
    return np.asarray(jax.jit(f)(*xs))


def convert(x, t):
    """`x` converted to `t` by XLA:CPU, or by ml_dtypes for the f6 formats
    (XLA:CPU aborts the process on some of their ops)."""
    if x.dtype in (np.dtype(m.float6_e2m3fn), np.dtype(m.float6_e3m2fn)):
        return x.astype(t)
    return jit(lambda a: a.astype(t), x)


def without_ftz(name, f, r, *args):
    """XLA:CPU flushes f32 subnormals to zero; xlet keeps them (spec/numerics.md
    §1). Only f8e8m0fnu, computed in f32, has a value (2^-127) that is an f32
    subnormal: where an operand or the exact result is below f32's smallest
    normal, the expected value is the f64 result (XLA:CPU, which flushes only
    below f64's range) rounded to the format by ml_dtypes."""
    if name != "f8e8m0fnu":
        return r
    t = FLOATS[name]
    with np.errstate(all="ignore"):
        ref = np.asarray(jax.jit(f)(*(a.astype(np.float64) for a in args)))
    tiny = np.finfo(np.float32).tiny
    flushed = np.abs(ref) < tiny
    for a in args:
        flushed |= np.abs(a.astype(np.float64)) < tiny
    if ref.dtype == np.bool_:
        return np.where(flushed, ref, r)
    return np.where(flushed, ref.astype(t), r)


def boundaries(t):
    """f32 values at, between and just beside consecutive finite values of `t`."""
    vals = np.array(sorted({float(v) for v in np.arange(256, dtype=np.uint8).view(t)
                            .astype(np.float64) if np.isfinite(v)} if np.dtype(t).itemsize == 1 else []))
    out = []
    for a, b in zip(vals[:-1], vals[1:]):
        mid = np.float32((a + b) / 2)
        out += [mid, np.nextafter(mid, np.float32(-np.inf)), np.nextafter(mid, np.float32(np.inf))]
    top = vals[-1]
    with np.errstate(over="ignore"):
        out += [np.float32(top * 1.0625), np.float32(top * 1.5), np.float32(top * 4), np.float32(1e30),
                np.float32(np.inf), np.float32(-np.inf), np.float32(np.nan), np.float32(-0.0),
                np.float32(1e-30), np.float32(-1e-30)]
    return np.array(out, dtype=np.float32)


def float_case(name):
    t = FLOATS[name]
    bits = BITS.get(name, 8)
    n = 1 << bits
    pats = np.arange(n, dtype=np.uint8)
    x = pats.view(t)
    y = ((pats.astype(np.int64) * 37 + 11) % n).astype(np.uint8).view(t)
    lines = [
        f"// {name}: generated by gen_expected.py in this folder from jax {jax.__version__}",
        "// (XLA:CPU) and ml_dtypes; do not edit. spec/small_types.md says what is tested.",
        "",
        pattern_input(name, "x", pats),
        pattern_input(name, "y", ((pats.astype(np.int64) * 37 + 11) % n)),
        "",
        "// Every value to f32 (exact); NaNs compare as patterns.",
        f"then BitcastConvertType(ConvertElementType(x, f32), u32) == "
        + lit("u32", [str(int(b)) for b in convert(x, np.float32).view(np.uint32)]),
    ]
    if bits == 8:
        b32 = boundaries(t)
        lines += [
            "",
            "// f32 and f64 at, below and above every midpoint, past the largest value, and the specials.",
            f"let b32 = {lit('f32', [flt(v) for v in b32])}",
            observe(name, f"ConvertElementType(b32, {name})", jit(lambda a: a.astype(t), b32)),
        ]
        b64 = b32.astype(np.float64)
        # Just past each f32 midpoint in f64: rounds away from the tie only if
        # the conversion reads the f64 directly.
        b64 = np.concatenate([b64, b64[0::3] * (1 + 2.0**-40)])
        lines += [
            f"let b64 = {lit('f64', [flt(v) for v in b64])}",
            observe(name, f"ConvertElementType(b64, {name})", jit(lambda a: a.astype(t), b64)),
        ]
    lines += ["", "// Elementwise ops on every pattern (and pairs of patterns)."]
    if bits == 6:
        # No XLA:CPU reference: ml_dtypes' rounding of numpy's f32 result.
        with np.errstate(all="ignore"):
            for op, f in F32_OPS.items():
                args = (x, y) if op in BINARY else (x,)
                # f32, then f16, then the format: the rule XLA:CPU follows
                # for the other small floats (spec/small_types.md §5).
                r = f(*(a.astype(np.float32) for a in args)).astype(np.float16).astype(t)
                lines.append(observe(name, f"{op}({', '.join('xy'[:len(args)])})", r))
        return "\n".join(lines) + "\n"
    for op, f in UNARY.items():
        if op == "Expm1":
            # XLA:CPU's f16 Expm1 rounds exp(x) to f16 before subtracting 1;
            # xlet's f16 Expm1 rounds the f32 result once (spec/numerics.md
            # §1), so the f16-computed formats differ at a few ties.
            continue
        r = jit(f, x)
        # Logistic is expanded in the format (1 / (1 + Exp(-x))), where -x is
        # NaN for unsigned e8m0 whatever flushing does.
        lines.append(observe(name, f"{op}(x)", r if op == "Logistic" else without_ftz(name, f, r, x)))
    for op, f in BINARY.items():
        lines.append(observe(name, f"{op}(x, y)", without_ftz(name, f, jit(f, x, y), x, y)))
    # Dot: XLA:CPU multiplies in f16 (f32 for e8m0) and rounds the sums
    # once; Reduce with Max, whose result does not depend on the order.
    rng = np.random.default_rng(7)
    a = (rng.normal(size=(4, 8)) * 2).astype(t)
    b = (rng.normal(size=(8, 3)) * 2).astype(t)
    if name == "f8e8m0fnu":
        a, b = np.abs(a.astype(np.float32)).astype(t), np.abs(b.astype(np.float32)).astype(t)
    lines.append(f"let a = Reshape({lit(name, [flt(v) for v in a.astype(np.float32).ravel()])}, {{4, 8}})")
    lines.append(f"let b = Reshape({lit(name, [flt(v) for v in b.astype(np.float32).ravel()])}, {{8, 3}})")
    lines.append(observe(name, "Reshape(Dot(a, b), {12})", jit(lax.dot, a, b).ravel()))
    first = "Reshape(Slice(Reshape(a, {32}), {0}, {1}, {1}), {})"
    lines.append(observe(name, f"Reshape(Reduce(Reshape(a, {{32}}), {first}, max, {{0}}), {{1}})",
                         jit(lambda v: lax.reduce(v, v[0], lax.max, (0,)), a.ravel()).reshape(1)))
    lines.append(observe(name, "Lt(x, y)", jit(lambda a, b: a < b, x, y)))
    lines.append(observe(name, "Eq(x, y)", jit(lambda a, b: a == b, x, y)))
    lines.append(observe(name, "IsFinite(x)", jit(lax.is_finite, x)))
    return "\n".join(lines) + "\n"


def int_case(name):
    t = INTS[name]
    info = m.iinfo(t)
    vals = np.arange(info.min, info.max + 1)
    xs = np.repeat(vals, len(vals)).astype(t)
    ys = np.tile(vals, len(vals)).astype(t)

    def ilit(arr):
        return lit(name, [str(int(v)) for v in arr.astype(np.int64)])

    lines = [
        f"// {name}: generated by gen_expected.py in this folder from jax {jax.__version__}",
        "// (XLA:CPU) and ml_dtypes; do not edit. Every pair of values.",
        "",
        f"let x = {ilit(xs)}",
        f"let y = {ilit(ys)}",
        "",
    ]
    binary = {
        "Add": lax.add, "Sub": lax.sub, "Mul": lax.mul, "Div": lax.div, "Rem": lax.rem,
        "Max": lax.max, "Min": lax.min, "And": lax.bitwise_and, "Or": lax.bitwise_or,
        "Xor": lax.bitwise_xor, "ShiftLeft": lax.shift_left,
        "ShiftRightArithmetic": lax.shift_right_arithmetic,
        "ShiftRightLogical": lax.shift_right_logical,
    }
    for op, f in binary.items():
        lines.append(f"then {op}(x, y) == {ilit(jit(f, xs, ys))}")
    unary = {"Neg": lax.neg, "Not": lax.bitwise_not, "PopulationCount": lax.population_count,
             "Clz": lax.clz}
    if info.min < 0:
        unary.update({"Abs": lax.abs, "Sign": lax.sign})
    numpy_unary = {"Abs": np.abs, "Sign": np.sign}
    for op, f in unary.items():
        try:
            r = jit(f, xs)
        except TypeError:
            # jax refuses these on narrow integers before XLA sees them; the
            # int64 result wrapped to the width is XLA's integer rule.
            v = numpy_unary[op](xs.astype(np.int64))
            span = 1 << int(name[1:])
            r = ((v - info.min) % span + info.min).astype(t)
        lines.append(f"then {op}(x) == {ilit(r)}")
    lines.append(f"then Lt(x, y) == {lit('pred', ['true' if b else 'false' for b in jit(lambda a, b: a < b, xs, ys)])}")
    wide = np.array([-300, -129, -17, -9, -8, -5, -3, -2, -1, 0, 1, 2, 3, 5, 7, 8, 15, 16, 17, 255, 256, 1000], dtype=np.int32)
    lines.append(f"then ConvertElementType({lit('s32', [str(v) for v in wide])}, {name}) == {ilit(jit(lambda a: a.astype(t), wide))}")
    fl = np.array([-100.5, -9.0, -8.5, -2.5, -1.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.99, 7.5, 8.0, 15.5, 16.0, 100.0, np.inf, -np.inf, np.nan], dtype=np.float32)
    lines.append(f"then ConvertElementType({lit('f32', [flt(v) for v in fl])}, {name}) == {ilit(jit(lambda a: a.astype(t), fl))}")
    lines.append(f"then ConvertElementType(x, s32) == {lit('s32', [str(int(v)) for v in jit(lambda a: a.astype(jnp.int32), xs)])}")
    lines.append(f"then ConvertElementType(x, f32) == {lit('f32', [flt(v) for v in jit(lambda a: a.astype(jnp.float32), xs)])}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    for name in FLOATS:
        with open(os.path.join(HERE, f"{name}.xlet"), "w") as f:
            f.write(float_case(name))
    for name in INTS:
        with open(os.path.join(HERE, f"{name}.xlet"), "w") as f:
            f.write(int_case(name))
