"""Expected values of the complex conformance cases in this folder, from jax
(XLA:CPU) and numpy. Run with the venv of README's reference section:
    V/bin/python conformance/complex/gen_expected.py
Each line is `name: value` with the value written as an xlet literal; the
.xlet files quote these lines."""
import numpy as np

try:
    import jax
    import jax.numpy as jnp
    from jax import lax
    jax.config.update("jax_enable_x64", True)
except ImportError:  # numpy alone gives the same values to within rounding
    jax = None


def part(x, dtype):
    v = float(x)
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return repr(float(dtype(v)))


def lit(arr):
    t = "c64" if arr.dtype == np.complex64 else "c128"
    comp = np.float32 if t == "c64" else np.float64
    items = ", ".join(f"({part(z.real, comp)}, {part(z.imag, comp)})" for z in arr.ravel())
    return f"{t}[{arr.size}] {{{items}}}"


def rlit(arr):
    t = "f32" if arr.dtype == np.float32 else "f64"
    items = ", ".join(part(v, arr.dtype.type) for v in arr.ravel())
    return f"{t}[{arr.size}] {{{items}}}"


Z = [1 + 2j, -3 + 0.5j, 0.25 - 4j, -1 - 1j]
for dt in (np.complex64, np.complex128):
    z = np.array(Z, dtype=dt)
    w = np.array([2 - 1j, 0.5 + 0.5j, -2 + 3j, 1 + 0j], dtype=dt)
    print(f"z {dt.__name__}: {lit(z)}")
    print(f"w {dt.__name__}: {lit(w)}")
    ops = {
        "add": z + w, "sub": z - w, "mul": z * w, "div": z / w,
        "neg": -z, "abs": np.abs(z), "sign": z / np.abs(z),
    }
    if jax is not None:
        ops.update({
            "pow": np.asarray(lax.pow(z, w)),
            "exp": np.asarray(lax.exp(z)), "expm1": np.asarray(lax.expm1(z)),
            "log": np.asarray(lax.log(z)), "log1p": np.asarray(lax.log1p(z)),
            "sqrt": np.asarray(lax.sqrt(z)), "rsqrt": np.asarray(lax.rsqrt(z)),
            "cbrt": np.asarray(z ** (1 / 3)),
            "sin": np.asarray(lax.sin(z)), "cos": np.asarray(lax.cos(z)),
            "tan": np.asarray(lax.tan(z)), "tanh": np.asarray(lax.tanh(z)),
            "logistic": np.asarray(lax.logistic(z)),
            "sign_lax": np.asarray(lax.sign(z)),
            "abs_lax": np.asarray(lax.abs(z)),
        })
    for k, v in ops.items():
        print(f"{k} {dt.__name__}: {lit(v) if np.iscomplexobj(v) else rlit(v)}")

if jax is not None:
    # Ordered comparisons, Max and Min on complex (lexicographic on XLA:CPU).
    a = np.array([1 + 5j, 1 + 5j, 2 + 0j, -1 + 9j], dtype=np.complex64)
    b = np.array([1 + 6j, 1 + 5j, 1 + 9j, -1 + 9j], dtype=np.complex64)
    # jax refuses Lt/Le/Gt/Ge on complex, so these follow the definition
    # (StableHLO's compare: lexicographic on (real, imaginary) pairs).
    lex = [(z.real, z.imag) for z in a], [(z.real, z.imag) for z in b]
    for name, f in [("lt", lambda p, q: p < q), ("le", lambda p, q: p <= q),
                    ("gt", lambda p, q: p > q), ("ge", lambda p, q: p >= q)]:
        print(f"{name} a b: {[bool(f(p, q)) for p, q in zip(*lex)]}")
    print(f"max a b: {lit(np.asarray(lax.max(a, b)))}")
    print(f"min a b: {lit(np.asarray(lax.min(a, b)))}")
    # ConvertElementType from complex keeps the real part.
    print(f"convert c64->f32: {rlit(np.asarray(lax.convert_element_type(a, np.float32)))}")
    print(f"convert c64->s32: {np.asarray(lax.convert_element_type(a, np.int32)).tolist()}")

if jax is not None:
    # Branch cuts and special values (c128): the sign of a zero imaginary part
    # picks the side of the cut along the negative real axis.
    s = np.array([complex(-4, 0), complex(-4, -0.0), complex(-1, 0), complex(-1, -0.0),
                  complex(0, 0), complex(np.inf, 0), complex(-np.inf, 0), complex(0, np.inf)],
                 dtype=np.complex128)
    for name, f in [("sqrt", lax.sqrt), ("log", lax.log), ("exp", lax.exp), ("abs", lax.abs),
                    ("sign", lax.sign), ("tanh", lax.tanh), ("rsqrt", lax.rsqrt)]:
        v = np.asarray(f(s))
        print(f"special {name}: {lit(v) if np.iscomplexobj(v) else rlit(v)}")

if jax is not None:
    # Sin and Cos at every pair of parts from 0, -0, 1, -1, inf, -inf, nan,
    # then where exp(|y|) overflows (XLA's cosh and sinh come from it) though
    # cosh itself would not.
    vals = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan]
    t = np.array([complex(a, b) for a in vals for b in vals]
                 + [1 + 710j, 1e-300 + 710.4j, 0.5 + 700j, 1 - 710.4j], dtype=np.complex128)
    print(f"trig s: {lit(t)}")
    print(f"special sin: {lit(np.asarray(lax.sin(t)))}")
    print(f"special cos: {lit(np.asarray(lax.cos(t)))}")
    t32 = np.array([1 + 88.5j, 1 + 89.4j, 0.5 - 89j, 2 + 1e-30j], dtype=np.complex64)
    print(f"trig s32: {lit(t32)}")
    print(f"special sin c64: {lit(np.asarray(lax.sin(t32)))}")
    print(f"special cos c64: {lit(np.asarray(lax.cos(t32)))}")
    # Pow at every pair of a base and an exponent: zeros, one, infinities,
    # NaN, the negative real axis.
    xs = [0, -0.0, complex(0, -0.0), 1, 2, -2, 2j, complex(np.inf, 0), complex(-np.inf, 0),
          complex(0, np.inf), complex(np.inf, np.inf), complex(np.nan, 0), complex(1, np.nan), 1 + 1j]
    ys = [0, complex(0, -0.0), 2, 0.5, -1, 1j, 2 + 1j, -1 + 1j, complex(np.inf, 0),
          complex(np.nan, 0), complex(0, np.nan)]
    px = np.array([x for x in xs for y in ys], dtype=np.complex128)
    py = np.array([y for x in xs for y in ys], dtype=np.complex128)
    print(f"pow x: {lit(px)}")
    print(f"pow y: {lit(py)}")
    print(f"special pow: {lit(np.asarray(lax.pow(px, py)))}")
